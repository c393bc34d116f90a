"""How many moves a pawn needs between two places of Forbidden Island, for the expert's board
analysis (expert_reference.Board.steps and .distances).

A pawn moves one side step an action onto a tile that has not sunk; the Explorer may also step
diagonally; the Diver may also swim through a chain of flooded or sunk places to any standing
tile next to it (F10). (The Pilot's flight needs no table.) So a walker's distances change only
when a tile sinks - a few times a game - and the Diver's when a tile floods, sinks or is shored
up. The expert asks for the distance from a handful of places (where its pawn stands, where it
could move) to its goals and to the tiles it could shore up, many times a turn: instead of a
search from each goal at every decision, it reads rows of a 24 x 24 table here, each row built
by one search from its place the first time it is read on the current island. Moves are
symmetric (a Diver's chain runs both ways), so a search from the start gives the same
distances as the reference's search from the goals.

Each row carries a stamp of the island it was built on (the sunk tiles, and the flooded ones
for the Diver), so the table is right for whatever state it is asked about, whatever was asked
before (a search's rollouts jump between states). It lives in the caller's scratch array:
`PATH_SLOTS` int64 slots from an offset the caller chooses.

Also here: the bit helpers the expert walks place masks with.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from policies.forbidden_island.expert_reference import FAR
from sim.forbidden_island.layout import FLOODED, NEIGH, NEIGH8, NPLACES, SUNK
from sim.intrinsics import borrowed

WALK, WALK_CORNERS, DIVE = 0, 1, 2  # the three kinds of step
_GRAPH = NPLACES + NPLACES * NPLACES  # a row stamp per place, then the rows
_POOLS = 3 * _GRAPH  # the Diver's chains: their stamp, how many, and each one's place mask
PATH_SLOTS = _POOLS + 2 + NPLACES
_BUILT = np.int64(1) << 50  # in a stamp: built (a fresh scratch array holds zeros)


def _near_table(neigh: np.ndarray) -> np.ndarray:
    """[byte k, value v]: the union of the neighbours of the places 8k ... 8k+7 whose bits v holds,
    so that the neighbours of any place mask are three lookups."""
    out = np.zeros((3, 256), dtype=np.int64)
    for k in range(3):
        for v in range(256):
            for i in range(8):
                if (v >> i) & 1:
                    out[k, v] |= neigh[8 * k + i]
    return out


NEAR4 = _near_table(NEIGH)
NEAR8 = _near_table(NEIGH8)


@intrinsic
def _cttz(typingctx, x):
    """LLVM's count of trailing zeros of a 64-bit mask (one TZCNT instruction)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, ir.IntType(1)]),
                                            "llvm.cttz.i64")
        return builder.call(fn, [context.cast(builder, args[0], x, types.int64), ir.Constant(ir.IntType(1), 0)])

    return types.int64(x), codegen


@njit(cache=True, forceinline=True)
def low_bit(mask):
    """The index of the lowest set bit of a non-zero mask."""
    return _cttz(np.int64(mask))


@njit(cache=True, forceinline=True)
def around(mask, table):
    """The places next to any place of `mask` (`table`: NEAR4 or NEAR8)."""
    m = np.int64(mask)
    return table[0, m & 255] | table[1, (m >> 8) & 255] | table[2, (m >> 16) & 255]


@njit(cache=True, forceinline=True)
def _stand(s):
    return np.int64((1 << NPLACES) - 1) & ~np.int64(s[SUNK])


@njit(cache=True)
def _chains(s, arr, at, stamp):
    """The Diver's chains: the groups of flooded or sunk places joined by side steps, as place
    masks from arr[at + _POOLS + 2] on (found once an island)."""
    s, arr = borrowed(s), borrowed(arr)
    base = at + _POOLS
    if arr[base] == stamp:
        return
    wet = np.int64(s[FLOODED]) | np.int64(s[SUNK])
    n = 0
    while wet:
        pool = wet & -wet
        while True:
            grown = (pool | around(pool, NEAR4)) & wet
            if grown == pool:
                break
            pool = grown
        arr[base + 2 + n] = pool
        n += 1
        wet &= ~pool
    arr[base + 1] = n
    arr[base] = stamp


@njit(cache=True, forceinline=True)
def _dive_ring(arr, at, frontier, stand):
    """Standing places one Diver move from `frontier`: side neighbours, and the places next to
    any chain touching a side neighbour (the chains of `_chains`)."""
    near = around(frontier, NEAR4)
    wet = np.int64(0)
    base = at + _POOLS
    for i in range(arr[base + 1]):
        pool = arr[base + 2 + i]
        if pool & near:
            wet |= pool
    return (near | around(wet, NEAR4)) & stand


@njit(cache=True)
def _build_row(arr, at, graph, row, src, stand):
    """arr[row + q]: the fewest moves of kind `graph` from `src` to q over the standing places;
    FAR where q cannot be reached or either place has sunk."""
    arr = borrowed(arr)
    for q in range(NPLACES):
        arr[row + q] = FAR
    if not (stand >> src) & 1:
        return
    seen = np.int64(1) << src
    frontier = seen
    d = 0
    while frontier:
        m = frontier
        while m:
            arr[row + low_bit(m)] = d
            m &= m - 1
        if graph == DIVE:
            ring = _dive_ring(arr, at, frontier, stand)
        else:
            ring = around(frontier, NEAR8 if graph == WALK_CORNERS else NEAR4) & stand
        frontier = ring & ~seen
        seen |= frontier
        d += 1


@njit(cache=True, forceinline=True)
def distance_row(s, arr, at, graph, place):
    """The offset in `arr` of the row of moves of kind `graph` from `place` on the island of
    state `s`: arr[row + q] is the distance to q. Built first if it is not of this island."""
    if graph == DIVE:
        stamp = np.int64(s[SUNK]) | (np.int64(s[FLOODED]) << NPLACES) | _BUILT
    else:
        stamp = np.int64(s[SUNK]) | _BUILT
    base = at + graph * _GRAPH
    row = base + NPLACES + NPLACES * place
    if arr[base + place] != stamp:
        if graph == DIVE:
            _chains(s, arr, at, stamp)
        _build_row(arr, at, graph, row, place, _stand(s))
        arr[base + place] = stamp
    return row


@njit(cache=True, forceinline=True)
def distance_to(arr, row, goals):
    """The fewest moves from a row's place to any place of the mask `goals` (standing places
    only), FAR if none can be reached."""
    best = FAR
    m = np.int64(goals)
    while m:
        d = arr[row + low_bit(m)]
        if d < best:
            best = d
        m &= m - 1
    return best


@njit(cache=True, forceinline=True)
def shore_distance(arr, row, at):
    """For a walker (not the Diver): the fewest moves from a row's place to a place from which it
    can shore up the standing tile at `at` - that place or a standing neighbour of it, with the
    walker's own kind of step. A walk onto `at` ends with a step from one of those neighbours,
    so this is one less than the distance to `at` (0 on it)."""
    d = arr[row + at]
    if d >= FAR:
        return FAR
    return d - 1 if d > 0 else 0
