"""Profiling tools, run by hand with `python -m experiments.profiling.<module>`; not tests.

`fi_speed`: Forbidden Island's expert in games per CPU-second, and its decisions a game by kind.
docs/performance.md shows what it prints.
"""
