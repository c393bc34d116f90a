"""`random`: a quick random player, the sanity floor.

Set-up (which value on which space, S7), floods, creature moves, pushes and a repellent's
question (S15: spend it or keep it): uniform over the legal actions. An action phase: a uniform
draw among `end`, each of the seat's adventurers and each raft; a piece with no legal move (off
the board, stuck, a raft it may not move, no move left) is drawn again, up to eight times, then
it ends the phase; a piece gets a uniform legal direction. It never plays its abilities in its
action phase (it has no use for them: it is the floor). It reads nothing hidden (S16) and draws
only from the policy stream.
"""

import numpy as np
from numba import njit

from sim.intrinsics import borrowed, popcount, stack_empty
from sim.streams import rand_below
from sim.survive_the_island import kernel as K
from sim.survive_the_island.layout import (
    ADV_N,
    ADV_RAFT,
    ADV_SPACE,
    K_SEA,
    KIND,
    MOVES_LEFT,
    P_ADV_EACH,
    P_LAND,
    P_NLAND,
    P_NSHORE,
    P_PLAYERS,
    P_RAFTS,
    P_SHORE,
    PH_ACTION,
    PH_CREATURE,
    PH_FLOOD,
    PH_PLACE,
    PH_PUSH,
    PH_REPEL,
    PHASE,
    PLACED,
    RAFT_SPACE,
    SEAT,
    STREAM_POLICY,
    SWAM,
)
from sim.survive_the_island.rules import END, MAX_SPACES, MOVE_ADVENTURER, MOVE_RAFT, PLACE, PLACE_ADVENTURER

DESCRIPTION = ("uniform over the legal set-up, flood, creature, push and repellent choices; a random piece, "
               "then a random move")
USES_LEGAL = False  # it finds its own moves: the play loop need not list every dive
DRAWS = 8  # pieces drawn before it ends the action phase
# NTH_VALUE[mask, k]: the k-th value (from the lowest) whose bit is set in a mask of values (bit v
# for value v, kernel.unplaced_values), read where a loop over the bits would branch unpredictably
NTH_VALUE = np.array([[([v for v in range(8) if m >> v & 1] + [0] * 8)[k] for k in range(8)] for m in range(256)],
                     dtype=np.int64)


@njit(cache=True)
def _piece_move(s, p, piece, rng):
    """A uniform legal move of piece `piece` (adventurers of the seat first, then rafts), or -1."""
    s, p, rng = borrowed(s), borrowed(p), borrowed(rng)
    seat = s[SEAT]
    each = p[P_ADV_EACH]
    dirs = stack_empty(6, np.int64)
    n = 0
    if piece < each:
        a = seat * each + piece
        q0 = s[ADV_SPACE + a]
        if q0 < 0:
            return -1
        swam = s[SWAM + a] != 0
        if swam and s[ADV_RAFT + a] < 0 and s[KIND + q0] == K_SEA:
            return -1
        for d in range(6):
            q = K.neighbour(p, q0, d)
            if not K.adventurer_may_stop(s, q):
                continue
            if swam and s[KIND + q] == K_SEA and not K.raft_room(s, p, q):
                continue
            dirs[n] = d
            n += 1
        if n == 0:
            return -1
        return MOVE_ADVENTURER + 6 * a + dirs[rand_below(rng, STREAM_POLICY, n)]
    r = piece - each
    q0 = s[RAFT_SPACE + r]
    if q0 < 0 or not K.controls(s, p, seat, r):
        return -1
    for d in range(6):
        if K.raft_may_stop(s, K.neighbour(p, q0, d)):
            dirs[n] = d
            n += 1
    if n == 0:
        return -1
    return MOVE_RAFT + 6 * r + dirs[rand_below(rng, STREAM_POLICY, n)]


@njit(cache=True)
def choose(s, p, pp, acts, n, rng):
    s, p, pp, acts, rng = borrowed(s), borrowed(p), borrowed(pp), borrowed(acts), borrowed(rng)
    ph = s[PHASE]
    if ph == PH_ACTION:
        acts[0] = END
        if s[MOVES_LEFT] > 0:
            pieces = p[P_ADV_EACH] + p[P_RAFTS]
            for _ in range(DRAWS):
                piece = rand_below(rng, STREAM_POLICY, pieces + 1)
                if piece == pieces:
                    break
                a = _piece_move(s, p, piece, rng)
                if a >= 0:
                    acts[0] = a
                    break
        return 0
    if ph == PH_FLOOD:
        n = K.flood_list(s, p, acts)
    elif ph == PH_CREATURE:
        n = K.creature_list(s, p, acts)
    elif ph == PH_PUSH:
        n = K.push_list(s, p, acts)
    elif ph == PH_REPEL:  # S15: spend it or keep it, evenly
        n = K.repel_list(s, p, acts)
    elif ph == PH_PLACE:
        # S7: the legal codes are every unplaced value on every open space, so a uniform value
        # and then a uniform space is a uniform legal code
        mask = K.unplaced_values(s, p, s[SEAT])
        v = NTH_VALUE[mask, rand_below(rng, STREAM_POLICY, popcount(mask))]
        # on an untouched island: an empty space while any is left, else one holding one. While
        # an eighth or more of the island fits, a space is drawn until one fits; then the k-th
        # of those that fit is counted out (a uniform choice either way, without listing them)
        nland = p[P_NLAND]
        placed = 0
        for seat in range(p[P_PLAYERS]):
            placed += s[PLACED + seat]
        crowd = 0 if placed < nland else 1
        fit = nland - placed if crowd == 0 else 2 * nland - placed
        if 8 * fit >= nland:
            while True:
                q = p[P_LAND + rand_below(rng, STREAM_POLICY, nland)]
                if s[ADV_N + q] == crowd:
                    break
        else:
            k = rand_below(rng, STREAM_POLICY, fit)
            i = 0
            while True:
                q = p[P_LAND + i]
                if s[ADV_N + q] == crowd:
                    if k == 0:
                        break
                    k -= 1
                i += 1
        acts[0] = PLACE_ADVENTURER + MAX_SPACES * (v - 1) + q
        return 0
    else:
        nshore = p[P_NSHORE]
        for _ in range(64):
            q = p[P_SHORE + rand_below(rng, STREAM_POLICY, nshore)]
            if K.raft_start_open(s, p, q):
                acts[0] = PLACE + q
                return 0
        n = K.raft_start_list(s, p, acts)
    return rand_below(rng, STREAM_POLICY, n)
