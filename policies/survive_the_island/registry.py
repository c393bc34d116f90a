"""Survive the Island's policies by name.

A policy is a module of this package with `DESCRIPTION` and a numba function
`choose(s, p, pp, acts, n, rng) -> index into acts[:n]`: given the state and rule parameters
(sim/survive_the_island/layout.py), its own parameter array `pp` and the codes of the legal
actions, it picks one for the seat whose decision it is (`s[layout.SEAT]`). A policy that lists
its own candidates says `USES_LEGAL = False`: the play loop then builds no legal list and calls it
with n = 0, and it writes the code of its (legal) choice into acts[0] and returns 0. A fair policy
(S16) reads only public state and the deciding seat's own adventurers' values (never the backs of
unflooded tiles, never another seat's values) and draws randomness only from the policy stream
(`layout.STREAM_POLICY`).

A player string names one policy for every seat ("expert") or one per seat, in seat order
("expert,random,random,random"): `seat_policies` reads it.

Modules are named here, not imported, so that the play loop's dispatch can read this registry
while search policies import the play loop.
"""

from __future__ import annotations

import importlib

from policies import specs

# name -> (id the play loop is compiled for, module in policies/survive_the_island); ids are fixed.
# (policies/gen_dispatch.py reads this table from the source: after a change, run
# `python -m policies.gen_dispatch survive_the_island`.)
POLICIES: dict[str, tuple[int, str]] = {
    "random": (0, "uniform_random"),
    "expert": (1, "expert"),
    "lookahead": (2, "lookahead"),
}
MODULES = {pid: module for pid, module in POLICIES.values()}
# Search policies and the policy they roll out with: a search is never worse than its rollout
# policy on the same games.
ROLLOUT = {"lookahead": "expert"}
# Policies that search (a few games a second): experiments give them fewer games.
SLOW = {"lookahead"}
# Policies that read hidden information (none: every player here is fair, S16).
UNFAIR: set[str] = set()
# The strongest fair policy registered plays when none is named (the comparison's judge).
JUDGES = ("expert", "random")
DEFAULT_POLICY = next(name for name in JUDGES if name in POLICIES)
# Policies a seat of a mixed table may play (policies/survive_the_island/seats.py dispatches them).
SEAT_POLICIES = ("random", "expert", "lookahead")


class UnknownPolicy(ValueError):
    pass


def policy_id(name: str) -> int:
    """The kernel id of a policy, or of a player spec such as `expert@0.5`."""
    base = name.partition("@")[0]
    try:
        return POLICIES[base][0]
    except KeyError:
        raise UnknownPolicy(f"unknown Survive the Island policy {base!r} (choose from {', '.join(POLICIES)})") from None


def seat_policies(player: str, players: int) -> list[str]:
    """The policy of each seat a player string names: one name for every seat, or a name per
    seat separated by commas. UnknownPolicy for an unknown name or a count that is neither 1
    nor the number of players."""
    names = [name.strip() for name in player.split(",")]
    if len(names) == 1:
        policy_id(names[0])
        return names * players
    if len(names) != players:
        raise UnknownPolicy(f"{player!r} names {len(names)} policies for {players} seats "
                            "(name one policy for every seat, or one per seat)")
    for name in names:
        policy_id(name)
        if "@" in name or name not in SEAT_POLICIES:
            raise UnknownPolicy(f"policy {name!r} cannot play one seat of a mixed table "
                                f"(choose from {', '.join(SEAT_POLICIES)})")
    return names


def module(name: str):
    """The module of a policy or player spec."""
    policy_id(name)
    return importlib.import_module(f"policies.survive_the_island.{POLICIES[name.partition('@')[0]][1]}")


def takes_skill(name: str) -> bool:
    return name in POLICIES and hasattr(module(name), "skill_params")


def with_skill(name: str, skill: float) -> str:
    """The player spec of policy `name` at `skill` (0 to 1) (policies/specs.py)."""
    return specs.with_skill(name, skill, takes_skill, POLICIES, UnknownPolicy)


def player_params(spec: str):
    """The parameter array of a player spec `name@skill`, or None for a plain policy name (or a
    player string naming one policy per seat)."""
    if "," in spec:
        for name in spec.split(","):
            policy_id(name.strip())
        return None
    return specs.spec_params(spec, policy_id, with_skill, module, UnknownPolicy)


def describe() -> list[tuple[str, str]]:
    return [(name, module(name).DESCRIPTION) for name in POLICIES]
