"""The players and the runner: whole games through the shared entry points, per-seat player
strings, win shares, splits, the expert's strength and its fairness (S16)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from policies.registry import UnknownPolicy
from policies.runner import logged_games, results_frame, run_games
from policies.survive_the_island import expert, lookahead
from policies.survive_the_island.game import GAME
from policies.survive_the_island.registry import REGISTRY
from sim.kernel_api import ENTRY_POINTS
from sim.streams import rand_below
from sim.survive_the_island import kernel as K
from sim.survive_the_island import layout as L
from sim.survive_the_island.convert import count_errors, kernel_snapshot, logged_of, params_of
from sim.survive_the_island.rules import TILES, Rules


def test_the_kernel_exports_the_shared_entry_points():
    for name, params in ENTRY_POINTS.items():
        assert tuple(inspect.signature(getattr(K, name).py_func).parameters) == params, name


@pytest.mark.parametrize("players", [2, 3, 5])
def test_random_games_through_the_shared_entry_points_end(players):
    p = params_of(Rules(players=players))
    s = np.zeros(L.NSTATE, dtype=np.int32)
    rng = np.zeros(3, dtype=np.uint64)
    out = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    seats = np.zeros(5, dtype=np.int64)
    log = np.zeros(4096, dtype=np.int32)
    for game in range(25):
        K.init_game(s, p, rng, 3, game)
        nlog = 0
        while (n := K.legal_actions(s, p, out)) > 0:
            assert list(out[:n]) == sorted(set(out[:n].tolist()))  # S17: ascending, no repeats
            assert K.seat_outcomes(s, p, seats) == players and set(seats[:players]) == {-1}
            nlog = K.apply_action(s, p, out[rand_below(rng, L.STREAM_POLICY, n)], rng, log, nlog)
        assert s[L.ENDING] in (L.END_CLEARED, L.END_VOLCANO) and count_errors(s, p) == []
        assert K.seat_outcomes(s, p, seats) == players
        best = max(s[L.SCORE:L.SCORE + players])
        assert list(seats[:players]) == [int(s[L.SCORE + k] == best) for k in range(players)]
        # the log replays to the same game
        again = np.zeros_like(s)
        rng2 = np.zeros(3, dtype=np.uint64)
        K.init_game(again, p, rng2, 3, game)
        for code in log[:nlog]:
            K.play_action(again, p, int(code), rng2)
        assert kernel_snapshot(again, p) == kernel_snapshot(s, p)


def win_shares(raw: np.ndarray, players: int) -> np.ndarray:
    return GAME.seat_results(raw, Rules(players=players))[0]


def test_a_player_string_names_one_policy_per_seat():
    seat_policies = REGISTRY.seat_players
    assert seat_policies("expert", 3) == ["expert"] * 3
    assert seat_policies("expert, random,random,random", 4) == ["expert", "random", "random", "random"]
    with pytest.raises(UnknownPolicy, match="names 2 policies for 4 seats"):
        run_games(Rules(), "expert,random", 10)
    with pytest.raises(UnknownPolicy, match="unknown Survive the Island policy 'nobody'"):
        run_games(Rules(), "expert,nobody,random,random", 10)
    assert issubclass(UnknownPolicy, ValueError)


def test_the_expert_beats_three_random_seats_and_shares_sum_to_one():
    raw = run_games(Rules(), "expert,random,random,random", 400, seed=5, threads=2)
    shares = win_shares(raw, 4)
    assert np.allclose(shares.sum(axis=1), 1.0)
    assert shares[:, 0].mean() > 0.8  # a fair table would give it 1/4
    df = results_frame(raw, Rules(), "expert,random,random,random", 5)
    setting = ["players", "moves", "sharks", "kaijus", "serpents", "rafts", "raft_capacity", "volcanoes_to_end",
               "die", "setup"]
    assert list(df.columns[:15]) == ["game_kind", "seed", "game", *setting, "policy", "ending"]
    assert set(df["ending"].astype(str)) <= set(L.ENDINGS) and (df["score0"] > df["score1"]).mean() > 0.8
    # in another seat it wins as much: the strength is the player's, not the seat's
    raw = run_games(Rules(), "random,random,expert,random", 400, seed=5, threads=2)
    assert win_shares(raw, 4)[:, 2].mean() > 0.8


def test_the_same_games_whatever_the_threads_and_the_split():
    whole = run_games(Rules(players=3), "expert", 300, seed=2, threads=1)
    assert np.array_equal(whole, run_games(Rules(players=3), "expert", 300, seed=2, threads=2))
    assert np.array_equal(whole[100:], run_games(Rules(players=3), "expert", 200, seed=2, first_game=100, threads=2))
    mixed = run_games(Rules(players=3), "expert,random,expert", 200, seed=2, threads=1)
    assert np.array_equal(mixed, run_games(Rules(players=3), "expert,random,expert", 200, seed=2, threads=2))
    assert win_shares(whole, 3).sum() == pytest.approx(300)


def test_a_logged_game_replays_from_its_codes_and_hands_back_the_deal_and_rolls():
    [(_, log, row, end)] = logged_games(Rules(), "expert,random,random,random", 4, [7])
    game = logged_of(Rules(), 4, 7, log, row, end)
    p = params_of(Rules())
    s = np.zeros(L.NSTATE, dtype=np.int32)
    rng = np.zeros(3, dtype=np.uint64)
    K.init_game(s, p, rng, 4, 7)
    assert [TILES[t][1] for t in game["tiles"]] == game["backs"] and len(game["values"]) == 40
    for code in game["codes"]:
        K.play_action(s, p, code, rng)
    final = kernel_snapshot(s, p)
    assert final == game["final"] and final["rolls"] == game["rolls"] and final["ending"] is not None
    assert game["result"]["score0"] == final["score"][0]


def _redrawn(s, p, seat, seed):
    """The state with every other seat's values redrawn (each seat's own set, shuffled) and the
    unflooded tiles moved among the unflooded spaces of their terrain: what the seat cannot
    know (S16), as tests/test_conformance.py redraws it."""
    rnd = np.random.default_rng(seed)
    out = s.copy()
    each = int(p[L.P_ADV_EACH])
    for other in range(int(p[L.P_PLAYERS])):
        if other != seat:
            part = out[L.VALUE + other * each:L.VALUE + other * each + each]
            part[:] = rnd.permutation(part)
    spaces = [q for q in range(int(p[L.P_NSPACES])) if out[L.TILE_AT + q] >= 0]
    for terrain in range(3):
        mine = [q for q in spaces if TILES[out[L.TILE_AT + q]][0] == terrain]
        tiles = [int(out[L.TILE_AT + q]) for q in mine]
        for q, t in zip(mine, rnd.permutation(tiles), strict=True):
            out[L.TILE_AT + q] = t
    return out


def _expert_code(s, p, acts, player=expert):
    i = player.choose(s, p, np.zeros(32), acts, 0, np.zeros(3, dtype=np.uint64))
    return int(acts[i])


def test_the_expert_reads_nothing_hidden():
    """S16: the same decision whatever the others' values and the unflooded backs are."""
    p = params_of(Rules())
    s = np.zeros(L.NSTATE, dtype=np.int32)
    rng = np.zeros(3, dtype=np.uint64)
    acts = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    checked = 0
    for game in range(6):
        K.init_game(s, p, rng, 11, game)
        while s[L.PHASE] != L.PH_OVER:
            code = _expert_code(s, p, acts)
            if checked % 3 == 0:
                for k in range(2):
                    assert _expert_code(_redrawn(s, p, int(K.decider(s)), 100 * game + k), p, acts) == code
            checked += 1
            K.play_action(s, p, code, rng)
    assert checked > 1000


