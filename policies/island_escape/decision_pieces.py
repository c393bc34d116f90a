"""Decision pieces for the goal-directed policies: distances, reachability, the flood clock, and
the decision pieces that greedy and expert share (needs, gives, salvage, goals, spare shore-ups).

Everything here reads only public information (R19): tile states, face-up cards, pawns,
salvage, raised treasures, the gauge and the pile cards already drawn in this pass. Nothing
reads `s[CARD + i]` of a face-down place, the undrawn pile cards or `s[KINGPOS]`.
Places are indexed `(row - 1) * 5 + (column - 1)`; bit `i` of a place mask is place `i`.

Nothing here, nor in the goal-directed policies built on it (greedy, expert and the skill axis),
allocates on the heap: scratch arrays come from `stack_empty` and, like the play loop's borrowed
views of the state and parameters, carry no reference count (sim/intrinsics.py). Each function
numba compiles on its own borrows its array arguments on entry, so that the compiler sees
that too and drops the counting numba would otherwise do for every array the function holds;
none hands a scratch array back to its caller (`fill` is called as a statement).
"""

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from sim.intrinsics import borrowed, stack_empty
from sim.island_escape.layout import (
    A_END,
    A_GIVE,
    A_MOVE,
    A_SALVAGE,
    A_SHORE,
    A_SHORE_HERE,
    A_SWIM,
    ACTS,
    CARD,
    CENTRE,
    COLP,
    CUR,
    DIR_DC,
    DIR_DR,
    DOWN,
    FLOODED,
    FULL,
    GAUGE_TOP,
    HAND,
    NEIGHBOUR,
    NEIGHBOUR2,
    NOT_FIRST_COL,
    NOT_LAST_COL,
    NSTATE,
    P_ACTIONS,
    P_CPT,
    P_GLEN,
    P_GRANK,
    P_PAWNS,
    P_SWIM,
    PAWN,
    PILE_POS,
    RAISED,
    ROWP,
    SUIT_MASK,
    TILES,
    TSTATE,
    cards_short_mask,
    extract_bits,
    in_play,
    popcount,
    raise_discard_cards,
)

INF = 1e9
# Arrays of one number per place (path costs, goal worths) have LANES entries, the 25 places and
# then INF, so that the goal step reads them whole with vector code (`least_goal_worth`,
# `goals_within`, `_costs_from_levels`): one compare of 32 lanes instead of 25 scalar ones.
LANES = 32


@njit(cache=True)
def fill(a, value):
    """Every entry of `a` set to `value`; returns `a` (for `fill(stack_empty(25, np.float64), INF)`)."""
    for i in range(a.shape[0]):
        a[i] = value
    return a


def _splat(builder, value, vec):
    """The scalar `value` in every lane of the LLVM vector type `vec`."""
    one = builder.insert_element(ir.Constant(vec, ir.Undefined), value, ir.Constant(ir.IntType(32), 0))
    return builder.shuffle_vector(one, ir.Constant(vec, ir.Undefined),
                                  ir.Constant(ir.VectorType(ir.IntType(32), vec.count), [0] * vec.count))


def _lanes(builder, value, ty):
    """`value` (an LLVM value of type `ty`) in every one of LANES lanes."""
    vec = ir.VectorType(ty, LANES)
    one = builder.insert_element(ir.Constant(vec, ir.Undefined), value, ir.Constant(ir.IntType(32), 0))
    return builder.shuffle_vector(one, ir.Constant(vec, ir.Undefined),
                                  ir.Constant(ir.VectorType(ir.IntType(32), LANES), [0] * LANES))


def _lanes_pointer(context, builder, arrty, arr):
    """The float64 array `arr`'s data as a pointer to one vector of its first LANES entries."""
    data = context.make_array(arrty)(context, builder, arr).data
    return builder.bitcast(data, ir.VectorType(ir.DoubleType(), LANES).as_pointer())


def _load_lanes(context, builder, arrty, arr):
    """The first LANES float64 entries of the array `arr` as one vector (the caller's array has them)."""
    return builder.load(_lanes_pointer(context, builder, arrty, arr), align=8)


def _lane_bits(builder, mask):
    """Bits 0-31 of the int64 `mask` as LANES booleans (lane i: bit i)."""
    return builder.bitcast(builder.trunc(mask, ir.IntType(LANES)), ir.VectorType(ir.IntType(1), LANES))


def _lane_extreme(builder, w, op):
    """The least (`op` "<") or greatest (">") of the float lanes of `w`, as a scalar: halves of
    the vector are compared until one lane is left (exact in any order)."""
    width = LANES
    while width > 1:
        width //= 2
        lo = builder.shuffle_vector(w, w, ir.Constant(ir.VectorType(ir.IntType(32), width), list(range(width))))
        hi = builder.shuffle_vector(w, w, ir.Constant(ir.VectorType(ir.IntType(32), width),
                                                      list(range(width, 2 * width))))
        w = builder.select(builder.fcmp_ordered(op, hi, lo), hi, lo)
    return builder.extract_element(w, ir.Constant(ir.IntType(32), 0))


def _is_lanes(arr):
    return isinstance(arr, types.Array) and arr.dtype == types.float64 and arr.layout == "C"


@intrinsic
def _fill_lanes(typingctx, arr, value):
    """`fill` for an array of LANES float64 entries: one vector store."""
    if not _is_lanes(arr):
        return None

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        f64 = ir.DoubleType()
        v = _lanes(builder, context.cast(builder, args[1], signature.args[1], types.float64), f64)
        builder.store(v, builder.bitcast(data, ir.VectorType(f64, LANES).as_pointer()), align=8)
        return context.get_dummy_value()

    return types.none(arr, value), codegen


@intrinsic
def _copy_lanes(typingctx, dst, src):
    """dst[:LANES] = src[:LANES] (float64): one vector load and store."""
    if not (_is_lanes(dst) and _is_lanes(src)):
        return None

    def codegen(context, builder, signature, args):
        value = _load_lanes(context, builder, signature.args[1], args[1])
        builder.store(value, _lanes_pointer(context, builder, signature.args[0], args[0]), align=8)
        return context.get_dummy_value()

    return types.none(dst, src), codegen


def _goal_worths(context, builder, signature, args):
    """`goal_worth` of every lane: init + my path cost, INF where either is INF."""
    f64 = ir.DoubleType()
    init = _load_lanes(context, builder, signature.args[0], args[0])
    dme = _load_lanes(context, builder, signature.args[1], args[1])
    inf = _lanes(builder, ir.Constant(f64, INF), f64)
    valid = builder.and_(builder.fcmp_ordered("<", init, inf), builder.fcmp_ordered("<", dme, inf))
    return builder.select(valid, builder.fadd(init, dme), inf), valid


