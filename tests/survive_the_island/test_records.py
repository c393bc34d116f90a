"""Survive the Island's records (docs/STI-RECORD-FORMAT.md): written, read, replayed, refused."""

from __future__ import annotations

import json
import random

import pytest

from sim.survive_the_island.engine import Deal, SurviveTheIslandEngine, random_dice
from sim.survive_the_island.records import (
    FORMAT,
    RecordError,
    load_record,
    record_of,
    replay,
    result_json,
    write_record,
)
from sim.survive_the_island.rules import Rules


def played(rules: Rules, seed: int, game: int) -> SurviveTheIslandEngine:
    rng = random.Random(seed * 100 + game)
    engine = SurviveTheIslandEngine(rules, Deal.random(rules, seed, game), random_dice(rules, seed, game))
    while not engine.over:
        engine.apply(rng.choice(engine.legal_actions()))
    return engine


@pytest.mark.parametrize("players", [2, 5])
def test_a_record_round_trips_and_replays_to_its_result(tmp_path, players):
    rules = Rules(players=players, moves=2, die=(1, 2, 3))
    game = played(rules, 4, 1)
    record = record_of(game, 4, 1)
    path = tmp_path / "game.json"
    write_record(path, record)
    data = json.loads(path.read_text())
    assert data["format"] == FORMAT and data["seed"] == 4 and data["game"] == 1
    assert len(data["deal"]["tiles"]) == 40 and len(data["deal"]["values"]) == players
    assert len(data["turns"]) == game.turn and data["setup"][0].startswith("place ")
    again = load_record(path)
    second = tmp_path / "again.json"
    write_record(second, again)
    assert second.read_text() == path.read_text()
    engine = replay(again)
    assert engine.snapshot() == game.snapshot()
    assert result_json(engine) == record.result
    assert record.result["outcome"] == record.result["cause"] == game.ending
    assert sum(record.result["win_shares"]) == pytest.approx(1.0)


def test_a_record_without_deal_or_rolls_takes_them_from_its_seed(tmp_path):
    rules = Rules(players=3)
    game = played(rules, 9, 0)
    data = record_of(game, 9, 0).to_json()
    del data["deal"], data["rolls"]
    assert replay(load_record(data)).snapshot() == game.snapshot()


def test_an_illegal_decision_is_named_with_its_turn():
    rules = Rules(players=2)
    data = record_of(played(rules, 1, 0), 1, 0).to_json()
    data["turns"][2] = ["flood r1c1"] + data["turns"][2]
    with pytest.raises(RecordError, match=r"^turn 3, entry 1 'flood r1c1': flood r1c1 is not legal"):
        replay(load_record(data))


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(format="other/1"), "format must be"),
    (lambda d: d.update(colour=1), "unknown key 'colour'"),
    (lambda d: d["rules"].update(players=9), "rules.players"),
    (lambda d: d["deal"]["tiles"].update({"r4c5": "beach unicorn"}), "deal.tiles: 'beach unicorn' is no tile"),
    (lambda d: d["deal"]["tiles"].update({"r4c5": "mountain volcano"}), "deal: the deal must lay each"),
    (lambda d: d["deal"]["values"][0].__setitem__(0, 9), "deal: seat 0's values"),
    (lambda d: d.update(rolls=["dragon"]), "rolls must be a list of creature names"),
    (lambda d: d["rolls"].append("shark"), "rolls: 1 of the"),
    (lambda d: d["turns"].append(["end"]), "the game already ended"),
    (lambda d: d["setup"].pop(), "setup|turn 1, entry 1"),
    (lambda d: d["turns"][0].insert(0, "move 0 Q"), "is no Survive the Island action"),
    (lambda d: d.update(rolls=d["rolls"][:1]), "rolls: roll 2 is needed"),
])
def test_a_broken_record_is_refused_in_one_line(change, message):
    data = record_of(played(Rules(players=2), 2, 0), 2, 0).to_json()
    change(data)
    with pytest.raises(RecordError, match=message) as info:
        replay(load_record(data))
    assert "\n" not in str(info.value)


def test_a_file_that_is_not_json_is_refused(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{")
    with pytest.raises(RecordError, match="not valid JSON"):
        load_record(path)
