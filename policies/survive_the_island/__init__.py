"""Players for Survive the Island (rulings S1-S17), above the rules in `sim/survive_the_island/`.

Compiled players choose action codes for the seat whose decision it is: `registry` names them,
`play` is the loop that feeds each seat's policy's choices to the kernel's step functions
(sim/survive_the_island/kernel.py), `entries` holds each policy's compiled entry points and
`seats` the entry that plays a different policy in each seat.
"""
