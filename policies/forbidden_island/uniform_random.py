"""`random`: uniform over every legal action code, any player's special cards included.

The published random player's way (and the sanity floor: it should almost never win). A
Helicopter Lift has hundreds of codes, so this player lifts whenever someone holds one.
"""

from numba import njit

from sim.forbidden_island.layout import STREAM_POLICY
from sim.intrinsics import borrowed
from sim.streams import rand_below

DESCRIPTION = "uniform over the legal actions (any player's special cards included)"


@njit(cache=True)
def choose(s, p, pp, acts, n, rng):
    s, p, pp, acts, rng = borrowed(s), borrowed(p), borrowed(pp), borrowed(acts), borrowed(rng)
    return rand_below(rng, STREAM_POLICY, n)
