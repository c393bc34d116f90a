"""`expert` for Forbidden Island in numba: the readable expert (`expert_reference.py`) ported
over the kernel's state, decision by decision.

Every function below mirrors the function of the same name in `expert_reference.py`, in the
same order of arithmetic, so that both choose the same action whenever they see the same state
(tests/forbidden_island/test_expert_port.py plays them side by side). The reference documents
the reasoning; this file only says where the port differs in form. Only public parts of the
state are read: hands, tiles, pawns, the treasure discard, the flood discard and the sizes of the
flood pile's layers with their cards (never the order inside the treasure or flood pile).

The port is written for speed (the study plays hundreds of thousands of its games; the aim is
20,000 games/s on 2 cores), so it differs in form thus:
- It never reads the legal list (USES_LEGAL = False: the play loop skips building it). The
  reference picks among the legal actions, but it only ever considers a few kinds; the port
  finds those itself (the kernel's target masks of `turn_actions`, walked bit by bit; the
  discards and swims of the seat that must act) and checks a Helicopter Lift or Sandbags it
  wants against F9 directly (`_lift_ok`). Ties go to the lowest code, a total order, so the
  order in which candidates are scored does not matter.
- It builds the board in stages and only the stages a decision reads: a flood draw with no
  special card in any hand needs no board at all; tile worths and flood odds only when a risk is
  read; a seat's goals only when its place is scored. A draw with special cards in hand is first
  asked whether any card could be played there (`_draw_needs_no_card`, cheaper than a board).
- Distances are read from a table of moves between places (paths.py), each row found by one
  search from its place the first time it is read on the current island and kept until a tile
  sinks (or, for the Diver, floods or is shored up): moves are symmetric, so a search from the
  start gives the reference's distances from its search from the goals.
- The place score before an action is computed once per decision, not once per action. Each
  seat's goal term and distances to the threats at each place are kept from one decision to
  the next while its goals, its island and the threats' places are the same (`_place_score`,
  versioned), and the flood odds and each flooded tile's urgency while the flood pile, its
  discard, the mark and the draws ahead are the same (`_flood_odds`). The list of threats is
  kept while the odds, the flooded, sunk and stranded places, the captures, the layout and the
  weights are the same (`_find_threats`: a move or a give between a turn's actions leaves it
  as it was), and each seat's goal list while the treasure cards in every hand, the pawns, the
  roles, the captures, the sunk places, the layout and the weights are (`_list_goals`).
- A search of the whole island (a Lift to fly freely or before a discard, a safe spot) scores
  all 24 places in one sweep (`_place_scores`) rather than place by place, and is skipped when
  an upper bound of every place's score (`_score_bound`) shows no place could gain enough. For
  a walker the sweep reads the table's rows from the goals' and the threats' places (moves are
  symmetric), not a row from each of the 24 places.
- Scratch space is stamped with a generation number per decision (or a version number per
  kept result) instead of being cleared.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from policies.forbidden_island.expert_reference import (
    BAG_INSTEAD,
    BAGS_FREELY,
    CAPTURE,
    CAPTURE_SLACK,
    CARD_BASE,
    CARD_COLLECTOR,
    CARD_GONE,
    CARD_PER_HELD,
    CONNECTED,
    DRY_BONUS,
    FAR,
    FUTURE_RISK,
    GIVE,
    GIVE_PER_CARD,
    LIFT_FREELY,
    LIFT_INSTEAD,
    LIFT_LAST,
    LIFT_MORE,
    LIFT_SPARE,
    LIFTS_CAPTURE,
    LIFTS_FREELY,
    LIFTS_TRADE,
    LOSING_TILE,
    NEAR_LANDING,
    OPEN_SIDE,
    PICKUP_WITH_TWIN,
    PLAIN_TILE,
    PULL,
    RISKY_PENALTY,
    SANDBAGS_KEEP,
    SOON_WEIGHT,
    TO_CAPTURE,
    TO_COMPLETING_TRADE,
    TO_DEFAULT,
    TO_LANDING,
    TO_TRADE,
    TRADE_SHORT,
)
from policies.forbidden_island.paths import (
    DIVE,
    PATH_SLOTS,
    WALK,
    WALK_CORNERS,
    distance_row,
    distance_to,
    low_bit,
    shore_distance,
)
from sim.fields import Layout
from sim.forbidden_island.kernel import (
    can_capture,
    can_lift_off,
    escape_targets,
    give_receivers,
    low_seat,
    move_targets,
    navigate_targets,
    only_draw,
    over_limit,
    phase,
    shore_targets,
    standing,
)
from sim.forbidden_island.layout import (
    A_CAPTURE,
    A_DISCARD,
    A_DRAW,
    A_FLOOD,
    A_FLY,
    A_GIVE,
    A_LIFT,
    A_LIFTOFF,
    A_MOVE,
    A_NAVIGATE,
    A_SANDBAGS,
    A_SHORE,
    A_SHORE2,
    A_SWIM,
    ACTS,
    C_LIFT,
    C_SANDBAGS,
    C_WATERS_RISE,
    CAPTURED,
    CUR,
    DRAWS,
    FDISC,
    FLAYER,
    FLAYERS_N,
    FLEW,
    FLOOD_DRAWS,
    FLOODED,
    FLOODS,
    FPILE,
    FPILE_N,
    HAND,
    HAND_STRIDE,
    MARK,
    NEIGH,
    NEIGH8,
    P_CAPTURE,
    P_DRAWS,
    P_HAND_LIMIT,
    P_PLAYERS,
    PAWN,
    PH_ACTIONS,
    PH_DISCARD,
    PH_FLOOD,
    PH_SWIM,
    PH_TREASURE,
    PICKUP,
    PLACE_TILE,
    ROLE,
    ROLE_DIVER,
    ROLE_ENGINEER,
    ROLE_EXPLORER,
    ROLE_MESSENGER,
    ROLE_NAVIGATOR,
    ROLE_PILOT,
    SKULL,
    SUNK,
    SWIMMERS,
    T_FOOLS_LANDING,
    TDISC,
    TILE_PLACE,
    TILE_TREASURE,
    TREASURE_DECK_COUNTS,
)
from sim.intrinsics import borrowed, popcount

MAX_GOALS = 16  # per seat: four treasures, three partners each, and a pickup pull
THREAT_SLOTS = 5  # place_score looks at the five most pressing flooded tiles

# Scratch layout. `bi` (int64) and `b` (float64) are kept for a whole run of games; every
# decision that builds a board takes a new generation number, and the parts built lazily carry
# the generation they were built for (so nothing is cleared between decisions).
BOARD_INTS = Layout("Forbidden Island expert's bi")
BI_GEN = BOARD_INTS.field("BI_GEN")
BI_PLAYERS = BOARD_INTS.field("BI_PLAYERS")
BI_CAPT = BOARD_INTS.field("BI_CAPT")
BI_NTHR = BOARD_INTS.field("BI_NTHR")
BI_PILE = BOARD_INTS.field("BI_PILE")
BI_DISC = BOARD_INTS.field("BI_DISC")
BI_NDISC = BOARD_INTS.field("BI_NDISC")
BI_THREATS_GEN = BOARD_INTS.field("BI_THREATS_GEN")
BI_WEIGHTS_SET = BOARD_INTS.field("BI_WEIGHTS_SET")
BOARD_INTS.unused(1)
BI_PAWN = BOARD_INTS.field("BI_PAWN", 4)  # by seat
BI_ROLE = BOARD_INTS.field("BI_ROLE", 4)
BI_COLLECTOR = BOARD_INTS.field("BI_COLLECTOR", 4)  # by treasure
BI_TEAM = BOARD_INTS.field("BI_TEAM", 7)  # by card
BI_COUNTS = BOARD_INTS.field("BI_COUNTS", 4 * 7)
BI_GOALS_GEN = BOARD_INTS.field("BI_GOALS_GEN", 4)  # the generation each seat's goals were listed for
BI_NGOAL = BOARD_INTS.field("BI_NGOAL", 4)
BI_THR = BOARD_INTS.field("BI_THR", 24)  # flooded tiles, most pressing first
BI_ABOVE = BOARD_INTS.field("BI_ABOVE", 24)  # flood cards above each tile's layer (-1: not in the pile)
BI_SIZE = BOARD_INTS.field("BI_SIZE", 24)  # the size of that layer
BI_GOAL = BOARD_INTS.field("BI_GOAL", 4 * MAX_GOALS)  # goal place masks
BI_ROWS = BOARD_INTS.field("BI_ROWS", 24)  # `_place_scores`' row (or distance) at each place
BI_VERSION = BOARD_INTS.field("BI_VERSION")  # the last version number given (the stamps below take new ones from here)
BI_ODDS_VER = BOARD_INTS.field("BI_ODDS_VER")  # the version of the flood odds in BI_ABOVE ... B_FNEXT
BI_ODDS_KEY = BOARD_INTS.field("BI_ODDS_KEY", 56)  # what those odds were found from (`_flood_odds`)
BI_URGENCY_VER = BOARD_INTS.field("BI_URGENCY_VER", 24)  # the odds version each tile's B_URGENCY was found with
# What `_place_score` keeps of each seat's score at each place (entry 24 * seat + place) from one
# decision to the next, and the versions that say whether it still holds:
BI_ISLAND_KEY = BOARD_INTS.field("BI_ISLAND_KEY", 4)  # by seat, its role and the island its moves depend on
BI_ISLAND_VER = BOARD_INTS.field("BI_ISLAND_VER", 4)  # ... and that key's version
BI_GOALS_VER = BOARD_INTS.field("BI_GOALS_VER", 4)  # the version of each seat's goal list (and island)
BI_GOALS_ISLAND = BOARD_INTS.field("BI_GOALS_ISLAND", 4)  # the island version each seat's goal list was versioned with
BI_GOALS_DIFF = BOARD_INTS.field("BI_GOALS_DIFF")  # set while a goal list being made differs from the last
BI_THREATS_VER = BOARD_INTS.field("BI_THREATS_VER")  # the version of the places of the threats' slots
BI_SLOTS = BOARD_INTS.field("BI_SLOTS", 1 + THREAT_SLOTS)  # how many slots are read, and each one's place
BI_G_VER = BOARD_INTS.field("BI_G_VER", 96)  # the goals version each entry's B_G was found with
BI_D_VER = BOARD_INTS.field("BI_D_VER", 96)  # the threats version each entry's BI_D were found with
BI_D_ISLAND = BOARD_INTS.field("BI_D_ISLAND", 96)  # ... and the island version
BI_D = BOARD_INTS.field("BI_D", 96 * THREAT_SLOTS)  # each entry's distance to each threat slot
# What is kept from one decision to the next while what it was made from stays the same:
BI_LAYOUT = BOARD_INTS.field("BI_LAYOUT", 24)  # the tile at each place when BI_LAYOUT_VER was given
# the version of the island's layout (a new game, or a state of another)
BI_LAYOUT_VER = BOARD_INTS.field("BI_LAYOUT_VER")
BI_WEIGHTS_VER = BOARD_INTS.field("BI_WEIGHTS_VER")  # the version of the weights in use (`_load_weights`)
BI_INPUTS = BOARD_INTS.field("BI_INPUTS", 5)  # what every seat's goals follow from (`_board`) ...
BI_INPUTS_VER = BOARD_INTS.field("BI_INPUTS_VER")  # ... and its version
BI_GOALS_INPUTS = BOARD_INTS.field("BI_GOALS_INPUTS", 4)  # the inputs version each seat's goal list was made from
BI_THREATS_KEY = BOARD_INTS.field("BI_THREATS_KEY", 7)  # what the threat list was found from (`_find_threats`)
# paths.py's distance table, its rows kept while the island is the same
BI_PATHS = BOARD_INTS.field("BI_PATHS", PATH_SLOTS)
NBI = BOARD_INTS.size
BOARD_FLOATS = Layout("Forbidden Island expert's b")
B_VALUE = BOARD_FLOATS.field("B_VALUE", 24)  # tile worth (flooded tiles)
B_THRW = BOARD_FLOATS.field("B_THRW", 24)  # threat worth by slot
B_GOALW = BOARD_FLOATS.field("B_GOALW", 4 * MAX_GOALS)  # goal weights
BOARD_FLOATS.unused(8)
B_RISE = BOARD_FLOATS.field("B_RISE")
B_FNOW = BOARD_FLOATS.field("B_FNOW")
B_FAFTER = BOARD_FLOATS.field("B_FAFTER")
B_FNEXT = BOARD_FLOATS.field("B_FNEXT")
BOARD_FLOATS.unused(6)
B_W = BOARD_FLOATS.field("B_W", 48)  # the weights in use (a policy parameter, or the reference's constant when it is 0)
B_ALL = BOARD_FLOATS.field("B_ALL", 24)  # `_place_scores`, one seat's place score at every place
B_NOW = BOARD_FLOATS.field("B_NOW", 24)  # ... the worth of the best threat it can shore up this turn from there
B_G = BOARD_FLOATS.field("B_G", 96)  # each entry's goal term (`_place_score`)
B_RAW = BOARD_FLOATS.field("B_RAW", 48)  # the policy parameter's weights as `choose` last copied them (0 = default)
B_URGENCY = BOARD_FLOATS.field("B_URGENCY", 24)  # each flooded tile's urgency, kept while the flood odds stay the same
NB = BOARD_FLOATS.size
# The weights, by slot of the policy's parameter array; 0 there means the reference's value.
(W_LOSING, W_PICKUP_TWIN, W_PLAIN, W_TO_LANDING, W_TO_CAPTURE, W_TO_COMPLETING, W_TO_TRADE, W_TO_DEFAULT,
 W_GIVE, W_GIVE_PER_CARD, W_FUTURE, W_SOON, W_PULL, W_LIFT_SPARE, W_SANDBAGS_KEEP, W_DRY, W_RISKY,
 W_OPEN, W_BAG_INSTEAD, W_LIFT_LAST, W_LIFT_MORE, W_CARD_BASE, W_CARD_PER_HELD, W_CARD_COLLECTOR,
 W_CARD_GONE, W_BAGS_FREELY, W_LIFT_FREELY, W_LIFTS_CAPTURE, W_LIFTS_TRADE, W_TRADE_SHORT, W_CAPTURE_SLACK,
 W_LIFTS_FREELY, W_LIFT_INSTEAD, W_CONNECTED, W_NEAR_LANDING) = range(35)
DEFAULT_WEIGHTS = np.zeros(48, dtype=np.float64)
DEFAULT_WEIGHTS[:25] = (LOSING_TILE, PICKUP_WITH_TWIN, PLAIN_TILE, TO_LANDING, TO_CAPTURE, TO_COMPLETING_TRADE,
                        TO_TRADE, TO_DEFAULT, GIVE, GIVE_PER_CARD, FUTURE_RISK, SOON_WEIGHT, PULL, LIFT_SPARE,
                        SANDBAGS_KEEP, DRY_BONUS, RISKY_PENALTY, OPEN_SIDE, BAG_INSTEAD, LIFT_LAST, LIFT_MORE,
                        CARD_BASE, CARD_PER_HELD, CARD_COLLECTOR, CARD_GONE)
DEFAULT_WEIGHTS[25:35] = (BAGS_FREELY, LIFT_FREELY, LIFTS_CAPTURE, LIFTS_TRADE, TRADE_SHORT, CAPTURE_SLACK,
                          LIFTS_FREELY, LIFT_INSTEAD, CONNECTED, NEAR_LANDING)


@njit(cache=True, forceinline=True)
def _bit(mask, i):
    return (np.int64(mask) >> i) & 1


@njit(cache=True, forceinline=True)
def _graph(role):
    """paths.py's kind of step for a role other than the Pilot."""
    return DIVE if role == ROLE_DIVER else WALK_CORNERS if role == ROLE_EXPLORER else WALK


