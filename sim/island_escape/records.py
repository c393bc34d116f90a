"""Game records (../shared/rules/RECORD-FORMAT.md): read, validate, replay and write them.

A record names the rules, the layout (``??`` for places the seed fills), the flood places and
the entries of each turn. Every problem is reported as a `RecordError` whose message is one line
naming where the problem is and what is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sim.island_escape.engine import Action, IllegalAction, IslandEscapeEngine, PileSource, deal, parse_place
from sim.island_escape.rules import HELICOPTER, ISLAND_CARDS, JOKER, PLACES, RuleError, Rules, is_card_code
from sim.records import read_json, record_object, rules_object

FORMAT = "island-escape-record/1"
RECORD_KEYS = {"format", "rules", "seed", "layout", "floods", "turns", "result"}
RULE_KEYS = {"players", "cards_per_treasure", "swim_cost", "actions_per_turn", "gauge"}
UNKNOWN = "??"


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message is one line saying where and why."""


@dataclass
class Record:
    rules: Rules
    layout: list[list[str]]  # as written, "??" included
    seed: int = 0
    floods: list[tuple[int, int]] = field(default_factory=list)
    turns: list[list[str]] = field(default_factory=list)
    result: dict | None = None  # what the engine that wrote it saw (kernel exports)

    def full_layout(self) -> dict[tuple[int, int], str]:
        """The layout with every ``??`` dealt from the unnamed cards and the seed."""
        named = {(c, r): self.layout[r - 1][c - 1] for (c, r) in PLACES
                 if self.layout[r - 1][c - 1] != UNKNOWN}
        return deal(self.seed, named)

    def new_game(self) -> IslandEscapeEngine:
        return IslandEscapeEngine(self.rules, self.full_layout(), PileSource(self.seed, self.floods))

    def to_json(self) -> dict:
        d = {"format": FORMAT, "rules": self.rules.as_record(), "seed": self.seed,
             "layout": self.layout, "floods": [list(f) for f in self.floods], "turns": self.turns}
        if self.result is not None:
            d["result"] = self.result
        return d


# --- reading and validating ------------------------------------------------------------------


def load_record(source: str | Path | dict) -> Record:
    """A record from a file path or an already parsed JSON object; raises RecordError."""
    return parse_record(read_json(source, RecordError))


def parse_record(data: object) -> Record:
    data = record_object(data, RECORD_KEYS, RecordError)
    if data.get("format", FORMAT) != FORMAT:
        raise RecordError(f"format {data['format']!r} is not {FORMAT!r}")
    rules = _parse_rules(data.get("rules", {}))
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RecordError(f"seed must be a whole number, not {seed!r}")
    # A missing layout leaves every place to the seed; the centre is always JK (R4), so the
    # default must name it (a centre of ?? is refused below).
    default_layout = [[JOKER if (c, r) == HELICOPTER else UNKNOWN for c in range(1, 6)] for r in range(1, 6)]
    layout = _parse_layout(data.get("layout", default_layout))
    floods = _parse_floods(data.get("floods", []))
    turns = _parse_turns(data.get("turns", []))
    result = data.get("result")
    if result is not None and not isinstance(result, dict):
        raise RecordError("result must be an object")
    return Record(rules, layout, seed, floods, turns, result)


def _parse_rules(obj: object) -> Rules:
    obj = rules_object(obj, RULE_KEYS, RecordError)
    if "gauge" in obj and not isinstance(obj["gauge"], list):
        raise RecordError("rules.gauge must be a list of card codes, top first")
    try:
        return Rules(**obj)
    except RuleError as exc:
        raise RecordError(str(exc)) from None


def _parse_layout(obj: object) -> list[list[str]]:
    rows_ok = isinstance(obj, list) and len(obj) == 5
    if not rows_ok or not all(isinstance(r, list) and len(r) == 5 for r in obj):
        raise RecordError("layout must be five rows of five card codes")
    seen: dict[str, tuple[int, int]] = {}
    for r, row in enumerate(obj, 1):
        for c, code in enumerate(row, 1):
            where = f"layout column {c}, row {r}"
            if not isinstance(code, str):
                raise RecordError(f"{where}: {code!r} is not a card code")
            if code == UNKNOWN:
                if (c, r) == HELICOPTER:
                    raise RecordError(f"{where}: the centre must be JK (the helicopter), not ??")
                continue
            if not is_card_code(code):
                raise RecordError(f"{where}: {code!r} is not a card code (rank then suit, e.g. 10C, KH, JK)")
            if (c, r) == HELICOPTER and code != JOKER:
                raise RecordError(f"{where}: the centre must be JK (the helicopter), not {code}")
            if code == JOKER and (c, r) != HELICOPTER:
                raise RecordError(f"{where}: JK belongs in the centre (column 3, row 3)")
            if code != JOKER and code not in ISLAND_CARDS:
                raise RecordError(f"{where}: {code} is not on the island (only Kings and land cards 6-10)")
            if code in seen:
                c0, r0 = seen[code]
                raise RecordError(f"{where}: {code} is named twice (also at column {c0}, row {r0})")
            seen[code] = (c, r)
    return [list(row) for row in obj]


