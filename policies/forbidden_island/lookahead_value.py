"""The worth of an unfinished Forbidden Island game for `lookahead`: the chance that `expert`
goes on to win from here, estimated from public facts of the state by a logistic model.

A rollout the search stops at its horizon used to be worth one constant (`still`), so two
candidates that both left the game running looked the same however differently they left the
board. This estimate tells them apart: a treasure whose last pickup tile is flooded, Fools'
Landing under water, cards missing for a capture, a higher water mark all lower it.

The features are read only from the public part of the state (hands, tiles, pawns, the
discards, the mark, the turn; never the order of a draw pile). The weights are fitted by
`experiments/forbidden_island_value.py` (logistic regression on the outcome of expert games at
every level and player count, states taken at the start of turns); that script prints the
`WEIGHTS` line below and its fit's quality. Refit after expert changes a lot; stale weights
only make the search's screening weaker, never unfair, and the confirmation still judges each
deviation on fresh worlds.
"""

import numpy as np
from numba import njit

import sim.forbidden_island.numba_cache  # noqa: F401  (before any Forbidden Island @njit)
from sim.forbidden_island.layout import (
    C_LIFT,
    C_SANDBAGS,
    C_WATERS_RISE,
    CAPTURED,
    FLOODED,
    HAND,
    HAND_STRIDE,
    MARK,
    NEIGH,
    P_PLAYERS,
    PAWN,
    PICKUP,
    SUNK,
    T_FOOLS_LANDING,
    TDISC,
    TILE_PLACE,
    TPILE_N,
    TURN,
)
from sim.layout import popcount

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
)
NFEATURES = len(FEATURES)

# Fitted by experiments/forbidden_island_value.py (its output; the order of FEATURES).
WEIGHTS = np.array([3.5815, 1.3296, -0.2025, -0.3243, -0.2247, -0.1509, 0.0116, -0.0340, 0.3041, -0.5471, -0.1869,
                    -0.1539, 0.1369, 0.0478, 0.0517, -2.6044, 0.2453, -0.6255])


@njit(cache=True)
def features(s, p, out):
    """Write the FEATURES of state `s` into out[:NFEATURES]."""
    players = p[P_PLAYERS]
    sunk = np.int64(s[SUNK])
    flooded = np.int64(s[FLOODED])
    captured = s[CAPTURED]
    missing = 0
    unreachable = 0
    one_sunk = 0
    last_flooded = 0
    pickups_flooded = 0
    for t in range(4):
        if (captured >> t) & 1:
            continue
        held = 0
        for seat in range(players):
            held += s[HAND + HAND_STRIDE * seat + t]
        missing += max(4 - held, 0)
        if s[TDISC + t] >= 2:
            unreachable += 1
        a = s[TILE_PLACE + PICKUP[t, 0]]
        b = s[TILE_PLACE + PICKUP[t, 1]]
        sa = (sunk >> a) & 1
        sb = (sunk >> b) & 1
        fa = (flooded >> a) & 1
        fb = (flooded >> b) & 1
        pickups_flooded += fa + fb
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


@njit(cache=True)
def win_chance(s, p, weights, scratch):
    """The model's chance that expert wins from `s` (scratch: NFEATURES floats)."""
    features(s, p, scratch)
    x = 0.0
    for k in range(NFEATURES):
        x += weights[k] * scratch[k]
    return 1.0 / (1.0 + np.exp(-x))
