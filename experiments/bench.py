"""`island-escape bench` / `make bench`: how fast the lab is, as a user meets it.

Everything is measured in one run on this machine, so the ratios are what to compare across
machines; the absolute figures come with the machine they were measured on. Each game says what
of it is timed (`Game.bench()`: its policies, searches and settings). Per policy of the default
game:

- kernel games/s in this process, on 1 thread and on all threads (the parallel speed-up);
- whole-process games/s: `island-escape simulate --games N --policy P --json` timed from the
  outside, start-up, compiled-kernel loading and the summary included, beside the rate the
  command reports itself (its games over the seconds of play, after the kernels are loaded).
  N is the run size a user meets for the policy (the game's `CLI_GAMES`), and about five
  seconds of play for any other policy;
- the reference engine on the same games, charged for the same policy's decisions (the game's
  `engine_rate`, e.g. policies/island_escape/bench.py).

Its searches on each of its settings; every other game's kernel per policy and setting, its
reference engine replaying the kernel's records, and its searches. Then for the whole program:
start-up (`simulate --games 1000 --policy random --json`, a fresh
process, warm cache), cold compile of the default policy (a fresh process on an empty numba
cache: import, compile, one game), and memory (peak RSS of a process playing N games, minus its
results table, for two sizes of N).
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
import time

from policies.batches import default_threads
from policies.game import Game, Unsupported, every_game
from policies.game import game as game_named

CLI_SECONDS = 5.0  # the whole-process run of a policy the game names no run size for plays about this long


def kernel_rate(rules, policy: str, games: int, threads: int, repeat: int = 3,
                seconds: float = 1.5, run=None) -> float:
    """Best of `repeat` runs (the least disturbed by other work on a shared machine).

    Each run plays at least `games` games and lasts about `seconds` or more, so that thread
    start-up and timer noise do not count for the fast policies. `run` is the game's
    `Game.run_games` (the default game's when None), `rules` that game's.
    """
    run = run or game_named().run_games
    run(rules, policy, 64, seed=1, threads=threads)  # compiled and warm
    start = time.perf_counter()
    run(rules, policy, games // 10, seed=99, threads=threads)
    rate = (games // 10) / (time.perf_counter() - start)
    games = max(games, int(rate * seconds))
    best = 0.0
    for r in range(repeat):
        start = time.perf_counter()
        run(rules, policy, games, seed=100 + r, threads=threads)
        best = max(best, games / (time.perf_counter() - start))
    return best


def search_rate(rules, policy: str, games: int, threads: int, run=None) -> tuple[float, float]:
    """(games/s of wall time on `threads` threads, games per second of CPU time); `run` as in
    kernel_rate.

    The second figure hardly moves when other jobs share the machine: times the number of
    cores it is what a quiet machine would play (the games run in parallel with no shared work)."""
    run = run or game_named().run_games
    run(rules, policy, 4, seed=1, threads=threads)  # compiled and warm
    wall, cpu = time.perf_counter(), time.process_time()
    run(rules, policy, games, seed=77, threads=threads)
    return games / (time.perf_counter() - wall), games / (time.process_time() - cpu)


def _cli(*args: str, cache_dir: str | None = None) -> tuple[float, str]:
    """Wall seconds and stdout of `island-escape ARGS` in a fresh process."""
    env = dict(os.environ)
    if cache_dir:
        env["NUMBA_CACHE_DIR"] = cache_dir
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "experiments.cli", *args], capture_output=True, text=True,
                         env=env, check=True)
    return time.perf_counter() - start, out.stdout


def cli_rate(policy: str, games: int, game: str | None = None) -> tuple[float, float]:
    """(games/s of a whole `simulate --json` process, start-up included; games/s the command
    reports itself), each the best of two runs; `game` for another game than the default."""
    whole = reported = 0.0
    chosen = ("--game", game) if game else ()
    for _ in range(2):
        seconds, out = _cli("simulate", *chosen, "--games", str(games), "--policy", policy, "--json")
        summary = json.loads(out)
        assert summary["games"] == games
        whole = max(whole, games / seconds)
        reported = max(reported, summary["games_per_second"])
    return whole, reported


def start_up(repeat: int = 3) -> float:
    """Wall seconds of `simulate --games 1000 --policy random --json` (warm cache), best of `repeat`."""
    _cli("simulate", "--games", "1", "--policy", "random", "--json")  # the cache is filled
    return min(_cli("simulate", "--games", "1000", "--policy", "random", "--json")[0] for _ in range(repeat))


_CHILD_START = """
import time, sys
t0 = time.perf_counter()
from policies.game import game
g = game()
g.run_games(g.rules(), sys.argv[1], 1, seed=0)
print(time.perf_counter() - t0)
"""

# The peak is this process's own high-water mark (VmHWM, reset by exec). Not getrusage's
# ru_maxrss: Linux keeps that across the fork and exec that start the child, so it reported the
# bench's own size (1.2 GiB after compiling lookahead) instead of the child's.
_CHILD_MEMORY = """
import sys
import pandas as pd
from policies.game import game
g, policy = game(), sys.argv[1]
rules = g.rules()
frames = [g.results_frame(raw, rules, policy, 0, first_game=first)
          for first, raw in g.runner.raw_batches(rules, policy, int(sys.argv[2]), seed=0)]
df = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
with open("/proc/self/status") as status:
    peak = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmHWM:"))
print(peak, int(df.memory_usage(deep=True).sum()))
"""


# A run's memory without its table: the counts `simulate` keeps, batch by batch (a competitive
# game's seat tally, a cooperative game's running summary).
_CHILD_TALLY_MEMORY = """
import sys
from policies.game import game
g, policy = game(sys.argv[1]), sys.argv[2]
rules = g.rules()
tally = g.tally(rules, policy)
for first, raw in g.runner.raw_batches(rules, policy, int(sys.argv[3]), seed=0):
    tally.add(raw)
with open("/proc/self/status") as status:
    peak = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmHWM:"))
print(peak)
"""


def _child(code: str, *args: str, cache_dir: str | None = None) -> str:
    env = dict(os.environ)
    if cache_dir:
        env["NUMBA_CACHE_DIR"] = cache_dir
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env,
                         check=True)
    return out.stdout.strip().splitlines()[-1]


def cold_compile(policy: str) -> float:
    """Seconds from a fresh interpreter to one game played, on an empty numba cache."""
    with tempfile.TemporaryDirectory() as cache:
        return float(_child(_CHILD_START, policy, cache_dir=cache))


def memory(policy: str, games: int) -> tuple[int, int]:
    peak, table = _child(_CHILD_MEMORY, policy, str(games)).split()
    return int(peak), int(table)


def other_game_searches(game: Game, games: int, threads: int, echo=print) -> list[dict]:
    """A game's searches at their default budget, as search_rate measures them."""
    spec = game.bench()
    rows = []
    for policy in (p for p in spec.SEARCHES if p in game.policy_names()):
        for name, setting in spec.SETTINGS.items():
            rules = game.rules(**setting)
            wall, cpu = search_rate(rules, policy, games, threads, run=game.run_games)
            label = f"{game.title} {name}"
            rows.append({"policy": policy, "setting": label, "games_per_s": wall, "per_cpu_second": cpu})
            echo(f"  {policy} on {label}: {wall:,.1f} games/s on {threads} threads, {cpu:,.1f} per CPU-second")
    return rows


def other_game_whole(game: Game, memory_games: tuple[int, int], quick: bool, echo=print) -> list[dict]:
    """A game's whole-process speed for each policy it names a run size for (`CLI_GAMES`), and
    the peak memory of a run of `random` that keeps only its counts, at two sizes: flat when the
    two are alike."""
    spec = game.bench()
    rows = []
    for policy, n in getattr(spec, "CLI_GAMES", {}).items():
        whole, reported = cli_rate(policy, n // 10 if quick else n, game.name)
        row = {"game": game.name, "policy": policy, "cli_games": n // 10 if quick else n, "cli": whole,
               "cli_self_reported": reported}
        if policy == "random" and not quick:
            row["memory_peak_rss"] = {str(m): int(_child(_CHILD_TALLY_MEMORY, game.name, policy, str(m)))
                                      for m in memory_games}
        rows.append(row)
        echo(f"  {game.name} {policy}: simulate --games {row['cli_games']:,} {whole:,.0f}/s whole process "
             f"(it reports {reported:,.0f}/s)")
    return rows


def other_game_rows(game: Game, games: int, threads: int, echo=print) -> list[dict]:
    """A game's kernel per benched policy and setting, 1 thread and all threads, and its
    reference engine replaying 20 of the kernel's records of that setting (games/s)."""
    name, spec = game.name, game.bench()
    rows = []
    for policy in (p for p in spec.POLICIES if p in game.policy_names()):
        for setting in spec.SETTINGS.values():
            rules = game.rules(**setting)
            n = games // 4 if policy == "random" else max(games // 40, 1000)
            one = kernel_rate(rules, policy, n, 1, run=game.run_games)
            many = kernel_rate(rules, policy, n, threads, run=game.run_games)
            records = game.export(rules, policy, 7, range(20))
            start = time.perf_counter()
            for record in records:
                game.records.result_json(game.records.replay(record))
            engine = len(records) / (time.perf_counter() - start)
            rows.append({"game": name, "policy": policy, "setting": game.setting_line(rules), "kernel_1_thread": one,
                         f"kernel_{threads}_threads": many, "engine_replay": engine})
            echo(f"  {name} {policy} {game.setting_line(rules)}: kernel {one:,.0f}/s on 1 thread, "
                 f"{many:,.0f}/s on {threads}; engine replay {engine:,.0f}/s")
    return rows


def explore_times(repeat: int = 7, echo=print) -> dict | None:
    """The explore page's answers (experiments/explore), the median of `repeat`, wall seconds and
    CPU seconds of the whole process (every thread): `GET /api/estimate` for 2,000 `expert`
    games, and one full page update's first answer (three player counts, the setting and the
    rulebook beside it at each, a five-point skill curve for both: 22,000 games), each on games
    no answer has played before (a new seed each time). Through the app in this process
    (Starlette's test client: no network between); None without the play extra."""
    try:
        from starlette.testclient import TestClient

        from experiments.explore.estimate import Kernels
        from experiments.explore.server import create_app, warm
    except ImportError:
        return None
    import statistics

    game = game_named()
    kernels = Kernels()
    for policy in (game.default_policy, game.skill_policy):
        kernels.load(game, policy)
    warm()

    def timed(call) -> tuple[float, float]:
        wall, cpu = time.perf_counter(), time.process_time()
        call()
        return time.perf_counter() - wall, time.process_time() - cpu

    with TestClient(create_app(kernels=kernels), base_url="http://127.0.0.1") as client:
        def estimate(seed: int) -> None:
            assert client.get(f"/api/estimate?policy=expert&games=2000&seed={seed}").json()["games"] == 2000

        estimate(999)
        estimates = [timed(lambda i=i: estimate(1000 + i)) for i in range(repeat)]
        page = client.post("/api/pages", json={}).json()
        client.headers["X-Game-Token"] = page["token"]
        path = f"/api/pages/{page['id']}/explore"
        updates = []
        for i in range(repeat):
            body = {"request": i, "players": [2, 3, 4], "seed": 2000 + i, "games": 2000,
                    "setting": {"rules": {"gauge": "AD 2C 2D 3C 3D 4C 4D 5C"}}}
            updates.append(timed(lambda body=body: client.post(path, json=body).raise_for_status()))
            while client.get(path).json()["state"] not in ("done", "failed", "superseded"):
                time.sleep(0.05)  # the next update starts on a quiet machine, not beside this one's refining
    out = {"estimate_2000_expert_s": statistics.median(w for w, _ in estimates),
           "estimate_2000_expert_cpu_s": statistics.median(c for _, c in estimates),
           "page_update_s": statistics.median(w for w, _ in updates),
           "page_update_cpu_s": statistics.median(c for _, c in updates), "repeat": repeat}
    echo(f"  explore: /api/estimate 2,000 expert games {out['estimate_2000_expert_s']:.3f} s; a full page update "
         f"{out['page_update_s']:.3f} s (medians of {repeat})")
    return out


def run_bench(games: int = 400_000, engine_games: int = 100,
              memory_games: tuple[int, int] = (100_000, 1_000_000), quick: bool = False,
              policies: tuple[str, ...] | None = None, echo=print) -> dict:
    """Every figure: `policies` of the default game (default: those its `bench()` names)."""
    threads = default_threads()
    lab = game_named()
    spec = lab.bench()
    rules = lab.rules()
    engine_rate = getattr(spec, "engine_rate", None)
    rows = []
    for policy in spec.POLICIES if policies is None else policies:
        n = games if policy == "random" else max(games // 20, 1000)
        one = kernel_rate(rules, policy, n, 1, run=lab.run_games)
        many = kernel_rate(rules, policy, n, threads, run=lab.run_games)
        cli_games = getattr(spec, "CLI_GAMES", {}).get(policy) or max(1000, int(round(many * CLI_SECONDS, -3)))
        whole, reported = cli_rate(policy, cli_games)
        ref = engine_rate(rules, policy, engine_games) if engine_rate else float("nan")
        rows.append({"policy": policy, "kernel_1_thread": one, f"kernel_{threads}_threads": many,
                     "speedup": many / one, "cli_games": cli_games, "cli": whole, "cli_vs_kernel": whole / many,
                     "cli_self_reported": reported,
                     "engine": ref, "kernel_vs_engine_per_core": one / ref})
        echo(f"  {policy}: kernel {one:,.0f}/s on 1 thread, {many:,.0f}/s on {threads}; "
             f"simulate --games {cli_games:,} {whole:,.0f}/s (it reports {reported:,.0f}/s); engine {ref:,.0f}/s")
    searches = []
    for policy in spec.SEARCHES:
        for name, setting in spec.SETTINGS.items():
            wall, cpu = search_rate(lab.rules(**setting), policy, 40 if quick else 300, threads, run=lab.run_games)
            searches.append({"policy": policy, "setting": name, "games_per_s": wall, "per_cpu_second": cpu})
            echo(f"  {policy} on {name}: {wall:,.1f} games/s on {threads} threads, {cpu:,.1f} per CPU-second")
    other_rows, whole_rows = [], []
    for other in every_game():
        if other.name == lab.name:
            continue
        try:
            other.bench()
        except Unsupported:
            continue  # a game with no benchmarks of its own
        searches += other_game_searches(other, 40 if quick else 300, threads, echo)
        other_rows += other_game_rows(other, games, threads, echo)
        whole_rows += other_game_whole(other, memory_games, quick, echo)
    explore = explore_times(echo=echo)
    startup = start_up()
    echo(f"  start-up {startup:.2f} s")
    cold = cold_compile(lab.default_policy)
    echo(f"  cold compile ({lab.default_policy}) {cold:.1f} s")
    mem = {}
    if not quick:
        for n in memory_games:
            peak, table = memory("random", n)
            mem[str(n)] = {"peak_rss": peak, "table_bytes": table, "peak_minus_table": peak - table}
    import numba

    return {
        "machine": {"processor": platform.processor() or platform.machine(), "cores": os.cpu_count(),
                    "python": platform.python_version(), "numba": numba.__version__, "threads": threads,
                    "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None},
        "rules": rules.as_record(),
        "rows": rows,
        "searches": searches,
        "other_games": other_rows,
        "other_games_whole": whole_rows,
        "start_up_s": startup,
        "cold_compile_policy": lab.default_policy,
        "cold_compile_s": cold,
        "memory": mem,
        "explore": explore,
    }


def format_table(result: dict) -> str:
    threads = result["machine"]["threads"]
    head = (f"{'policy':<8} {'kernel 1 thr':>13} {f'kernel {threads} thr':>13} {'speed-up':>9} "
            f"{'simulate N':>11} {'whole':>9} {'reported':>9} {'engine':>8} {'kernel/engine':>14}")
    lines = ["games/s; simulate N = `island-escape simulate --games N --json` in a fresh process: whole =",
             "timed from outside, start-up included; reported = the rate it prints (its seconds of play);",
             "engine = the reference engine charged for the policy's decisions; kernel/engine per core",
             head, "-" * len(head)]
    for r in result["rows"]:
        many = r[f"kernel_{threads}_threads"]
        lines.append(f"{r['policy']:<8} {r['kernel_1_thread']:>13,.0f} {many:>13,.0f} "
                     f"{r['speedup']:>8.2f}x {r['cli_games']:>11,} {r['cli']:>9,.0f} "
                     f"{r.get('cli_self_reported', float('nan')):>9,.0f} "
                     f"{r['engine']:>8,.0f} {r['kernel_vs_engine_per_core']:>13,.0f}x")
    for r in result.get("searches", []):
        lines.append(f"{r['policy']} on {r['setting']}: {r['games_per_s']:,.1f} games/s on {threads} threads, "
                     f"{r['per_cpu_second']:,.1f} games per CPU-second (x{threads} = a quiet machine)")
    if result.get("other_games"):
        lines.append("other games (kernel games/s; engine = the reference engine replaying the kernel's records)")
        for r in result["other_games"]:
            lines.append(f"{r['policy']:<8} {r['kernel_1_thread']:>13,.0f} {r[f'kernel_{threads}_threads']:>13,.0f}"
                         f"   engine {r['engine_replay']:>8,.0f}   {r['setting']}")
    for r in result.get("other_games_whole", []):
        line = (f"{r['game']} {r['policy']}: simulate --games {r['cli_games']:,} in a fresh process {r['cli']:,.0f} "
                f"games/s whole (it reports {r['cli_self_reported']:,.0f}/s)")
        if r.get("memory_peak_rss"):
            line += "; peak RSS " + ", ".join(f"{v / 2**20:,.0f} MiB for {int(k):,} games"
                                              for k, v in r["memory_peak_rss"].items())
        lines.append(line)
    explore = result.get("explore")
    if explore:
        lines.append(f"explore: GET /api/estimate of 2,000 expert games {explore['estimate_2000_expert_s']:.3f} s "
                     f"({explore['estimate_2000_expert_cpu_s']:.3f} CPU-s); a full page update (3 player counts and "
                     f"a 5-point skill curve, 22,000 games) {explore['page_update_s']:.3f} s "
                     f"({explore['page_update_cpu_s']:.3f} CPU-s); medians of {explore['repeat']}")
    lines.append(f"start-up {result['start_up_s']:.2f} s (simulate --games 1000 --policy random --json, "
                 "fresh process, warm cache)")
    lines.append(f"cold compile {result['cold_compile_s']:.1f} s ({result['cold_compile_policy']}: fresh process, "
                 "empty numba cache, import, compile, one game)")
    for n, m in result["memory"].items():
        mib = {k: v / 2**20 for k, v in m.items()}
        lines.append(f"memory, {int(n):>9,} random games: peak RSS {mib['peak_rss']:,.0f} MiB, "
                     f"table {mib['table_bytes']:,.0f} MiB, the rest {mib['peak_minus_table']:,.0f} MiB")
    mach = result["machine"]
    load = mach.get("load_average")
    lines.append(f"machine: {mach['processor']}, {mach['cores']} cores, Python {mach['python']}, "
                 f"numba {mach['numba']}" + (f", load average {load[0]:.1f} at the end" if load else ""))
    return "\n".join(lines)
