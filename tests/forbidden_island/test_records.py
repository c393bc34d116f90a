"""Forbidden Island records (docs/FI-RECORD-FORMAT.md): written games replay to the same end,
hand-written ones play as written, and every bad record is refused in one line saying where."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from sim.forbidden_island.engine import new_game
from sim.forbidden_island.records import (
    FORMAT,
    RecordError,
    layout_rows,
    load_record,
    parse_record,
    record_of,
    replay,
    result_json,
    write_record,
)
from sim.forbidden_island.rules import TILE_CODES, TREASURE_DECK, Rules

from .support import random_play, scout_choice


def played(players=3, difficulty="normal", seed=5):
    return random_play(new_game(Rules(players=players, difficulty=difficulty), seed), random.Random(seed),
                       chooser=scout_choice)


@pytest.mark.parametrize("players, difficulty, seed", [(2, "novice", 1), (3, "elite", 2), (4, "legendary", 3)])
def test_written_games_replay_to_the_same_end(tmp_path, players, difficulty, seed):
    game = played(players, difficulty, seed)
    path = tmp_path / "game.json"
    write_record(path, record_of(game, seed))
    again = replay(load_record(path))
    assert result_json(again) == result_json(game)
    assert json.loads(path.read_text())["result"]["cause"] == game.outcome


def test_a_written_record_does_not_depend_on_the_seed(tmp_path):
    """Setup and every shuffle written out: another seed in the record changes nothing, and the
    replay never falls back on the seed's random streams."""
    game = played(seed=8)
    data = record_of(game, 8).to_json()
    assert set(data["setup"]) == {"layout", "roles", "flood_deck", "treasure_deck"}
    data["seed"] = 12345
    again = replay(parse_record(data))
    assert result_json(again) == result_json(game)
    assert again.shuffler.rngs == {} and len(again.shuffler.log) == len(data["shuffles"])


def test_a_hand_written_record():
    """Waters Rise! as the first draw of the game: the water rises, the six setup floods come
    back on top of the flood pile, and the turn's two floods are two of them."""
    top = ["earth", "fire", "wind", "chalice", "waters_rise"]
    rest = list(TREASURE_DECK)
    for card in top:
        rest.remove(card)
    record = parse_record({
        "format": FORMAT,
        "rules": {"players": 2, "difficulty": "novice"},
        "setup": {"layout": layout_rows(TILE_CODES), "roles": ["engineer", "pilot"],
                  "flood_deck": list(TILE_CODES), "treasure_deck": top + rest},
        "turns": [["shore 4,1 3,1", "draw", "draw", "flood", "flood"], ["fly 4,6"]],
    })
    game = replay(record)
    assert game.mark == 2
    assert game.hands == [["earth", "wind", rest[0]], ["fire", "chalice"]]
    floods = [e["tile"] for e in game.events if e["kind"] in ("flood", "sink") and e["turn"] == 1]
    assert len(floods) == 2 and set(floods) <= set(TILE_CODES[:6])
    assert game.turn == 2 and game.pawns[1] == (4, 6)


BASE = {"format": FORMAT, "rules": {"players": 2}, "seed": 3}


