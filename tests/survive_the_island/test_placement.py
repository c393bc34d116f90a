"""S7's placement: each seat chooses which of its values it places, and where (engine, kernel,
lockstep, records, and the players' use of the choice)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from policies.survive_the_island import expert, uniform_random
from sim.lockstep import NO_LOG
from sim.survive_the_island import kernel as K
from sim.survive_the_island import layout as L
from sim.survive_the_island import lockstep
from sim.survive_the_island.convert import params_of
from sim.survive_the_island.engine import UNPLACED, Deal, SurviveTheIslandEngine, random_dice
from sim.survive_the_island.records import FORMAT_1, RecordError, load_record, record_of, replay, write_record
from sim.survive_the_island.rules import PLACE_ADVENTURER, Rules, action_text, decode, encode, parse_action


def new_game(rules: Rules, seed: int, game: int = 0) -> SurviveTheIslandEngine:
    return SurviveTheIslandEngine(rules, Deal.random(rules, seed, game), random_dice(rules, seed, game))


@pytest.mark.parametrize("players", [2, 4, 5])
def test_a_seat_may_place_any_of_its_unplaced_values_and_places_one_of_that_value(players):
    rules = Rules(players=players)
    chooser = random.Random(players)
    for seed in range(3):
        game = new_game(rules, seed)
        while game.phase == "place":
            seat = game.seat
            left = sorted({a.value for a in game.seat_adventurers(seat) if a.space == UNPLACED})
            codes = game.legal_actions()
            assert codes == sorted(codes)
            assert sorted({decode(c)[1] for c in codes}) == left  # every value it has left, no other
            spaces = {decode(c)[2] for c in codes}
            assert len(codes) == len(left) * len(spaces)  # each value on each open space
            code = chooser.choice(codes)
            _, value, space = decode(code)
            before = [a.space for a in game.adventurers]
            game.apply(code)
            moved = [a for a, q in zip(game.adventurers, before, strict=True) if a.space != q]
            assert len(moved) == 1 and moved[0].seat == seat and moved[0].value == value and moved[0].space == space
            # the lowest-numbered of that value: adventurers of one value are alike
            assert all(a.space != UNPLACED for a in game.seat_adventurers(seat)
                       if a.value == value and a.number < moved[0].number)
        assert all(a.space >= 0 for a in game.adventurers)


def test_a_value_placed_twice_is_no_longer_offered():
    rules = Rules(players=4)
    game = new_game(rules, 3)
    for _ in range(2):  # seat 0 places both its 5s, the others a 1
        for seat in range(4):
            value = 5 if seat == 0 else 1
            game.apply(next(c for c in game.legal_actions() if decode(c)[1] == value))
    assert {decode(c)[1] for c in game.legal_actions()} == {1, 2, 3, 4}


def test_placement_codes_extend_s17_and_read_as_text():
    board = Rules().board_data
    q = board.land[7]
    code = encode(("adventurer", 5, q))
    assert code == PLACE_ADVENTURER + 256 * 4 + q and decode(code) == ("adventurer", 5, q)
    assert action_text(code, board) == f"place 5 {board.space_text(q)}"
    assert parse_action(f"place 5 {board.space_text(q)}", board) == code
    assert decode(parse_action(f"place {board.space_text(q)}", board)) == ("place", q)  # a raft's, as before
    for bad in ("place 0 r5c5", "place 6 r5c5", "place x r5c5"):
        with pytest.raises(ValueError, match="no Survive the Island action"):
            parse_action(bad, board)


@pytest.mark.parametrize("k", range(len(lockstep.RULE_GRID)))
def test_set_ups_of_random_value_choices_agree_in_lockstep(k):
    """Many deals, every placement uniform over (value, space): the kernel and the engine list
    the same codes and keep the same values and spaces; a few games then go on to their end."""
    rules = lockstep.RULE_GRID[k]
    for game in range(20):
        chooser = random.Random(1000 * k + game)
        both = lockstep.Lockstep(rules, 70 + k, game)
        while both.engine.turn == 0:
            both.step(chooser.choice(both.legal_codes()))
        assert both.steps == rules.adventurers + rules.players * rules.rafts_each
    for game in range(2):
        lockstep.play_lockstep(rules, 80 + k, game, choice_seed=game)


def _expert_setup(rules: Rules, seed: int, game: int, players: str):
    """The kernel's state after the set-up, the seats that are `expert` choosing theirs, the
    others `random`."""
    p = params_of(rules)
    s = np.zeros(L.NSTATE, dtype=np.int32)
    rng = np.zeros(3, dtype=np.uint64)
    acts = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    K.init_game(s, p, rng, seed, game)
    pp = np.zeros(32)
    while s[L.PHASE] == L.PH_PLACE:
        player = expert if players[s[L.SEAT]] == "e" else uniform_random
        i = player.choose(s, p, pp, acts, 0, rng)
        K.apply_action(s, p, int(acts[i]), rng, NO_LOG, -1)
    return s, p


@pytest.mark.parametrize("players", ["eeee", "erre", "errr", "er"])
def test_the_expert_places_its_highest_values_nearer_rescue_than_its_lowest(players):
    """Its high values take the best spaces, which go first; its low ones what is left."""
    rules = Rules(players=len(players))
    near = {v: [] for v in range(1, 6)}
    for game in range(150):
        s, p = _expert_setup(rules, 21, game, players)
        each = rules.adventurers_each
        for seat, who in enumerate(players):
            if who != "e":
                continue
            for a in range(seat * each, seat * each + each):
                near[int(s[L.VALUE + a])].append(int(p[L.P_RESCUE_DIST + s[L.ADV_SPACE + a]]))
    mean = {v: np.mean(d) for v, d in near.items()}  # steps to the nearest rescue island
    assert mean[1] - mean[5] > 1.0
    assert mean[4] + mean[5] < mean[1] + mean[2]


def test_the_random_player_draws_every_value_and_space():
    """`random` is uniform over the legal codes: a value among those left, a space among those open."""
    rules = Rules(players=2)
    first = []
    for game in range(400):
        p = params_of(rules)
        s = np.zeros(L.NSTATE, dtype=np.int32)
        rng = np.zeros(3, dtype=np.uint64)
        acts = np.zeros(L.MAX_LEGAL, dtype=np.int64)
        K.init_game(s, p, rng, 5, game)
        i = uniform_random.choose(s, p, np.zeros(32), acts, 0, rng)
        first.append(int(acts[i]))
        n = K.legal_actions(s, p, acts)
        assert first[-1] in acts[:n]
    values = [decode(c)[1] for c in first]
    assert all(50 < values.count(v) < 110 for v in range(1, 6))
    assert len({decode(c)[2] for c in first}) > 30


def _played(rules: Rules, seed: int, choose) -> SurviveTheIslandEngine:
    game = new_game(rules, seed)
    chooser = random.Random(seed)
    while not game.over:
        game.apply(choose(game, chooser))
    return game


def _in_number_order(game: SurviveTheIslandEngine, chooser: random.Random) -> int:
    """The old S7: each seat's adventurers placed in number order; elsewhere any legal code."""
    codes = game.legal_actions()
    if game.phase != "place":
        return chooser.choice(codes)
    nxt = next(a for a in game.seat_adventurers(game.seat) if a.space == UNPLACED)
    return chooser.choice([c for c in codes if decode(c)[1] == nxt.value])


