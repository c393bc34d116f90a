"""`expert`: the strongest fair heuristic of the ladder (R19: public information only).

It builds on `greedy` (goal scores in actions, shortest paths with swims) and adds:

- suits split between pawns, and meetings: any pawn salvages a needed card next to it, the
  pawn holding most of a suit collects it, and a pawn holding cards that complete another
  pawn's treasure walks to meet it and give them (R11);
- the discard piles (R14, R19): a place whose column or row was already drawn this pass cannot
  flood again before the reshuffle, and with k floods left in the pass a place whose column and
  row are both undrawn is hit with chance 1/k. A flooded King or helicopter far away is worth
  walking to in proportion to the chance that it sinks before this pawn's next turn; spare
  actions shore up the tiles that can still be hit first, bridges and needed tiles before the
  rest;
- salvage from the edge, never a place whose loss cuts a target off (R16) or strands a King,
  and a penalty for breaking a walking path home;
- the clock: the gauge and the pile position say exactly how many turns remain (R14); a pawn
  starts home when its own remaining actions barely cover the walk;
- escapes (R15) onto the tile that keeps a path home, is dry, cannot be hit again this pass
  and has most tile neighbours.

`oracle` runs the same code with `cheat=True`: it then also reads the face-down cards (it
knows where every King and needed card lies) and the undrawn pile order (exact flood hits).

Tunable weights in `pp` (0 = default; pass a tiny number such as 1e-9 for a real zero): see
`DEFAULTS`. Deterministic: it draws nothing from the policy stream.
"""

import numpy as np
from numba import njit

from policies.island_escape.decision_pieces import (
    CX_PAWNS,
    CX_TARGETS,
    INF,
    LANES,
    N_CONTEXT,
    N_LEVELS,
    N_SCAN,
    SC_DOWN,
    SC_FLOODED,
    SC_LAND,
    board_context,
    costs_and_nearer,
    critical_places,
    cut_off_without,
    dist_from,
    explore_goals,
    fill,
    fill_lanes,
    give_here,
    goal_next_door,
    goal_worth,
    hit_chance,
    home_goal,
    least_goal_worth,
    lowest_bit,
    may_hide_face_down,
    my_actions_left,
    nearest_side,
    raise_goals,
    raise_is_safe,
    salvage_next_door,
    salvage_ok_in,
    scan_board,
    shore_critical,
    spare_shore,
    stack_empty,
    step,
    step_to_goal,
    suit_needs,
    suit_of,
    team_counts,
    tile_degree,
    walk_home,
)
from policies.island_escape.decisions import by_mask
from sim.intrinsics import borrowed
from sim.island_escape.layout import (
    A_END,
    A_RAISE,
    A_SHORE,
    A_SHORE_HERE,
    A_TAKEOFF,
    ACTS,
    CARD,
    CENTRE,
    COLP,
    CUR,
    DOWN,
    DRY,
    GAUGE_TOP,
    HAND,
    KINGPOS,
    P_ACTIONS,
    P_CPT,
    P_GRANK,
    P_PAWNS,
    P_SWIM,
    PAWN,
    PILE_POS,
    RAISED,
    ROWP,
    STREAM_POLICY,
    SUIT_MASK,
    TILES,
    TSTATE,
    popcount,
    rand_normal,
)

DESCRIPTION = "best fair heuristic: splits suits and meets to give, edge salvage, flood odds, clock-aware"
USES_LEGAL = False  # decides on the legal mask, which it builds itself (decisions.py)