@njit(cache=True, forceinline=True)
def _flown(goals, stand, place):
    """The Pilot's distance (expert_reference.Board.distances): 0 on a goal, else one flight to
    any standing place; FAR when no goal stands."""
    g = goals & stand
    if g == 0 or not _bit(stand, place):
        return FAR
    return 0 if _bit(g, place) else 1


@njit(cache=True, forceinline=True)
def _row(s, bi, role, place):
    """The row of paths.py's table a pawn of `role` at `place` reads its distances from (-1 for
    the Pilot, who needs none)."""
    if role == ROLE_PILOT:
        return -1
    return distance_row(s, bi, BI_PATHS, _graph(role), place)


@njit(cache=True, forceinline=True)
def _distance_from(s, bi, role, row, goals, place):
    """expert_reference.Board.distance: the actions a pawn of `role` needs from `place` (whose
    row is `row`) to any place of the mask `goals`."""
    stand = standing(s)
    if role == ROLE_PILOT:
        return _flown(goals, stand, place)
    return distance_to(bi, row, goals & stand)


@njit(cache=True, forceinline=True)
def _distance(s, bi, role, goals, place):
    """`_distance_from` for a one-off question."""
    return _distance_from(s, bi, role, _row(s, bi, role, place), goals, place)


@njit(cache=True, forceinline=True)
def _escapes(s, bi, seat, place):
    """expert_reference.Board.escapes as a place mask."""
    role = bi[BI_ROLE + seat]
    stand = standing(s)
    if role == ROLE_PILOT or role == ROLE_DIVER:
        return stand & ~(np.int64(1) << place)
    return (NEIGH8[place] if role == ROLE_EXPLORER else NEIGH[place]) & stand


@njit(cache=True, forceinline=True)
def _shore_reach(s, role, tile):
    at = s[TILE_PLACE + tile]
    return ((np.int64(1) << at) | (NEIGH8[at] if role == ROLE_EXPLORER else NEIGH[at])) & standing(s)


@njit(cache=True, forceinline=True)
def _threat_distance(s, bi, role, row, tile, place):
    """`_distance_from` `place` (its row `row`) to where a pawn of `role` can shore up the
    flooded `tile` (its reach is never empty: the tile stands); for a walker one lookup
    (paths.shore_distance)."""
    if role == ROLE_DIVER or role == ROLE_PILOT:
        return _distance_from(s, bi, role, row, _shore_reach(s, role, tile), place)
    return shore_distance(bi, row, s[TILE_PLACE + tile])


@njit(cache=True, forceinline=True)
def _flooded_tile(s, tile):
    return _bit(s[FLOODED], s[TILE_PLACE + tile]) == 1


@njit(cache=True, forceinline=True)
def _sunk_tile(s, tile):
    return _bit(s[SUNK], s[TILE_PLACE + tile]) == 1


@njit(cache=True, forceinline=True)
def _drawn_within(b, bi, tile, n, extra_above):
    if n <= 0:
        return 0.0
    if bi[BI_ABOVE + tile] < 0:
        if _bit(bi[BI_DISC], tile) and n > bi[BI_PILE]:
            return min((n - bi[BI_PILE]) / bi[BI_NDISC], 1.0)
        return 0.0
    above = bi[BI_ABOVE + tile] + extra_above
    size = bi[BI_SIZE + tile]
    return min(max((n - above) / size, 0.0), 1.0)


@njit(cache=True, forceinline=True)
def _risk_now(s, b, bi, tile):
    if _sunk_tile(s, tile):
        return 0.0
    stay = _drawn_within(b, bi, tile, np.int64(b[B_FNOW]), 0)
    rise = b[B_RISE]
    if rise == 0.0:
        return stay
    n_discard = bi[BI_NDISC]
    if _bit(bi[BI_DISC], tile):
        after = min(b[B_FAFTER] / n_discard, 1.0)
    else:
        after = _drawn_within(b, bi, tile, np.int64(b[B_FAFTER]), n_discard)
    return (1 - rise) * stay + rise * after


@njit(cache=True, forceinline=True)
def _risk_soon(s, b, bi, tile):
    now = _risk_now(s, b, bi, tile)
    later = _drawn_within(b, bi, tile, np.int64(b[B_FNOW] + b[B_FNEXT]), 0)
    return max(now, later)


