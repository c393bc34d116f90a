"""`greedy`: a goal-directed policy that plays one action at a time from public information.

Each action it takes the first of these that applies:

1. take off (R13);
2. raise the treasure it stands on (R12; a short-of-a-suit raise only if R17 still holds);
3. shore up a flooded unraised King or the helicopter, here or next to it (R9);
4. once all four treasures are raised: walk home to the helicopter;
5. give a suit to a pawn on the same place that holds more of it (R11; ties: lower index);
6. salvage a next-door face-up land tile of a suit the team still needs (R10), preferring edge
   places, never one that cuts a King, the helicopter or (while a King is unseen) a face-down
   place off (R16), and keeping walking paths where it can;
7. otherwise walk (or swim) one step along a shortest path to the best goal, goals being
   scored by path cost minus a bonus: the King it can raise, a flooded King or helicopter to
   save, a place next to a needed land tile, a face-down place to explore (while Kings or
   needed cards may hide there), and the helicopter: the default goal of an idle pawn, and
   ahead of collecting and exploring once this pawn's own remaining actions (the gauge and the
   pile position tell exactly how many turns are left, R14) barely cover the walk home;
8. at its goal with actions to spare: shore up next-door flooded tiles, then end the turn.

Suits are collected by one pawn each: a pawn salvages a suit only if no other pawn holds more
of it, so treasures are rarely split between pawns and gives stay rare.

Fairness (R19): it never reads the card of a face-down place, the undrawn column and row
cards or `s[KINGPOS]` (Kings are found by scanning face-up places); all of that goes through
policies/_search.py. It is deterministic and draws nothing from the policy stream.

Tunable weights in `pp` (0 means the default): see `_weights`.

It allocates nothing on the heap: per-decision arrays live on the stack (`stack_empty`).
"""

import numpy as np
from numba import njit

from policies._search import (
    INF,
    distances,
    face_up_kings,
    fill,
    in_play,
    kings_unseen,
    pawn_mask,
    raise_is_safe,
    reach_mask,
    stack_empty,
    step,
    targets_mask,
    tile_degree,
    turns_left,
)
from sim.layout import (
    A_END,
    A_GIVE,
    A_MOVE,
    A_RAISE,
    A_SALVAGE,
    A_SHORE,
    A_SHORE_HERE,
    A_SWIM,
    A_TAKEOFF,
    ACTS,
    CARD,
    CENTRE,
    CUR,
    DOWN,
    DRY,
    FLOODED,
    HAND,
    P_ACTIONS,
    P_CPT,
    P_PAWNS,
    P_SWIM,
    PAWN,
    RAISED,
    SEA,
    SUIT_MASK,
    TILES,
    TSTATE,
    popcount,
)

DESCRIPTION = "goal-directed: raise, save Kings, salvage needed suits from the edge, explore, go home"

# pp slots and their defaults (a zero in pp means "use the default"). Goal bonuses are in
# actions: a goal is worth walking that many extra actions for.
#   W_RAISE     a King this pawn can raise
#   W_SAVE      a flooded unraised King or helicopter it can shore up this turn
#   W_COLLECT   a place next to a needed land tile it may salvage
#   W_EXPLORE   a face-down place (while Kings or needed cards may hide face down)
#   W_SPREAD    taken off W_EXPLORE when another pawn is nearer that place
#   W_HOME      home turns urgent when my remaining actions minus the walk home <= this
#   W_CUT       penalty for a salvage that breaks a walking path from the helicopter
#   W_SAVE_FAR  W_SAVE for a flooded King or helicopter out of reach this turn
# Tuned on Normal, 2 and 3 players, and 3 cards a treasure (8,000 games each): the result is
# flat around these values except W_EXPLORE (keep it above W_COLLECT) and W_HOME (larger
# margins send pawns home too early and lose to the water).
W_RAISE, W_SAVE, W_COLLECT, W_EXPLORE, W_SPREAD, W_HOME, W_CUT, W_SAVE_FAR = range(8)
N_WEIGHTS = 8
DEFAULTS = np.array([10.0, 8.0, 3.0, 5.0, 1.0, 0.5, 2.0, 3.0])


