"""Search helpers for the goal-directed policies: distances, reachability, the flood clock, and
the decision pieces that greedy and expert share (needs, gives, salvage, goals, spare shore-ups).

Everything here reads only public information (R19): tile states, face-up cards, pawns,
salvage, raised treasures, the gauge and the pile cards already drawn in this pass. Nothing
reads `s[CARD + i]` of a face-down place, the undrawn pile cards or `s[KINGPOS]`.
Places are indexed `(row - 1) * 5 + (column - 1)`; bit `i` of a place mask is place `i`.
"""

import numpy as np
from numba import njit

from policies.stack import stack_empty
from sim.layout import (
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
    DRY,
    FLOODED,
    FULL,
    GAUGE_TOP,
    HAND,
    NEIGHBOUR,
    NEIGHBOUR2,
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
    cards_short_mask,
    grow_reach,
    in_play,
    popcount,
    raise_discard_cards,
)

INF = 1e9


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


# lowest_bit's table: de Bruijn sequence 0x077CB531 (bit scan without a loop).
_DEBRUIJN = np.array([0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
                      31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9], dtype=np.int64)


@njit(cache=True, forceinline=True)
def lowest_bit(m):
    """The index of the lowest set bit of a non-zero mask below 2**32."""
    return _DEBRUIJN[(((m & -m) * 0x077CB531) & 0xFFFFFFFF) >> 27]


@njit(cache=True)
def distances(p, tiles, init, dist):
    """Multi-source Dijkstra over the tiles of `tiles` (R7 moves cost 1, R8 swims P_SWIM).

    `init[i]` is the starting cost of place i (INF if it is no source); `dist` receives
    min over sources of init + path cost. Moves and swims are symmetric, so this is also the
    cost to *reach* the cheapest source.
    """
    distances_until(p, tiles, init, dist, FULL)


@njit(cache=True)
def distances_until(p, tiles, init, dist, wanted):
    """`distances`, stopping once every place of the mask `wanted` is settled: their `dist` is
    then final (the others may be too high). The open places are kept as a bit mask, so a step
    scans only them; the least is taken, the lowest place on ties, and costs add up move by
    move, as a plain O(25^2) Dijkstra does - the same numbers to the last bit.
    """
    swim = p[P_SWIM]
    can_swim = swim <= p[P_ACTIONS]
    todo = wanted & tiles
    open_ = 0
    for i in range(25):
        if (tiles >> i) & 1:
            dist[i] = init[i]
            if init[i] < INF:
                open_ |= 1 << i
        else:
            dist[i] = INF
    while open_ and todo:
        m = open_
        u = lowest_bit(m)
        best = dist[u]
        m &= m - 1
        while m:
            i = lowest_bit(m)
            m &= m - 1
            if dist[i] < best:
                best = dist[i]
                u = i
        open_ &= ~(1 << u)
        todo &= ~(1 << u)
        for d in range(4):
            v = NEIGHBOUR[u, d]
            if v < 0:
                continue
            if (tiles >> v) & 1:
                if best + 1.0 < dist[v]:
                    dist[v] = best + 1.0
                    open_ |= 1 << v
            elif can_swim:
                w = NEIGHBOUR2[u, d]
                if w >= 0 and (tiles >> w) & 1 and best + swim < dist[w]:
                    dist[w] = best + swim
                    open_ |= 1 << w


@njit(cache=True, forceinline=True)
def move_neighbours(m, tiles):
    """The tiles one move (R7) from a place of the mask `m`."""
    return (((m & NOT_LAST_COL) << 1) | ((m & NOT_FIRST_COL) >> 1) | (m << 5) | (m >> 5)) & tiles


