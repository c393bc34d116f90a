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
    done = run(["compile", "--game", "island-escape", "--policy", "idle", "--policy", "random", "--jobs", "2"],
               tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"compiling 2 kernels into {tmp_path / 'island-escape' / 'numba'}/")
    assert sorted(line.split()[2] for line in lines[1:3]) == ["idle", "random"]
    assert all(line.split()[1] == "island-escape" and " ready in " in line for line in lines[1:3])
    assert lines[-1].startswith("all 2 kernels ready in ")
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
    assert not [f for f in tmp_path.rglob("*") if f.is_file()]  # checked before anything compiled


def record_order(game: str, policy: str) -> float:
    """A stand-in for compiling: notes when it started and ended in the folder ORDER_DIR names."""
    import time
    from pathlib import Path

    folder = Path(os.environ["ORDER_DIR"])
    (folder / f"{game}.{policy}.start").write_text(str(time.time()))
    time.sleep(0.3)
    (folder / f"{game}.{policy}.end").write_text(str(time.time()))
    if policy == "broken":
        raise RuntimeError("no such kernel")
    return 0.3


def test_the_searches_start_first_then_the_defaults(tmp_path, monkeypatch):
    """One worker takes the kernels in the order handed out: the long searches first."""
    from experiments.precompile import compile_all, compile_order

    kernels = [("island-escape", "random"), ("island-escape", "expert"), ("island-escape", "lookahead"),
               ("forbidden-island", "random"), ("forbidden-island", "expert"), ("forbidden-island", "lookahead"),
               ("island-escape", "clairvoyant")]
    assert compile_order(kernels) == [
        ("island-escape", "lookahead"), ("forbidden-island", "lookahead"), ("island-escape", "clairvoyant"),
        ("island-escape", "expert"), ("forbidden-island", "expert"),
        ("island-escape", "random"), ("forbidden-island", "random")]
    # the games take turns: a game's second search waits behind the other game's first
    assert compile_order([("island-escape", "clairvoyant"), ("island-escape", "lookahead"),
                          ("forbidden-island", "lookahead")])[:2] == [("island-escape", "clairvoyant"),
                                                                     ("forbidden-island", "lookahead")]
    monkeypatch.setenv("ORDER_DIR", str(tmp_path))
    lines = []
    compile_all(kernels[:3], jobs=1, echo=lines.append, work=record_order)
    assert [line.split()[2] for line in lines] == ["lookahead", "expert", "random"]
    assert lines[-1].startswith("[3/3] ")


def test_a_failed_kernel_is_reported_after_the_others(tmp_path, monkeypatch):
    import pytest

    from experiments.precompile import compile_all

    monkeypatch.setenv("ORDER_DIR", str(tmp_path))
    lines = []
    with pytest.raises(RuntimeError, match="island-escape broken: no such kernel"):
        compile_all([("island-escape", "broken"), ("island-escape", "random")], jobs=1, echo=lines.append,
                    work=record_order)
    assert sorted(line.split()[2] for line in lines) == ["broken", "random"]
    assert any("FAILED: no such kernel" in line for line in lines)


def sleep_long(game: str, policy: str) -> float:
    """A stand-in for a long compile: notes its process id, then sleeps."""
    import time
    from pathlib import Path

    (Path(os.environ["ORDER_DIR"]) / f"{os.getpid()}.pid").write_text("")
    time.sleep(60)
    return 60.0


def test_a_killed_compile_leaves_no_workers_behind(tmp_path):
    """SIGTERM to the step (not its process group) ends its workers too, within seconds."""
    import signal
    import time

    code = ("import sys; from experiments.precompile import compile_all; from tests.test_precompile import sleep_long;"
            "compile_all([('island-escape', 'idle'), ('island-escape', 'random')], 2, work=sleep_long)")
    parent = subprocess.Popen([sys.executable, "-c", code], env={**os.environ, "ORDER_DIR": str(tmp_path)})
    deadline = time.time() + 60
    while len(list(tmp_path.glob("*.pid"))) < 2 and time.time() < deadline:
        time.sleep(0.2)
    workers = [int(f.stem) for f in tmp_path.glob("*.pid")]
    assert len(workers) == 2
    parent.send_signal(signal.SIGTERM)
    parent.wait(timeout=30)
    deadline = time.time() + 15
    while any(_alive(pid) for pid in workers) and time.time() < deadline:
        time.sleep(0.2)
    assert not any(_alive(pid) for pid in workers)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return not open(f"/proc/{pid}/stat").read().split()[2] == "Z"
