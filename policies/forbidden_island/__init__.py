"""Forbidden Island's players: each policy chooses among the kernel's legal action codes.

`registry` names them, `play` is the loop that feeds a policy's choices to the kernel's step
functions (sim/forbidden_island/kernel.py), `entries` holds each policy's compiled entry points.
"""
