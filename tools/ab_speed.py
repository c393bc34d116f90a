"""Two versions of the lab against each other, in games per CPU-second on one thread.

    python tools/ab_speed.py OLD_WORKTREE NEW_WORKTREE [--rounds 3] [--runs 3]
        [--only ie:expert,fi:expert ...]

Each worktree gets a worker process of its own (its own venv, `WORKTREE/.venv/bin/python`, and
its own numba cache), which compiles or loads every kernel first, so compile time stays out of
the figures. Then, round by round, each policy is timed in the old worker and in the new one in
turn: CPU time of the worker's process (`time.process_time`) around one `run_games(...,
threads=1)`, best of `--runs`; the table gives the median of the rounds' bests. Alternating in
one run makes the two versions share whatever else the machine is doing, and CPU time barely
feels that load where the wall clock moves with it.

Both versions are reached through their game objects (`policies.game.game`).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

# (game, policy, games a timed run plays): sized so that a run takes about a second on the old code
CASES = (
    ("ie", "idle", 2_500_000),
    ("ie", "random", 600_000),
    ("ie", "greedy", 70_000),
    ("ie", "novice", 35_000),
    ("ie", "expert", 60_000),
    ("ie", "oracle", 60_000),
    ("ie", "skilled@0.7", 30_000),
    ("ie", "clairvoyant", 500),
    ("ie", "lookahead", 400),
    ("fi", "random", 170_000),
    ("fi", "expert", 12_000),
    ("fi", "lookahead", 8),
    ("sti", "random", 20_000),
    ("sti", "expert", 4_000),
    ("sti", "lookahead", 20),
)
GAMES = {"ie": "island-escape", "fi": "forbidden-island", "sti": "survive-the-island"}


def _worker() -> None:
    """Read `game policy games seed` lines from stdin, answer each with the CPU seconds of one run."""
    sys.path.insert(0, os.getcwd())
    from policies.game import game

    runners = {short: (game(name).run_games, game(name).rules()) for short, name in GAMES.items()}
    for line in sys.stdin:
        name, policy, games, seed = line.split()
        run, rules = runners[name]
        start = time.process_time()
        rows = run(rules, policy, int(games), int(seed), threads=1)
        cpu = time.process_time() - start
        print(json.dumps({"cpu": cpu, "checksum": int(rows.astype("int64").sum())}), flush=True)


class Worker:
    def __init__(self, tree: str) -> None:
        self.proc = subprocess.Popen([os.path.join(tree, ".venv/bin/python"), os.path.abspath(__file__), "--worker"],
                                     cwd=tree, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def run(self, name: str, policy: str, games: int, seed: int = 0) -> dict:
        self.proc.stdin.write(f"{name} {policy} {games} {seed}\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runs", type=int, default=3, help="runs a round, the best kept")
    ap.add_argument("--only", default="", help="comma-separated game:policy (e.g. fi:expert,ie:greedy)")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every case's games")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    wanted = {c for c in args.only.split(",") if c}
    cases = [(g, p, max(1, round(n * args.scale))) for g, p, n in CASES if not wanted or f"{g}:{p}" in wanted]
    workers = {"old": Worker(args.old), "new": Worker(args.new)}
    for name, policy, _ in cases:  # compile or load first; the same games must come out of both
        sums = {v: w.run(name, policy, 2, 1)["checksum"] for v, w in workers.items()}
        if sums["old"] != sums["new"]:
            print(f"warning: {name} {policy}: the two versions play different games (their rules or players differ)",
                  file=sys.stderr)
    best = {(c, v): [] for c in cases for v in workers}
    for _ in range(args.rounds):
        for case in cases:
            for version, worker in workers.items():
                name, policy, games = case
                best[case, version].append(min(worker.run(name, policy, games)["cpu"] for _ in range(args.runs)))
    for w in workers.values():
        w.close()
    print("| game | policy | games a run | old games/CPU-s | new games/CPU-s | new / old |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for case in cases:
        name, policy, games = case
        old = games / statistics.median(best[case, "old"])
        new = games / statistics.median(best[case, "new"])
        print(f"| {name} | {policy} | {games:,} | {old:,.1f} | {new:,.1f} | {new / old:.2f} |", flush=True)


if __name__ == "__main__":
    if "--worker" in sys.argv:
        _worker()
    else:
        main()
