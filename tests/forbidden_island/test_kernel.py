"""The numba kernel agrees with the reference engine decision by decision.

Lockstep games (sim/forbidden_island/lockstep.py): at every decision point the same set of legal actions, after
every step the same whole state (island, pawns, hands, both piles in order, discards, the flood
pile's public layers, meter, turn, phase and what is left of it, swimmers, outcome). Games cover
all four levels, 2-4 players, every role, random play by kind and a goal-seeking scout, and
late-game positions that reach lift-offs (F13) and the water's loss (F14). The big version is
marked slow; this one runs in `make test`.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from sim.forbidden_island import kernel as K
from sim.forbidden_island import layout as L
from sim.forbidden_island.convert import decode, encode, kernel_snapshot, params_of, state_of
from sim.forbidden_island.engine import ACTION_KINDS, FLOODED, LOSS_CAUSES, Action, deal
from sim.forbidden_island.lockstep import Lockstep, Mismatch, late_game, play_lockstep
from sim.forbidden_island.rules import DIFFICULTIES, PLACES, ROLES, TILE_CODES, TREASURE_DECK, Rules

from .support import (
    arranged,
    flood_top,
    last_flood_card_sinks_fools_landing,
    scout_choice,
    set_state,
    to_flood_phase,
    waters_rise_to_the_skull,
)

LEVELS = tuple(DIFFICULTIES)


def lockstep_games(games: int, first: int = 0,
                   freedoms: Counter | None = None) -> tuple[Counter, Counter, Counter]:
    """`games` dealt games plus a quarter as many late-game positions, all in lockstep.
    Returns the action kinds played, the outcomes and the roles seen; `freedoms` counts the
    flights to walkable tiles and swims out of seat order (lockstep.play_lockstep)."""
    kinds, outcomes, roles = Counter(), Counter(), Counter()
    for i in range(first, first + games):
        rules = Rules(players=2 + i % 3, difficulty=LEVELS[i // 3 % 4])
        game = play_lockstep(rules, deal(rules, i), kernel_seed=i, choice_seed=i, seen=kinds,
                             scout=scout_choice if i % 2 == 1 else None, freedoms=freedoms)
        outcomes[game.engine.outcome] += 1
        roles.update(game.engine.roles)
    for i in range(first, first + games // 4):
        rules = Rules(players=2 + i % 3)
        start = late_game(rules, deal(rules, 10**6 + i), mark=6 + i % 4)
        game = play_lockstep(rules, None, kernel_seed=i, choice_seed=i, seen=kinds,
                             scout=scout_choice if i % 2 == 0 else None, game=start)
        outcomes[game.engine.outcome] += 1
    return kinds, outcomes, roles


def test_kernel_and_engine_agree_decision_by_decision():
    freedoms = Counter()
    kinds, outcomes, roles = lockstep_games(96, freedoms=freedoms)
    assert set(kinds) == set(ACTION_KINDS), f"actions never played: {set(ACTION_KINDS) - set(kinds)}"
    assert set(roles) == set(ROLES)
    assert {"win", "water", "treasure", "fools_landing"} <= set(outcomes), outcomes
    # both freedoms are played in lockstep too, not only offered alike
    assert set(freedoms) == {"fly to a walkable tile", "swim ahead of a lower seat"}, freedoms


@pytest.mark.slow
def test_kernel_and_engine_agree_over_thousands_of_games():
    kinds, outcomes, roles = lockstep_games(2400, first=1000)
    assert set(kinds) == set(ACTION_KINDS)
    assert set(outcomes) == {"win", *LOSS_CAUSES}
    assert min(kinds[k] for k in ("fly", "navigate", "liftoff", "capture", "sandbags")) >= 20, kinds


def test_the_pilot_flies_to_a_neighbouring_tile_in_kernel_and_engine_alike():
    """F10: `fly 6,3` from 5,3 is offered and played by both, the flight then spent."""
    game = arranged(["pilot", "engineer"])
    game.pawns[0] = (5, 3)
    both = Lockstep(game.rules, None, kernel_seed=1, game=game)
    fly = encode(Action("fly", place=(6, 3)))
    assert encode(Action("move", place=(6, 3))) in both.legal_codes() and fly in both.legal_codes()
    assert K.fly_targets(both.s, both.p, 0) >> PLACES.index((6, 3)) & 1
    both.step(fly)  # compares the whole states
    assert both.engine.pawns[0] == (6, 3) and both.s[L.PAWN] == PLACES.index((6, 3)) and both.s[L.FLEW]
    assert not [c for c in both.legal_codes() if decode(c).kind == "fly"]


def test_pawns_on_a_sunk_tile_swim_in_any_order_in_kernel_and_engine_alike():
    """F11: three pawns on a sinking tile; the last seat swims first, then the middle one."""
    game = arranged(["engineer", "messenger", "explorer"])
    game.pawns = [(3, 4), (3, 4), (3, 4)]
    set_state(game, [(3, 4)], FLOODED)
    flood_top(game, [game.tile_at((3, 4))])
    to_flood_phase(game)
    both = Lockstep(game.rules, None, kernel_seed=1, game=game)
    both.step(L.A_FLOOD)
    assert {decode(c).by for c in both.legal_codes()} == {0, 1, 2}
    both.step(encode(Action("swim", by=2, place=(4, 5))))
    assert {decode(c).by for c in both.legal_codes()} == {0, 1} and both.s[L.SWIMMERS] == 0b011
    both.step(encode(Action("swim", by=1, place=(2, 4))))
    both.step(encode(Action("swim", by=0, place=(3, 3))))
    assert both.engine.pawns == [(3, 3), (2, 4), (4, 5)] and K.phase(both.s, both.p) == L.PH_FLOOD


@pytest.mark.parametrize("position, code, cause", [
    (waters_rise_to_the_skull, L.A_DRAW, "water"),
    (last_flood_card_sinks_fools_landing, L.A_FLOOD, "fools_landing"),
])
def test_a_lost_game_shuffles_nothing_in_kernel_and_engine_alike(position, code, cause):
    """F14 before F6/F7: the losing card's reshuffle does not happen in either (the whole piles
    are compared after the step)."""
    game = position()
    both = Lockstep(game.rules, None, kernel_seed=1, game=game)
    both.step(code)
    assert both.engine.outcome == cause and both.s[L.N_FSHUFFLES] == 0 and both.s[L.N_TSHUFFLES] == 0


def test_the_check_sees_a_difference():
    """A kernel state nudged by one card is reported, naming what differs."""
    rules = Rules(players=3, difficulty="normal")
    game = Lockstep(rules, deal(rules, 4), kernel_seed=4)
    seat_card = L.HAND + 8 * 1 + 0
    game.s[seat_card] += 1
    with pytest.raises(Mismatch, match="hands differ"):
        game.compare("nudged")


def test_kernel_starts_from_any_engine_state():
    """convert.state_of of an engine game after setup is the kernel's own setup of that deal."""
    rules = Rules(players=4, difficulty="legendary")
    setup = deal(rules, 9)
    game = Lockstep(rules, setup, kernel_seed=1)
    again = state_of(game.engine)
    assert kernel_snapshot(again, game.p) == kernel_snapshot(game.s, game.p)


