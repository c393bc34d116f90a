"""Runs never lose or corrupt work: bad input is refused in one line before any game is played,
an existing sweep is never overwritten silently, damaged or foreign cells are played again on
--resume, partial files never land where users read, and an interrupted run keeps its summary."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

import experiments.sweep as sweep_module
from experiments.runner import summarize_raw
from experiments.sweep import CELL_META, SweepError, parse_config, run_sweep
from policies.island_escape.game import IslandEscape
from policies.outcomes import TeamTally
from policies.runner import run_games
from sim.island_escape import layout as L
from sim.island_escape.rules import Rules

SMALL = {"name": "s", "games": 150, "seed": 3,
         "grid": {"players": [2, 3], "cards_per_treasure": [1, 2], "policy": ["random"]}}


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "experiments.cli", *args], capture_output=True, text=True,
                          cwd=cwd, env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)})


def refused(r: subprocess.CompletedProcess, *words: str) -> None:
    """One line on stderr naming the problem, exit status 2, no traceback, nothing on stdout."""
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2, r.stderr
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    assert all(w in lines[0] for w in words), lines[0]
    assert r.stdout == ""


def files_under(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


# --- simulate: bad input, one line, nothing written ---------------------------------------------------


def test_simulate_out_in_a_missing_folder(tmp_path):
    refused(cli("simulate", "--games", "50", "--out", "/nonexistent/x.parquet", cwd=tmp_path),
            "--out /nonexistent/x.parquet", "cannot write")
    assert files_under(tmp_path) == []


def test_simulate_records_where_no_folder_can_be(tmp_path):
    r = cli("simulate", "--games", "50", "--out", "games.parquet", "--records", "/proc/x", cwd=tmp_path)
    refused(r, "--records /proc/x", "cannot write")
    assert files_under(tmp_path) == []  # the --out probe is removed too


@pytest.mark.parametrize("seed", [2**63, 2**64, 2**70])
def test_simulate_seed_beyond_64_bits(tmp_path, seed):
    refused(cli("simulate", "--games", "50", "--seed", str(seed), "--out", "g.parquet", cwd=tmp_path),
            "--seed", str(seed))
    assert files_under(tmp_path) == []


def test_simulate_never_overwrites_a_table(tmp_path):
    table = tmp_path / "games.parquet"
    table.write_bytes(b"earlier results")
    refused(cli("simulate", "--games", "50", "--out", str(table)), "the file exists", "--force")
    assert table.read_bytes() == b"earlier results"
    partial = tmp_path / "other.parquet.partial"
    partial.write_bytes(b"games of an interrupted run")
    refused(cli("simulate", "--games", "50", "--out", str(tmp_path / "other.parquet")), "interrupted run")
    assert partial.read_bytes() == b"games of an interrupted run"


def test_simulate_huge_table_is_refused_before_playing(tmp_path):
    start = time.perf_counter()
    r = cli("simulate", "--games", str(10**15), "--out", "g.parquet", cwd=tmp_path)
    refused(r, "--out g.parquet", "GiB free")
    assert files_under(tmp_path) == []
    assert time.perf_counter() - start < 60  # refused at once, not after playing


def test_simulate_out_streams_in_constant_memory(tmp_path):
    """Peak memory of a 2,000,000-game run with --out is that of a 200,000-game run: the table
    (about 95 MiB in memory for 2M games) is never held whole."""
    def peak_rss_mib(games: int) -> float:
        code = ("import resource, subprocess, sys; "
                f"r = subprocess.run([sys.executable, '-m', 'experiments.cli', 'simulate', '--games', '{games}', "
                "'--policy', 'idle', '--force', '--out', sys.argv[1]], capture_output=True); "
                "assert r.returncode == 0, r.stderr; "
                "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
        out = subprocess.run([sys.executable, "-c", code, str(tmp_path / f"g{games}.parquet")],
                             capture_output=True, text=True, check=True)
        return int(out.stdout) / 1024

    small, big = peak_rss_mib(200_000), peak_rss_mib(2_000_000)
    assert len(pd.read_parquet(tmp_path / "g2000000.parquet", columns=["game"])) == 2_000_000
    assert big - small < 40, (small, big)


def test_running_summary_equals_the_summary_of_all_rows():
    raw = run_games(Rules(players=3), "random", 3000, seed=2)
    tally = TeamTally(L.CAUSES)
    for lo in range(0, 3000, 700):
        tally.add(raw[lo:lo + 700])
    assert tally.result() == summarize_raw(raw, L.CAUSES)
    assert tally.result()["games"] == 3000


def _interrupt(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    cli("simulate", "--games", "10", "--policy", "random")  # make sure the kernel is compiled and cached
    # The child takes Ctrl-C as a command typed at a terminal does, even when this suite runs in
    # the background of a script, where the shell starts it with SIGINT ignored and children
    # inherit that (Python then leaves SIGINT ignored, and the run would play all 10**9 games)
    proc = subprocess.Popen([sys.executable, "-m", "experiments.cli", "simulate", "--games", str(10**9),
                             "--policy", "random", "--json", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=cwd,
                            env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(6)
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        proc.kill()  # a run that ignored the interrupt must not play on after the test
        raise
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def test_ctrl_c_inside_a_held_block_waits_for_its_end():
    # The signal reaches another thread (as it may reach one of the runner's): the block still
    # finishes, and the interrupt comes after it.
    import threading

    from experiments.cli import _interrupts_held

    go = threading.Event()
    sender = threading.Thread(target=lambda: go.wait() and os.kill(os.getpid(), signal.SIGINT))
    sender.start()  # before the block: a thread made inside it would inherit a blocked signal mask
    finished = []
    with pytest.raises(KeyboardInterrupt):
        with _interrupts_held():
            go.set()
            sender.join()
            time.sleep(0.2)  # Python would raise a pending interrupt here, in the middle of the block
            finished.append(True)
    assert finished == [True]


def test_ctrl_c_without_out_prints_the_summary_of_the_games_played(tmp_path):
    r = _interrupt([], tmp_path)
    assert r.returncode == 130 and "Traceback" not in r.stderr
    summary = json.loads(r.stdout)
    assert summary["games"] > 0 and 0 <= summary["win_rate"] <= 1
    assert f"interrupted after {summary['games']:,} games" in r.stderr


def test_ctrl_c_with_out_keeps_the_games_played(tmp_path):
    r = _interrupt(["--out", "games.parquet"], tmp_path)
    assert r.returncode == 130 and "Traceback" not in r.stderr
    summary = json.loads(r.stdout)
    kept = pd.read_parquet(tmp_path / "games.parquet.partial")
    assert len(kept) == summary["games"] > 0 and int(kept["won"].sum()) == summary["wins"]
    assert list(kept["game"]) == list(range(len(kept)))
    assert not (tmp_path / "games.parquet").exists()  # never named as if complete


# --- sweep: bad input, one line, nothing written -------------------------------------------------------


@pytest.mark.parametrize("text, where", [
    ("[grid]\ngauge = 5\n", "grid.gauge"),
    ("[grid]\ngauge = [1, 2]\n", "grid.gauge: 1 is not a gauge"),
    ("[grid]\ngauge = ['AC', 5]\n", "grid.gauge: 5 is not a gauge"),
    ("[grid]\npolicy = [['greedy']]\n", "grid.policy: must be names"),
    ("[grid]\nplayers = ['2']\n", "grid.players: must be whole numbers"),
    ("[grid]\nvariant = [1]\n", "grid.variant: must be names"),
    ("[adaptive]\nhalf_width = 'x'\n", "adaptive.half_width: must be a number"),
    ("[adaptive]\nmax_games = 'x'\n", "adaptive.max_games: must be a whole number"),
    ("[adaptive]\nbatch = 2.5\n", "adaptive.batch: must be a whole number"),
    ("games = 2.5\n", "games: must be a whole number"),
    ("seed = 9223372036854775808\n", "seed: must be at most 2**63 - 1"),
    ("name = 5\n", "name: must be a string"),
])
def test_sweep_file_with_a_value_of_the_wrong_type(tmp_path, text, where):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    refused(cli("sweep", str(path), "--out", str(tmp_path / "out")), "bad.toml: " + where)
    assert not (tmp_path / "out").exists()


def test_sweep_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes('name = "café"\n'.encode("latin-1"))
    refused(cli("sweep", str(path), "--out", str(tmp_path / "out")), "latin1.toml: not UTF-8")
    assert not (tmp_path / "out").exists()


def test_sweep_out_where_no_folder_can_be(tmp_path):
    path = tmp_path / "ok.toml"
    path.write_text("games = 10\n")
    refused(cli("sweep", str(path), "--out", "/proc/x"), "/proc/x", "cannot create")


def test_sweep_with_a_table_too_big_for_memory(tmp_path):
    path = tmp_path / "huge.toml"
    path.write_text("games = 100000000000\n[grid]\nplayers = [1, 2]\n")
    refused(cli("sweep", str(path), "--out", str(tmp_path / "out")), "huge.toml: games:", "memory")
    assert not (tmp_path / "out").exists()
    refused(cli("sweep", str(path), "--games", str(10**12), "--out", str(tmp_path / "out")), "memory")
    assert not (tmp_path / "out").exists()


def test_sweep_never_overwrites_an_earlier_sweep(tmp_path):
    path = tmp_path / "small.toml"
    path.write_text('name = "s"\ngames = 100\nseed = 3\n[grid]\nplayers = [2, 3]\npolicy = "random"\n')
    out = tmp_path / "out"
    first = cli("sweep", str(path), "--out", str(out), "--no-plots")
    assert first.returncode == 0, first.stderr
    before = {p.name: p.read_bytes() for p in (out / "cells").iterdir()}
    assert len(before) == 2
    other = tmp_path / "other.toml"
    other.write_text('name = "s"\ngames = 100\nseed = 3\n[grid]\nplayers = [4]\npolicy = "random"\n')
    refused(cli("sweep", str(other), "--out", str(out)), "already holds a sweep", "--resume", "--force")
    assert {p.name: p.read_bytes() for p in (out / "cells").iterdir()} == before
    forced = cli("sweep", str(other), "--out", str(out), "--no-plots", "--force")
    assert forced.returncode == 0, forced.stderr
    [cell] = [p.name for p in (out / "cells").iterdir()]  # the old cells are gone
    assert cell.startswith("island-escape_p4_c2_") and cell.endswith("_s2_a4_normal_random.parquet")


def test_library_sweep_refuses_an_occupied_folder_too(tmp_path):
    cfg = parse_config(SMALL, "small.toml")
    run_sweep(cfg, tmp_path, progress=False, plots=False, stop_after=1)
    with pytest.raises(SweepError, match="already holds a sweep"):
        run_sweep(cfg, tmp_path, progress=False, plots=False)


# --- sweep: resume validates every cell ------------------------------------------------------------------


def _cells(out: Path) -> dict[str, Path]:
    return {p.stem: p for p in sorted((out / "cells").glob("*"))}


def test_resume_replays_truncated_foreign_and_old_code_cells(tmp_path, monkeypatch):
    cfg = parse_config(SMALL, "small.toml")
    straight = run_sweep(cfg, tmp_path / "straight", progress=False, plots=False)
    out = tmp_path / "damaged"
    monkeypatch.setattr(IslandEscape, "code_digest", lambda self: "0123456789abcdef")  # "before an upgrade"
    run_sweep(cfg, out, progress=False, plots=False, stop_after=1)
    monkeypatch.undo()
    run_sweep(cfg, out, resume=True, progress=False, plots=False)  # the old-code cell is played again
    cells = _cells(out)
    names = sorted(cells)
    assert len(names) == 4
    truncated, foreign, unmarked, kept = names
    data = cells[truncated].read_bytes()
    cells[truncated].write_bytes(data[: len(data) // 2])  # a write cut short
    other = parse_config({**SMALL, "seed": 4}, "other.toml")
    run_sweep(other, tmp_path / "other", progress=False, plots=False)
    cells[foreign].write_bytes((tmp_path / "other" / "cells" / f"{foreign}.parquet").read_bytes())
    pd.read_parquet(cells[unmarked]).to_parquet(cells[unmarked])  # right games, no cell metadata
    said = []
    result = run_sweep(cfg, out, resume=True, progress=False, plots=False, echo=said.append)
    assert sorted(result.ran) == sorted([truncated, foreign, unmarked])
    assert "cannot be read" in result.replayed[truncated]
    assert "another seed" in result.replayed[foreign]
    assert "no cell metadata" in result.replayed[unmarked]
    assert len(said) == 3 and all("playing it again" in line for line in said)
    pd.testing.assert_frame_equal(straight.games, result.games)
    pd.testing.assert_frame_equal(straight.summary, result.summary)


def test_resume_after_a_code_change_plays_every_cell_again(tmp_path, monkeypatch):
    cfg = parse_config(SMALL, "small.toml")
    run_sweep(cfg, tmp_path, progress=False, plots=False)
    monkeypatch.setattr(IslandEscape, "code_digest", lambda self: "fedcba9876543210")
    said = []
    result = run_sweep(cfg, tmp_path, resume=True, progress=False, plots=False, echo=said.append)
    assert len(result.ran) == 4 and all("code version" in why for why in result.replayed.values())
    for path in _cells(tmp_path).values():
        assert json.loads(pq.read_schema(path).metadata[CELL_META])["code"] == "fedcba9876543210"


def test_an_interrupted_cell_leaves_no_partial_file_anywhere(tmp_path, monkeypatch):
    cfg = parse_config(SMALL, "small.toml")
    straight = run_sweep(cfg, tmp_path / "straight", progress=False, plots=False)
    out = tmp_path / "killed"
    real = sweep_module.iter_cell
    cells_seen = []

    def dies_in_the_second_cell(cell, *args, **kwargs):
        cells_seen.append(cell.key)
        for k, raw in enumerate(real(cell, *args, **{**kwargs, "batch": 50})):
            if len(cells_seen) == 2 and k == 1:
                assert len(list((out / ".tmp").iterdir())) == 1  # the cell grows outside cells/
                assert len(list((out / "cells").iterdir())) == 1
                raise KeyboardInterrupt
            yield raw

    monkeypatch.setattr(sweep_module, "iter_cell", dies_in_the_second_cell)
    with pytest.raises(KeyboardInterrupt):
        run_sweep(cfg, out, progress=False, plots=False)
    monkeypatch.undo()
    assert files_under(out) == ["cells", "cells/" + cells_seen[0] + ".parquet", "sweep.json"]
    assert len(pd.read_parquet(out / "cells")) == 150
    (out / "cells" / "x.parquet.tmp").write_bytes(b"left by an older version")  # the old place of partial files
    (out / ".tmp").mkdir()
    (out / ".tmp" / "y.parquet").write_bytes(b"left by a killed process")
    result = run_sweep(cfg, out, resume=True, progress=False, plots=False)
    assert len(result.ran) == 3
    assert not (out / ".tmp").exists() and not list((out / "cells").glob("*.tmp"))
    assert len(pd.read_parquet(out / "cells")) == 4 * 150
    pd.testing.assert_frame_equal(straight.games, result.games)


def test_big_cells_are_played_and_written_in_batches(tmp_path, monkeypatch):
    cfg = parse_config({**SMALL, "adaptive": {"half_width": 0.001, "max_games": 420, "batch": 100}}, "a.toml")
    whole = run_sweep(cfg, tmp_path / "whole", progress=False, plots=False)
    sizes = []
    real = IslandEscape.run_games

    def recording(self, rules, policy, games, *args, **kwargs):
        sizes.append(games)
        return real(self, rules, policy, games, *args, **kwargs)

    monkeypatch.setattr(sweep_module, "CELL_BATCH", 64)
    monkeypatch.setattr(IslandEscape, "run_games", recording)
    batched = run_sweep(cfg, tmp_path / "batched", progress=False, plots=False)
    assert max(sizes) == 64  # never more games at once than a batch
    path = next(iter(_cells(tmp_path / "batched").values()))
    assert pq.ParquetFile(path).num_row_groups > 1  # written batch by batch
    assert (batched.summary["games"] == 420).all()
    pd.testing.assert_frame_equal(whole.games, batched.games)
    pd.testing.assert_frame_equal(whole.summary, batched.summary)
