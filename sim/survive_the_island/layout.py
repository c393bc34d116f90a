"""Survive the Island's kernel layout: state offsets, parameter slots, phases, results.

The kernel (`sim/survive_the_island/kernel.py`) keeps a game in one int32 array `s` of `NSTATE`
fields and the rule parameters, the board included, in an int32 array `p` of `NPARAMS`
(`convert.params_of` fills it), so that the kernel never reads a Python object. The numbers live
here only; the board, tiles, creatures and action codes are `rules.py`'s.

Indices (all from sim/survive_the_island/rules.py):
- space: the board's space number (row by row, S1), < rules.MAX_SPACES;
- tile: the index in `rules.TILES` (the canonical order the deal shuffles, S3);
- adventurer: seat k's are k*E ... k*E+E-1 (S6), E = p[P_ADV_EACH]; raft: 0 ... p[P_RAFTS]-1;
- creature slot: `rules.CREATURE_BASE` (serpents 0-4, sharks 5-12, kaijus 13-16, S5);
- ability: back - rules.FIRST_ABILITY (oars 0, dolphin 1, repellent 2, dive 3, die 4).

Occupancy is kept per space and updated with every move (adventurers, those not on a raft, the
raft there, serpents, sharks, the kaiju there), so that a rule asks one array entry instead of
scanning the pieces; so is what a piece may do on each space (MAY), and the sets the flood list
reads (the spaces by terrain of their tile, those on the shore) as bits. The parameters hold the
board's geometry as tables (each space's neighbours, the spaces within two steps of it, the hex
distance's cube coordinates) and the seats as tables, so that no rule divides.
"""

from __future__ import annotations

from sim.fields import Layout
from sim.survive_the_island.rules import (
    ABILITIES,
    MAX_ADVENTURERS,
    MAX_CREATURES,
    MAX_PLAYERS,
    MAX_RAFTS,
    MAX_RESCUE,
    MAX_SERPENTS,
    MAX_SPACES,
    TILES_TOTAL,
)

NABILITIES = len(ABILITIES)
MAX_ROLLS = 128  # rolls a game keeps (a game has at most one a turn, and 40 turns, plus the die tiles)
MAX_SEAT_VALUES = 20  # a seat's adventurers (two colours in a game of two, S6)
BIT_WORDS = MAX_SPACES // 32  # int32 words of a set of spaces kept as bits

# space kinds as the kernel keeps them: the printed kinds (rules.SEA, LAND, RESCUE) and a
# revealed volcano (S12)
K_SEA, K_LAND, K_RESCUE, K_VOLCANO = 0, 1, 2, 3

# what a piece may do on a space (S9, S13), kept per space as bits so that a rule reads one entry
MAY_SEA_STOP = 1  # a serpent or a shark may stop there: sea without a kaiju
MAY_SEA_PASS = 2  # a shark may pass over it: sea
MAY_KAIJU = 4  # a kaiju may pass over it or stop there: sea or land
MAY_ADVENTURER = 8  # an adventurer may stop there: no volcano, no kaiju
MAY_RESCUE = 16  # a rescue island: a raft may stop there whatever is on it

# phases (the contract's names, in this order)
PHASES = ("place", "raft", "action", "flood", "creature", "push", "over", "repel")
PH_PLACE, PH_RAFT, PH_ACTION, PH_FLOOD, PH_CREATURE, PH_PUSH, PH_OVER, PH_REPEL = range(8)

# where an adventurer is when not on a space
RESCUED_SPACE, LOST_SPACE, UNPLACED_SPACE = -1, -2, -3

