"""Small helpers for building game situations in tests (not a test module)."""

from __future__ import annotations

from sim.island_escape.engine import SEA, Action, IslandEscapeEngine, PileSource, deal
from sim.island_escape.records import parse_record, replay, result_json
from sim.island_escape.rules import Rules

Place = tuple[int, int]


def make_game(rules: Rules | None = None, named: dict[Place, str] | None = None,
              floods: list[Place] | tuple = (), seed: int = 0) -> IslandEscapeEngine:
    """A game with the given named cards (the rest dealt from `seed`) and scripted floods."""
    return IslandEscapeEngine(rules or Rules(), deal(seed, named), PileSource(seed, floods))


def sink(game: IslandEscapeEngine, *places: Place) -> None:
    """Turn places into sea by hand (card gone), to build a situation."""
    for place in places:
        game.board[place].card = None
        game.board[place].state = SEA


def set_state(game: IslandEscapeEngine, state: str, *places: Place) -> None:
    for place in places:
        game.board[place].state = state


def act(game: IslandEscapeEngine, *entries: str) -> None:
    """Apply record entries as actions of the current pawn."""
    for entry in entries:
        game.apply(Action.parse(entry))


def check(game: IslandEscapeEngine, entry: str) -> str | None:
    """Why an entry is illegal now (None when legal)."""
    return game.check(Action.parse(entry))


def record(**fields) -> dict:
    """A record dict with the given fields (RECORD-FORMAT.md)."""
    data = {"format": "island-escape-record/1"}
    data.update(fields)
    return data


def play(data: dict) -> IslandEscapeEngine:
    """Parse and replay a record dict."""
    return replay(parse_record(data))


def result(data: dict) -> dict:
    return result_json(play(data))


def grid(named: dict[Place, str]) -> list[list[str]]:
    """A record layout: the named places, `??` elsewhere, JK in the centre."""
    rows = [["??"] * 5 for _ in range(5)]
    rows[2][2] = "JK"
    for (c, r), card in named.items():
        rows[r - 1][c - 1] = card
    return rows


def kinds(game: IslandEscapeEngine, kind: str) -> list:
    """The events of one kind, as record dicts."""
    return [e.as_record() for e in game.events if e.kind == kind]


def everything_but(*keep: Place) -> list[Place]:
    """Every place of the island except the centre and `keep`."""
    return [(c, r) for r in range(1, 6) for c in range(1, 6) if (c, r) != (3, 3) and (c, r) not in keep]