# pp slots (0 = default). Goal bonuses are in actions: worth walking that many extra actions.
#   W_RAISE     a King this pawn can raise
#   W_SAVE      a flooded unraised King or helicopter it can shore up this turn
#   W_COLLECT   a place next to a needed land tile
#   W_EXPLORE   a face-down place (while Kings or needed cards may hide face down)
#   W_SPREAD    taken off W_EXPLORE / W_COLLECT when another pawn is nearer
#   W_HOME      home turns urgent when my remaining actions minus the walk home <= this
#   W_CUT       penalty for a salvage that breaks a walking path from the helicopter
#   W_SAVE_FAR  base bonus of a flooded King or helicopter out of reach this turn
#   W_RISK      extra bonus of such a place times its chance to be hit before my next turn
#   W_MEET      a pawn I should meet to give or take cards that complete a treasure
#   W_EDGE      penalty per tile neighbour of a land tile to salvage (salvage from the edge)
#   W_ANY       any pawn salvages a needed card next to it when a treasure needs at least this
#               many cards (with fewer, only the suit's collector: gives cost more than they save)
#   W_BRIDGE    > 0: a flooded tile whose sinking would cut a target off is guarded like a King
W_RAISE, W_SAVE, W_COLLECT, W_EXPLORE, W_SPREAD, W_HOME, W_CUT, W_SAVE_FAR = range(8)
W_RISK, W_MEET, W_EDGE, W_ANY, W_BRIDGE = 8, 9, 10, 11, 12
# Tuned with `island-escape tune expert --trials 40 --games 3000 --players 3
# --cards-per-treasure 3` (held out: 12.9% -> 16.2%); W_ANY set by hand (3p/3 cards vs 4p/2 cards).
# Then W_SAVE 2.69 -> 11.2 and W_BRIDGE on, from a 40-trial search on the summed wins of Normal
# 2p and 3p/3 cards (training seeds 1000/1001): fewer Kings lost on Normal (seed 77, 20,000
# games: 90.4% -> 92.9%, greedy 91.7%), the hard setting 16.0% -> 16.3%.
DEFAULTS = np.array([17.94, 11.2, 5.42, 8.38, 2.68, -0.31, 4.82, 1.50, 6.54, 9.60, 0.87, 3.0, 1.0])
NWEIGHTS = 13
# What `island-escape tune expert` searches (slot: (low, high)); W_BRIDGE is a switch (> 0: on).
TUNE_SPACE = {W_RAISE: (3.0, 20.0), W_SAVE: (2.0, 16.0), W_COLLECT: (0.5, 8.0), W_EXPLORE: (1.0, 10.0),
              W_SPREAD: (0.05, 4.0), W_HOME: (-2.0, 4.0), W_CUT: (0.05, 6.0), W_SAVE_FAR: (0.5, 10.0),
              W_RISK: (0.05, 20.0), W_MEET: (0.5, 10.0), W_EDGE: (0.01, 2.0), W_ANY: (1.0, 5.0),
              W_BRIDGE: (-1.0, 1.0)}


@njit(cache=True, forceinline=True)
def _w(pp, k):
    if k < pp.shape[0] and pp[k] != 0.0:
        return pp[k]
    return DEFAULTS[k]


@njit(cache=True)
def hit_risk(s, place, floods, cheat):
    """Chance that `place` is hit by one of the next `floods` floods. Fair: from the drawn
    column and row cards of this pass (R19). Cheat: the undrawn pile order is read."""
    s = borrowed(s)
    if not cheat:
        return hit_chance(s, place, floods)
    pos = s[PILE_POS]
    c = place % 5 + 1
    r = place // 5 + 1
    end = min(5, pos + floods)
    for k in range(pos, end):
        if s[COLP + k] == c and s[ROWP + k] == r:
            return 1.0
    if pos + floods <= 5:
        return 0.0
    return min(1.0, (floods - (5 - pos)) / 25.0)


@njit(cache=True, forceinline=True)
def king_places(s, kpos, cheat, sc):
    """kpos[suit]: place of the King of that suit if known and on the island, else -1; sc: the
    board's masks (`scan_board`)."""
    scan_board(s, kpos, sc)
    if cheat:
        for k in range(4):
            kpos[k] = s[KINGPOS + k]


