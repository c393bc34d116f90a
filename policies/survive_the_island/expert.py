"""`expert`: goal-directed, each seat racing its most valuable adventurers to the rescue islands.

It scores each candidate by what it does to a potential: an own adventurer of value v on the
board is worth v * (REACH - steps to the nearest rescue island), more aboard a raft, less where a
creature can reach it in the next creature phase; rescued it is worth v * RESCUED_WORTH. Others'
adventurers count the same way at the average value (it knows only its own values, S16) and
against it (OTHERS of their worth).

- Set-up: its highest value still unplaced on the free space nearest a rescue island, the sea
  around it counted (ties go to the lowest space), so its high values take the best spaces and
  its low ones what is left; a raft next to the most of its own adventurers' value, near a
  rescue island.
- Action phase: one step of the greedy ascent: the move (adventurer, raft, oars or dolphin) that
  gains the most; an empty raft it may move is worth steering toward its own loose adventurers.
  `end` when nothing gains.
- Flood: the tile with the most of the others' adventurers and the least of its own.
- Creature: the stop that removes the most of the others' worth and the least of its own, then
  the one nearest others' swimmers and rafts and farthest from its own.
- Push: its own adventurers to the best space for them, others' into a serpent or shark if it can.
- Repellent (S15): spent when the creature threatens REPEL_STAKE or more of its own value.

It never uses the die or dive abilities. It reads only public state and its own values, never a
tile's back (S16), and draws no randomness. Candidates are scored directly from the kernel's
arrays (no legal list, USES_LEGAL = False); ties go to the first found (the lowest code).
"""

import numpy as np
from numba import njit

from sim.intrinsics import borrowed, stack_empty
from sim.survive_the_island import kernel as K
from sim.survive_the_island.layout import (
    ADV_N,
    ADV_RAFT,
    ADV_SPACE,
    CREATURE_SPACE,
    HAND,
    K_LAND,
    K_RESCUE,
    K_SEA,
    KIND,
    LOOSE_N,
    MOVES_LEFT,
    NABILITIES,
    ON_BOARD,
    P_ADV_EACH,
    P_CUBE_X,
    P_CUBE_Z,
    P_NREACH,
    P_NSPACES,
    P_PLAYERS,
    P_RAFTS,
    P_REACH,
    P_RESCUE_DIST,
    PH_ACTION,
    PH_CREATURE,
    PH_FLOOD,
    PH_PLACE,
    PH_PUSH,
    PH_RAFT,
    PH_REPEL,
    PHASE,
    PUSH_SPACE,
    RAFT_AT,
    RAFT_LOAD,
    RAFT_SEAT_N,
    RAFT_SPACE,
    REACH_ROOM,
    REACH_SPACE_MASK,
    REACH_STEP_SHIFT,
    REACH_VIA_SHIFT,
    REPEL_SEAT,
    REPEL_SLOT,
    REPEL_SPACE,
    SEA_NEAR,
    SEAT,
    SERPENT_N,
    SHARK_N,
    SWAM,
    VALUE,
)
from sim.survive_the_island.rules import (
    CREATURE_BASE,
    CREATURE_MOVE,
    DOLPHIN,
    DOLPHIN_MOVE,
    END,
    FIRST_ABILITY,
    FLOOD,
    KAIJU,
    KEEP_REPELLENT,
    MAX_PLAYERS,
    MAX_SPACES,
    MOVE_ADVENTURER,
    MOVE_RAFT,
    OARS,
    OARS_MOVE,
    PLACE,
    PLACE_ADVENTURER,
    PUSH,
    SHARK,
    TILES_TOTAL,
    USE_REPELLENT,
    VALUES,
)

DESCRIPTION = "goal-directed: races its most valuable adventurers to the rescue islands by raft; hurts the others"
USES_LEGAL = False  # it lists its own candidates: the play loop need not build the legal list

