"""Forbidden Island's `skilled`: the expert's plan with a person's mistakes, on the same skill
scale as Island Escape's (policies/forbidden_island/skilled.py). Its honesty check and its
fingerprints are the conformance suite's (tests/test_conformance.py)."""

from __future__ import annotations

import numpy as np
import pytest

from policies.forbidden_island import skilled
from policies.forbidden_island.registry import REGISTRY
from policies.island_escape import skilled as ie_skilled
from policies.registry import UnknownPolicy
from policies.runner import run_games
from sim.forbidden_island import layout as L
from sim.forbidden_island.rules import Rules

player_params, with_skill = REGISTRY.player_params, REGISTRY.with_skill

SETTINGS = (Rules(players=2, difficulty="novice"), Rules(players=4, difficulty="elite"))


@pytest.mark.parametrize("rules", SETTINGS, ids=lambda r: f"{r.players}p-{r.difficulty}")
def test_without_mistakes_it_plays_the_experts_games(rules):
    expert = run_games(rules, "expert", 300, seed=11, threads=1)
    np.testing.assert_array_equal(run_games(rules, "skilled@1", 300, seed=11, threads=1), expert)
    np.testing.assert_array_equal(run_games(rules, "skilled", 300, seed=11, threads=1), expert)
    assert not np.array_equal(run_games(rules, "skilled@0.9", 300, seed=11, threads=1), expert)


@pytest.mark.parametrize("rules", [Rules(players=2, difficulty="novice"), Rules(players=3, difficulty="normal")],
                         ids=lambda r: f"{r.players}p-{r.difficulty}")
def test_the_win_rate_rises_with_skill(rules):
    """Five skills on the same deals: every step up wins at least about as often (within two
    points of noise), and the whole axis spans a wide range."""
    rates = [float((run_games(rules, with_skill("skilled", s), 1500, seed=3)[:, 0] == L.CAUSE_WIN).mean())
             for s in (0.0, 0.25, 0.5, 0.75, 1.0)]
    assert all(b >= a - 0.02 for a, b in zip(rates, rates[1:], strict=False)), rates
    assert rates[-1] - rates[0] > 0.15, rates


def test_skill_specs_are_checked_as_island_escapes_are():
    assert player_params("skilled@0.5")[skilled.SKILL] == 0.5
    assert player_params("expert") is None
    for spec, words in (("skilled@2", "from 0 to 1"), ("skilled@x", "bad skill"), ("expert@0.5", "takes no skill"),
                        ("nobody@0.5", "unknown Forbidden Island policy")):
        with pytest.raises(UnknownPolicy, match=words):
            player_params(spec)


@pytest.mark.parametrize("skill", [0.25, 0.5, 0.65, 0.85, 0.95])
def test_a_skill_departs_from_the_expert_as_often_in_both_games(skill):
    """The normalisation: at the same skill, the share of actions where the player does not do
    what its game's expert would do is the same in both games, within 4 points, on games other
    than those the scale was set on (seed 1), at skills between its grid points too."""
    ie = ie_skilled.departure_share(skill, 3000, seed=2)
    fi = skilled.departure_share(skill, 3000, seed=2)
    assert abs(ie - fi) < 0.04, (skill, ie, fi)
    assert 0.0 < fi < 1.0
