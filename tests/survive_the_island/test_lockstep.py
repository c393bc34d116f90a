"""The kernel against the reference engine in lockstep (sim/survive_the_island/lockstep.py),
and the hidden-information hooks the conformance suite uses (policies/survive_the_island/checks.py)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from policies.survive_the_island import checks
from sim.survive_the_island import kernel as K
from sim.survive_the_island import layout as L
from sim.survive_the_island import lockstep
from sim.survive_the_island.convert import count_errors
from sim.survive_the_island.engine import SurviveTheIslandEngine
from sim.survive_the_island.rules import TILES, Rules


def test_the_grid_covers_every_player_count():
    assert {r.players for r in lockstep.RULE_GRID} == {2, 3, 4, 5} and len(lockstep.RULE_GRID) >= 8


@pytest.mark.parametrize("k", range(len(lockstep.RULE_GRID)))
def test_uniform_random_games_agree_step_by_step(k):
    seen = lockstep.lockstep_games(lockstep.RULE_GRID[k], seed=40 + k, games=3)
    assert seen["decisions"] >= 3 * 100  # set-up alone is 60 decisions a game


@pytest.mark.parametrize("rules", [Rules(players=2, moves=9, volcanoes_to_end=4),
                                   Rules(players=3, moves=9, volcanoes_to_end=4, serpents=0, raft_capacity=5,
                                         rafts=24)])
def test_games_heading_for_the_rescue_islands_agree_and_reach_every_rule(rules):
    """Play that rescues: landings, rescues by raft and by swimming, pushes, repellent, dives,
    dolphins, displaced creatures all happen, and both sides agree on every one."""
    kinds: Counter = Counter()
    for g in range(8):
        lock = lockstep.play_lockstep(rules, 300, g, g, choose=lockstep.homeward_choice)
        kinds.update(e["kind"] for e in lock.engine.events)
        kinds.update(f"{e['kind']} {e['back']}" for e in lock.engine.events if e["kind"] == "flood")
    for kind in ("rescued", "raft_landed", "push", "repelled", "dive", "dolphin", "displaced", "shark_strikes",
                 "flood whirlpool", "flood volcano", "flood raft", "raft_tile", "ability"):
        assert kinds[kind] > 0, kind


def test_a_difference_is_caught_and_named(monkeypatch):
    every_tile = SurviveTheIslandEngine.land_left  # the flood rule read wrongly: any tile may flood
    monkeypatch.setattr(SurviveTheIslandEngine, "flood_choices", every_tile)
    wanted = r"step \d+ \(flood, turn 1\): legal actions differ: .*kernel lacks \['flood"
    with pytest.raises(lockstep.Mismatch, match=wanted):
        lockstep.lockstep_games(Rules(players=2), seed=1, games=1)


def test_a_state_difference_is_caught_and_named(monkeypatch):
    monkeypatch.setattr(SurviveTheIslandEngine, "_start_turn", _start_turn_with_one_move)
    with pytest.raises(lockstep.Mismatch, match=r"moves_left differs: engine 1, kernel 3"):
        lockstep.lockstep_games(Rules(players=2), seed=1, games=1)


_start_turn = SurviveTheIslandEngine._start_turn


def _start_turn_with_one_move(self):
    _start_turn(self)
    if self.phase == "action" and self.moves_left == self.rules.moves:
        self.moves_left = 1


def test_rehide_redraws_only_what_the_deciding_seat_cannot_see():
    states = checks.decision_states(40, seed=3)
    assert len(states) == 40
    acts = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    gen = np.random.default_rng(0)
    changed = 0
    for d in states:
        s, p, rng = d
        t, _, r = checks.rehide(d, gen)
        assert K.legal_actions(s, p, acts) > 1
        changed += checks.hidden_redrawn(d, (t, p, r))
        seat, each = int(K.decider(s)), int(p[L.P_ADV_EACH])
        mine = slice(L.VALUE + seat * each, L.VALUE + (seat + 1) * each)
        assert np.array_equal(s[mine], t[mine])  # its own values stay
        for q in range(int(p[L.P_NSPACES])):  # each unflooded tile stays within its terrain
            a, b = s[L.TILE_AT + q], t[L.TILE_AT + q]
            assert (a < 0) == (b < 0) and (a < 0 or TILES[a][0] == TILES[b][0])
        rest = np.ones(L.NSTATE, dtype=bool)
        start, size = L.STATE.fields["TILE_AT"]
        rest[start:start + size] = False
        rest[L.VALUE:L.VALUE + int(p[L.P_PLAYERS]) * each] = False
        rest[L.SCORE:L.SCORE + int(p[L.P_PLAYERS])] = False
        rest[L.VALUE_BITS:L.VALUE_BITS + L.MAX_PLAYERS * L.VALUE_ROOM] = False  # they follow the values
        own = slice(L.VALUE_BITS + L.VALUE_ROOM * seat, L.VALUE_BITS + L.VALUE_ROOM * (seat + 1))
        assert np.array_equal(s[own], t[own]) and count_errors(t, p) == []
        assert np.array_equal(s[rest], t[rest])  # everything public is as it was
        assert r[checks.STREAM_DEAL] == rng[checks.STREAM_DEAL] and r[checks.STREAM_PLAYER] == rng[checks.STREAM_PLAYER]
    assert changed == len(states)


def test_redraws_change_the_tiles_or_the_values_in_almost_every_state():
    states = checks.decision_states(60, seed=5)
    gen = np.random.default_rng(1)
    moved = sum(not np.array_equal(d[0], checks.rehide(d, gen)[0]) for d in states)
    assert moved >= 0.9 * len(states)


@pytest.mark.parametrize("policy", ["random", "expert"])
def test_the_players_ignore_what_their_seat_cannot_see(policy):
    states = checks.decision_states(60, seed=6)
    gen = np.random.default_rng(2)
    for d in states:
        choice = checks.decide(policy, d)
        assert checks.decide(policy, checks.rehide(d, gen)) == choice
