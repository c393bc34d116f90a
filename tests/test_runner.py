"""The runner's summary: the Wilson interval and the summary built from raw kernel arrays."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import numpy as np
import pytest

from experiments.runner import summarize, summarize_raw, wilson_interval
from policies.batches import chunk_bounds, play_batches, play_in_chunks
from policies.runner import results_frame, run_games
from sim.island_escape import layout as L
from sim.island_escape.rules import Rules


@pytest.mark.parametrize("n", [1, 2, 7, 100, 1000, 123_457, 10**7])
def test_wilson_interval_is_scipys_to_the_last_bit(n):
    from scipy.stats import binomtest

    for wins in sorted({0, 1, n // 3, n // 2, n - 1, n}):
        ci = binomtest(wins, n).proportion_ci(confidence_level=0.95, method="wilson")
        assert wilson_interval(wins, n) == (float(ci.low), float(ci.high)), (wins, n)


def test_summary_from_raw_arrays_equals_the_table_summary():
    rules = Rules(players=3)
    raw = run_games(rules, "random", 3000, seed=4, threads=1)
    df = results_frame(raw, rules, "random", 4)
    assert summarize_raw(raw, L.CAUSES, 2.0) == summarize(df, 2.0)
    s = summarize_raw(raw, L.CAUSES)
    assert s["games"] == 3000 and s["wins"] == int(df["won"].sum())
    assert s["mean_turns"] == pytest.approx(df["turns"].mean())
    assert sum(s["loss_rates"].values()) == pytest.approx((3000 - s["wins"]) / 3000)  # fractions


_CHILD = """
import sys
from experiments.cli import main
sys.argv = ["island-escape", "simulate", "--games", "700", "--policy", "random", "--json", "--seed", "3"]
try:
    main()
finally:
    heavy = sorted(m for m in ("pandas", "pyarrow", "matplotlib", "scipy.stats")
                   if m in sys.modules)
    print("HEAVY", " ".join(heavy))
    # start-up: only the policy played, no progress bar off a terminal, no records or engine
    unneeded = sorted(m for m in ("policies.island_escape.expert", "policies.island_escape.greedy",
                                  "policies.island_escape.lookahead", "policies.island_escape.decision_pieces",
                                  "tqdm", "sim.island_escape.records", "sim.island_escape.engine")
                      if m in sys.modules)
    print("UNNEEDED", " ".join(unneeded))
    import gc  # the entry leaves shutdown's cycle collection nothing to walk (about 0.1 s)
    print("FROZEN", gc.get_freeze_count())
"""


def test_simulate_without_a_table_loads_only_what_it_needs():
    r = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    summary, heavy, unneeded, frozen = r.stdout.strip().splitlines()
    assert heavy.strip() == "HEAVY", f"simulate --json imported {heavy[6:]}"
    assert unneeded.strip() == "UNNEEDED", f"simulate --policy random imported {unneeded[9:]}"
    assert int(frozen.split()[1]) > 20_000, "main() should freeze the collector's objects before shutdown"
    rules = Rules()
    expected = summarize_raw(run_games(rules, "random", 700, seed=3), L.CAUSES)
    got = json.loads(summary)
    got.pop("games_per_second"), expected.pop("games_per_second")
    # the output names what was played: policy, seed and rules, then the summary itself
    assert (got.pop("policy"), got.pop("seed"), got.pop("rules")) == ("random", 3, rules.as_record())
    assert got == json.loads(json.dumps(expected))


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("last", [False, True])
def test_chunks_cover_each_batch_once_in_order_and_the_run_ends_in_small_ones(threads, last):
    for n in [0, 1, 2, 5, 300, 1023, 1024, 5000, 20_000, 65_536]:
        bounds = chunk_bounds(n, threads, last)
        assert bounds[0][0] == 0 and bounds[-1][1] == n
        assert all(a[1] == b[0] for a, b in zip(bounds, bounds[1:], strict=False)), (n, bounds)
        assert all(hi > lo for lo, hi in bounds) or n == 0
        sizes = [hi - lo for lo, hi in bounds]
        if threads > 1 and n >= 2 * 512 * threads:
            if last:  # never growing, and the last ones a small part of the first
                assert sizes == sorted(sizes, reverse=True)
                assert max(sizes[-threads:]) <= sizes[0] // 8
            else:
                assert len(sizes) % threads == 0 and max(sizes) - min(sizes) <= 1


def _recording_chunk(calls, delay=0.0):
    """A stand-in for a compiled entry: writes each row's game number, notes each chunk."""
    def play_chunk(params, pp, seed, first_game, out, lo, hi):
        time.sleep(delay)
        out[lo:hi, 0] = np.arange(first_game + lo, first_game + hi)
        out[lo:hi, 1] = seed
        calls.append((first_game + lo, first_game + hi))
    return play_chunk


@pytest.mark.parametrize("threads", [1, 2])
def test_batches_come_in_order_and_hold_every_game_once(threads):
    calls = []
    seen = []
    for done, rows in play_batches(_recording_chunk(calls), None, None, 3500, 7, 100, threads, 2, batch=1000):
        assert rows.shape == (min(1000, 3500 - done), 2)
        seen.append(rows.copy())
    got = np.concatenate(seen)
    assert got[:, 0].tolist() == list(range(100, 3600)) and set(got[:, 1]) == {7}
    assert sorted(calls) == sorted(set(calls)) and sum(hi - lo for lo, hi in calls) == 3500
    out = play_in_chunks(_recording_chunk([]), None, None, 3500, 7, 100, threads, 2)
    assert (out == got).all()


def test_a_run_stopped_early_drops_the_batches_queued_behind_it():
    calls = []  # batches of 4,000 games in 8 chunks each
    batches = play_batches(_recording_chunk(calls, delay=0.05), None, None, 12_000, 0, 0, 2, 2, batch=4000)
    next(batches)  # the first batch; the second is queued behind it, and two of its chunks may start
    batches.close()
    time.sleep(0.5)  # let the chunks that had started finish
    played = sum(hi - lo for lo, hi in calls)
    assert 4000 <= played <= 5000, f"{played} games played after the run stopped at its first batch"
    assert max(hi for _, hi in calls) <= 8000  # the third batch was never queued


def test_a_thread_free_at_a_batch_end_starts_the_next_batch_at_once():
    import threading

    second_started = threading.Event()
    overlapped = []

    def play_chunk(params, pp, seed, first_game, out, lo, hi):
        if first_game == 0 and lo == 0:  # the first batch's slow chunk: is the other thread idle?
            overlapped.append(second_started.wait(2.0))
        if first_game >= 1000:
            second_started.set()
        out[lo:hi] = 0

    assert sum(len(rows) for _, rows in play_batches(play_chunk, None, None, 3000, 0, 0, 2, 1, batch=1000)) == 3000
    assert overlapped == [True], "a thread waited for the other to finish the batch before starting the next"