@intrinsic
def _least_goal_worth(typingctx, init, dme):
    """The cheapest goal's cost, min over the places u of `goal_worth(init, dme, u)` (INF if
    none); `init` and `dme` of LANES entries. A minimum is exact in any order: halves of the
    vector are compared until one lane is left."""
    if not (_is_lanes(init) and _is_lanes(dme)):
        return None

    def codegen(context, builder, signature, args):
        w, _valid = _goal_worths(context, builder, signature, args)
        return _lane_extreme(builder, w, "<")

    return types.float64(init, dme), codegen


@intrinsic
def _goals_within(typingctx, init, dme, bound):
    """The mask of the places whose `goal_worth(init, dme, u)` is finite and at most `bound`."""
    if not (_is_lanes(init) and _is_lanes(dme)):
        return None

    def codegen(context, builder, signature, args):
        w, valid = _goal_worths(context, builder, signature, args)
        f64 = ir.DoubleType()
        limit = _lanes(builder, context.cast(builder, args[2], signature.args[2], types.float64), f64)
        inside = builder.and_(valid, builder.fcmp_ordered("<=", w, limit))
        return builder.zext(builder.bitcast(inside, ir.IntType(LANES)), ir.IntType(64))

    return types.int64(init, dme, bound), codegen


@njit(cache=True)
def step(place, d, times):
    """The place `times` steps from `place` in direction d (up, down, left, right), -1 off the island."""
    c = place % 5 + DIR_DC[d] * times
    r = place // 5 + DIR_DR[d] * times
    if c < 0 or c > 4 or r < 0 or r > 4:
        return -1
    return r * 5 + c