@njit(cache=True)
def _bridges_among(p, tiles, cand, ctx):
    """The flooded tiles of the mask `cand` whose sinking would cut a target off from the pawns
    (R16; ctx: `board_context`): guarded like Kings when W_BRIDGE is on."""
    p, ctx = borrowed(p), borrowed(ctx)
    return cut_off_without(tiles, cand, ctx[CX_PAWNS], ctx[CX_TARGETS], p[P_SWIM] <= p[P_ACTIONS])


@njit(cache=True, forceinline=True)
def _save_bonus(s, pp, place, near, left, floods, cheat):
    """A flooded place that loses the game when it sinks, `near` my path cost to where I can shore
    it up: W_SAVE if I can this turn, else by the chance it sinks before my next turn."""
    if near + 1 <= left:
        return _w(pp, W_SAVE)
    return _w(pp, W_SAVE_FAR) + _w(pp, W_RISK) * hit_risk(s, place, floods, cheat)


@njit(cache=True)
def _spare_shore(s, p, legal, tiles, ctx, need, level, cheat):
    """A shore-up for actions that would otherwise be lost: tiles that can still be hit soon
    first, bridges and needed tiles before the rest. The chances are worked out only where a
    legal shore-up reaches (`spare_shore` reads no other place)."""
    s, p, ctx, need = borrowed(s), borrowed(p), borrowed(ctx), borrowed(need)
    soon = stack_empty(25, np.float64)
    here = s[PAWN + s[CUR]]
    for d in range(5):
        if (legal >> (A_SHORE_HERE if d == 4 else A_SHORE + d)) & 1:
            place = here if d == 4 else step(here, d, 1)
            soon[place] = 4.0 * hit_risk(s, place, level * p[P_PAWNS], cheat)
    return spare_shore(s, p, legal, tiles, ctx, need, soon)


