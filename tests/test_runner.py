"""The runner's summary: the Wilson interval and the summary built from raw kernel arrays."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from experiments.runner import results_frame, run_games, summarize, summarize_raw, wilson_interval
from sim.rules import Rules


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
    assert summarize_raw(raw, 2.0) == summarize(df, 2.0)
    s = summarize_raw(raw)
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
    heavy = sorted(m for m in ("pandas", "pyarrow", "matplotlib", "scipy.stats", "scipy.linalg")
                   if m in sys.modules)
    print("HEAVY", " ".join(heavy))
    # start-up: only the policy played, no progress bar off a terminal, no records or engine
    unneeded = sorted(m for m in ("policies.expert", "policies.greedy", "policies.lookahead", "policies._search",
                                  "tqdm", "sim.records", "sim.engine") if m in sys.modules)
    print("UNNEEDED", " ".join(unneeded))
    import scipy.linalg.cython_blas  # numba was kept from it while loading, not for good (sim/layout.py)
    print("LATER", scipy.linalg.cython_blas.__name__)
    import gc  # the entry leaves shutdown's cycle collection nothing to walk (about 0.1 s)
    print("FROZEN", gc.get_freeze_count())
"""


def test_simulate_without_a_table_loads_only_what_it_needs():
    r = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    summary, heavy, unneeded, later, frozen = r.stdout.strip().splitlines()
    assert heavy.strip() == "HEAVY", f"simulate --json imported {heavy[6:]}"
    assert unneeded.strip() == "UNNEEDED", f"simulate --policy random imported {unneeded[9:]}"
    assert later == "LATER scipy.linalg.cython_blas"
    assert int(frozen.split()[1]) > 20_000, "main() should freeze the collector's objects before shutdown"
    rules = Rules()
    expected = summarize_raw(run_games(rules, "random", 700, seed=3))
    got = json.loads(summary)
    got.pop("games_per_second"), expected.pop("games_per_second")
    # the output names what was played: policy, seed and rules, then the summary itself
    assert (got.pop("policy"), got.pop("seed"), got.pop("rules")) == ("random", 3, rules.as_record())
    assert got == json.loads(json.dumps(expected))