REACH = 14.0  # steps beyond which a space is worth nothing
RESCUED_WORTH = 24.0  # a rescued adventurer, per point of value
ABOARD = 3.0  # aboard a raft, per point of value (a raft moves 3 spaces a turn, a swimmer 1)
SHARK_RISK = 5.0  # a swimmer a shark can reach, per point of value
SERPENT_RISK = 6.0  # a swimmer or raft a serpent can reach
SERPENTS, SHARKS_SHIFT = 0xFFFF, 16  # a space's danger count: serpents next to it, and sharks reaching it
OTHERS = 0.5  # the weight of the others' worth against its own
AVERAGE_VALUE = 3.0  # the others' values as it estimates them (S16)
# S15: a repellent is one use, and a later threat most often puts a single adventurer at stake,
# worth the average value (3) of 1-5: spending it on less than that gives up more than it saves
REPEL_STAKE = 3.0
FETCH = 1.0  # an empty raft one step nearer its own loose adventurers, per point of their value
OARS_ID, DOLPHIN_ID = OARS - FIRST_ABILITY, DOLPHIN - FIRST_ABILITY
# the pull of an own loose adventurer of value v, d steps away, on an empty raft: v / (1 + d),
# divided here once (the same numbers as dividing at each raft)
PULL_SHARE = np.array([[v / (1.0 + d) for d in range(MAX_SPACES)] for v in range(max(VALUES) + 1)])
MAX_VALUE = max(VALUES)
PULL = 5  # a creature's pull toward a piece afloat at 0, 1, 2, 3 steps, and none beyond
AFLOAT_ROOM = 64  # pieces afloat a creature move weighs (at most every adventurer)
PULL_ROOM = AFLOAT_ROOM * PULL
# the steps between a stop and a piece afloat (PULL - 1 for 4 or more), by their cube coordinates'
# differences dx, dz, each within OFFSET of 0 (a stop is 2 steps from the creature, a piece it
# weighs 5 at most), at (dx + OFFSET) * SPAN + dz + OFFSET: read, not computed, in the inner loop
OFFSET = 8
SPAN = 2 * OFFSET + 1
PULL_STEP = np.array([min(max(abs(dx), abs(dx + dz), abs(dz)), PULL - 1)
                      for dx in range(-OFFSET, OFFSET + 1) for dz in range(-OFFSET, OFFSET + 1)], dtype=np.int64)
SHARK_BASE, KAIJU_BASE = CREATURE_BASE[SHARK], CREATURE_BASE[KAIJU]


@njit(cache=True, forceinline=True)
def _cube_distance(dx, dz):
    """Hex steps between two spaces whose cube coordinates differ by dx and dz."""
    return max(abs(dx), abs(dx + dz), abs(dz))


@njit(cache=True, forceinline=True)
def hex_distance(p, a, b):
    return _cube_distance(p[P_CUBE_X + a] - p[P_CUBE_X + b], p[P_CUBE_Z + a] - p[P_CUBE_Z + b])


@njit(cache=True)
def _danger(s, p, danger):
    """How exposed a piece on each space is to the next creature moves, as counts: the serpents
    next to it (danger & SERPENTS: a swimmer's and a raft's passengers' risk) and the sharks that
    reach it within two steps (danger >> SHARKS_SHIFT: a swimmer's). Pieces on land are out of the
    serpents' and sharks' reach. A shark reaches its sea neighbours and every space next to one of
    them: the spaces within two steps of it (the kernel's P_REACH) that are such a neighbour or lie
    next to one. Counts rather than sums of risks: one int32 a space to clear, not two floats."""
    s, p, danger = borrowed(s), borrowed(p), borrowed(danger)
    for q in range(p[P_NSPACES]):
        danger[q] = 0
    for slot in range(KAIJU_BASE):
        c = s[CREATURE_SPACE + slot]
        if c < 0:
            continue
        if slot < SHARK_BASE:
            for d in range(6):
                n = K.neighbour(p, c, d)
                if n >= 0:
                    danger[n] += 1
            continue
        sea = 0  # the directions of its sea neighbours
        for d in range(6):
            n = K.neighbour(p, c, d)
            if n >= 0 and s[KIND + n] == K_SEA:
                sea |= 1 << d
        reached = sea << REACH_VIA_SHIFT | sea << REACH_STEP_SHIFT
        at = P_REACH + REACH_ROOM * c
        for i in range(p[P_NREACH + c]):
            e = p[at + i]
            # adds nothing where it does not reach (no branch to mispredict)
            danger[e & REACH_SPACE_MASK] += (1 << SHARKS_SHIFT) * ((e & reached) != 0)


