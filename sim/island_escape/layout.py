"""The kernel's array layout: state offsets, parameter slots, action ids, randomness.

Shared by `sim/island_escape/kernel.py` and the policies in `policies/`, which must not import the kernel
(the kernel dispatches to them). See `sim/island_escape/kernel.py` for the design.
"""

import numpy as np
from numba import njit

from sim.fields import Layout
from sim.intrinsics import extract_bits, kth_set_bit, popcount  # noqa: F401  (the kernel's vocabulary)
from sim.streams import GOLDEN, rand_below, rand_normal, rand_unit, seed_streams  # noqa: F401

# --- state offsets (declared in order: each field starts where the one before ends) -----------------
STATE = Layout("Island Escape state")
CARD = STATE.field("CARD", 25)  # card id per place, -1 for sea
TSTATE = STATE.field("TSTATE", 25)  # 0 face down, 1 dry, 2 flooded, 3 sea
PAWN = STATE.field("PAWN", 4)  # place of each pawn, -1 for a seat without one (the legal-action mask reads all four)
HAND = STATE.field("HAND", 4)  # salvage of each pawn as a bit mask of land cards (bit = card id - 4)
RAISED = STATE.field("RAISED")  # bit mask of raised suits
GAUGE_TOP = STATE.field("GAUGE_TOP")  # index of the top gauge card in p[P_GRANK:]
COLP = STATE.field("COLP", 5)  # column pile of this pass, in draw order
ROWP = STATE.field("ROWP", 5)  # row pile of this pass
PILE_POS = STATE.field("PILE_POS")  # floods drawn in this pass
TURN = STATE.field("TURN")  # turns begun
CUR = STATE.field("CUR")  # pawn whose turn it is
ACTS = STATE.field("ACTS")  # actions left this turn
FLOODS = STATE.field("FLOODS")  # floods resolved
OUTCOME = STATE.field("OUTCOME")  # -1 while running, else a CAUSE_* code
ISLAND_LAND = STATE.field("ISLAND_LAND")  # bit mask of land cards still on the island (any state but sea)
TILES = STATE.field("TILES")  # place mask of tiles (not sea)
KINGPOS = STATE.field("KINGPOS", 4)  # place of each King, -1 once it is off the island
RAISE_TURN = STATE.field("RAISE_TURN", 4)  # turn each suit was raised, -1 if not
COUNT = STATE.field("COUNT", 8)  # actions used by kind (move swim shore salvage give raise takeoff) and unused
SUNK = STATE.field("SUNK")  # tiles sunk by floods
LOSS_PLACE = STATE.field("LOSS_PLACE")  # place whose sinking ended the game, -1
PASSES = STATE.field("PASSES")
RAISE_SEQ = STATE.field("RAISE_SEQ")  # suits in the order raised, as base-5 digits (suit + 1), oldest first
# Two place masks kept in step with TSTATE and CARD by the kernel's step functions, so that the
# legal-action mask reads a few words instead of three state entries per neighbour:
FLOODED_AT = STATE.field("FLOODED_AT")  # places whose tile is flooded (TSTATE == FLOODED)
# places whose tile is face up (dry or flooded) and holds a land card: R10's salvage
FACE_UP_LAND = STATE.field("FACE_UP_LAND")
# Where the shared entry points (sim/kernel_api.py) are inside a flood phase, which the play loop
# keeps in its own variables instead:
FLOODS_LEFT = STATE.field("FLOODS_LEFT")  # floods still to draw in this flood phase
ESCAPE_FROM = STATE.field("ESCAPE_FROM")  # the sunk place whose pawns must still escape (R15), -1 for none
ESCAPE_CARD = STATE.field("ESCAPE_CARD")  # the card that place held, for the checks after the escapes
NSTATE = STATE.size

# --- parameters ----------------------------------------------------------------------------------
PARAMS = Layout("Island Escape parameters")
P_PLAYERS = PARAMS.field("P_PLAYERS")
P_PAWNS = PARAMS.field("P_PAWNS")
P_CPT = PARAMS.field("P_CPT")
P_SWIM = PARAMS.field("P_SWIM")
P_ACTIONS = PARAMS.field("P_ACTIONS")
P_GLEN = PARAMS.field("P_GLEN")
P_GRANK = PARAMS.field("P_GRANK", 10)  # rank of each gauge card, top first
NPARAMS = PARAMS.size
MAX_GAUGE = 10

