"""Profiling tools, run by hand with `python -m experiments.profiling.<module>`; not tests.

`fi_speed`: Forbidden Island's expert in games per CPU-second, and its decisions a game by kind.
`fi_instructions`: the same player's instructions and instruction-cache misses, function by
function, under valgrind's callgrind. docs/performance.md shows what they print.
"""
