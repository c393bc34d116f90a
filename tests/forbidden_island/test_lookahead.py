"""Forbidden Island's `lookahead`: never worse than the expert it rolls out with, and fair.

The twin of tests/test_search.py (Island Escape's search) and of R19's honesty test: the search
may read everything but the order of the treasure and flood draw piles, so
reshuffling those piles - and the game's own shuffle stream, which decides later reshuffles -
must never change its choice.
"""

from __future__ import annotations

import numpy as np
import pytest

from experiments.sweep import paired_difference
from policies import entries
from policies.dispatch import game_id
from policies.forbidden_island import checks as fi_checks
from policies.forbidden_island import expert, lookahead
from policies.forbidden_island.registry import REGISTRY
from policies.runner import run_games
from sim.forbidden_island import kernel as K
from sim.forbidden_island import layout as L
from sim.forbidden_island.convert import params_of
from sim.forbidden_island.rules import Rules

PAIRED = Rules(players=2, difficulty="novice")  # expert wins about 40% here: room both ways


def _won(policy: str, games: int, seed: int, pp: np.ndarray | None = None) -> np.ndarray:
    return run_games(PAIRED, policy, games, seed=seed, policy_params=pp)[:, 0] == L.CAUSE_WIN


def test_lookahead_rolls_out_with_its_registered_policy_and_carries_its_parameters():
    assert REGISTRY.rollout == {"lookahead": "expert", "clairvoyant": "expert"}
    assert lookahead.EXPERT_ID == REGISTRY.policy_id(REGISTRY.rollout["lookahead"])
    assert lookahead.GAME_ID == game_id("forbidden_island")
    assert lookahead.LOOKAHEAD_ID == REGISTRY.policy_id("lookahead")
    pp = lookahead.default_params()
    assert len(pp) == lookahead.SLOTS + len(expert.default_params()) and not pp.any()


def test_clairvoyant_wins_at_least_what_the_fair_search_wins_on_the_same_games():
    """The luck ceiling: the same search on the one true world (a labelled cheat) never wins
    less than the fair search, game for game on average."""
    assert "clairvoyant" in REGISTRY.unfair
    d = paired_difference(_won("clairvoyant", 60, 33), _won("lookahead", 60, 33))
    assert d["ci95"][1] >= 0.0 and d["difference"] >= 0.0, d


def test_lookahead_is_not_worse_than_expert_on_the_same_games():
    """Paired games (game g of a seed is the same deal for both): the 95% interval of
    lookahead - expert must reach zero or above."""
    d = paired_difference(_won("lookahead", 120, 31), _won("expert", 120, 31))
    assert d["ci95"][1] >= 0.0, d


def test_the_paired_test_catches_a_search_without_its_safeguards():
    """The mutant check: with the confirmation off and ties in the screening let through
    (slot 7 = 2), the search plays whichever candidate ties the expert's choice over a short
    horizon; the paired test above must reject it. The mutant screens on one world (slot 0), as
    the cheap cells do: on 2p Novice's eight worlds ties are rare enough that 60 games no longer
    tell it from expert. (The confirmation alone off, slot 7 = 1, is not caught: with a short
    screening the search barely suffers from the winner's curse.)"""
    pp = lookahead.default_params()
    pp[7] = 2.0
    pp[0] = 1.0
    d = paired_difference(_won("lookahead", 60, 31, pp), _won("expert", 60, 31))
    assert d["ci95"][1] < 0.0, d


def _decisions(rules: Rules, games: int, start: int, every: int):
    """Every `every`-th decision the search may take (the current player's actions, discards,
    swims) from turn `start` to the end of games played by expert on the kernel's deals."""
    p = params_of(rules)
    pp = expert.default_params()
    acts = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    log = np.zeros(1, dtype=np.int32)
    k = 0
    for game in range(games):
        s = np.zeros(L.NSTATE, dtype=np.int32)
        rng = np.zeros(3, dtype=np.uint64)
        K.init_game(s, p, rng, 23, game)
        entries.PLAY_ON["forbidden_island", "expert"](s, p, pp, rng, acts, log, -1, start - 1)
        while (n := K.legal_actions(s, p, acts)) > 0:
            if n > 1 and K.phase(s, p) in (L.PH_ACTIONS, L.PH_DISCARD, L.PH_SWIM):
                k += 1
                if k % every == 0:
                    yield s.copy(), p, rng.copy()
            K.play_action(s, p, acts[expert.choose(s, p, pp, acts, n, rng)], rng)


def _reshuffle_hidden(s: np.ndarray, rng: np.ndarray, shuffle: np.random.Generator) -> tuple:
    """The same public state with the draw piles in another order and another shuffle stream
    (the conformance suite's redraw, policies/forbidden_island/checks.py)."""
    t, _, r = fi_checks.rehide((s, None, rng), shuffle)
    return t, r