# --- tile states, outcomes -----------------------------------------------------------------------
DOWN, DRY, FLOODED, SEA = 0, 1, 2, 3
CAUSE_WIN, CAUSE_TREASURE, CAUSE_HELICOPTER, CAUSE_DROWNED = 0, 1, 2, 3
CAUSE_WATER, CAUSE_CUT_OFF, CAUSE_CARDS = 4, 5, 6
CAUSES = ("win", "treasure", "helicopter", "drowned", "water", "cut_off", "cards")
JOKER_ID = 24
CENTRE = 12

# --- actions (a fixed action space; the mask says which are legal) -------------------------------
A_MOVE = 0  # + direction (up, down, left, right)
A_SWIM = 4  # + direction
A_SHORE_HERE = 8
A_SHORE = 9  # + direction
A_SALVAGE = 13  # + direction
A_GIVE = 17  # + 4 * pawn + suit: all my cards of that suit
A_RAISE = 33
A_TAKEOFF = 34
A_END = 35  # pass the rest of the turn
N_ACTIONS = 36
# The shared entry points' decisions (sim/kernel_api.py) add the R15 escapes, which the play loop
# asks of a policy apart: escape to place (the pawn to escape is the lowest on the sunk place).
A_ESCAPE = N_ACTIONS  # + place
N_DECISIONS = A_ESCAPE + 25
# the longest list of decisions open at once: a turn's actions (an escape has at most 8 places)
MAX_LEGAL = N_ACTIONS
# Neighbour tables: NEIGHBOUR[place, d] is the place one step in direction d (or -1 off the
# island), NEIGHBOUR2 two steps, ESCAPE_TO[place, k] the k-th place in the default escape order.
def _table(dcs, drs, times):
    out = np.full((25, len(dcs)), -1, dtype=np.int64)
    for place in range(25):
        for k in range(len(dcs)):
            c, r = place % 5 + dcs[k] * times, place // 5 + drs[k] * times
            if 0 <= c <= 4 and 0 <= r <= 4:
                out[place, k] = r * 5 + c
    return out


DIR_DC = np.array([0, 0, -1, 1], dtype=np.int64)
DIR_DR = np.array([-1, 1, 0, 0], dtype=np.int64)
# R15 / RECORD-FORMAT default escape order: up, up-right, right, down-right, down, …, up-left.
ESC_DC = np.array([0, 1, 1, 1, 0, -1, -1, -1], dtype=np.int64)
ESC_DR = np.array([-1, -1, 0, 1, 1, 1, 0, -1], dtype=np.int64)

NEIGHBOUR = _table(DIR_DC, DIR_DR, 1)
NEIGHBOUR2 = _table(DIR_DC, DIR_DR, 2)
ESCAPE_TO = _table(ESC_DC, ESC_DR, 1)
NON_CENTRE = np.array([i for i in range(25) if i != 12], dtype=np.int64)

# count slots in s[COUNT:]
C_MOVE, C_SWIM, C_SHORE, C_SALVAGE, C_GIVE, C_RAISE, C_TAKEOFF, C_UNUSED = range(8)

# --- per-game results ----------------------------------------------------------------------------
RESULT_FIELDS = ("cause", "turns", "floods", "treasures_raised", "tiles_sunk", "moves", "swims",
                 "shores", "salvages", "gives", "raises", "unused", "raise_turn_S", "raise_turn_H",
                 "raise_turn_D", "raise_turn_C", "gauge_left", "water_level", "loss_place",
                 "explored", "kings_found", "salvage_held")
NRESULT = len(RESULT_FIELDS)
# the result fields a table keeps as int8 (the others int16): a million-game table stays small
RESULT_INT8 = ("treasures_raised", "tiles_sunk", "shores", "salvages", "gives", "raises", "raise_turn_S",
               "raise_turn_H", "raise_turn_D", "raise_turn_C", "gauge_left", "water_level", "loss_place",
               "explored", "kings_found", "salvage_held", "turns", "floods")

