"""The worth of an unfinished Forbidden Island game for `lookahead`: the chance that `expert`
goes on to win from here, estimated from public facts of the state by a logistic model.

A rollout the search stops at its horizon used to be worth one constant (`still`), so two
candidates that both left the game running looked the same however differently they left the
board. This estimate tells them apart: a treasure whose last pickup tile is flooded, Fools'
Landing under water, cards missing for a capture (in the team's hands, and in the one hand that
holds the most of each treasure, since a capture needs all four in one hand), a pawn far from
Fools' Landing, flooded tiles waiting in the flood discard (the first to come back after a Waters
Rise!), a higher water mark all lower it. Products let a linear model weigh a missing card, the
mark and a Helicopter Lift in hand by how far the game has come.

The features are read only from the public part of the state (hands, tiles, pawns, the
discards, the mark, the turn; never the order of a draw pile). The weights are fitted by
`policies/forbidden_island/value_fit.py` (logistic regression on the outcome of expert games at
every level and player count, states taken at the start of turns); that script prints the
`WEIGHTS` line below and its fit's quality. Refitted when expert learned to play a Sandbags
before a Lift and to head for Fools' Landing once three treasures are held (6,000 games a cell,
seed 78): held-out log loss 0.3568 for the weights fitted on the expert before, 0.3559 refitted,
0.3552 with the two Lift features last in FEATURES (a Lift is the escape once the four treasures
are held, and 12% of lookahead's 2-player Novice games were lost after the fourth capture, most
with no Lift in hand); the base rate alone scores 0.5026. Refit after expert changes a lot;
stale weights make the search weaker (its screening and its confirmation both value an
unfinished game by them, each on its own worlds), never unfair.
"""

import numpy as np
from numba import njit

from sim.forbidden_island.layout import (
    ALL_PLACES,
    C_LIFT,
    C_SANDBAGS,
    C_WATERS_RISE,
    CAPTURED,
    FDISC,
    FLOOD_DRAWS,
    FLOODED,
    HAND,
    HAND_STRIDE,
    MARK,
    NEIGH,
    NEIGH8,
    NPLACES,
    P_PLAYERS,
    PAWN,
    PICKUP,
    ROLE,
    ROLE_DIVER,
    ROLE_EXPLORER,
    ROLE_PILOT,
    SUNK,
    T_FOOLS_LANDING,
    TDISC,
    TILE_PLACE,
    TPILE_N,
    TURN,
)
from sim.intrinsics import popcount

FEATURES = (
    "bias",
    "treasures captured",
    "cards still missing for the uncaptured treasures (team's hands)",
    "uncaptured treasures out of reach (two or more of its cards discarded)",
    "uncaptured treasures with one pickup tile sunk",
    "of those, the other pickup tile flooded",
    "pickup tiles of uncaptured treasures flooded",
    "Fools' Landing flooded",
    "Fools' Landing's standing side neighbours",
    "water mark",
    "tiles sunk",
    "tiles flooded",
    "Helicopter Lifts held",
    "Sandbags held",
    "pawns on a flooded tile with at most one standing side neighbour",
    "Waters Rise! cards in the treasure pile over its size (the odds of one per draw)",
    "turn / 10",
    "players",
    "cards missing for the uncaptured treasures, counting only the hand that holds the most of each",
    "flood cards drawn a turn at this mark",
    "farthest pawn's way to Fools' Landing in moves over standing tiles (Pilot at most 1; cut off: 10)",
    "that way once all four treasures are captured",
    "flooded tiles in the flood discard (they return first after a Waters Rise!)",
    "of those, pickup tiles of uncaptured treasures and Fools' Landing",
    "uncaptured treasures with both pickup tiles flooded",
    "cards missing for the best-held uncaptured treasures (above) times treasures captured",
    "cards missing for the best-held uncaptured treasures, squared",
    "treasures captured times the water mark",
    "Helicopter Lifts held times treasures captured",
    "all four treasures captured and no Helicopter Lift held (the escape waits for one)",
)
NFEATURES = len(FEATURES)

# Fitted by policies/forbidden_island/value_fit.py (its output; the order of FEATURES).
WEIGHTS = np.array([8.5128, 0.7263, -0.0068, -0.1086, -0.1312, -0.2110, -0.0841, -0.1858, 0.1572, -0.7087,
                    -0.2138, -0.1232, 0.0395, 0.1248, 0.0633, -3.3671, -0.1263, -0.5457, -0.7292, 0.0794,
                    -0.1509, 0.0008, -0.0334, 0.0921, -0.0769, -0.0709, 0.0234, 0.0289, 0.0734, -0.6463])


FAR = 10  # the way to Fools' Landing of a pawn that cannot walk there


