"""The numba `expert` (policies/forbidden_island/expert.py) against the readable one
(expert_reference.py): the same action at every decision when both see the same state."""

from __future__ import annotations

import numpy as np
import pytest

from policies.forbidden_island.expert import choose as kernel_choose
from policies.forbidden_island.expert import scratch
from policies.forbidden_island.expert_play import play_expert
from policies.forbidden_island.expert_reference import choose as reference_choose
from sim.forbidden_island import kernel as K
from sim.forbidden_island import layout as L
from sim.forbidden_island.convert import decode, encode, params_of, state_of
from sim.forbidden_island.engine import new_game
from sim.forbidden_island.rules import DIFFICULTIES, Rules


def _side_by_side(rules: Rules, seed: int) -> int:
    """Play one engine game with the reference; at every decision the port, given the kernel
    state of the same game, must choose the same action. Returns the decisions compared."""
    game = new_game(rules, seed)
    p = params_of(rules)
    legal = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    b, bi = scratch()
    decisions = 0
    while not game.over:
        actions = game.legal_actions()
        want = reference_choose(game.public_view(), actions)
        s = state_of(game)
        n = K.legal_actions(s, p, legal)
        got = int(kernel_choose(s, p, legal, n, b, bi))
        assert got == encode(want), (f"seed {seed}, turn {game.turn}, {game.phase}: reference {want}, "
                                     f"port {decode(got)}")
        game.apply(want)
        decisions += 1
    return decisions


@pytest.mark.parametrize("players", [2, 3, 4])
def test_port_chooses_as_the_reference_at_every_decision(players):
    levels = list(DIFFICULTIES)
    decisions = sum(_side_by_side(Rules(players=players, difficulty=levels[seed % 4]), seed)
                    for seed in range(12))
    assert decisions > 1000


@pytest.mark.slow
def test_port_chooses_as_the_reference_on_hundreds_of_games():
    for seed in range(100, 400):
        _side_by_side(Rules(players=2 + seed % 3, difficulty=list(DIFFICULTIES)[seed % 4]), seed)


def test_play_loop_ends_every_game_with_an_outcome():
    rows = play_expert(Rules(players=2, difficulty="novice"), seed=5, first=0, count=50)
    assert set(rows[:, 0]) <= set(range(len(L.CAUSES)))
    assert (rows[:, 1] > 0).all()
    assert (rows[:, 0] == L.CAUSE_WIN).sum() >= 3  # the published bot: 20% at this cell
