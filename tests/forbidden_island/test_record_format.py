"""docs/FI-RECORD-FORMAT.md is enough to replay its example: a small reader written from that
page alone (no engine, no seed, no random numbers) plays examples/forbidden-island/first-turns.json
and ends where the page's report and the lab's replay end.

The reader knows only what the page says: places from its row spans, start tiles from its list
of tile codes, the setup floods, the deal round the table, and when a shuffle takes the next
order of `shuffles`. It applies the entries the example uses and checks no legality: the record
is trusted, and the comparison with the lab's replay is the check.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.forbidden_island.records import load_record, replay, result_json

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "forbidden-island" / "first-turns.json"
FORMAT_PAGE = ROOT / "docs" / "FI-RECORD-FORMAT.md"

# "Keys": the columns of rows 1-6; "The tile codes ...": each role's start tile.
ROW_COLUMNS = {1: (3, 4), 2: (2, 5), 3: (1, 6), 4: (1, 6), 5: (2, 5), 6: (3, 4)}
START = {"pilot": "fools_landing", "engineer": "bronze_gate", "explorer": "copper_gate",
         "navigator": "gold_gate", "diver": "iron_gate", "messenger": "silver_gate"}
START_MARK = {"novice": 1, "normal": 2, "elite": 3, "legendary": 4}
SKULL = 10


class FormatReader:
    """One record's game as the format page describes it, far enough for its example."""

    def __init__(self, record: dict):
        rules = record.get("rules", {})
        self.players = rules.get("players", 2)
        self.mark = START_MARK[rules.get("difficulty", "novice")]
        setup = record["setup"]  # a complete record: every part is given
        places = [(c, r) for r in range(1, 7) for c in range(ROW_COLUMNS[r][0], ROW_COLUMNS[r][1] + 1)]
        rows = [code for row in setup["layout"] for code in row]
        self.tile_at = dict(zip(places, rows, strict=True))
        self.place_of = {tile: place for place, tile in self.tile_at.items()}
        self.state = {tile: "dry" for tile in rows}
        self.pawns = [self.place_of[START[role]] for role in setup["roles"]]
        self.shuffles = [(s["pile"], list(s["order"])) for s in record.get("shuffles", [])]
        self.flood_pile = list(setup["flood_deck"])
        self.flood_discard: list[str] = []
        for _ in range(rules.get("setup_floods", 6)):  # the setup floods, top card first
            tile = self.flood_pile.pop(0)
            self.state[tile] = "flooded"
            self.flood_discard.append(tile)
        self.treasure_pile = list(setup["treasure_deck"])
        self.treasure_discard: list[str] = []
        self.hands: list[list[str]] = [[] for _ in self.pawns]
        set_aside = []
        for _ in range(rules.get("setup_cards", 2)):  # round the table, one card at a time
            for seat in range(self.players):
                card = self.treasure_pile.pop(0)
                while card == "waters_rise":
                    set_aside.append(card)
                    card = self.treasure_pile.pop(0)
                self.hands[seat].append(card)
        if set_aside:
            self.treasure_pile = self.shuffle("treasure", self.treasure_pile + set_aside)
        self.lost = False

    def shuffle(self, pile: str, cards: list[str]) -> list[str]:
        assert self.shuffles, f"the record lists no order for a shuffle of the {pile} pile"
        want, order = self.shuffles.pop(0)
        assert want == pile and sorted(order) == sorted(cards), f"a {want} order where the {pile} pile shuffles"
        return order

    def play(self, turn: int, entry: str) -> None:
        me = (turn - 1) % self.players
        kind, *args = entry.split()
        if kind in ("move", "fly"):
            self.pawns[me] = place(args[0])
        elif kind == "shore":
            for a in args:
                self.state[self.tile_at[place(a)]] = "dry"
        elif kind == "sandbags":
            self.hands[int(args[0])].remove("sandbags")
            self.treasure_discard.append("sandbags")
            self.state[self.tile_at[place(args[1])]] = "dry"
        elif kind == "draw":
            card = self.treasure_pile.pop(0)
            if card == "waters_rise":
                self.mark += 1
                self.lost = self.mark >= SKULL
                if self.flood_discard and not self.lost:
                    self.flood_pile = self.shuffle("flood", self.flood_discard) + self.flood_pile
                    self.flood_discard = []
                self.treasure_discard.append(card)
            else:
                self.hands[me].append(card)
            if not self.treasure_pile and not self.lost:
                self.treasure_pile = self.shuffle("treasure", self.treasure_discard)
                self.treasure_discard = []
        elif kind == "flood":
            tile = self.flood_pile.pop(0)
            if self.state[tile] == "dry":
                self.state[tile] = "flooded"
                self.flood_discard.append(tile)
            else:
                self.state[tile] = "sunk"
            if not self.flood_pile and self.flood_discard:
                self.flood_pile = self.shuffle("flood", self.flood_discard)
                self.flood_discard = []
        else:
            pytest.fail(f"the example's reader does not know {kind!r}")


def place(text: str) -> tuple[int, int]:
    c, r = text.split(",")
    return int(c), int(r)


def read(path: Path) -> FormatReader:
    record = json.loads(path.read_text(encoding="utf-8"))
    reader = FormatReader(record)
    for turn, entries in enumerate(record["turns"], 1):
        for entry in entries:
            reader.play(turn, entry)
    assert reader.shuffles == [], "the record lists orders for shuffles that never happen"
    return reader


def documented_report() -> dict:
    """The report the page shows for its example (its second JSON block)."""
    return json.loads(FORMAT_PAGE.read_text(encoding="utf-8").split("```json\n")[2].split("```", 1)[0])


def test_the_example_replays_from_the_format_page_alone():
    reader = read(EXAMPLE)
    final = documented_report()["final"]
    assert {t: s for t, s in reader.state.items() if s != "dry"} == final["tiles"]  # the page leaves dry ones out
    assert [list(p) for p in reader.pawns] == final["pawns"]
    assert [sorted(h) for h in reader.hands] == [sorted(h) for h in final["hands"]]
    assert reader.mark == final["mark"]


def test_the_format_readers_game_is_the_labs():
    reader = read(EXAMPLE)
    lab = result_json(replay(load_record(EXAMPLE)))["final"]
    assert reader.state == lab["tiles"]
    assert [list(p) for p in reader.pawns] == lab["pawns"]
    assert reader.hands == lab["hands"] and reader.mark == lab["mark"]
