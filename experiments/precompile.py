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
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context


def compile_policy(game_name: str, policy: str) -> float:
    """Compile (or load) `policy`'s bulk and record-logging kernels of `game_name`, in this
    process; the seconds it took."""
    from policies.game import game as game_named

    game = game_named(game_name)
    rules = game.rules()
    start = time.perf_counter()
    game.run_games(rules, policy, 2, seed=0, threads=1)
    game.export(rules, policy, 0, [0])
    return time.perf_counter() - start


def every_kernel(games: Iterable[str] | None = None) -> list[tuple[str, str]]:
    """(game, policy) for every registered policy of each game (all games by default); a player
    with weights of its own (`tuned`) is played by its policy's kernels, compiled with that policy."""
    from policies.game import GAMES
    from policies.game import game as game_named

    return [(name, policy) for name in (games or GAMES) for policy in game_named(name).policy_names()
            if policy not in game_named(name).registry.weighted]


def compile_order(kernels: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """`kernels` in the order they are handed to the workers: the searches first (each compiles
    its rollout policy too, the longest by far), then each game's default policy, then the rest,
    the games taking turns within each, so that the long ones run beside the many short ones
    rather than last."""
    from policies.game import game as game_named

    def rank(kernel):
        game = game_named(kernel[0])
        return 0 if kernel[1] in game.search_policies() else 1 if kernel[1] == game.default_policy else 2

    # within a rank the games take turns, so that the first workers start on different games
    seen: dict[tuple[int, str], int] = {}
    turn = {}
    for kernel in kernels:
        key = (rank(kernel), kernel[0])
        turn[kernel] = seen[key] = seen.get(key, -1) + 1
    return sorted(kernels, key=lambda kernel: (rank(kernel), turn[kernel]))


def _leave_with_parent(parent: int) -> None:
    """In a worker: end when the process that started it is gone (a killed `compile` would
    otherwise leave its workers compiling, each a core for minutes)."""
    import threading

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def compile_all(kernels: list[tuple[str, str]], jobs: int | None = None,
                echo: Callable[[str], None] = print, work: Callable[[str, str], float] = compile_policy) -> float:
    """Compile `kernels` with `jobs` processes (default: one per core) in `compile_order`, a line
    per kernel as it is done; the wall seconds of the whole step. A failure is raised once the
    others are done. `work(game, policy)` does one kernel in a worker process (a module-level
    function, as the workers are spawned)."""
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(kernels)))
    start = time.perf_counter()
    failures = []
    # spawned, not forked: each worker starts numba afresh, like the commands it stands in for
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn"), initializer=_leave_with_parent,
                             initargs=(os.getpid(),)) as pool:
        futures = {pool.submit(work, game, policy): (game, policy) for game, policy in compile_order(kernels)}
        for done, future in enumerate(as_completed(futures), 1):
            game, policy = futures[future]
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