# inlined by numba into each caller (one or two call sites each): not compiled, optimised and turned
# into machine code once more as a function of its own (a tenth of expert's cold compile)
@njit(cache=True, inline="always")
def decide(s, p, pp, legal, cheat, misjudge, forget, rng):
    """The expert's action. The human errors of `skilled` (policies/island_escape/skilled.py) enter here:
    `misjudge` is the standard deviation (in actions) of noise added to every goal's worth, drawn
    from the policy stream of `rng`, so a close choice flips more often than a clear one;
    `forget` ignores flooded Kings, helicopter and bridges this decision (no guard, no rescue).
    With misjudge 0 and forget False it draws nothing: the expert."""
    if (legal >> A_TAKEOFF) & 1:  # R13
        return A_TAKEOFF
    me = s[CUR]
    here = s[PAWN + me]
    npawns = p[P_PAWNS]
    cpt = p[P_CPT]
    tiles = np.int64(s[TILES])
    raised = s[RAISED]
    level = p[P_GRANK + s[GAUGE_TOP]]
    if (legal >> A_RAISE) & 1 and raise_is_safe(s, p, me, s[CARD + here]):  # R12
        return A_RAISE
    kpos = stack_empty(4, np.int64)
    sc = stack_empty(N_SCAN, np.int64)
    king_places(s, kpos, cheat, sc)

    ctx = stack_empty(N_CONTEXT, np.int64)  # what the salvage and bridge checks test against
    board_context(s, p, tiles, kpos, sc[SC_DOWN], ctx)
    # places whose sinking loses the game: the helicopter, known unraised Kings and (W_BRIDGE)
    # flooded tiles whose loss would cut a target off
    crit = 0 if forget else critical_places(s, kpos)
    cand = sc[SC_FLOODED] & ~crit & ~ctx[CX_PAWNS] if not forget and _w(pp, W_BRIDGE) > 0 else 0
    if cand:  # most decisions have none: no call
        crit |= _bridges_among(p, tiles, cand, ctx)
    a = shore_critical(legal, here, crit)
    if a >= 0:
        return a

    if raised == 15:
        return walk_home(s, p, legal, here, tiles)

    team = stack_empty(4, np.int64)
    mine = stack_empty(4, np.int64)
    other = stack_empty(4, np.int64)
    team_counts(s, p, me, team, mine, other)
    need = stack_empty(4, np.int64)
    any_need = suit_needs(s, p, team, need)

    # gives: to a pawn here that holds more of the suit (ties: the lower index), or that
    # completes the treasure with my cards
    a = give_here(s, p, legal, me, mine, True)
    if a >= 0:
        return a

    # salvage a needed next-door land tile, from the edge: the suit's collector, or anyone when
    # a treasure needs at least W_ANY cards
    any_collects = cpt >= _w(pp, W_ANY)
    salvage = stack_empty(4, np.int64)
    fill(salvage, 0)
    for suit in range(4):
        if need[suit] and (mine[suit] >= other[suit] or any_collects):
            salvage[suit] = 1
    a = salvage_next_door(s, p, legal, tiles, ctx, salvage, any_need, _w(pp, W_CUT), True)
    if a >= 0:
        return a

    left = s[ACTS]
    init = stack_empty(LANES, np.float64)
    fill_lanes(init, INF)
    raise_goals(s, p, me, kpos, init, _w(pp, W_RAISE))

    # the goals that another pawn's being nearer makes worth less: needed face-up land tiles (the
    # suit's collector, or anyone) and, while a King or a needed card may hide face down, the
    # face-down places
    wanted = 0
    for suit in range(4):
        if (need[suit] and mine[suit] >= other[suit]) or any_need > 0:
            wanted |= sc[SC_LAND + suit]
    down = sc[SC_DOWN]
    explore = 0
    if down and not cheat:
        if may_hide_face_down(s, p, kpos, team, need, any_need, sc):
            explore = down
    elif down:  # oracle: only the face-down places that hold an unraised King or a needed card
        for place in range(25):
            if not (down >> place) & 1:
                continue
            card = s[CARD + place]
            useful = card < 4 and not (raised >> card) & 1
            if 4 <= card < 24:
                useful = need[suit_of(card)] == 1 or any_need > 0
            if useful:
                explore |= 1 << place

    # my path costs, and the places another pawn is nearer to: searched only when some goal
    # above reads them (the other pawns' search is half the cost)
    dme = stack_empty(LANES, np.float64)
    others = 0
    if wanted or explore:
        for o in range(npawns):
            if o != me:
                others |= np.int64(1) << s[PAWN + o]
    at_cost = stack_empty(N_LEVELS, np.int64)  # at_cost[c]: the places at my path cost c
    nearer = costs_and_nearer(p, tiles, np.int64(1) << here, others, dme, at_cost)

    # flooded Kings and helicopter: now if I can, else by the chance they sink before my turn
    m = crit & sc[SC_FLOODED]
    while m:
        place = lowest_bit(m)
        m &= m - 1
        bonus = _save_bonus(s, pp, place, nearest_side(place, tiles, dme), left, level * npawns, cheat)
        init[place] = min(init[place], -bonus)
        goal_next_door(place, tiles, init, bonus)

    # meet a pawn to complete a treasure: cards of a suit split between us
    for suit in range(4):
        if (raised >> suit) & 1 or mine[suit] == 0 or mine[suit] >= cpt:
            continue
        for o in range(npawns):
            if o == me or s[PAWN + o] == here:
                continue
            theirs = popcount(s[HAND + o] & SUIT_MASK[suit])
            if theirs > 0 and theirs + mine[suit] >= cpt:
                init[s[PAWN + o]] = min(init[s[PAWN + o]], -_w(pp, W_MEET))

    # explore while a King or a needed card may hide face down
    if explore:
        explore_goals(explore, init, nearer, _w(pp, W_EXPLORE), _w(pp, W_SPREAD))

    home_goal(init, my_actions_left(s, p), dme, _w(pp, W_HOME), _w(pp, W_COLLECT), _w(pp, W_EXPLORE))

    # The goals that need an R16 check (a fill) come last: a goal that cannot reach the cheapest
    # goal so far (`cut`, within the goal step's 1e-9) changes neither the goals the step heads
    # for nor staying here, so its check is skipped. Goals are kept by their minimum, which is the
    # same in any order. Not with `misjudge`: its noise is drawn for every goal.
    prune = misjudge <= 0.0
    cut = least_goal_worth(init, dme) + 1e-9 if prune and wanted else 1e300

    # needed face-up land tiles: stand next to them (the suit's collector, or anyone nearer)
    while wanted:
        place = lowest_bit(wanted)
        wanted &= wanted - 1
        degree = tile_degree(tiles, place)
        bonus = _w(pp, W_COLLECT) - _w(pp, W_EDGE) * degree  # if the salvage breaks no walking path
        best = INF
        for d in range(4):
            t = step(place, d, 1)
            if t >= 0 and (tiles >> t) & 1 and dme[t] < INF:
                best = min(best, -(bonus - (_w(pp, W_SPREAD) if (nearer >> t) & 1 else 0.0)) + dme[t])
        if best > cut:
            continue
        ok = salvage_ok_in(p, tiles, place, True, ctx)
        if ok == 0:
            continue
        bonus = _w(pp, W_COLLECT) - (_w(pp, W_CUT) if ok == 1 else 0.0) - _w(pp, W_EDGE) * degree
        for d in range(4):
            t = step(place, d, 1)
            if t >= 0 and (tiles >> t) & 1:
                b = bonus
                if (nearer >> t) & 1:
                    b -= _w(pp, W_SPREAD)
                init[t] = min(init[t], -b)
                if prune:
                    cut = min(cut, goal_worth(init, dme, t) + 1e-9)

    if misjudge > 0.0:
        for place in range(25):
            if init[place] < INF:
                init[place] += misjudge * rand_normal(rng, STREAM_POLICY)

    a = step_to_goal(s, p, legal, here, tiles, init, dme, at_cost)
    if a != A_END:
        return a
    a = _spare_shore(s, p, legal, tiles, ctx, need, level, cheat)
    if a >= 0:
        return a
    return A_END


