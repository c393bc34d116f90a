"""`idle`: passes every turn, so only the floods play (a baseline and a benchmark)."""

from numba import njit

from sim.island_escape.layout import A_END

USES_LEGAL = False  # decides without looking: the kernel need not compute the legal actions
DESCRIPTION = "takes no actions: the floods alone (baseline for benchmarks)"


@njit(cache=True, inline='always')
def choose(s, p, pp, legal, rng):
    return A_END


@njit(cache=True, inline='always')
def escape(s, p, pp, pawn, opts, n, rng):
    return 0  # the first tile in the default escape order