@njit(cache=True, forceinline=True)
def _urgency(s, b, bi, tile):
    now = _risk_now(s, b, bi, tile)
    soon = max(now, _drawn_within(b, bi, tile, np.int64(b[B_FNOW] + b[B_FNEXT]), 0))  # _risk_soon, `now` reused
    later = max(soon - now, 0.0)
    return now + b[B_W + W_SOON] * later + b[B_W + W_FUTURE] * _bit(bi[BI_DISC], tile)


@njit(cache=True, forceinline=True)
def _count(bi, seat, card):
    return bi[BI_COUNTS + 7 * seat + card]


@njit(cache=True, forceinline=True)
def _uncaptured(bi, t):
    return _bit(bi[BI_CAPT], t) == 0


@njit(cache=True)
def _card_value(s, b, bi, seat, card, capture_cards):
    s, b, bi = borrowed(s), borrowed(b), borrowed(bi)
    lifts = bi[BI_TEAM + C_LIFT]
    if card == C_LIFT:
        return b[B_W + W_LIFT_LAST] if lifts <= 1 else b[B_W + W_LIFT_SPARE] if lifts == 2 else b[B_W + W_LIFT_MORE]
    if card == C_SANDBAGS:
        return b[B_W + W_SANDBAGS_KEEP]
    if not _uncaptured(bi, card):
        return 0.0
    collector = bi[BI_COLLECTOR + card]
    best = _count(bi, collector, card)
    if bi[BI_TEAM + card] > capture_cards and seat != collector:
        return 2.0 + _count(bi, seat, card)
    value = b[B_W + W_CARD_BASE] + b[B_W + W_CARD_PER_HELD] * best \
        + (b[B_W + W_CARD_COLLECTOR] if seat == collector else 0.0)
    value -= b[B_W + W_CARD_GONE] * s[TDISC + card]
    return value


@njit(cache=True, forceinline=True)
def _pickups_standing(s, t):
    m = np.int64(0)
    for k in range(2):
        tile = PICKUP[t, k]
        if not _sunk_tile(s, tile):
            m |= np.int64(1) << s[TILE_PLACE + tile]
    return m


@njit(cache=True, forceinline=True)
def _add_goal(b, bi, seat, weight, mask):
    g = bi[BI_NGOAL + seat]
    if bi[BI_GOAL + seat * MAX_GOALS + g] != mask or b[B_GOALW + seat * MAX_GOALS + g] != weight:
        bi[BI_GOALS_DIFF] = 1
    bi[BI_GOAL + seat * MAX_GOALS + g] = mask
    b[B_GOALW + seat * MAX_GOALS + g] = weight
    bi[BI_NGOAL + seat] = g + 1


@njit(cache=True, forceinline=True)
def _goals(s, p, b, bi, seat):
    """expert_reference.Board.goals, written into the seat's goal slots (once a decision). The
    check is inlined into its callers: most of its calls (a place score's) find the goals listed,
    and a call passing four arrays costs more than the check."""
    if bi[BI_GOALS_GEN + seat] != bi[BI_GEN]:
        _list_goals(s, p, b, bi, seat)


@njit(cache=True)
def _list_goals(s, p, b, bi, seat):
    """The seat's goals, over its last list: a new version (BI_GOALS_VER) when they differ from
    it, or the island its moves depend on has changed since, so that the goal terms kept by
    `_place_score` are found again. Listed again only when what every seat's goals follow from
    (`_board`'s BI_INPUTS) has changed since the seat's last list."""
    s, p, b, bi = borrowed(s), borrowed(p), borrowed(b), borrowed(bi)
    bi[BI_GOALS_GEN + seat] = bi[BI_GEN]
    changed = False
    if bi[BI_GOALS_INPUTS + seat] != bi[BI_INPUTS_VER]:  # else the list in its slots still holds
        bi[BI_GOALS_INPUTS + seat] = bi[BI_INPUTS_VER]
        last = bi[BI_NGOAL + seat]
        bi[BI_NGOAL + seat] = 0
        bi[BI_GOALS_DIFF] = 0
        _fill_goals(s, p, b, bi, seat)
        changed = bi[BI_GOALS_DIFF] or bi[BI_NGOAL + seat] != last
    if changed or bi[BI_GOALS_ISLAND + seat] != bi[BI_ISLAND_VER + seat]:
        bi[BI_GOALS_ISLAND + seat] = bi[BI_ISLAND_VER + seat]
        bi[BI_VERSION] += 1
        bi[BI_GOALS_VER + seat] = bi[BI_VERSION]


@njit(cache=True)
def _fill_goals(s, p, b, bi, seat):
    s, p, b, bi = borrowed(s), borrowed(p), borrowed(b), borrowed(bi)
    if bi[BI_CAPT] == 15:
        _add_goal(b, bi, seat, b[B_W + W_TO_LANDING], np.int64(1) << s[TILE_PLACE + T_FOOLS_LANDING])
        return
    cap = p[P_CAPTURE]
    players = bi[BI_PLAYERS]
    for t in range(4):
        if not _uncaptured(bi, t):
            continue
        pickups = _pickups_standing(s, t)
        if pickups == 0:
            continue
        held = _count(bi, seat, t)
        if held >= cap:
            _add_goal(b, bi, seat, b[B_W + W_TO_CAPTURE], pickups)
            continue
        collector = bi[BI_COLLECTOR + t]
        if collector == seat:
            for o in range(players):
                if o != seat and _count(bi, o, t) and bi[BI_ROLE + o] != ROLE_MESSENGER:
                    if held + _count(bi, o, t) >= cap:
                        weight = b[B_W + W_TO_COMPLETING]
                    else:
                        weight = b[B_W + W_TO_TRADE] * _count(bi, o, t)
                    _add_goal(b, bi, seat, weight, np.int64(1) << bi[BI_PAWN + o])
            if held >= 2:
                _add_goal(b, bi, seat, b[B_W + W_TO_DEFAULT], pickups)
        elif held and bi[BI_ROLE + seat] != ROLE_MESSENGER:
            if held + _count(bi, collector, t) >= cap:
                weight = b[B_W + W_TO_COMPLETING]
            else:
                weight = b[B_W + W_TO_TRADE] * held
            _add_goal(b, bi, seat, weight, np.int64(1) << bi[BI_PAWN + collector])
    if popcount(bi[BI_CAPT]) == 3:
        _add_goal(b, bi, seat, b[B_W + W_NEAR_LANDING], np.int64(1) << s[TILE_PLACE + T_FOOLS_LANDING])


@njit(cache=True, forceinline=True)
def _place_score(s, p, b, bi, seat, place, actions, shored):
    """expert_reference.Board.place_score; `shored` is a tile mask. Needs `_threats`.
    A turn scores the same places again and again (where the pawn stands before each action,
    after a draw, after each shore-up; where it could move, from one action to the next): the
    goal term and the distances to the threats' slots are kept for each seat and place (an
    entry) while the seat's goals and island stay the same (BI_GOALS_VER), and the places of the
    threats' slots (BI_THREATS_VER), and the score is summed again from them in the same order.
    Inlined into its callers, so that an entry found kept costs no call (a call passes four
    arrays): only a stale one calls `_keep_entry`."""
    _goals(s, p, b, bi, seat)
    entry = 24 * seat + place
    if bi[BI_G_VER + entry] != bi[BI_GOALS_VER + seat] or bi[BI_D_VER + entry] != bi[BI_THREATS_VER] \
            or bi[BI_D_ISLAND + entry] != bi[BI_ISLAND_VER + seat]:
        _keep_entry(s, b, bi, seat, place)
    role = bi[BI_ROLE + seat]
    dist = BI_D + THREAT_SLOTS * entry
    score = b[B_G + entry]
    best_now = 0.0
    for k in range(min(bi[BI_NTHR], THREAT_SLOTS)):
        tile = bi[BI_THR + k]
        if _bit(shored, tile):
            continue
        d = bi[dist + k]
        worth = b[B_THRW + k]
        if d <= actions - 1:
            best_now = max(best_now, worth)
        score -= b[B_W + W_PULL] * worth * min(d, 4)
    score += best_now
    if role != ROLE_PILOT and role != ROLE_DIVER:
        ways = _escapes(s, bi, seat, place)
        score += b[B_W + W_CONNECTED] * (0 if ways == 0 else 1 if ways & (ways - 1) == 0 else 2)
        if ways == 0 and _bit(s[FLOODED], place):
            tile = s[PLACE_TILE + place]
            if bi[BI_CAPT] != 15 or tile != T_FOOLS_LANDING:
                score -= b[B_W + W_LOSING] * _soon(s, b, bi, tile)
    return score


@njit(cache=True)
def _soon(s, b, bi, tile):
    """`_risk_soon` out of line, for the rare place score that reads it."""
    s, b, bi = borrowed(s), borrowed(b), borrowed(bi)
    return _risk_soon(s, b, bi, tile)


@njit(cache=True)
def _keep_entry(s, b, bi, seat, place):
    """`_place_score`'s entry for the seat at `place`: its goal term and its distances to the
    threats' slots, each found again if its versions have moved on. Needs `_goals` and `_threats`."""
    s, b, bi = borrowed(s), borrowed(b), borrowed(bi)
    role = bi[BI_ROLE + seat]
    entry = 24 * seat + place
    row = -2  # not looked up yet
    if bi[BI_G_VER + entry] != bi[BI_GOALS_VER + seat]:
        row = _row(s, bi, role, place)
        score = 0.0
        for g in range(bi[BI_NGOAL + seat]):
            d = _distance_from(s, bi, role, row, bi[BI_GOAL + seat * MAX_GOALS + g], place)
            score -= b[B_GOALW + seat * MAX_GOALS + g] * min(d, 6)
        b[B_G + entry] = score
        bi[BI_G_VER + entry] = bi[BI_GOALS_VER + seat]
    if bi[BI_D_VER + entry] != bi[BI_THREATS_VER] or bi[BI_D_ISLAND + entry] != bi[BI_ISLAND_VER + seat]:
        if row == -2:
            row = _row(s, bi, role, place)
        dist = BI_D + THREAT_SLOTS * entry
        for k in range(min(bi[BI_NTHR], THREAT_SLOTS)):
            bi[dist + k] = _threat_distance(s, bi, role, row, bi[BI_THR + k], place)
        bi[BI_D_VER + entry] = bi[BI_THREATS_VER]
        bi[BI_D_ISLAND + entry] = bi[BI_ISLAND_VER + seat]


