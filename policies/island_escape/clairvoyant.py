"""`clairvoyant`: CHEATS. The lookahead search run on the one true world (R19 broken on purpose).

It reads the face-down cards, the undrawn column and row cards and the game's own flood stream,
so every future reshuffle too: each action's rollout with `expert` is then exactly what would
happen, and it plays the action whose exact outcome is best (the expert's own unless another is
strictly better). It answers "how much is luck": the deals that even a player who knew every
card loses. Labelled a cheat; never used to judge difficulty.
"""

from numba import njit

from policies.island_escape.decisions import by_mask
from policies.island_escape.lookahead import search
from policies.island_escape.oracle import escape
from sim.intrinsics import borrowed

DESCRIPTION = "CHEAT: lookahead on the true deal and flood order (how much is luck; not fair)"
USES_LEGAL = False  # decides on the legal mask, which it builds itself (decisions.py)


@njit(cache=True)  # it creates arrays, which numba counts as usual
def action(s, p, pp, legal, rng):
    s, p, pp, rng = borrowed(s), borrowed(p), borrowed(pp), borrowed(rng)
    return search(s, p, pp, legal, rng, True)


@njit(cache=True)
def choose(s, p, pp, acts, n, rng):  # the one signature (decisions.py)
    return by_mask(s, p, pp, acts, rng, action, escape)