@njit(cache=True, forceinline=True)
def worth(s, p, q, aboard, danger):
    """An own adventurer's worth on space q (per point of value): nearer a rescue island, aboard
    a raft, out of the creatures' reach (each risk times its count, whole numbers: exact)."""
    k = s[KIND + q]
    if k == K_RESCUE:
        return RESCUED_WORTH
    w = REACH - p[P_RESCUE_DIST + q]
    if aboard:
        w += ABOARD
        if k == K_SEA:
            w -= SERPENT_RISK * (danger[q] & SERPENTS)
    elif k == K_SEA:
        w -= SERPENT_RISK * (danger[q] & SERPENTS) + SHARK_RISK * (danger[q] >> SHARKS_SHIFT)
    return w


@njit(cache=True, forceinline=True)
def plain_worth(s, p, q):
    """Another seat's adventurer's worth on q (aboard a raft), risks aside."""
    if s[KIND + q] == K_RESCUE:
        return RESCUED_WORTH
    return REACH - p[P_RESCUE_DIST + q] + ABOARD


@njit(cache=True)
def _adventurer_gain(s, p, a, q, w0, danger):
    """What moving own adventurer a onto q gains (its value times the change of its worth)."""
    s, p, danger = borrowed(s), borrowed(p), borrowed(danger)
    v = s[VALUE + a]
    if s[KIND + q] == K_RESCUE:
        return v * (RESCUED_WORTH - w0) + 1000.0
    if s[SERPENT_N + q] > 0:
        return -1000.0
    aboard = K.raft_room(s, p, q)
    if s[KIND + q] == K_SEA and not aboard and s[SHARK_N + q] > 0:
        return -1000.0
    return v * (worth(s, p, q, aboard, danger) - w0)


