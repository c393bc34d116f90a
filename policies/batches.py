"""Games in batches on a pool of threads, for either game (QuantEcon style: the Python side owns
seeds, threads and allocation; the compiled play loop only fills the rows it is given).

A game's `play_chunk(params, pp, seed, first_game, out, lo, hi)` is its policy's compiled entry
(policies/<game>/entries.py): it releases the GIL and fills rows lo ... hi-1 of `out`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

BATCH = 1 << 16  # games per kernel call: bounds memory and paces the progress bar


def default_threads() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


_pool: ThreadPoolExecutor | None = None
_pool_size = 0


def _executor(threads: int) -> ThreadPoolExecutor:
    global _pool, _pool_size
    if _pool is None or _pool_size != threads:
        if _pool is not None:
            _pool.shutdown()
        _pool, _pool_size = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="kernel"), threads
    return _pool


def chunk_bounds(n: int, threads: int, last: bool) -> list[tuple[int, int]]:
    """How a batch of `n` games is cut into chunks for `threads` threads: (lo, hi) row ranges.

    Many small chunks: a thread that finishes early takes the next one. A whole number of
    chunks a thread, so that a search's few hundred games (a tenth of a second each) still use
    every thread and none waits on a third chunk. The run's last batch ends in ever smaller
    chunks (a guided schedule: each a quarter of what is left on two threads), so that at the
    very end no thread idles for long while the other plays out a big chunk; batches before it
    need no such tail, because the next batch is queued behind them (`play_batches`).
    """
    if threads == 1 or n <= 1:
        return [(0, n)]
    parts = max(1, min(n // 512, 16 * threads))
    parts = max(1, min(n, -(-parts // threads) * threads))
    if not last or parts < 2 * threads:
        return [(k * n // parts, (k + 1) * n // parts) for k in range(parts)]
    cap = -(-n // parts)  # the even chunk, until a quarter of what is left (two threads) is smaller
    smallest, bounds, lo = max(1, cap // 32), [], 0
    while lo < n:
        size = min(cap, max(smallest, (n - lo) // (2 * threads)))
        bounds.append((lo, min(n, lo + size)))
        lo += size
    return bounds


def play_batches(play_chunk: Callable, params: np.ndarray, pp: np.ndarray, games: int, seed: int,
                 first_game: int, threads: int | None, nresult: int, out: np.ndarray | None = None,
                 batch: int = BATCH):
    """Either game's games batch by batch: yields (first row, rows) for each batch in order, the
    rows int32 [n, nresult] (views of `out` when it is given, else a new array a batch, so that
    memory stays flat however many games are played).

    `play_chunk(params, pp, seed, first_game, out, lo, hi)` is a policy's compiled entry (it
    releases the GIL) and fills rows lo ... hi-1. A thread pool rather than numba's prange:
    prange made numba compile the whole game again for its parallel loop, about 9 s more of cold
    compile, for the same scaling. The next batch is queued before the caller gets this one, so
    the threads never wait while the caller counts or writes a batch, nor for each other at a
    batch's end. Every game's randomness depends only on (seed, game), so neither the split nor
    the order ever changes the table.
    """
    if games < 0:
        raise ValueError("the number of games cannot be negative")
    if seed < 0:
        raise ValueError("the seed must be a whole number >= 0")
    threads = threads or default_threads()

    def rows(done: int, n: int) -> np.ndarray:
        return out[done:done + n] if out is not None else np.empty((n, nresult), dtype=np.int32)

    if threads == 1:
        for done in range(0, games, batch):
            n = min(batch, games - done)
            chunk = rows(done, n)
            play_chunk(params, pp, seed, first_game + done, chunk, 0, n)
            yield done, chunk
        return
    pool = _executor(threads)

    def submit(done: int):
        n = min(batch, games - done)
        chunk = rows(done, n)
        jobs = [pool.submit(play_chunk, params, pp, seed, first_game + done, chunk, lo, hi)
                for lo, hi in chunk_bounds(n, threads, done + n >= games)]
        return done, chunk, jobs

    queued = [submit(0)] if games else []
    try:
        while queued:
            done, chunk, jobs = queued.pop(0)
            if done + len(chunk) < games:
                queued.append(submit(done + len(chunk)))
            for job in jobs:
                job.result()
            yield done, chunk
    finally:  # stopped early (an error, Ctrl-C, a caller that stops reading): drop queued work
        for _, _, jobs in queued:
            for job in jobs:
                job.cancel()


def play_in_chunks(play_chunk: Callable, params: np.ndarray, pp: np.ndarray, games: int, seed: int,
                   first_game: int, threads: int | None, nresult: int,
                   on_batch: Callable[[int], None] | None = None) -> np.ndarray:
    """All of `play_batches`' rows in one array, int32 [games, nresult]; `on_batch(n)` after each
    batch of n games."""
    if games < 0:
        raise ValueError("the number of games cannot be negative")
    out = np.empty((games, nresult), dtype=np.int32)
    for _, chunk in play_batches(play_chunk, params, pp, games, seed, first_game, threads, nresult, out):
        if on_batch:
            on_batch(len(chunk))
    return out


