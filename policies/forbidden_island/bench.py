"""Forbidden Island's own benchmarks, as `island-escape bench` runs them (experiments/bench.py):
its kernel per policy and setting (and the reference engine replaying the kernel's records),
and its searches at their default budget."""

from __future__ import annotations

POLICIES = ("random", "expert")
SEARCHES = ("lookahead",)  # its report cells play 2,000 games each in `make report`
SETTINGS = {"normal-2p": {"players": 2, "difficulty": "normal"}, "normal-4p": {"players": 4, "difficulty": "normal"}}
