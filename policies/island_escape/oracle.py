"""`oracle`: CHEATS. The expert with sight of the hidden state (R19 broken on purpose).

It reads the face-down cards (so it knows where every King and needed card lies and explores
only towards them) and the undrawn column and row cards (so it knows exactly which places the
next floods of this pass hit). Not a way to play, and not an upper bound either: `lookahead`, a
fair search, beats it; `clairvoyant` is the lab's bound for how much is luck.
"""

from numba import njit

from policies.island_escape.decisions import by_mask
from policies.island_escape.expert import decide, pick_escape
from sim.intrinsics import borrowed

DESCRIPTION = "CHEAT: expert that reads face-down cards and the flood order (for comparison; not fair)"
USES_LEGAL = False  # decides on the legal mask, which it builds itself (decisions.py)


@njit(cache=True)  # allocates nothing: see policies/island_escape/decision_pieces.py
def action(s, p, pp, legal, rng):
    s, p, pp, rng = borrowed(s), borrowed(p), borrowed(pp), borrowed(rng)
    return decide(s, p, pp, legal, True, 0.0, False, rng)


@njit(cache=True)
def escape(s, p, pp, pawn, opts, n, rng):
    s, p, pp, opts, rng = borrowed(s), borrowed(p), borrowed(pp), borrowed(opts), borrowed(rng)
    return pick_escape(s, p, pp, pawn, opts, n, True)


@njit(cache=True)
def choose(s, p, pp, acts, n, rng):  # the one signature (decisions.py)
    return by_mask(s, p, pp, acts, rng, action, escape)
