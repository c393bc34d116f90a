"""Forbidden Island's play loop, its random player and the runner's side of it."""

from __future__ import annotations

import numpy as np

from experiments.runner import summarize, summarize_raw
from policies import entries
from policies.forbidden_island.registry import REGISTRY
from policies.runner import export_records, results_frame, run_games
from sim.forbidden_island import kernel as K
from sim.forbidden_island import layout as L
from sim.forbidden_island.convert import params_of
from sim.forbidden_island.records import parse_record, replay, result_json
from sim.forbidden_island.rules import Rules


def test_every_policy_has_its_entries_and_a_choose():
    for name in REGISTRY.policies:
        key = ("forbidden_island", REGISTRY.playing(name, 2)[0])  # `tuned` is played by the expert's entries
        assert key in entries.PLAY_CHUNK and key in entries.PLAY_LOGGED and key in entries.PLAY_ON
        assert hasattr(REGISTRY.module(name), "choose") and REGISTRY.module(name).DESCRIPTION


def test_the_table_does_not_depend_on_threads_or_batches():
    rules = Rules(players=3, difficulty="normal")
    one = run_games(rules, "random", 1500, seed=4, threads=1)
    two = run_games(rules, "random", 1500, seed=4, threads=2)
    assert (one == two).all()
    tail = run_games(rules, "random", 500, seed=4, first_game=1000, threads=2)
    assert (tail == one[1000:]).all()


def test_random_play_almost_never_wins_and_the_summary_names_f14_causes():
    """The sanity floor: the published random player wins about 0%."""
    raw = run_games(Rules(players=2, difficulty="novice"), "random", 4000, seed=1)
    summary = summarize_raw(raw, causes=L.CAUSES)
    assert summary["win_rate"] < 0.005
    assert set(summary["loss_rates"]) == {"water", "drowned", "treasure", "fools_landing"}
    assert sum(summary["loss_rates"].values()) > 0.99
    df = results_frame(raw, Rules(players=2), "random", 1)
    assert summarize(df) == summary
    assert (df["mark"] >= 1).all() and (df["treasures"] <= 4).all() and (df["turns"] >= 1).all()


def test_exported_records_replay_to_the_kernels_result_with_the_engine():
    for rules, seed in ((Rules(players=2, difficulty="novice"), 5), (Rules(players=4, difficulty="legendary"), 6)):
        for record in export_records(rules, "random", seed, range(6)):
            game = replay(parse_record(record.to_json()))
            got = result_json(game)
            assert (got["cause"], got["turns"]) == (record.result["cause"], record.result["turns"])
            final = dict(got["final"], hands=[sorted(h) for h in got["final"]["hands"]])
            want = dict(record.result["final"], hands=[sorted(h) for h in record.result["final"]["hands"]])
            assert final == want


def test_play_on_stops_where_asked_and_plays_to_the_end():
    p = params_of(Rules(players=3, difficulty="elite"))
    s = np.zeros(L.NSTATE, dtype=np.int32)
    rng = np.zeros(3, dtype=np.uint64)
    acts = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    log = np.zeros(4096, dtype=np.int32)
    pp = np.zeros(32)
    K.init_game(s, p, rng, 8, 0)
    n = entries.PLAY_ON["forbidden_island", "random"](s, p, pp, rng, acts, log, 0, 2)
    assert s[L.OUTCOME] >= 0 or (s[L.TURN] == 3 and s[L.STAGE] == L.STAGE_ACTIONS and s[L.ACTS] == 3)
    assert 0 < n < 4096 and all(0 <= c < L.N_ACTIONS for c in log[:n])
    entries.PLAY_ON["forbidden_island", "random"](s, p, pp, rng, acts, log, -1, 0)
    assert s[L.OUTCOME] >= 0 and K.legal_actions(s, p, acts) == 0