@intrinsic
def _cttz(typingctx, m):
    """LLVM's cttz of the integer `m` widened to 64 bits (undefined for 0): one TZCNT/BSF."""
    if not isinstance(m, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(context.cast(builder, args[0], m, types.int64), ir.Constant(ir.IntType(1), 1))

    return types.int64(m), codegen


@njit(cache=True, forceinline=True)
def lowest_bit(m):
    """The index of the lowest set bit of a non-zero mask (a bit scan: the loops over the places
    of a mask run on it)."""
    return _cttz(m)


@intrinsic
def _lanes_in(typingctx, arr, start, low, n):
    """The mask of the 32 int32 entries arr[start], ..., arr[start + 31] that lie in
    low ... low + n - 1: bit i for arr[start + i]. One vector load and compare (AVX-512 makes
    it a handful of instructions). The caller guarantees that the 32 entries exist."""
    if not (isinstance(arr, types.Array) and arr.dtype == types.int32 and arr.layout == "C"):
        return None

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        i32 = ir.IntType(32)
        lanes = ir.VectorType(i32, 32)
        first = builder.gep(ary.data, [context.cast(builder, args[1], signature.args[1], types.intp)])
        values = builder.load(builder.bitcast(first, lanes.as_pointer()), align=4)

        def splat(x, ty):
            one = builder.insert_element(ir.Constant(lanes, ir.Undefined), context.cast(builder, x, ty, types.int32),
                                         ir.Constant(i32, 0))
            return builder.shuffle_vector(one, ir.Constant(lanes, ir.Undefined), ir.Constant(lanes, [0] * 32))

        # low <= v < low + n  as one unsigned compare of v - low with n
        inside = builder.icmp_unsigned("<", builder.sub(values, splat(args[2], signature.args[2])),
                                       splat(args[3], signature.args[3]))
        return builder.zext(builder.bitcast(inside, i32), ir.IntType(64))

    return types.int64(arr, start, low, n), codegen


@njit(cache=True, forceinline=True)
def move_masks(tiles):
    """The places of a mask that have a tile to their right, left, below and above: with them a
    move step (`moves_from`) is a mask and a shift per direction, worked out once per search."""
    return NOT_LAST_COL & (tiles >> 1), NOT_FIRST_COL & (tiles << 1), tiles >> 5, tiles << 5


@njit(cache=True, forceinline=True)
def swim_masks(tiles):
    """The same for swims (R8): sea next door in that direction and a tile beyond it."""
    sea = FULL & ~tiles
    return (NOT_LAST_COL & ((sea & NOT_LAST_COL) >> 1) & (tiles >> 2),
            NOT_FIRST_COL & ((sea & NOT_FIRST_COL) << 1) & (tiles << 2),
            (sea >> 5) & (tiles >> 10), (sea << 5) & (tiles << 10))


@njit(cache=True, forceinline=True)
def moves_from(m, right, left, down, up):
    """The places one step from the mask `m`, given the step masks of `move_masks` or `swim_masks`
    (shifts of 1 and 5 for moves; for swims, `swims_from`)."""
    return ((m & right) << 1) | ((m & left) >> 1) | ((m & down) << 5) | ((m & up) >> 5)


@njit(cache=True, forceinline=True)
def swims_from(m, right, left, down, up):
    return ((m & right) << 2) | ((m & left) >> 2) | ((m & down) << 10) | ((m & up) >> 10)


@njit(cache=True)
def tile_degree(tiles, place):
    """Orthogonal neighbours of `place` that are tiles in the place mask `tiles` (one move step
    and a bit count: the loop over directions branched on each)."""
    mr, ml, md, mu = move_masks(tiles)
    return popcount(moves_from(np.int64(1) << place, mr, ml, md, mu))


@njit(cache=True, forceinline=True)
def fill_lanes(a, value):
    """`fill` for a stack array of LANES float64 entries: one vector store."""
    _fill_lanes(a, value)
    return a


@njit(cache=True, forceinline=True)
def least_goal_worth(init, dme):
    """The cheapest goal's cost, min over the places u of `goal_worth(init, dme, u)` (INF if
    none); `init` and `dme` have LANES entries."""
    return _least_goal_worth(init, dme)


@njit(cache=True, forceinline=True)
def goals_within(init, dme, bound):
    """The mask of the places whose `goal_worth(init, dme, u)` is finite and at most `bound`."""
    return _goals_within(init, dme, bound)


@intrinsic
def _lower_lanes(typingctx, arr, places, nearer, value, near_value):
    """arr[i] = min(arr[i], near_value if bit i of `nearer` else value) for the bits i of
    `places` (LANES float64 entries): a select and a minimum over the vector."""
    if not _is_lanes(arr):
        return None

    def codegen(context, builder, signature, args):
        f64 = ir.DoubleType()
        ptr = _lanes_pointer(context, builder, signature.args[0], args[0])
        old = builder.load(ptr, align=8)
        places_, nearer_ = (_lane_bits(builder, context.cast(builder, v, t, types.int64))
                            for v, t in zip(args[1:3], signature.args[1:3], strict=True))
        far, near = (_lanes(builder, context.cast(builder, v, t, types.float64), f64)
                     for v, t in zip(args[3:5], signature.args[3:5], strict=True))
        goal = builder.select(nearer_, near, far)
        lower = builder.select(builder.fcmp_ordered("<", goal, old), goal, old)
        builder.store(builder.select(places_, lower, old), ptr, align=8)
        return context.get_dummy_value()

    return types.none(arr, places, nearer, value, near_value), codegen


@intrinsic
def _dearest_lanes(typingctx, arr, places):
    """The largest arr[i] over the bits i of `places` as an integer, 0 if none."""
    if not _is_lanes(arr):
        return None

    def codegen(context, builder, signature, args):
        f64 = ir.DoubleType()
        values = _load_lanes(context, builder, signature.args[0], args[0])
        places_ = _lane_bits(builder, context.cast(builder, args[1], signature.args[1], types.int64))
        w = builder.select(places_, values, _lanes(builder, ir.Constant(f64, 0.0), f64))
        return builder.fptosi(_lane_extreme(builder, w, ">"), ir.IntType(64))

    return types.int64(arr, places), codegen


# No path costs more than 192 (a swim crosses a sea place, each sea place serves at most two swims,
# and P_SWIM <= 12), so N_LEVELS levels hold every path cost.
N_LEVELS = 256  # the size of a `level` array: one entry per path cost


@intrinsic
def _set_lanes(typingctx, arr, mask, value):
    """arr[i] = value for the bits i of `mask` (an array of LANES float64 entries): one select."""
    if not _is_lanes(arr):
        return None

    def codegen(context, builder, signature, args):
        f64 = ir.DoubleType()
        ptr = _lanes_pointer(context, builder, signature.args[0], args[0])
        mask = context.cast(builder, args[1], signature.args[1], types.int64)
        value = _lanes(builder, context.cast(builder, args[2], signature.args[2], types.float64), f64)
        builder.store(builder.select(_lane_bits(builder, mask), value, builder.load(ptr, align=8)), ptr, align=8)
        return context.get_dummy_value()

    return types.none(arr, mask, value), codegen


@njit(cache=True, forceinline=True)
def steps_from(m, tiles, sea):
    """The tiles one move (R7) from the places of the mask `m`, and the tiles one swim from them
    across a place of `sea` (R8; 0 where no swim is possible). Shifts and constant masks: no
    per-direction step masks to keep in registers."""
    right = (m & NOT_LAST_COL) << 1
    left = (m & NOT_FIRST_COL) >> 1
    down = m << 5
    up = m >> 5
    swims = (((right & sea & NOT_LAST_COL) << 1) | ((left & sea & NOT_FIRST_COL) >> 1) | ((down & sea) << 5)
             | ((up & sea) >> 5))
    return (right | left | down | up) & tiles, swims & tiles


@njit(cache=True)
def costs_and_nearer(p, tiles, mine, others, dist, level):
    """Path costs (R7 moves 1, R8 swims P_SWIM) from the nearest place of the mask `mine` into
    `dist` (LANES entries; INF where no path leads), level[c] the mask of places at cost c (for
    every cost up to the largest finite one), and, searched beside it, the mask of places
    `others` reach at a lower cost than `mine` (those `mine` never reaches included, those
    neither reaches not).

    Level by level on bit masks (Dial's buckets: the places first reached at cost c, from those
    at c - 1 by a move and c - P_SWIM by a swim), never scanning for a minimum; each level's
    places get their cost in a vector of the LANES costs (`_set_lanes`). With swims of cost 1 or
    2 (the rulebook's and the divers' rules) one loop without branches runs both searches, the
    pending levels in registers; dearer swims go through a ring of 16 levels (P_SWIM <= 12)."""
    p, dist, level = borrowed(p), borrowed(dist), borrowed(level)
    swim = p[P_SWIM]
    sea = FULL & ~tiles if swim <= p[P_ACTIONS] else 0  # no turn has the actions for a swim: none
    mine &= tiles
    others &= tiles
    costs = stack_empty(LANES, np.float64)
    fill_lanes(costs, INF)
    settled = 0
    nearer = 0
    c = 0
    if swim <= 2 or sea == 0:
        # swims of cost 1 join this level's moves; of cost 2 they wait a level in `b`
        one = -np.int64(swim == 1)
        two = ~one
        a = mine
        b = 0
        oa = others
        ob = 0
        osettled = 0
        while True:
            cur = a & ~settled
            settled |= cur
            level[c] = cur
            _set_lanes(costs, cur, c)
            c += 1
            ocur = oa & ~osettled
            osettled |= ocur
            mv, sw = steps_from(cur, tiles, sea)
            a = (b | mv | (sw & one)) & ~settled
            b = sw & two & ~settled
            mv, sw = steps_from(ocur, tiles, sea)
            oa = (ob | mv | (sw & one)) & ~osettled
            ob = sw & two & ~osettled
            nearer |= osettled & ~settled
            # every tile has its cost (`others` can be nearer to none of the rest), or nothing pends
            if settled == tiles or (a | b | oa | ob) == 0:
                break
    else:
        ring = stack_empty(16, np.int64)  # ring[c % 16]: places first reached at cost c
        for i in range(16):
            ring[i] = 0
        ring[0] = mine
        last = 0  # the dearest level anything was filed in
        while True:
            i = c & 15
            cur = ring[i] & ~settled
            ring[i] = 0
            settled |= cur
            level[c] = cur
            _set_lanes(costs, cur, c)
            mv, sw = steps_from(cur, tiles, sea)
            mv &= ~settled
            sw &= ~settled
            ring[(c + 1) & 15] |= mv
            ring[(c + swim) & 15] |= sw
            last = max(last, c + 1 if mv else 0, c + swim if sw else 0)
            c += 1
            if settled == tiles or c > last:
                break
        if others:  # the other pawns' search, against my levels
            for i in range(16):
                ring[i] = 0
            ring[0] = others
            osettled = 0
            msettled = 0
            last = 0
            k = 0
            while True:
                i = k & 15
                cur = ring[i] & ~osettled
                ring[i] = 0
                osettled |= cur
                msettled = msettled | level[k] if k < c else settled
                mv, sw = steps_from(cur, tiles, sea)
                mv &= ~osettled
                sw &= ~osettled
                ring[(k + 1) & 15] |= mv
                ring[(k + swim) & 15] |= sw
                nearer |= osettled & ~msettled
                last = max(last, k + 1 if mv else 0, k + swim if sw else 0)
                k += 1
                if msettled == tiles or k > last:
                    break
    _copy_lanes(dist, costs)
    return nearer


@njit(cache=True)
def path_costs(p, tiles, sources, dist):
    """`dist`: path cost from the nearest place of the mask `sources`, INF where no path leads
    (`costs_and_nearer` without the other search)."""
    level = stack_empty(N_LEVELS, np.int64)
    costs_and_nearer(p, tiles, sources, 0, dist, level)


@njit(cache=True)
def dist_from(p, tiles, src, dist):
    p, dist = borrowed(p), borrowed(dist)
    path_costs(p, tiles, np.int64(1) << src, dist)


@njit(cache=True, forceinline=True)
def fill_until(tiles, start, target, swims):
    """The R16 fill from the place mask `start` over `tiles` (moves, and with `swims` swims across
    exactly one sea place, R8), stopped as soon as it holds every place of `target`: the places
    reached by then (all it can reach if it never holds them).

    The same steps as `grow_reach`, with the step masks worked out once per fill rather than
    once per step (`move_masks`, `swim_masks`)."""
    mr, ml, md, mu = move_masks(tiles)
    sr, sl, sd, su = swim_masks(tiles) if swims else (0, 0, 0, 0)
    reach = start & tiles
    while (reach & target) != target:
        new = reach | moves_from(reach, mr, ml, md, mu) | swims_from(reach, sr, sl, sd, su)
        if new == reach:
            return reach
        reach = new
    return reach


@njit(cache=True)
def reach_mask(p, tiles, start, swims):
    """Places reached from the place mask `start` over `tiles` (bitboard fill, R16)."""
    return fill_until(tiles, start, tiles, swims)


@njit(cache=True, forceinline=True)
def covers(tiles, start, target, swims):
    """Does the R16 fill from the place mask `start` over `tiles` (moves, and with `swims` swims)
    reach every place of `target`? It stops as soon as it does."""
    return fill_until(tiles, start, target, swims) & target == target


# The board facts that `salvage_ok_in` and `is_bridge_in` test each candidate place against,
# one decision's worth (slots of an int64 array, `board_context`): the targets and the pawns at
# once; the fills (what the pawns reach, what the helicopter reaches with swims and walking) when
# a check first asks for them (-1 until then: `board_reach`, `board_home`, `board_walk`), so
# that a decision whose checks are all skipped runs none of them.
CX_TARGETS, CX_PAWNS, CX_REACH, CX_HOME, CX_WALK = 0, 1, 2, 3, 4
N_CONTEXT = 5


def _around_tables():
    """AROUND[t]: the mask of the (up to eight) places around place t; SPLITS[t, m]: 1 unless the
    tiles next to t (up, down, left, right) are joined by moves through the places around it
    alone, m being the tiles among those places as `extract_bits(tiles, AROUND[t])` packs them."""
    around = np.zeros(25, dtype=np.int64)
    splits = np.zeros((25, 256), dtype=np.uint8)
    for t in range(25):
        r, c = divmod(t, 5)
        cells = [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                 if (dr, dc) != (0, 0) and 0 <= r + dr < 5 and 0 <= c + dc < 5]
        for rr, cc in cells:
            around[t] |= 1 << (rr * 5 + cc)
        for m in range(1 << len(cells)):
            land = {cell for k, cell in enumerate(cells) if m >> k & 1}
            nextdoor = [cell for cell in land if abs(cell[0] - r) + abs(cell[1] - c) == 1]
            if len(nextdoor) < 2:
                continue
            seen, todo = set(), [nextdoor[0]]
            while todo:
                a = todo.pop()
                if a in seen:
                    continue
                seen.add(a)
                todo.extend(b for b in land if abs(b[0] - a[0]) + abs(b[1] - a[1]) == 1)
            splits[t, m] = not all(cell in seen for cell in nextdoor)
    return around, splits


AROUND, SPLITS = _around_tables()


@njit(cache=True, forceinline=True)
def may_split(tiles, t, swims):
    """False when losing the tile `t` keeps every other pair of places that a path joined joined:
    its tile neighbours stay linked by moves through the places around it (a table of those eight
    places' tiles) and no swim starts from it (R8). A cheap, one-sided test: True says nothing."""
    if SPLITS[t, extract_bits(tiles, AROUND[t])]:
        return True
    if swims:
        sr, sl, sd, su = swim_masks(tiles)
        return ((sr | sl | sd | su) >> t) & 1 != 0
    return False


@intrinsic
def _cut_off_without(typingctx, tiles, cand, start, target, swims):
    """The places t of the mask `cand` such that, once the tile t is gone, the R16 fill from
    `start` (moves, and with `swims` swims across one sea place, R8) no longer reaches every
    place of `target` but t. One fill per place, all at once: lane t of a vector of 32 masks
    fills over the tiles without t, until every lane of `cand` holds its target or grows no
    more (a handful of vector steps and one loop exit, where a fill per tile took a loop and
    its branches each)."""
    if not all(isinstance(x, types.Integer) for x in (tiles, cand, start, target)):
        return None

    def codegen(context, builder, signature, args):
        i32 = ir.IntType(32)
        vec = ir.VectorType(i32, 32)
        tiles_, cand_, start_, target_ = (builder.trunc(context.cast(builder, v, t, types.int64), i32)
                                          for v, t in zip(args[:4], signature.args[:4], strict=True))
        swims_ = context.cast(builder, args[4], signature.args[4], types.boolean)

        def splat(x):
            return _splat(builder, x, vec)

        def const(x):
            return splat(ir.Constant(i32, x))

        lost = ir.Constant(vec, [1 << i if i < 25 else 0 for i in range(32)])  # lane t loses place t
        kept = builder.and_(splat(tiles_), builder.not_(lost))
        sea = builder.select(swims_, builder.and_(builder.not_(kept), const(FULL)), const(0))
        goal = builder.and_(splat(target_), builder.not_(lost))
        asked = builder.bitcast(cand_, ir.VectorType(ir.IntType(1), 32))
        first = builder.and_(splat(start_), kept)
        entry = builder.block
        loop = builder.append_basic_block("fills")
        done = builder.append_basic_block("fills.done")
        builder.branch(loop)
        builder.position_at_end(loop)
        reach = builder.phi(vec)
        reach.add_incoming(first, entry)
        right = builder.shl(builder.and_(reach, const(NOT_LAST_COL)), const(1))
        left = builder.lshr(builder.and_(reach, const(NOT_FIRST_COL)), const(1))
        down = builder.shl(reach, const(5))
        up = builder.lshr(reach, const(5))
        moves = builder.or_(builder.or_(right, left), builder.or_(down, up))
        swim_r = builder.shl(builder.and_(builder.and_(right, sea), const(NOT_LAST_COL)), const(1))
        swim_l = builder.lshr(builder.and_(builder.and_(left, sea), const(NOT_FIRST_COL)), const(1))
        swim_d = builder.shl(builder.and_(down, sea), const(5))
        swim_u = builder.lshr(builder.and_(up, sea), const(5))
        swims_to = builder.or_(builder.or_(swim_r, swim_l), builder.or_(swim_d, swim_u))
        grown = builder.or_(reach, builder.and_(builder.or_(moves, swims_to), kept))
        reach.add_incoming(grown, loop)
        held = builder.icmp_unsigned("==", builder.and_(grown, goal), goal)
        still = builder.icmp_unsigned("==", grown, reach)
        finished = builder.or_(builder.or_(held, still), builder.not_(asked))
        every = builder.icmp_unsigned("==", builder.bitcast(finished, i32), ir.Constant(i32, -1))
        builder.cbranch(every, done, loop)
        builder.position_at_end(done)
        missed = builder.icmp_unsigned("!=", builder.and_(grown, goal), goal)
        return builder.zext(builder.and_(builder.bitcast(missed, i32), cand_), ir.IntType(64))

    return types.int64(tiles, cand, start, target, swims), codegen


@njit(cache=True, forceinline=True)
def cut_off_without(tiles, cand, start, target, swims):
    """The places t of the mask `cand` (tiles) whose loss leaves some place of `target` but t
    out of the reach of `start` (R16; with `swims`, swims count, R8): `still_reaches` for every
    place of `cand` at once."""
    return _cut_off_without(tiles, cand, start, target, swims)


@njit(cache=True, forceinline=True)
def still_reaches(tiles, t, start, reach_before, target, swims):
    """Once the tile `t` is gone, does `start` still reach every place of `target` (which holds
    no `t`)? `reach_before`: all that `start` reached with it. If `t` was not reached, nothing
    changes; if `t` is no start and splits nothing (`may_split`), what is reached is the same but
    for `t` (no fill: the answer for most tiles of a whole island); else what is reached after
    lies inside `reach_before` (a swim across `t` joins only tiles that were next to it), so the
    fill can stop once it has the target."""
    if not (reach_before >> t) & 1 or not ((start >> t) & 1 or may_split(tiles, t, swims)):
        return reach_before & target == target
    return covers(tiles & ~(1 << t), start, target, swims)


@njit(cache=True)
def pawn_mask(s, p):
    m = 0
    for i in range(p[P_PAWNS]):
        m |= 1 << np.int64(s[PAWN + i])
    return m


@njit(cache=True)
def kings_unseen(s, kpos):
    """Unraised Kings not yet seen face up: they lie under some face-down place."""
    n = 0
    for k in range(4):
        if kpos[k] < 0 and not (s[RAISED] >> k) & 1:
            n += 1
    return n


@njit(cache=True, forceinline=True)
def critical_places(s, kpos):
    """Places whose sinking loses the game: the helicopter and the unraised Kings of `kpos`."""
    m = 1 << CENTRE
    for k in range(4):
        if kpos[k] >= 0 and not (s[RAISED] >> k) & 1:
            m |= 1 << np.int64(kpos[k])
    return m


@njit(cache=True, forceinline=True)
def targets_mask(s, kpos, tiles, down):
    """What must stay reachable (R16): the helicopter, unraised face-up Kings and, while a King
    is unseen, every face-down place (`down`, a place mask: any of them may hide it)."""
    m = critical_places(s, kpos)
    if kings_unseen(s, kpos) > 0:
        m |= down
    return m & tiles


# The public board as place masks, read once per decision (`scan_board`): the face-down
# places, the flooded ones, and per suit the face-up places holding a land card of it.
SC_DOWN, SC_FLOODED, SC_LAND = 0, 1, 2  # SC_LAND + suit
N_SCAN = 6


assert CARD + 32 <= NSTATE and TSTATE + 32 <= NSTATE  # `scan_board` reads 32 entries from each


@njit(cache=True, forceinline=True)
def scan_board(s, kpos, sc):
    """One pass over the places: `sc` as above, and kpos[suit] the place of the face-up King of
    that suit, -1 if unknown or gone (R19: never s[KINGPOS]; the card of a place is read only
    when it is face up: every card mask is cut to the face-up places).

    Each mask is one compare of 32 entries of the state at once (`_lanes_in`; the entries past
    the 25 places are cut off): a loop over the places, and a branch per face-up card, cost
    several times more."""
    down = _lanes_in(s, TSTATE, DOWN, 1) & FULL
    up = np.int64(s[TILES]) & ~down  # tiles that are not face down: dry or flooded
    for k in range(4):
        king = _lanes_in(s, CARD, k, 1) & up
        kpos[k] = lowest_bit(king) if king else -1
        sc[SC_LAND + k] = _lanes_in(s, CARD, 4 + 5 * k, 5) & up  # the suit's land cards, 4 + 5k to 8 + 5k
    sc[SC_DOWN] = down
    sc[SC_FLOODED] = _lanes_in(s, TSTATE, FLOODED, 1) & FULL


@njit(cache=True)
def raise_discard(s, p, me, suit):
    """The cards a raise on `suit` would discard (the kernel's R12 choice), 0 if impossible."""
    return raise_discard_cards(np.int64(s[HAND + me]), in_play(s, p), np.int64(s[RAISED]), suit, p[P_CPT])


@njit(cache=True)
def raise_is_safe(s, p, me, suit):
    """A raise that does not end the game by R17 (a short raise may spend needed cards)."""
    s, p = borrowed(s), borrowed(p)
    cards = raise_discard(s, p, me, suit)
    if cards == 0:
        return False
    return not cards_short_mask(p, in_play(s, p) & ~cards, np.int64(s[RAISED]) | (1 << suit))


# CEIL_DIV[n, m] = ceil(m / n) for 0 <= m <= 5, 1 <= n <= 5: a table, since a division by a
# number known only at run time costs tens of cycles, and `turns_left` made one a gauge card
CEIL_DIV = np.array([[0] * 6] + [[(m + n - 1) // n for m in range(6)] for n in range(1, 6)], dtype=np.int64)


@njit(cache=True)
def turns_left(s, p):
    """Turns whose actions can still be played, this one included (R14: the flood that would
    remove the last gauge card ends the game). Uses only the gauge and the pile position."""
    pos = s[PILE_POS]
    g = s[GAUGE_TOP]
    glen = p[P_GLEN]
    turns = 1
    while True:  # one gauge card a pass: its turns draw n floods each (n = its rank, 1 to 5)
        n = p[P_GRANK + g]
        k = CEIL_DIV[n, 5 - pos]  # turns until this pass's fifth flood, that turn included
        if g == glen - 1:
            return turns + k - 1  # that flood would remove the last gauge card
        turns += k
        pos += k * n - 5  # the rest of that turn's floods open the next pass (fewer than n <= 5)
        g += 1


@njit(cache=True)
def hit_chance(s, place, floods):
    """Chance that `place` is hit by one of the next `floods` floods, from the public piles:
    in this pass only while its column and its row are both undrawn (R19)."""
    s = borrowed(s)
    pos = s[PILE_POS]
    m = 5 - pos
    c = place % 5 + 1
    r = place // 5 + 1
    open_now = True
    for k in range(pos):
        if s[COLP + k] == c or s[ROWP + k] == r:
            open_now = False
    if floods <= m:
        return floods / (m * m) if open_now else 0.0
    q = 1.0 / m if open_now else 0.0
    return q + (1.0 - q) * min(1.0, (floods - m) / 25.0)


@njit(cache=True, forceinline=True)
def suit_of(card):
    """The suit of a land card (4..23)."""
    return (card - 4) // 5


# --- shared pieces of the goal-directed policies (greedy, expert) --------------------------------
# The pieces a decision calls once are `forceinline`: they then cost what the code they replace
# in greedy and expert cost (without it the calls made those policies 5-8% slower).


@njit(cache=True, forceinline=True)
def my_actions_left(s, p):
    """Actions the current pawn can still play before the game ends (R14): the ones left this
    turn plus its turns still to come (from `turns_left`: the gauge and the pile position)."""
    t_left = turns_left(s, p)
    my_turns = (t_left - 1) // p[P_PAWNS] + 1
    return (my_turns - 1) * p[P_ACTIONS] + s[ACTS]


@njit(cache=True, forceinline=True)
def team_counts(s, p, me, team, mine, best_other):
    """Per suit: cards the team holds, `me` holds, and the most one other pawn holds."""
    for suit in range(4):
        held = 0
        most = 0
        for i in range(p[P_PAWNS]):
            c = popcount(s[HAND + i] & SUIT_MASK[suit])
            held += c
            most = max(most, c if i != me else 0)
        team[suit] = held
        mine[suit] = popcount(s[HAND + me] & SUIT_MASK[suit])
        best_other[suit] = most


@njit(cache=True, forceinline=True)
def suit_needs(s, p, team, need):
    """need[suit] = 1 while the team still lacks cards of that unraised, not-short suit;
    returns how many any-suit cards short suits still want (R12 short-of-a-suit raises)."""
    cpt = p[P_CPT]
    m = in_play(s, p)
    held = 0
    reserved = 0
    short_need = 0
    for suit in range(4):
        need[suit] = 0
        held += team[suit]
        if (s[RAISED] >> suit) & 1:
            continue
        if popcount(m & SUIT_MASK[suit]) < cpt:
            short_need += cpt + 1
            continue
        reserved += min(team[suit], cpt)
        if team[suit] < cpt:
            need[suit] = 1
    return max(0, short_need - (held - reserved))


@njit(cache=True)
def board_context(s, p, tiles, kpos, down, ctx):
    """ctx: the targets (R16, `targets_mask`) and the pawns; the fills are left for the accessors
    below to work out when first asked for."""
    s, p, kpos, ctx = borrowed(s), borrowed(p), borrowed(kpos), borrowed(ctx)
    ctx[CX_TARGETS] = targets_mask(s, kpos, tiles, down)
    ctx[CX_PAWNS] = pawn_mask(s, p)
    ctx[CX_REACH] = -1
    ctx[CX_HOME] = -1
    ctx[CX_WALK] = -1


@njit(cache=True, forceinline=True)
def board_walk(ctx, tiles):
    """What the helicopter reaches by moves alone (R16), kept in the `board_context` ctx."""
    if ctx[CX_WALK] < 0:
        ctx[CX_WALK] = fill_until(tiles, 1 << CENTRE, tiles, False)
    return ctx[CX_WALK]


@njit(cache=True, forceinline=True)
def board_home(ctx, tiles, swims):
    """What the helicopter reaches by moves and swims. The fills nest (walking from the
    helicopter is inside swimming from it), so while the island is one piece the walking fill
    answers both."""
    if ctx[CX_HOME] < 0:
        walk = board_walk(ctx, tiles)
        ctx[CX_HOME] = walk if walk == tiles else fill_until(tiles, walk, tiles, swims)
    return ctx[CX_HOME]


@njit(cache=True, forceinline=True)
def board_reach(ctx, tiles, swims):
    """What the pawns reach by moves and swims: a pawn in the helicopter's piece reaches all of
    it, so with one there the helicopter's fill is the start (and, for a whole island, the answer)."""
    if ctx[CX_REACH] < 0:
        pawns = ctx[CX_PAWNS]
        home = board_home(ctx, tiles, swims)
        if home & pawns:
            ctx[CX_REACH] = home if home == tiles else fill_until(tiles, pawns | home, tiles, swims)
        else:
            ctx[CX_REACH] = fill_until(tiles, pawns, tiles, swims)
    return ctx[CX_REACH]


@njit(cache=True)
def salvage_ok_in(p, tiles, t, home_reaches_all, ctx):
    """0: salvaging `t` cuts a target off (R16) or, with `home_reaches_all`, strands a target
    away from the helicopter; 1: allowed but a walking path from the helicopter to a target
    breaks; 2: fine. Tested against the `board_context` ctx of this decision."""
    p, ctx = borrowed(p), borrowed(ctx)
    swims = p[P_SWIM] <= p[P_ACTIONS]
    need = ctx[CX_TARGETS] & ~(1 << t)
    if home_reaches_all:  # from the helicopter first: with a pawn in its piece, the pawns' test is answered
        home = board_home(ctx, tiles, swims)
        if (home >> t) & 1 and (t == CENTRE or may_split(tiles, t, swims)):
            home = fill_until(tiles & ~(1 << t), 1 << CENTRE, need, swims)
        else:
            home &= ~(1 << t)  # the helicopter's piece is the same without `t`, but for `t`
        if home & need != need:
            return 0
        if not home & ctx[CX_PAWNS] and not still_reaches(tiles, t, ctx[CX_PAWNS], board_reach(ctx, tiles, swims),
                                                          need, swims):
            return 0
    elif not still_reaches(tiles, t, ctx[CX_PAWNS], board_reach(ctx, tiles, swims), need, swims):
        return 0
    walk = board_walk(ctx, tiles)
    if not still_reaches(tiles, t, 1 << CENTRE, walk, walk & need, False):
        return 1
    return 2


@njit(cache=True)
def is_bridge_in(p, tiles, t, ctx):
    """Would losing `t` break a walking path from the helicopter to a target (against the
    `board_context` ctx of this decision)?"""
    need = ctx[CX_TARGETS] & ~(1 << t)
    walk = board_walk(ctx, tiles)
    return not still_reaches(tiles, t, 1 << CENTRE, walk, walk & need, False)


@njit(cache=True, forceinline=True)
def spare_shore(s, p, legal, tiles, ctx, need, extra):
    """A shore-up for actions that would otherwise be lost, -1 if none is legal. Worth 4 for a
    bridge (`is_bridge_in`, against the `board_context` ctx), 3 for a land tile of a `need`
    suit, else 1, plus `extra[place]` (read only at the places a legal shore-up reaches); ties:
    the first of up, down, left, right, here."""
    best = -1
    best_score = 0.0
    here = s[PAWN + s[CUR]]
    for d in range(5):
        a = A_SHORE_HERE if d == 4 else A_SHORE + d
        if not (legal >> a) & 1:
            continue
        t = here if d == 4 else step(here, d, 1)
        score = 1.0
        card = s[CARD + t]
        if 4 <= card < 24 and need[suit_of(card)]:
            score = 3.0
        if is_bridge_in(p, tiles, t, ctx):
            score = 4.0
        score += extra[t]
        if score > best_score:
            best_score = score
            best = a
    return best


@njit(cache=True, forceinline=True)
def shore_critical(legal, here, crit):
    """A legal shore-up of a place of `crit` (a mask), here first, then next door; -1 if none."""
    if (legal >> A_SHORE_HERE) & 1 and (crit >> here) & 1:
        return A_SHORE_HERE
    for d in range(4):
        if (legal >> (A_SHORE + d)) & 1 and (crit >> step(here, d, 1)) & 1:
            return A_SHORE + d
    return -1


@njit(cache=True, forceinline=True)
def step_toward(s, p, legal, here, dist):
    """The legal move or swim along a shortest path in `dist` (moves first on a tie), A_END if
    none improves."""
    swim = p[P_SWIM]
    best = dist[here]
    act = A_END
    for d in range(4):
        if (legal >> (A_MOVE + d)) & 1:
            t = step(here, d, 1)
            v = 1.0 + dist[t]
            if v < best - 1e-9 or (act == A_END and v <= best + 1e-9 and v < INF):
                best = v
                act = A_MOVE + d
    for d in range(4):
        if (legal >> (A_SWIM + d)) & 1:
            t = step(here, d, 2)
            v = swim + dist[t]
            if v < best - 1e-9 or (act == A_END and v <= best + 1e-9 and v < INF):
                best = v
                act = A_SWIM + d
    return act


@njit(cache=True)
def walk_home(s, p, legal, here, tiles):
    """A step along a shortest path to the helicopter (A_END if none improves)."""
    s, p = borrowed(s), borrowed(p)
    dist = stack_empty(LANES, np.float64)
    dist_from(p, tiles, CENTRE, dist)
    return step_toward(s, p, legal, here, dist)


@njit(cache=True, forceinline=True)
def goal_worth(init, dme, u):
    """Goal u's cost: my path cost plus its worth (bonuses negative), INF if either is INF."""
    return init[u] + dme[u] if (init[u] < INF) & (dme[u] < INF) else INF


@njit(cache=True, forceinline=True)
def step_to_goal(s, p, legal, here, tiles, init, dme, level):
    """A step towards the cheapest goal of `init` (path cost plus `init`, bonuses negative);
    A_END when standing here is already the cheapest. `dme`, `level`: my path costs and the
    places at each cost (`costs_and_nearer` from here). Path costs are symmetric, so the
    cheapest goal costs min over u of init[u] + dme[u]; the step taken is the first legal move,
    then swim (up, down, left, right), that starts a shortest path to a goal of that cost, as a
    search from the goals would find: every other step costs at least one action more. Costs
    within 1e-9 count as equal.

    Which places start such a path is found walking back from those goals level by level: a
    place of cost c is on a shortest path to one of them if it is one, or if a move leads from
    it to such a place of cost c + 1, or a swim to one of cost c + P_SWIM."""
    best = least_goal_worth(init, dme)
    if not init[here] > best + 1e-9:
        return A_END
    best_goals = goals_within(init, dme, best + 1e-9)
    far = _dearest_lanes(dme, best_goals)  # the dearest of them
    swim = p[P_SWIM]
    mr, ml, md, mu = move_masks(tiles)
    sr, sl, sd, su = swim_masks(tiles)
    if swim > p[P_ACTIONS]:
        sr = sl = sd = su = 0
    if swim <= 2:
        on1 = 0  # the places on such a path at cost c + 1 and c + 2, for c from `far` down
        on2 = 0
        for c in range(far, 0, -1):
            on = level[c] & (best_goals | moves_from(on1, mr, ml, md, mu)
                             | swims_from(on1 if swim == 1 else on2, sr, sl, sd, su))
            on2 = on1
            on1 = on
        by_move = on1
        by_swim = on1 if swim == 1 else on2
    else:
        ring = stack_empty(16, np.int64)  # ring[c % 16]: the places on such a path at cost c
        for k in range(16):
            ring[k] = 0
        for c in range(far, 0, -1):
            ring[c & 15] = level[c] & (best_goals | moves_from(ring[(c + 1) & 15], mr, ml, md, mu)
                                       | swims_from(ring[(c + swim) & 15], sr, sl, sd, su))
        by_move = ring[1]
        by_swim = ring[swim]
    for d in range(4):
        if (legal >> (A_MOVE + d)) & 1 and (by_move >> NEIGHBOUR[here, d]) & 1:
            return A_MOVE + d
    for d in range(4):
        if (legal >> (A_SWIM + d)) & 1 and (by_swim >> NEIGHBOUR2[here, d]) & 1:
            return A_SWIM + d
    return A_END


@njit(cache=True, forceinline=True)
def give_here(s, p, legal, me, mine, complete_sets):
    """R11: a give of an unraised suit to a pawn on my place that holds more of it than my
    `mine[suit]` (ties: the lower index); with `complete_sets` also one that lets that pawn
    complete the treasure. -1 if none."""
    if not s[HAND + me]:
        return -1
    here = s[PAWN + me]
    cpt = p[P_CPT]
    raised = s[RAISED]
    for other in range(p[P_PAWNS]):
        if other == me or s[PAWN + other] != here:
            continue
        for suit in range(4):
            a = A_GIVE + 4 * other + suit
            if not (legal >> a) & 1 or (raised >> suit) & 1:
                continue
            theirs = popcount(s[HAND + other] & SUIT_MASK[suit])
            if theirs > mine[suit] or (theirs == mine[suit] and other < me):
                return a
            if complete_sets and 0 < theirs < cpt and mine[suit] < cpt and theirs + mine[suit] >= cpt:
                return a  # it is my turn: I give, the other pawn completes the set
    return -1


@njit(cache=True, forceinline=True)
def salvage_next_door(s, p, legal, tiles, ctx, collect, any_need, cut, home_reaches_all):
    """R10: the best legal salvage of a next-door land tile of a suit I collect (`collect[suit]`)
    or, while short suits want any card (`any_need`), of any suit: never one that cuts a target
    off (`salvage_ok_in`, against the `board_context` ctx), edge tiles first, `cut` off for
    breaking a walking path home. -1 if none."""
    here = s[PAWN + s[CUR]]
    best = -1
    best_score = -1e9
    dirs = (legal >> A_SALVAGE) & 15  # the legal salvages, up, down, left, right: most decisions have none
    while dirs:
        d = lowest_bit(dirs)
        dirs &= dirs - 1
        t = step(here, d, 1)
        suit = suit_of(s[CARD + t])  # face up: salvage is legal only of face-up tiles
        if not (collect[suit] or any_need > 0):
            continue
        ok = salvage_ok_in(p, tiles, t, home_reaches_all, ctx)
        if ok == 0:
            continue
        score = -tile_degree(tiles, t) - (cut if ok == 1 else 0.0)
        if collect[suit]:
            score += 10.0
        if score > best_score:
            best_score = score
            best = A_SALVAGE + d
    return best


@njit(cache=True, forceinline=True)
def goal_next_door(place, tiles, init, bonus):
    """Standing on a tile next to `place` is a goal worth `bonus`."""
    for d in range(4):
        t = step(place, d, 1)
        if t >= 0 and (tiles >> t) & 1:
            init[t] = min(init[t], -bonus)


@njit(cache=True, forceinline=True)
def raise_goals(s, p, me, kpos, init, bonus):
    """The known unraised Kings `me` can raise on arrival (R12) are goals worth `bonus`."""
    cpt = p[P_CPT]
    hand = np.int64(s[HAND + me])
    for suit in range(4):
        k = kpos[suit]
        if k >= 0 and not (s[RAISED] >> suit) & 1:
            if popcount(hand & SUIT_MASK[suit]) >= cpt or raise_is_safe(s, p, me, suit):
                init[k] = min(init[k], -bonus)


@njit(cache=True, forceinline=True)
def nearest_side(place, tiles, dme):
    """My path cost (`dme`) to `place` or to its nearest tile neighbour: where I can shore it up from."""
    near = dme[place]
    for d in range(4):
        t = step(place, d, 1)
        if t >= 0 and (tiles >> t) & 1 and dme[t] < near:
            near = dme[t]
    return near


@njit(cache=True, forceinline=True)
def next_door_worth(place, tiles, dme, value):
    """The cheapest `goal_worth` that goals of `value` on the tile neighbours of `place` would
    have (INF if I reach none)."""
    best = INF
    for d in range(4):
        t = step(place, d, 1)
        if t >= 0 and (tiles >> t) & 1 and dme[t] < INF:
            best = min(best, value + dme[t])
    return best


@njit(cache=True, forceinline=True)
def save_goal(place, tiles, dme, left, init, bonus_now, bonus_far):
    """A flooded place that loses the game when it sinks: it and its tile neighbours are goals,
    worth `bonus_now` if I can shore it up this turn (`left` actions, `dme` my path costs)."""
    bonus = bonus_now if nearest_side(place, tiles, dme) + 1 <= left else bonus_far
    init[place] = min(init[place], -bonus)
    goal_next_door(place, tiles, init, bonus)


@njit(cache=True, forceinline=True)
def may_hide_face_down(s, p, kpos, team, collect, any_need, sc):
    """A King or a card I collect may still lie face down: a King unseen, short suits wanting any
    card, or fewer cards of a `collect` suit in sight (face up, in hands) than in play (R12;
    sc: `scan_board`)."""
    if kings_unseen(s, kpos) > 0 or any_need > 0:
        return True
    isl = in_play(s, p)
    for suit in range(4):
        if collect[suit]:
            if popcount(isl & SUIT_MASK[suit]) - team[suit] - popcount(sc[SC_LAND + suit]) > 0:
                return True
    return False


@njit(cache=True, forceinline=True)
def explore_goals(places, init, nearer, bonus, spread):
    """The places of the mask `places` are goals worth `bonus`, `spread` less where another pawn
    is nearer (the mask `nearer`, from `costs_and_nearer`); `init` has LANES entries. One vector
    select: a loop over the places branched on each `nearer` bit, which real play makes a coin
    toss."""
    _lower_lanes(init, places, nearer, -bonus, -(bonus - spread))


@njit(cache=True, forceinline=True)
def home_goal(init, budget, dme, margin, collect_bonus, explore_bonus):
    """The helicopter is always a goal; it outranks collecting and exploring once my actions
    left (`budget`) minus the walk home are at most `margin`."""
    home = 0.0
    if budget - dme[CENTRE] <= margin:
        home = -max(collect_bonus, explore_bonus) - 1.0
    init[CENTRE] = min(init[CENTRE], home)
