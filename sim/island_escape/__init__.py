"""Island Escape, the lab's first game: a 5x5 island of face-down cards, four Kings, a helicopter
and a rising sea (rulings R1-R19).

`rules` holds the cards, the gauge and the rule parameters; `engine` is the readable reference
engine (the definition of the game); `records` reads, replays and writes game records;
`narrative` tells a game in words; `layout` and `kernel` are the numba kernel's state layout and
step functions; `boards` draws the island.
"""
