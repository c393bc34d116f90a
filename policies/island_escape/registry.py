"""Policies by name. A policy is a module with `DESCRIPTION` and two numba functions:

- `choose(s, p, pp, legal, rng) -> action id` given the state array, the rule parameters, the
  policy's own parameter array and the legal actions as a bit mask (bit a set: action a is
  legal; sim/island_escape/layout.py names the actions);
- `escape(s, p, pp, pawn, opts, n, rng) -> index` into `opts[:n]`, the tiles its pawn may swim
  to when its place sinks (R15).

A fair policy reads only public fields of `s` (R19): not the cards of face-down places
(`s[CARD + i]` where `s[TSTATE + i] == DOWN`) nor the undrawn pile order (`s[COLP/ROWP + k]`
for k >= s[PILE_POS]), and draws randomness only from the policy stream.
"""

import importlib
from collections.abc import Iterator, Mapping
from types import ModuleType

from policies import specs


class _Policies(Mapping):
    """name -> (id, module), importing a policy's module only when it is asked for: a command
    that plays one policy loads that one (with its numba functions), not the whole ladder
    (about a sixth of `simulate`'s start-up). Iterating, `in` and `len` import nothing."""

    def __init__(self, table: dict[str, tuple[int, str]]) -> None:
        self._table = table

    def __getitem__(self, name: str) -> tuple[int, ModuleType]:
        pid, module = self._table[name]
        return pid, importlib.import_module(f"policies.island_escape.{module}")

    def id_of(self, name: str) -> int:
        """The policy's kernel id, without importing it."""
        return self._table[name][0]

    def __contains__(self, name: object) -> bool:
        return name in self._table

    def __iter__(self) -> Iterator[str]:
        return iter(self._table)

    def __len__(self) -> int:
        return len(self._table)


# name -> (id used by the kernel's dispatch, module in policies/); the order of ids is fixed.
# (policies/gen_dispatch.py reads this table from the source.)
POLICIES = _Policies({
    "idle": (0, "idle"),
    "random": (1, "uniform_random"),
    "greedy": (2, "greedy"),
    "novice": (3, "novice"),
    "expert": (4, "expert"),
    "oracle": (5, "oracle"),
    "lookahead": (6, "lookahead"),
    "clairvoyant": (7, "clairvoyant"),
    "skilled": (8, "skilled"),
})
# Policies that search (seconds per game): experiments give them a smaller share of games.
SLOW = {"lookahead", "clairvoyant"}
# Search policies and the policy they roll out with: a search is never worse than its rollout
# policy on the same games (tests/test_search.py).
ROLLOUT = {"lookahead": "expert", "clairvoyant": "expert"}
# Policies that read hidden information (R19): never used to judge difficulty.
UNFAIR = {"oracle", "clairvoyant"}

# The strongest fair policies first: the first one registered judges difficulty by default.
JUDGES = ("expert", "greedy")


def default_judge() -> str:
    return next(name for name in JUDGES if name in POLICIES)


# One default player everywhere: the policy the difficulty report judges with, so `simulate`,
# `sweep` and `compare` without --policy give the numbers the report gives.
DEFAULT_POLICY = default_judge()


class UnknownPolicy(ValueError):
    pass


def policy_id(name: str) -> int:
    """The kernel id of a policy, or of a player spec such as `skilled@0.5`."""
    base = name.partition("@")[0]
    try:
        return POLICIES.id_of(base)
    except KeyError:
        raise UnknownPolicy(f"unknown policy {base!r} (choose from {', '.join(POLICIES)})") from None


def takes_skill(name: str) -> bool:
    return name in POLICIES and hasattr(POLICIES[name][1], "skill_params")


def with_skill(name: str, skill: float) -> str:
    """The player spec of policy `name` at `skill` (0 to 1), e.g. `skilled@0.5` (policies/specs.py)."""
    return specs.with_skill(name, skill, takes_skill, POLICIES, UnknownPolicy)


def player_params(spec: str):
    """The parameter array of a player spec `name@skill`, or None for a plain policy name."""
    return specs.spec_params(spec, policy_id, with_skill, lambda name: POLICIES[name][1], UnknownPolicy)


def describe() -> list[tuple[str, str]]:
    return [(name, module.DESCRIPTION) for name, (_, module) in POLICIES.items()]
