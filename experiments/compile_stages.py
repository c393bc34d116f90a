"""Where a cold compile's time goes: `python -m experiments.compile_stages [POLICY]` (default:
the report's judge) compiles and plays one game of POLICY on an empty numba cache and lists the
CPU seconds of each stage - every numba pass by name, and LLVM's parsing, per-function passes,
module passes and machine code, the cache's writing, and Python's cycle collector wherever it
runs - and of each compiled function.

Times are exclusive: a function compiled while its caller is being typed is charged to its own
stages, not to the caller's typing. CPU time, so that other jobs on a shared machine disturb the
figures less than wall time. This is the listing behind issue 12's cold-compile work; `make
bench` times the same cold start from the outside. numba is pinned (tests/test_numba_pin.py):
this wraps some of its methods for the length of the run.
"""

from __future__ import annotations

import collections
import os
import sys
import tempfile
import time


class StageClock:
    """Exclusive CPU seconds per stage, with stages nested as the calls that run them nest."""

    def __init__(self) -> None:
        self.seconds: collections.Counter[str] = collections.Counter()
        self.calls: collections.Counter[str] = collections.Counter()
        self._stack = [["outside any stage", time.process_time()]]

    def _switch(self, now: float) -> None:
        top = self._stack[-1]
        self.seconds[top[0]] += now - top[1]
        top[1] = now

    def enter(self, stage: str) -> None:
        now = time.process_time()
        self._switch(now)
        self._stack.append([stage, now])
        self.calls[stage] += 1

    def leave(self) -> None:
        self._switch(time.process_time())
        self._stack.pop()
        self._stack[-1][1] = time.process_time()

    def timed(self, function, stage):
        """`function` wrapped so that its time is charged to `stage` (a name, or a function of
        the call's arguments that returns one)."""

        def run(*args, **kwargs):
            self.enter(stage(*args) if callable(stage) else stage)
            try:
                return function(*args, **kwargs)
            finally:
                self.leave()

        return run

    def close(self) -> None:
        self._switch(time.process_time())


def _instrument(stages: StageClock, functions: StageClock) -> None:
    from numba.core import caching, codegen, compiler_machinery, event

    def patch(owner, name, stage):
        setattr(owner, name, stages.timed(getattr(owner, name), stage))

    patch(compiler_machinery.PassManager, "_runPass", lambda manager, index, pss, state: f"numba: {pss.name()}")
    patch(codegen.CPUCodeLibrary, "add_ir_module", "LLVM: IR text and parsing")
    patch(codegen.CPUCodeLibrary, "_optimize_functions", "LLVM: per-function passes")
    patch(codegen.CPUCodeLibrary, "_optimize_final_module", "LLVM: module passes")
    patch(codegen.JITCodeLibrary, "_finalize_specific", "LLVM: machine code")
    patch(caching.Cache, "save_overload", "numba: writing the cache")

    class PerFunction(event.Listener):
        def on_start(self, ev):
            fn = ev.data["dispatcher"].py_func
            functions.enter(f"{fn.__module__}.{fn.__qualname__}")

        def on_end(self, ev):
            functions.leave()

    event.register("numba:compile", PerFunction())
    import gc

    gc.callbacks.append(collector_stage(stages))


def collector_stage(stages: StageClock):
    """A gc callback charging the cycle collector's runs to a stage of their own, inside whatever
    stage they interrupt."""

    def collecting(phase, info):
        if phase == "start":
            stages.enter("Python: cycle collector")
        else:
            stages.leave()

    return collecting


def measure(policy: str) -> dict:
    """Compile `policy` and play one game in this process (whose numba cache must be empty)."""
    start = time.process_time()  # before the clocks, so that importing numba's parts for them counts in both
    stages, functions = StageClock(), StageClock()
    import sim.general_calls

    # helpers' LLVM work normally runs on a thread of its own beside the compile; the clocks
    # charge one thread's CPU time to stages, so here it is done in line
    sim.general_calls.BACKGROUND_LLVM = False
    _instrument(stages, functions)
    from experiments.runner import run_games
    from sim.rules import Rules

    run_games(Rules(), policy, 1, seed=0, threads=1)
    stages.close()
    functions.close()
    del functions.seconds["outside any stage"]
    return {"policy": policy, "cpu_seconds": time.process_time() - start, "stages": dict(stages.seconds),
            "stage_calls": dict(stages.calls), "functions": dict(functions.seconds),
            "compiled": sum(functions.calls.values())}


def format_listing(result: dict, top: int = 15) -> str:
    lines = [f"{result['policy']}: {result['cpu_seconds']:.1f} s of CPU from loading the runner to one game played, "
             f"{result['compiled']} numba functions compiled"]
    for stage, seconds in sorted(result["stages"].items(), key=lambda kv: -kv[1]):
        if seconds >= 0.005:
            lines.append(f"  {seconds:6.2f} s  {stage} ({result['stage_calls'].get(stage, 0)} runs)")
    lines.append(f"the {top} functions that took longest (their own stages only):")
    for name, seconds in sorted(result["functions"].items(), key=lambda kv: -kv[1])[:top]:
        lines.append(f"  {seconds:6.2f} s  {name}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    from policies.registry import DEFAULT_POLICY, POLICIES

    policy = argv[0] if argv else DEFAULT_POLICY
    if policy.partition("@")[0] not in POLICIES:
        print(f"compile_stages: unknown policy {policy!r} (one of {', '.join(sorted(POLICIES))})", file=sys.stderr)
        return 2
    if not os.environ.get("COMPILE_STAGES_CHILD"):  # run again in a fresh process on an empty cache
        import subprocess

        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "NUMBA_CACHE_DIR": cache, "COMPILE_STAGES_CHILD": "1"}
            return subprocess.run([sys.executable, "-m", "experiments.compile_stages", policy], env=env).returncode
    print(format_listing(measure(policy)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
