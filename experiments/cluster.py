"""Sweeps on a Dask cluster (dask.distributed): cells, or seed ranges of large cells, as tasks.

The client submits one task per chunk of games (`first_game`, `n`) of a cell; a worker plays it
with the numba kernel on its own threads and returns the raw results. The client assembles a
cell when all its chunks are back, and only then writes the cell file (atomically), so a cell
on disk is always complete. A game's result depends only on (seed, game index), so the tables
are the same whichever backend ran them and however they were chunked. When a worker dies, Dask
runs its lost tasks again elsewhere (up to `retries` more times each).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

DEFAULT_CHUNK = 25_000


def play_chunk_task(rules: dict, policy: str, seed: int, first_game: int, games: int,
                    threads: int | None, game: str | None = None) -> np.ndarray:
    """Runs on a worker: games first_game … first_game+games-1 of one cell, raw kernel rows."""
    from policies.game import game as game_named

    kind = game_named(game)
    return kind.run_games(kind.rules(**rules), policy, games, seed, first_game=first_game, threads=threads)


def connect(scheduler: str | None = None, workers: int | None = None):
    """A client: to a running scheduler (tcp://HOST:PORT), or to a new local cluster of N processes."""
    from dask.distributed import Client, LocalCluster

    if scheduler:
        return Client(scheduler, timeout="10s"), None
    cluster = LocalCluster(n_workers=workers or 2, threads_per_worker=1, processes=True, dashboard_address=None)
    return Client(cluster), cluster


def play_cells(client, cells: list, config, write_cell: Callable, on_games: Callable[[int], None],
               threads: int | None = None, chunk: int | None = None, retries: int = 3,
               stop_after: int | None = None) -> list[str]:
    """Play `cells` on the cluster; `write_cell(cell, raw)` is called once per complete cell."""
    from dask.distributed import as_completed


    chunk = chunk or DEFAULT_CHUNK
    if stop_after is not None:
        cells = cells[:stop_after]
    parts: dict[str, dict[int, np.ndarray]] = {c.key: {} for c in cells}
    planned: dict[str, int] = {c.key: config.games for c in cells}
    meta = {}
    done: list[str] = []

    def submit(cell, first: int, n: int):
        key = f"island-{config.digest}-{cell.key}-{first}-{n}"
        future = client.submit(play_chunk_task, cell.rules.as_record(), cell.policy, config.seed, first, n,
                               threads, cell.game.name, key=key, retries=retries, pure=False)
        meta[future.key] = (cell, first, n)
        return future

    pending = as_completed([submit(c, first, min(chunk, config.games - first))
                            for c in cells for first in range(0, config.games, chunk)])
    for future in pending:
        cell, first, n = meta[future.key]
        raw = future.result()
        future.release()
        parts[cell.key][first] = raw
        on_games(n)
        if sum(len(r) for r in parts[cell.key].values()) < planned[cell.key]:
            continue
        whole = np.concatenate([parts[cell.key][k] for k in sorted(parts[cell.key])])
        a = config.adaptive
        if a and planned[cell.key] < a.max_games:
            tally = cell.game.tally(cell.rules, cell.policy)
            tally.add(whole)
            if tally.half_width() > a.half_width:  # the same rule as a local adaptive cell
                extra = min(a.batch, a.max_games - planned[cell.key])
                pending.add(submit(cell, planned[cell.key], extra))
                planned[cell.key] += extra
                continue
        write_cell(cell, whole)
        del parts[cell.key]
        done.append(cell.key)
    return done