def _kernel_deal(rules: Rules, seed: int, game: int) -> np.ndarray:
    s = np.zeros(L.NSTATE, dtype=np.int32)
    rng = np.zeros(3, dtype=np.uint64)
    K.init_game(s, params_of(rules), rng, seed, game)
    return s


def test_kernel_deal_is_a_legal_setup_and_the_same_island_at_every_level_and_player_count():
    seen_roles = Counter()
    for game in range(40):
        rules = Rules(players=2 + game % 3)
        s = _kernel_deal(rules, 7, game)
        snap = kernel_snapshot(s, params_of(rules))
        assert sorted(snap["layout"]) == sorted(TILE_CODES)  # F1
        assert len(set(snap["roles"])) == rules.players  # F2
        seen_roles.update(snap["roles"])
        held = [c for h in snap["hands"] for c in h]
        assert len(held) == 2 * rules.players and "waters_rise" not in held  # F3
        assert Counter(held + snap["treasure_pile"]) == Counter(TREASURE_DECK)
        assert len(snap["flooded"]) == 6 and snap["mark"] == 1 and snap["turn"] == 1
        for other in (Rules(players=4, difficulty="elite"), Rules(players=2, difficulty="legendary")):
            t = _kernel_deal(other, 7, game)
            assert (t[L.PLACE_TILE:L.PLACE_TILE + 24] == s[L.PLACE_TILE:L.PLACE_TILE + 24]).all()
            assert list(t[L.ROLE:L.ROLE + 2]) == list(s[L.ROLE:L.ROLE + 2])
            assert t[L.FLOODED] == s[L.FLOODED]
        assert _kernel_deal(Rules(difficulty="elite"), 7, game)[L.MARK] == 3  # F4
    assert set(seen_roles) == set(ROLES)