@pytest.mark.parametrize("change, message", [
    ({"colour": 1}, "unknown key 'colour'"),
    ({"format": "island-escape-record/1"}, "format must be 'forbidden-island-record/1'"),
    ({"rules": {"players": 5}}, "rules.players must be a whole number from 2 to 4, not 5"),
    ({"rules": {"difficulty": "hard"}}, "rules.difficulty must be one of novice, normal, elite, legendary"),
    ({"rules": {"swim_cost": 1}}, "unknown rule 'swim_cost'"),
    ({"seed": "x"}, "seed must be a whole number"),
    ({"setup": {"layout": [["fools_landing"]]}}, "setup.layout must be six rows of 2, 4, 6, 6, 4 and 2"),
    ({"setup": {"roles": ["diver", "diver"]}}, "setup: each player has a different role (F2)"),
    ({"setup": {"roles": ["diver", "cook"]}}, "setup: 'cook' is not a role"),
    ({"setup": {"flood_deck": ["watchtower"]}}, "setup: the flood deck must hold each of the 24"),
    ({"shuffles": [{"pile": "water", "order": []}]}, "shuffles[0] must be an object with pile"),
    ({"turns": [["move"]]}, "turn 1, entry 1 'move': move takes one place C,R"),
    ({"turns": [["move 9,9"]]}, "turn 1, entry 1 'move 9,9': place 9,9 is not on the island"),
    ({"turns": [["capture"]]}, "turn 1, entry 1 'capture': a capture takes 4 cards"),
    ({"turns": [["draw", "draw"], ["draw"]]}, "turn 2, entry 1 'draw': the game is in turn 1"),
    ({"turns": [[7]]}, "turn 1, entry 1: 7 is not a text entry"),
])
def test_bad_records_are_refused_in_one_line(change, message):
    data = {**BASE, **change}
    with pytest.raises(RecordError) as err:
        replay(parse_record(data))
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_an_entry_after_the_end_is_refused():
    game = played(seed=4)
    data = record_of(game, 4).to_json()
    data["turns"][-1].append("draw")
    with pytest.raises(RecordError, match="the game already ended"):
        replay(parse_record(data))


def test_a_scripted_shuffle_must_fit_its_pile():
    game = played(seed=6)
    data = record_of(game, 6).to_json()
    assert data["shuffles"], "this game reshuffles at least once"
    data["shuffles"][0]["order"] = data["shuffles"][0]["order"][1:]
    with pytest.raises(RecordError, match="shuffles"):
        replay(parse_record(data))


def test_unreadable_files(tmp_path):
    with pytest.raises(RecordError, match="cannot read the record"):
        load_record(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(RecordError, match="not valid JSON"):
        load_record(bad)


def test_the_documented_example_replays_as_described():
    """docs/FI-RECORD-FORMAT.md's example is examples/forbidden-island/first-turns.json."""
    root = Path(__file__).resolve().parents[2]
    text = (root / "docs" / "FI-RECORD-FORMAT.md").read_text(encoding="utf-8")
    documented = json.loads(text.split("```json\n", 1)[1].split("```", 1)[0])
    game = replay(parse_record(documented))
    assert result_json(game) == result_json(replay(load_record(root / "examples/forbidden-island/first-turns.json")))
    kinds_ = [(e["kind"], e.get("card") or e.get("tile")) for e in game.events if e["turn"] == 1]
    assert ("draw", "waters_rise") in kinds_ and ("sink", "copper_gate") in kinds_
    assert game.mark == 2 and game.hands[0] == ["lift", "lift"] and game.turn == 3
    assert any(e["kind"] == "sandbags" and e["player"] == 0 and e["turn"] == 2 for e in game.events)


def test_a_record_of_a_game_lost_to_waters_rise_ends_at_the_loss(tmp_path):
    """A kernel game (expert, 4 players Elite, seed 8, game 6) lost when a Waters Rise! takes the
    water to the skull with cards in the flood discard: its record ends with that draw and lists
    no shuffle after it, and the engine's replay uses every order listed and no other."""
    from policies.runner import export_records

    (record,) = export_records(Rules(players=4, difficulty="elite"), "expert", 8, [6])
    assert record.result["cause"] == "water"
    assert record.turns[-1][-1] == "draw"
    path = tmp_path / "lost.json"
    write_record(path, record)
    game = replay(load_record(path))
    assert game.outcome == "water" and game.flood_discard, "the losing rise found cards to shuffle"
    assert [e["kind"] for e in game.events[-3:]] == ["draw", "waters_rise", "loss"]
    assert game.shuffler.log == record.shuffles and game.shuffler.rngs == {}
    final = game.final_state()
    kernel_final = record.result["final"]
    assert [sorted(h) for h in final.pop("hands")] == [sorted(h) for h in kernel_final.pop("hands")]  # counts
    assert final == kernel_final


def test_orders_listed_after_the_end_are_refused():
    game = played(seed=4)
    data = record_of(game, 4).to_json()
    data["shuffles"].append({"pile": "flood", "order": sorted(game.flood_discard) or ["watchtower"]})
    with pytest.raises(RecordError, match=r"shuffles: 1 of the \d+ orders listed never happen"):
        replay(parse_record(data))