@njit(cache=True)
def _score_bound(s, p, b, bi, seat, actions):
    """An upper bound of `_place_score(s, p, b, bi, seat, q, actions, 0)` over all places q: the
    sum of each term's largest value (a goal at distance 0 to 6, a threat's pull at 0 to 4, the
    best threat within reach, two ways off, a losing tile's risk from 0 to 1), whatever the
    weights' signs. A search of the whole island for a place that gains at least so much
    (`_lift_freely`) stops here when even this bound falls short. Needs `_threats`."""
    s, p, b, bi = borrowed(s), borrowed(p), borrowed(b), borrowed(bi)
    _goals(s, p, b, bi, seat)
    role = bi[BI_ROLE + seat]
    bound = 0.0
    for g in range(bi[BI_NGOAL + seat]):
        bound += max(0.0, -6.0 * b[B_GOALW + seat * MAX_GOALS + g])
    best_now = 0.0
    for k in range(min(bi[BI_NTHR], THREAT_SLOTS)):
        worth = b[B_THRW + k]
        if actions >= 1:
            best_now = max(best_now, worth)
        bound += max(0.0, -4.0 * (b[B_W + W_PULL] * worth))
    bound += best_now
    if role != ROLE_PILOT and role != ROLE_DIVER:
        bound += max(0.0, 2.0 * b[B_W + W_CONNECTED]) + max(0.0, -b[B_W + W_LOSING])
    return bound


@njit(cache=True, forceinline=True)
def _gain_below(before, bound, needed):
    """Whether every place's score, at most `bound`, gains less than `needed` over `before`, with a
    margin far above the rounding of the scores' sums (so the full search would agree)."""
    return bound - before + 1e-6 * (1.0 + abs(bound) + abs(before)) < needed


@njit(cache=True)
def _place_scores(s, p, b, bi, seat, actions):
    """`_place_score` with nothing shored at all 24 places at once, into b[B_ALL + place] (the
    same arithmetic in the same order at each place, so the same scores): a sweep over the
    whole island (a Helicopter Lift, a safe spot) costs a few vector passes instead of 24
    searches through the rings. Needs `_threats`.
    A walker's moves are symmetric, so its distance from a place q to a goal is the goal's row
    read at q, and its distance to where it can shore up a threat is the threat's row read at
    q less one (paths.shore_distance): the sweep reads the rows of the goals' and the threats'
    places (a handful, mostly built already) rather than a row from each of the 24 places."""
    s, p, b, bi = borrowed(s), borrowed(p), borrowed(b), borrowed(bi)
    _goals(s, p, b, bi, seat)
    role = bi[BI_ROLE + seat]
    for q in range(24):
        b[B_ALL + q] = 0.0
        b[B_NOW + q] = 0.0
    near = bi[BI_ROWS:BI_ROWS + 24]  # per place: its row (Pilot, Diver) or its distance (walkers)
    walker = role != ROLE_PILOT and role != ROLE_DIVER
    stand = standing(s)
    if walker:
        graph = _graph(role)
        for g in range(bi[BI_NGOAL + seat]):
            goals = bi[BI_GOAL + seat * MAX_GOALS + g] & stand
            weight = b[B_GOALW + seat * MAX_GOALS + g]
            for q in range(24):
                near[q] = FAR
            while goals:
                row = distance_row(s, bi, BI_PATHS, graph, low_bit(goals))
                goals &= goals - 1
                for q in range(24):
                    near[q] = min(near[q], bi[row + q])
            for q in range(24):
                b[B_ALL + q] -= weight * min(near[q], 6)
    else:
        for q in range(24):
            near[q] = _row(s, bi, role, q)
        for g in range(bi[BI_NGOAL + seat]):
            goals = bi[BI_GOAL + seat * MAX_GOALS + g]
            weight = b[B_GOALW + seat * MAX_GOALS + g]
            for q in range(24):
                b[B_ALL + q] -= weight * min(_distance_from(s, bi, role, near[q], goals, q), 6)
    for k in range(min(bi[BI_NTHR], THREAT_SLOTS)):
        worth = b[B_THRW + k]
        tile = bi[BI_THR + k]
        pull = b[B_W + W_PULL] * worth
        if walker:
            row = distance_row(s, bi, BI_PATHS, graph, s[TILE_PLACE + tile])  # the tile stands
        for q in range(24):
            if walker:
                d = bi[row + q]
                d = FAR if d >= FAR else d - 1 if d > 0 else 0  # paths.shore_distance, read the other way
            else:
                d = _threat_distance(s, bi, role, near[q], tile, q)
            if d <= actions - 1:
                b[B_NOW + q] = max(b[B_NOW + q], worth)
            b[B_ALL + q] -= pull * min(d, 4)
    for q in range(24):
        b[B_ALL + q] += b[B_NOW + q]
    if walker:
        for q in range(24):
            ways = _escapes(s, bi, seat, q)
            b[B_ALL + q] += b[B_W + W_CONNECTED] * (0 if ways == 0 else 1 if ways & (ways - 1) == 0 else 2)
        flooded = np.int64(s[FLOODED])
        for q in range(24):
            if _bit(flooded, q) and _escapes(s, bi, seat, q) == 0:
                tile = s[PLACE_TILE + q]
                if bi[BI_CAPT] != 15 or tile != T_FOOLS_LANDING:
                    b[B_ALL + q] -= b[B_W + W_LOSING] * _risk_soon(s, b, bi, tile)


@njit(cache=True, forceinline=True)
def _open_sides(s, place):
    m = NEIGH[place] & standing(s)
    n = 0
    for q in range(24):
        n += _bit(m, q)
    return n


@njit(cache=True, forceinline=True)
def _tile_value(s, b, bi, tile, stranded):
    """`stranded`: the places of pawns with nowhere to swim (`_stranded`)."""
    losing = b[B_W + W_LOSING]
    if tile == T_FOOLS_LANDING:
        return losing
    value = b[B_W + W_PLAIN]
    t = TILE_TREASURE[tile]
    if t >= 0 and _uncaptured(bi, t):
        twin = PICKUP[t, 0] if PICKUP[t, 1] == tile else PICKUP[t, 1]
        value = losing if _sunk_tile(s, twin) else b[B_W + W_PICKUP_TWIN]
    if _bit(stranded, s[TILE_PLACE + tile]):
        value = max(value, losing)
    return value


@njit(cache=True, forceinline=True)
def _stranded(s, bi, places):
    """The places of `places` where a pawn stands with nowhere to swim (`_escapes`)."""
    out = np.int64(0)
    for seat in range(bi[BI_PLAYERS]):
        at = bi[BI_PAWN + seat]
        if _bit(places, at) and _escapes(s, bi, seat, at) == 0:
            out |= np.int64(1) << at
    return out


@njit(cache=True, forceinline=True)
def _board(s, p, b, bi):
    """expert_reference.Board.__init__, first stage: hands, pawns and collectors. The flood odds
    and tile worths (`_threats`) and each seat's goals (`_goals`) follow when first read.
    Inlined into its one caller, `_choose_code` (a call passes four arrays: a few dozen
    instructions at each of a game's ~85 boards)."""
    bi[BI_GEN] += 1
    players = p[P_PLAYERS]
    bi[BI_PLAYERS] = players
    bi[BI_CAPT] = s[CAPTURED]
    for seat in range(players):
        bi[BI_PAWN + seat] = s[PAWN + seat]
        bi[BI_ROLE + seat] = s[ROLE + seat]
        # what the seat's moves depend on: its role and the sunk places, and for the Diver the
        # flooded ones (the built bit: a fresh scratch array's zeros match no key)
        role = s[ROLE + seat]
        key = np.int64(s[SUNK]) | (np.int64(role) << 48) | (np.int64(1) << 52)
        if role == ROLE_DIVER:
            key |= np.int64(s[FLOODED]) << 24
        if bi[BI_ISLAND_KEY + seat] != key:
            bi[BI_ISLAND_KEY + seat] = key
            bi[BI_VERSION] += 1
            bi[BI_ISLAND_VER + seat] = bi[BI_VERSION]
    # the island's layout: a new version when it is not the last decision's (a new game). An OR
    # of XORs over a bound LLVM cannot see through (it is 24), so that the loop is vectorised
    # rather than unrolled into 24 compare-and-branch steps (as in `_load_weights`)
    diff = np.int64(0)
    for q in range(min(24, s.size)):
        diff |= bi[BI_LAYOUT + q] ^ s[PLACE_TILE + q]
    if diff:
        for q in range(24):
            bi[BI_LAYOUT + q] = s[PLACE_TILE + q]
        bi[BI_VERSION] += 1
        bi[BI_LAYOUT_VER] = bi[BI_VERSION]
    for c in range(7):
        bi[BI_TEAM + c] = 0
    for seat in range(4):
        for c in range(7):
            n = s[HAND + HAND_STRIDE * seat + c] if seat < players else 0
            bi[BI_COUNTS + 7 * seat + c] = n
            bi[BI_TEAM + c] += n
    # what every seat's goals follow from (`_fill_goals`): each hand's treasure cards (at most 5
    # of a kind: 4 bits), the pawns and roles, the captures, the cards a capture takes, the sunk
    # places, the layout and the weights; a new version when any of it differs from the last
    # decision's. The collectors follow from the players, their roles and treasure cards, all
    # part of it: they are found again only with a new version.
    counts = np.int64(0)
    team = np.int64(players) | (np.int64(bi[BI_CAPT]) << 4) | (np.int64(p[P_CAPTURE]) << 8)
    for seat in range(players):
        for t in range(4):
            counts |= np.int64(bi[BI_COUNTS + 7 * seat + t]) << (16 * seat + 4 * t)
        team |= np.int64(bi[BI_PAWN + seat] | (bi[BI_ROLE + seat] << 5)) << (16 + 8 * seat)
    k = BI_INPUTS
    if bi[k] != counts or bi[k + 1] != team or bi[k + 2] != s[SUNK] or bi[k + 3] != bi[BI_LAYOUT_VER] \
            or bi[k + 4] != bi[BI_WEIGHTS_VER]:
        bi[k] = counts
        bi[k + 1] = team  # never 0 (players), so a fresh scratch array matches no state
        bi[k + 2] = s[SUNK]
        bi[k + 3] = bi[BI_LAYOUT_VER]
        bi[k + 4] = bi[BI_WEIGHTS_VER]
        bi[BI_VERSION] += 1
        bi[BI_INPUTS_VER] = bi[BI_VERSION]
        # collectors: most cards, then not the Messenger, then seat order
        for t in range(4):
            best = -1
            for seat in range(players):
                if best < 0:
                    best = seat
                    continue
                cs, cb = _count(bi, seat, t), _count(bi, best, t)
                ms = bi[BI_ROLE + seat] == ROLE_MESSENGER
                mb = bi[BI_ROLE + best] == ROLE_MESSENGER
                if cs > cb or (cs == cb and mb and not ms):
                    best = seat
            bi[BI_COLLECTOR + t] = best


