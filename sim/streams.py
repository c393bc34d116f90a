"""Random streams for the kernels of every game: splitmix64, keyed by (seed, game, stream).

A game's randomness depends only on the seed, the game's index and which stream asks (the deal,
the floods, the player), so games can be played in any order, on any thread, and a change to one
stream (a player that draws more) never moves the others.
"""

import numpy as np
from numba import njit

from sim.intrinsics import borrowed

U30, U27, U31, U32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)

@njit(cache=True)
def _mix(z):
    z = (z ^ (z >> U30)) * MIX1
    z = (z ^ (z >> U27)) * MIX2
    return z ^ (z >> U31)


@njit(cache=True)
def seed_streams(rng, seed, game):
    """Three independent splitmix64 streams keyed by (seed, game, stream)."""
    base = _mix(np.uint64(seed) * GOLDEN + np.uint64(0x632BE59BD9B4E019))
    base = _mix(base ^ (np.uint64(game) * MIX2))
    for k in range(3):
        rng[k] = _mix(base + np.uint64(k + 1) * GOLDEN)


@njit(cache=True)
def rand_below(rng, k, n):
    """A number in [0, n) from stream k: the top 32 bits scaled by n (no slow division)."""
    rng = borrowed(rng)
    rng[k] = rng[k] + GOLDEN
    return np.int64(((_mix(rng[k]) >> U32) * np.uint64(n)) >> U32)


@njit(cache=True)
def rand_unit(rng, k):
    """A number in [0, 1) from stream k (30 bits)."""
    rng = borrowed(rng)
    return rand_below(rng, k, 1 << 30) / float(1 << 30)


@njit(cache=True)
def rand_normal(rng, k):
    """A standard normal number from stream k (Box-Muller)."""
    u = 1.0 - rand_unit(rng, k)  # (0, 1]: log is finite
    v = rand_unit(rng, k)
    return np.sqrt(-2.0 * np.log(u)) * np.cos(2.0 * np.pi * v)




def streams_of(seed: int, game: int) -> np.ndarray:
    """Game `game` of `seed`'s streams, seeded, for a readable engine to draw on in Python."""
    rng = np.zeros(3, dtype=np.uint64)
    seed_streams(rng, seed, game)
    return rng


def shuffled(items: list, rng: np.ndarray, stream: int) -> list:
    """`items` shuffled in place on `stream` as the kernels shuffle (Fisher-Yates: for i from n-1
    down to 1, swap i with rand_below(i + 1))."""
    for i in range(len(items) - 1, 0, -1):
        j = int(rand_below(rng, stream, i + 1))
        items[i], items[j] = items[j], items[i]
    return items