@njit(cache=True, forceinline=True)
def swim_neighbours(m, tiles):
    """The tiles one swim (R8: across exactly one sea place) from a place of the mask `m`."""
    sea = FULL & ~tiles
    out = (((m & NOT_LAST_COL) << 1) & sea & NOT_LAST_COL) << 1
    out |= (((m & NOT_FIRST_COL) >> 1) & sea & NOT_FIRST_COL) >> 1
    out |= ((m << 5) & sea) << 5
    out |= ((m >> 5) & sea) >> 5
    return out & tiles


@njit(cache=True)
def path_costs(p, tiles, sources, dist):
    """`dist`: path cost (R7 moves 1, R8 swims P_SWIM) from the nearest place of the mask
    `sources`, INF where no path leads. The same numbers as `distances` from sources of cost 0,
    found level by level on bit masks (Dial's buckets: the places first reached at cost d, from
    those at d - 1 by a move and d - P_SWIM by a swim), without scanning for a minimum.
    """
    swim = p[P_SWIM]
    can_swim = swim <= p[P_ACTIONS]  # rules allow P_SWIM <= 12 < 16, the ring's size
    for i in range(25):
        dist[i] = INF
    ring = stack_empty(16, np.int64)  # ring[d % 16]: places first reached at cost d
    for k in range(16):
        ring[k] = 0
    ring[0] = sources & tiles
    settled = 0
    last = 0
    d = 0
    while d <= last:
        cur = ring[d & 15] & ~settled
        ring[d & 15] = 0
        if cur:
            settled |= cur
            m = cur
            while m:
                dist[lowest_bit(m)] = d
                m &= m - 1
            nxt = move_neighbours(cur, tiles) & ~settled
            if nxt:
                ring[(d + 1) & 15] |= nxt
                last = max(last, d + 1)
            if can_swim:
                nxt = swim_neighbours(cur, tiles) & ~settled
                if nxt:
                    ring[(d + swim) & 15] |= nxt
                    last = max(last, d + swim)
        d += 1


@njit(cache=True)
def dist_from(p, tiles, src, dist):
    path_costs(p, tiles, np.int64(1) << src, dist)


@njit(cache=True)
def reach_mask(p, tiles, start, swims):
    """Places reached from the place mask `start` over `tiles` (bitboard fill, R16)."""
    reach = start & tiles
    while True:
        new = grow_reach(reach, tiles, swims)
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


@njit(cache=True, forceinline=True)
def critical_places(s, kpos):
    """Places whose sinking loses the game: the helicopter and the unraised Kings of `kpos`."""
    m = 1 << CENTRE
    for k in range(4):
        if kpos[k] >= 0 and not (s[RAISED] >> k) & 1:
            m |= 1 << np.int64(kpos[k])
    return m


@njit(cache=True)
def targets_mask(s, kpos, tiles):
    """What must stay reachable (R16): the helicopter, unraised face-up Kings and, while a King
    is unseen, every face-down place (any of them may hide it)."""
    m = critical_places(s, kpos)
    if kings_unseen(s, kpos) > 0:
        for place in range(25):
            if s[TSTATE + place] == DOWN:
                m |= 1 << place
    return m & tiles


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
    return not cards_short_mask(p, in_play(s, p) & ~cards, np.int64(s[RAISED]) | (1 << suit))


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


@njit(cache=True, forceinline=True)
def face_down_places(s):
    """The place mask of the face-down places."""
    m = 0
    for place in range(25):
        if s[TSTATE + place] == DOWN:
            m |= 1 << place
    return m


@njit(cache=True, forceinline=True)
def suit_of(card):
    """The suit of a land card (4..23)."""
    return (card - 4) // 5


# --- shared pieces of the goal-directed policies (greedy, expert) --------------------------------
# The pieces a decision calls once are `forceinline`: they then cost what the code they replace
# in greedy and expert cost (without it the calls made those policies 5-8% slower).


