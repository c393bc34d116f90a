"""Forbidden Island game records (docs/FI-RECORD-FORMAT.md): read, check, replay and write them.

A record names the rules, a seed, optionally any part of the setup and the order of any
reshuffle, and the decisions of each turn as text entries. Every problem is a `RecordError`
whose message is one line saying where the problem is and what is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from sim.forbidden_island.engine import (
    Action,
    ForbiddenIslandEngine,
    IllegalAction,
    Setup,
    SetupError,
    ShuffleError,
    Shuffler,
    deal,
)
from sim.forbidden_island.rules import PLACES, ROW_SPANS, TILES, RuleError, Rules
from sim.records import read_json, record_object, rules_object

FORMAT = "forbidden-island-record/1"
RECORD_KEYS = {"format", "rules", "seed", "setup", "shuffles", "turns", "result"}
RULE_KEYS = {"players", "difficulty", "actions_per_turn", "treasure_draws", "hand_limit", "setup_floods",
             "setup_cards", "capture_cards"}
SETUP_KEYS = ("layout", "roles", "flood_deck", "treasure_deck")
PILES = ("treasure", "flood")


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message is one line saying where and why."""


@dataclass
class Record:
    rules: Rules
    seed: int = 0
    setup: dict = field(default_factory=dict)  # any of SETUP_KEYS, as tuples; the rest from the seed
    shuffles: list[tuple[str, list[str]]] = field(default_factory=list)
    turns: list[list[str]] = field(default_factory=list)
    result: dict | None = None

    def full_setup(self) -> Setup:
        """The seed's setup with the record's own parts put in its place."""
        setup = replace(deal(self.rules, self.seed), **self.setup)
        try:
            setup.validate(self.rules)
        except SetupError as exc:
            raise RecordError(f"setup: {exc}") from None
        return setup

    def new_game(self) -> ForbiddenIslandEngine:
        try:
            return ForbiddenIslandEngine(self.rules, self.full_setup(), Shuffler(self.seed, self.shuffles))
        except ShuffleError as exc:
            raise RecordError(f"shuffles: {exc} (during setup)") from None

    def to_json(self) -> dict:
        d: dict = {"format": FORMAT, "rules": self.rules.as_record(), "seed": self.seed}
        if self.setup:
            d["setup"] = {k: (layout_rows(v) if k == "layout" else list(v)) for k, v in self.setup.items()}
        if self.shuffles:
            d["shuffles"] = [{"pile": pile, "order": list(order)} for pile, order in self.shuffles]
        d["turns"] = self.turns
        if self.result is not None:
            d["result"] = self.result
        return d


def layout_rows(layout: tuple[str, ...]) -> list[list[str]]:
    """A row-major layout as six rows of 2, 4, 6, 6, 4 and 2 tile codes."""
    rows, i = [], 0
    for r in range(1, 7):
        width = ROW_SPANS[r][1] - ROW_SPANS[r][0] + 1
        rows.append(list(layout[i:i + width]))
        i += width
    return rows


# --- reading and checking ---------------------------------------------------------------------


def load_record(source: str | Path | dict) -> Record:
    """A record from a file path or an already parsed JSON object; raises RecordError."""
    return parse_record(read_json(source, RecordError))


def parse_record(data: object) -> Record:
    data = record_object(data, RECORD_KEYS, RecordError)
    if data.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {data.get('format')!r}")
    rules = _parse_rules(data.get("rules", {}))
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RecordError(f"seed must be a whole number, not {seed!r}")
    setup = _parse_setup(data.get("setup", {}))
    shuffles = _parse_shuffles(data.get("shuffles", []))
    turns = _parse_turns(data.get("turns", []))
    result = data.get("result")
    if result is not None and not isinstance(result, dict):
        raise RecordError("result must be an object")
    record = Record(rules, seed, setup, shuffles, turns, result)
    record.full_setup()  # refuse a setup that does not fit the rules before any play
    return record


def _parse_rules(obj: object) -> Rules:
    obj = rules_object(obj, RULE_KEYS, RecordError)
    try:
        return Rules(**obj)
    except RuleError as exc:
        raise RecordError(str(exc)) from None


def _strings(obj: object, where: str) -> tuple[str, ...]:
    if not isinstance(obj, list) or not all(isinstance(x, str) for x in obj):
        raise RecordError(f"{where} must be a list of codes")
    return tuple(obj)


def _parse_setup(obj: object) -> dict:
    if not isinstance(obj, dict):
        raise RecordError("setup must be an object")
    unknown = sorted(set(obj) - set(SETUP_KEYS))
    if unknown:
        raise RecordError(f"unknown setup key {unknown[0]!r} (setup has {', '.join(SETUP_KEYS)})")
    setup = {}
    if "layout" in obj:
        rows = obj["layout"]
        widths = [ROW_SPANS[r][1] - ROW_SPANS[r][0] + 1 for r in range(1, 7)]
        if not isinstance(rows, list) or len(rows) != 6 or \
                any(not isinstance(row, list) or len(row) != w for row, w in zip(rows, widths, strict=False)):
            raise RecordError("setup.layout must be six rows of 2, 4, 6, 6, 4 and 2 tile codes")
        layout = tuple(code for row in rows for code in row)
        for place, code in zip(PLACES, layout, strict=True):
            if code not in TILES:
                raise RecordError(f"setup.layout column {place[0]}, row {place[1]}: {code!r} is not a tile code")
        setup["layout"] = layout
    for key in SETUP_KEYS[1:]:
        if key in obj:
            setup[key] = _strings(obj[key], f"setup.{key}")
    return setup


