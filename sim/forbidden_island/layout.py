"""Forbidden Island's kernel layout: state offsets, parameter slots, action codes, tables.

The kernel (`sim/forbidden_island/kernel.py`) keeps a game in one int32 array `s` of `NSTATE`
fields and the rule parameters in an int32 array `p` of `NPARAMS`; policies read the same
offsets. docs/FI-KERNEL.md describes the layout and the action codes in prose; the numbers
live here only.

Indices (all from sim/forbidden_island/rules.py, so the kernel and the engine agree):
- place: 0-23, the index in `rules.PLACES` (row by row, top first, each row from the left);
  a place mask has bit `place` set;
- tile: 0-23, the index in `rules.TILE_CODES` (0 is Fools' Landing); a tile mask has bit `tile`;
- role: the index in `rules.ROLES` (diver, engineer, explorer, messenger, navigator, pilot);
- card: earth 0, fire 1, chalice 2, wind 3 (the treasure ids, `rules.TREASURES` order),
  lift 4, sandbags 5, waters_rise 6 (`CARDS`).
"""

from __future__ import annotations

import numpy as np

from sim.fields import Layout
from sim.forbidden_island.rules import (
    CARD_COUNTS,
    FOOLS_LANDING,
    LIFT,
    PICKUP_TILES,
    PLACES,
    ROLES,
    SANDBAGS,
    START_TILE,
    TILE_CODES,
    TREASURES,
    WATERS_RISE,
    neighbours,
)

NPLACES = 24
MAX_PLAYERS = 4
CARDS = (*TREASURES, LIFT, SANDBAGS, WATERS_RISE)
C_LIFT, C_SANDBAGS, C_WATERS_RISE = 4, 5, 6
NCARDS = 7
DISCARDABLE = 6  # cards a hand can hold: the four treasures, lift and sandbags
ROLE_DIVER, ROLE_ENGINEER, ROLE_EXPLORER, ROLE_MESSENGER, ROLE_NAVIGATOR, ROLE_PILOT = range(6)
assert ROLES[ROLE_PILOT] == "pilot" and ROLES[ROLE_DIVER] == "diver"
T_FOOLS_LANDING = TILE_CODES.index(FOOLS_LANDING)

# --- state offsets (int32; declared in order: each field starts where the one before ends) ----------
STATE = Layout("Forbidden Island state")
PLACE_TILE = STATE.field("PLACE_TILE", 24)  # tile at each place
TILE_PLACE = STATE.field("TILE_PLACE", 24)  # place of each tile
FLOODED = STATE.field("FLOODED")  # place mask of flooded tiles
SUNK = STATE.field("SUNK")  # place mask of sunk places
ROLE = STATE.field("ROLE", 4)  # role of each seat (seats in turn order; -1 past the player count)
PAWN = STATE.field("PAWN", 4)  # place of each seat's pawn
HAND_STRIDE = 8
HAND = STATE.field("HAND", 4 * HAND_STRIDE)  # HAND + 8 * seat + card = how many of that card the seat holds
HAND_SIZE = STATE.field("HAND_SIZE", 4)  # cards in each hand
TPILE = STATE.field("TPILE", 28)  # treasure draw pile, bottom first: the top card is s[TPILE + s[TPILE_N] - 1]
TPILE_N = STATE.field("TPILE_N")
TDISC = STATE.field("TDISC", 8)  # treasure discard, a count per card id (its order never matters: it is shuffled)
FPILE = STATE.field("FPILE", 24)  # flood draw pile of tile ids, bottom first: the top is s[FPILE + s[FPILE_N] - 1]
FPILE_N = STATE.field("FPILE_N")
FDISC = STATE.field("FDISC")  # tile mask of the flood discard
FLAYERS_N = STATE.field("FLAYERS_N")  # number of public layers of the flood pile
FLAYER = STATE.field("FLAYER", 24)  # pile index where each layer begins, bottom layer first; the top layer is
#              s[FPILE + s[FLAYER + s[FLAYERS_N] - 1]] ... s[FPILE + s[FPILE_N] - 1]
MARK = STATE.field("MARK")  # water mark 1-10 (10 is the skull)
TURN = STATE.field("TURN")  # turn number, 1 for the first turn (0 during setup)
CUR = STATE.field("CUR")  # seat whose turn it is
STAGE = STATE.field("STAGE")  # ST_ACTIONS, ST_TREASURE or ST_FLOOD (the turn's step; see `phase` for who acts)
ACTS = STATE.field("ACTS")  # actions left this turn
DRAWS = STATE.field("DRAWS")  # treasure draws left (set when the actions end)
FLOODS = STATE.field("FLOODS")  # flood cards left (fixed when the treasure draws end, F5)
FLEW = STATE.field("FLEW")  # 1 once the Pilot has flown this turn
SWIMMERS = STATE.field("SWIMMERS")  # seat mask of pawns that must still swim, in any order (F11)
OUTCOME = STATE.field("OUTCOME")  # -1 while the game runs, else a CAUSE_* code
CAPTURED = STATE.field("CAPTURED")  # treasure mask of captured treasures
CAPTURE_ORDER = STATE.field("CAPTURE_ORDER", 4)  # treasures in the order captured, -1 for none yet
N_TSHUFFLES = STATE.field("N_TSHUFFLES")  # treasure pile shuffles so far (setup's Waters Rise! return included)
# flood pile shuffles so far (Waters Rise! with a non-empty discard, or refill)
N_FSHUFFLES = STATE.field("N_FSHUFFLES")
WATERS_RISEN = STATE.field("WATERS_RISEN")  # Waters Rise! cards drawn in play
FLOODS_DRAWN = STATE.field("FLOODS_DRAWN")  # flood cards drawn in play
COUNT = STATE.field("COUNT", 14)  # actions applied of each kind (K_* below)
CAPTURE_TURN = STATE.field("CAPTURE_TURN", 4)  # turn each treasure was captured, -1 if not
NSTATE = STATE.size