@njit(cache=True, forceinline=True)
def _threats(s, p, b, bi):
    """The board's second stage (once a decision): flood odds (expert_reference.Board._flood_odds),
    the worth of each flooded tile and the flooded tiles by worth times urgency. The check is
    inlined, as `_goals`' is."""
    if bi[BI_THREATS_GEN] != bi[BI_GEN]:
        _find_threats(s, p, b, bi)


@njit(cache=True)
def _flood_odds(s, p, b, bi):
    """expert_reference.Board._flood_odds and the Waters Rise! odds: what each tile's urgency is
    read from. They follow from the flood pile's layers and discard, the water mark, the phase's
    draws and the treasure pile's count of cards and of Waters Rise!, which stay the same over
    a turn's actions: found again only when one of those differs from when they were last found
    (kept from BI_ODDS_KEY on), and each new finding gets a new version number (BI_ODDS_VER)
    that the urgencies kept by tile (`_kept_urgency`) are stamped with. The pile's order is
    compared too, though the odds read only its layers: a difference there only costs a finding."""
    s, p, b, bi = borrowed(s), borrowed(p), borrowed(b), borrowed(bi)
    top = s[FPILE_N]
    nl = s[FLAYERS_N]
    ph = phase(s, p)
    if ph == PH_ACTIONS:
        draws = p[P_DRAWS]
    elif ph == PH_TREASURE:
        draws = s[DRAWS]
    else:
        draws = 0
    # the treasure pile's cards follow from the deck, the discard and the hands
    rises = TREASURE_DECK_COUNTS[C_WATERS_RISE] - s[TDISC + C_WATERS_RISE] - bi[BI_TEAM + C_WATERS_RISE]
    n = 0
    for c in range(7):
        n += TREASURE_DECK_COUNTS[c] - s[TDISC + c] - bi[BI_TEAM + c]
    floods = s[FLOODS] if ph == PH_FLOOD else -1
    key = BI_ODDS_KEY
    same = bi[key] == top + 1 and bi[key + 1] == nl and bi[key + 2] == s[FDISC] and bi[key + 3] == s[MARK] \
        and bi[key + 4] == draws and bi[key + 5] == n and bi[key + 6] == rises and bi[key + 7] == floods
    if same:  # the layers' starts and the pile, as an OR of XORs (vectorised, as in `_board`)
        diff = np.int64(0)
        for i in range(nl):
            diff |= bi[key + 8 + i] ^ s[FLAYER + i]
        for j in range(top):
            diff |= bi[key + 32 + j] ^ s[FPILE + j]
        if diff == 0:
            return
    bi[key] = top + 1  # never 0, so that a fresh scratch array matches no state
    bi[key + 1] = nl
    bi[key + 2] = s[FDISC]
    bi[key + 3] = s[MARK]
    bi[key + 4] = draws
    bi[key + 5] = n
    bi[key + 6] = rises
    bi[key + 7] = floods
    for i in range(nl):
        bi[key + 8 + i] = s[FLAYER + i]
    for j in range(top):
        bi[key + 32 + j] = s[FPILE + j]
    bi[BI_VERSION] += 1
    bi[BI_ODDS_VER] = bi[BI_VERSION]
    # flood odds: the public layers (sets of cards, bottom layer first in the kernel)
    for tile in range(24):
        bi[BI_ABOVE + tile] = -1
        bi[BI_SIZE + tile] = 0
    for i in range(nl):
        lo = s[FLAYER + i]
        hi = s[FLAYER + i + 1] if i + 1 < nl else top
        for j in range(lo, hi):
            tile = s[FPILE + j]
            bi[BI_ABOVE + tile] = top - hi
            bi[BI_SIZE + tile] = hi - lo
    bi[BI_PILE] = top
    bi[BI_DISC] = s[FDISC]
    bi[BI_NDISC] = popcount(s[FDISC])
    miss = 1.0
    for k in range(min(draws, n)):
        miss *= max(n - k - rises, 0) / (n - k)
    b[B_RISE] = 1.0 - miss
    mark = s[MARK]
    if ph == PH_FLOOD:
        b[B_FNOW] = s[FLOODS]
        b[B_RISE] = 0.0
    else:
        b[B_FNOW] = FLOOD_DRAWS[mark] if mark < SKULL else 0
    b[B_FAFTER] = FLOOD_DRAWS[mark + 1] if mark + 1 < SKULL else 0
    b[B_FNEXT] = FLOOD_DRAWS[mark] if mark < SKULL else 0


@njit(cache=True, forceinline=True)
def _kept_urgency(s, b, bi, tile):
    """`_urgency` of a flooded tile, kept by tile while the flood odds stay the same (a tile's
    card, in the pile or the discard, and so whether it has sunk, is part of what the odds were
    found from). Needs `_threats`."""
    if bi[BI_URGENCY_VER + tile] != bi[BI_ODDS_VER]:
        b[B_URGENCY + tile] = _urgency(s, b, bi, tile)
        bi[BI_URGENCY_VER + tile] = bi[BI_ODDS_VER]
    return b[B_URGENCY + tile]


@njit(cache=True)
def _find_threats(s, p, b, bi):
    """The list of threats, kept from the last decision while everything it is found from is the
    same (BI_THREATS_KEY): the flood odds, the flooded and sunk places, the places of pawns with
    nowhere to swim (their tiles are losing ones), the captures, the layout and the weights.
    Between a turn's actions only a shore-up, a capture or a stranded pawn changes it."""
    s, p, b, bi = borrowed(s), borrowed(p), borrowed(b), borrowed(bi)
    bi[BI_THREATS_GEN] = bi[BI_GEN]
    _flood_odds(s, p, b, bi)
    flooded = np.int64(s[FLOODED])
    stranded = _stranded(s, bi, flooded)
    key = BI_THREATS_KEY
    if bi[key] == bi[BI_ODDS_VER] and bi[key + 1] == flooded and bi[key + 2] == s[SUNK] \
            and bi[key + 3] == bi[BI_CAPT] and bi[key + 4] == stranded and bi[key + 5] == bi[BI_LAYOUT_VER] \
            and bi[key + 6] == bi[BI_WEIGHTS_VER]:
        return
    bi[key] = bi[BI_ODDS_VER]
    bi[key + 1] = flooded
    bi[key + 2] = s[SUNK]
    bi[key + 3] = bi[BI_CAPT]
    bi[key + 4] = stranded
    bi[key + 5] = bi[BI_LAYOUT_VER]
    bi[key + 6] = bi[BI_WEIGHTS_VER]
    # threatened: flooded tiles by worth (value x urgency) descending, then tile index; only
    # flooded tiles' worths are ever read. The flooded tiles in tile order, from their places:
    tiles = np.int64(0)
    m = flooded
    while m:
        tiles |= np.int64(1) << s[PLACE_TILE + low_bit(m)]
        m &= m - 1
    nt = 0
    while tiles:
        tile = low_bit(tiles)
        tiles &= tiles - 1
        b[B_VALUE + tile] = _tile_value(s, b, bi, tile, stranded)
        worth = b[B_VALUE + tile] * _kept_urgency(s, b, bi, tile)
        k = nt
        while k > 0 and b[B_THRW + k - 1] < worth:
            b[B_THRW + k] = b[B_THRW + k - 1]
            bi[BI_THR + k] = bi[BI_THR + k - 1]
            k -= 1
        b[B_THRW + k] = worth
        bi[BI_THR + k] = tile
        nt += 1
    bi[BI_NTHR] = nt
    # the places of the slots `_place_score` reads: a new version when they differ from the last
    nslots = min(nt, THREAT_SLOTS)
    same = bi[BI_SLOTS] == nslots + 1  # + 1: a fresh scratch array's zero matches nothing
    for k in range(nslots):
        same &= bi[BI_SLOTS + 1 + k] == s[TILE_PLACE + bi[BI_THR + k]]
    if not same:
        bi[BI_SLOTS] = nslots + 1
        for k in range(nslots):
            bi[BI_SLOTS + 1 + k] = s[TILE_PLACE + bi[BI_THR + k]]
        bi[BI_VERSION] += 1
        bi[BI_THREATS_VER] = bi[BI_VERSION]


# --- the choice -------------------------------------------------------------------------------------------


@njit(cache=True)
def _lift_ok(s, p, seat, pawns_mask, to):
    """F9: may `seat` play a Helicopter Lift moving the pawns of `pawns_mask` (standing together)
    to place `to` now? (The caller asks only in a phase where `seat` may play special cards.)"""
    s, p = borrowed(s), borrowed(p)
    if s[HAND + HAND_STRIDE * seat + C_LIFT] <= 0 or pawns_mask <= 0 or pawns_mask >> p[P_PLAYERS]:
        return False
    at = s[PAWN + low_seat(pawns_mask)]
    for pawn in range(p[P_PLAYERS]):
        if _bit(pawns_mask, pawn) and s[PAWN + pawn] != at:
            return False
    return to != at and _bit(standing(s), to) == 1


@njit(cache=True, forceinline=True)
def _lift_code(seat, pawns_mask, place):
    return A_LIFT + 384 * seat + 24 * pawns_mask + place


