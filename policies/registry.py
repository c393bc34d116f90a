"""A game's players by name, written once for every game: each game's `policies/<game>/registry.py`
declares its `REGISTRY = Registry(...)`, a table of names, kernel ids and modules, and which
players search, cheat or judge.

A policy is a module of the game's package with `DESCRIPTION` and one numba function, the same
in every game:

    choose(s, p, pp, acts, n, rng) -> index into acts[:n]

given the state and rule parameters (the game's `sim/<game>/layout.py`), the policy's own
parameter array `pp` (float64) and the codes of the legal decisions, whoever's they are (the
kernel's `legal_actions`). A policy that lists its own candidates says `USES_LEGAL = False`: the
play loop (policies/play.py) then builds no legal list and calls it with n = 0, and it writes the
code of its (legal) choice into acts[0] and returns 0. A fair policy reads only what the deciding
seat may see (each game's rulings say what is hidden) and draws randomness only from the policy
stream (`layout.STREAM_POLICY`).

A module may also give `default_params()` (its parameter array when none is given; zeros
otherwise: every weight at its default), and either `skill_params(skill)` (it then plays at a
skill from 0 to 1, as a player spec `name@skill`) or `budget_params(budget)` (a search at an
integer budget, 1 or more, as `name@budget`).

A registry may also name players that are a registered policy playing with weights of their own
(`weighted`): `tuned` is the expert with the weights `island-escape tune` found, kept in the
repository beside the game's players (`policies/<game>/tuned.json`). Such a player is played by
its policy's compiled loop (no kernel id of its own) with its weights in the parameter array.

Modules are named here, not imported, so that the dispatch can read a registry while search
policies import the play loop; a module is imported when first asked for, so a command playing
one policy loads that one.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import numpy as np

PARAMS_LENGTH = 32  # a player's parameter array when its module gives no default_params()


class UnknownPolicy(ValueError):
    """A policy or player spec a game does not have: its message names the known ones."""


class _Modules(Mapping):
    """name -> (id, module), importing a policy's module only when it is asked for; iterating,
    `in` and `len` import nothing."""

    def __init__(self, package: str, table: dict[str, tuple[int, str]]) -> None:
        self._package, self._table = package, table

    def __getitem__(self, name: str) -> tuple[int, ModuleType]:
        pid, module = self._table[name]
        return pid, importlib.import_module(f"{self._package}.{module}")

    def __iter__(self) -> Iterator[str]:
        return iter(self._table)

    def __len__(self) -> int:
        return len(self._table)

    def __contains__(self, name: object) -> bool:
        return name in self._table


@dataclass(frozen=True)
class Registry:
    """One game's players. `table`: name -> (kernel id, module name in `package`); ids are fixed
    once given (the generated entries, policies/entries.py, are compiled for them)."""

    package: str  # the game's players' package: "policies.island_escape"
    title: str  # the game's name in messages
    table: dict[str, tuple[int, str]]
    # Search policies and the policy each rolls out with: a search is never worse than its rollout
    # policy on the same games (the games' search tests).
    rollout: dict[str, str] = field(default_factory=dict)
    slow: frozenset[str] = frozenset()  # policies that search (seconds a game): experiments give them fewer games
    unfair: frozenset[str] = frozenset()  # policies that read hidden information: labelled, never judges
    judges: tuple[str, ...] = ()  # the strongest fair policies first: the first registered plays by default
    hidden: frozenset[str] = frozenset()  # registered for the play loop, not offered by name (a table of seats)
    # A game whose seats may each play their own policy: the hidden policy that plays such a table
    # (its module's `seat_params(names, pp)` tells it each seat's policy) and the policies a seat may
    # play. Empty: every seat plays the one policy named.
    seat_table: str = ""
    seat_choices: tuple[str, ...] = ()
    # name -> the registered policy it plays, with the weights saved in `policies/<game>/<name>.json`
    # (`island-escape tune --save`: {"policy": ..., "weights": {slot: value}, ...}).
    weighted: dict[str, str] = field(default_factory=dict)

    # --- names ----------------------------------------------------------------------------------

    @property
    def policies(self) -> _Modules:
        """name -> (id, module) of every policy offered by name."""
        table = {k: v for k, v in self.table.items() if k not in self.hidden}
        return _Modules(self.package, table | {name: self.table[base] for name, base in self.weighted.items()})

    @property
    def default_policy(self) -> str:
        return next(name for name in self.judges if name in self.table)

    def registered(self, name: str) -> str:
        """The registered policy that plays `name`: itself, or the one a weighted player plays."""
        return self.weighted.get(name, name)

    def policy_id(self, spec: str) -> int:
        """The kernel id of a policy, or of a player spec such as `skilled@0.5`."""
        base = self.registered(spec.partition("@")[0])
        if base not in self.table or base in self.hidden:
            raise UnknownPolicy(f"unknown {self.title} policy {base!r} (choose from {', '.join(self.policies)})")
        return self.table[base][0]

    def module_name(self, pid: int) -> str:
        """The module of kernel id `pid` (the dispatch's question)."""
        return next(module for i, module in self.table.values() if i == pid)

    def name_of(self, pid: int) -> str:
        return next(name for name, (i, _) in self.table.items() if i == pid)

    def module(self, spec: str) -> ModuleType:
        """The module of a policy or player spec (a hidden policy by its name too)."""
        base = spec.partition("@")[0]
        if base not in self.hidden:
            self.policy_id(spec)
        return importlib.import_module(f"{self.package}.{self.table[self.registered(base)][1]}")

    def describe(self) -> list[tuple[str, str]]:
        return [(name, self.saved_weights(name)["description"] if name in self.weighted else
                 self.module(name).DESCRIPTION) for name in self.policies]

    def weights_path(self, name: str) -> Path:
        """Where a weighted player's weights are kept."""
        return Path(importlib.import_module(self.package).__file__).parent / f"{name}.json"

    def saved_weights(self, name: str) -> dict:
        """A weighted player's saved file: its policy, weights by slot and how they were found."""
        saved = json.loads(self.weights_path(name).read_text())
        if saved.get("policy") != self.weighted[name]:
            raise UnknownPolicy(f"{self.weights_path(name)} holds weights of {saved.get('policy')!r}, "
                                f"not of {self.weighted[name]!r}")
        return saved

    def seat_players(self, spec: str, players: int) -> list[str]:
        """The policy of each seat a player string names: one spec for every seat, or (where the
        game seats policies apart) one name per seat separated by commas. UnknownPolicy for an
        unknown name or a count that is neither 1 nor the number of players."""
        names = [name.strip() for name in spec.split(",")]
        if len(names) == 1:
            self.player_params(names[0])
            return names * players
        if not self.seat_table:
            raise UnknownPolicy(f"{spec!r} names {len(names)} policies: {self.title}'s seats play one policy together")
        if len(names) != players:
            raise UnknownPolicy(f"{spec!r} names {len(names)} policies for {players} seats "
                                "(name one policy for every seat, or one per seat)")
        for name in names:
            self.player_params(name)
            base, _, arg = name.partition("@")
            if (arg and not self.takes_budget(base)) or base not in self.seat_choices:
                raise UnknownPolicy(f"policy {name!r} cannot play one seat of a mixed table "
                                    f"(choose from {', '.join(self.seat_choices)})")
        return names

    def playing(self, spec: str, players: int, pp: np.ndarray | None = None) -> tuple[str, np.ndarray]:
        """The registered policy that plays player string `spec` at `players` seats and its
        parameter array (`pp`, else the spec's default): the spec's policy, or for seats that play
        different policies the seat table with each seat's policy written into the array."""
        names = self.seat_players(spec, players)
        if len(set(names)) > 1:
            table = self.module(self.seat_table)
            return self.seat_table, table.seat_params(names, pp)
        return self.registered(names[0].partition("@")[0]), self.default_params(names[0]) if pp is None else pp

    # --- skills and parameters ------------------------------------------------------------------

    def takes_skill(self, name: str) -> bool:
        return name in self.policies and hasattr(self.module(name), "skill_params")

    def takes_budget(self, name: str) -> bool:
        return name in self.policies and hasattr(self.module(name), "budget_params")

    def with_budget(self, name: str, budget: int) -> str:
        """The player spec of search policy `name` at `budget` (1 or more), e.g. `lookahead@4`."""
        if not self.takes_budget(name):
            able = ", ".join(n for n in self.policies if self.takes_budget(n))
            raise UnknownPolicy(f"policy {name!r} takes no budget (only {able or 'none'} does)")
        if budget < 1 or budget != int(budget):
            raise UnknownPolicy(f"a budget is a whole number from 1 up, not {budget:g}")
        return f"{name}@{int(budget)}"

    def with_skill(self, name: str, skill: float) -> str:
        """The player spec of policy `name` at `skill` (0 to 1), e.g. `skilled@0.7`: the name a
        table, sweep, record or command line shows for that player."""
        if not self.takes_skill(name):
            able = ", ".join(n for n in self.policies if self.takes_skill(n))
            raise UnknownPolicy(f"policy {name!r} takes no skill (only {able or 'none'} does)")
        if not 0.0 <= skill <= 1.0:
            raise UnknownPolicy(f"skill must be from 0 to 1, not {skill:g}")
        return f"{name}@{skill:g}"

    def player_params(self, spec: str) -> np.ndarray | None:
        """The parameter array of a player spec `name@skill`, or None for a plain policy name;
        UnknownPolicy for a policy the game does not have or a bad skill."""
        if "," in spec:  # a policy a seat: each checked, the seats' own arrays made when they play
            for name in spec.split(","):
                self.policy_id(name.strip())
            return None
        name, _, arg = spec.partition("@")
        self.policy_id(name)
        if not arg:
            return None
        if self.takes_budget(name):
            if not arg.isdigit() or int(arg) < 1:
                raise UnknownPolicy(f"bad budget {arg!r} in player {spec!r}: a whole number from 1 up")
            return self.module(name).budget_params(int(arg))
        try:
            skill = float(arg)
        except ValueError:
            raise UnknownPolicy(f"bad skill {arg!r} in player {spec!r}: a number from 0 to 1") from None
        self.with_skill(name, skill)
        return self.module(name).skill_params(skill)

    def default_params(self, spec: str) -> np.ndarray:
        """A player's parameter array when none is given: a spec's skill's, else its module's
        `default_params()`, else zeros."""
        pp = self.player_params(spec)
        if pp is not None:
            return pp
        if "," in spec:
            return np.zeros(PARAMS_LENGTH)
        module = self.module(spec)
        pp = module.default_params() if hasattr(module, "default_params") else np.zeros(PARAMS_LENGTH)
        if spec in self.weighted:
            for slot, value in self.saved_weights(spec)["weights"].items():
                pp[int(slot)] = value
        return pp
