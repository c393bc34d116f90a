"""The numba kernel: Island Escape on fixed-size integer arrays, for millions of games.

Layout (pgx / gymnax style):
- a game's whole state is one int32 array `s` of `NSTATE` fields (offsets below);
- the rule parameters are a separate int32 array `p` (see `convert.params_of`), so one compiled
  kernel serves every rule setting and a sweep changes only `p`;
- randomness comes from three counter-based splitmix64 streams per game, seeded from
  (seed, game index, stream): the deal, the flood piles and the policy each have their own, so
  two rule settings run with the same seed see the same islands and the same flood orders.

Everything here mirrors the reference engine (`sim/island_escape/engine.py`) rule by rule; the differential
tests replay kernel games with the engine and demand identical outcomes, events and final states.
Places are indexed `(row - 1) * 5 + (column - 1)`; bit `i` of a place mask is place `i`.
Card ids: Kings 0-3 (suits S H D C), land cards 4 + 5 * suit + (rank - 6), the joker 24.

This module holds the rules only and knows nothing of who chooses (pgx style): the deal
(`deal_game`), the turn's start (`begin_turn`), the legal-action mask (`legal_mask`), one
action of the current pawn (`apply_turn_action`), one flood in three steps (`draw_flood`; for each
pawn on a sinking place `escape_options` then `escape_to`; `end_flood`), and the results row
(`write_result`). The entry points every game's kernel shares (sim/kernel_api.py: `init_game`,
`legal_actions`, `apply_action`, `is_over`, `turn_number`, `seat_outcomes`) are built from these
steps at the end of this module; the loop that asks a policy for each decision and plays whole
games, every game's, lives above it in policies/play.py, and search policies play on from any
state through that same loop.

Speed: a game allocates nothing, and the play loop hands the kernel arrays with no reference
count (sim/intrinsics.py); small hot helpers carry `forceinline` (LLVM inlining, which keeps
them functions for numba and caches them once; numba's own `inline='always'` compiled slower).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.intrinsics import borrowed, stack_empty
from sim.island_escape.layout import (
    A_END,
    A_ESCAPE,
    A_GIVE,
    A_MOVE,
    A_RAISE,
    A_SALVAGE,
    A_SHORE,
    A_SHORE_HERE,
    A_SWIM,
    A_TAKEOFF,
    ACTS,
    C_GIVE,
    C_MOVE,
    C_RAISE,
    C_SALVAGE,
    C_SHORE,
    C_SWIM,
    C_TAKEOFF,
    C_UNUSED,
    CARD,
    CAUSE_CARDS,
    CAUSE_CUT_OFF,
    CAUSE_DROWNED,
    CAUSE_HELICOPTER,
    CAUSE_TREASURE,
    CAUSE_WATER,
    CAUSE_WIN,
    CENTRE,
    COLP,
    COUNT,
    CUR,
    DOWN,
    DRY,
    ESCAPE_CARD,
    ESCAPE_FROM,
    ESCAPE_TO,
    FACE_UP_LAND,
    FLOODED,
    FLOODED_AT,
    FLOODS,
    FLOODS_LEFT,
    FULL,
    GAUGE_TOP,
    HAND,
    ISLAND_LAND,
    JOKER_ID,
    KINGPOS,
    LOG_ESCAPE,
    LOG_FLOOD,
    LOSS_PLACE,
    NEIGHBOUR,
    NEIGHBOUR2,
    NON_CENTRE,
    NSTATE,
    OUTCOME,
    P_ACTIONS,
    P_CPT,
    P_GLEN,
    P_GRANK,
    P_PAWNS,
    P_PLAYERS,
    P_SWIM,
    PASSES,
    PAWN,
    PILE_POS,
    RAISE_SEQ,
    RAISE_TURN,
    RAISED,
    ROWP,
    SEA,
    STREAM_DEAL,
    STREAM_FLOOD,
    STREAM_POLICY,
    SUIT_MASK,
    SUNK,
    TILES,
    TSTATE,
    TURN,
    at,
    cards_short_mask,
    extract_bits,
    grow_reach,
    in_play,
    popcount,
    raise_discard_cards,
    rand_below,
    seed_streams,
)

assert DOWN == 0 and DRY == 1  # `reveal` turns DOWN into DRY by setting bit 0
assert RAISE_TURN == KINGPOS + 4  # `deal_game` parks the non-Kings' places in RAISE_TURN[0]


@njit(cache=True, forceinline=True)
def reveal(s, place):
    """R7, R8, R15: a face-down tile a pawn reaches is turned face up (any other tile is left as
    it is). Without a branch: whether a random player's pawn lands on a face-down tile is a coin
    toss."""
    st = s[at(TSTATE + place)]
    down = np.int64(st == DOWN)
    s[at(TSTATE + place)] = st | down
    s[FACE_UP_LAND] |= (down & np.int64(4 <= s[at(CARD + place)] < 24)) << place


@njit(cache=True, forceinline=True)
def leave_place_masks(s, place):
    """The tile at `place` left the island (salvaged or sunk): it is in neither place mask."""
    s[FLOODED_AT] &= ~(1 << place)
    s[FACE_UP_LAND] &= ~(1 << place)


# --- setup (R4) ----------------------------------------------------------------------------------


@njit(cache=True)
def shuffle_piles(s, rng):
    for base in (COLP, ROWP):
        for i in range(5):
            s[base + i] = i + 1
        for i in range(4, 0, -1):
            j = rand_below(rng, STREAM_FLOOD, i + 1)
            t = s[base + i]
            s[base + i] = s[base + j]
            s[base + j] = t
    s[PILE_POS] = 0


@njit(cache=True)
def deal_layout(rng, cards_out):
    """R4: the 24 island cards shuffled onto the places around the centre (deal stream)."""
    for k in range(24):
        cards_out[NON_CENTRE[k]] = k
    cards_out[CENTRE] = JOKER_ID
    for i in range(23, 0, -1):  # Fisher-Yates over the places around the centre
        j = rand_below(rng, STREAM_DEAL, i + 1)
        t = cards_out[NON_CENTRE[i]]
        cards_out[NON_CENTRE[i]] = cards_out[NON_CENTRE[j]]
        cards_out[NON_CENTRE[j]] = t


@njit(cache=True)
def deal_game(s, p, rng, seed, game):
    """Game `game` of `seed` dealt (R1-R3), before its first turn (`begin_turn`)."""
    s, p, rng = borrowed(s), borrowed(p), borrowed(rng)
    seed_streams(rng, seed, game)
    for i in range(NSTATE):
        s[i] = 0
    deal_layout(rng, s[CARD:CARD + 25])
    # Every tile starts face down (DOWN is 0) but the helicopter's; all twenty land cards are
    # dealt. Each place writes its index to the King slot of its card, every card from 4 up
    # (land and joker) to one slot past the Kings, which is RAISE_TURN[0] and set just below:
    # no branch per place, where a branch on the card dealt is a coin toss.
    s[TSTATE + CENTRE] = DRY
    for place in range(25):
        s[at(KINGPOS + min(s[at(CARD + place)], 4))] = place
    s[ISLAND_LAND] = (1 << 20) - 1
    s[TILES] = FULL
    for i in range(4):
        s[at(PAWN + i)] = CENTRE if i < p[P_PAWNS] else -1
        s[at(RAISE_TURN + i)] = -1
    shuffle_piles(s, rng)
    s[OUTCOME] = -1
    s[LOSS_PLACE] = -1


# --- losses checked on the state (R16, R17) ------------------------------------------------------


@njit(cache=True, forceinline=True)
def target_mask(s, p):
    """R16: the places of the helicopter and of the Kings of unraised treasures."""
    targets = 0
    if s[TSTATE + CENTRE] != SEA:
        targets |= 1 << CENTRE
    for suit in range(4):
        place = s[at(KINGPOS + suit)]
        if place >= 0 and not (s[RAISED] >> suit) & 1:
            targets |= 1 << place
    return targets


@njit(cache=True, forceinline=True)
def reachable(s, p, targets):
    """R16: places some pawn reaches by moves and swims, as a place mask (bitboard flood fill).

    Stops early once every place in `targets` is reached (the answer to R16 is then known).
    """
    tiles = s[TILES]
    can_swim = p[P_SWIM] <= p[P_ACTIONS]
    reach = 0
    for i in range(p[P_PAWNS]):
        reach |= 1 << s[at(PAWN + i)]
    while (reach & targets) != targets:
        new = grow_reach(reach, tiles, can_swim)
        if new == reach:
            break
        reach = new
    return reach


@njit(cache=True, forceinline=True)
def cut_off(s, p):
    targets = target_mask(s, p)
    return (reachable(s, p, targets) & targets) != targets


@njit(cache=True, forceinline=True)
def cards_short(s, p):
    """R17: the unraised treasures can no longer all be raised from the cards in play."""
    return cards_short_mask(p, in_play(s, p), np.int64(s[RAISED]))


@njit(cache=True, forceinline=True)
def check_state_losses(s, p):
    """R18: after the sinking causes, cut_off then cards."""
    if cut_off(s, p):
        s[OUTCOME] = CAUSE_CUT_OFF
    elif cards_short(s, p):
        s[OUTCOME] = CAUSE_CARDS


# --- actions (R7-R13) ----------------------------------------------------------------------------


@njit(cache=True)
def raise_cards(s, p, me, suit):
    """The cards a raise on `suit` discards, as a bit mask (R12); 0 if it cannot be raised."""
    s, p = borrowed(s), borrowed(p)
    return raise_discard_cards(np.int64(s[at(HAND + me)]), in_play(s, p), np.int64(s[RAISED]), suit, p[P_CPT])


# The legal-action mask reads the four neighbours of the pawn's place in a place mask at once: the
# mask shifted left by 5 and right by the place has the place above on bit 0, the one to the left
# on bit 4, to the right on bit 6 and below on bit 10 (shifted by 10, the places two steps away on
# bits 0, 8, 12 and 20), which `extract_bits` packs into four bits in place order (up, left,
# right, down). PLACE_ORDER_ON_* cut off the neighbours past the island's edge (the end of a row
# wraps round to the next row's start); `in_action_order` then moves each group of four bits into
# the actions' direction order (up, down, left, right).
_BESIDE_BITS = (1 << 0) | (1 << 4) | (1 << 6) | (1 << 10)
_TWO_AWAY_BITS = (1 << 0) | (1 << 8) | (1 << 12) | (1 << 20)
_PLACE_ORDER = (0, 3, 1, 2)  # the bit of direction d (up down left right) in place order
PLACE_ORDER_ON_BESIDE = np.array([sum(int(NEIGHBOUR[place, d] >= 0) << _PLACE_ORDER[d] for d in range(4))
                                  for place in range(25)], dtype=np.int64)
PLACE_ORDER_ON_TWO_AWAY = np.array([sum(int(NEIGHBOUR2[place, d] >= 0) << _PLACE_ORDER[d] for d in range(4))
                                    for place in range(25)], dtype=np.int64)
_DIRECTION_GROUPS = (A_MOVE, A_SWIM, A_SHORE, A_SALVAGE)
_STAYS = sum(1 << g for g in _DIRECTION_GROUPS)  # up: bit 0 in both orders
_DOWN_FROM_BIT_3 = sum(2 << g for g in _DIRECTION_GROUPS)
_LEFT_RIGHT_FROM_BITS_1_2 = sum(12 << g for g in _DIRECTION_GROUPS)


@njit(cache=True, forceinline=True)
def beside(board, here):
    """The bits of place mask `board` at the neighbours of `here`, in place order (see above)."""
    return extract_bits((board << 5) >> here, _BESIDE_BITS) & PLACE_ORDER_ON_BESIDE[at(here)]


@njit(cache=True, forceinline=True)
def two_away(board, here):
    """As `beside`, two steps away from `here`."""
    return extract_bits((board << 10) >> here, _TWO_AWAY_BITS) & PLACE_ORDER_ON_TWO_AWAY[at(here)]


@njit(cache=True, forceinline=True)
def in_action_order(groups):
    """Each of the four-bit groups at A_MOVE, A_SWIM, A_SHORE and A_SALVAGE from place order
    (up, left, right, down) into direction order (up, down, left, right)."""
    return ((groups & _STAYS) | ((groups >> 2) & _DOWN_FROM_BIT_3)
            | ((groups << 1) & _LEFT_RIGHT_FROM_BITS_1_2))


@njit(cache=True, forceinline=True)
def legal_mask(s, p):
    """The legal actions of the current pawn (R7-R13) as a bit mask: bit a set = action a legal.

    A_END is always legal. A mask in one integer rather than an array: policies test a bit,
    and nothing is written to memory on the hottest path of the kernel.

    Each kind's four directions at once, from the place masks of tiles (TILES), flooded tiles
    (FLOODED_AT) and face-up land cards (FACE_UP_LAND) that the step functions keep, and no
    branch but for a raise: a random player's states make every branch a coin toss
    (tests/test_kernel.py pins this mask against the engine's list).
    """
    legal = np.int64(1) << A_END
    left = s[ACTS]
    if left <= 0:
        return legal
    me = s[CUR]
    here = s[at(PAWN + me)]
    occupied = np.int64(0)
    on_my_place = np.int64(0)  # bit 4 * i: pawn i stands on my place
    for i in range(4):  # a seat without a pawn is at place -1
        occupied |= np.int64(1) << (s[at(PAWN + i)] & 63)
        on_my_place |= np.int64(s[at(PAWN + i)] == here) << (4 * i)
    occupied &= FULL
    tiles = np.int64(s[TILES])
    flooded = np.int64(s[FLOODED_AT])
    land = beside(tiles, here)
    swim = ~land & two_away(tiles, here) & -np.int64(left >= p[P_SWIM])  # R8: across one sea place
    salvage = beside(np.int64(s[FACE_UP_LAND]) & ~occupied, here)  # R10: a face-up land card, no pawn on it
    shore = beside(flooded, here)  # R9
    legal |= in_action_order((land << A_MOVE) | (swim << A_SWIM) | (shore << A_SHORE) | (salvage << A_SALVAGE))
    legal |= ((flooded >> here) & 1) << A_SHORE_HERE
    hand = np.int64(s[at(HAND + me)])
    suits = (np.int64((hand & SUIT_MASK[0]) != 0) | (np.int64((hand & SUIT_MASK[1]) != 0) << 1)
             | (np.int64((hand & SUIT_MASK[2]) != 0) << 2) | (np.int64((hand & SUIT_MASK[3]) != 0) << 3))
    others = on_my_place & ~(np.int64(1) << (4 * me))
    legal |= (others * suits) << A_GIVE  # R11: all my cards of one suit to a pawn on my place
    card = s[at(CARD + here)]
    if 0 <= card < 4 and not (s[RAISED] >> card) & 1 and raise_cards(s, p, me, card):
        legal |= np.int64(1) << A_RAISE  # R12
    if s[RAISED] == 15 and occupied == 1 << CENTRE:  # R13: every pawn on the helicopter
        legal |= np.int64(1) << A_TAKEOFF
    return legal


# The place each action below A_SALVAGE is about (where a move or swim ends, the tile shored), and
# the count it adds to.
def _action_place(place: int, a: int) -> int:
    if a < A_SWIM:
        return NEIGHBOUR[place, a - A_MOVE]
    if a < A_SHORE_HERE:
        return NEIGHBOUR2[place, a - A_SWIM]
    return place if a == A_SHORE_HERE else NEIGHBOUR[place, a - A_SHORE]


ACTION_PLACE = np.array([[_action_place(place, a) for a in range(A_SALVAGE)] for place in range(25)], dtype=np.int64)
ACTION_COUNT = np.array([C_MOVE if a < A_SWIM else C_SWIM if a < A_SHORE_HERE else C_SHORE for a in range(A_SALVAGE)],
                        dtype=np.int64)


@njit(cache=True, forceinline=True)
def apply_turn_action(s, p, a, log, nlog):
    """Play legal action `a` for the current pawn; returns the new log length.

    A_END passes: the actions left this turn are lost (R6) and not logged (records list only
    the actions played)."""
    if a == A_END:
        s[COUNT + C_UNUSED] += s[ACTS]
        s[ACTS] = 0
        return nlog
    me = s[CUR]
    here = s[at(PAWN + me)]
    lg = nlog >= 0
    if lg:
        log[nlog, 0] = s[TURN]
        log[nlog, 1] = a
        log[nlog, 2] = 0
        log[nlog, 3] = 0
        nlog += 1
    if a < A_SALVAGE:  # R7 move, R8 swim, R9 shore up: one path, no branch per kind
        t = ACTION_PLACE[at(here), at(a)]
        shoring = a >= A_SHORE_HERE
        s[at(PAWN + me)] = here if shoring else t
        reveal(s, t)  # a shore's tile is flooded, which reveal leaves as it is
        s[at(TSTATE + t)] = DRY if shoring else s[at(TSTATE + t)]
        s[FLOODED_AT] &= ~(np.int64(shoring) << t)
        s[ACTS] -= p[P_SWIM] if A_SWIM <= a < A_SHORE_HERE else 1
        s[at(COUNT + ACTION_COUNT[at(a)])] += 1
    elif a < A_GIVE:  # R10 salvage
        d = a - A_SALVAGE
        t = NEIGHBOUR[at(here), at(d)]
        bit = 1 << (s[at(CARD + t)] - 4)
        s[at(HAND + me)] |= bit
        s[ISLAND_LAND] &= ~bit
        s[at(CARD + t)] = -1
        s[at(TSTATE + t)] = SEA
        s[TILES] &= ~(1 << t)
        leave_place_masks(s, t)
        s[ACTS] -= 1
        s[COUNT + C_SALVAGE] += 1
        check_state_losses(s, p)  # R18: a salvage can cut a path (R16)
    elif a < A_RAISE:  # R11 give all my cards of one suit
        other = (a - A_GIVE) // 4
        suit = (a - A_GIVE) % 4
        cards = s[at(HAND + me)] & SUIT_MASK[at(suit)]
        s[at(HAND + me)] &= ~cards
        s[at(HAND + other)] |= cards
        if lg:
            log[nlog - 1, 2] = other
            log[nlog - 1, 3] = cards
        s[ACTS] -= 1
        s[COUNT + C_GIVE] += 1
    elif a == A_RAISE:  # R12
        suit = s[at(CARD + here)]
        cards = raise_cards(s, p, me, suit)
        s[at(HAND + me)] &= ~cards
        s[RAISED] |= 1 << suit
        s[at(RAISE_TURN + suit)] = s[TURN]
        s[RAISE_SEQ] = s[RAISE_SEQ] * 5 + suit + 1
        if lg:
            log[nlog - 1, 3] = cards
        s[ACTS] -= 1
        s[COUNT + C_RAISE] += 1
        check_state_losses(s, p)  # R17: a short raise can use cards another suit needs
    elif a == A_TAKEOFF:  # R13
        s[ACTS] -= 1
        s[COUNT + C_TAKEOFF] += 1
        s[OUTCOME] = CAUSE_WIN
    return nlog


# --- the flood (R14, R15) ------------------------------------------------------------------------


@njit(cache=True, forceinline=True)
def sink_place(s, p, place):
    """R15: the place becomes sea; a sinking unraised King or the helicopter loses at once."""
    card = s[at(CARD + place)]
    s[at(CARD + place)] = -1
    s[at(TSTATE + place)] = SEA
    s[TILES] &= ~(1 << place)
    leave_place_masks(s, place)
    s[SUNK] += 1
    if card == JOKER_ID:
        s[OUTCOME] = CAUSE_HELICOPTER
        s[LOSS_PLACE] = place
    elif card < 4:
        s[at(KINGPOS + card)] = -1
        if not (s[RAISED] >> card) & 1:
            s[OUTCOME] = CAUSE_TREASURE
            s[LOSS_PLACE] = place
    else:
        s[ISLAND_LAND] &= ~(1 << (card - 4))


@njit(cache=True, forceinline=True)
def draw_flood(s, p, log, nlog):
    """R14: draw the next column and row card; a dry tile (face up or down) floods, a flooded
    one sinks (R15). Returns (new log length, the place that sank or -1, the card it held).

    The pawns on a sinking place then escape one by one (`escape_options`, the player's choice,
    `escape_to`) before `end_flood`; nothing of that happens once the game is lost."""
    pos = s[PILE_POS]
    place = (s[at(ROWP + pos)] - 1) * 5 + (s[at(COLP + pos)] - 1)
    s[PILE_POS] = pos + 1
    s[FLOODS] += 1
    if nlog >= 0:
        log[nlog, 0] = s[TURN]
        log[nlog, 1] = LOG_FLOOD
        log[nlog, 2] = place
        log[nlog, 3] = 0
        nlog += 1
    st = s[at(TSTATE + place)]
    if st == DOWN or st == DRY:
        s[at(TSTATE + place)] = FLOODED  # face up now, if it was not
        s[FLOODED_AT] |= 1 << place
        s[FACE_UP_LAND] |= np.int64(4 <= s[at(CARD + place)] < 24) << place
        return nlog, -1, -1
    if st == FLOODED:
        card = s[at(CARD + place)]
        sink_place(s, p, place)
        return nlog, place, card
    return nlog, -1, -1


@njit(cache=True, forceinline=True)
def escape_options(s, p, place, opts):
    """R15: the tiles around `place` (diagonals too, default escape order) a pawn on it may swim
    to, written to `opts`; returns how many. None: the pawn drowns and the game is lost."""
    n = 0
    for k in range(8):
        t = ESCAPE_TO[at(place), k]
        if t >= 0 and s[at(TSTATE + t)] != SEA:
            opts[n] = t
            n += 1
    if n == 0:
        s[OUTCOME] = CAUSE_DROWNED
        s[LOSS_PLACE] = place
    return n


@njit(cache=True, forceinline=True)
def escape_to(s, pawn, t, log, nlog):
    """R15: the free swim of a pawn whose place sank; the tile reached is turned face up."""
    s[at(PAWN + pawn)] = t
    reveal(s, t)
    if nlog >= 0:
        log[nlog, 0] = s[TURN]
        log[nlog, 1] = LOG_ESCAPE
        log[nlog, 2] = pawn
        log[nlog, 3] = t
        nlog += 1
    return nlog


@njit(cache=True, forceinline=True)
def end_flood(s, p, rng, sank, sunk_card):
    """R14: after a flood that empties both piles the water rises (losing on the last gauge
    card); then R18's state checks, which can only change when a place sank (`sank` >= 0)."""
    if s[PILE_POS] == 5:  # both piles ran out: the water rises
        if s[GAUGE_TOP] == p[P_GLEN] - 1:
            s[OUTCOME] = CAUSE_WATER  # the last gauge card cannot be removed
            return
        s[GAUGE_TOP] += 1
        s[PASSES] += 1
        shuffle_piles(s, rng)
    if sank >= 0:
        if cut_off(s, p):
            s[OUTCOME] = CAUSE_CUT_OFF
        elif 4 <= sunk_card < 24 and cards_short(s, p):  # only a land card leaving play matters
            s[OUTCOME] = CAUSE_CARDS


# --- a whole game --------------------------------------------------------------------------------


@njit(cache=True, forceinline=True)
def begin_turn(s, p):
    """R4, R6: the next pawn in turn order gets its actions: pawn (turn - 1) mod pawns, found
    from the pawn before it without the division (tens of cycles a turn for a random game)."""
    turn = s[TURN] + 1
    s[TURN] = turn
    after = s[CUR] + 1
    s[CUR] = 0 if turn == 1 or after == p[P_PAWNS] else after
    s[ACTS] = p[P_ACTIONS]


@njit(cache=True, forceinline=True)
def floods_due(s, p):
    """R14: the number of floods of this flood phase, fixed by the water level at its start."""
    return p[P_GRANK + s[GAUGE_TOP]]


@njit(cache=True)
def write_result(s, p, out, row):
    s, p, out = borrowed(s), borrowed(p), borrowed(out)
    out[row, 0] = s[OUTCOME]
    out[row, 1] = s[TURN]
    out[row, 2] = s[FLOODS]
    out[row, 3] = popcount(s[RAISED])
    out[row, 4] = s[SUNK]
    for k in range(6):  # moves, swims, shores, salvages, gives, raises
        out[row, 5 + k] = s[at(COUNT + k)]
    out[row, 11] = s[COUNT + C_UNUSED]
    for suit in range(4):
        out[row, 12 + suit] = s[at(RAISE_TURN + suit)]
    out[row, 16] = p[P_GLEN] - s[GAUGE_TOP]
    out[row, 17] = p[P_GRANK + s[GAUGE_TOP]]
    out[row, 18] = s[LOSS_PLACE]
    explored = 0
    for place in range(25):
        if s[at(TSTATE + place)] != DOWN:
            explored += 1
    out[row, 19] = explored
    found = 0
    for suit in range(4):
        place = s[at(KINGPOS + suit)]
        if (s[RAISED] >> suit) & 1 or place < 0 or s[at(TSTATE + place)] != DOWN:
            found += 1
    out[row, 20] = found
    held = 0
    for i in range(p[P_PAWNS]):
        held += popcount(s[at(HAND + i)])
    out[row, 21] = held


# --- the entry points every game's kernel shares (sim/kernel_api.py) ------------------------------
# One decision at a time: a turn's actions, then the flood phase played on by itself up to an
# R15 escape (a decision of the escaping pawn) or to the next turn's start; the play loop
# (policies/play.py) plays every game through them.


@njit(cache=True, forceinline=True)
def _next_escaper(s, p, place):
    """The lowest pawn on `place` (R15: pawns escape in pawn order, as the play loop asks them), -1."""
    for pawn in range(p[P_PAWNS]):
        if s[at(PAWN + pawn)] == place:
            return pawn
    return -1


@njit(cache=True, forceinline=True)
def _flood_phase(s, p, rng, log, nlog):
    """R14, R15: the floods left in this phase, up to the next escape; then the next turn (R4)."""
    s, p, rng, log = borrowed(s), borrowed(p), borrowed(rng), borrowed(log)
    while s[FLOODS_LEFT] > 0:
        s[FLOODS_LEFT] -= 1
        nlog, sank, card = draw_flood(s, p, log, nlog)
        if s[OUTCOME] >= 0:
            return nlog
        if sank >= 0 and _next_escaper(s, p, sank) >= 0:
            ways = 0
            for k in range(8):
                t = ESCAPE_TO[at(sank), k]
                if t >= 0 and s[at(TSTATE + t)] != SEA:
                    ways += 1
            if ways == 0:  # R15: no tile to swim to, the pawn drowns
                s[OUTCOME] = CAUSE_DROWNED
                s[LOSS_PLACE] = sank
                return nlog
            s[ESCAPE_FROM] = sank
            s[ESCAPE_CARD] = card
            return nlog
        end_flood(s, p, rng, sank, card)
        if s[OUTCOME] >= 0:
            return nlog
    begin_turn(s, p)
    return nlog


@njit(cache=True, forceinline=True)
def init_game(s, p, rng, seed, game):
    """Game `game` of `seed` dealt and its first turn begun: the first decision is the first pawn's."""
    s, p, rng = borrowed(s), borrowed(p), borrowed(rng)
    deal_game(s, p, rng, seed, game)
    s[ESCAPE_FROM] = -1
    begin_turn(s, p)


@njit(cache=True)
def legal_actions(s, p, out):
    """The decisions open now into out[:n], returns n (0 once the game is over): the current
    pawn's legal actions (R7-R13, A_END last), or the places the pawn escaping a sunk place may
    swim to (R15, A_ESCAPE + place in the default escape order)."""
    s, p, out = borrowed(s), borrowed(p), borrowed(out)
    if s[OUTCOME] >= 0:
        return 0
    n = 0
    place = s[ESCAPE_FROM]
    if place >= 0:
        for k in range(8):
            t = ESCAPE_TO[at(place), k]
            if t >= 0 and s[at(TSTATE + t)] != SEA:
                out[n] = A_ESCAPE + t
                n += 1
        return n
    legal = legal_mask(s, p)
    while legal:
        low = legal & -legal
        out[n] = popcount(low - 1)
        n += 1
        legal ^= low
    return n


@njit(cache=True, forceinline=True)
def apply_action(s, p, a, rng, log, nlog):
    """Play decision `a` (one that `legal_actions` listed), then the game on to its next decision:
    after a turn's last action its flood phase (R14), the escapes excepted (R15), and the next
    turn's start. Logs to `log` from row `nlog` unless it is negative; returns the new log length."""
    s, p, rng, log = borrowed(s), borrowed(p), borrowed(rng), borrowed(log)
    if a >= A_ESCAPE:
        place = s[ESCAPE_FROM]
        nlog = escape_to(s, _next_escaper(s, p, place), a - A_ESCAPE, log, nlog)
        if _next_escaper(s, p, place) >= 0:
            return nlog
        s[ESCAPE_FROM] = -1
        end_flood(s, p, rng, place, s[ESCAPE_CARD])
        if s[OUTCOME] >= 0:
            return nlog
        return _flood_phase(s, p, rng, log, nlog)
    nlog = apply_turn_action(s, p, a, log, nlog)
    if s[OUTCOME] >= 0 or s[ACTS] > 0:
        return nlog
    s[FLOODS_LEFT] = floods_due(s, p)
    return _flood_phase(s, p, rng, log, nlog)


@njit(cache=True, forceinline=True)
def is_over(s, p):
    """Whether the game has ended (R16-R18)."""
    return s[OUTCOME] >= 0


@njit(cache=True, forceinline=True)
def turn_number(s, p):
    """The turn being played (R4): it begins once the flood phase before it is over."""
    return s[TURN]


@njit(cache=True, forceinline=True)
def _sort_small(a, n):
    for i in range(1, n):
        j = i
        while j > 0 and a[j] < a[j - 1]:
            x = a[j]
            a[j] = a[j - 1]
            a[j - 1] = x
            j -= 1


@njit(cache=True)
def sample_world(s, p, rng, out):
    """Into `out` a copy of `s` whose hidden parts (R19) are drawn at random from the policy
    stream of `rng`, from everything consistent with what the table sees: the face-down cards
    dealt anew among the face-down places (the Kings' places following them), and the undrawn
    column and row cards of this pass in a new order. The hidden cards are gathered in sorted
    order before the draw, so the world depends only on what is public and on `rng`."""
    s, out, rng = borrowed(s), borrowed(out), borrowed(rng)
    for i in range(NSTATE):
        out[i] = s[i]
    down = stack_empty(25, np.int64)
    cards = stack_empty(25, np.int64)
    n = 0
    for place in range(25):
        if s[TSTATE + place] == DOWN:
            down[n] = place
            cards[n] = s[CARD + place]
            n += 1
    _sort_small(cards, n)
    for i in range(n - 1, 0, -1):
        j = rand_below(rng, STREAM_POLICY, i + 1)
        x = cards[i]
        cards[i] = cards[j]
        cards[j] = x
    for i in range(n):
        out[CARD + down[i]] = cards[i]
        if cards[i] < 4:
            out[KINGPOS + cards[i]] = down[i]
    pos = s[PILE_POS]
    rest = stack_empty(5, np.int64)
    for base in (COLP, ROWP):
        m = 0
        for k in range(pos, 5):
            rest[m] = s[base + k]
            m += 1
        _sort_small(rest, m)
        for i in range(m - 1, 0, -1):
            j = rand_below(rng, STREAM_POLICY, i + 1)
            x = rest[i]
            rest[i] = rest[j]
            rest[j] = x
        for k in range(m):
            out[base + pos + k] = rest[k]


@njit(cache=True)
def seat_outcomes(s, p, out):
    """Each player's result into out[:n], returns n, the players: 1 for a win, 0 for a loss, -1
    while the game runs. A cooperative game: the whole table wins or loses together (R18)."""
    s, p, out = borrowed(s), borrowed(p), borrowed(out)
    result = -1 if s[OUTCOME] < 0 else 1 if s[OUTCOME] == CAUSE_WIN else 0
    for seat in range(p[P_PLAYERS]):
        out[seat] = result
    return p[P_PLAYERS]
