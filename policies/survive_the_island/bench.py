"""Survive the Island's own benchmarks, as `island-escape bench` runs them (experiments/bench.py):
its kernel per policy and setting (and the reference engine replaying the kernel's records), its
search at its default budget, and whole `simulate` processes of the sizes its report plays."""

from __future__ import annotations

POLICIES = ("random", "expert")
SEARCHES = ("lookahead",)  # timed only where the registry has it
SETTINGS = {"4p": {"players": 4}, "2p": {"players": 2}}
# The `simulate --game survive-the-island --games N` run each policy is timed on as a whole
# process: millions of random games, the report's hundreds of thousands of expert games.
CLI_GAMES = {"random": 2_000_000, "expert": 500_000}
