"""Search helpers for the goal-directed policies: distances, reachability, the flood clock.

Everything here reads only public information (R19): tile states, face-up cards, pawns,
salvage, raised treasures, the gauge and the pile cards already drawn in this pass. Nothing
reads `s[CARD + i]` of a face-down place, the undrawn pile cards or `s[KINGPOS]`.
Places are indexed `(row - 1) * 5 + (column - 1)`; bit `i` of a place mask is place `i`.
"""

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array

from sim.layout import (
    CARD,
    CENTRE,
    COLP,
    DIR_DC,
    DIR_DR,
    DOWN,
    FULL,
    GAUGE_TOP,
    HAND,
    ISLAND_LAND,
    NOT_FIRST_COL,
    NOT_LAST_COL,
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
    SEA,
    SUIT_MASK,
    TILES,
    TSTATE,
    popcount,
    raise_discard_cards,
)

INF = 1e9


@intrinsic
def stack_empty(typingctx, n, dtype):
    """`np.empty(n, dtype)` on the stack of the calling function: per-decision scratch with no
    heap allocation and no reference count. `n` must be a constant. The array lives until the
    function that called `stack_empty` returns: pass it down, never return it or keep it.
    A call site inside a loop reuses the same memory on every pass.
    """
    if not isinstance(n, types.IntegerLiteral) or not isinstance(dtype, (types.NumberClass, types.DType)):
        return None
    size = n.literal_value
    arrty = types.Array(dtype.dtype, 1, "C")

    def codegen(context, builder, signature, args):
        elem = context.get_data_type(dtype.dtype)
        itemsize = context.get_abi_sizeof(elem)
        ary = context.make_array(arrty)(context, builder)
        populate_array(ary, data=cgutils.alloca_once(builder, elem, size=size),
                       shape=[context.get_constant(types.intp, size)],
                       strides=[context.get_constant(types.intp, itemsize)],
                       itemsize=context.get_constant(types.intp, itemsize), meminfo=None)
        return ary._getvalue()

    return arrty(n, dtype), codegen


@njit(cache=True)
def fill(a, value):
    """Every entry of `a` set to `value`; returns `a` (for `fill(stack_empty(25, np.float64), INF)`)."""
    for i in range(a.shape[0]):
        a[i] = value
    return a


@njit(cache=True)
def step(place, d, times):
    """The place `times` steps from `place` in direction d (up, down, left, right), -1 off the island."""
    c = place % 5 + DIR_DC[d] * times
    r = place // 5 + DIR_DR[d] * times
    if c < 0 or c > 4 or r < 0 or r > 4:
        return -1
    return r * 5 + c


@njit(cache=True)
def tile_degree(tiles, place):
    """Orthogonal neighbours of `place` that are tiles in the place mask `tiles`."""
    n = 0
    for d in range(4):
        t = step(place, d, 1)
        if t >= 0 and (tiles >> t) & 1:
            n += 1
    return n


@njit(cache=True)
def distances(p, tiles, init, dist):
    """Multi-source Dijkstra over the tiles of `tiles` (R7 moves cost 1, R8 swims P_SWIM).

    `init[i]` is the starting cost of place i (INF if it is no source); `dist` receives
    min over sources of init + path cost. Moves and swims are symmetric, so this is also the
    cost to *reach* the cheapest source.
    """
    swim = p[P_SWIM]
    can_swim = swim <= p[P_ACTIONS]
    done = 0  # place mask of settled places
    for i in range(25):
        dist[i] = init[i] if (tiles >> i) & 1 else INF
    for _ in range(25):
        u = -1
        best = INF
        for i in range(25):
            if not (done >> i) & 1 and dist[i] < best:
                best = dist[i]
                u = i
        if u < 0:
            break
        done |= 1 << u
        for d in range(4):
            v = step(u, d, 1)
            if v < 0:
                continue
            if (tiles >> v) & 1:
                if best + 1.0 < dist[v]:
                    dist[v] = best + 1.0
            elif can_swim:
                w = step(u, d, 2)
                if w >= 0 and (tiles >> w) & 1 and best + swim < dist[w]:
                    dist[w] = best + swim


@njit(cache=True)
def dist_from(p, tiles, src, dist):
    init = fill(stack_empty(25, np.float64), INF)
    init[src] = 0.0
    distances(p, tiles, init, dist)


