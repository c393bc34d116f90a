"""Survive the Island game records (docs/STI-RECORD-FORMAT.md): read, check, replay and write them.

A record names the rules, where its game came from (a seed and a game number), the deal (the
tile on each island space, each seat's values), the creature die's rolls and the decisions of
the set-up and of each seat turn as action texts (rules.action_text). Every problem is a
`RecordError` whose message is one line saying where the problem is and what is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sim.records import read_json, record_object, rules_object
from sim.survive_the_island.engine import (
    Deal,
    DealError,
    DiceError,
    IllegalAction,
    SurviveTheIslandEngine,
    random_dice,
)
from sim.survive_the_island.rules import (
    BACKS,
    CREATURES,
    TERRAINS,
    RuleError,
    Rules,
    action_text,
    encode,
    parse_action,
    placing_seat,
)

FORMAT = "survive-the-island-record/2"
# The first format's set-up placed each seat's adventurers in number order (the old S7), writing
# `place <space>` alone; such a record is read as the placements of the values those adventurers
# had, which replays the same game under the present S7 (`_upgrade_setup`).
FORMAT_1 = "survive-the-island-record/1"
RECORD_KEYS = {"format", "rules", "seed", "game", "deal", "rolls", "setup", "turns", "result"}
DEAL_KEYS = ("tiles", "values")


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message is one line saying where and why."""


def tile_name(tile: tuple[int, int]) -> str:
    """A tile as records write it: its terrain and its back (`forest raft`)."""
    return f"{TERRAINS[tile[0]]} {BACKS[tile[1]]}"


def parse_tile(text: str) -> tuple[int, int]:
    words = text.split()
    if len(words) != 2 or words[0] not in TERRAINS or words[1] not in BACKS:
        raise ValueError(f"{text!r} is no tile (a terrain, {'/'.join(TERRAINS)}, and a back, "
                         f"{'/'.join(BACKS)})")
    return TERRAINS.index(words[0]), BACKS.index(words[1])


@dataclass
class Record:
    rules: Rules
    seed: int = 0
    game: int = 0
    deal: dict = field(default_factory=dict)  # "tiles" and/or "values" (a Deal's fields); the rest from the seed
    rolls: list[int] | None = None  # the creature kinds rolled; None: the seed's dice stream
    setup: list[str] = field(default_factory=list)
    turns: list[list[str]] = field(default_factory=list)
    result: dict | None = None

    def full_deal(self) -> Deal:
        """The seed's deal with the record's own parts put in its place."""
        seeded = Deal.random(self.rules, self.seed, self.game)
        deal = Deal(tuple(self.deal.get("tiles", seeded.tiles)), tuple(self.deal.get("values", seeded.values)))
        try:
            deal.validate(self.rules)
        except DealError as exc:
            raise RecordError(f"deal: {exc}") from None
        return deal

    def new_game(self) -> SurviveTheIslandEngine:
        dice = iter(self.rolls) if self.rolls is not None else random_dice(self.rules, self.seed, self.game)
        return SurviveTheIslandEngine(self.rules, self.full_deal(), dice)

    def to_json(self) -> dict:
        board = self.rules.board_data
        d: dict = {"format": FORMAT, "rules": self.rules.as_dict(), "seed": self.seed, "game": self.game}
        if self.deal:
            deal: dict = {}
            if "tiles" in self.deal:
                deal["tiles"] = {board.space_text(q): tile_name(t) for q, t in zip(board.land, self.deal["tiles"],
                                                                                  strict=True)}
            if "values" in self.deal:
                e = self.rules.adventurers_each
                values = list(self.deal["values"])
                deal["values"] = [values[s * e:(s + 1) * e] for s in range(self.rules.players)]
            d["deal"] = deal
        if self.rolls is not None:
            d["rolls"] = [CREATURES[k] for k in self.rolls]
        d["setup"] = list(self.setup)
        d["turns"] = [list(t) for t in self.turns]
        if self.result is not None:
            d["result"] = self.result
        return d


# --- reading and checking ---------------------------------------------------------------------


def load_record(source: str | Path | dict) -> Record:
    """A record from a file path or an already parsed JSON object; raises RecordError."""
    return parse_record(read_json(source, RecordError))


def _whole(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"{where} must be a whole number, not {value!r}")
    return value


