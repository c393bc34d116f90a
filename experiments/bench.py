"""`island-escape bench` / `make bench`: how fast the kernel is, against the reference engine.

Everything is measured in one run on this machine, so the ratios are what to compare across
machines; the absolute figures come with the machine they were measured on.

- games/s of the kernel for floods only (`idle`), `random` and the default policy, on 1 thread
  and on all threads (the parallel speed-up);
- games/s of the reference engine on the same games: it replays the kernel's records of them
  (the decisions come from the record, so the engine is not charged for the policy's thinking -
  the kernel/engine ratio is if anything understated);
- cold compile (an empty numba cache) and warm start (a filled cache), each in a fresh process;
- memory: peak RSS of a process playing N games, minus its results table, for two sizes of N.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import tempfile
import time

import numba

from experiments.runner import default_threads, export_records, run_games
from policies.registry import DEFAULT_POLICY
from sim.records import replay
from sim.rules import Rules


def kernel_rate(rules: Rules, policy: str, games: int, threads: int, repeat: int = 3,
                seconds: float = 1.5) -> float:
    """Best of `repeat` runs (the least disturbed by other work on a shared machine).

    Each run plays at least `games` games and lasts about `seconds` or more, so that thread
    start-up and timer noise do not count for the fast policies.
    """
    run_games(rules, policy, 64, seed=1, threads=threads)  # compiled and warm
    start = time.perf_counter()
    run_games(rules, policy, games // 10, seed=99, threads=threads)
    rate = (games // 10) / (time.perf_counter() - start)
    games = max(games, int(rate * seconds))
    best = 0.0
    for r in range(repeat):
        start = time.perf_counter()
        run_games(rules, policy, games, seed=100 + r, threads=threads)
        best = max(best, games / (time.perf_counter() - start))
    return best


def engine_rate(rules: Rules, policy: str, games: int) -> float:
    records = export_records(rules, policy, 7, range(games))
    start = time.perf_counter()
    for record in records:
        replay(record)  # the engine's own replay: the records are parsed objects already
    return games / (time.perf_counter() - start)


_CHILD_START = """
import time, sys
t0 = time.perf_counter()
from sim.rules import Rules
from experiments.runner import run_games
run_games(Rules(), sys.argv[1], 1, seed=0)
print(time.perf_counter() - t0)
"""

_CHILD_MEMORY = """
import resource, sys
from sim.rules import Rules
from experiments.runner import simulate
df = simulate(Rules(), sys.argv[1], int(sys.argv[2]), seed=0, progress=False)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(peak, int(df.memory_usage(deep=True).sum()))
"""


def _child(code: str, *args: str, cache_dir: str | None = None) -> str:
    env = dict(os.environ)
    if cache_dir:
        env["NUMBA_CACHE_DIR"] = cache_dir
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env,
                         check=True)
    return out.stdout.strip().splitlines()[-1]


def start_times(policy: str) -> tuple[float, float]:
    """(cold compile, warm start) in seconds, each in a fresh interpreter."""
    with tempfile.TemporaryDirectory() as cache:
        cold = float(_child(_CHILD_START, policy, cache_dir=cache))
        warm = float(_child(_CHILD_START, policy, cache_dir=cache))
    return cold, warm


def memory(policy: str, games: int) -> tuple[int, int]:
    peak, table = _child(_CHILD_MEMORY, policy, str(games)).split()
    return int(peak), int(table)


def run_bench(games: int = 400_000, engine_games: int = 300,
              memory_games: tuple[int, int] = (100_000, 1_000_000), quick: bool = False, echo=print) -> dict:
    threads = default_threads()
    rules = Rules()
    policies = ["idle", "random"] + ([DEFAULT_POLICY] if DEFAULT_POLICY not in ("idle", "random") else [])
    rows = []
    for policy in policies:
        n = games if policy in ("idle", "random") else max(games // 10, 1000)
        one = kernel_rate(rules, policy, n, 1)
        many = kernel_rate(rules, policy, n, threads)
        ref = engine_rate(rules, policy, engine_games)
        rows.append({"policy": policy, "kernel_1_thread": one, f"kernel_{threads}_threads": many,
                     "speedup": many / one, "engine": ref, "kernel_vs_engine_per_core": one / ref,
                     "kernel_vs_engine": many / ref})
        echo(f"  {policy}: {many:,.0f} games/s on {threads} threads, engine {ref:,.0f}/s")
    cold, warm = start_times(DEFAULT_POLICY)
    mem = {}
    if not quick:
        for n in memory_games:
            peak, table = memory("random", n)
            mem[str(n)] = {"peak_rss": peak, "table_bytes": table, "peak_minus_table": peak - table}
    return {
        "machine": {"processor": platform.processor() or platform.machine(), "cores": os.cpu_count(),
                    "python": platform.python_version(), "numba": numba.__version__, "threads": threads},
        "rules": rules.as_record(),
        "rows": rows,
        "cold_compile_s": cold,
        "warm_start_s": warm,
        "memory": mem,
    }


def format_table(result: dict) -> str:
    threads = result["machine"]["threads"]
    head = (f"{'policy':<8} {'kernel 1 thr':>13} {f'kernel {threads} thr':>13} {'speed-up':>9} "
            f"{'engine':>8} {'kernel/engine':>14} {'per core':>9}")
    lines = [head, "-" * len(head)]
    for r in result["rows"]:
        many = r[f"kernel_{threads}_threads"]
        lines.append(f"{r['policy']:<8} {r['kernel_1_thread']:>13,.0f} {many:>13,.0f} "
                     f"{r['speedup']:>8.2f}x {r['engine']:>8,.0f} {r['kernel_vs_engine']:>13,.0f}x "
                     f"{r['kernel_vs_engine_per_core']:>8,.0f}x")
    lines.append(f"cold compile {result['cold_compile_s']:.1f} s, warm start {result['warm_start_s']:.2f} s "
                 "(fresh process: import, load or compile, play one game)")
    for n, m in result["memory"].items():
        mib = {k: v / 2**20 for k, v in m.items()}
        lines.append(f"memory, {int(n):>9,} random games: peak RSS {mib['peak_rss']:,.0f} MiB, "
                     f"table {mib['table_bytes']:,.0f} MiB, the rest {mib['peak_minus_table']:,.0f} MiB")
    mach = result["machine"]
    lines.append(f"machine: {mach['processor']}, {mach['cores']} cores, Python {mach['python']}, "
                 f"numba {mach['numba']}")
    return "\n".join(lines)


