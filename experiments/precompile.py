"""Compile every policy's kernels of every game into numba's cache, once, at set-up.

numba compiles a kernel the first time a process calls it and keeps the machine code in its cache
(`sim.numba_cache_dir()`), so whoever runs first pays: tens of seconds per policy. `make run`
and `make test` run this step after installing, so the first real command starts warm. Each
(game, policy) compiles in a process of its own, as many at once as there are cores; a kernel
already in the cache is only loaded, so the step takes seconds when nothing changed.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from multiprocessing import get_context


def compile_policy(game_name: str, policy: str) -> float:
    """Compile (or load) `policy`'s bulk and record-logging kernels of `game_name`, in this
    process; the seconds it took."""
    from experiments.games import game_kind

    game = game_kind(game_name)
    rules = game.rules()
    start = time.perf_counter()
    game.run_games(rules, policy, 2, seed=0, threads=1)
    game.export(rules, policy, 0, [0])
    return time.perf_counter() - start


def every_kernel(games: Iterable[str] | None = None) -> list[tuple[str, str]]:
    """(game, policy) for every registered policy of each game (all games by default)."""
    from experiments.games import GAME_KINDS, game_kind

    return [(name, policy) for name in (games or GAME_KINDS) for policy in game_kind(name).policy_names()]


def compile_all(kernels: list[tuple[str, str]], jobs: int | None = None,
                echo: Callable[[str], None] = print, work: Callable[[str, str], float] = compile_policy) -> float:
    """Compile `kernels` with `jobs` processes (default: one per core), a line per kernel as it
    is done; the wall seconds of the whole step. A failure is raised once the others are done.

    A game's default policy compiles first and the game's other policies after it: the searches
    and the skill axis call its functions, which a later process then loads from the cache
    instead of compiling them again. `work(game, policy)` does one kernel in a worker process
    (a module-level function, as the workers are spawned)."""
    from experiments.games import game_kind

    jobs = max(1, min(jobs or os.cpu_count() or 1, len(kernels)))
    start = time.perf_counter()
    failures, done = [], 0
    first = {(game, policy) for game, policy in kernels if policy == game_kind(game).default_policy}
    waiting = [k for k in kernels if k not in first]
    # spawned, not forked: each worker starts numba afresh, like the commands it stands in for
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn")) as pool:

        def submit(batch):
            return {pool.submit(work, game, policy): (game, policy) for game, policy in batch}

        running = submit([k for k in kernels if k in first])
        ready_games = {game for game, _ in kernels} - {game for game, _ in first}
        while running or waiting:
            now = [k for k in waiting if k[0] in ready_games]
            waiting = [k for k in waiting if k[0] not in ready_games]
            running |= submit(now)
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                game, policy = running.pop(future)
                ready_games.add(game)  # after its default, failed or not: the rest still compile
                done += 1
                try:
                    seconds = future.result()
                except Exception as exc:  # noqa: BLE001 - reported, then raised below
                    failures.append(f"{game} {policy}: {exc}")
                    echo(f"[{done}/{len(kernels)}] {game:16} {policy:12} FAILED: {exc}")
                    continue
                echo(f"[{done}/{len(kernels)}] {game:16} {policy:12} ready in {seconds:.1f} s")
    if failures:
        raise RuntimeError("kernels that did not compile: " + "; ".join(failures))
    return time.perf_counter() - start