@njit(cache=True)
def _weights(pp, w):
    """w[k] = pp[k], or its default where pp has no slot k or holds a zero."""
    for k in range(DEFAULTS.shape[0]):
        w[k] = pp[k] if k < pp.shape[0] and pp[k] != 0.0 else DEFAULTS[k]


@njit(cache=True)
def _suit_of(card):
    return (card - 4) // 5


@njit(cache=True)
def _needs(s, p, me, collect):
    """collect[suit] = 1 if `me` should salvage land tiles of that suit; returns the number of
    extra any-suit cards still wanted for short suits (R12 short-of-a-suit raises)."""
    cpt = p[P_CPT]
    npawns = p[P_PAWNS]
    raised = s[RAISED]
    m = in_play(s, p)
    held_total = 0
    reserved = 0
    short_need = 0
    for suit in range(4):
        collect[suit] = 0
        team = 0
        mine = 0
        other = 0
        for i in range(npawns):
            c = popcount(s[HAND + i] & SUIT_MASK[suit])
            team += c
            if i == me:
                mine = c
            elif c > other:
                other = c
        held_total += team
        if (raised >> suit) & 1:
            continue
        if popcount(m & SUIT_MASK[suit]) < cpt:
            short_need += cpt + 1
            continue
        reserved += min(team, cpt)
        if team < cpt and mine >= other:
            collect[suit] = 1
    spare = held_total - reserved
    return max(0, short_need - spare)


@njit(cache=True)
def _salvage_ok(s, p, tiles, kpos, t):
    """R16 check on a copy of the tile mask: after salvaging `t` every target stays reachable.
    Returns 0 if not allowed, 1 if allowed but walking paths from the helicopter break, 2 if fine."""
    swims = p[P_SWIM] <= p[P_ACTIONS]
    after = tiles & ~(1 << t)
    need = targets_mask(s, kpos, after)
    if reach_mask(p, after, pawn_mask(s, p), swims) & need != need:
        return 0
    walk_before = reach_mask(p, tiles, 1 << CENTRE, False) & need
    walk_after = reach_mask(p, after, 1 << CENTRE, False) & need
    if walk_after != walk_before:
        return 1
    return 2


@njit(cache=True)
def _is_bridge(s, p, tiles, kpos, t):
    """Would losing `t` break a walking path from the helicopter to a target?"""
    after = tiles & ~(1 << t)
    need = targets_mask(s, kpos, after)
    before = reach_mask(p, tiles, 1 << CENTRE, False) & need
    return (reach_mask(p, after, 1 << CENTRE, False) & need) != before


@njit(cache=True)
def _critical(s, kpos):
    """Places whose sinking loses the game: the helicopter and unraised face-up Kings."""
    m = 1 << CENTRE
    for k in range(4):
        if kpos[k] >= 0 and not (s[RAISED] >> k) & 1:
            m |= 1 << np.int64(kpos[k])
    return m


@njit(cache=True)
def _step_toward(s, p, legal, here, dist):
    """The legal move or swim along a shortest path in `dist`, A_END if none improves."""
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
def _spare_shore(s, p, legal, tiles, kpos, collect):
    """A shore-up for actions that would otherwise be lost: bridges and needed tiles first."""
    best = -1
    best_score = 0
    for d in range(5):
        a = A_SHORE_HERE if d == 4 else A_SHORE + d
        if not (legal >> a) & 1:
            continue
        t = s[PAWN + s[CUR]] if d == 4 else step(s[PAWN + s[CUR]], d, 1)
        score = 1
        card = s[CARD + t]
        if 4 <= card < 24 and collect[_suit_of(card)]:
            score = 3
        if _is_bridge(s, p, tiles, kpos, t):
            score = 4
        if score > best_score:
            best_score = score
            best = a
    return best


