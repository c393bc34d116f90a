"""Players for Desert Island (rulings D1-D22), above the rules in `sim/desert_island/`.

Compiled players choose action codes for the seat whose decision it is (sim/desert_island/
kernel.py, `decider`): `registry` names them and every game's play loop (policies/play.py) plays
them.
"""