STAGE_ACTIONS, STAGE_TREASURE, STAGE_FLOOD = 0, 1, 2
# phase(): who may act now, the engine's PHASES in order
PH_ACTIONS, PH_TREASURE, PH_FLOOD, PH_DISCARD, PH_SWIM, PH_OVER = range(6)

# --- outcomes (F13, F14: the loss causes in the order they are checked) -------------------------------
CAUSE_WIN, CAUSE_WATER, CAUSE_DROWNED, CAUSE_TREASURE, CAUSE_FOOLS_LANDING = range(5)
CAUSES = ("win", "water", "drowned", "treasure", "fools_landing")

# --- parameters (int32) ----------------------------------------------------------------------------------
PARAMS = Layout("Forbidden Island parameters")
P_PLAYERS = PARAMS.field("P_PLAYERS")
P_START_MARK = PARAMS.field("P_START_MARK")
P_ACTIONS = PARAMS.field("P_ACTIONS")
P_DRAWS = PARAMS.field("P_DRAWS")
P_HAND_LIMIT = PARAMS.field("P_HAND_LIMIT")
P_SETUP_FLOODS = PARAMS.field("P_SETUP_FLOODS")
P_SETUP_CARDS = PARAMS.field("P_SETUP_CARDS")
P_CAPTURE = PARAMS.field("P_CAPTURE")
NPARAMS = PARAMS.size
SKULL = 10
FLOOD_DRAWS = np.array([0, 2, 2, 3, 3, 3, 4, 4, 5, 5, 0], dtype=np.int64)  # by mark (F4); 0 at 10

# --- action codes -----------------------------------------------------------------------------------------
# One integer per decision, every engine Action kind (docs/FI-KERNEL.md). `place`, `a`, `b` are
# places, `seat`/`pawn`/`to` seats, `t` a treasure id, `card` a card id 0-5, `m` a seat mask 1-15.
A_MOVE = 0  # + place                       move (a walk; the Diver's swim through a chain)
A_FLY = A_MOVE + 24  # + place               the Pilot's flight
A_NAVIGATE = A_FLY + 24  # + 24 * pawn + place  the Navigator moves another pawn
A_SHORE = A_NAVIGATE + 96  # + place          shore up one tile
A_SHORE2 = A_SHORE + 24  # + 24 * a + b, a < b   the Engineer shores up two tiles
A_GIVE = A_SHORE2 + 576  # + 4 * to + t       give one treasure card of t to seat `to`
A_CAPTURE = A_GIVE + 16  # capture the treasure of the current player's tile
A_DRAW = A_CAPTURE + 1  # draw a treasure card (during the actions: ends them)
A_FLOOD = A_DRAW + 1  # draw a flood card
A_DISCARD = A_FLOOD + 1  # + 8 * seat + card    the seat above the hand limit discards
A_SWIM = A_DISCARD + 32  # + 24 * seat + place  the seat whose tile sank swims
A_SANDBAGS = A_SWIM + 96  # + 24 * seat + place  the seat plays Sandbags on a flooded tile
A_LIFT = A_SANDBAGS + 96  # + 384 * seat + 24 * m + place  the seat's Helicopter Lift moves pawns m
A_LIFTOFF = A_LIFT + 1536  # + seat             the seat's Helicopter Lift wins the game
N_ACTIONS = A_LIFTOFF + 4
MAX_LEGAL = 2048  # more than the legal actions of any state can number (lifts dominate: < 1100)
LOG_SHAPE = (1 << 14,)  # a logged game's decision codes (a long game takes about a thousand)

