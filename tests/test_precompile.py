"""`island-escape compile`: the set-up step that fills numba's cache, so that later commands
start warm (numba says what it loads and saves with NUMBA_DEBUG_CACHE, its documented switch)."""

from __future__ import annotations

import os
import subprocess
import sys

CLI = [sys.executable, "-c", "from experiments.cli import main; main()"]


def run(args, home, **env):
    """The CLI with its cache under `home` (XDG_CACHE_HOME), the folder chosen as a user's is."""
    full = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    full.update(XDG_CACHE_HOME=str(home), **env)
    return subprocess.run(CLI + args, capture_output=True, text=True, env=full, timeout=600)


def test_after_compile_a_simulate_loads_every_kernel_and_compiles_none(tmp_path):
    done = run(["compile", "--game", "island-escape", "--policy", "idle", "--jobs", "1"], tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"compiling 1 kernels into {tmp_path / 'island-escape' / 'numba'}/")
    assert "island-escape" in lines[1] and "idle" in lines[1] and "ready in" in lines[1]
    assert lines[-1].startswith("all 1 kernels ready in ")
    warm = run(["simulate", "--policy", "idle", "--games", "50", "--json"], tmp_path, NUMBA_DEBUG_CACHE="1")
    assert warm.returncode == 0, warm.stderr
    log = warm.stdout + warm.stderr
    assert "data loaded from" in log and str(tmp_path) in log  # the folder the set-up filled
    assert "imported before the lab" not in log
    assert "data saved to" not in log, "simulate compiled a kernel the set-up step should have cached"
    again = run(["compile", "--game", "island-escape", "--policy", "idle"], tmp_path)
    assert "ready in" in again.stdout


def test_a_cold_cache_does_compile(tmp_path):
    """The check above can fail: without the set-up step, simulate saves what it compiled."""
    cold = run(["simulate", "--policy", "idle", "--games", "5", "--json"], tmp_path, NUMBA_DEBUG_CACHE="1")
    assert cold.returncode == 0, cold.stderr
    assert "data saved to" in cold.stdout + cold.stderr


def test_an_unknown_policy_is_one_line_and_exit_2(tmp_path):
    bad = run(["compile", "--policy", "nobody"], tmp_path)
    assert bad.returncode == 2
    assert bad.stderr.strip().count("\n") == 0 and "--policy: unknown policy 'nobody'" in bad.stderr
    assert not list(tmp_path.iterdir())  # checked before any work
