"""Island Escape's decisions in the one policy signature (policies/registry.py), for its policies,
which decide on the legal-action mask and answer an R15 escape apart.

A decision of the kernel's shared entry points (sim/kernel_api.py) is either an action of the
current pawn (R7-R13: the legal actions as a bit mask, `legal_mask`) or the escape of the lowest
pawn on a sunk place (R15: a place in the default escape order). Each policy module gives
`action(s, p, pp, legal, rng) -> action id` and `escape(s, p, pp, pawn, opts, n, rng) -> index
into opts[:n]`, and its `choose` is `by_mask` of the two: blind (USES_LEGAL = False), so the loop
never lists the actions it would only turn back into a mask.
"""

from numba import njit

from sim.intrinsics import borrowed
from sim.island_escape.kernel import legal_mask
from sim.island_escape.layout import A_ESCAPE, ESCAPE_FROM, ESCAPE_TO, P_PAWNS, PAWN, SEA, TSTATE


@njit(cache=True, forceinline=True)
def escaping_pawn(s, p):
    """The pawn whose escape is the decision (R15: the lowest on the sunk place), -1 for an action."""
    place = s[ESCAPE_FROM]
    if place < 0:
        return -1
    for pawn in range(p[P_PAWNS]):
        if s[PAWN + pawn] == place:
            return pawn
    return -1


@njit(cache=True, forceinline=True)
def escape_places(s, out):
    """The places the escaping pawn may swim to, in the default escape order, into out[:n]."""
    place = s[ESCAPE_FROM]
    n = 0
    for k in range(8):
        t = ESCAPE_TO[place, k]
        if t >= 0 and s[TSTATE + t] != SEA:
            out[n] = t
            n += 1
    return n


@njit(inline="always")
def by_mask(s, p, pp, acts, rng, action, escape):
    """The decision's code into acts[0] (returns 0): the escape `escape` picks among the places,
    or the action `action` picks from the legal mask."""
    s, p, pp, acts, rng = borrowed(s), borrowed(p), borrowed(pp), borrowed(acts), borrowed(rng)
    pawn = escaping_pawn(s, p)
    if pawn >= 0:
        acts[0] = A_ESCAPE + acts[escape(s, p, pp, pawn, acts, escape_places(s, acts), rng)]
    else:
        acts[0] = action(s, p, pp, legal_mask(s, p), rng)
    return 0