@njit(cache=True, forceinline=True)
def dist_from_others(s, p, me, tiles, dist):
    """`dist`: path cost from the nearest pawn other than `me` (INF with no other pawn)."""
    others = 0
    for i in range(p[P_PAWNS]):
        if i != me:
            others |= np.int64(1) << s[PAWN + i]
    path_costs(p, tiles, others, dist)


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
        team[suit] = 0
        mine[suit] = 0
        best_other[suit] = 0
        for i in range(p[P_PAWNS]):
            c = popcount(s[HAND + i] & SUIT_MASK[suit])
            team[suit] += c
            if i == me:
                mine[suit] = c
            elif c > best_other[suit]:
                best_other[suit] = c


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
def salvage_keeps_targets(s, p, tiles, kpos, t):
    """R16 on a copy of the tile mask: after salvaging `t` every pawn still reaches every target."""
    after = tiles & ~(1 << t)
    need = targets_mask(s, kpos, after)
    return reach_mask(p, after, pawn_mask(s, p), p[P_SWIM] <= p[P_ACTIONS]) & need == need


# The board facts that `salvage_ok_in` and `is_bridge_in` test each candidate place against,
# found once per decision (slots of a 5-entry int64 array, `board_context`).
CX_TARGETS, CX_PAWNS, CX_REACH, CX_HOME, CX_WALK = 0, 1, 2, 3, 4
N_CONTEXT = 5


@njit(cache=True)
def board_context(s, p, tiles, kpos, ctx):
    """ctx: the targets (R16, `targets_mask`), the pawns, what the pawns reach by moves and swims,
    what the helicopter reaches by moves and swims, and by moves alone."""
    swims = p[P_SWIM] <= p[P_ACTIONS]
    pawns = pawn_mask(s, p)
    ctx[CX_TARGETS] = targets_mask(s, kpos, tiles)
    ctx[CX_PAWNS] = pawns
    ctx[CX_REACH] = reach_mask(p, tiles, pawns, swims)
    ctx[CX_HOME] = reach_mask(p, tiles, 1 << CENTRE, swims)
    ctx[CX_WALK] = reach_mask(p, tiles, 1 << CENTRE, False)


@njit(cache=True)
def reach_without(p, tiles, t, start, reach_before, swims):
    """What `start` reaches once the tile `t` is gone, knowing what it reached before: unchanged
    if `t` was not reached (then no reached place is next to it, so no new swim across it opens
    either), else a new fill."""
    if not (reach_before >> t) & 1:
        return reach_before
    return reach_mask(p, tiles & ~(1 << t), start, swims)


@njit(cache=True)
def salvage_ok_in(p, tiles, t, home_reaches_all, ctx):
    """`salvage_ok` against the `board_context` of this decision."""
    swims = p[P_SWIM] <= p[P_ACTIONS]
    need = ctx[CX_TARGETS] & ~(1 << t)
    if reach_without(p, tiles, t, ctx[CX_PAWNS], ctx[CX_REACH], swims) & need != need:
        return 0
    if home_reaches_all and reach_without(p, tiles, t, 1 << CENTRE, ctx[CX_HOME], swims) & need != need:
        return 0
    walk_before = ctx[CX_WALK] & need
    walk_after = reach_without(p, tiles, t, 1 << CENTRE, ctx[CX_WALK], False) & need
    if walk_after != walk_before:
        return 1
    return 2


@njit(cache=True, forceinline=True)
def salvage_ok(s, p, tiles, kpos, t, home_reaches_all):
    """0: salvaging `t` cuts a target off (R16) or, with `home_reaches_all`, strands a target
    away from the helicopter; 1: allowed but a walking path from the helicopter breaks; 2: fine."""
    ctx = stack_empty(N_CONTEXT, np.int64)
    board_context(s, p, tiles, kpos, ctx)
    return salvage_ok_in(p, tiles, t, home_reaches_all, ctx)


@njit(cache=True)
def is_bridge_in(p, tiles, t, ctx):
    """`is_bridge` against the `board_context` of this decision."""
    need = ctx[CX_TARGETS] & ~(1 << t)
    return (reach_without(p, tiles, t, 1 << CENTRE, ctx[CX_WALK], False) & need) != ctx[CX_WALK] & need


