"""Desert Island's own benchmarks, as `island-escape bench` runs them (experiments/bench.py): its
kernel per policy and setting, and a whole `simulate` process of random games."""

from __future__ import annotations

POLICIES = ("random",)
SEARCHES = ()
SETTINGS = {"4p": {"players": 4}, "6p": {"players": 6}}
# The `simulate --game desert-island --games N` run timed as a whole process: about 20 seconds
CLI_GAMES = {"random": 300_000}
