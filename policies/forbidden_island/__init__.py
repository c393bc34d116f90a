"""Players for Forbidden Island (rulings F1-F14), above the rules in `sim/forbidden_island/`.

Compiled players choose among the kernel's legal action codes: `registry` names them, `play` is
the loop that feeds a policy's choices to the kernel's step functions
(sim/forbidden_island/kernel.py), `entries` holds each policy's compiled entry points.
`expert_reference` is the goal-directed fair player written as readable Python over the
reference engine; `reference_play` plays whole games on the engine with any such chooser.
"""