def _parse_shuffles(obj: object) -> list[tuple[str, list[str]]]:
    if not isinstance(obj, list):
        raise RecordError("shuffles must be a list of {\"pile\": ..., \"order\": [...]} objects")
    out = []
    for i, item in enumerate(obj):
        if not isinstance(item, dict) or set(item) != {"pile", "order"} or item["pile"] not in PILES:
            raise RecordError(f"shuffles[{i}] must be an object with pile (treasure or flood) and order")
        out.append((item["pile"], list(_strings(item["order"], f"shuffles[{i}].order"))))
    return out


def _parse_turns(obj: object) -> list[list[str]]:
    if not isinstance(obj, list) or not all(isinstance(t, list) for t in obj):
        raise RecordError("turns must be a list of lists of entries")
    for t, entries in enumerate(obj, 1):
        for i, entry in enumerate(entries, 1):
            if not isinstance(entry, str):
                raise RecordError(f"turn {t}, entry {i}: {entry!r} is not a text entry")
    return [list(t) for t in obj]


# --- replaying ------------------------------------------------------------------------------------


def replay(record: Record,
           after_action: Callable[[ForbiddenIslandEngine, Action], None] | None = None) -> ForbiddenIslandEngine:
    """Play the record's entries in order with the reference engine; raises RecordError.

    The entries listed under turn N must all be played during turn N: a list that stops
    before its turn's last flood card leaves the next list out of step, which is an error.
    `after_action(game, action)` is called after each entry (for narratives).
    """
    game = record.new_game()
    for t, entries in enumerate(record.turns, 1):
        for i, entry in enumerate(entries, 1):
            where = f"turn {t}, entry {i} {entry!r}"
            if game.over:
                raise RecordError(f"{where}: the game already ended in turn {game.turn} ({game.outcome})")
            if game.turn != t:
                raise RecordError(f"{where}: the game is in turn {game.turn} (the entries of turn "
                                  f"{game.turn - 1} left its draws or floods unfinished)")
            try:
                action = Action.parse(entry)
            except ValueError as exc:
                raise RecordError(f"{where}: {exc}") from None
            try:
                game.apply(action)
            except IllegalAction as exc:
                raise RecordError(f"{where}: {exc}") from None
            except ShuffleError as exc:
                raise RecordError(f"{where}: shuffles: {exc}") from None
            if after_action:
                after_action(game, action)
    unused = len(game.shuffler.script)
    if unused:
        done = len(game.shuffler.log)
        raise RecordError(f"shuffles: {unused} of the {unused + done} orders listed never happen, as the "
                          f"entries cause {done} shuffle{'' if done == 1 else 's'} (a record ends where its game ends)")
    return game


def result_json(game: ForbiddenIslandEngine) -> dict:
    """What the engine reports at the end of a replay (docs/FI-RECORD-FORMAT.md)."""
    if game.outcome is None:
        outcome, cause = "unfinished", None
    elif game.outcome == "win":
        outcome, cause = "win", "win"
    else:
        outcome, cause = "loss", game.outcome
    events = [{k: (list(v) if isinstance(v, tuple) else v) for k, v in e.items()} for e in game.events]
    return {"outcome": outcome, "cause": cause, "turns": game.turn, "events": events, "final": game.final_state()}


# --- writing ---------------------------------------------------------------------------------------


def record_of(game: ForbiddenIslandEngine, seed: int) -> Record:
    """The record of a game played from `new_game(rules, seed)`: its whole setup and every
    shuffle written out, so that it replays from the record alone, without the lab's random
    streams (docs/FI-RECORD-FORMAT.md); `seed` is kept only as a note of where it came from."""
    turns: list[list[str]] = []
    for turn, action in game.history:
        while len(turns) < turn:
            turns.append([])
        turns[turn - 1].append(str(action))
    setup = {k: getattr(game.setup, k) for k in SETUP_KEYS}
    shuffles = [(pile, list(order)) for pile, order in game.shuffler.log]
    return Record(game.rules, seed, setup, shuffles, turns, result_json(game))


def write_record(path: str | Path, record: Record) -> None:
    """Write a record as JSON with one turn (and one layout row) per line."""
    data = record.to_json()
    lines = ["{"]
    items = list(data.items())
    for n, (key, value) in enumerate(items):
        comma = "," if n < len(items) - 1 else ""
        if key in ("turns", "shuffles") and value:
            inner = ",\n    ".join(json.dumps(v) for v in value)
            lines.append(f'  "{key}": [\n    {inner}\n  ]{comma}')
        elif key == "setup":
            parts = []
            for k, v in value.items():
                if k == "layout":
                    rows = ",\n      ".join(json.dumps(row) for row in v)
                    parts.append(f'    "layout": [\n      {rows}\n    ]')
                else:
                    parts.append(f'    "{k}": {json.dumps(v)}')
            lines.append('  "setup": {\n' + ",\n".join(parts) + "\n  }" + comma)
        else:
            lines.append(f'  "{key}": {json.dumps(value)}{comma}')
    lines.append("}")
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
