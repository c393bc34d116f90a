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
policies/island_escape/decision_pieces.py. It is deterministic and draws nothing from the policy stream.

Tunable weights in `pp` (0 means the default): see `_weights`.

It allocates nothing on the heap: per-decision arrays live on the stack (`stack_empty`).
"""

import numpy as np
from numba import njit

from policies.island_escape.decision_pieces import (
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
    dist_from,
    explore_goals,
    fill,
    fill_lanes,
    give_here,
    goal_next_door,
    home_goal,
    least_goal_worth,
    lowest_bit,
    may_hide_face_down,
    my_actions_left,
    next_door_worth,
    raise_goals,
    raise_is_safe,
    salvage_next_door,
    salvage_ok_in,
    save_goal,
    scan_board,
    shore_critical,
    spare_shore,
    stack_empty,
    step_to_goal,
    suit_needs,
    team_counts,
    tile_degree,
    walk_home,
)
from policies.island_escape.decisions import by_mask
from sim.intrinsics import borrowed
from sim.island_escape.layout import (
    A_END,
    A_RAISE,
    A_TAKEOFF,
    ACTS,
    CARD,
    CENTRE,
    CUR,
    DRY,
    P_PAWNS,
    PAWN,
    RAISED,
    TILES,
    TSTATE,
)

DESCRIPTION = "goal-directed: raise, save Kings, salvage needed suits from the edge, explore, go home"
USES_LEGAL = False  # decides on the legal mask, which it builds itself (decisions.py)

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
    pp, w = borrowed(pp), borrowed(w)
    for k in range(DEFAULTS.shape[0]):
        w[k] = pp[k] if k < pp.shape[0] and pp[k] != 0.0 else DEFAULTS[k]


@njit(cache=True)  # allocates nothing: see policies/island_escape/decision_pieces.py
def action(s, p, pp, legal, rng):
    s, p, pp, rng = borrowed(s), borrowed(p), borrowed(pp), borrowed(rng)
    if (legal >> A_TAKEOFF) & 1:  # R13
        return A_TAKEOFF
    me = s[CUR]
    here = s[PAWN + me]
    tiles = np.int64(s[TILES])

    # (2) raise where I stand
    if (legal >> A_RAISE) & 1 and raise_is_safe(s, p, me, s[CARD + here]):
        return A_RAISE
    kpos = stack_empty(4, np.int64)
    sc = stack_empty(N_SCAN, np.int64)  # the board's masks
    scan_board(s, kpos, sc)
    w = stack_empty(N_WEIGHTS, np.float64)
    _weights(pp, w)

    # (3) a flooded unraised King or the helicopter, here or next door
    crit = critical_places(s, kpos)
    a = shore_critical(legal, here, crit)
    if a >= 0:
        return a

    # (4) all raised: home
    if s[RAISED] == 15:
        return walk_home(s, p, legal, here, tiles)

    # (5) gives to a pawn here that holds more of a suit
    team = stack_empty(4, np.int64)
    mine = stack_empty(4, np.int64)
    other = stack_empty(4, np.int64)
    team_counts(s, p, me, team, mine, other)
    a = give_here(s, p, legal, me, mine, False)
    if a >= 0:
        return a

    # (6) salvage a needed next-door land tile: a suit the team needs and no other pawn holds
    # more of (one collector a suit), or any suit while short suits want cards
    collect = stack_empty(4, np.int64)
    any_need = suit_needs(s, p, team, collect)
    for suit in range(4):
        if mine[suit] < other[suit]:
            collect[suit] = 0
    ctx = stack_empty(N_CONTEXT, np.int64)  # what the salvage and bridge checks test against
    board_context(s, p, tiles, kpos, sc[SC_DOWN], ctx)
    a = salvage_next_door(s, p, legal, tiles, ctx, collect, any_need, w[W_CUT], False)
    if a >= 0:
        return a

    # (7) goals
    init = stack_empty(LANES, np.float64)
    fill_lanes(init, INF)
    raise_goals(s, p, me, kpos, init, w[W_RAISE])

    # explore while a King or a needed card may hide face down
    down = sc[SC_DOWN]
    explore = down != 0 and may_hide_face_down(s, p, kpos, team, collect, any_need, sc)
    # distances from me, to judge what I can reach this turn, and (when exploring, to spread
    # out) the places another pawn is nearer to
    others = 0
    if explore:
        for o in range(p[P_PAWNS]):
            if o != me:
                others |= np.int64(1) << s[PAWN + o]
    dme = stack_empty(LANES, np.float64)
    at_cost = stack_empty(N_LEVELS, np.int64)  # at_cost[c]: the places at my path cost c
    nearer = costs_and_nearer(p, tiles, np.int64(1) << here, others, dme, at_cost)

    left = s[ACTS]
    m = crit & sc[SC_FLOODED]  # flooded places that lose the game when they sink
    while m:
        place = lowest_bit(m)
        m &= m - 1
        save_goal(place, tiles, dme, left, init, w[W_SAVE], w[W_SAVE_FAR])

    if explore:  # spread out: a face-down place another pawn is nearer to is worth less to me
        explore_goals(down, init, nearer, w[W_EXPLORE], w[W_SPREAD])

    # home: always a goal; urgent when the turns left barely cover the walk
    home_goal(init, my_actions_left(s, p), dme, w[W_HOME], w[W_COLLECT], w[W_EXPLORE])

    # needed face-up land tiles: stand next to them. Last, as their R16 check needs a fill: one
    # whose goal cannot reach the cheapest goal so far (`cut`, within the goal step's 1e-9)
    # changes neither the goals the step heads for nor staying here, so it is skipped (goals are
    # kept by their minimum, the same in any order)
    wanted = 0
    for suit in range(4):
        if collect[suit] or any_need > 0:
            wanted |= sc[SC_LAND + suit]
    cut = least_goal_worth(init, dme) + 1e-9 if wanted else INF
    while wanted:
        place = lowest_bit(wanted)
        wanted &= wanted - 1
        degree = tile_degree(tiles, place)
        if next_door_worth(place, tiles, dme, -(w[W_COLLECT] - 0.25 * degree)) > cut:  # if it breaks no path
            continue
        ok = salvage_ok_in(p, tiles, place, False, ctx)
        if ok == 0:
            continue
        bonus = w[W_COLLECT] - (w[W_CUT] if ok == 1 else 0.0) - 0.25 * degree
        goal_next_door(place, tiles, init, bonus)
        cut = min(cut, next_door_worth(place, tiles, dme, -bonus) + 1e-9)

    a = step_to_goal(s, p, legal, here, tiles, init, dme, at_cost)
    if a != A_END:
        return a
    # (8) at the goal: spare actions shore up next-door floods, bridges and needed tiles first
    soon = stack_empty(25, np.float64)
    fill(soon, 0.0)
    a = spare_shore(s, p, legal, tiles, ctx, collect, soon)
    if a >= 0:
        return a
    return A_END


@njit(cache=True)
def escape(s, p, pp, pawn, opts, n, rng):
    """R15: the option with most tile neighbours, then nearest the helicopter."""
    s, p, pp, opts, rng = borrowed(s), borrowed(p), borrowed(pp), borrowed(opts), borrowed(rng)
    tiles = np.int64(s[TILES])
    dist = stack_empty(LANES, np.float64)
    dist_from(p, tiles, CENTRE, dist)
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


@njit(cache=True)
def choose(s, p, pp, acts, n, rng):  # the one signature (decisions.py)
    return by_mask(s, p, pp, acts, rng, action, escape)