# --- state (int32; declared in order) --------------------------------------------------------------
STATE = Layout("Survive the Island state")
KIND = STATE.field("KIND", MAX_SPACES)  # K_* of each space
TILE_AT = STATE.field("TILE_AT", MAX_SPACES)  # tile index of the unflooded tile on a space, else -1
ADV_N = STATE.field("ADV_N", MAX_SPACES)  # adventurers on each space (on a raft or not)
LOOSE_N = STATE.field("LOOSE_N", MAX_SPACES)  # adventurers on each space not on a raft (swimmers at sea)
RAFT_AT = STATE.field("RAFT_AT", MAX_SPACES)  # the raft on each space, else -1 (never two: S7, S9)
SERPENT_N = STATE.field("SERPENT_N", MAX_SPACES)  # serpents on each space
SHARK_N = STATE.field("SHARK_N", MAX_SPACES)  # sharks on each space
KAIJU_AT = STATE.field("KAIJU_AT", MAX_SPACES)  # slot of the kaiju on each space, else -1 (never two)
MAY = STATE.field("MAY", MAX_SPACES)  # what a piece may do on each space (MAY_* bits, from KIND and KAIJU_AT)
SEA_NEAR = STATE.field("SEA_NEAR", MAX_SPACES)  # sea neighbours of each space (the flood order, S12)
# sets of spaces as bits, 32 a word (space q is bit q & 31 of word q >> 5), so that the flood list
# is read word by word instead of scanning the island
SHORE_BITS = STATE.field("SHORE_BITS", BIT_WORDS)  # the spaces with a sea neighbour (SEA_NEAR > 0)
TILE_BITS = STATE.field("TILE_BITS", 3 * BIT_WORDS)  # + BIT_WORDS * terrain: spaces with an unflooded tile of it
VALUE = STATE.field("VALUE", MAX_ADVENTURERS)  # each adventurer's treasure value
ADV_SPACE = STATE.field("ADV_SPACE", MAX_ADVENTURERS)  # its space, RESCUED_SPACE, LOST_SPACE or UNPLACED_SPACE
ADV_RAFT = STATE.field("ADV_RAFT", MAX_ADVENTURERS)  # the raft it is on, else -1
SWAM = STATE.field("SWAM", MAX_ADVENTURERS)  # 1 once it swam this turn (S9)
RAFT_SPACE = STATE.field("RAFT_SPACE", MAX_RAFTS)  # each raft's space, -1 in the supply
RAFT_LOAD = STATE.field("RAFT_LOAD", MAX_RAFTS)  # adventurers on each raft
RAFT_SEAT_N = STATE.field("RAFT_SEAT_N", MAX_RAFTS * MAX_PLAYERS)  # + 5 * raft + seat: a seat's adventurers on it
CREATURE_SPACE = STATE.field("CREATURE_SPACE", MAX_CREATURES)  # each slot's space, -1 off the board
HAND = STATE.field("HAND", MAX_PLAYERS * NABILITIES)  # + 5 * seat + ability: abilities held (S11)
SCORE = STATE.field("SCORE", MAX_PLAYERS)  # treasure rescued by each seat
RESCUED = STATE.field("RESCUED", MAX_PLAYERS)  # adventurers rescued by each seat
ON_BOARD = STATE.field("ON_BOARD", MAX_PLAYERS)  # each seat's adventurers on the board
PLACED = STATE.field("PLACED", MAX_PLAYERS)  # each seat's adventurers placed so far (S7)
# S7's choice read as bits, so that listing or playing a placement reads a word, not the adventurers:
# bit i of UNPLACED_BITS + seat while the seat's adventurer seat*E+i is unplaced, and of
# VALUE_BITS + VALUE_ROOM * seat + v when that adventurer bears value v (set by the deal)
UNPLACED_BITS = STATE.field("UNPLACED_BITS", MAX_PLAYERS)
VALUE_ROOM = 8  # values 1-5 (rules.VALUES), room to spare
VALUE_BITS = STATE.field("VALUE_BITS", MAX_PLAYERS * VALUE_ROOM)
TERRAIN_LEFT = STATE.field("TERRAIN_LEFT", 3)  # unflooded tiles of each terrain
TURN = STATE.field("TURN")  # 0 during set-up, 1 at the first action phase, +1 a seat turn (S8)
SEAT = STATE.field("SEAT")  # whose turn it is; the placing seat during set-up
PHASE = STATE.field("PHASE")  # PH_*
MOVES_LEFT = STATE.field("MOVES_LEFT")  # moves left this turn (set at the turn's start, S9)
FLOODS_LEFT = STATE.field("FLOODS_LEFT")  # floods left this turn (set at the turn's start, S12)
VOLCANOES = STATE.field("VOLCANOES")  # volcanoes revealed
ROLLED = STATE.field("ROLLED")  # the creature kind to move in PH_CREATURE, else -1
PUSH_SPACE = STATE.field("PUSH_SPACE")  # the space whose adventurers wait to be pushed, else -1
PUSH_FROM = STATE.field("PUSH_FROM")  # the phase a push returns to (PH_FLOOD or PH_CREATURE)
# S15: a shark or kaiju waiting in PH_REPEL while the seat REPEL_SEAT decides whether to repel it:
# its slot and space, the phase it interrupted, and 1 when swimmers had entered its space (the
# other sharks there follow)
REPEL_SLOT = STATE.field("REPEL_SLOT")
REPEL_SPACE = STATE.field("REPEL_SPACE")
REPEL_SEAT = STATE.field("REPEL_SEAT")
REPEL_FROM = STATE.field("REPEL_FROM")
REPEL_MEET = STATE.field("REPEL_MEET")
ROLL_FROM = STATE.field("ROLL_FROM")  # PH_ACTION for a die ability's roll, PH_FLOOD for the creature phase's
ENDING = STATE.field("ENDING")  # -1 while playing, else an END_* code
RAFTS_PLACED = STATE.field("RAFTS_PLACED")  # rafts placed in set-up (S7)
FLOODED_N = STATE.field("FLOODED_N")  # tiles flooded
RESCUED_N = STATE.field("RESCUED_N")  # adventurers rescued (every seat)
LOST_N = STATE.field("LOST_N")  # adventurers lost
NROLLS = STATE.field("NROLLS")  # rolls so far
ROLLS = STATE.field("ROLLS", MAX_ROLLS)  # the kind of every roll, in order
NSTATE = STATE.size

