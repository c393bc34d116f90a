"""`idle`: passes every turn, so only the floods play (a baseline and a benchmark)."""

from numba import njit

from policies.island_escape.decisions import escape_places, escaping_pawn
from sim.island_escape.layout import A_END, A_ESCAPE

USES_LEGAL = False  # decides without looking: the legal actions need not be computed
DESCRIPTION = "takes no actions: the floods alone (baseline for benchmarks)"


@njit(cache=True, inline='always')
def action(s, p, pp, legal, rng):
    return A_END


@njit(cache=True, inline='always')
def escape(s, p, pp, pawn, opts, n, rng):
    return 0  # the first tile in the default escape order


@njit(cache=True)
def choose(s, p, pp, acts, n, rng):
    """A_END, or an escape to the first place in the default escape order: no mask is built."""
    if escaping_pawn(s, p) >= 0:
        escape_places(s, acts)
        acts[0] = A_ESCAPE + acts[0]
    else:
        acts[0] = A_END
    return 0