@njit(cache=True)
def _liftoff(s, p, lo, hi):
    """F13: the lift-off of the lowest seat of lo ... hi-1 holding a Lift, or -1."""
    s, p = borrowed(s), borrowed(p)
    if not can_lift_off(s, p):
        return -1
    for seat in range(lo, hi):
        if s[HAND + HAND_STRIDE * seat + C_LIFT] > 0:
            return A_LIFTOFF + seat
    return -1


@njit(cache=True)
def choose_code(s, p, b, bi):
    """expert_reference.choose over the kernel state: the code of the action it takes (never
    -1 while the game runs). `b` (NB floats, the weights from B_W on) and `bi` (NBI ints) are
    scratch arrays the caller keeps for the whole run."""
    s, p, b, bi = borrowed(s), borrowed(p), borrowed(b), borrowed(bi)
    return _choose_code(s, p, b, bi, phase(s, p))


@njit(cache=True)
def _choose_code(s, p, b, bi, ph):
    """`choose_code` in phase `ph` (`choose` has found it already)."""
    s, p, b, bi = borrowed(s), borrowed(p), borrowed(b), borrowed(bi)
    seat = -1
    targets = np.int64(0)
    if ph == PH_SWIM:  # F11: no special card while a pawn swims
        seat = low_seat(s[SWIMMERS])
        targets = escape_targets(s, p, seat)
        if targets & (targets - 1) == 0:  # one way out: the reference takes the only legal action
            return A_SWIM + 24 * seat + low_seat(targets)
    elif ph == PH_DISCARD:  # F8: only the seat above the limit acts, its specials included
        seat = over_limit(s, p)
        a = _liftoff(s, p, seat, seat + 1)
        if a >= 0:
            return a
    else:
        a = only_draw(s, p, ph)
        if a >= 0:
            return a
        a = _liftoff(s, p, 0, p[P_PLAYERS])
        if a >= 0:
            return a
        if ph != PH_ACTIONS and _draw_needs_no_card(s, p, b, ph):
            return A_DRAW if ph == PH_TREASURE else A_FLOOD
    _board(s, p, b, bi)
    if ph == PH_SWIM:
        _threats(s, p, b, bi)
        return _swim(s, p, b, bi, seat, targets)
    if ph == PH_DISCARD:
        return _discard(s, p, b, bi, seat)
    a = _special_card(s, p, b, bi, ph)
    if a >= 0:
        return a
    if ph == PH_ACTIONS:
        return _turn_action(s, p, b, bi)
    return A_DRAW if ph == PH_TREASURE else A_FLOOD


@njit(cache=True)
def _draw_needs_no_card(s, p, b, ph):
    """Before any board is built at a treasure or flood draw (most decisions of a game): True
    when `_special_card` certainly plays nothing. There it can only fly the team to Fools'
    Landing (`_lift_to_landing`: all four treasures held and two Lifts) or, before a flood card,
    save a flooded tile worth a losing tile (`_rescue`): Fools' Landing, a pickup tile whose
    twin has sunk, or the tile of a pawn with nowhere to swim (`_tile_value`)."""
    s, p, b = borrowed(s), borrowed(p), borrowed(b)
    return _no_card_at_draw(s, p, ph, b[B_W + W_LOSING], b[B_W + W_PLAIN], b[B_W + W_PICKUP_TWIN])


@njit(cache=True, forceinline=True)
def _no_card_at_draw(s, p, ph, losing, plain, pickup_twin):
    """`_draw_needs_no_card` with the three weights it reads passed in (`choose` reads them
    from the policy's parameters, before any weights are copied)."""
    players = p[P_PLAYERS]
    lifts = 0
    for seat in range(players):
        lifts += s[HAND + HAND_STRIDE * seat + C_LIFT]
    if s[CAPTURED] == 15 and lifts >= 2:
        return False
    if ph != PH_FLOOD:
        return True
    if plain >= losing or pickup_twin >= losing:
        return False  # weights where any tile may be worth a losing one: no shortcut
    if _flooded_tile(s, T_FOOLS_LANDING):
        return False
    for t in range(4):
        if _bit(s[CAPTURED], t) == 0:
            for k in range(2):
                if _flooded_tile(s, PICKUP[t, k]) and _sunk_tile(s, PICKUP[t, 1 - k]):
                    return False
    stand = standing(s)
    for seat in range(players):
        place = s[PAWN + seat]
        if not _bit(s[FLOODED], place):
            continue
        role = s[ROLE + seat]
        if role == ROLE_PILOT or role == ROLE_DIVER:
            escapes = stand & ~(np.int64(1) << place)
        else:
            escapes = (NEIGH8[place] if role == ROLE_EXPLORER else NEIGH[place]) & stand
        if escapes == 0:
            return False
    return True


@njit(cache=True, forceinline=True)
def _special_card(s, p, b, bi, ph):
    """expert_reference._special_card after the lift-off (checked by the caller). Inlined into
    `_choose_code`, and so are the first checks of the Lifts below (`_lift_to_landing`,
    `_lift_to_capture`, `_lift_to_trade`, `_lift_freely`): most of them refuse at once, and a
    call that refuses still costs the passing of four arrays."""
    if ph == PH_FLOOD:
        a = _rescue(s, p, b, bi)
        if a >= 0:
            return a
    if bi[BI_TEAM + C_LIFT] > 0:
        a = _lift_to_landing(s, p, b, bi)
        if a >= 0:
            return a
        if ph == PH_ACTIONS:
            a = _lift_to_save(s, p, b, bi)
            if a < 0:
                a = _lift_to_capture(s, p, b, bi)
            if a < 0:
                a = _lift_to_trade(s, p, b, bi)
            if a < 0:
                a = _lift_freely(s, p, b, bi)
            if a >= 0:
                return a
    if ph == PH_ACTIONS and bi[BI_TEAM + C_SANDBAGS] > 0:
        return _bags_freely(s, p, b, bi)
    return -1


@njit(cache=True)
def _bags_freely(s, p, b, bi):
    """expert_reference._bags_freely (the Sandbags of the fullest hand, ties to the lowest seat)."""
    s, p, b, bi = borrowed(s), borrowed(p), borrowed(b), borrowed(bi)
    _threats(s, p, b, bi)
    if bi[BI_NTHR] == 0 or b[B_THRW] < b[B_W + W_BAGS_FREELY]:
        return -1
    place = s[TILE_PLACE + bi[BI_THR]]
    best, most = -1, -1
    for seat in range(bi[BI_PLAYERS]):
        if _count(bi, seat, C_SANDBAGS):
            size = 0
            for c in range(6):
                size += _count(bi, seat, c)
            if size > most:
                best, most = seat, size
    return A_SANDBAGS + 24 * best + place


@njit(cache=True, forceinline=True)
def _lift_freely(s, p, b, bi):
    """expert_reference._lift_freely."""
    me = s[CUR]
    if bi[BI_TEAM + C_LIFT] < b[B_W + W_LIFTS_FREELY] or s[ACTS] < 1 or bi[BI_ROLE + me] == ROLE_PILOT:
        return -1
    return _fly_freely(s, p, b, bi)


@njit(cache=True)
def _fly_freely(s, p, b, bi):
    """`_lift_freely` once the table holds Lifts enough and the player may fly."""
    s, p, b, bi = borrowed(s), borrowed(p), borrowed(b), borrowed(bi)
    me = s[CUR]
    _threats(s, p, b, bi)
    here = bi[BI_PAWN + me]
    k = s[ACTS]
    if _gain_below(_place_score(s, p, b, bi, me, here, k, 0), _score_bound(s, p, b, bi, me, k),
                   b[B_W + W_LIFT_FREELY]):
        return -1  # no place could gain enough: the sweep below would find none
    _place_scores(s, p, b, bi, me, k)
    before = b[B_ALL + here]
    stand = standing(s)
    best, best_gain = -1, 0.0
    for q in range(24):
        if not _bit(stand, q) or q == here:
            continue
        gain = b[B_ALL + q] - before
        if gain > best_gain:
            best, best_gain = q, gain
    if best < 0 or best_gain < b[B_W + W_LIFT_FREELY]:
        return -1
    for seat in range(bi[BI_PLAYERS]):
        if _count(bi, seat, C_LIFT) and _lift_ok(s, p, seat, 1 << me, best):
            return _lift_code(seat, 1 << me, best)
    return -1


@njit(cache=True)
def _rescue(s, p, b, bi):
    s, p, b, bi = borrowed(s), borrowed(p), borrowed(b), borrowed(bi)
    players = bi[BI_PLAYERS]
    if bi[BI_TEAM + C_SANDBAGS] == 0 and bi[BI_TEAM + C_LIFT] == 0:
        return -1  # nothing to rescue with
    _threats(s, p, b, bi)
    for k in range(bi[BI_NTHR]):
        tile = bi[BI_THR + k]
        if b[B_THRW + k] <= 0 or b[B_VALUE + tile] < b[B_W + W_LOSING] or _risk_now(s, b, bi, tile) <= 0:
            continue
        place = s[TILE_PLACE + tile]
        for seat in range(players):
            if _count(bi, seat, C_SANDBAGS):
                return A_SANDBAGS + 24 * seat + place  # the tile is flooded: always playable
        stranded = 0
        first = -1
        for seat in range(players):
            if bi[BI_PAWN + seat] == place and _escapes(s, bi, seat, place) == 0:
                stranded |= 1 << seat
                if first < 0:
                    first = seat
        t = TILE_TREASURE[tile]
        if stranded and tile != T_FOOLS_LANDING and not (t >= 0 and _uncaptured(bi, t)):
            to = _safe_spot(s, p, b, bi, first)
            for seat in range(players):
                if _count(bi, seat, C_LIFT) and _lift_ok(s, p, seat, stranded, to):
                    return _lift_code(seat, stranded, to)
    return -1


@njit(cache=True)
def _safe_spot(s, p, b, bi, seat):
    s, p, b, bi = borrowed(s), borrowed(p), borrowed(b), borrowed(bi)
    best = s[TILE_PLACE + T_FOOLS_LANDING]
    found = False
    best_score = 0.0
    stand = standing(s)
    _place_scores(s, p, b, bi, seat, 0)
    for q in range(24):
        if not _bit(stand, q) or q == bi[BI_PAWN + seat]:
            continue
        tile = s[PLACE_TILE + q]
        score = b[B_ALL + q] + b[B_W + W_DRY] * (0 if _bit(s[FLOODED], q) else 1) \
            - b[B_W + W_RISKY] * _risk_soon(s, b, bi, tile) + b[B_W + W_OPEN] * _open_sides(s, q)
        if not found or score > best_score:
            best, best_score, found = q, score, True
    return best


