"""Players for Island Escape, above the rules in `sim/island_escape/`.

`registry` names every player (and which ones search or cheat), `decisions` turns the one policy
signature's decision into the legal-action mask or the R15 escape its players decide on, `game` is
the game's one object for the commands. The play loop, the entries and the runner are every
game's (policies/play.py, policies/entries.py, policies/runner.py).
"""