# --- log codes for record export -------------------------------------------------------------------
LOG_ESCAPE = 40  # a = pawn, b = place
LOG_FLOOD = 50  # a = place
LOG_ROWS = 2048
LOG_SHAPE = (LOG_ROWS, 4)  # a logged game's rows: turn, code, a, b

FULL = (1 << 25) - 1
NOT_LAST_COL = FULL & ~((1 << 4) | (1 << 9) | (1 << 14) | (1 << 19) | (1 << 24))
NOT_FIRST_COL = FULL & ~((1 << 0) | (1 << 5) | (1 << 10) | (1 << 15) | (1 << 20))
SUIT_MASK = np.array([0x1F, 0x1F << 5, 0x1F << 10, 0x1F << 15], dtype=np.int64)

STREAM_DEAL, STREAM_FLOOD, STREAM_POLICY = 0, 1, 2


# An index that is never negative, given to numba as unsigned: for a signed integer index numba
# adds code that wraps a negative one round to the end of the array (a compare and two
# conditional moves at every access with a computed index, which LLVM can rarely drop since the
# index is read from the state). The kernel's step functions index the state and the place
# tables with `at(...)`; never use it for an index that may be negative (-1 for "none"), as
# numba checks no bounds.
at = np.uint64

# --- small helpers -------------------------------------------------------------------------------


@njit(cache=True)
def raise_discard_cards(hand, in_play, raised, suit, cpt):
    """The cards a raise on `suit` discards from `hand`, as a bit mask (R12); 0 if it cannot be
    raised. `in_play`: the land cards on the island or in any salvage; `raised`: raised suits.

    Normal raise: the lowest `cpt` cards of the suit. Short of a suit: the `cpt + 1` cards the
    team needs least - raised suits first, then the King's own suit, then the suits with most
    cards in play (ties by suit order); lowest rank first within a suit. Shared by the kernel
    and the policies (policies must not import the kernel).
    """
    own = hand & SUIT_MASK[suit]
    if popcount(own) >= cpt:
        return _add_lowest(0, own, cpt)
    if popcount(in_play & SUIT_MASK[suit]) >= cpt or popcount(hand) < cpt + 1:
        return 0  # not short of the suit, or too few cards
    taken = 0  # suits already drawn from
    out = 0
    for _ in range(4):  # the next suit by (key, suit): a stable sort without an array
        best = -1
        best_key = 0
        for t in range(4):
            if (taken >> t) & 1:
                continue
            if (raised >> t) & 1:
                key = -100
            elif t == suit:
                key = -50
            else:
                key = -popcount(in_play & SUIT_MASK[t])
            if best < 0 or key < best_key:
                best = t
                best_key = key
        taken |= 1 << best
        out = _add_lowest(out, hand & SUIT_MASK[best], cpt + 1)
    return out


@njit(cache=True)
def _add_lowest(out, cards, limit):
    """`out` plus the lowest cards of `cards` until it holds `limit` cards (or `cards` runs out).
    A loop over set bits, not over 20 ranks: numba would unroll the latter and compile slowly."""
    while cards and popcount(out) < limit:
        low = cards & -cards
        out |= low
        cards ^= low
    return out


# --- R16 and R17 on bit masks, shared by the kernel and the policies' look-ahead ---------------------


@njit(cache=True, forceinline=True)
def grow_reach(reach, tiles, swims):
    """One step of the R16 flood fill: `reach` plus every tile one move away, and with `swims`
    every tile reached by swimming across exactly one sea place (R8)."""
    sea = FULL & ~tiles
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
    return new & FULL


@njit(cache=True, forceinline=True)
def in_play(s, p):
    """R12/R17: land cards on the island or in any salvage, as a bit mask (all public: every
    card that left the island was seen face up)."""
    m = np.int64(s[ISLAND_LAND])
    for i in range(p[P_PAWNS]):
        m |= s[HAND + i]
    return m


@njit(cache=True, forceinline=True)
def cards_short_mask(p, m, raised):
    """R17, checked jointly: can the treasures not in `raised` all be raised from the cards `m`?
    Every unraised suit that is not short reserves cards_per_treasure of its own; the rest must
    cover cards_per_treasure + 1 for every short suit."""
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
