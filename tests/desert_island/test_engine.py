"""Desert Island's reference engine (sim/desert_island/engine.py): the rulebook's rules and the
lab's rulings D10-D22 (docs/RULES-DI.md), each in a situation built by hand, hidden information,
and games of random legal choices."""

from __future__ import annotations

import random

import pytest

from sim.desert_island import actions as A
from sim.desert_island.engine import MAX_WEEKS, Deal, DesertIslandEngine, play_random, random_draws
from sim.desert_island.rules import Rules


def random_game(players: int, game: int) -> DesertIslandEngine:
    rules = Rules(players=players)
    engine = DesertIslandEngine(rules, Deal.random(rules, 11, game), random_draws(rules, 11, game))
    rnd = random.Random(game)
    decisions = 0
    while not engine.over:
        codes = engine.legal_actions()
        assert codes == sorted(set(codes)) and codes, engine.phase
        seat = engine.decider
        assert engine.alive[engine.deal.roles[seat]], "the dead never decide"
        engine.apply(rnd.choice(codes))
        decisions += 1
        assert all(0 <= f <= A.MAX_FOOD for f in engine.food)
        assert all(t >= 0 for t in engine.tokens)
    return engine


@pytest.mark.parametrize("players", [4, 5, 6])
def test_random_games_end_with_shares_that_sum_to_one_or_a_general_loss(players):
    for game in range(200):
        engine = random_game(players, game)
        assert engine.week <= MAX_WEEKS
        shares = engine.win_shares()
        if any(engine.alive):
            assert sum(shares) == pytest.approx(1.0)
        else:
            assert engine.ending == "lost" and shares == [0.0] * players


def test_play_random_takes_the_first_code_by_default():
    engine = play_random(Rules(players=4), 3, 0)
    assert engine.over
