"""Kernel action codes and the engine's actions translate both ways (docs/FI-KERNEL.md)."""

from __future__ import annotations

import random

import pytest

from sim.forbidden_island import layout as L
from sim.forbidden_island.convert import CodeError, decode, encode, kind_of, params_of
from sim.forbidden_island.engine import ACTION_KINDS, Action, new_game
from sim.forbidden_island.rules import PLACES, Rules


def test_every_code_decodes_to_an_action_that_encodes_back_or_is_refused():
    kinds = set()
    for code in range(L.N_ACTIONS):
        try:
            action = decode(code)
        except CodeError:
            continue  # the unused slots: a lift with no passenger, a shore pair out of order, ...
        assert encode(action) == code, (code, action)
        name = L.KIND_NAMES[kind_of(code)]
        assert action.kind == ("shore" if name == "shore2" else name)
        kinds.add(action.kind)
    assert kinds == set(ACTION_KINDS)


def test_actions_met_in_random_games_round_trip():
    rng = random.Random(3)
    seen = set()
    for seed in range(6):
        game = new_game(Rules(players=2 + seed % 3, difficulty="elite"), seed)
        while not game.over:
            legal = game.legal_actions()
            for action in legal:
                assert decode(encode(action)) == action
            seen.update(a.kind for a in legal)
            game.apply(rng.choice(legal))
    assert {"move", "shore", "draw", "flood", "lift", "sandbags"} <= seen


def test_codes_are_refused_clearly():
    with pytest.raises(CodeError, match="not an action code"):
        decode(L.N_ACTIONS)
    with pytest.raises(CodeError, match="no passenger"):
        decode(L.A_LIFT + 5)
    with pytest.raises(CodeError, match="only treasure cards"):
        encode(Action("give", pawn=1, card="lift"))
    with pytest.raises(CodeError, match="not a place"):
        encode(Action("move", place=(1, 1)))
    assert encode(Action("shore", place=PLACES[7], place2=PLACES[3])) == L.A_SHORE2 + 24 * 3 + 7


def test_params_follow_the_rules():
    p = params_of(Rules(players=3, difficulty="legendary"))
    assert p[L.P_PLAYERS] == 3 and p[L.P_START_MARK] == 4 and p[L.P_HAND_LIMIT] == 5 and p[L.P_CAPTURE] == 4