@njit(cache=True, forceinline=True)
def _lift_to_landing(s, p, b, bi):
    if bi[BI_CAPT] != 15 or bi[BI_TEAM + C_LIFT] < 2:
        return -1
    return _gather_at_landing(s, p, b, bi)


@njit(cache=True)
def _gather_at_landing(s, p, b, bi):
    """`_lift_to_landing` once all four treasures are held and the table has two Lifts."""
    s, p, b, bi = borrowed(s), borrowed(p), borrowed(b), borrowed(bi)
    players = bi[BI_PLAYERS]
    landing = s[TILE_PLACE + T_FOOLS_LANDING]
    best_mask, best_size = 0, 0
    done = 0
    for seat in range(players):
        at = bi[BI_PAWN + seat]
        if at == landing or _bit(done, seat):
            continue
        mask = 0
        for o in range(players):
            if bi[BI_PAWN + o] == at:
                mask |= 1 << o
        done |= mask
        size = 0
        for o in range(players):
            size += (mask >> o) & 1
        if size > best_size:
            best_mask, best_size = mask, size
    if best_size == 0:
        return -1
    for seat in range(players):
        if _count(bi, seat, C_LIFT) and _lift_ok(s, p, seat, best_mask, landing):
            return _lift_code(seat, best_mask, landing)
    return -1


@njit(cache=True, forceinline=True)
def _lift_to_save(s, p, b, bi):
    me = s[CUR]
    role = bi[BI_ROLE + me]
    if s[ACTS] < 1 or (role == ROLE_PILOT and not s[FLEW]):
        return -1
    _threats(s, p, b, bi)
    bags = bi[BI_TEAM + C_SANDBAGS]
    for k in range(bi[BI_NTHR]):
        tile = bi[BI_THR + k]
        if b[B_VALUE + tile] < b[B_W + W_LOSING] or _risk_soon(s, b, bi, tile) <= 0.0:
            continue
        if bags:  # a Sandbags in hand saves it just in time, out of turn (_rescue)
            bags -= 1
            continue
        reach = _shore_reach(s, role, tile)
        d = _distance(s, bi, role, reach, bi[BI_PAWN + me])
        if d <= s[ACTS] - 1:
            return -1
        for seat in range(bi[BI_PLAYERS]):
            to = s[TILE_PLACE + tile]
            if _count(bi, seat, C_LIFT) and _lift_ok(s, p, seat, 1 << me, to):
                return _lift_code(seat, 1 << me, to)
    return -1


@njit(cache=True, forceinline=True)
def _lift_to_capture(s, p, b, bi):
    me = s[CUR]
    if bi[BI_TEAM + C_LIFT] < b[B_W + W_LIFTS_CAPTURE] or bi[BI_ROLE + me] == ROLE_PILOT:
        return -1
    for t in range(4):  # the search below looks only at a treasure the player can capture
        if _uncaptured(bi, t) and _count(bi, me, t) >= p[P_CAPTURE]:
            return _fly_to_capture(s, p, b, bi)
    return -1


@njit(cache=True)
def _fly_to_capture(s, p, b, bi):
    """`_lift_to_capture` for a player holding the cards of a capture."""
    s, p, b, bi = borrowed(s), borrowed(p), borrowed(b), borrowed(bi)
    me = s[CUR]
    role = bi[BI_ROLE + me]
    for t in range(4):
        if not _uncaptured(bi, t) or _count(bi, me, t) < p[P_CAPTURE]:
            continue
        pickups = _pickups_standing(s, t)
        if pickups == 0:
            continue
        d = _distance(s, bi, role, pickups, bi[BI_PAWN + me])
        if d == 0 or d < s[ACTS] - b[B_W + W_CAPTURE_SLACK]:
            continue
        for seat in range(bi[BI_PLAYERS]):
            if _count(bi, seat, C_LIFT):
                for k in range(2):
                    tile = PICKUP[t, k]
                    if _sunk_tile(s, tile):
                        continue
                    to = s[TILE_PLACE + tile]
                    if _lift_ok(s, p, seat, 1 << me, to):
                        return _lift_code(seat, 1 << me, to)
    return -1


@njit(cache=True, forceinline=True)
def _lift_to_trade(s, p, b, bi):
    me = s[CUR]
    role = bi[BI_ROLE + me]
    if bi[BI_TEAM + C_LIFT] < b[B_W + W_LIFTS_TRADE] or role == ROLE_MESSENGER or role == ROLE_PILOT or s[ACTS] < 2:
        return -1
    for t in range(4):  # the search below looks only at cards the player would give a collector
        if _uncaptured(bi, t) and bi[BI_COLLECTOR + t] != me and _count(bi, me, t):
            return _fly_to_trade(s, p, b, bi)
    return -1


@njit(cache=True)
def _fly_to_trade(s, p, b, bi):
    """`_lift_to_trade` for a player holding cards of a treasure another seat collects."""
    s, p, b, bi = borrowed(s), borrowed(p), borrowed(b), borrowed(bi)
    me = s[CUR]
    role = bi[BI_ROLE + me]
    for t in range(4):
        if not _uncaptured(bi, t):
            continue
        to = bi[BI_COLLECTOR + t]
        held = _count(bi, me, t)
        if to == me or not held or held + _count(bi, to, t) < p[P_CAPTURE] - b[B_W + W_TRADE_SHORT]:
            continue
        there = bi[BI_PAWN + to]
        if there == bi[BI_PAWN + me] or \
                _distance(s, bi, role, np.int64(1) << there, bi[BI_PAWN + me]) <= s[ACTS] - 1:
            continue
        for seat in range(bi[BI_PLAYERS]):
            if _count(bi, seat, C_LIFT) and _lift_ok(s, p, seat, 1 << me, there):
                return _lift_code(seat, 1 << me, there)
    return -1


@njit(cache=True)
def _swim(s, p, b, bi, seat, targets):
    s, p, b, bi = borrowed(s), borrowed(p), borrowed(b), borrowed(bi)
    best, best_score = -1, 0.0
    for q in range(24):
        if not _bit(targets, q):
            continue
        a = A_SWIM + 24 * seat + q
        tile = s[PLACE_TILE + q]
        score = (_place_score(s, p, b, bi, seat, q, 0, 0) + b[B_W + W_DRY] * (0 if _bit(s[FLOODED], q) else 1)
                 - b[B_W + W_RISKY] * _risk_soon(s, b, bi, tile) + b[B_W + W_OPEN] * _open_sides(s, q))
        if best < 0 or score > best_score or (score == best_score and a < best):
            best, best_score = a, score
    return best


@njit(cache=True)
def _discard(s, p, b, bi, seat):
    s, p, b, bi = borrowed(s), borrowed(p), borrowed(b), borrowed(bi)
    worst, worst_value = -1, 0.0
    for c in range(6):
        if _count(bi, seat, c) == 0:
            continue
        a = A_DISCARD + 8 * seat + c
        v = _card_value(s, b, bi, seat, c, p[P_CAPTURE])
        if worst < 0 or v < worst_value or (v == worst_value and a < worst):
            worst, worst_value = a, v
    flooded = np.int64(s[FLOODED])
    if (worst_value >= b[B_W + W_BAG_INSTEAD] or (worst - A_DISCARD) % 8 == C_SANDBAGS) \
            and _count(bi, seat, C_SANDBAGS) and flooded:
        _threats(s, p, b, bi)
        best, best_score = -1, 0.0
        for q in range(24):
            if not _bit(flooded, q):
                continue
            a = A_SANDBAGS + 24 * seat + q
            tile = s[PLACE_TILE + q]
            score = b[B_VALUE + tile] * (_kept_urgency(s, b, bi, tile) + 0.01)
            if best < 0 or score > best_score or (score == best_score and a < best):
                best, best_score = a, score
        return best
    if (worst - A_DISCARD) % 8 == C_LIFT:
        a = _lift_instead(s, p, b, bi, seat)
        if a >= 0:
            return a
    return worst


@njit(cache=True)
def _lift_instead(s, p, b, bi, seat):
    """expert_reference._lift_instead."""
    s, p, b, bi = borrowed(s), borrowed(p), borrowed(b), borrowed(bi)
    _threats(s, p, b, bi)
    stand = standing(s)
    best_pawn, best_to, best_gain = -1, -1, 0.0
    for o in range(bi[BI_PLAYERS]):
        at = bi[BI_PAWN + o]
        stays = _place_score(s, p, b, bi, o, at, 0, 0)
        if _gain_below(stays, _score_bound(s, p, b, bi, o, 0), max(b[B_W + W_LIFT_INSTEAD], best_gain)):
            continue  # this pawn cannot be the one flown: none of its gains reaches the bar or the best so far
        _place_scores(s, p, b, bi, o, 0)  # the same scores as _place_score at each place
        for q in range(24):
            if not _bit(stand, q) or q == at:
                continue
            gain = b[B_ALL + q] - stays
            if gain > best_gain:
                best_pawn, best_to, best_gain = o, q, gain
    if best_pawn < 0 or best_gain < b[B_W + W_LIFT_INSTEAD]:
        return -1
    if not _lift_ok(s, p, seat, 1 << best_pawn, best_to):
        return -1
    return _lift_code(seat, 1 << best_pawn, best_to)


@njit(cache=True, forceinline=True)
def _better(a, score, best, best_score):
    """The choice's order: the higher score, ties to the lower code (a total order, so the
    candidates may be scored in any order)."""
    return best < 0 or score > best_score or (score == best_score and a < best)


@njit(cache=True)
def _shore_worth(s, b, bi, place):
    s, b, bi = borrowed(s), borrowed(b), borrowed(bi)
    return b[B_VALUE + s[PLACE_TILE + place]] * _kept_urgency(s, b, bi, s[PLACE_TILE + place]) + 0.5


