"""Forbidden Island's policies by name.

A policy is a module of this package with `DESCRIPTION` and a numba function
`choose(s, p, pp, acts, n, rng) -> index into acts[:n]`: given the state and rule parameters
(docs/FI-KERNEL.md), its own parameter array `pp` and the codes of the legal actions, it picks
one. It decides for the whole team, so it may pick any player's out-of-turn special card. A
policy that lists its own candidates says `USES_LEGAL = False`: the play loop then builds no
legal list and calls it with n = 0, and it writes the code of its (legal) choice into acts[0]
and returns 0; where the rules leave a single action (a draw while no hand holds a special card,
`kernel.only_draw`) the loop plays it without asking such a policy. A fair policy reads no order
of the draw piles (Forbidden Island's counterpart of R19) and draws randomness only from the
policy stream (`layout.STREAM_POLICY`).

Modules are named here, not imported, so that the play loop's dispatch can read this registry
while search policies import the play loop.
"""

from __future__ import annotations

import importlib

from policies import specs

# name -> (id the play loop is compiled for, module in policies/forbidden_island); ids are fixed.
# (policies/gen_dispatch.py reads this table from the source: after a change, run
# `python -m policies.gen_dispatch forbidden_island`.)
POLICIES: dict[str, tuple[int, str]] = {
    "random": (0, "uniform_random"),
    "expert": (1, "expert"),
    "lookahead": (2, "lookahead"),
    "skilled": (3, "skilled"),
}
MODULES = {pid: module for pid, module in POLICIES.values()}
# Search policies and the policy they roll out with: a search is never worse than its rollout
# policy on the same games (tests/forbidden_island/test_lookahead.py).
ROLLOUT = {"lookahead": "expert"}
# Policies that search (a few games a second): experiments give them fewer games.
SLOW = {"lookahead"}
# The strongest fair policy registered plays when none is named (the comparison's judge).
JUDGES = ("expert", "random")
DEFAULT_POLICY = next(name for name in JUDGES if name in POLICIES)


class UnknownPolicy(ValueError):
    pass


def policy_id(name: str) -> int:
    """The kernel id of a policy, or of a player spec such as `skilled@0.5`."""
    base = name.partition("@")[0]
    try:
        return POLICIES[base][0]
    except KeyError:
        raise UnknownPolicy(f"unknown Forbidden Island policy {base!r} (choose from {', '.join(POLICIES)})") from None


def module(name: str):
    """The module of a policy or player spec."""
    policy_id(name)
    return importlib.import_module(f"policies.forbidden_island.{POLICIES[name.partition('@')[0]][1]}")


def takes_skill(name: str) -> bool:
    return name in POLICIES and hasattr(module(name), "skill_params")


def with_skill(name: str, skill: float) -> str:
    """The player spec of policy `name` at `skill` (0 to 1), e.g. `skilled@0.5` (policies/specs.py)."""
    return specs.with_skill(name, skill, takes_skill, POLICIES, UnknownPolicy)


def player_params(spec: str):
    """The parameter array of a player spec `name@skill`, or None for a plain policy name."""
    return specs.spec_params(spec, policy_id, with_skill, module, UnknownPolicy)


def describe() -> list[tuple[str, str]]:
    return [(name, module(name).DESCRIPTION) for name in POLICIES]
