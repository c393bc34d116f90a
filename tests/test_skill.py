"""The skill axis (`skilled`): expert at skill 1, and a win rate that rises with skill.

Paired games (same seed, so the same islands and flood orders) and Wilson intervals: the order
must hold with intervals that do not cross the wrong way.
"""

from __future__ import annotations

import numpy as np
import pytest

from experiments.runner import wilson_interval
from policies.island_escape.registry import REGISTRY
from policies.island_escape.skilled import skill_params
from policies.registry import UnknownPolicy
from policies.runner import run_games
from sim.island_escape import layout as L
from sim.island_escape.rules import Rules

player_params, with_skill = REGISTRY.player_params, REGISTRY.with_skill

SKILLS = (0.0, 0.25, 0.5, 0.75, 1.0)


def test_skill_one_is_the_expert_game_for_game():
    for rules in (Rules(), Rules(players=3, cards_per_treasure=3, swim_cost=1)):
        expert = run_games(rules, "expert", 400, seed=21)
        assert np.array_equal(run_games(rules, "skilled@1", 400, seed=21), expert)
        assert np.array_equal(run_games(rules, "skilled", 400, seed=21, policy_params=skill_params(1.0)), expert)


def test_lower_skill_really_plays_differently():
    rules = Rules()
    assert not np.array_equal(run_games(rules, "skilled@0.9", 200, seed=21), run_games(rules, "expert", 200, seed=21))


@pytest.mark.parametrize("rules", [Rules(), Rules(players=3)], ids=["rulebook-2p", "rulebook-3p"])
def test_win_rate_rises_with_skill(rules):
    """Five skills from 0 to 1: each one's Wilson interval lies above the one before it, or at
    least never below it (a careless table near zero, the expert at the top)."""
    games = 3000
    rates = []
    for skill in SKILLS:
        wins = int((run_games(rules, with_skill("skilled", skill), games, seed=3)[:, 0] == L.CAUSE_WIN).sum())
        rates.append((wins / games, *wilson_interval(wins, games)))
    for (r0, lo0, _), (r1, _, hi1) in zip(rates, rates[1:], strict=False):
        assert r1 >= r0 and hi1 >= lo0, rates  # never the wrong way round
    assert rates[0][2] < rates[-1][1]  # the ends clearly apart
    assert rates[0][0] < 0.25, rates  # a careless table mostly loses even the rulebook's game


def test_player_specs_are_checked():
    assert player_params("expert") is None
    assert player_params("skilled@0.3")[0] == pytest.approx(0.3)
    for bad in ("expert@0.5", "skilled@2", "skilled@x", "nobody@0.5"):
        with pytest.raises(UnknownPolicy):
            player_params(bad)
