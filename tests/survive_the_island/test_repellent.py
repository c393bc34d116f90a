"""S15's repellent as its holder's choice: the kernel and the engine agree on every question over
many games, records keep the answers, and the players answer it (the expert by what is at stake)."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from policies.survive_the_island import expert
from sim.survive_the_island import kernel as K
from sim.survive_the_island import layout as L
from sim.survive_the_island import lockstep
from sim.survive_the_island.convert import recount
from sim.survive_the_island.engine import Deal, SurviveTheIslandEngine, random_dice
from sim.survive_the_island.records import load_record, record_of, replay, write_record
from sim.survive_the_island.rules import (
    CREATURE_MOVE,
    KAIJU,
    KEEP_REPELLENT,
    MAX_SPACES,
    REPELLENT,
    SHARK,
    USE_REPELLENT,
    Rules,
)
from tests.survive_the_island.support import after_setup, arrange, creature_slot, legal, play

# Rules under which repellents come up often: many sharks and kaijus, few serpents, a die of them
OFTEN = (Rules(players=3, sharks=8, kaijus=4, serpents=1, die=(0, 3, 3)),
         Rules(players=5, sharks=8, kaijus=4, serpents=0, die=(0, 2, 2), moves=5))


@pytest.mark.parametrize("rules", OFTEN + (lockstep.RULE_GRID[2],))
def test_repellent_questions_agree_in_lockstep_over_many_games(rules):
    answers: Counter = Counter()
    for game in range(30):
        chooser = random.Random(game)

        def choose(codes, chooser=chooser):
            code = chooser.choice(codes)
            if codes == [KEEP_REPELLENT, USE_REPELLENT]:
                answers[code] += 1
            return code

        lockstep.Lockstep(rules, 90, game).play(choose, 20000)
    assert answers[KEEP_REPELLENT] > 5 and answers[USE_REPELLENT] > 5


def _repel_question(value: int, kind: int, seat_turn: int = 0):
    """A kernel state where seat 1's adventurer 10 (of `value`) is about to meet a creature of
    `kind` moved by the seat whose turn it is, seat 1 holding a repellent."""
    s, p, rng = after_setup(Rules(players=3))
    s[L.VALUE + 10] = value
    s[L.SEAT] = seat_turn
    slot = creature_slot(kind)
    arrange(s, p, adventurers={10: 30}, creatures={slot: 28}, hand={(1, REPELLENT): 1})
    recount(s, p)
    s[L.PHASE], s[L.ROLLED], s[L.ROLL_FROM] = L.PH_CREATURE, kind, L.PH_FLOOD
    play(s, p, rng, CREATURE_MOVE + MAX_SPACES * slot + 30)
    assert s[L.PHASE] == L.PH_REPEL and K.decider(s) == 1 and legal(s, p) == [KEEP_REPELLENT, USE_REPELLENT]
    return s, p, rng


def _expert_answer(s, p) -> int:
    acts = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    i = expert.choose(s, p, np.zeros(32), acts, 0, np.zeros(3, dtype=np.uint64))
    return int(acts[i])


@pytest.mark.parametrize("value, kind, turn, answer", [
    (5, SHARK, 0, USE_REPELLENT),  # a shark takes it: 5 at stake
    (3, SHARK, 0, USE_REPELLENT),  # the stake equals the threshold
    (2, SHARK, 0, KEEP_REPELLENT),  # less than an average adventurer: kept for later
    (4, KAIJU, 0, USE_REPELLENT),  # another seat would push it
    (4, KAIJU, 1, KEEP_REPELLENT),  # it pushes its own adventurer itself: half the stake
])
def test_the_expert_spends_its_repellent_when_enough_is_at_stake(value, kind, turn, answer):
    assert expert.REPEL_STAKE == 3.0
    s, p, _ = _repel_question(value, kind, turn)
    assert _expert_answer(s, p) == answer


def test_a_game_with_repellent_answers_round_trips_as_a_record(tmp_path):
    rules = OFTEN[0]
    for seed in range(40):
        chooser = random.Random(seed)
        game = SurviveTheIslandEngine(rules, Deal.random(rules, seed), random_dice(rules, seed))
        while not game.over:
            game.apply(chooser.choice(game.legal_actions()))
        record = record_of(game, seed, 0)
        entries = [e for turn in record.turns for e in turn]
        if "keep" in entries and "repel" in entries:
            break
    else:
        pytest.fail("no game of 40 had both answers")
    path = tmp_path / "game.json"
    write_record(path, record)
    again = replay(load_record(path))
    assert again.snapshot() == game.snapshot()
    assert [e for e in again.events if e["kind"] == "repelled"] == [e for e in game.events if e["kind"] == "repelled"]
