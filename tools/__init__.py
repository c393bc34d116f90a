"""Measuring tools, run by hand from the repository's root with `python -m tools.<module>`; not
tests. They may reach into a game's own packages (the commands in experiments/ reach a game only
through its `Game`).

`fi_speed`: Forbidden Island's expert in games per CPU-second, and its decisions a game by kind.
`nrt_sites`: the reference-counting calls left in a kernel's machine code (tests/test_reference_counting.py).
`ab_speed`, `cold_compile`: two versions of the lab against each other, in speed and compile time.
`skill_coverage`: how often a table's skill interval holds its true skill.
docs/performance.md shows what they print.
"""
