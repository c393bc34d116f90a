"""From a policy id to the policy's `choose`, for the play loop (policies/forbidden_island/play.py).

The id must be a compile-time constant (numba's Literal[int]): each entry in `entries.py` passes
one, so numba compiles and caches the play loop with that one policy in it, and imports the
policy's module only then. Island Escape's dispatch works the same way (policies/dispatch.py).
"""

import importlib

from numba import types
from numba.core.errors import TypingError
from numba.extending import overload

from policies.forbidden_island.registry import MODULES


def choose(pid, s, p, pp, acts, n, rng):
    """The index into acts[:n] policy `pid` chooses (numba code only)."""
    raise NotImplementedError("for numba code only")


@overload(choose, prefer_literal=True)
def _choose(pid, s, p, pp, acts, n, rng):
    if not isinstance(pid, types.IntegerLiteral):
        raise TypingError("the policy id must be a compile-time constant: enter through "
                          "policies/forbidden_island/entries.py")
    fn = importlib.import_module(f"policies.forbidden_island.{MODULES[pid.literal_value]}").choose
    return lambda pid, s, p, pp, acts, n, rng: fn(s, p, pp, acts, n, rng)
