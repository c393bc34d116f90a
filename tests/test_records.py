"""Reading, validating, replaying and writing game records (../shared/rules/RECORD-FORMAT.md)."""

from __future__ import annotations

import json
import random

import pytest

from sim.island_escape.engine import PileSource, deal
from sim.island_escape.records import Record, RecordError, load_record, parse_record, replay, result_json, write_record
from sim.island_escape.rules import HELICOPTER, ISLAND_CARDS, PLACES, Rules

from .support import grid, record

EXAMPLE_LAYOUT = [
    ["??", "7C", "KC", "7S", "??"],
    ["??", "10C", "8H", "6D", "10H"],
    ["9S", "??", "JK", "??", "KH"],
    ["??", "9D", "7H", "??", "??"],
    ["??", "??", "??", "??", "6S"],
]


def error_of(data) -> str:
    """The RecordError message for a record dict (parsed and replayed); it must be one line."""
    with pytest.raises(RecordError) as info:
        replay(parse_record(data))
    message = str(info.value)
    assert "\n" not in message and message
    return message


# --- reading ---------------------------------------------------------------------------------


def test_malformed_json_names_line_and_column(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{\n  "seed": 1,\n  "turns": [[]\n}\n', encoding="utf-8")
    with pytest.raises(RecordError) as info:
        load_record(path)
    message = str(info.value)
    assert message.startswith("not valid JSON:") and "line 4" in message and "\n" not in message


def test_missing_file(tmp_path):
    with pytest.raises(RecordError, match="cannot read the record"):
        load_record(tmp_path / "nowhere.json")


def test_not_an_object():
    assert error_of([1, 2]) == "a record must be a JSON object"


def test_unknown_top_level_key():
    message = error_of(record(sed=3))
    assert message.startswith("unknown key 'sed'")


def test_unknown_rules_key():
    message = error_of(record(rules={"players": 2, "speed": 3}))
    assert message.startswith("unknown rule 'speed'")


def test_wrong_format_name():
    assert "is not 'island-escape-record/1'" in error_of(record(format="island-escape-record/2"))


@pytest.mark.parametrize("code, reason", [
    ("11C", "is not a card code"),
    ("KX", "is not a card code"),
    ("5S", "5S is not on the island"),
    ("JH", "JH is not on the island"),
    ("JK", "JK belongs in the centre"),
])
def test_wrong_card_codes_in_layout(code, reason):
    layout = grid({(4, 2): code})
    message = error_of(record(layout=layout))
    assert message.startswith("layout column 4, row 2:") and reason in message


def test_a_card_named_twice():
    message = error_of(record(layout=grid({(1, 1): "KS", (5, 5): "KS"})))
    assert message == "layout column 5, row 5: KS is named twice (also at column 1, row 1)"


@pytest.mark.parametrize("centre", ["??", "KS"])
def test_no_joker_in_the_centre(centre):
    layout = grid({})
    layout[2][2] = centre
    message = error_of(record(layout=layout))
    assert message.startswith("layout column 3, row 3: the centre must be JK")


def test_layout_shape():
    assert error_of(record(layout=[["??"] * 5] * 4)) == "layout must be five rows of five card codes"


def test_floods_that_break_a_pass():
    message = error_of(record(floods=[[1, 1], [2, 2], [3, 1]]))
    assert message.startswith("floods[2] = [3, 1]: row 1 was already hit in this pass")
    message = error_of(record(floods=[[1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [2, 1], [2, 3]]))
    assert message.startswith("floods[6] = [2, 3]: column 2 was already hit in this pass")
    assert "floods[5]-floods[9]" in message


def test_floods_out_of_range():
    assert error_of(record(floods=[[0, 1]])).startswith("floods[0]: [0, 1] is not a [column, row] pair")
    assert error_of(record(floods=[[1, 6]])).startswith("floods[0]: [1, 6] is not")


def test_a_new_pass_may_hit_the_same_places_again():
    floods = [[1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [1, 1], [2, 2]]
    assert parse_record(record(floods=floods)).floods[5:] == [(1, 1), (2, 2)]


@pytest.mark.parametrize("rules, where", [
    ({"players": 5}, "rules.players must be a whole number from 1 to 4, not 5"),
    ({"players": 0}, "rules.players"),
    ({"players": True}, "rules.players"),
    ({"cards_per_treasure": 0}, "rules.cards_per_treasure must be a whole number from 1 to 5, not 0"),
    ({"cards_per_treasure": 6}, "rules.cards_per_treasure"),
    ({"actions_per_turn": 0}, "rules.actions_per_turn"),
    ({"actions_per_turn": 13}, "rules.actions_per_turn"),
    ({"swim_cost": 0}, "rules.swim_cost"),
    ({"swim_cost": 2.5}, "rules.swim_cost"),
    ({"gauge": ["AC", "6C"]}, "rules.gauge: '6C' is not a gauge card"),
    ({"gauge": ["AH"]}, "rules.gauge: 'AH' is not a gauge card"),
    ({"gauge": ["AC", "AC"]}, "rules.gauge names AC twice"),
    ({"gauge": []}, "rules.gauge must hold at least one card"),
    ({"gauge": "AC"}, "rules.gauge must be a list"),
])
def test_out_of_range_rules(rules, where):
    assert where in error_of(record(rules=rules))


def test_missing_rules_take_the_normal_values():
    rec = parse_record(record(rules={"players": 3}))
    assert rec.rules == Rules(players=3)
    assert rec.rules.cards_per_treasure == 2 and rec.rules.swim_cost == 2
    assert rec.rules.actions_per_turn == 4 and len(rec.rules.gauge) == 9
    assert rec.seed == 0 and rec.floods == [] and rec.turns == []


def test_missing_layout_leaves_every_place_to_the_seed():
    rec = parse_record({"seed": 5})
    assert rec.layout[2][2] == "JK" and sum(row.count("??") for row in rec.layout) == 24
    assert rec.full_layout() == deal(5)


def test_bad_seed_and_turns():
    assert error_of(record(seed="7")) == "seed must be a whole number, not '7'"
    assert error_of(record(turns=["move up"])) == "turns must be a list of lists of entries"
    assert error_of(record(turns=[[], [3]])) == "turn 2, entry 1: 3 is not a text entry"


# --- illegal entries -------------------------------------------------------------------------


@pytest.mark.parametrize("turns, message", [
    ([["move up", "move up", "move left", "move down"], ["move up", "jump"]],
     "turn 2, entry 2 'jump': unknown action 'jump'"),
    ([["move up"], ["move up", "move up", "shore 3,1", "move right", "move right"]],
     "turn 2, entry 5 'move right': pawn 1: all 4 actions of the turn are used"),
    ([["salvage 3,2"]],
     "turn 1, entry 1 'salvage 3,2': pawn 0: that tile is face down (explore it first)"),
    ([[], ["swim up"]],
     "turn 2, entry 1 'swim up': pawn 1: a swim crosses exactly one sea place; "
     "the place in between is a tile (walk)"),
    ([["move north"]], "turn 1, entry 1 'move north': move takes one direction: up, down, left or right"),
    ([["shore 6,1"]], "turn 1, entry 1 'shore 6,1': place 6,1 is off the island (columns and rows are 1-5)"),
    ([["raise 7C 10C"]], "turn 1, entry 1 'raise 7C 10C': pawn 0: you are not standing on a King"),
    ([["give 1 7C"]], "turn 1, entry 1 'give 1 7C': pawn 0: 7C is not in your salvage"),
    ([["escape 2 3,2"]], "turn 1, entry 1 'escape 2 3,2': there is no pawn 2"),
    ([["escape 0"]], "turn 1, entry 1 'escape 0': escape takes a pawn number and a place C,R"),
    ([["takeoff"]], "turn 1, entry 1 'takeoff': pawn 0: only 0 of 4 treasures are raised"),
])
def test_illegal_entries_name_turn_entry_and_reason(turns, message):
    data = record(layout=EXAMPLE_LAYOUT, floods=[[3, 1], [2, 4], [5, 5], [1, 3], [4, 2]], turns=turns)
    assert error_of(data) == message


def test_nothing_after_an_illegal_entry_is_played():
    turns = [["move up"], ["move up", "move up", "move up", "move left"]]
    rec = parse_record(record(layout=EXAMPLE_LAYOUT, turns=turns))
    games = []
    with pytest.raises(RecordError, match=r"^turn 2, entry 3 'move up': pawn 1: that is off the island$"):
        replay(rec, after_turn=games.append)
    (game,) = games  # only turn 1 finished
    assert game.pawns == [(3, 2), (3, 1)]  # the fourth entry was never played
    assert [e.kind for e in game.events if e.turn == 2] == ["move", "move"]


def test_turns_after_the_end():
    # A one-card gauge: the fifth flood would need to remove it, so turn 5 ends the game (R14).
    data = record(rules={"gauge": ["AC"]}, layout=grid({(1, 2): "6S", (2, 3): "7S", (3, 4): "6H",
                                                        (4, 5): "7H", (5, 1): "6D"}),
                  floods=[[1, 2], [2, 3], [3, 4], [4, 5], [5, 1]], turns=[[]] * 5)
    assert result_json(replay(parse_record(data)))["cause"] == "water"
    data["turns"] = [[]] * 6
    assert error_of(data) == "turn 6: the game already ended in turn 5 (water)"


def test_entries_after_the_end_in_the_same_turn():
    # KS on 5,1 hangs on 5,2 (6D) once 4,1, 3,1 and 5,3 have sunk; salvaging 5,2 then cuts KS
    # off (R16), so the entry after the salvage is refused.
    layout = grid({(5, 1): "KS", (1, 1): "KH", (1, 5): "KD", (2, 2): "KC",
                   (5, 2): "6D", (4, 2): "7D", (4, 1): "6S", (3, 1): "6H", (5, 3): "6C",
                   (1, 2): "7S", (2, 4): "7H", (3, 5): "7C", (2, 3): "8S", (4, 4): "8H", (5, 5): "8C"})
    first = [[4, 1], [5, 3], [1, 2], [2, 4], [3, 5]]
    second = [[3, 1], [1, 2], [2, 3], [4, 4], [5, 5]]
    floods = first * 2 + second * 2  # every place hit sinks; (3,1) sinks with flood 16, turn 13
    turns = [["move up", "move right", "move right", "move left"]] + [[] for _ in range(13)]
    data = record(layout=layout, floods=floods, turns=turns)
    game = replay(parse_record(data))
    assert not game.over and game.pawns[0] == (4, 2) and game.board[(5, 2)].state == "dry"
    assert all(game.board[p].state == "sea" for p in [(4, 1), (3, 1), (5, 3)])
    data["turns"] = turns + [["salvage 5,2"]]
    assert result_json(replay(parse_record(data)))["cause"] == "cut_off"
    data["turns"] = turns + [["salvage 5,2", "move left"]]
    assert error_of(data) == "turn 15, entry 2 'move left': the game already ended (cut_off)"


def test_unused_escape_entry():
    data = record(layout=EXAMPLE_LAYOUT, floods=[[3, 1], [2, 4], [5, 5], [1, 3], [4, 2]],
                  turns=[["move up", "escape 0 3,1"]])
    assert error_of(data) == ("turn 1, entry 2 'escape 0 3,1': "
                              "pawn 0's place did not sink in this turn's floods")


# --- filling ?? ------------------------------------------------------------------------------


def reference_fill(layout: list[list[str]], seed: int) -> dict:
    """Decision (d), written out independently: shuffle the unnamed cards in canonical order with
    random.Random(f"deal/{seed}") and lay them row-major on the ?? places."""
    named = {c for row in layout for c in row if c != "??"}
    rest = [c for c in ISLAND_CARDS if c not in named]
    random.Random(f"deal/{seed}").shuffle(rest)
    out = {}
    for r in range(1, 6):
        for c in range(1, 6):
            code = layout[r - 1][c - 1]
            out[(c, r)] = rest.pop(0) if code == "??" else code
    return out


@pytest.mark.parametrize("seed", [0, 7, 123456])
def test_question_marks_filled_deterministically_from_the_seed(seed):
    rec = parse_record(record(seed=seed, layout=EXAMPLE_LAYOUT))
    full = rec.full_layout()
    assert full == parse_record(record(seed=seed, layout=EXAMPLE_LAYOUT)).full_layout()
    assert full == reference_fill(EXAMPLE_LAYOUT, seed)
    named = {c for row in EXAMPLE_LAYOUT for c in row if c != "??"}
    filled = [full[p] for p in PLACES if EXAMPLE_LAYOUT[p[1] - 1][p[0] - 1] == "??"]
    assert sorted(filled) == sorted(set(ISLAND_CARDS) - named)  # only unnamed cards, each once
    for (c, r), card in full.items():
        if EXAMPLE_LAYOUT[r - 1][c - 1] != "??":
            assert card == EXAMPLE_LAYOUT[r - 1][c - 1]


def test_different_seeds_fill_differently():
    fills = {tuple(sorted(parse_record(record(seed=s)).full_layout().items())) for s in range(5)}
    assert len(fills) == 5
    assert deal(4) == parse_record(record(seed=4)).full_layout()
    assert deal(4)[HELICOPTER] == "JK"


def test_unscripted_floods_come_from_the_seed():
    # Decision (d): after the script, the rest of a pass comes from random.Random(f"floods/{seed}").
    rng = random.Random("floods/9")
    cols, rows = [1, 2, 3, 4, 5], [1, 2, 3, 4, 5]
    rng.shuffle(cols)
    rng.shuffle(rows)
    assert PileSource(9).piles(0) == (cols, rows)
    cols, rows = PileSource(9, [(2, 5), (4, 1)]).piles(0)
    assert cols[:2] == [2, 4] and rows[:2] == [5, 1]
    assert sorted(cols) == sorted(rows) == [1, 2, 3, 4, 5]
    cols, rows = PileSource(9, [(2, 5)]).piles(0)
    game = replay(parse_record(record(seed=9, floods=[[2, 5]], turns=[[], []])))
    second = (game.col_drawn[1], game.row_drawn[1])
    assert [e.at for e in game.events if e.kind == "flood"] == [(2, 5), second]
    assert second == (cols[1], rows[1]) and second != (2, 5)
    assert game.col_drawn[0] == 2 and game.row_drawn[0] == 5


# --- writing ---------------------------------------------------------------------------------


def test_write_then_load_round_trips(tmp_path):
    rec = Record(
        rules=Rules(players=3, cards_per_treasure=1, swim_cost=1, actions_per_turn=5,
                    gauge=("2C", "AD", "5D")),
        layout=EXAMPLE_LAYOUT, seed=42,
        floods=[(3, 1), (2, 4), (5, 5), (1, 3), (4, 2), (1, 1)],
        turns=[["move up", "move up"], [], ["move down", "escape 0 3,2"]],
        result={"outcome": "unfinished"},
    )
    path = tmp_path / "game.json"
    write_record(path, rec)
    back = load_record(path)
    assert back == rec
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == "island-escape-record/1"


def test_worked_example_round_trips_with_the_same_result(tmp_path):
    rec = load_record("examples/worked-example.json")
    path = tmp_path / "again.json"
    write_record(path, rec)
    assert result_json(replay(load_record(path))) == result_json(replay(rec))
    assert load_record(path) == rec
