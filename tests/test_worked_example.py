"""The rulebook's worked example (section 7), replayed from examples/worked-example.json."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.island_escape.records import load_record, replay, result_json

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "worked-example.json"

# (turn, pawn, kind, at, card) for every event, in order, as the rulebook tells the story.
EXPECTED_EVENTS = [
    # Anna: up to 8H, up to KC, left to 7C, down to 10C; flood 3S AH -> column 3, row 1 (R1).
    (1, 0, "move", [3, 2], "8H"),
    (1, 0, "move", [3, 1], "KC"),
    (1, 0, "move", [2, 1], "7C"),
    (1, 0, "move", [2, 2], "10C"),
    (1, 0, "flood", [3, 1], "KC"),
    # Ben: up, up, shores the KC, right to 7S; flood column 2, row 4: face down 9D.
    (2, 1, "move", [3, 2], "8H"),
    (2, 1, "move", [3, 1], "KC"),
    (2, 1, "shore", [3, 1], "KC"),
    (2, 1, "move", [4, 1], "7S"),
    (2, 1, "flood", [2, 4], "9D"),
    # Anna: salvages 7C, moves onto 8H, salvages 10C, moves up onto KC; flood 5,5 (6S).
    (3, 0, "salvage", [2, 1], "7C"),
    (3, 0, "move", [3, 2], "8H"),
    (3, 0, "salvage", [2, 2], "10C"),
    (3, 0, "move", [3, 1], "KC"),
    (3, 0, "flood", [5, 5], "6S"),
    # Ben: down to 6D, right to 10H, down to KH, salvages 10H; flood 1,3 (9S).
    (4, 1, "move", [4, 2], "6D"),
    (4, 1, "move", [5, 2], "10H"),
    (4, 1, "move", [5, 3], "KH"),
    (4, 1, "salvage", [5, 2], "10H"),
    (4, 1, "flood", [1, 3], "9S"),
    # Anna: raises clubs, walks down to 7H; flood 4,2 (6D) is the fifth: AC leaves the gauge.
    (5, 0, "raise", [3, 1], "KC"),
    (5, 0, "move", [3, 2], "8H"),
    (5, 0, "move", [3, 3], "JK"),
    (5, 0, "move", [3, 4], "7H"),
    (5, 0, "flood", [4, 2], "6D"),
    (5, 0, "rise", None, "AC"),
]


@pytest.fixture(scope="module")
def result() -> dict:
    return result_json(replay(load_record(EXAMPLE)))


def test_every_event_in_order(result):
    got = [(e["turn"], e["pawn"], e["kind"], e["at"], e["card"]) for e in result["events"]]
    assert got == EXPECTED_EVENTS


def test_raise_discards_seven_and_ten_of_clubs(result):
    (raise_event,) = [e for e in result["events"] if e["kind"] == "raise"]
    assert raise_event["cards"] == ["7C", "10C"]  # R12, in the order written


def test_outcome_turns_and_floods(result):
    assert result["outcome"] == "unfinished"
    assert result["cause"] is None
    assert result["turns"] == 5
    assert result["floods"] == 5


def test_final_pawns_salvage_raised_and_gauge(result):
    final = result["final"]
    assert final["pawns"] == [[3, 4], [5, 3]]  # Anna on 7H, Ben on KH
    assert final["salvage"] == [[], ["10H"]]
    assert final["raised"] == ["C"]
    # R14: the fifth flood empties the piles, so AC comes off; AD still shows level 1.
    assert final["gauge"] == ["AD", "2C", "2D", "3C", "3D", "4C", "4D", "5C"]


def test_final_board(result):
    board = result["final"]["board"]

    def at(c, r):
        return board[r - 1][c - 1]

    flooded = {(2, 4): "9D", (5, 5): "6S", (1, 3): "9S", (4, 2): "6D"}
    sea = {(2, 1), (2, 2), (5, 2)}
    dry = {(3, 1): "KC", (4, 1): "7S", (3, 2): "8H", (3, 3): "JK", (5, 3): "KH", (3, 4): "7H"}
    for place, card in flooded.items():
        assert at(*place) == {"card": card, "state": "flooded"}, place
    for place in sea:
        assert at(*place) == {"card": None, "state": "sea"}, place
    for place, card in dry.items():
        assert at(*place) == {"card": card, "state": "dry"}, place  # KC dry again after shoring
    others = [(c, r) for r in range(1, 6) for c in range(1, 6)
              if (c, r) not in flooded and (c, r) not in sea and (c, r) not in dry]
    assert len(others) == 12
    for place in others:
        assert at(*place)["state"] == "down", place  # never reached nor flooded: unexplored
    cards = [cell["card"] for row in board for cell in row if cell["card"]]
    assert len(cards) == len(set(cards)) == 22  # 25 places, 3 of them sea
