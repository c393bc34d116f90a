"""`novice`: a first-time table that follows the rulebook's "Tips for beginners" loosely.

Each action it takes the first of these that applies:

1. take off; raise the treasure it stands on (R12, never a raise that loses by R17);
2. shore up a flooded tile here or next to it (Kings and the helicopter first);
3. once all four treasures are raised, or when its own actions left barely cover the walk home
   (it heads home late: no margin): walk to the helicopter;
4. give a suit to a pawn on the same place that holds more of it;
5. salvage a next-door land tile of a suit the team still needs (it only avoids a salvage that
   loses at once by R16; it does not care about the edge or paths);
6. walk to a flooded King or helicopter it knows of, or to a King it can raise;
7. explore: step onto a next-door face-down tile (picked at random), else walk towards the
   nearest face-down place, else towards a needed land tile, else pass.

Fair (R19): it reads only face-up cards, tile states, pawns, salvage and the gauge; its random
picks come from the policy stream. No tunable weights.
"""

import numpy as np
from numba import njit

from policies._search import (
    INF,
    distances,
    face_up_kings,
    my_actions_left,
    raise_is_safe,
    salvage_keeps_targets,
    step,
    suit_of,
)
from sim.layout import (
    A_END,
    A_GIVE,
    A_MOVE,
    A_RAISE,
    A_SALVAGE,
    A_SHORE,
    A_SHORE_HERE,
    A_TAKEOFF,
    CARD,
    CENTRE,
    CUR,
    DOWN,
    FLOODED,
    HAND,
    P_CPT,
    P_PAWNS,
    P_SWIM,
    PAWN,
    RAISED,
    SEA,
    STREAM_POLICY,
    SUIT_MASK,
    TILES,
    TSTATE,
    popcount,
    rand_below,
)

DESCRIPTION = "a first-time table: explores at random, salvages what it finds, shores next door, homes late"


@njit(cache=True)
def _walk(s, p, legal, here, tiles, init, rng):
    """A legal move or swim that brings the pawn closer to the cheapest goal in `init`
    (ties broken at random from the policy stream); A_END if none does."""
    dist = np.empty(25)
    distances(p, tiles, init, dist)
    if dist[here] >= INF:
        return A_END
    swim = p[P_SWIM]
    best = dist[here]
    cands = np.empty(8, dtype=np.int64)
    n = 0
    for d in range(8):
        a = A_MOVE + d
        if not (legal >> a) & 1:
            continue
        t = step(here, d % 4, 1 if d < 4 else 2)
        v = (1.0 if d < 4 else swim) + dist[t]
        if v < best - 1e-9:
            best = v
            n = 0
        if v <= best + 1e-9 and dist[t] < dist[here]:
            cands[n] = a
            n += 1
    if n == 0:
        return A_END
    return cands[rand_below(rng, STREAM_POLICY, n)]


@njit(cache=True, _nrt=True)  # may create arrays: see policies/dispatch.py
def choose(s, p, pp, legal, rng):
    if (legal >> A_TAKEOFF) & 1:
        return A_TAKEOFF
    me = s[CUR]
    here = s[PAWN + me]
    tiles = np.int64(s[TILES])
    raised = s[RAISED]
    cpt = p[P_CPT]
    kpos = np.empty(4, dtype=np.int64)
    face_up_kings(s, kpos)
    if (legal >> A_RAISE) & 1 and raise_is_safe(s, p, me, s[CARD + here]):
        return A_RAISE
    # shore up what floods next to it, Kings and the helicopter first
    shore = -1
    for d in range(5):
        a = A_SHORE_HERE if d == 4 else A_SHORE + d
        if (legal >> a) & 1:
            t = here if d == 4 else step(here, d, 1)
            card = s[CARD + t]
            if card < 4 or card == 24:
                return a
            if shore < 0:
                shore = a
    if shore >= 0:
        return shore
    init = np.full(25, INF)
    # home: all raised, or late
    home = np.full(25, INF)
    home[CENTRE] = 0.0
    dhome = np.empty(25)
    distances(p, tiles, home, dhome)
    if raised == 15 or my_actions_left(s, p) <= dhome[here]:
        return _walk(s, p, legal, here, tiles, home, rng)
    # gives
    hand = np.int64(s[HAND + me])
    for other in range(p[P_PAWNS]):
        if other == me or s[PAWN + other] != here:
            continue
        for suit in range(4):
            a = A_GIVE + 4 * other + suit
            if (legal >> a) & 1 and not (raised >> suit) & 1:
                if popcount(s[HAND + other] & SUIT_MASK[suit]) > popcount(hand & SUIT_MASK[suit]):
                    return a
    # salvage a needed suit
    team = np.zeros(4, dtype=np.int64)
    for i in range(p[P_PAWNS]):
        for suit in range(4):
            team[suit] += popcount(s[HAND + i] & SUIT_MASK[suit])
    for d in range(4):
        if not (legal >> (A_SALVAGE + d)) & 1:
            continue
        t = step(here, d, 1)
        suit = suit_of(s[CARD + t])
        if (raised >> suit) & 1 or team[suit] >= cpt:
            continue
        if salvage_keeps_targets(s, p, tiles, kpos, t):
            return A_SALVAGE + d
    # guard the Kings: walk to a flooded King or helicopter it knows of
    for place in range(25):
        card = s[CARD + place]
        if s[TSTATE + place] == FLOODED and (card == 24 or (card < 4 and not (raised >> card) & 1)):
            init[place] = 0.0
    # a King it can raise
    for suit in range(4):
        k = kpos[suit]
        if k >= 0 and not (raised >> suit) & 1 and popcount(hand & SUIT_MASK[suit]) >= cpt:
            init[k] = 0.0
    a = _walk(s, p, legal, here, tiles, init, rng)
    if a != A_END:
        return a
    # explore: a next-door face-down tile at random, else the nearest face-down place
    n = 0
    cands = np.empty(4, dtype=np.int64)
    for d in range(4):
        if (legal >> (A_MOVE + d)) & 1 and s[TSTATE + step(here, d, 1)] == DOWN:
            cands[n] = A_MOVE + d
            n += 1
    if n > 0:
        return cands[rand_below(rng, STREAM_POLICY, n)]
    found = False
    for place in range(25):
        if s[TSTATE + place] == DOWN:
            init[place] = 0.0
            found = True
    if not found:  # everything explored: stand next to a needed land tile
        for place in range(25):
            st = s[TSTATE + place]
            card = s[CARD + place]
            if st == SEA or st == DOWN or card < 4 or card >= 24:
                continue
            suit = suit_of(card)
            if (raised >> suit) & 1 or team[suit] >= cpt:
                continue
            for d in range(4):
                t = step(place, d, 1)
                if t >= 0 and (tiles >> t) & 1:
                    init[t] = 0.0
        if init[here] == 0.0:
            return A_END
    return _walk(s, p, legal, here, tiles, init, rng)


@njit(cache=True, _nrt=True)
def escape(s, p, pp, pawn, opts, n, rng):
    """R15: a dry option if there is one (random among them), else any at random."""
    dry = 0
    for k in range(n):
        if s[TSTATE + opts[k]] != FLOODED:
            dry += 1
    if dry == 0:
        return rand_below(rng, STREAM_POLICY, n)
    j = rand_below(rng, STREAM_POLICY, dry)
    for k in range(n):
        if s[TSTATE + opts[k]] != FLOODED:
            if j == 0:
                return k
            j -= 1
    return 0