@njit(cache=True)
def _moves_to(target, start, standing, role):
    """Moves from place `start` to place `target` over the standing places (the Explorer also
    diagonally, the Diver through any place, the Pilot one flight); FAR when cut off."""
    if start == target:
        return 0
    if role == ROLE_PILOT:
        return 1
    seen = np.int64(1) << start
    ring = seen
    for step in range(1, FAR):
        nxt = np.int64(0)
        for q in range(NPLACES):
            if (ring >> q) & 1:
                nxt |= NEIGH8[q] if role == ROLE_EXPLORER else NEIGH[q]
        nxt &= ~seen
        if role != ROLE_DIVER:
            nxt &= standing
        if (nxt >> target) & 1:
            return step
        if nxt == 0:
            return FAR
        seen |= nxt
        ring = nxt
    return FAR


@njit(cache=True)
def features(s, p, out):
    """Write the FEATURES of state `s` into out[:NFEATURES]."""
    players = p[P_PLAYERS]
    sunk = np.int64(s[SUNK])
    flooded = np.int64(s[FLOODED])
    captured = s[CAPTURED]
    missing = 0
    missing_best = 0
    both_flooded = 0
    unreachable = 0
    one_sunk = 0
    last_flooded = 0
    pickups_flooded = 0
    for t in range(4):
        if (captured >> t) & 1:
            continue
        held = 0
        most = 0
        for seat in range(players):
            k = s[HAND + HAND_STRIDE * seat + t]
            held += k
            most = max(most, k)
        missing += max(4 - held, 0)
        missing_best += max(4 - most, 0)
        if s[TDISC + t] >= 2:
            unreachable += 1
        a = s[TILE_PLACE + PICKUP[t, 0]]
        b = s[TILE_PLACE + PICKUP[t, 1]]
        sa = (sunk >> a) & 1
        sb = (sunk >> b) & 1
        fa = (flooded >> a) & 1
        fb = (flooded >> b) & 1
        pickups_flooded += fa + fb
        both_flooded += fa & fb
        if sa + sb == 1:
            one_sunk += 1
            if (sa and fb) or (sb and fa):
                last_flooded += 1
    landing = s[TILE_PLACE + T_FOOLS_LANDING]
    lifts = 0
    bags = 0
    for seat in range(players):
        lifts += s[HAND + HAND_STRIDE * seat + C_LIFT]
        bags += s[HAND + HAND_STRIDE * seat + C_SANDBAGS]
    cornered = 0
    for seat in range(players):
        q = s[PAWN + seat]
        if (flooded >> q) & 1 and popcount(NEIGH[q] & ~sunk) <= 1:
            cornered += 1
    out[0] = 1.0
    out[1] = popcount(captured)
    out[2] = missing
    out[3] = unreachable
    out[4] = one_sunk
    out[5] = last_flooded
    out[6] = pickups_flooded
    out[7] = (flooded >> landing) & 1
    out[8] = popcount(NEIGH[landing] & ~sunk)
    out[9] = s[MARK]
    out[10] = popcount(sunk)
    out[11] = popcount(flooded)
    out[12] = lifts
    out[13] = bags
    out[14] = cornered
    out[15] = (3 - s[TDISC + C_WATERS_RISE]) / max(s[TPILE_N], 1)
    out[16] = s[TURN] / 10.0
    out[17] = players
    standing = ALL_PLACES & ~sunk
    far = 0
    for seat in range(players):
        far = max(far, _moves_to(landing, s[PAWN + seat], standing, s[ROLE + seat]))
    returning = 0
    key = 0
    for t in range(NPLACES):
        if (s[FDISC] >> t) & 1 and (flooded >> s[TILE_PLACE + t]) & 1:
            returning += 1
            if t == T_FOOLS_LANDING:
                key += 1
    for t in range(4):
        if not (captured >> t) & 1:
            for j in range(2):
                tile = PICKUP[t, j]
                if (s[FDISC] >> tile) & 1 and (flooded >> s[TILE_PLACE + tile]) & 1:
                    key += 1
    out[18] = missing_best
    out[19] = FLOOD_DRAWS[s[MARK]]
    out[20] = far
    out[21] = far if popcount(captured) == 4 else 0
    out[22] = returning
    out[23] = key
    out[24] = both_flooded
    out[25] = missing_best * out[1]  # interactions: a linear model cannot weigh a missing card by the stage
    out[26] = missing_best * missing_best
    out[27] = out[1] * out[9]
    out[28] = lifts * out[1]
    out[29] = 1.0 if popcount(captured) == 4 and lifts == 0 else 0.0


@njit(cache=True)
def win_chance(s, p, weights, scratch):
    """The model's chance that expert wins from `s` (scratch: NFEATURES floats)."""
    features(s, p, scratch)
    x = 0.0
    for k in range(NFEATURES):
        x += weights[k] * scratch[k]
    return 1.0 / (1.0 + np.exp(-x))