def test_kernel_games_end_and_keep_every_card():
    """The kernel alone, random legal play: every game ends, all 28 treasure and 24 flood cards
    stay accounted for, the meter only rises, no loss cause holds while the game runs (the
    kernel looks for one only after a draw), and no pawn stands on a sunk place once the swims
    are over (the engine's property test, on the kernel)."""
    rng_choice = np.random.default_rng(5)
    out = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    rng = np.zeros(3, dtype=np.uint64)
    p = params_of(Rules(players=3, difficulty="normal"))
    for game in range(30):
        s = np.zeros(L.NSTATE, dtype=np.int32)
        K.init_game(s, p, rng, 3, game)
        for _ in range(3000):
            n = K.legal_actions(s, p, out)
            if n == 0:
                break
            mark = s[L.MARK]
            K.play_action(s, p, out[rng_choice.integers(n)], rng)
            snap = kernel_snapshot(s, p)
            cards = [c for h in snap["hands"] for c in h] + snap["treasure_pile"] + snap["treasure_discard"]
            assert Counter(cards) == Counter(TREASURE_DECK)
            sunk = {TILE_CODES[s[L.PLACE_TILE + q]] for q in snap["sunk"]}
            assert sorted(snap["flood_pile"] + snap["flood_discard"] + sorted(sunk)) == sorted(TILE_CODES)
            assert mark <= s[L.MARK] <= mark + 1
            if s[L.OUTCOME] < 0:  # F14: play_action checks only after draws; none was missed
                assert K.loss_cause(s, p) == -1
            if s[L.OUTCOME] < 0 and not s[L.SWIMMERS]:  # F11: nobody stays on a sunk place
                assert not any(int(s[L.SUNK]) >> q & 1 for q in snap["pawns"])
        assert s[L.OUTCOME] >= 0


def test_only_draw_names_the_draw_exactly_where_it_is_the_one_legal_action():
    """`only_draw` (which the play loop plays without asking a blind policy): wherever it names a
    draw, the legal list is that draw alone (F9: no Lift or Sandbags in any hand, so no special
    card and no lift-off); it names none outside the draws, nor while a hand holds a special card.
    Random legal play over all levels and player counts, so that both answers are met often."""
    rng_choice = np.random.default_rng(11)
    out = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    rng = np.zeros(3, dtype=np.uint64)
    seen = Counter()
    for game in range(48):
        p = params_of(Rules(players=2 + game % 3, difficulty=LEVELS[game % 4]))
        s = np.zeros(L.NSTATE, dtype=np.int32)
        K.init_game(s, p, rng, 11, game)
        while (n := K.legal_actions(s, p, out)) > 0:
            ph = K.phase(s, p)
            a = K.only_draw(s, p, ph)
            specials = sum(s[L.HAND + L.HAND_STRIDE * seat + c] for seat in range(p[L.P_PLAYERS])
                           for c in (L.C_LIFT, L.C_SANDBAGS))
            if a >= 0:
                assert list(out[:n]) == [a] and a == (L.A_DRAW if ph == L.PH_TREASURE else L.A_FLOOD)
            else:  # the policy is asked: outside the draws, or a special card is held
                assert ph not in (L.PH_TREASURE, L.PH_FLOOD) or specials > 0
            seen[(ph, a >= 0)] += 1
            K.play_action(s, p, out[rng_choice.integers(n)], rng)
    for ph in (L.PH_TREASURE, L.PH_FLOOD):
        assert seen[(ph, True)] > 30 and seen[(ph, False)] > 30, seen