@njit(cache=True)
def _action(s, p):
    """The action phase's best code by one greedy step, END when nothing gains."""
    s, p = borrowed(s), borrowed(p)
    seat = s[SEAT]
    each = p[P_ADV_EACH]
    a0 = seat * each
    best = 0.05
    code = END
    hand = HAND + NABILITIES * seat
    moves = s[MOVES_LEFT] > 0
    dolphin = s[hand + DOLPHIN_ID] > 0
    oars = s[hand + OARS_ID] > 0
    if not (moves or dolphin or oars):
        return END
    danger = stack_empty(MAX_SPACES, np.int32)
    _danger(s, p, danger)
    nrafts = p[P_RAFTS]
    mine_aboard = stack_empty(32, np.float64)  # own value aboard each raft
    for r in range(nrafts):
        mine_aboard[r] = 0.0
    loose_space = stack_empty(32, np.int64)  # own loose adventurers on the board
    loose_value = stack_empty(32, np.int64)
    nloose = 0
    for a in range(a0, a0 + each):  # the others aboard are counted by the kernel (RAFT_SEAT_N)
        r = s[ADV_RAFT + a]
        if r >= 0:
            mine_aboard[r] += s[VALUE + a]
        elif s[ADV_SPACE + a] >= 0:
            loose_space[nloose] = s[ADV_SPACE + a]
            loose_value[nloose] = s[VALUE + a]
            nloose += 1
    if s[ON_BOARD + seat] > 0:
        for a in range(a0, a0 + each):
            q0 = s[ADV_SPACE + a]
            if q0 < 0:
                continue
            swimmer = s[ADV_RAFT + a] < 0 and s[KIND + q0] == K_SEA
            swam = s[SWAM + a] != 0
            w0 = worth(s, p, q0, s[ADV_RAFT + a] >= 0, danger)
            if moves and not (swam and swimmer):
                for d in range(6):
                    q = K.neighbour(p, q0, d)
                    if not K.adventurer_may_stop(s, q):
                        continue
                    if swam and s[KIND + q] == K_SEA and not K.raft_room(s, p, q):
                        continue
                    g = _adventurer_gain(s, p, a, q, w0, danger)
                    if g > best:
                        best = g
                        code = MOVE_ADVENTURER + 6 * a + d
            if dolphin and swimmer:
                for d in range(6):
                    q = K.neighbour(p, q0, d)
                    for dist in range(2):
                        if not K.adventurer_may_stop(s, q):
                            break
                        # a free move: worth a little less than a move, so moves come first
                        g = _adventurer_gain(s, p, a, q, w0, danger) - 0.5
                        if g > best:
                            best = g
                            code = DOLPHIN_MOVE + 12 * a + 2 * d + dist
                        if s[KIND + q] != K_SEA:
                            break
                        q = K.neighbour(p, q, d)
    for r in range(nrafts):
        q0 = s[RAFT_SPACE + r]
        if q0 < 0:
            continue
        load = s[RAFT_LOAD + r]
        if load > 0 and mine_aboard[r] == 0.0:
            continue  # carrying only the others' adventurers gains it nothing
        if not K.controls(s, p, seat, r):
            continue
        # an empty raft goes for the own loose adventurer that pulls it most
        target = -1
        pull = 0.0
        if load == 0:
            steps = 0
            for i in range(nloose):
                x_steps = hex_distance(p, q0, loose_space[i])
                x = PULL_SHARE[loose_value[i], x_steps]
                if x > pull:
                    pull = x
                    target = i
                    steps = x_steps
            if target < 0:
                continue
            # none of its moves gains more than coming as near as it can (a step, two with oars):
            # when even that is no more than the best so far, none of them can replace it
            nearest = max(steps - (2 if oars else 1), 0)
            if FETCH * (PULL_SHARE[loose_value[target], nearest] - pull) <= best:
                continue
        else:
            w_mine = worth(s, p, q0, True, danger)
            w_theirs = plain_worth(s, p, q0)
            theirs_aboard = float(load - s[RAFT_SEAT_N + MAX_PLAYERS * r + seat])
        for d in range(6):
            q = q0
            for dist in range(2):
                q = K.neighbour(p, q, d)
                if not K.raft_may_stop(s, q):
                    break
                if load == 0:
                    if s[KIND + q] == K_RESCUE:
                        break
                    g = FETCH * (PULL_SHARE[loose_value[target], hex_distance(p, q, loose_space[target])] - pull)
                elif s[SERPENT_N + q] > 0:
                    g = -1000.0
                else:
                    g = (mine_aboard[r] * (worth(s, p, q, True, danger) - w_mine)
                         - OTHERS * AVERAGE_VALUE * theirs_aboard * (plain_worth(s, p, q) - w_theirs))
                if moves and dist == 0 and g > best:
                    best = g
                    code = MOVE_RAFT + 6 * r + d
                if oars and g - 0.5 > best:
                    best = g - 0.5
                    code = OARS_MOVE + 12 * r + 2 * d + dist
                if not oars or s[KIND + q] != K_SEA:
                    break
    return code


@njit(cache=True, forceinline=True)
def _space_harm(s, p, seat, q, swimmers_only):
    """The others' adventurers on q (at the average value) against its own values there: what
    removing them does for the seat. Most spaces asked hold none: that answer costs no call."""
    total = s[LOOSE_N + q] if swimmers_only else s[ADV_N + q]
    if total == 0:
        return 0.0
    return _harm_among(s, p, seat, q, swimmers_only, total)


@njit(cache=True)
def _harm_among(s, p, seat, q, swimmers_only, total):
    s, p = borrowed(s), borrowed(p)
    each = p[P_ADV_EACH]
    own = 0.0
    mine = 0
    for a in range(seat * each, seat * each + each):
        if s[ADV_SPACE + a] == q and not (swimmers_only and s[ADV_RAFT + a] >= 0):
            own += s[VALUE + a]
            mine += 1
    return AVERAGE_VALUE * (total - mine) - 2.0 * own


@njit(cache=True)
def _flood(s, p, acts):
    s, p, acts = borrowed(s), borrowed(p), borrowed(acts)
    n = K.flood_list(s, p, acts)
    seat = s[SEAT]
    best = -1e9
    pick = 0
    for i in range(n):
        q = acts[i] - FLOOD
        g = _space_harm(s, p, seat, q, False)
        if g > best:
            best = g
            pick = i
    return pick


