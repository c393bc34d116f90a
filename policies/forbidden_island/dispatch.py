"""From a policy id to Forbidden Island's policies, for the play loop (play.py), through the
lab's one dispatch mechanism (policies/dispatch.py says how and why): each entry in entries.py
passes a constant id, so numba compiles and caches the play loop with that one policy in it, and
imports the policy's module only then.

A policy whose module says `USES_LEGAL = False` decides without the legal list: the loop skips
building it (the longest list is over a hundred Helicopter Lift codes) and asks the policy
blind, with n = 0 (registry.py says what such a policy returns).
"""

from numba.extending import intrinsic

from policies.dispatch import constant_flag, direct_call, policy_module, uses_legal_flag
from policies.forbidden_island.registry import MODULES


def _module(pid):
    return policy_module("policies.forbidden_island", MODULES, pid, "policies/forbidden_island/entries.py")


@intrinsic(prefer_literal=True)
def choose(typingctx, pid, s, p, pp, acts, n, rng):
    """The index into acts[:n] policy `pid` chooses (numba code only): its module's
    `choose(s, p, pp, acts, n, rng)`."""
    return direct_call(typingctx, _module(pid).choose, pid, (s, p, pp, acts, n, rng))


@intrinsic(prefer_literal=True)
def uses_legal(typingctx, pid):
    """Whether policy `pid` reads the legal list (numba code only): a constant."""
    return constant_flag(pid, uses_legal_flag(_module(pid)))
