"""What the commands ask of a game's own modules, as typed contracts: a module satisfies one by
having its members (`typing.Protocol`; `runtime_checkable`, so the conformance suite checks every
game's modules against them, names only). The `Game` object (policies/game.py) hands them out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Lockstep(Protocol):
    """sim/<game>/lockstep.py: the game's kernel checked against its reference engine, which the
    conformance suite (tests/test_conformance.py) runs on every game."""

    RULE_GRID: Sequence[Any]  # settings that random play and the lockstep cover

    def lockstep_games(self, rules: Any, seed: int, games: int) -> dict:
        """Random games played by the kernel and the reference engine side by side, raising at
        the first difference; {"decisions": compared, "steps": compared}."""


@runtime_checkable
class Checks(Protocol):
    """policies/<game>/checks.py: the game's players checked against the hidden information, on
    every game by the conformance suite."""

    def decision_states(self, count: int, seed: int) -> list[tuple]:
        """`count` states at decisions of real games, each a tuple `decide` takes."""

    def rehide(self, decision: tuple, gen: np.random.Generator) -> tuple:
        """The decision with what the deciding seat cannot see drawn again."""

    def hidden_redrawn(self, decision: tuple, other: tuple) -> bool:
        """Whether `rehide` changed anything."""

    def decide(self, policy: str, decision: tuple) -> Any:
        """What `policy` does at a decision (checking that it is legal and that it drew from its
        own random stream only): equal answers for equal information."""


@runtime_checkable
class Table(Protocol):
    """policies/<game>/table.py: the game played by people at one screen, refereed by its
    reference engine (experiments/play/server.py serves it)."""

    # `Session(id, rules, seed, records_dir, level=None, seed_chosen=False)`: one game in progress,
    # with `lock`, `rules`, `seed`, `bots` (policy -> result or None), `phase`, `public_state()` (all
    # the page may see), `act(pawn, entry)`, `flood()`, `escape(pawn, place)` and `save_record()`
    Session: type
    PlayError: type[Exception]  # what a session refuses, with the HTTP `status` to answer with
    BOT_POLICIES: Sequence[str]  # the players whose result on the people's game is shown
    LEVELS: Sequence[str]  # the report's levels a table may choose
    LEVEL_REPORTS: Sequence[str]  # the report's files holding them, the preferred first

    def rules_of_request(self, rule_keys: dict) -> Any:
        """The rules a new game asks for (a PlayError for a bad one)."""

    def board_svg(self, session: Any) -> str:
        """The board as the players see it, SVG text."""

    def bot_result(self, rules_record: dict, seed: int, policy: str) -> Any:
        """A bot's result on the people's game (run in a worker process)."""


@runtime_checkable
class Benchmarks(Protocol):
    """policies/<game>/bench.py: what `island-escape bench` (experiments/bench.py) times of it.
    Optional: `engine_rate(rules, policy, games)`, engine games a second charged for the policy's
    decisions; `CLI_GAMES` (policy -> games), the whole-process run each policy is timed on."""

    POLICIES: Sequence[str]  # the policies whose kernels are timed
    SEARCHES: Sequence[str]  # the searches timed at their default budget
    SETTINGS: dict[str, dict]  # name -> `Game.rules()` keywords: the settings they are timed on


@runtime_checkable
class Tally(Protocol):
    """What `simulate` counts of a run, batch by batch in constant memory (policies/outcomes.py):
    `Game.tally(rules, policy)` gives the game's."""

    games: int  # games counted so far

    def add(self, raw: np.ndarray) -> None:
        """Count a batch of the kernel's result rows."""

    def result(self, seconds: float | None = None) -> dict:
        """The summary so far (`simulate --json`'s keys after the setting's)."""

    def text(self, summary: dict, threads: int) -> str:
        """The summary as `simulate` prints it."""

    def sides(self, raw: np.ndarray) -> tuple[list[str], np.ndarray]:
        """Who plays for a result of their own, and what each got a game, float64 [games, sides]:
        a cooperative game's one team (1 a win, 0 a loss), a competitive game's seats (each its
        share of the win). `compare` pairs two settings side by side on these."""

    def rows(self, a: dict, b: dict) -> list[tuple[str, str, str]]:
        """Two summaries side by side, as `compare` prints them: (label, A, B) a row."""

    def row(self, summary: dict) -> dict:
        """The summary as flat columns of a sweep's summary table."""

    def half_width(self) -> float:
        """The widest 95% half-width of what the run measures so far (an adaptive sweep stops
        once it is narrow enough)."""