def parse_record(data: object) -> Record:
    data = record_object(data, RECORD_KEYS, RecordError)
    if data.get("format") not in (FORMAT, FORMAT_1):
        raise RecordError(f"format must be {FORMAT!r} (or the older {FORMAT_1!r}), not {data.get('format')!r}")
    rules = _parse_rules(data.get("rules", {}))
    seed = _whole(data.get("seed", 0), "seed")
    game = _whole(data.get("game", 0), "game")
    deal = _parse_deal(data.get("deal", {}), rules)
    rolls = _parse_rolls(data["rolls"]) if "rolls" in data else None
    setup = _entries(data.get("setup", []), "setup")
    turns = data.get("turns", [])
    if not isinstance(turns, list):
        raise RecordError("turns must be a list of lists of action texts, one list a seat turn")
    turns = [_entries(t, f"turn {n}") for n, t in enumerate(turns, 1)]
    result = data.get("result")
    if result is not None and not isinstance(result, dict):
        raise RecordError("result must be an object")
    record = Record(rules, seed, game, deal, rolls, setup, turns, result)
    full = record.full_deal()  # refuse a deal that does not fit the rules before any play
    if data["format"] == FORMAT_1:
        record.setup = _upgrade_setup(setup, rules, full)
    return record


def _upgrade_setup(setup: list[str], rules: Rules, deal: Deal) -> list[str]:
    """A first-format set-up in the present texts: its adventurer placements, `place <space>`,
    took each seat's adventurers in number order (the old S7), so each becomes `place <value>
    <space>` with the value the deal gave that adventurer. The lowest-numbered unplaced
    adventurer of that value is then the very adventurer the old rule placed (those before it
    are all placed), so the game replays unchanged. Entries that are not such a placement are
    left as they are, for the replay to judge."""
    board = rules.board_data
    e = rules.adventurers_each
    placed = [0] * rules.players
    out = list(setup)
    for i, entry in enumerate(setup[:rules.adventurers]):
        words = entry.split()
        if len(words) != 2 or words[0] != "place":
            continue
        try:
            space = board.parse_space(words[1])
        except ValueError:
            continue
        seat = placing_seat(i, rules.players, rules.setup)
        value = deal.values[seat * e + placed[seat]]
        placed[seat] += 1
        out[i] = action_text(encode(("adventurer", value, space)), board)
    return out


def _parse_rules(obj: object) -> Rules:
    obj = rules_object(obj, set(Rules.__dataclass_fields__), RecordError)
    try:
        return Rules.from_dict(obj)
    except (RuleError, TypeError) as exc:
        raise RecordError(f"rules: {exc}") from None


def _parse_deal(obj: object, rules: Rules) -> dict:
    if not isinstance(obj, dict):
        raise RecordError("deal must be an object")
    unknown = sorted(set(obj) - set(DEAL_KEYS))
    if unknown:
        raise RecordError(f"unknown deal key {unknown[0]!r} (a deal has {', '.join(DEAL_KEYS)})")
    board = rules.board_data
    deal: dict = {}
    if "tiles" in obj:
        tiles = obj["tiles"]
        if not isinstance(tiles, dict):
            raise RecordError("deal.tiles must be an object: island space -> tile")
        want = [board.space_text(q) for q in board.land]
        for space in tiles:
            if space not in want:
                raise RecordError(f"deal.tiles: {space!r} is no island space of the board")
        missing = [q for q in want if q not in tiles]
        if missing:
            raise RecordError(f"deal.tiles: no tile on {missing[0]}")
        try:
            deal["tiles"] = tuple(parse_tile(tiles[q] if isinstance(tiles[q], str) else repr(tiles[q]))
                                  for q in want)
        except ValueError as exc:
            raise RecordError(f"deal.tiles: {exc}") from None
    if "values" in obj:
        values = obj["values"]
        e = rules.adventurers_each
        if (not isinstance(values, list) or len(values) != rules.players
                or any(not isinstance(v, list) or len(v) != e for v in values)):
            raise RecordError(f"deal.values must be {rules.players} lists (one a seat) of {e} values")
        for seat, row in enumerate(values):
            for v in row:
                _whole(v, f"deal.values of seat {seat}")
        deal["values"] = tuple(v for row in values for v in row)
    return deal


def _parse_rolls(obj: object) -> list[int]:
    if not isinstance(obj, list) or not all(isinstance(k, str) and k in CREATURES for k in obj):
        raise RecordError(f"rolls must be a list of creature names ({', '.join(CREATURES)})")
    return [CREATURES.index(k) for k in obj]


def _entries(obj: object, where: str) -> list[str]:
    if not isinstance(obj, list):
        raise RecordError(f"{where} must be a list of action texts")
    for i, entry in enumerate(obj, 1):
        if not isinstance(entry, str):
            raise RecordError(f"{where}, entry {i}: {entry!r} is not an action text")
    return list(obj)