@njit(cache=True, _nrt=True)  # may create arrays: see policies/dispatch.py
def choose(s, p, pp, legal, rng):
    if (legal >> A_TAKEOFF) & 1:  # R13
        return A_TAKEOFF
    me = s[CUR]
    here = s[PAWN + me]
    npawns = p[P_PAWNS]
    tiles = np.int64(s[TILES])
    raised = s[RAISED]
    kpos = stack_empty(4, np.int64)
    face_up_kings(s, kpos)
    w = stack_empty(N_WEIGHTS, np.float64)
    _weights(pp, w)

    # (2) raise where I stand
    if (legal >> A_RAISE) & 1 and raise_is_safe(s, p, me, s[CARD + here]):
        return A_RAISE

    # (3) a flooded unraised King or the helicopter, here or next door
    crit = _critical(s, kpos)
    if (legal >> A_SHORE_HERE) & 1 and (crit >> here) & 1:
        return A_SHORE_HERE
    for d in range(4):
        if (legal >> (A_SHORE + d)) & 1 and (crit >> step(here, d, 1)) & 1:
            return A_SHORE + d

    init = fill(stack_empty(25, np.float64), INF)
    dist = stack_empty(25, np.float64)

    # (4) all raised: home
    if raised == 15:
        init[CENTRE] = 0.0
        distances(p, tiles, init, dist)
        return _step_toward(s, p, legal, here, dist)

    # (5) gives to a pawn here that holds more of a suit
    my_hand = s[HAND + me]
    if my_hand:
        for other in range(npawns):
            if other == me or s[PAWN + other] != here:
                continue
            for suit in range(4):
                a = A_GIVE + 4 * other + suit
                if not (legal >> a) & 1 or (raised >> suit) & 1:
                    continue
                mine = popcount(my_hand & SUIT_MASK[suit])
                theirs = popcount(s[HAND + other] & SUIT_MASK[suit])
                if theirs > mine or (theirs == mine and other < me):
                    return a

    # (6) salvage a needed next-door land tile
    collect = stack_empty(4, np.int64)  # filled by _needs
    any_need = _needs(s, p, me, collect)
    best = -1
    best_score = -1e9
    for d in range(4):
        if not (legal >> (A_SALVAGE + d)) & 1:
            continue
        t = step(here, d, 1)
        card = s[CARD + t]  # face up: salvage is legal only of face-up tiles
        suit = _suit_of(card)
        if not (collect[suit] or any_need > 0):
            continue
        ok = _salvage_ok(s, p, tiles, kpos, t)
        if ok == 0:
            continue
        score = -tile_degree(tiles, t) - (w[W_CUT] if ok == 1 else 0.0)
        if collect[suit]:
            score += 10.0
        if score > best_score:
            best_score = score
            best = A_SALVAGE + d
    if best >= 0:
        return best

    # (7) goals
    acts = p[P_ACTIONS]
    left = s[ACTS]
    t_left = turns_left(s, p)
    my_turns = (t_left - 1) // npawns + 1
    budget = (my_turns - 1) * acts + left

    cpt = p[P_CPT]
    hand = np.int64(s[HAND + me])
    for suit in range(4):  # a King I can raise
        k = kpos[suit]
        if k >= 0 and not (raised >> suit) & 1:
            if popcount(hand & SUIT_MASK[suit]) >= cpt or raise_is_safe(s, p, me, suit):
                init[k] = min(init[k], -w[W_RAISE])

    # distances from me, to judge what I can reach this turn
    init_me = fill(stack_empty(25, np.float64), INF)
    init_me[here] = 0.0
    dme = stack_empty(25, np.float64)
    distances(p, tiles, init_me, dme)

    for place in range(25):  # flooded places that lose the game when they sink
        if (crit >> place) & 1 and s[TSTATE + place] == FLOODED:
            near = dme[place]
            for d in range(4):
                t = step(place, d, 1)
                if t >= 0 and (tiles >> t) & 1 and dme[t] < near:
                    near = dme[t]
            bonus = w[W_SAVE] if near + 1 <= left else w[W_SAVE_FAR]
            init[place] = min(init[place], -bonus)
            for d in range(4):
                t = step(place, d, 1)
                if t >= 0 and (tiles >> t) & 1:
                    init[t] = min(init[t], -bonus)

    # needed face-up land tiles: stand next to them
    down = 0
    for place in range(25):
        st = s[TSTATE + place]
        if st == DOWN:
            down += 1
            continue
        if st == SEA:
            continue
        card = s[CARD + place]
        if card < 4 or card >= 24:
            continue
        suit = _suit_of(card)
        if not (collect[suit] or any_need > 0):
            continue
        ok = _salvage_ok(s, p, tiles, kpos, place)
        if ok == 0:
            continue
        bonus = w[W_COLLECT] - (w[W_CUT] if ok == 1 else 0.0) - 0.25 * tile_degree(tiles, place)
        for d in range(4):
            t = step(place, d, 1)
            if t >= 0 and (tiles >> t) & 1:
                init[t] = min(init[t], -bonus)

    # explore while a King or a needed card may hide face down
    explore = kings_unseen(s, kpos) > 0 or any_need > 0
    if not explore:
        isl = in_play(s, p)
        for suit in range(4):
            if collect[suit]:
                hidden = popcount(isl & SUIT_MASK[suit] & ~hand)
                for place in range(25):
                    st = s[TSTATE + place]
                    if st == DRY or st == FLOODED:
                        card = s[CARD + place]
                        if 4 <= card < 24 and _suit_of(card) == suit:
                            hidden -= 1
                for i in range(npawns):
                    if i != me:
                        hidden -= popcount(s[HAND + i] & SUIT_MASK[suit])
                if hidden > 0:
                    explore = True
    if explore and down > 0:
        # spread out: a face-down place another pawn is nearer to is worth less to me
        others = fill(stack_empty(25, np.float64), INF)
        for i in range(npawns):
            if i != me:
                others[s[PAWN + i]] = 0.0
        dother = stack_empty(25, np.float64)
        distances(p, tiles, others, dother)
        for place in range(25):
            if s[TSTATE + place] == DOWN:
                bonus = w[W_EXPLORE]
                if dother[place] < dme[place]:
                    bonus -= w[W_SPREAD]
                init[place] = min(init[place], -bonus)

    # home: always a goal; urgent when the turns left barely cover the walk
    home = 0.0
    if budget - dme[CENTRE] <= w[W_HOME]:
        home = -max(w[W_COLLECT], w[W_EXPLORE]) - 1.0
    init[CENTRE] = min(init[CENTRE], home)

    distances(p, tiles, init, dist)
    if init[here] > dist[here] + 1e-9:
        a = _step_toward(s, p, legal, here, dist)
        if a != A_END:
            return a
    # (8) at the goal: spare actions shore up next-door floods
    a = _spare_shore(s, p, legal, tiles, kpos, collect)
    if a >= 0:
        return a
    return A_END


@njit(cache=True, _nrt=True)
def escape(s, p, pp, pawn, opts, n, rng):
    """R15: the option with most tile neighbours, then nearest the helicopter."""
    tiles = np.int64(s[TILES])
    init = fill(stack_empty(25, np.float64), INF)
    init[CENTRE] = 0.0
    dist = stack_empty(25, np.float64)
    distances(p, tiles, init, dist)
    best = 0
    best_score = -1e18
    for k in range(n):
        t = opts[k]
        score = 10.0 * tile_degree(tiles, t) - min(dist[t], 50.0)
        if s[TSTATE + t] == DRY:
            score += 1.0
        if score > best_score:
            best_score = score
            best = k
    return best
