"""Desert Island game records (docs/DI-RECORD-FORMAT.md): read, check, replay and write them.

A record names the rules, where its game came from (a seed and a game number), the whole deal
(D11: each seat's character, best friend and sworn enemy, the start places, both decks' order),
the draws the game read (the cards taken blind) and every decision as an action code, one list a
week, so that it replays from the record alone. Every problem is a `RecordError` whose message is
one line saying where the problem is and what is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from sim.desert_island.actions import action_text
from sim.desert_island.engine import Deal, DealError, DesertIslandEngine, DrawError, IllegalAction
from sim.desert_island.rules import RuleError, Rules
from sim.records import read_json, record_object, rules_object

FORMAT = "desert-island-record/1"
RECORD_KEYS = {"format", "rules", "seed", "game", "deal", "draws", "weeks", "result"}
DEAL_KEYS = ("roles", "places", "items", "fate", "friends", "enemies")  # Deal's fields


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message is one line saying where and why."""


@dataclass
class Record:
    rules: Rules
    seed: int = 0
    game: int = 0
    deal: Deal | None = None  # None: the seed's deal
    draws: list[int] = field(default_factory=list)  # 32-bit draws, read in order (D11)
    weeks: list[list[int]] = field(default_factory=list)  # the decisions of week 1, 2, ...
    result: dict | None = None

    def full_deal(self) -> Deal:
        deal = self.deal or Deal.random(self.rules, self.seed, self.game)
        try:
            deal.validate(self.rules)
        except DealError as exc:
            raise RecordError(f"deal: {exc}") from None
        return deal

    def to_json(self) -> dict:
        rules = self.rules.as_record()
        d: dict = {"format": FORMAT, "rules": rules, "seed": self.seed, "game": self.game}
        if self.deal is not None:
            d["deal"] = {key: list(getattr(self.deal, key)) for key in DEAL_KEYS}
        d["draws"] = list(self.draws)
        d["weeks"] = [list(w) for w in self.weeks]
        if self.result is not None:
            d["result"] = self.result
        return d


class _Draws:
    """The record's draws, counted as the engine reads them."""

    def __init__(self, draws: list[int]):
        self.draws, self.read = draws, 0

    def __iter__(self) -> Iterator[int]:
        return self

    def __next__(self) -> int:
        if self.read >= len(self.draws):
            raise StopIteration
        self.read += 1
        return self.draws[self.read - 1]


# --- reading and checking ---------------------------------------------------------------------


def load_record(source: str | Path | dict) -> Record:
    """A record from a file path or an already parsed JSON object; raises RecordError."""
    return parse_record(read_json(source, RecordError))


def _whole(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"{where} must be a whole number, not {value!r}")
    return value


def _wholes(value: object, where: str) -> list[int]:
    if not isinstance(value, list):
        raise RecordError(f"{where} must be a list of whole numbers")
    return [_whole(v, f"{where}, entry {i}") for i, v in enumerate(value, 1)]


def parse_record(data: object) -> Record:
    data = record_object(data, RECORD_KEYS, RecordError)
    if data.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {data.get('format')!r}")
    rules = _parse_rules(data.get("rules", {}))
    seed = _whole(data.get("seed", 0), "seed")
    game = _whole(data.get("game", 0), "game")
    deal = None
    if "deal" in data:
        obj = data["deal"]
        if not isinstance(obj, dict) or set(obj) != set(DEAL_KEYS):
            raise RecordError(f"deal must be an object with {', '.join(DEAL_KEYS)}")
        deal = Deal(*(tuple(_wholes(obj[key], f"deal.{key}")) for key in DEAL_KEYS))
    draws = _wholes(data.get("draws", []), "draws")
    if any(not 0 <= u < 1 << 32 for u in draws):
        raise RecordError("draws must be 32-bit numbers (0 to 4294967295)")
    weeks = data.get("weeks", [])
    if not isinstance(weeks, list):
        raise RecordError("weeks must be a list of lists of action codes, one list a week")
    weeks = [_wholes(w, f"week {n}") for n, w in enumerate(weeks, 1)]
    result = data.get("result")
    if result is not None and not isinstance(result, dict):
        raise RecordError("result must be an object")
    record = Record(rules, seed, game, deal, draws, weeks, result)
    record.full_deal()  # refuse a deal that does not fit the rules before any play
    return record


