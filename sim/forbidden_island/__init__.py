"""Forbidden Island, the game Island Escape was adapted from, as the lab's second game.

`rules` holds the cards, tiles, roles, water meter and rule parameters; `engine` is the
readable reference engine (the definition of the game, rulings F1-F14); `records` reads,
replays and writes game records; `narrative` tells a game in words and draws the island.
Plain Python: nothing here needs numba.
"""