def test_the_lookahead_reads_nothing_hidden():
    """S16 for the search: its worlds are drawn from what the seat knows, so the same policy
    stream gives the same choice whatever the hidden facts are."""
    p = params_of(Rules(players=3))
    s = np.zeros(L.NSTATE, dtype=np.int32)
    rng = np.zeros(3, dtype=np.uint64)
    acts = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    K.init_game(s, p, rng, 12, 0)
    searched = 0
    while s[L.PHASE] != L.PH_OVER and searched < 12:
        code = _expert_code(s, p, acts, lookahead)
        if s[L.PHASE] in (L.PH_FLOOD, L.PH_CREATURE) and s[L.TURN] > 6:
            assert _expert_code(_redrawn(s, p, int(K.decider(s)), searched), p, acts, lookahead) == code
            searched += 1
        K.play_action(s, p, code, rng)
    assert searched >= 6


def test_the_lookahead_searches_this_game_with_the_expert():
    from policies.dispatch import game_id

    assert (lookahead.GAME_ID, lookahead.LOOKAHEAD_ID, lookahead.EXPERT_ID) == (
        game_id("survive_the_island"), REGISTRY.policy_id("lookahead"), REGISTRY.policy_id("expert"))


def test_the_lookahead_is_not_worse_than_the_expert_on_paired_games():
    """Seat 0 searching against three experts, and the expert there, on the same 200 games."""
    searched = win_shares(run_games(Rules(), "lookahead,expert,expert,expert", 200, seed=9, threads=2), 4)[:, 0]
    plain = win_shares(run_games(Rules(), "expert", 200, seed=9, threads=2), 4)[:, 0]
    gain = searched - plain
    assert gain.mean() >= -2 * gain.std() / np.sqrt(len(gain))
    assert searched.mean() > 0.3
