"""`clairvoyant`: CHEATS. Forbidden Island's `lookahead` search run on the one true world: it reads
the order of both draw piles and the game's own shuffle stream, so every later reshuffle too.

Each candidate's rollout with `expert` is then exactly what would follow, played to the end, and
it plays the candidate whose exact outcome is best (the expert's own unless another is strictly
better). It answers how much of a loss is luck: the deals that even a table knowing every card
loses with these candidates. Labelled a cheat; never judges.
"""

from numba import njit

from policies.forbidden_island.lookahead import default_params, index_of, search

DESCRIPTION = "CHEAT: lookahead on the true order of both piles (how much is luck; not fair)"
__all__ = ["DESCRIPTION", "choose", "default_params"]


@njit(cache=True)  # it creates arrays, which numba counts as usual
def choose(s, p, pp, acts, n, rng):
    return index_of(search(s, p, pp, acts, n, rng, True), acts, n)
