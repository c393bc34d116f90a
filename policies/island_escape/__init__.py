"""Players for Island Escape, above the rules in `sim/island_escape/`.

`registry` names every player (and which ones search or cheat), `play` is the loop that feeds a
policy's choices to the kernel's step functions, `entries` holds each policy's compiled entry
points (generated with `dispatch` by `policies/gen_dispatch.py`), `runner` plays games in batches and turns
them into tables and records, `game` is the game's one object for the commands.
"""
