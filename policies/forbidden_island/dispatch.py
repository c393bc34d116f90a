"""From a policy id to the policy's `choose`, for the play loop (policies/forbidden_island/play.py).

The id must be a compile-time constant (numba's Literal[int]): each entry in `entries.py` passes
one, so numba compiles and caches the play loop with that one policy in it, and imports the
policy's module only then. Island Escape's dispatch works the same way (policies/island_escape/dispatch.py).

A policy whose module says `USES_LEGAL = False` decides without the legal list: the loop skips
building it (the longest list is over a hundred Helicopter Lift codes) and asks the policy
blind, with n = 0 (registry.py says what such a policy returns).
"""

import importlib

from numba import types
from numba.core.errors import TypingError
from numba.extending import overload

from policies.forbidden_island.registry import MODULES


def _module(pid):
    if not isinstance(pid, types.IntegerLiteral):
        raise TypingError("the policy id must be a compile-time constant: enter through "
                          "policies/forbidden_island/entries.py")
    return importlib.import_module(f"policies.forbidden_island.{MODULES[pid.literal_value]}")


def choose(pid, s, p, pp, acts, n, rng):
    """The index into acts[:n] policy `pid` chooses (numba code only)."""
    raise NotImplementedError("for numba code only")


@overload(choose, prefer_literal=True)
def _choose(pid, s, p, pp, acts, n, rng):
    fn = _module(pid).choose
    return lambda pid, s, p, pp, acts, n, rng: fn(s, p, pp, acts, n, rng)


def uses_legal(pid):
    """Whether policy `pid` reads the legal list (numba code only)."""
    raise NotImplementedError("for numba code only")


@overload(uses_legal, prefer_literal=True, inline="always")
def _uses_legal(pid):
    uses = bool(getattr(_module(pid), "USES_LEGAL", True))
    return lambda pid: uses
