"""Win rates of a Forbidden Island player on the readable engine, beside the published bot's.

Slow (a few games a second): this measures the readable `expert` while its numba port is not
there yet. Every cell plays the same seeds (common random numbers across levels and player
counts, as `sim.forbidden_island.engine.deal` keeps the island and decks of a seed).

    python -m policies.forbidden_island.published --games 200 --workers 2
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from policies.forbidden_island.levels import PUBLISHED_WIN as PUBLISHED  # the published bot's rates
from sim.forbidden_island.engine import LOSS_CAUSES
from sim.forbidden_island.rules import DIFFICULTIES, Rules
from sim.stats import wilson_interval


def _play_cell(args: tuple[int, str, int, int]) -> tuple[int, str, Counter, float]:
    from policies.forbidden_island.expert_reference import choose
    from policies.forbidden_island.reference_play import play_game

    players, difficulty, first, games = args
    start = time.perf_counter()
    outcomes = Counter(play_game(Rules(players=players, difficulty=difficulty), seed, choose).outcome
                       for seed in range(first, first + games))
    return players, difficulty, outcomes, time.perf_counter() - start


def measure(games: int, workers: int, players=(2, 3, 4), levels=tuple(DIFFICULTIES), first: int = 0):
    """{(players, level): (outcome counts, seconds)} for the readable expert."""
    chunks = max(1, workers)
    size = -(-games // chunks)
    jobs = [(p, d, first + k * size, min(size, games - k * size))
            for p in players for d in levels for k in range(chunks) if games - k * size > 0]
    out: dict[tuple[int, str], tuple[Counter, float]] = {}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for p, d, outcomes, seconds in pool.map(_play_cell, jobs):
            total, spent = out.get((p, d), (Counter(), 0.0))
            out[(p, d)] = (total + outcomes, spent + seconds)
    return out


def table(results) -> str:
    lines = ["| players | level | games | expert wins (95% interval) | x published | published | causes of loss |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for (p, d), (outcomes, _) in sorted(results.items(), key=lambda kv: (kv[0][0], DIFFICULTIES[kv[0][1]])):
        n = sum(outcomes.values())
        wins = outcomes["win"]
        lo, hi = wilson_interval(wins, n)
        pub = PUBLISHED[p][d]
        causes = ", ".join(f"{c} {outcomes[c] / n:.0%}" for c in LOSS_CAUSES if outcomes[c])
        lines.append(f"| {p} | {d} | {n} | {wins / n:.1%} ({lo:.1%}-{hi:.1%}) | {wins / n / pub:.2f} | "
                     f"{pub:.2%} | {causes} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="games per cell")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    ap.add_argument("--levels", nargs="*", default=list(DIFFICULTIES))
    args = ap.parse_args(argv)
    bad = [lv for lv in args.levels if lv not in DIFFICULTIES] + [p for p in args.players if p not in (2, 3, 4)]
    if bad or args.games < 1 or args.workers < 1:
        print(f"forbidden_island_reference: bad value {bad[0] if bad else 'games/workers'} "
              "(levels novice|normal|elite|legendary, players 2-4, games and workers at least 1)",
              file=sys.stderr)
        return 2
    start = time.perf_counter()
    results = measure(args.games, args.workers, tuple(args.players), tuple(args.levels))
    print(table(results))
    played = sum(sum(o.values()) for o, _ in results.values())
    print(f"\n{played} games in {time.perf_counter() - start:.0f} s with {args.workers} workers")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