# action kinds, in the engine's ACTION_KINDS order, for COUNT and for decoding
(K_MOVE, K_FLY, K_NAVIGATE, K_SHORE, K_GIVE, K_CAPTURE, K_DRAW, K_FLOOD, K_DISCARD, K_SWIM, K_SANDBAGS,
 K_LIFT, K_LIFTOFF, K_SHORE2) = range(14)
KIND_NAMES = ("move", "fly", "navigate", "shore", "give", "capture", "draw", "flood", "discard", "swim",
              "sandbags", "lift", "liftoff", "shore2")
NKINDS = 14

# --- per-game results (a row of the runner's table) ---------------------------------------------------------
RESULT_FIELDS = ("cause", "turns", "treasures", "mark", "tiles_sunk", "floods", "waters_rise",
                 "capture_turn_earth", "capture_turn_fire", "capture_turn_chalice", "capture_turn_wind",
                 "moves", "flights", "navigations", "shores", "double_shores", "gives", "captures",
                 "discards", "swims", "sandbags", "lifts", "draws")
NRESULT = len(RESULT_FIELDS)
# the result fields a table keeps as int8 (the others int16)
RESULT_INT8 = ("treasures", "mark", "tiles_sunk", "waters_rise", "capture_turn_earth", "capture_turn_fire",
               "capture_turn_chalice", "capture_turn_wind")

# --- tables --------------------------------------------------------------------------------------------------
_PLACE_INDEX = {pl: i for i, pl in enumerate(PLACES)}


def _mask(places) -> int:
    out = 0
    for pl in places:
        out |= 1 << _PLACE_INDEX[pl]
    return out


# place masks of each place's side neighbours and of its side and corner neighbours (the Explorer)
NEIGH = np.array([_mask(neighbours(pl)) for pl in PLACES], dtype=np.int64)
NEIGH8 = np.array([_mask(neighbours(pl, diagonal=True)) for pl in PLACES], dtype=np.int64)
ALL_PLACES = (1 << NPLACES) - 1


def _distances() -> np.ndarray:
    """Side steps between places over the island's 24 places (sunk or not): the Diver's F11."""
    out = np.full((NPLACES, NPLACES), 99, dtype=np.int64)
    for start in range(NPLACES):
        out[start, start] = 0
        ring = [start]
        while ring:
            nxt = []
            for q in ring:
                for nb in neighbours(PLACES[q]):
                    j = _PLACE_INDEX[nb]
                    if out[start, j] == 99:
                        out[start, j] = out[start, q] + 1
                        nxt.append(j)
            ring = nxt
    return out


DIST = _distances()
# tile -> treasure picked up there (-1 none); treasure -> its two pickup tiles
TILE_TREASURE = np.array([next((TREASURES.index(t) for t, tiles in PICKUP_TILES.items() if code in tiles), -1)
                          for code in TILE_CODES], dtype=np.int64)
PICKUP = np.array([[TILE_CODES.index(c) for c in PICKUP_TILES[t]] for t in TREASURES], dtype=np.int64)
ROLE_START_TILE = np.array([TILE_CODES.index(START_TILE[r]) for r in ROLES], dtype=np.int64)
TREASURE_DECK_COUNTS = np.array([CARD_COUNTS[c] for c in CARDS] + [0], dtype=np.int64)  # by card id (8 slots)

# --- random streams (sim/streams.py's splitmix64 streams, keyed by seed and game) ---------------------
STREAM_DEAL, STREAM_SHUFFLE, STREAM_POLICY = 0, 1, 2
