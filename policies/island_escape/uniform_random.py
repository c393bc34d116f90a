"""`random`: uniform over the legal actions (passing the rest of the turn included).

The weakest rung of the ladder and the workhorse of the differential tests: it reaches every
kind of action and every ending. Its randomness comes from the policy stream only.
"""

from numba import njit

from policies.island_escape.decisions import by_mask
from sim.island_escape.layout import STREAM_POLICY, kth_set_bit, popcount, rand_below

DESCRIPTION = "uniform over the legal actions, ending the turn included"
USES_LEGAL = False  # decides on the legal mask, which it builds itself (decisions.py)


@njit(cache=True, inline='always')
def action(s, p, pp, legal, rng):
    """The k-th set bit of `legal`, k uniform over the number of legal actions."""
    return kth_set_bit(legal, rand_below(rng, STREAM_POLICY, popcount(legal)))


@njit(cache=True, inline='always')
def escape(s, p, pp, pawn, opts, n, rng):
    return rand_below(rng, STREAM_POLICY, n)


@njit(cache=True)
def choose(s, p, pp, acts, n, rng):  # the one signature (decisions.py)
    return by_mask(s, p, pp, acts, rng, action, escape)
