"""`island-escape play`: the game in a browser, refereed by the reference engine (sim/island_escape/engine.py)."""