# --- replaying ------------------------------------------------------------------------------------


def replay(record: Record,
           after_action: Callable[[SurviveTheIslandEngine, int], None] | None = None) -> SurviveTheIslandEngine:
    """Play the record's decisions in order with the reference engine; raises RecordError.

    The set-up's entries must all be played during the set-up, and the entries listed under
    turn N during seat turn N. `after_action(game, code)` is called after each entry (for
    narratives and pictures)."""
    game = record.new_game()
    board = record.rules.board_data
    groups = [(0, "setup", record.setup)] + [(t, f"turn {t}", e) for t, e in enumerate(record.turns, 1)]
    for turn, name, entries in groups:
        for i, entry in enumerate(entries, 1):
            where = f"{name}, entry {i} {entry!r}"
            if game.over:
                raise RecordError(f"{where}: the game already ended in turn {game.turn} ({game.ending})")
            if game.turn != turn:
                shown = "the set-up" if game.turn == 0 else f"turn {game.turn}"
                raise RecordError(f"{where}: the game is in {shown} (the entries before left it unfinished "
                                  "or went past it)")
            try:
                code = parse_action(entry, board)
            except ValueError as exc:
                raise RecordError(f"{where}: {exc}") from None
            try:
                game.apply(code)
            except IllegalAction as exc:
                raise RecordError(f"{where}: {exc}") from None
            except DiceError as exc:
                raise RecordError(f"{where}: rolls: {exc}") from None
            if after_action:
                after_action(game, code)
    if record.rolls is not None and len(game.rolls) < len(record.rolls):
        raise RecordError(f"rolls: {len(record.rolls) - len(game.rolls)} of the {len(record.rolls)} rolls listed "
                          f"never happen, as the decisions cause {len(game.rolls)} (a record ends where its game ends)")
    return game


def result_json(game: SurviveTheIslandEngine) -> dict:
    """What the engine reports of a game (docs/STI-RECORD-FORMAT.md): the ending's name as both
    outcome and cause ("unfinished" and None while it goes on)."""
    row = game.result_row()
    return {"outcome": game.ending or "unfinished", "cause": game.ending, "turns": game.turn,
            "scores": list(game.score), "rescued": list(game.rescued), "lost": row["lost"],
            "volcanoes": game.volcanoes, "winners": game.winners(), "win_shares": game.win_shares()}


# --- writing ---------------------------------------------------------------------------------------


def record_of(game: SurviveTheIslandEngine, seed: int = 0, number: int = 0) -> Record:
    """The record of a game: its whole deal and every roll written out, so that it replays from
    the record alone; `seed` and `number` are kept as a note of where it came from."""
    setup: list[str] = []
    turns: list[list[str]] = []
    board = game.board
    for turn, code in game.history:
        if turn == 0:
            setup.append(action_text(code, board))
            continue
        while len(turns) < turn:
            turns.append([])
        turns[turn - 1].append(action_text(code, board))
    deal = {"tiles": tuple(game.deal.tiles), "values": tuple(game.deal.values)}
    return Record(game.rules, seed, number, deal, list(game.rolls), setup, turns, result_json(game))


def write_record(path: str | Path, record: Record) -> None:
    """Write a record as JSON: one board row of tiles, one seat's values, one turn a line."""
    data = record.to_json()
    board = record.rules.board_data
    lines = ["{"]
    items = list(data.items())
    for n, (key, value) in enumerate(items):
        comma = "," if n < len(items) - 1 else ""
        if key == "turns" and value:
            inner = ",\n    ".join(json.dumps(v) for v in value)
            lines.append(f'  "turns": [\n    {inner}\n  ]{comma}')
        elif key == "deal":
            parts = []
            if "tiles" in value:
                rows: dict[int, list[str]] = {}
                for space, tile in value["tiles"].items():
                    row = board.cells[board.parse_space(space)][0]
                    rows.setdefault(row, []).append(f"{json.dumps(space)}: {json.dumps(tile)}")
                body = ",\n      ".join(", ".join(r) for r in rows.values())
                parts.append(f'    "tiles": {{\n      {body}\n    }}')
            if "values" in value:
                body = ",\n      ".join(json.dumps(v) for v in value["values"])
                parts.append(f'    "values": [\n      {body}\n    ]')
            lines.append('  "deal": {\n' + ",\n".join(parts) + "\n  }" + comma)
        else:
            lines.append(f'  "{key}": {json.dumps(value)}{comma}')
    lines.append("}")
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