# --- parameters (int32; the board precomputed) -----------------------------------------------------
PARAMS = Layout("Survive the Island parameters")
P_PLAYERS = PARAMS.field("P_PLAYERS")
P_MOVES = PARAMS.field("P_MOVES")
P_SHARKS = PARAMS.field("P_SHARKS")
P_KAIJUS = PARAMS.field("P_KAIJUS")
P_SERPENTS = PARAMS.field("P_SERPENTS")
P_RAFTS = PARAMS.field("P_RAFTS")
P_CAPACITY = PARAMS.field("P_CAPACITY")
P_VOLCANOES_TO_END = PARAMS.field("P_VOLCANOES_TO_END")
P_DIE = PARAMS.field("P_DIE", 3)  # faces per creature kind
P_SNAKE = PARAMS.field("P_SNAKE")  # 1 for a snake set-up order (rules.SETUP_ORDERS, S7)
P_ADV_EACH = PARAMS.field("P_ADV_EACH")  # a seat's adventurers (S6)
P_RAFTS_EACH = PARAMS.field("P_RAFTS_EACH")  # a seat's own rafts
P_NSPACES = PARAMS.field("P_NSPACES")
P_NLAND = PARAMS.field("P_NLAND")
P_NRESCUE = PARAMS.field("P_NRESCUE")
P_LAND = PARAMS.field("P_LAND", TILES_TOTAL)  # the island spaces in board order (S3)
P_RESCUE_ROOM = MAX_RESCUE
P_RESCUE = PARAMS.field("P_RESCUE", P_RESCUE_ROOM)  # the rescue islands
P_NSHORE = PARAMS.field("P_NSHORE")
P_SHORE = PARAMS.field("P_SHORE", MAX_SPACES)  # sea spaces next to an island space, in board order (S7's rafts)
P_SERPENT_STARTS = PARAMS.field("P_SERPENT_STARTS", MAX_SERPENTS)  # S2
P_KIND = PARAMS.field("P_KIND", MAX_SPACES)  # printed kind of each space (rules.SEA, LAND, RESCUE)
P_NEIGH = PARAMS.field("P_NEIGH", 6 * MAX_SPACES)  # + 6 * space + direction: the neighbour, -1 off the board
P_TILE_TERRAIN = PARAMS.field("P_TILE_TERRAIN", TILES_TOTAL)  # terrain of each tile
P_TILE_BACK = PARAMS.field("P_TILE_BACK", TILES_TOTAL)  # back of each tile
P_SEAT_VALUES = PARAMS.field("P_SEAT_VALUES", MAX_SEAT_VALUES)  # rules.seat_values, ascending
P_RESCUE_DIST = PARAMS.field("P_RESCUE_DIST", MAX_SPACES)  # hex steps to the nearest rescue island
P_CUBE_X = PARAMS.field("P_CUBE_X", MAX_SPACES)  # cube coordinates of each hex (for hex distances)
P_CUBE_Z = PARAMS.field("P_CUBE_Z", MAX_SPACES)
# the spaces within two steps of each space (never itself), ascending, for the creatures' stops
# (S13): + REACH_ROOM * space + i, each entry a space (entry & REACH_SPACE_MASK) and two sets of
# directions d of the centre: bit REACH_VIA_SHIFT + d when the space lies next to the neighbour in
# direction d, bit REACH_STEP_SHIFT + d when it is that neighbour
REACH_ROOM = 18  # a hex has 6 neighbours and 12 spaces two steps away
REACH_SPACE_MASK = MAX_SPACES - 1
REACH_VIA_SHIFT = 8
REACH_STEP_SHIFT = 14
REACH_NEIGHBOUR = 63 << REACH_STEP_SHIFT  # the entry is a neighbour (in some direction)
P_NREACH = PARAMS.field("P_NREACH", MAX_SPACES)
P_REACH = PARAMS.field("P_REACH", REACH_ROOM * MAX_SPACES)
# seats as tables, read where the kernel would otherwise divide by a number it knows only at run time
P_SEAT_OF = PARAMS.field("P_SEAT_OF", MAX_ADVENTURERS)  # each adventurer's seat (number // P_ADV_EACH)
P_NEXT_SEAT = PARAMS.field("P_NEXT_SEAT", MAX_PLAYERS)  # the seat after each (S8)
P_PLACING_SEAT = PARAMS.field("P_PLACING_SEAT", MAX_ADVENTURERS)  # rules.placing_seat of each placement (S7)
NPARAMS = PARAMS.size

# --- endings and the results row (the contract's) ----------------------------------------------------
ENDINGS = ("cleared", "volcano")
END_CLEARED, END_VOLCANO = 0, 1
CAUSES = ENDINGS
RESULT_FIELDS = ("ending", "turns", "volcanoes", "floods", "rescued", "lost", "winners",
                 *(f"score{k}" for k in range(MAX_PLAYERS)), *(f"rescued{k}" for k in range(MAX_PLAYERS)))
NRESULT = len(RESULT_FIELDS)
# the result fields a table keeps as int8 (the others, the turns and the scores, int16)
RESULT_INT8 = tuple(name for name in RESULT_FIELDS if name != "turns" and not name.startswith("score"))
R_SCORE = RESULT_FIELDS.index("score0")
R_RESCUED = RESULT_FIELDS.index("rescued0")

# longest legal list: every creature's dives to every space dominate (17 * 256), plus the moves
MAX_LEGAL = 8192
LOG_SHAPE = (1 << 12,)  # a logged game's decision codes (a game takes a few hundred)

# --- random streams (sim/streams.py; the contract's) ----------------------------------------------
STREAM_DEAL, STREAM_DICE, STREAM_POLICY = 0, 1, 2
