"""Static dispatch from a policy id to its numba functions.

Branches on an integer instead of passing functions as arguments: numba caches nothing for
functions that take first-class function arguments (numba issue #9609), and this keeps
`cache=True` effective for the whole kernel. Ids come from policies/registry.py.

The kernel's game loop runs without numba's reference counting (sim/kernel.py, `play_game`);
these two functions switch it back on (`_nrt=True`, which the policies they call inherit), so
a policy may create arrays as usual. They are called, not inlined: an inlined policy would be
compiled without reference counting, and `np.empty` and friends would not compile.
"""

from numba import njit

from policies import greedy, idle, uniform_random
from sim.layout import A_END


@njit(cache=True, _nrt=True)
def choose_action(pid, s, p, pp, legal, rng):
    if pid == 0:
        return idle.choose(s, p, pp, legal, rng)
    if pid == 1:
        return uniform_random.choose(s, p, pp, legal, rng)
    if pid == 2:
        return greedy.choose(s, p, pp, legal, rng)
    return A_END


@njit(cache=True, _nrt=True)
def choose_escape(pid, s, p, pp, pawn, opts, n, rng):
    if pid == 0:
        return idle.escape(s, p, pp, pawn, opts, n, rng)
    if pid == 1:
        return uniform_random.escape(s, p, pp, pawn, opts, n, rng)
    if pid == 2:
        return greedy.escape(s, p, pp, pawn, opts, n, rng)
    return 0
