"""Static dispatch from a policy id to its numba functions.

Branches on an integer instead of passing functions as arguments: numba caches nothing for
functions that take first-class function arguments (numba issue #9609), and this keeps
`cache=True` effective for the whole kernel. Ids come from policies/registry.py.
"""

from numba import njit

from policies import greedy, idle, uniform_random
from sim.layout import A_END


@njit(cache=True, inline='always')
def choose_action(pid, s, p, pp, legal, rng):
    if pid == 0:
        return idle.choose(s, p, pp, legal, rng)
    if pid == 1:
        return uniform_random.choose(s, p, pp, legal, rng)
    if pid == 2:
        return greedy.choose(s, p, pp, legal, rng)
    return A_END


@njit(cache=True, inline='always')
def choose_escape(pid, s, p, pp, pawn, opts, n, rng):
    if pid == 0:
        return idle.escape(s, p, pp, pawn, opts, n, rng)
    if pid == 1:
        return uniform_random.escape(s, p, pp, pawn, opts, n, rng)
    if pid == 2:
        return greedy.escape(s, p, pp, pawn, opts, n, rng)
    return 0
