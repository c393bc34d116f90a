"""Players for Forbidden Island (rulings F1-F14), above the rules in `sim/forbidden_island/`.

Compiled players choose among the kernel's legal action codes (sim/forbidden_island/kernel.py):
`registry` names them, and every game's play loop (policies/play.py) plays them. `expert_reference`
is the goal-directed fair player written as readable Python over the reference engine;
`reference_play` plays whole games on the engine with any such chooser.
"""
