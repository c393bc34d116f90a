"""Players for Survive the Island (rulings S1-S17), above the rules in `sim/survive_the_island/`.

Compiled players choose action codes for the seat whose decision it is (sim/survive_the_island/
kernel.py): `registry` names them, every game's play loop (policies/play.py) plays them, and
`seats` is the player that plays a different policy in each seat.
"""