@pytest.mark.parametrize("confirmed", [True, False])
def test_reshuffling_the_hidden_draw_piles_never_changes_the_choice(confirmed):
    """Forbidden Island's counterpart of R19, at turn starts of 2-4 player games. The search is set
    to leave expert's choice easily (two screening worlds, any confirmed gain; or the screening's pick
    unconfirmed) so that the test exercises the search's own worlds, not only expert."""
    pp = lookahead.default_params()
    pp[0] = 2.0
    pp[2] = 0.01
    pp[7] = 0.0 if confirmed else 1.0
    shuffle = np.random.default_rng(5)
    acts = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    checked = changed = deviated = 0
    for rules in (Rules(players=2, difficulty="normal"), Rules(players=3, difficulty="elite"),
                  Rules(players=4, difficulty="novice")):
        for s, p, rng in _decisions(rules, 4, 2, 3):
            n = K.legal_actions(s, p, acts)
            base = acts[expert.choose(s, p, pp[lookahead.SLOTS:], acts, n, rng.copy())]
            want = acts[lookahead.choose(s.copy(), p, pp, acts, n, rng.copy())]
            deviated += want != base
            for _ in range(2):
                t, r = _reshuffle_hidden(s, rng, shuffle)
                changed += (t != s).any()
                n2 = K.legal_actions(t, p, acts)
                assert n2 == n
                got = acts[lookahead.choose(t, p, pp, acts, n2, r)]
                assert got == want, rules
                checked += 1
    assert checked >= 60 and changed >= checked // 2
    assert deviated >= 4  # the search itself decided some of these


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("difficulty", ["novice", "normal", "elite", "legendary"])
def test_lookahead_is_never_worse_than_expert_at_any_level(players, difficulty):
    rules = Rules(players=players, difficulty=difficulty)
    a = run_games(rules, "lookahead", 300, seed=5)[:, 0] == L.CAUSE_WIN
    b = run_games(rules, "expert", 300, seed=5)[:, 0] == L.CAUSE_WIN
    d = paired_difference(a, b)
    assert d["ci95"][1] >= 0.0, d


def _states_of_expert_games(rules: Rules, games: int, seed: int):
    """Every decision's state of expert games (the kernel's deals), with the legal list's size."""
    p = params_of(rules)
    pp = expert.default_params()
    acts = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    for game in range(games):
        s = np.zeros(L.NSTATE, dtype=np.int32)
        rng = np.zeros(3, dtype=np.uint64)
        K.init_game(s, p, rng, seed, game)
        while (n := K.legal_actions(s, p, acts)) > 0:
            yield s.copy(), p, acts[:n].copy()
            K.play_action(s, p, acts[expert.choose(s, p, pp, acts, n, rng)], rng)


def test_the_search_weighs_sandbags_during_the_draws_and_lifts_of_the_current_players_pawns():
    """The decision kinds searched (module doc): a Sandbags instead of a draw (one seat's card
    standing for all, the fullest hand's), and during the actions a Helicopter Lift of the
    current player (alone or with the pawns beside it) or of another pawn group to it. The first
    set (slot 8 = 1) searches neither."""
    out = np.zeros(lookahead.MAX_CANDIDATES, dtype=np.int64)
    bags_seen = lifts_seen = 0
    for s, p, acts in _states_of_expert_games(Rules(players=3, difficulty="novice"), 6, 41):
        ph = K.phase(s, p)
        base = acts[0]
        m = lookahead.candidates(s, p, acts, len(acts), base, out, 0)
        codes = set(out[1:m])
        assert codes <= set(acts) and base not in codes
        bags = [a for a in codes if L.A_SANDBAGS <= a < L.A_LIFT]
        lifts = [a for a in codes if L.A_LIFT <= a < L.A_LIFTOFF]
        if bags:
            seats = {(a - L.A_SANDBAGS) // 24 for a in bags}
            assert len(seats) == 1
            seat = seats.pop()
            sizes = [s[L.HAND_SIZE + q] for q in range(p[L.P_PLAYERS]) if s[L.HAND + L.HAND_STRIDE * q + L.C_SANDBAGS]]
            assert s[L.HAND_SIZE + seat] == max(sizes)
            bags_seen += ph in (L.PH_TREASURE, L.PH_FLOOD)
        if ph == L.PH_FLOOD and base != L.A_FLOOD and m > 1:
            assert L.A_FLOOD in codes  # the draw itself stays a candidate when expert plays a card
        if lifts:
            assert ph == L.PH_ACTIONS
            me, here = s[L.CUR], s[L.PAWN + s[L.CUR]]
            for a in lifts:
                pawns, to = ((a - L.A_LIFT) % 384) // 24, (a - L.A_LIFT) % 24
                assert pawns & (1 << me) or to == here
            lifts_seen += 1
        first = lookahead.candidates(s, p, acts, len(acts), base, out, 1)
        assert not any(L.A_LIFT <= a < L.A_LIFTOFF for a in out[1:first])
        if ph in (L.PH_TREASURE, L.PH_FLOOD):
            assert first == 1
    assert bags_seen > 0 and lifts_seen > 0


def test_one_budget_at_every_level_and_player_count_unless_a_slot_says_otherwise():
    """A yardstick is one fixed player: the same budget at every level and player count (module
    doc). Defaults and the same values set in the slots play the same games at every cell;
    another screening width, or half of the decisions searched, plays others."""
    explicit = lookahead.default_params()
    explicit[0], explicit[1], explicit[3], explicit[6], explicit[11], explicit[14] = (
        lookahead.SCREEN, lookahead.CONFIRM, lookahead.HORIZON, lookahead.SHARE, lookahead.ROUNDS, lookahead.CHORIZON)
    to_end = explicit.copy()
    to_end[14] = -1.0  # the confirmation played to the end of the game
    wide = explicit.copy()
    wide[0] = 4.0
    half = explicit.copy()
    half[6] = 0.5
    for rules in (PAIRED, Rules(players=4, difficulty="normal"), Rules(players=3, difficulty="legendary")):
        default = run_games(rules, "lookahead", 6, seed=3)
        assert (run_games(rules, "lookahead", 6, seed=3, policy_params=explicit) == default).all()
    default = run_games(PAIRED, "lookahead", 6, seed=3)
    assert (run_games(PAIRED, "lookahead", 6, seed=3, policy_params=wide) != default).any()
    assert (run_games(PAIRED, "lookahead", 6, seed=3, policy_params=to_end) != default).any()
    assert (run_games(PAIRED, "lookahead", 8, seed=3, policy_params=half) != run_games(PAIRED, "lookahead", 8,
                                                                                        seed=3)).any()