def test_a_record_of_chosen_values_round_trips(tmp_path):
    rules = Rules(players=3)
    game = _played(rules, 6, lambda g, c: c.choice(g.legal_actions()))
    record = record_of(game, 6, 0)
    assert all(e.split()[1] in "12345" for e in record.setup[:rules.adventurers])
    path = tmp_path / "game.json"
    write_record(path, record)
    again = load_record(path)
    assert again.setup == record.setup
    assert replay(again).snapshot() == game.snapshot()


def test_a_first_format_record_is_read_as_its_adventurers_values_and_replays_the_same_game():
    rules = Rules(players=4)
    game = _played(rules, 8, _in_number_order)
    data = record_of(game, 8, 0).to_json()
    old = dict(data, format=FORMAT_1)
    adventurers = rules.adventurers
    old["setup"] = [" ".join(e.split()[::2]) if i < adventurers else e for i, e in enumerate(data["setup"])]
    assert old["setup"][0].count(" ") == 1 and old["setup"][-1] == data["setup"][-1]
    record = load_record(old)
    assert record.setup == data["setup"]
    assert replay(record).snapshot() == game.snapshot()
    with pytest.raises(RecordError, match=r"^setup, entry 1 'place r\d+c\d+': place r\d+c\d+ is not legal"):
        replay(load_record(dict(old, format=data["format"])))  # the present format names the value