@njit(cache=True)
def is_bridge(s, p, tiles, kpos, t):
    """Would losing `t` break a walking path from the helicopter to a target?"""
    after = tiles & ~(1 << t)
    need = targets_mask(s, kpos, after)
    before = reach_mask(p, tiles, 1 << CENTRE, False) & need
    return (reach_mask(p, after, 1 << CENTRE, False) & need) != before


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
    dist = stack_empty(25, np.float64)
    dist_from(p, tiles, CENTRE, dist)
    return step_toward(s, p, legal, here, dist)


@njit(cache=True, forceinline=True)
def step_to_goal(s, p, legal, here, tiles, init, dist):
    """A step towards the cheapest goal of `init` (path cost plus `init`, bonuses negative);
    A_END when standing here is already the cheapest. Only the costs of here and of the places
    a legal move or swim reaches are read, so the search stops once those are settled."""
    wanted = np.int64(1) << here
    for d in range(4):
        if (legal >> (A_MOVE + d)) & 1:
            wanted |= np.int64(1) << NEIGHBOUR[here, d]
        if (legal >> (A_SWIM + d)) & 1:
            wanted |= np.int64(1) << NEIGHBOUR2[here, d]
    distances_until(p, tiles, init, dist, wanted)
    if init[here] > dist[here] + 1e-9:
        return step_toward(s, p, legal, here, dist)
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
    for d in range(4):
        if not (legal >> (A_SALVAGE + d)) & 1:
            continue
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
def save_goal(place, tiles, dme, left, init, bonus_now, bonus_far):
    """A flooded place that loses the game when it sinks: it and its tile neighbours are goals,
    worth `bonus_now` if I can shore it up this turn (`left` actions, `dme` my path costs)."""
    near = dme[place]
    for d in range(4):
        t = step(place, d, 1)
        if t >= 0 and (tiles >> t) & 1 and dme[t] < near:
            near = dme[t]
    bonus = bonus_now if near + 1 <= left else bonus_far
    init[place] = min(init[place], -bonus)
    goal_next_door(place, tiles, init, bonus)


@njit(cache=True, forceinline=True)
def may_hide_face_down(s, p, kpos, team, collect, any_need):
    """A King or a card I collect may still lie face down: a King unseen, short suits wanting any
    card, or fewer cards of a `collect` suit in sight (face up, in hands) than in play (R12)."""
    if kings_unseen(s, kpos) > 0 or any_need > 0:
        return True
    isl = in_play(s, p)
    for suit in range(4):
        if collect[suit]:
            hidden = popcount(isl & SUIT_MASK[suit]) - team[suit]
            for place in range(25):
                st = s[TSTATE + place]
                if st == DRY or st == FLOODED:
                    card = s[CARD + place]
                    if 4 <= card < 24 and suit_of(card) == suit:
                        hidden -= 1
            if hidden > 0:
                return True
    return False


@njit(cache=True, forceinline=True)
def explore_goals(places, init, dme, dother, bonus, spread):
    """The places of the mask `places` are goals worth `bonus`, `spread` less where another pawn
    is nearer (`dother` < `dme`)."""
    for place in range(25):
        if (places >> place) & 1:
            b = bonus
            if dother[place] < dme[place]:
                b -= spread
            init[place] = min(init[place], -b)


@njit(cache=True, forceinline=True)
def home_goal(init, budget, dme, margin, collect_bonus, explore_bonus):
    """The helicopter is always a goal; it outranks collecting and exploring once my actions
    left (`budget`) minus the walk home are at most `margin`."""
    home = 0.0
    if budget - dme[CENTRE] <= margin:
        home = -max(collect_bonus, explore_bonus) - 1.0
    init[CENTRE] = min(init[CENTRE], home)