@njit(cache=True)
def _turn_action(s, p, b, bi):
    """expert_reference._turn_action over the turn's actions as the kernel's `turn_actions` finds
    them, walking its target masks bit by bit rather than listing codes, with the place scores
    that do not depend on the action (before it; after spending one where the pawn stands; a
    pushed pawn where it stands) computed once. The Pilot's flights and the Navigator's pushes
    (up to 23 and 36 place scores) come last, each group skipped when an upper bound of its
    scores (`_score_bound`) falls below the best action found: none of them could be chosen."""
    s, p, b, bi = borrowed(s), borrowed(p), borrowed(b), borrowed(bi)
    _threats(s, p, b, bi)
    me = s[CUR]
    role = bi[BI_ROLE + me]
    here = bi[BI_PAWN + me]
    k = s[ACTS]
    before = _place_score(s, p, b, bi, me, here, k, 0)
    best, best_score = A_DRAW, _place_score(s, p, b, bi, me, here, 0, 0) - before  # the draw ends the actions
    moves = move_targets(s, p, me)
    m = moves
    while m:
        q = low_bit(m)
        m &= m - 1
        score = _place_score(s, p, b, bi, me, q, k - 1, 0) - before - 0.0
        if _better(A_MOVE + q, score, best, best_score):
            best, best_score = A_MOVE + q, score
    shore = shore_targets(s, p, me)
    m = shore
    while m:
        q = low_bit(m)
        m &= m - 1
        t1 = s[PLACE_TILE + q]
        score = 0.0 + _shore_worth(s, b, bi, q) + _place_score(s, p, b, bi, me, here, k - 1, np.int64(1) << t1) - before
        if _better(A_SHORE + q, score, best, best_score):
            best, best_score = A_SHORE + q, score
        if role == ROLE_ENGINEER:  # with a second tile of a higher place
            m2 = m
            while m2:
                q2 = low_bit(m2)
                m2 &= m2 - 1
                t2 = s[PLACE_TILE + q2]
                score = 0.0 + _shore_worth(s, b, bi, q) + _shore_worth(s, b, bi, q2) \
                    + _place_score(s, p, b, bi, me, here, k - 1, (np.int64(1) << t1) | (np.int64(1) << t2)) - before
                a = A_SHORE2 + 24 * q + q2
                if _better(a, score, best, best_score):
                    best, best_score = a, score
    if can_capture(s, p, me) >= 0 and _better(A_CAPTURE, CAPTURE, best, best_score):
        best, best_score = A_CAPTURE, CAPTURE
    receivers = give_receivers(s, p, me)
    navigator = role == ROLE_NAVIGATOR
    if receivers or navigator:
        spent = _place_score(s, p, b, bi, me, here, k - 1, 0) - before
        for to in range(bi[BI_PLAYERS]):
            if (receivers >> to) & 1:
                for t in range(4):
                    if _count(bi, me, t) > 0:
                        score = _give_score(s, p, b, bi, me, to, t) + spent
                        if _better(A_GIVE + 4 * to + t, score, best, best_score):
                            best, best_score = A_GIVE + 4 * to + t, score
        if navigator:
            for pawn in range(bi[BI_PLAYERS]):
                m = navigate_targets(s, p, pawn)
                if m == 0:
                    continue
                stays = _place_score(s, p, b, bi, pawn, bi[BI_PAWN + pawn], 0, 0)
                if _below(0.9 * (_score_bound(s, p, b, bi, pawn, 0) - stays) + spent, best_score):
                    continue
                while m:
                    q = low_bit(m)
                    m &= m - 1
                    score = 0.9 * (_place_score(s, p, b, bi, pawn, q, 0, 0) - stays) + spent
                    a = A_NAVIGATE + 24 * pawn + q
                    if _better(a, score, best, best_score):
                        best, best_score = a, score
    if role == ROLE_PILOT and not s[FLEW] and \
            not _below(_score_bound(s, p, b, bi, me, k - 1) - before - 0.01, best_score):
        # not to a tile it can walk to (F10 allows it): the walk there scores 0.01 more, keeping the flight
        m = standing(s) & ~(np.int64(1) << here) & ~moves
        while m:
            q = low_bit(m)
            m &= m - 1
            score = _place_score(s, p, b, bi, me, q, k - 1, 0) - before - 0.01
            if _better(A_FLY + q, score, best, best_score):
                best, best_score = A_FLY + q, score
    return best


@njit(cache=True, forceinline=True)
def _below(top, best_score):
    """Whether scores of at most `top` (an upper bound summed from place scores) are certainly
    below `best_score`, with a margin far above the rounding of those sums: then no action of
    that group could be chosen, nor tie."""
    return top + 1e-6 * (1.0 + abs(top) + abs(best_score)) < best_score


@njit(cache=True)
def _give_score(s, p, b, bi, giver, to, card):
    s, p, b, bi = borrowed(s), borrowed(p), borrowed(b), borrowed(bi)
    if not _uncaptured(bi, card) or bi[BI_COLLECTOR + card] != to:
        return -1.0
    size = 0
    for c in range(6):
        size += _count(bi, to, c)
    if size >= p[P_HAND_LIMIT]:
        spare = 1e300
        for c in range(6):
            if _count(bi, to, c):
                spare = min(spare, _card_value(s, b, bi, to, c, p[P_CAPTURE]))
        if spare >= _card_value(s, b, bi, giver, card, p[P_CAPTURE]):
            return -1.0
    return b[B_W + W_GIVE] + b[B_W + W_GIVE_PER_CARD] * _count(bi, to, card)


def scratch() -> tuple[np.ndarray, np.ndarray]:
    """The two scratch arrays `choose_code` needs, made once per game (or per thread)."""
    b = np.zeros(NB, dtype=np.float64)
    b[B_W:B_W + len(DEFAULT_WEIGHTS)] = DEFAULT_WEIGHTS
    return b, np.zeros(NBI, dtype=np.int64)


# --- the registry's interface (policies/forbidden_island/registry.py) ---------------------------------------

DESCRIPTION = "goal-directed fair player: flood odds, collectors, special cards just in time"
WEIGHTS = 48  # the policy parameter slots proper: the W_* weights (0 = the reference's value)
DEFAULTS = DEFAULT_WEIGHTS  # what `island-escape tune` varies: every weight the reference gives a value
USES_LEGAL = False  # it lists its own candidates: the play loop need not build the legal list


def default_params() -> np.ndarray:
    """The policy's parameter array: WEIGHTS slots, then the scratch space `choose` works in.
    The play loop copies it per chunk of games, so every thread has its own scratch."""
    return np.zeros(WEIGHTS + NB + NBI, dtype=np.float64)


@njit(cache=True, forceinline=True)
def _weight(pp, i):
    """The weight in use at slot i, read from the policy's parameters: `_load_weights`' value."""
    return pp[i] if pp[i] != 0.0 else DEFAULT_WEIGHTS[i]


@njit(cache=True, forceinline=True)
def _load_weights(pp, b, bi):
    """The weights in use, b[B_W + i] (`_weight`: pp[i], or the reference's value where pp[i] is 0). Copied
    again only when pp's weights differ from those last copied (kept raw from B_RAW on), which
    is almost never."""
    raw = pp[:WEIGHTS].view(np.int64)  # bit patterns: OR of XORs, no branch, a few vector steps
    kept = b[B_RAW:B_RAW + WEIGHTS].view(np.int64)
    diff = 0
    # The loop's bound is one LLVM cannot see through (it is WEIGHTS): with a constant bound it
    # unrolls the loop into 48 compare-and-branch steps, a few hundred instructions a decision;
    # as a loop it vectorizes it (a dozen vector steps).
    for i in range(min(WEIGHTS, pp.size)):
        diff |= raw[i] ^ kept[i]
    if diff or not bi[BI_WEIGHTS_SET]:
        for i in range(WEIGHTS):
            b[B_RAW + i] = pp[i]
            b[B_W + i] = _weight(pp, i)
        bi[BI_WEIGHTS_SET] = 1
        bi[BI_ODDS_KEY] = 0  # the kept urgencies were weighed with the old weights
        bi[BI_VERSION] += 1
        bi[BI_WEIGHTS_VER] = bi[BI_VERSION]


@njit(cache=True, forceinline=True)
def _draw_without_board(s, p, pp, ph):
    """At a treasure or flood draw (99 of a game's 175 decisions at 2 players Normal), the draw
    itself when `_choose_code` would certainly answer it without a board: no Lift or Sandbags in
    any hand (the kernel's `only_draw`, about 35 of them, which the play loop answers without
    asking), or no lift-off and `_draw_needs_no_card` (about 53 more), its weights read from the
    policy's parameters, so that no weights are compared or copied. Else -1."""
    a = only_draw(s, p, ph)
    if a >= 0 or (ph != PH_TREASURE and ph != PH_FLOOD):
        return a
    if _liftoff(s, p, 0, p[P_PLAYERS]) >= 0:
        return -1
    if _no_card_at_draw(s, p, ph, _weight(pp, W_LOSING), _weight(pp, W_PLAIN), _weight(pp, W_PICKUP_TWIN)):
        return A_DRAW if ph == PH_TREASURE else A_FLOOD
    return -1


@njit(cache=True)
def choose(s, p, pp, acts, n, rng):
    """The play loop's interface. Called with the legal list (n > 0) it returns the index of its
    choice there; called blind (n = 0, as the play loop does for this policy) it writes its
    choice's code into acts[0] and returns 0. The scratch arrays live at the end of `pp` (an
    int64 view of the float64 slots: nothing allocated)."""
    s, p, pp, acts, rng = borrowed(s), borrowed(p), borrowed(pp), borrowed(acts), borrowed(rng)
    ph = phase(s, p)
    code = _draw_without_board(s, p, pp, ph)  # most decisions of a game: no weights read
    if code < 0:
        b = pp[WEIGHTS:WEIGHTS + NB]
        bi = pp[WEIGHTS + NB:WEIGHTS + NB + NBI].view(np.int64)
        _load_weights(pp, b, bi)
        code = _choose_code(s, p, b, bi, ph)
    if n == 0:
        acts[0] = code
        return 0
    for i in range(n):
        if acts[i] == code:
            return i
    return 0