@njit(cache=True, inline="always")  # as decide
def pick_escape(s, p, pp, pawn, opts, n, cheat):
    """R15: a tile with a path home, dry, not hit again soon, most tile neighbours, nearest home."""
    tiles = np.int64(s[TILES])
    dist = stack_empty(LANES, np.float64)
    dist_from(p, tiles, CENTRE, dist)
    level = p[P_GRANK + s[GAUGE_TOP]]
    best = 0
    best_score = -1e18
    for k in range(n):
        t = opts[k]
        score = 10.0 * tile_degree(tiles, t) - min(dist[t], 50.0)
        if dist[t] >= INF:
            score -= 1000.0
        if s[TSTATE + t] == DRY or s[TSTATE + t] == DOWN:
            score += 3.0
        else:
            score -= 20.0 * hit_risk(s, t, level, cheat)
        if score > best_score:
            best_score = score
            best = k
    return best


@njit(cache=True)  # allocates nothing: see policies/island_escape/decision_pieces.py
def action(s, p, pp, legal, rng):
    s, p, pp, rng = borrowed(s), borrowed(p), borrowed(pp), borrowed(rng)
    return decide(s, p, pp, legal, False, 0.0, False, rng)


@njit(cache=True)
def escape(s, p, pp, pawn, opts, n, rng):
    s, p, pp, opts, rng = borrowed(s), borrowed(p), borrowed(pp), borrowed(opts), borrowed(rng)
    return pick_escape(s, p, pp, pawn, opts, n, False)


@njit(cache=True)
def choose(s, p, pp, acts, n, rng):  # the one signature (decisions.py)
    return by_mask(s, p, pp, acts, rng, action, escape)