def _parse_rules(obj: object) -> Rules:
    obj = rules_object(obj, set(Rules.__dataclass_fields__), RecordError)
    try:
        return Rules(**obj)
    except (RuleError, TypeError) as exc:
        raise RecordError(f"rules: {exc}") from None


# --- replaying ------------------------------------------------------------------------------------


def replay(record: Record,
           after_action: Callable[[DesertIslandEngine, int], None] | None = None) -> DesertIslandEngine:
    """Play the record's decisions in order with the reference engine; raises RecordError.

    The decisions listed under week N must all be played during week N. `after_action(game,
    code)` is called after each (for narratives)."""
    draws = _Draws(record.draws)
    try:
        game = DesertIslandEngine(record.rules, record.full_deal(), draws)
    except DrawError:
        raise RecordError("draws: the set-up needs more draws than the record lists") from None
    for week, codes in enumerate(record.weeks, 1):
        for i, code in enumerate(codes, 1):
            where = f"week {week}, entry {i} ({code})"
            if game.over:
                raise RecordError(f"{where}: the game already ended in week {game.week} ({game.ending})")
            if game.week != week:
                raise RecordError(f"{where}: the game is in week {game.week} (the entries before left it "
                                  "unfinished or went past it)")
            try:
                game.apply(code)
            except IllegalAction as exc:
                raise RecordError(f"{where}: {exc}") from None
            except DrawError:
                raise RecordError(f"{where}: draws: the game takes a card blind after the last draw listed") from None
            if after_action:
                after_action(game, code)
    if draws.read < len(record.draws):
        raise RecordError(f"draws: {len(record.draws) - draws.read} of the {len(record.draws)} draws listed are never "
                          "read (a record ends where its game ends)")
    return game


def result_json(game: DesertIslandEngine) -> dict:
    """What the engine reports of a game: the ending's name as both outcome and cause
    ("unfinished" and None while it goes on), weeks as turns, each seat's score and share (D7, D8)."""
    return {"outcome": game.ending or "unfinished", "cause": game.ending, "turns": game.week,
            "ships": game.ships, "fire": game.fire, "alive": list(game.alive), "scores": game.scores,
            "win_shares": game.win_shares()}


# --- writing ---------------------------------------------------------------------------------------


def record_of(game: DesertIslandEngine, draws: list[int], seed: int = 0, number: int = 0) -> Record:
    """The record of a game: its whole deal, the draws it read and every decision written out, so
    that it replays from the record alone; `seed` and `number` are a note of where it came from."""
    weeks: list[list[int]] = []
    for week, code in game.history:
        while len(weeks) < week:
            weeks.append([])
        weeks[week - 1].append(code)
    return Record(game.rules, seed, number, game.deal, list(draws), weeks, result_json(game))


def write_record(path: str | Path, record: Record) -> None:
    """Write a record as JSON, one week's decisions a line."""
    data = record.to_json()
    lines = ["{"]
    items = list(data.items())
    for n, (key, value) in enumerate(items):
        comma = "," if n < len(items) - 1 else ""
        if key == "weeks" and value:
            inner = ",\n    ".join(json.dumps(v) for v in value)
            lines.append(f'  "weeks": [\n    {inner}\n  ]{comma}')
        else:
            lines.append(f'  "{key}": {json.dumps(value)}{comma}')
    lines.append("}")
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


def decision_text(game: DesertIslandEngine, code: int) -> str:
    return action_text(code, game.decks)
