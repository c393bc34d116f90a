"""experiments/compile_stages.py: the per-stage listing of a cold compile (issue 12)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

from experiments.compile_stages import StageClock

ROOT = Path(__file__).resolve().parent.parent


def _busy(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_a_nested_stage_is_charged_to_itself_not_to_the_stage_around_it():
    clock = StageClock()
    inner = clock.timed(lambda: _busy(0.06), "inner")
    outer = clock.timed(lambda: (_busy(0.03), inner()), "outer")
    outer()
    clock.close()
    assert 0.06 <= clock.seconds["inner"] < 0.09
    assert 0.03 <= clock.seconds["outer"] < 0.06  # without the inner stage's 0.06 s
    assert clock.calls == {"outer": 1, "inner": 1}


def test_the_listing_of_a_cold_compile_names_numbas_passes_llvm_and_the_entry():
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "COMPILE_STAGES_CHILD")}
    out = subprocess.run([sys.executable, "-m", "experiments.compile_stages", "idle"], capture_output=True,
                         text=True, cwd=ROOT, env=env, check=True).stdout
    total = float(re.match(r"idle: ([\d.]+) s of CPU", out).group(1))
    assert total > 0.5  # it did compile: the cache was empty
    stages = {name: float(s) for s, name in re.findall(r"^ +([\d.]+) s  (.+?) \(\d+ runs\)$", out, re.M)}
    for stage in ("numba: nopython_type_inference", "numba: native_lowering", "LLVM: module passes",
                  "LLVM: machine code"):
        assert stage in stages, out
    assert abs(sum(stages.values()) - total) < 0.1 * total + 0.05  # the stages account for the time
    assert "policies.entries.play_chunk_idle" in out


def test_an_unknown_policy_is_one_line_and_status_2():
    done = subprocess.run([sys.executable, "-m", "experiments.compile_stages", "nobody"], capture_output=True,
                          text=True, cwd=ROOT)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "unknown policy 'nobody'" in done.stderr


def test_the_cycle_collector_is_a_stage_of_its_own():
    import gc

    from experiments import compile_stages

    stages = StageClock()
    callback = compile_stages.collector_stage(stages)
    gc.callbacks.append(callback)
    try:
        stages.enter("numba: some pass")
        gc.collect()
        stages.leave()
    finally:
        gc.callbacks.remove(callback)
    stages.close()
    assert stages.calls == {"numba: some pass": 1, "Python: cycle collector": 1}
    assert stages.seconds["Python: cycle collector"] > 0
