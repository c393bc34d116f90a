"""Sweeps on a Dask cluster (two worker processes on loopback) give the local tables exactly,
even when a worker is killed in the middle."""

from __future__ import annotations

import os
import signal
import threading
import time

import pandas as pd
import pytest

from experiments.sweep import parse_config, run_sweep

distributed = pytest.importorskip("distributed")

GRID = {"name": "c", "games": 900, "seed": 8,
        "grid": {"players": [2, 4], "cards_per_treasure": [1, 2], "gauge_length": [7, 9], "policy": "greedy"}}


@pytest.fixture(scope="module")
def client():
    from dask.distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                           host="127.0.0.1")
    c = Client(cluster)
    yield c
    c.close()
    cluster.close()


def _same(a, b):
    pd.testing.assert_frame_equal(a.summary, b.summary)
    pd.testing.assert_frame_equal(a.games, b.games)


def test_cluster_sweep_equals_local_sweep(tmp_path, client):
    cfg = parse_config(GRID)
    local = run_sweep(cfg, tmp_path / "local", progress=False, plots=False)
    remote = run_sweep(cfg, tmp_path / "remote", progress=False, plots=False, client=client, chunk=400)
    assert len(remote.ran) == 8
    _same(local, remote)


def test_cluster_adaptive_and_resume_equal_local(tmp_path, client):
    cfg = parse_config({**GRID, "games": 300, "adaptive": {"half_width": 0.03, "max_games": 1500, "batch": 300}})
    local = run_sweep(cfg, tmp_path / "local", progress=False, plots=False)
    assert local.summary["games"].max() > 300  # some cells needed more games
    run_sweep(cfg, tmp_path / "remote", progress=False, plots=False, client=client, chunk=200, stop_after=3)
    remote = run_sweep(cfg, tmp_path / "remote", resume=True, progress=False, plots=False, client=client, chunk=200)
    assert len(remote.ran) == 5
    _same(local, remote)


def test_killing_a_worker_mid_sweep_loses_nothing(tmp_path, client):
    cfg = parse_config({**GRID, "games": 3000})
    local = run_sweep(cfg, tmp_path / "local", progress=False, plots=False)
    out = tmp_path / "remote"
    result = {}

    def sweep():
        result["r"] = run_sweep(cfg, out, progress=False, plots=False, client=client, chunk=500)

    worker = threading.Thread(target=sweep)
    worker.start()
    deadline = time.time() + 60
    while not list((out / "cells").glob("*.parquet")) and time.time() < deadline:
        time.sleep(0.02)
    done_before = len(list((out / "cells").glob("*.parquet")))
    pids = client.run(os.getpid)  # worker address -> process id
    os.kill(pids[sorted(pids)[0]], signal.SIGKILL)  # the nanny starts a new worker; Dask reruns lost tasks
    worker.join(timeout=180)
    assert not worker.is_alive()
    assert done_before < 8  # the worker died while cells were still being played
    assert not list((out / "cells").glob("*.tmp"))
    _same(local, result["r"])