@njit(cache=True)
def reach_mask(p, tiles, start, swims):
    """Places reached from the place mask `start` over `tiles` (bitboard fill, R16)."""
    sea = FULL & ~tiles
    reach = start & tiles
    while True:
        new = reach
        new |= ((reach & NOT_LAST_COL) << 1) & tiles
        new |= ((reach & NOT_FIRST_COL) >> 1) & tiles
        new |= (reach << 5) & tiles
        new |= (reach >> 5) & tiles
        if swims:
            m = ((reach & NOT_LAST_COL) << 1) & sea
            new |= ((m & NOT_LAST_COL) << 1) & tiles
            m = ((reach & NOT_FIRST_COL) >> 1) & sea
            new |= ((m & NOT_FIRST_COL) >> 1) & tiles
            m = (reach << 5) & sea
            new |= (m << 5) & tiles
            m = (reach >> 5) & sea
            new |= (m >> 5) & tiles
        new &= FULL
        if new == reach:
            return reach
        reach = new


@njit(cache=True)
def pawn_mask(s, p):
    m = 0
    for i in range(p[P_PAWNS]):
        m |= 1 << np.int64(s[PAWN + i])
    return m


@njit(cache=True)
def face_up_kings(s, kpos):
    """kpos[suit] = place of the face-up King of that suit, -1 if unknown or gone (never KINGPOS)."""
    for k in range(4):
        kpos[k] = -1
    for place in range(25):
        st = s[TSTATE + place]
        if st != DOWN and st != SEA:
            card = s[CARD + place]
            if 0 <= card < 4:
                kpos[card] = place


@njit(cache=True)
def kings_unseen(s, kpos):
    """Unraised Kings not yet seen face up: they lie under some face-down place."""
    n = 0
    for k in range(4):
        if kpos[k] < 0 and not (s[RAISED] >> k) & 1:
            n += 1
    return n


@njit(cache=True)
def targets_mask(s, kpos, tiles):
    """What must stay reachable (R16): the helicopter, unraised face-up Kings and, while a King
    is unseen, every face-down place (any of them may hide it)."""
    m = 1 << CENTRE
    for k in range(4):
        if kpos[k] >= 0 and not (s[RAISED] >> k) & 1:
            m |= 1 << np.int64(kpos[k])
    if kings_unseen(s, kpos) > 0:
        for place in range(25):
            if s[TSTATE + place] == DOWN:
                m |= 1 << place
    return m & tiles


@njit(cache=True)
def in_play(s, p):
    """R12: land cards on the island or in a salvage (public: every card that left was seen)."""
    m = np.int64(s[ISLAND_LAND])
    for i in range(p[P_PAWNS]):
        m |= s[HAND + i]
    return m


@njit(cache=True)
def cards_short_after(s, p, m, raised):
    """R17 with the cards in play `m` and raised suits `raised`."""
    cpt = p[P_CPT]
    reserved = 0
    short = 0
    for suit in range(4):
        if (raised >> suit) & 1:
            continue
        if popcount(m & SUIT_MASK[suit]) >= cpt:
            reserved += cpt
        else:
            short += 1
    return popcount(m) - reserved < (cpt + 1) * short


@njit(cache=True)
def raise_discard(s, p, me, suit):
    """The cards a raise on `suit` would discard (the kernel's R12 choice), 0 if impossible."""
    return raise_discard_cards(np.int64(s[HAND + me]), in_play(s, p), np.int64(s[RAISED]), suit, p[P_CPT])


@njit(cache=True)
def raise_is_safe(s, p, me, suit):
    """A raise that does not end the game by R17 (a short raise may spend needed cards)."""
    cards = raise_discard(s, p, me, suit)
    if cards == 0:
        return False
    return not cards_short_after(s, p, in_play(s, p) & ~cards, np.int64(s[RAISED]) | (1 << suit))


@njit(cache=True)
def turns_left(s, p):
    """Turns whose actions can still be played, this one included (R14: the flood that would
    remove the last gauge card ends the game). Uses only the gauge and the pile position."""
    pos = s[PILE_POS]
    g = s[GAUGE_TOP]
    glen = p[P_GLEN]
    turns = 1
    while True:
        n = p[P_GRANK + g]
        for _ in range(n):
            pos += 1
            if pos == 5:
                if g == glen - 1:
                    return turns
                g += 1
                pos = 0
        turns += 1


@njit(cache=True)
def hit_chance(s, place, floods):
    """Chance that `place` is hit by one of the next `floods` floods, from the public piles:
    in this pass only while its column and its row are both undrawn (R19)."""
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


@njit(cache=True)
def sea_place(s, place):
    return s[TSTATE + place] == SEA


@njit(cache=True)
def tiles_of(s):
    return np.int64(s[TILES])
