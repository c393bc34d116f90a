"""Two versions of the lab against each other, in games per CPU-second on one thread.

    python tools/ab_speed.py OLD_WORKTREE NEW_WORKTREE [--rounds 3] [--runs 3]
        [--only ie:expert,fi:expert ...]
    python tools/ab_speed.py --players [OLD_WORKTREE] NEW_WORKTREE

`--players`: each game's strong players (expert, tuned, its search at budgets 1, 2 and 4) on
the game's two strength settings (`Game.strength_settings`), each player's win rate (a
competitive game's searching seat among expert seats: its share of the wins) and its games per
CPU-second, the old version beside the new where one is given. A player a version lacks is a
dash. The rates come from the runs' few games (their 95% half-width beside them); the strength
report (`island-escape strength`) measures them on 2,000.

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
# `--players`: games a timed run plays, per game and player (about a second or a few on one thread)
PLAYERS = {
    "ie": {"expert": 20_000, "tuned": 20_000, "lookahead@1": 400, "lookahead@2": 150, "lookahead@4": 60},
    "fi": {"expert": 4_000, "tuned": 4_000, "lookahead@1": 40, "lookahead@2": 20, "lookahead@4": 10},
    "sti": {"expert": 1_000, "tuned": 1_000, "lookahead@1": 12, "lookahead@2": 4, "lookahead@4": 2},
}


def _worker() -> None:
    """Read `game policy games seed` lines from stdin, answer each with the CPU seconds of one run."""
    sys.path.insert(0, os.getcwd())
    from policies.game import game

    runners = {short: (game(name).run_games, game(name).rules()) for short, name in GAMES.items()}
    for line in sys.stdin:
        name, policy, games, seed, *setting = line.split()
        run, rules = runners[name]
        g = game(GAMES[name])
        if setting:  # `--players`: the game's strength setting, the player in the searching seat
            rules = g.rules_from_options(**g.strength_settings[int(setting[0])])
            try:
                g.check_policy(policy)
            except ValueError:
                print(json.dumps({"missing": True}), flush=True)
                continue
            from experiments.strength import setting_player

            policy = setting_player(g, rules, policy)
        start = time.process_time()
        rows = run(rules, policy, int(games), int(seed), threads=1)
        cpu = time.process_time() - start
        out = {"cpu": cpu, "checksum": int(rows.astype("int64").sum())}
        if setting:
            outcome = g.seat_outcome(rows, rules, 0)
            out |= {"rate": float(outcome.mean()), "half": float(1.96 * outcome.std() / max(len(outcome), 1) ** 0.5)}
        print(json.dumps(out), flush=True)


class Worker:
    def __init__(self, tree: str) -> None:
        self.proc = subprocess.Popen([os.path.join(tree, ".venv/bin/python"), os.path.abspath(__file__), "--worker"],
                                     cwd=tree, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def run(self, name: str, policy: str, games: int, seed: int = 0, setting: int | None = None) -> dict:
        self.proc.stdin.write(f"{name} {policy} {games} {seed}{'' if setting is None else f' {setting}'}\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def players_table(trees: dict[str, str], runs: int, scale: float) -> None:
    """`--players`: per game, setting and strong player, the win rate and games per CPU-second of
    each version, the versions alternating player by player."""
    sys.path.insert(0, os.path.abspath(trees["new"]))  # the new version's settings name the rows
    from policies.game import game

    workers = {version: Worker(tree) for version, tree in trees.items()}
    versions = list(workers)
    heads = " | ".join(f"{v} games/CPU-s" for v in versions) + (" | new / old" if len(versions) > 1 else "")
    print(f"| game | setting | player | games a run | win % (± 95%) | {heads} |")
    print("| --- | --- | --- | ---: | ---: |" + " ---: |" * (len(versions) + (len(versions) > 1)))
    for name, players in PLAYERS.items():
        g = game(GAMES[name])
        for k, setting in enumerate(g.strength_settings):
            line = g.setting_line(g.rules_from_options(**setting))
            for policy, games in players.items():
                games = max(1, round(games * scale))
                for w in workers.values():  # compiled or loaded before the clock
                    w.run(name, policy, 2, 1, k)
                seen = {v: [workers[v].run(name, policy, games, r, k) for r in range(runs)] for v in versions}
                if all(r[0].get("missing") for r in seen.values()):
                    continue
                cells, speeds = [], {}
                for v in versions:
                    if seen[v][0].get("missing"):
                        cells.append("-")
                        continue
                    speeds[v] = games / min(r["cpu"] for r in seen[v])
                    cells.append(f"{speeds[v]:,.1f}")
                last = seen[versions[-1]][0]
                rate = "-" if last.get("missing") else f"{100 * last['rate']:.1f} ± {100 * last['half']:.1f}"
                ratio = [f"{speeds['new'] / speeds['old']:.2f}" if len(speeds) == 2 else "-"][:len(versions) - 1]
                print(f"| {name} | {line} | {policy} | {games:,} | {rate} | " + " | ".join(cells + ratio) + " |",
                      flush=True)
    for w in workers.values():
        w.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new", nargs="?")
    ap.add_argument("--players", action="store_true",
                    help="each game's strong players on its strength settings: win rate and speed")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runs", type=int, default=3, help="runs a round, the best kept")
    ap.add_argument("--only", default="", help="comma-separated game:policy (e.g. fi:expert,ie:greedy)")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every case's games")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.players:
        trees = {"old": args.old, "new": args.new} if args.new else {"new": args.old}
        return players_table(trees, args.runs, args.scale)
    if not args.new:
        ap.error("give the old and the new worktree")
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