@njit(cache=True)
def _creature(s, p, acts):
    """The stop that removes the most of the others' worth, then the one nearest their pieces
    afloat (swimmers and rafts' passengers) and farthest from its own."""
    s, p, acts = borrowed(s), borrowed(p), borrowed(acts)
    n = K.creature_list(s, p, acts)
    seat = s[SEAT]
    each = p[P_ADV_EACH]
    a0 = seat * each
    nadv = p[P_PLAYERS] * each
    # the pieces afloat: where (cube coordinates), and what each counts for it at distance 0 to 3
    # from a stop (PULL: nothing beyond), divided once here rather than once a stop
    xs = stack_empty(AFLOAT_ROOM, np.int64)
    zs = stack_empty(AFLOAT_ROOM, np.int64)
    pulls = stack_empty(PULL_ROOM, np.float64)
    m = 0
    for a in range(nadv):
        x = s[ADV_SPACE + a]
        if x < 0 or s[KIND + x] != K_SEA:
            continue
        xs[m] = p[P_CUBE_X + x]
        zs[m] = p[P_CUBE_Z + x]
        weight = -s[VALUE + a] if a0 <= a < a0 + each else 0.5 * AVERAGE_VALUE
        for d in range(PULL - 1):
            pulls[PULL * m + d] = weight / (1.0 + d)
        pulls[PULL * m + PULL - 1] = 0.0
        m += 1
    near = stack_empty(AFLOAT_ROOM, np.int64)  # those within reach of the creature being moved, by
    near_pull = stack_empty(PULL_ROOM, np.float64)  # their cube coordinates' differences from it
    nnear = 0
    current = -1
    best = -1e18
    pick = 0
    for i in range(n):
        slot, q = divmod(acts[i] - CREATURE_MOVE, MAX_SPACES)
        if slot != current:  # a stop is 2 steps away at most, and pieces count up to 3 from it
            current = slot
            nnear = 0
            q0 = s[CREATURE_SPACE + slot]
            x0 = p[P_CUBE_X + q0]
            z0 = p[P_CUBE_Z + q0]
            for j in range(m):
                if _cube_distance(x0 - xs[j], z0 - zs[j]) <= 5:
                    near[nnear] = (xs[j] - x0) * SPAN + zs[j] - z0
                    for d in range(PULL):
                        near_pull[PULL * nnear + d] = pulls[PULL * j + d]
                    nnear += 1
        if slot < SHARK_BASE:
            g = _space_harm(s, p, seat, q, False)
            if s[RAFT_AT + q] >= 0:
                g += 1.0
        elif slot < KAIJU_BASE:
            g = _space_harm(s, p, seat, q, True) if s[KIND + q] == K_SEA else 0.0
        else:
            g = 0.3 * _space_harm(s, p, seat, q, False)
        g *= 10.0
        at = (p[P_CUBE_X + q] - x0 + OFFSET) * SPAN + p[P_CUBE_Z + q] - z0 + OFFSET
        for k in range(nnear):
            # beyond 3 steps it adds 0.0, which leaves g as it is (g is never -0.0)
            g += near_pull[PULL * k + PULL_STEP[at - near[k]]]
        if g > best:
            best = g
            pick = i
    return pick


@njit(cache=True)
def _push(s, p, acts):
    s, p, acts = borrowed(s), borrowed(p), borrowed(acts)
    n = K.push_list(s, p, acts)
    seat = s[SEAT]
    q0 = s[PUSH_SPACE]
    each = p[P_ADV_EACH]
    mine = 0.0
    theirs = 0.0
    for a in range(p[P_PLAYERS] * each):
        if s[ADV_SPACE + a] == q0:
            if seat * each <= a < seat * each + each:
                mine += s[VALUE + a]
            else:
                theirs += AVERAGE_VALUE
    best = -1e18
    pick = 0
    for i in range(n):
        q = K.neighbour(p, q0, acts[i] - PUSH)
        if s[SERPENT_N + q] > 0:
            g = -100.0
        elif s[KIND + q] == K_SEA and not K.raft_room(s, p, q) and s[SHARK_N + q] > 0:
            g = -50.0
        else:
            g = plain_worth(s, p, q) - (0.0 if K.raft_room(s, p, q) else ABOARD)
        score = mine * g - OTHERS * theirs * g
        if score > best:
            best = score
            pick = i
    return pick


