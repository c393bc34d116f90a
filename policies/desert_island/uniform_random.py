"""`random`: uniform over the legal codes, from the policy stream: the sanity floor, and the very
games of the kernel's `play_random` (sim/desert_island/kernel.py), which the lockstep check plays
beside the engine. It reads nothing but the legal list."""

from numba import njit

from sim.desert_island.layout import STREAM_POLICY
from sim.intrinsics import borrowed
from sim.streams import rand_below

DESCRIPTION = "uniform over the legal decisions"


@njit(cache=True)
def choose(s, p, pp, acts, n, rng):
    s, p, pp, acts, rng = borrowed(s), borrowed(p), borrowed(pp), borrowed(acts), borrowed(rng)
    return rand_below(rng, STREAM_POLICY, n)
