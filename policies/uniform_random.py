"""`random`: uniform over the legal actions (passing the rest of the turn included).

The weakest rung of the ladder and the workhorse of the differential tests: it reaches every
kind of action and every ending. Its randomness comes from the policy stream only.
"""

from numba import njit

from sim.layout import N_ACTIONS, STREAM_POLICY, rand_below

DESCRIPTION = "uniform over the legal actions, ending the turn included"


@njit(cache=True)
def choose(s, p, pp, mask, rng):
    n = 0
    for a in range(N_ACTIONS):
        n += mask[a]
    k = rand_below(rng, STREAM_POLICY, n)
    for a in range(N_ACTIONS):
        if mask[a]:
            if k == 0:
                return a
            k -= 1
    return N_ACTIONS - 1


@njit(cache=True)
def escape(s, p, pp, pawn, opts, n, rng):
    return rand_below(rng, STREAM_POLICY, n)
