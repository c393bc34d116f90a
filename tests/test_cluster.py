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


def _story(client, prefix: str) -> list[tuple[str, str, str]]:
    """The scheduler's transitions (key, from, to) of the tasks whose keys start with `prefix`."""
    def read(dask_scheduler):
        return [(str(t.key), t.start, t.finish) for t in dask_scheduler.transition_log]

    return [t for t in client.run_on_scheduler(read) if t[0].startswith(prefix)]


def test_killing_a_worker_mid_sweep_loses_nothing(tmp_path, client):
    """A worker is killed while it plays a task: the scheduler's log shows that task taken from
    it and played again to the end, and the sweep's tables still equal the local run's."""
    cfg = parse_config({**GRID, "games": 3000})
    local = run_sweep(cfg, tmp_path / "local", progress=False, plots=False)
    out = tmp_path / "remote"
    result = {}

    def sweep():
        result["r"] = run_sweep(cfg, out, progress=False, plots=False, client=client, chunk=1000, threads=1)

    worker = threading.Thread(target=sweep)
    worker.start()
    deadline = time.time() + 120
    victim = None
    while victim is None and time.time() < deadline:
        busy = {w: keys for w, keys in client.processing().items()
                if any(str(k).startswith(f"island-{cfg.digest}") for k in keys)}
        victim = next(iter(busy), None)
        time.sleep(0.005)
    assert victim is not None, "no task of the sweep was ever seen running"
    held = [str(k) for k in client.processing()[victim]]
    os.kill(client.run(os.getpid, workers=[victim])[victim], signal.SIGKILL)  # the nanny starts a new worker
    worker.join(timeout=300)
    assert not worker.is_alive()
    assert not list(out.rglob("*.tmp")) and not (out / ".tmp").exists()
    _same(local, result["r"])
    story = _story(client, f"island-{cfg.digest}")
    # a task the dead worker was playing left the processing state for another than memory
    # (released/waiting/no-worker), and later reached memory: it was lost and played again
    lost = {key for key, start, finish in story if start == "processing" and finish != "memory"}
    assert lost, f"no task was taken from the killed worker (it held {held})"
    for key in lost:
        assert any(k == key and finish == "memory" for k, _, finish in story), key
