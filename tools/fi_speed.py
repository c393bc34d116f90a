"""Forbidden Island's expert on one thread, in games per CPU-second.

    python -m tools.fi_speed [GAMES] [POLICY]

CPU time of the process rather than the wall clock: on a machine shared with other jobs the
wall clock moves with their load while a thread's CPU time barely does (it still moves some
per cent, through caches and clock speed: compare runs made side by side). Also prints how many
decisions a game asks for, by phase, from 200 logged games. `make bench` gives the wall-clock
figures.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from policies.runner import logged_games, run_games
from sim.forbidden_island import kernel as K
from sim.forbidden_island import layout as L
from sim.forbidden_island.convert import params_of
from sim.forbidden_island.rules import Rules
from sim.island_escape.layout import seed_streams

PHASES = ("actions", "treasure draws", "flood draws", "discards", "swims")


def decisions_by_phase(rules: Rules, policy: str, games: int = 200) -> np.ndarray:
    p = params_of(rules)
    counts = np.zeros(len(PHASES), dtype=np.int64)
    for game, log, _, _ in logged_games(rules, policy, 0, range(games)):
        s = np.zeros(L.NSTATE, dtype=np.int32)
        rng = np.zeros(3, dtype=np.uint64)
        seed_streams(rng, 0, game)
        K.deal(s, p, rng)
        K.set_up(s, p, rng)
        for code in log:
            counts[K.phase(s, p)] += 1
            K.play_action(s, p, int(code), rng)
    return counts / games


def main(games: int = 20_000, policy: str = "expert") -> None:
    for players in (2, 4):
        rules = Rules(players=players, difficulty="normal")
        run_games(rules, policy, 20, seed=1, threads=1)  # compile or load the cache first
        start = time.process_time()
        run_games(rules, policy, games, seed=0, threads=1)
        cpu = time.process_time() - start
        per = decisions_by_phase(rules, policy)
        print(f"{policy} {players}p normal: {games:,} games on 1 thread, {1e6 * cpu / games:.1f} us a game, "
              f"{games / cpu:,.0f} games per CPU-second; decisions a game: {per.sum():.1f} ("
              + ", ".join(f"{name} {x:.1f}" for name, x in zip(PHASES, per, strict=True)) + ")")


def cli(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m tools.fi_speed",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="?", type=int, default=20_000, help="games per player count (default 20,000)")
    ap.add_argument("policy", nargs="?", default="expert", help="a Forbidden Island policy (default expert)")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error(f"games must be at least 1, not {args.games}")
    main(args.games, args.policy)


if __name__ == "__main__":
    cli()
