"""`island-escape bench` / `make bench`: how fast the lab is, as a user meets it.

Everything is measured in one run on this machine, so the ratios are what to compare across
machines; the absolute figures come with the machine they were measured on. Per policy
(`random`, `greedy`, `expert`; `expert` is also what every `lookahead` rollout plays):

- kernel games/s in this process, on 1 thread and on all threads (the parallel speed-up);
- whole-process games/s: `island-escape simulate --games N --policy P --json` timed from the
  outside, start-up, compiled-kernel loading and the summary included, beside the rate the
  command reports itself (its games over the seconds of play, after the kernels are loaded).
  N is the run size a user meets for the policy (a long study's million-game cells for
  `random`, a report cell's thousands for `greedy` and `expert`), and about five seconds of
  play for any other policy;
- the reference engine on the same games, charged for the same policy's decisions: it replays
  the kernel's record of each game (the rules in plain Python), and for every decision of that
  game calls the policy's compiled `choose` from Python on the kernel's state at that decision.
  A Python port of greedy or expert does not exist (policies/island_escape/python.py holds prototypes only),
  and replaying the recorded decisions alone would charge the engine nothing for the thinking;
  calling the compiled policy from Python is what an engine-side player would do. The decision
  states are gathered before the clock starts.

Then for the whole program: start-up (`simulate --games 1000 --policy random --json`, a fresh
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

import numpy as np

from policies.batches import default_threads
from policies.island_escape.registry import DEFAULT_POLICY, POLICIES, policy_id
from policies.island_escape.runner import default_policy_params, export_records, rules_to_params, run_games
from sim.island_escape import layout as L
from sim.island_escape.records import replay
from sim.island_escape.rules import Rules

POLICIES_BENCHED = ("random", "greedy", "expert")
SEARCHES_BENCHED = ("lookahead",)  # the strongest fair player: what a judged study can afford
SEARCH_SETTINGS = {"normal-2p": Rules(), "hard-3p-3cards": Rules(players=3, cards_per_treasure=3)}
# The `simulate --games N` run each policy is timed on as a whole process; a policy not named
# here plays about CLI_SECONDS of games.
CLI_GAMES = {"random": 2_000_000, "greedy": 20_000, "expert": 500_000}
CLI_SECONDS = 5.0


def kernel_rate(rules, policy: str, games: int, threads: int, repeat: int = 3,
                seconds: float = 1.5, run=run_games) -> float:
    """Best of `repeat` runs (the least disturbed by other work on a shared machine).

    Each run plays at least `games` games and lasts about `seconds` or more, so that thread
    start-up and timer noise do not count for the fast policies. `run` is the game's
    run_games (Island Escape's, or another game's `Game.run_games` with its own rules).
    """
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


def decision_states(rules: Rules, policy: str, seed: int, game: int) -> list[tuple[np.ndarray, int]]:
    """The kernel's state and legal-action mask before every action the policy chose in one game
    (the kernel's own step functions, called from Python)."""
    from policies.island_escape.entries import FLOOD
    from sim.island_escape.kernel import apply_turn_action as apply_action
    from sim.island_escape.kernel import begin_turn, floods_due
    from sim.island_escape.kernel import deal_game as init_game
    from sim.island_escape.kernel import legal_mask as legal_actions

    p = rules_to_params(rules)
    pp = default_policy_params(policy)
    flood = FLOOD[policy_id(policy)]
    choose = POLICIES[policy.partition("@")[0]][1].choose
    s = np.zeros(L.NSTATE, dtype=np.int32)
    rng = np.zeros(3, dtype=np.uint64)
    opts = np.zeros(8, dtype=np.int64)
    log = np.zeros((1, 4), dtype=np.int32)
    init_game(s, p, rng, seed, game)
    out = []
    while s[L.OUTCOME] < 0:
        begin_turn(s, p)
        while s[L.ACTS] > 0:
            legal = int(legal_actions(s, p))
            out.append((s.copy(), legal))
            apply_action(s, p, choose(s, p, pp, legal, rng), log, -1)
            if s[L.OUTCOME] >= 0:
                break
        if s[L.OUTCOME] >= 0:
            break
        for _ in range(int(floods_due(s, p))):
            flood(s, p, pp, rng, opts, log, -1)
            if s[L.OUTCOME] >= 0:
                break
    return out


def engine_rate(rules: Rules, policy: str, games: int, seed: int = 7) -> float:
    """Engine games/s on the kernel's games, charged for the policy's decisions (see above)."""
    records = export_records(rules, policy, seed, range(games))
    states = [decision_states(rules, policy, seed, g) for g in range(games)]
    p = rules_to_params(rules)
    pp = default_policy_params(policy)
    choose = POLICIES[policy][1].choose
    rng = np.zeros(3, dtype=np.uint64)
    choose(states[0][0][0], p, pp, states[0][0][1], rng)  # compiled before the clock starts
    start = time.perf_counter()
    for record, game_states in zip(records, states, strict=True):
        for s, legal in game_states:
            choose(s, p, pp, legal, rng)
        replay(record)
    return games / (time.perf_counter() - start)


def search_rate(rules: Rules, policy: str, games: int, threads: int, run=run_games) -> tuple[float, float]:
    """(games/s of wall time on `threads` threads, games per second of CPU time); `run` as in
    kernel_rate.

    The second figure hardly moves when other jobs share the machine: times the number of
    cores it is what a quiet machine would play (the games run in parallel with no shared work)."""
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


def cli_rate(policy: str, games: int) -> tuple[float, float]:
    """(games/s of a whole `simulate --json` process, start-up included; games/s the command
    reports itself), each the best of two runs."""
    whole = reported = 0.0
    for _ in range(2):
        seconds, out = _cli("simulate", "--games", str(games), "--policy", policy, "--json")
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
from sim.island_escape.rules import Rules
from policies.island_escape.runner import run_games
run_games(Rules(), sys.argv[1], 1, seed=0)
print(time.perf_counter() - t0)
"""

# The peak is this process's own high-water mark (VmHWM, reset by exec). Not getrusage's
# ru_maxrss: Linux keeps that across the fork and exec that start the child, so it reported the
# bench's own size (1.2 GiB after compiling lookahead) instead of the child's.
_CHILD_MEMORY = """
import sys
from sim.island_escape.rules import Rules
from policies.island_escape.runner import simulate
df = simulate(Rules(), sys.argv[1], int(sys.argv[2]), seed=0, progress=False)
with open("/proc/self/status") as status:
    peak = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmHWM:"))
print(peak, int(df.memory_usage(deep=True).sum()))
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


# The lab's other games, measured the same way: their kernel per policy and setting (and the
# reference engine replaying the kernel's records), and their searches at the default budget.
OTHER_GAMES = {
    "forbidden-island": {
        "policies": ("random", "expert"),
        "searches": ("lookahead",),  # its report cells play 2,000 games each in `make report`
        "settings": ({"players": 2, "difficulty": "normal"}, {"players": 4, "difficulty": "normal"}),
    },
}


def other_game_searches(name: str, games: int, threads: int, echo=print) -> list[dict]:
    """A game's searches at their default budget, as search_rate measures them."""
    from policies.game import game as game_named

    game, spec = game_named(name), OTHER_GAMES[name]
    rows = []
    for policy in (p for p in spec["searches"] if p in game.policy_names()):
        for setting in spec["settings"]:
            rules = game.rules(**setting)
            wall, cpu = search_rate(rules, policy, games, threads, run=game.run_games)
            label = f"{game.title} {game.setting_line(rules)}"
            rows.append({"policy": policy, "setting": label, "games_per_s": wall, "per_cpu_second": cpu})
            echo(f"  {policy} on {label}: {wall:,.1f} games/s on {threads} threads, {cpu:,.1f} per CPU-second")
    return rows


def other_game_rows(name: str, games: int, threads: int, echo=print) -> list[dict]:
    """A game's kernel per benched policy and setting, 1 thread and all threads, and its
    reference engine replaying 20 of the kernel's records of that setting (games/s)."""
    from policies.game import game as game_named

    game, spec = game_named(name), OTHER_GAMES[name]
    rows = []
    for policy in (p for p in spec["policies"] if p in game.policy_names()):
        for setting in spec["settings"]:
            rules = game.rules(**setting)
            n = games // 4 if policy == "random" else max(games // 40, 1000)
            one = kernel_rate(rules, policy, n, 1, run=game.run_games)
            many = kernel_rate(rules, policy, n, threads, run=game.run_games)
            records = game.export(rules, policy, 7, range(20))
            start = time.perf_counter()
            for record in records:
                game.replay_json(record)
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

    from policies.game import game as game_named

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
              policies: tuple[str, ...] = POLICIES_BENCHED, echo=print) -> dict:
    threads = default_threads()
    rules = Rules()
    rows = []
    for policy in policies:
        n = games if policy == "random" else max(games // 20, 1000)
        one = kernel_rate(rules, policy, n, 1)
        many = kernel_rate(rules, policy, n, threads)
        cli_games = CLI_GAMES.get(policy) or max(1000, int(round(many * CLI_SECONDS, -3)))
        whole, reported = cli_rate(policy, cli_games)
        ref = engine_rate(rules, policy, engine_games)
        rows.append({"policy": policy, "kernel_1_thread": one, f"kernel_{threads}_threads": many,
                     "speedup": many / one, "cli_games": cli_games, "cli": whole, "cli_vs_kernel": whole / many,
                     "cli_self_reported": reported,
                     "engine": ref, "kernel_vs_engine_per_core": one / ref})
        echo(f"  {policy}: kernel {one:,.0f}/s on 1 thread, {many:,.0f}/s on {threads}; "
             f"simulate --games {cli_games:,} {whole:,.0f}/s (it reports {reported:,.0f}/s); engine {ref:,.0f}/s")
    searches = []
    for policy in SEARCHES_BENCHED:
        for name, srules in SEARCH_SETTINGS.items():
            wall, cpu = search_rate(srules, policy, 40 if quick else 300, threads)
            searches.append({"policy": policy, "setting": name, "games_per_s": wall, "per_cpu_second": cpu})
            echo(f"  {policy} on {name}: {wall:,.1f} games/s on {threads} threads, {cpu:,.1f} per CPU-second")
    other_rows = []
    for name in OTHER_GAMES:
        searches += other_game_searches(name, 40 if quick else 300, threads, echo)
        other_rows += other_game_rows(name, games, threads, echo)
    explore = explore_times(echo=echo)
    startup = start_up()
    echo(f"  start-up {startup:.2f} s")
    cold = cold_compile(DEFAULT_POLICY)
    echo(f"  cold compile ({DEFAULT_POLICY}) {cold:.1f} s")
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
        "start_up_s": startup,
        "cold_compile_policy": DEFAULT_POLICY,
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