@njit(cache=True)
def _place(s, p, acts):
    """S7: its highest value still unplaced, on the free space nearest a rescue island (the sea
    around it counted). The best spaces go first, so the high values take them and the low ones
    are left the spaces the others did not want: a space's worth is its value times its nearness."""
    s, p, acts = borrowed(s), borrowed(p), borrowed(acts)
    spaces = stack_empty(TILES_TOTAL, np.int64)
    n = K.place_spaces(s, p, spaces)
    mask = K.unplaced_values(s, p, s[SEAT])
    v = MAX_VALUE
    while not (mask >> v) & 1:
        v -= 1
    best = -1e18
    pick = spaces[0]
    for i in range(n):
        q = spaces[i]
        g = v * (REACH - p[P_RESCUE_DIST + q]) + (v * 1.5 if s[SEA_NEAR + q] > 0 else 0.0)
        if g > best:
            best = g
            pick = q
    acts[0] = PLACE_ADVENTURER + MAX_SPACES * (v - 1) + pick
    return 0


@njit(cache=True)
def _place_raft(s, p, acts):
    """S7: a raft next to the most of its own adventurers' value, the fewest of the others'."""
    s, p, acts = borrowed(s), borrowed(p), borrowed(acts)
    n = K.raft_start_list(s, p, acts)
    seat = s[SEAT]
    each = p[P_ADV_EACH]
    own = stack_empty(MAX_SPACES, np.float64)  # own value and adventurers on each space
    mine = stack_empty(MAX_SPACES, np.int64)
    for q in range(p[P_NSPACES]):
        own[q] = 0.0
        mine[q] = 0
    for a in range(seat * each, seat * each + each):
        x = s[ADV_SPACE + a]
        if x >= 0:
            own[x] += s[VALUE + a]
            mine[x] += 1
    best = -1e18
    pick = 0
    for i in range(n):
        q = acts[i] - PLACE
        g = -0.1 * p[P_RESCUE_DIST + q]
        for d in range(6):
            x = K.neighbour(p, q, d)
            if x >= 0 and s[KIND + x] == K_LAND:
                g += own[x] - OTHERS * AVERAGE_VALUE * (s[ADV_N + x] - mine[x])
        if g > best:
            best = g
            pick = i
    return pick


@njit(cache=True)
def _repel(s, p):
    """S15: spend the repellent when what the creature is about to take of its own is worth
    REPEL_STAKE or more, else keep it. A kaiju's adventurers are pushed, not taken: half their
    value when the seat pushes them itself (to the best space it finds), all of it when another
    seat does."""
    s, p = borrowed(s), borrowed(p)
    seat = s[REPEL_SEAT]
    q = s[REPEL_SPACE]
    shark = s[REPEL_SLOT] < KAIJU_BASE
    each = p[P_ADV_EACH]
    stake = 0.0
    for a in range(seat * each, seat * each + each):
        if s[ADV_SPACE + a] == q and (not shark or s[ADV_RAFT + a] < 0):
            stake += s[VALUE + a]
    if not shark and s[SEAT] == seat:
        stake *= 0.5
    return USE_REPELLENT if stake >= REPEL_STAKE else KEEP_REPELLENT


@njit(cache=True)
def choose(s, p, pp, acts, n, rng):
    s, p, pp, acts, rng = borrowed(s), borrowed(p), borrowed(pp), borrowed(acts), borrowed(rng)
    ph = s[PHASE]
    if ph == PH_ACTION:
        acts[0] = _action(s, p)
        return 0
    if ph == PH_FLOOD:
        return _flood(s, p, acts)
    if ph == PH_CREATURE:
        return _creature(s, p, acts)
    if ph == PH_PUSH:
        return _push(s, p, acts)
    if ph == PH_PLACE:
        return _place(s, p, acts)
    if ph == PH_RAFT:
        return _place_raft(s, p, acts)
    if ph == PH_REPEL:
        acts[0] = _repel(s, p)
        return 0
    return 0