def _parse_floods(obj: object) -> list[tuple[int, int]]:
    if not isinstance(obj, list):
        raise RecordError("floods must be a list of [column, row] pairs")
    floods = []
    for i, item in enumerate(obj):
        ok = (isinstance(item, list) and len(item) == 2
              and all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 5 for v in item))
        if not ok:
            raise RecordError(f"floods[{i}]: {item!r} is not a [column, row] pair of numbers 1-5")
        start = i - i % 5
        for j in range(start, i):
            for axis, name in ((0, "column"), (1, "row")):
                if obj[j][axis] == item[axis]:
                    raise RecordError(
                        f"floods[{i}] = {item}: {name} {item[axis]} was already hit in this pass "
                        f"(floods[{start}]-floods[{start + 4}] must hit each column and row once)")
        floods.append((item[0], item[1]))
    return floods


def _parse_turns(obj: object) -> list[list[str]]:
    if not isinstance(obj, list) or not all(isinstance(t, list) for t in obj):
        raise RecordError("turns must be a list of lists of entries")
    for t, entries in enumerate(obj, 1):
        for i, entry in enumerate(entries, 1):
            if not isinstance(entry, str):
                raise RecordError(f"turn {t}, entry {i}: {entry!r} is not a text entry")
    return [list(t) for t in obj]


# --- replaying -------------------------------------------------------------------------------


def _entry_error(turn: int, index: int, entry: str, reason: str) -> RecordError:
    return RecordError(f"turn {turn}, entry {index} {entry!r}: {reason}")


def replay(record: Record, after_turn: Callable[[IslandEscapeEngine], None] | None = None,
           after_flood: Callable[[IslandEscapeEngine], None] | None = None) -> IslandEscapeEngine:
    """Play the record's turns, each followed by its flood phase; raises RecordError.

    `after_turn(game)` is called after each turn's flood phase, `after_flood(game)` after each
    single flood (for narratives and board pictures).
    """
    game = record.new_game()
    for t, entries in enumerate(record.turns, 1):
        if game.over:
            raise RecordError(f"turn {t}: the game already ended in turn {game.turn} ({game.outcome})")
        actions: list[tuple[int, str, Action]] = []
        escapes: list[tuple[int, str, int, tuple[int, int]]] = []
        for i, entry in enumerate(entries, 1):
            words = entry.split()
            try:
                if words and words[0] == "escape":
                    if len(words) != 3 or not words[1].isdigit():
                        raise ValueError("escape takes a pawn number and a place C,R")
                    pawn = int(words[1])
                    if pawn >= game.rules.pawns:
                        raise ValueError(f"there is no pawn {pawn}")
                    escapes.append((i, entry, pawn, parse_place(words[2])))
                else:
                    actions.append((i, entry, Action.parse(entry)))
            except ValueError as exc:
                raise _entry_error(t, i, entry, str(exc)) from None
        game.begin_turn()
        for i, entry, action in actions:
            if game.over:
                raise _entry_error(t, i, entry, f"the game already ended ({game.outcome})")
            try:
                game.apply(action)
            except IllegalAction as exc:
                raise _entry_error(t, i, entry, f"pawn {game.current_pawn}: {exc}") from None
        if game.over:
            if escapes:
                i, entry, _, _ = escapes[0]
                raise _entry_error(t, i, entry, f"the game already ended ({game.outcome})")
        else:
            pending = list(escapes)

            def choose(g: IslandEscapeEngine, pawn: int, options: list[tuple[int, int]], t=t, pending=pending):
                for k, (i, entry, p, place) in enumerate(pending):
                    if p == pawn:
                        del pending[k]
                        if place not in options:
                            where = " ".join(f"{c},{r}" for c, r in options)
                            raise _entry_error(t, i, entry, f"pawn {pawn} can escape only to {where}")
                        return place
                return options[0]  # RECORD-FORMAT default escape order

            game.start_flood_phase()
            while game.floods_left and not game.over:
                game.flood(choose)
                if after_flood:
                    after_flood(game)
            if pending and not game.over:
                i, entry, p, _ = pending[0]
                raise _entry_error(t, i, entry, f"pawn {p}'s place did not sink in this turn's floods")
        if after_turn:
            after_turn(game)
    return game


def result_json(game: IslandEscapeEngine) -> dict:
    """What an engine reports after a replay (RECORD-FORMAT.md, `--json`)."""
    if game.outcome is None:
        outcome, cause = "unfinished", None
    elif game.outcome == "win":
        outcome, cause = "win", "win"
    else:
        outcome, cause = "loss", game.outcome
    return {"outcome": outcome, "cause": cause, "turns": game.turn, "floods": game.floods,
            "events": [e.as_record() for e in game.events], "final": game.final_state()}


def layout_grid(layout: dict[tuple[int, int], str]) -> list[list[str]]:
    return [[layout[(c, r)] for c in range(1, 6)] for r in range(1, 6)]


def write_record(path: str | Path, record: Record) -> None:
    """Write a record as JSON, one turn per line so people can read and edit it."""
    data = record.to_json()
    lines = ["{"]
    items = list(data.items())
    for n, (key, value) in enumerate(items):
        comma = "," if n < len(items) - 1 else ""
        if key in ("layout", "turns", "floods") and value:
            inner = ",\n    ".join(json.dumps(v, ensure_ascii=False) for v in value)
            lines.append(f'  "{key}": [\n    {inner}\n  ]{comma}')
        else:
            lines.append(f'  "{key}": {json.dumps(value, ensure_ascii=False)}{comma}')
    lines.append("}")
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
