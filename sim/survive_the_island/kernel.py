"""The numba kernel: Survive the Island on fixed-size int arrays, for millions of games.

Step functions only: the rules here know nothing of who chooses. A game is the int32 state `s`
and the parameters `p` of sim/survive_the_island/layout.py; every decision is one action code
(rules.py, S17), `legal_actions` lists them in increasing order and `play_action` plays one,
then every step no one chooses (a roll with nothing to move, an action phase with only `end`
left, the next seat's turn). The entry points every game's kernel shares (sim/kernel_api.py)
are `init_game`, `legal_actions`, `apply_action` and `seat_outcomes`.

The reference engine (`engine.py`) is the definition of the game; both follow docs/RULES-STI.md
ruling by ruling (S1-S17, cited where each is played) and the contract of their lockstep (the
same legal codes before every decision, the same snapshot after every step). Randomness is
passed in (`rng`, sim/streams.py): the deal stream shuffles, the dice stream rolls.

Nothing here allocates. Occupancy is counted per space and kept up to date by the few functions
that move pieces (`_lift`, `_set_down`, `_raft_to`, `_creature_to` and their removals), so a rule
reads one entry where it would scan the pieces; what a piece may do on a space (MAY) follows its
kind and its kaiju (`_refresh_may`), and the flood list's sets of spaces are kept as bits.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.intrinsics import borrowed, popcount, stack_empty
from sim.streams import rand_below, seed_streams
from sim.survive_the_island.layout import (
    ADV_N,
    ADV_RAFT,
    ADV_SPACE,
    BIT_WORDS,
    CREATURE_SPACE,
    END_CLEARED,
    END_VOLCANO,
    ENDING,
    FLOODED_N,
    FLOODS_LEFT,
    HAND,
    K_LAND,
    K_RESCUE,
    K_SEA,
    K_VOLCANO,
    KAIJU_AT,
    KIND,
    LOOSE_N,
    LOST_N,
    LOST_SPACE,
    MAX_ROLLS,
    MAY,
    MAY_ADVENTURER,
    MAY_KAIJU,
    MAY_RESCUE,
    MAY_SEA_PASS,
    MAY_SEA_STOP,
    MOVES_LEFT,
    NABILITIES,
    NROLLS,
    NSTATE,
    ON_BOARD,
    P_ADV_EACH,
    P_CAPACITY,
    P_DIE,
    P_KAIJUS,
    P_KIND,
    P_LAND,
    P_MOVES,
    P_NEIGH,
    P_NEXT_SEAT,
    P_NLAND,
    P_NREACH,
    P_NSHORE,
    P_NSPACES,
    P_PLACING_SEAT,
    P_PLAYERS,
    P_RAFTS,
    P_RAFTS_EACH,
    P_REACH,
    P_SEAT_OF,
    P_SEAT_VALUES,
    P_SERPENT_STARTS,
    P_SERPENTS,
    P_SHARKS,
    P_SHORE,
    P_TILE_BACK,
    P_TILE_TERRAIN,
    P_VOLCANOES_TO_END,
    PH_ACTION,
    PH_CREATURE,
    PH_FLOOD,
    PH_OVER,
    PH_PLACE,
    PH_PUSH,
    PH_RAFT,
    PH_REPEL,
    PHASE,
    PLACED,
    PUSH_FROM,
    PUSH_SPACE,
    R_RESCUED,
    R_SCORE,
    RAFT_AT,
    RAFT_LOAD,
    RAFT_SEAT_N,
    RAFT_SPACE,
    RAFTS_PLACED,
    REACH_NEIGHBOUR,
    REACH_ROOM,
    REACH_SPACE_MASK,
    REACH_VIA_SHIFT,
    REPEL_FROM,
    REPEL_MEET,
    REPEL_SEAT,
    REPEL_SLOT,
    REPEL_SPACE,
    RESCUED,
    RESCUED_N,
    RESCUED_SPACE,
    ROLL_FROM,
    ROLLED,
    ROLLS,
    SCORE,
    SEA_NEAR,
    SEAT,
    SERPENT_N,
    SHARK_N,
    SHORE_BITS,
    STREAM_DEAL,
    STREAM_DICE,
    STREAM_POLICY,
    SWAM,
    TERRAIN_LEFT,
    TILE_AT,
    TILE_BITS,
    TURN,
    UNPLACED_BITS,
    UNPLACED_SPACE,
    VALUE,
    VALUE_BITS,
    VALUE_ROOM,
    VOLCANOES,
)
from sim.survive_the_island.rules import (
    CREATURE_BASE,
    CREATURE_MOVE,
    DIE,
    DIVE,
    DIVE_MOVE,
    DOLPHIN,
    DOLPHIN_MOVE,
    END,
    FIRST_ABILITY,
    FLOOD,
    KAIJU,
    KAIJU_TILE,
    KEEP_REPELLENT,
    MAX_ADVENTURERS,
    MAX_CREATURES,
    MAX_PLAYERS,
    MAX_RAFTS,
    MAX_SPACES,
    MOVE_ADVENTURER,
    MOVE_RAFT,
    OARS,
    OARS_MOVE,
    PLACE,
    PLACE_ADVENTURER,
    PUSH,
    RAFT_TILE,
    REPELLENT,
    SERPENT,
    SHARK,
    SHARK_TILE,
    TILES,
    TILES_TOTAL,
    USE_DIE,
    USE_REPELLENT,
    VALUES,
    VOLCANO,
    WHIRLPOOL,
)

A_OARS, A_DOLPHIN, A_REPELLENT, A_DIVE, A_DIE = (OARS - FIRST_ABILITY, DOLPHIN - FIRST_ABILITY,
                                                 REPELLENT - FIRST_ABILITY, DIVE - FIRST_ABILITY, DIE - FIRST_ABILITY)
SHARK_BASE, KAIJU_BASE = CREATURE_BASE[SHARK], CREATURE_BASE[KAIJU]
MAX_VALUE = max(VALUES)  # the highest treasure value (S6), the last of S7's placement codes
# the directions (S1's order: E, NE, NW, W, SW, SE) in the ascending order of the neighbours'
# space numbers, the board being numbered row by row: NW and NE above, W and E beside, SW and SE below
ASCENDING_DIRECTIONS = (2, 1, 3, 0, 4, 5)

# --- small queries ----------------------------------------------------------------------------------


@njit(cache=True, forceinline=True)
def neighbour(p, q, d):
    """The space next to `q` in direction `d` (S1's order), -1 off the board."""
    return p[P_NEIGH + 6 * q + d]


@njit(cache=True, forceinline=True)
def creature_kind(slot):
    """S5's slots: serpents, then sharks, then kaijus."""
    return SERPENT if slot < SHARK_BASE else SHARK if slot < KAIJU_BASE else KAIJU


@njit(cache=True, forceinline=True)
def kind_slots(p, kind):
    """The slots a kind may use under the rules: (first, end)."""
    if kind == SERPENT:
        return 0, p[P_SERPENTS]
    if kind == SHARK:
        return SHARK_BASE, SHARK_BASE + p[P_SHARKS]
    return KAIJU_BASE, KAIJU_BASE + p[P_KAIJUS]


@njit(cache=True, forceinline=True)
def adventurers(p):
    return p[P_PLAYERS] * p[P_ADV_EACH]


@njit(cache=True, forceinline=True)
def on_board(s, p):
    """Adventurers still on the board, every seat's."""
    n = 0
    for seat in range(p[P_PLAYERS]):
        n += s[ON_BOARD + seat]
    return n


@njit(cache=True, forceinline=True)
def is_swimmer(s, a):
    """S9: in the sea, not on a raft."""
    q = s[ADV_SPACE + a]
    return q >= 0 and s[ADV_RAFT + a] < 0 and s[KIND + q] == K_SEA


@njit(cache=True, forceinline=True)
def raft_room(s, p, q):
    """Whether space `q` has a raft with room aboard."""
    r = s[RAFT_AT + q]
    return r >= 0 and s[RAFT_LOAD + r] < p[P_CAPACITY]


@njit(cache=True, forceinline=True)
def adventurer_may_stop(s, q):
    """S9: an adventurer may move onto any space but a volcano or a kaiju's."""
    return q >= 0 and s[MAY + q] & MAY_ADVENTURER != 0


@njit(cache=True, forceinline=True)
def raft_may_stop(s, q):
    """S9: a raft moves onto open sea (no raft, no kaiju) or a rescue island."""
    if q < 0:
        return False
    may = s[MAY + q]
    return (may & MAY_SEA_STOP != 0 and s[RAFT_AT + q] < 0) or may & MAY_RESCUE != 0


@njit(cache=True)
def controls(s, p, seat, r):
    """S10: a seat may move an empty raft, or one on which no other seat has more adventurers
    than it has."""
    s, p = borrowed(s), borrowed(p)
    if s[RAFT_LOAD + r] == 0:
        return True
    mine = s[RAFT_SEAT_N + MAX_PLAYERS * r + seat]
    for other in range(p[P_PLAYERS]):
        if s[RAFT_SEAT_N + MAX_PLAYERS * r + other] > mine:
            return False
    return True


@njit(cache=True, forceinline=True)
def _bit_on(s, at, q):
    """Space q into the set of spaces kept as bits at s[at:] (layout.BIT_WORDS words)."""
    s[at + (q >> 5)] |= 1 << (q & 31)


@njit(cache=True, forceinline=True)
def _bit_off(s, at, q):
    s[at + (q >> 5)] &= ~(1 << (q & 31))


@njit(cache=True, forceinline=True)
def _word(s, at, w):
    """Word w of the set at s[at:], as the 32 bits it holds (the int32 read without its sign)."""
    return np.int64(s[at + w]) & 0xFFFFFFFF


@njit(cache=True, forceinline=True)
def lowest_terrain(s):
    """The terrain that floods now (S12): the lowest with a tile left, -1 with none."""
    for t in range(3):
        if s[TERRAIN_LEFT + t] > 0:
            return t
    return -1


# --- pieces on and off the board ------------------------------------------------------------------------


@njit(cache=True)
def _lift(s, p, a):
    """Adventurer `a` off its space and raft (the counts follow); it is then nowhere."""
    s, p = borrowed(s), borrowed(p)
    q = s[ADV_SPACE + a]
    s[ADV_N + q] -= 1
    r = s[ADV_RAFT + a]
    if r >= 0:
        s[RAFT_LOAD + r] -= 1
        s[RAFT_SEAT_N + MAX_PLAYERS * r + p[P_SEAT_OF + a]] -= 1
        s[ADV_RAFT + a] = -1
    else:
        s[LOOSE_N + q] -= 1


@njit(cache=True)
def _rescue(s, p, a):
    """A lifted adventurer reaches a rescue island (S9): its seat scores its value."""
    s, p = borrowed(s), borrowed(p)
    seat = p[P_SEAT_OF + a]
    s[ADV_SPACE + a] = RESCUED_SPACE
    s[SCORE + seat] += s[VALUE + a]
    s[RESCUED + seat] += 1
    s[RESCUED_N] += 1
    s[ON_BOARD + seat] -= 1


@njit(cache=True)
def _lose(s, p, a):
    """Adventurer `a` leaves the board, lost."""
    s, p = borrowed(s), borrowed(p)
    _lift(s, p, a)
    s[ADV_SPACE + a] = LOST_SPACE
    s[LOST_N] += 1
    s[ON_BOARD + p[P_SEAT_OF + a]] -= 1


@njit(cache=True)
def _board(s, p, a, r):
    """A loose adventurer on raft r's space climbs aboard."""
    s, p = borrowed(s), borrowed(p)
    s[ADV_RAFT + a] = r
    s[RAFT_LOAD + r] += 1
    s[RAFT_SEAT_N + MAX_PLAYERS * r + p[P_SEAT_OF + a]] += 1


@njit(cache=True)
def _set_down(s, p, a, q):
    """A lifted adventurer onto space `q`: rescued on a rescue island, aboard q's raft when there
    is room, else loose there (S9, S13's pushes). The creatures there are met by the caller."""
    s, p = borrowed(s), borrowed(p)
    if s[KIND + q] == K_RESCUE:
        _rescue(s, p, a)
        return
    s[ADV_SPACE + a] = q
    s[ADV_N + q] += 1
    r = s[RAFT_AT + q]
    if r >= 0 and s[RAFT_LOAD + r] < p[P_CAPACITY]:
        s[ADV_RAFT + a] = r
        s[RAFT_LOAD + r] += 1
        s[RAFT_SEAT_N + MAX_PLAYERS * r + p[P_SEAT_OF + a]] += 1
    else:
        s[LOOSE_N + q] += 1


@njit(cache=True)
def _lose_all_at(s, p, q):
    """Every adventurer on space `q` (aboard or not) is lost."""
    s, p = borrowed(s), borrowed(p)
    if s[ADV_N + q] == 0:
        return
    for a in range(adventurers(p)):
        if s[ADV_SPACE + a] == q:
            _lose(s, p, a)


@njit(cache=True)
def _lose_swimmers_at(s, p, q):
    s, p = borrowed(s), borrowed(p)
    if s[LOOSE_N + q] == 0:
        return
    for a in range(adventurers(p)):
        if s[ADV_SPACE + a] == q and s[ADV_RAFT + a] < 0:
            _lose(s, p, a)


@njit(cache=True)
def _raft_off(s, p, r):
    """Raft r leaves the board for the supply; its passengers stay on the space, swimming."""
    s, p = borrowed(s), borrowed(p)
    q = s[RAFT_SPACE + r]
    if s[RAFT_LOAD + r] > 0:
        for a in range(adventurers(p)):
            if s[ADV_RAFT + a] == r:
                s[ADV_RAFT + a] = -1
                s[LOOSE_N + q] += 1
                s[RAFT_SEAT_N + MAX_PLAYERS * r + p[P_SEAT_OF + a]] -= 1
        s[RAFT_LOAD + r] = 0
    s[RAFT_AT + q] = -1
    s[RAFT_SPACE + r] = -1


@njit(cache=True, forceinline=True)
def _refresh_may(s, q):
    """MAY of space q from its kind and its kaiju, after either changed."""
    k = s[KIND + q]
    free = s[KAIJU_AT + q] < 0
    bits = 0
    if k == K_SEA:
        bits = MAY_SEA_PASS | MAY_SEA_STOP if free else MAY_SEA_PASS
    if k == K_SEA or k == K_LAND:
        bits |= MAY_KAIJU
    if free and k != K_VOLCANO:
        bits |= MAY_ADVENTURER
    if k == K_RESCUE:
        bits |= MAY_RESCUE
    s[MAY + q] = bits


@njit(cache=True)
def _creature_off(s, slot):
    """A creature leaves the board (S5: its slot is free again)."""
    s = borrowed(s)
    q = s[CREATURE_SPACE + slot]
    kind = creature_kind(slot)
    if kind == SERPENT:
        s[SERPENT_N + q] -= 1
    elif kind == SHARK:
        s[SHARK_N + q] -= 1
    elif s[KAIJU_AT + q] == slot:  # a kaiju displaced by another has lost its space already
        s[KAIJU_AT + q] = -1
        _refresh_may(s, q)
    s[CREATURE_SPACE + slot] = -1


@njit(cache=True)
def _creature_to(s, slot, q):
    """A creature onto space `q` (from the board or the supply); what it meets is the caller's."""
    s = borrowed(s)
    if s[CREATURE_SPACE + slot] >= 0:
        _creature_off(s, slot)
    kind = creature_kind(slot)
    if kind == SERPENT:
        s[SERPENT_N + q] += 1
    elif kind == SHARK:
        s[SHARK_N + q] += 1
    else:
        s[KAIJU_AT + q] = slot
        _refresh_may(s, q)
    s[CREATURE_SPACE + slot] = q


@njit(cache=True)
def _clear_space(s, p, q):
    """Every adventurer, raft and creature on `q` leaves the board (S12's volcano, whirlpool)."""
    s, p = borrowed(s), borrowed(p)
    _lose_all_at(s, p, q)
    r = s[RAFT_AT + q]
    if r >= 0:
        _raft_off(s, p, r)
    if s[SERPENT_N + q] or s[SHARK_N + q] or s[KAIJU_AT + q] >= 0:
        for slot in range(MAX_CREATURES):
            if s[CREATURE_SPACE + slot] == q:
                _creature_off(s, slot)


# --- creatures meeting pieces (S13, S15) ---------------------------------------------------------------


@njit(cache=True)
def _repel_asker(s, p, q, swimmers_only, after):
    """S15: a shark or kaiju is about to act on the adventurers of `q` (its swimmers only, for a
    shark): the first seat from the seat whose turn it is onward, past seat `after` when it is
    not -1, with an adventurer there and a repellent in hand; -1 with none."""
    s, p = borrowed(s), borrowed(p)
    players = p[P_PLAYERS]
    held = 0
    for seat in range(players):
        held += s[HAND + NABILITIES * seat + A_REPELLENT]
    if held == 0:
        return -1
    each = p[P_ADV_EACH]
    seat = s[SEAT]
    waiting = after >= 0
    for _ in range(players):
        if not waiting and s[HAND + NABILITIES * seat + A_REPELLENT] > 0:
            for a in range(seat * each, seat * each + each):
                if s[ADV_SPACE + a] == q and (not swimmers_only or s[ADV_RAFT + a] < 0):
                    return seat
        if seat == after:
            waiting = False
        seat = p[P_NEXT_SEAT + seat]
    return -1


@njit(cache=True)
def _ask_repel(s, p, slot, q, swimmers_only, meet):
    """S15: when a seat with an adventurer the creature in `slot` is about to act on holds a
    repellent, play stops in PH_REPEL for it to choose, and the creature waits (returns True)."""
    s, p = borrowed(s), borrowed(p)
    seat = _repel_asker(s, p, q, swimmers_only, -1)
    if seat < 0:
        return False
    s[REPEL_FROM] = s[PHASE]
    s[PHASE] = PH_REPEL
    s[REPEL_SLOT] = slot
    s[REPEL_SPACE] = q
    s[REPEL_SEAT] = seat
    s[REPEL_MEET] = meet
    return True


@njit(cache=True, forceinline=True)
def decider(s):
    """The seat whose decision it is: the seat asked in PH_REPEL (S15), else s[SEAT]."""
    return s[REPEL_SEAT] if s[PHASE] == PH_REPEL else s[SEAT]


@njit(cache=True)
def _shark_acts(s, p, slot, q, meet):
    """A shark on `q` removes every swimmer there (S13), unless a seat may repel it (S15): True
    while it waits for that choice."""
    s, p = borrowed(s), borrowed(p)
    if s[LOOSE_N + q] == 0 or s[KIND + q] != K_SEA:
        return False
    if _ask_repel(s, p, slot, q, True, meet):
        return True
    _lose_swimmers_at(s, p, q)
    return False


@njit(cache=True)
def _sharks_meet(s, p, q):
    """Swimmers that entered `q` meet its sharks, in slot order (each may be repelled, S15; the
    meeting stops while a seat decides)."""
    s, p = borrowed(s), borrowed(p)
    for slot in range(SHARK_BASE, KAIJU_BASE):
        if s[LOOSE_N + q] == 0 or s[SHARK_N + q] == 0:
            return
        if s[CREATURE_SPACE + slot] == q and _shark_acts(s, p, slot, q, 1):
            return


@njit(cache=True)
def _serpent_strikes(s, p, q):
    """A serpent on `q` removes every raft and every adventurer there (S13)."""
    s, p = borrowed(s), borrowed(p)
    _lose_all_at(s, p, q)
    r = s[RAFT_AT + q]
    if r >= 0:
        _raft_off(s, p, r)


@njit(cache=True, forceinline=True)
def displaced_may_stop(s, kind, n):
    """Where a creature a kaiju displaces may go (S13): a space it may enter holding no piece.
    Serpents and sharks: sea without a kaiju; a kaiju: sea or land holding no creature at all,
    so that no displacement displaces again."""
    if n < 0 or s[ADV_N + n] > 0 or s[RAFT_AT + n] >= 0 or s[KAIJU_AT + n] >= 0:
        return False
    k = s[KIND + n]
    if kind == KAIJU:
        return (k == K_SEA or k == K_LAND) and s[SERPENT_N + n] == 0 and s[SHARK_N + n] == 0
    return k == K_SEA


@njit(cache=True)
def push_open(s, p, q, d):
    """S13: the adventurers of `q` may be pushed to the neighbour in direction d: any space they
    may enter but a rescue island."""
    s, p = borrowed(s), borrowed(p)
    n = neighbour(p, q, d)
    return adventurer_may_stop(s, n) and s[KIND + n] != K_RESCUE


@njit(cache=True)
def _kaiju_acts(s, p, slot, q):
    """A kaiju arrives on `q` (S13): unless a seat may repel it (S15: it waits for that choice),
    it strikes (`_kaiju_strikes`)."""
    s, p = borrowed(s), borrowed(p)
    if s[ADV_N + q] > 0 and _ask_repel(s, p, slot, q, False, 0):
        return
    _kaiju_strikes(s, p, slot, q)


@njit(cache=True)
def _kaiju_strikes(s, p, slot, q):
    """S13: the kaiju on `q` removes the raft (its passengers swim), displaces the other creatures
    in slot order, then its adventurers wait to be pushed (lost when no neighbour is open)."""
    s, p = borrowed(s), borrowed(p)
    r = s[RAFT_AT + q]
    if r >= 0:
        _raft_off(s, p, r)
    for other in range(MAX_CREATURES):
        if other == slot or s[CREATURE_SPACE + other] != q:
            continue
        kind = creature_kind(other)
        to = -1
        for d in range(6):
            n = neighbour(p, q, d)
            if displaced_may_stop(s, kind, n):
                to = n
                break
        if kind == KAIJU:  # its space is the arriving kaiju's now
            s[CREATURE_SPACE + other] = -1
            if to >= 0:
                _creature_to(s, other, to)
        elif to >= 0:
            _creature_to(s, other, to)
        else:
            _creature_off(s, other)
    if s[ADV_N + q] > 0:
        for d in range(6):
            if push_open(s, p, q, d):
                s[PUSH_FROM] = s[PHASE]
                s[PUSH_SPACE] = q
                s[PHASE] = PH_PUSH
                return
        _lose_all_at(s, p, q)


@njit(cache=True)
def _creature_arrives(s, p, slot, q):
    """What a creature does where it stops or is placed (S13)."""
    s, p = borrowed(s), borrowed(p)
    kind = creature_kind(slot)
    if kind == SERPENT:
        _serpent_strikes(s, p, q)
    elif kind == SHARK:
        _shark_acts(s, p, slot, q, 0)
    else:
        _kaiju_acts(s, p, slot, q)


@njit(cache=True)
def _answer_repel(s, p, use):
    """S15: the seat asked spends a repellent (the creature leaves the board and does nothing)
    or keeps it (the next seat on with an adventurer affected and a repellent is asked; with
    none, the creature acts); then play goes back to the phase the creature interrupted."""
    s, p = borrowed(s), borrowed(p)
    slot = s[REPEL_SLOT]
    q = s[REPEL_SPACE]
    shark = creature_kind(slot) == SHARK
    if use:
        s[HAND + NABILITIES * s[REPEL_SEAT] + A_REPELLENT] -= 1
        _creature_off(s, slot)
    else:
        seat = _repel_asker(s, p, q, shark, s[REPEL_SEAT])
        if seat >= 0:
            s[REPEL_SEAT] = seat
            return
    s[PHASE] = s[REPEL_FROM]
    if not use:
        if shark:
            _lose_swimmers_at(s, p, q)
        else:
            _kaiju_strikes(s, p, slot, q)
    if s[REPEL_MEET]:
        _sharks_meet(s, p, q)


@njit(cache=True)
def _adventurer_enters(s, p, a, q):
    """A lifted adventurer moves onto `q` (S9, S13): rescued, aboard, or loose; a serpent there
    takes it, a shark takes it as a swimmer."""
    s, p = borrowed(s), borrowed(p)
    _set_down(s, p, a, q)
    if s[ADV_SPACE + a] != q:  # rescued
        return
    if s[SERPENT_N + q] > 0:
        _lose(s, p, a)
    elif s[SHARK_N + q] > 0 and s[ADV_RAFT + a] < 0:
        _sharks_meet(s, p, q)


@njit(cache=True)
def _raft_to(s, p, r, q):
    """Raft r with its passengers onto `q` (S9): on a rescue island every passenger is rescued
    and the raft goes back to the supply; onto a serpent it is lost with them (S13)."""
    s, p = borrowed(s), borrowed(p)
    q0 = s[RAFT_SPACE + r]
    load = s[RAFT_LOAD + r]
    if s[KIND + q] == K_RESCUE:
        if load > 0:
            for a in range(adventurers(p)):
                if s[ADV_RAFT + a] == r:
                    _lift(s, p, a)
                    _rescue(s, p, a)
        s[RAFT_AT + q0] = -1
        s[RAFT_SPACE + r] = -1
        return
    s[RAFT_AT + q0] = -1
    s[RAFT_AT + q] = r
    s[RAFT_SPACE + r] = q
    if load > 0:
        s[ADV_N + q0] -= load
        s[ADV_N + q] += load
        for a in range(adventurers(p)):
            if s[ADV_RAFT + a] == r:
                s[ADV_SPACE + a] = q
    if s[SERPENT_N + q] > 0:
        _serpent_strikes(s, p, q)


# --- the flow of a game (S7, S8) ---------------------------------------------------------------------


@njit(cache=True, forceinline=True)
def _end(s, ending):
    s[ENDING] = ending
    s[PHASE] = PH_OVER


@njit(cache=True)
def _cleared(s, p):
    """S14: the game ends at once when no adventurer is left on the board."""
    s, p = borrowed(s), borrowed(p)
    if s[ENDING] >= 0:
        return True
    for seat in range(p[P_PLAYERS]):  # stops at the first seat with one (a sum would read them all)
        if s[ON_BOARD + seat] > 0:
            return False
    _end(s, END_CLEARED)
    return True


@njit(cache=True)
def _next_turn(s, p):
    """S8: the next seat's action phase. S12: it floods two tiles when none of its adventurers
    is left on the board now, at the start of its turn."""
    s, p = borrowed(s), borrowed(p)
    each = p[P_ADV_EACH]
    for a in range(s[SEAT] * each, s[SEAT] * each + each):  # only the seat whose turn ends moved
        s[SWAM + a] = 0
    s[TURN] += 1
    s[SEAT] = 0 if s[TURN] == 1 else p[P_NEXT_SEAT + s[SEAT]]
    s[MOVES_LEFT] = p[P_MOVES]
    s[FLOODS_LEFT] = 2 if s[ON_BOARD + s[SEAT]] == 0 else 1
    s[PHASE] = PH_ACTION


@njit(cache=True)
def _roll(s, p, rng, back_to):
    """S13: the die (the dice stream, S5); with no creature of the kind rolled that can move,
    nothing happens. `back_to`: PH_ACTION for a die ability, else the turn ends afterwards."""
    s, p, rng = borrowed(s), borrowed(p), borrowed(rng)
    face = rand_below(rng, STREAM_DICE, p[P_DIE] + p[P_DIE + 1] + p[P_DIE + 2])
    kind = SERPENT if face < p[P_DIE] else SHARK if face < p[P_DIE] + p[P_DIE + 1] else KAIJU
    if s[NROLLS] < MAX_ROLLS:
        s[ROLLS + s[NROLLS]] = kind
    s[NROLLS] += 1
    s[ROLL_FROM] = back_to
    first, end = kind_slots(p, kind)
    for slot in range(first, end):
        if s[CREATURE_SPACE + slot] >= 0 and creature_can_move(s, p, slot):
            s[ROLLED] = kind
            s[PHASE] = PH_CREATURE
            return


@njit(cache=True)
def _settle(s, p, rng):
    """Play every step no one decides, from wherever the last step left the game, to the next
    decision: the end of a roll, an action phase with only `end` left (S9), the flood phase's
    turn to the creature phase, the next seat's turn."""
    s, p, rng = borrowed(s), borrowed(p), borrowed(rng)
    scratch = stack_empty(1, np.int64)
    while True:
        ph = s[PHASE]
        if ph == PH_OVER or ph == PH_PUSH or ph == PH_PLACE or ph == PH_RAFT or ph == PH_REPEL:
            return
        if ph == PH_CREATURE:
            if s[ROLLED] >= 0:
                return
            # the roll is played out (or had nothing to move): back to where it came from
            if s[ROLL_FROM] == PH_ACTION:
                s[PHASE] = PH_ACTION
            else:
                _next_turn(s, p)
            continue
        if ph == PH_ACTION:
            if action_list(s, p, scratch, 0, True) > 0:
                return
            s[PHASE] = PH_FLOOD
            continue
        # PH_FLOOD
        if s[FLOODS_LEFT] > 0 and lowest_terrain(s) >= 0:
            return
        s[PHASE] = PH_CREATURE
        s[ROLLED] = -1
        _roll(s, p, rng, PH_FLOOD)


# --- the legal actions (S7, S9-S13, S17) ----------------------------------------------------------------


@njit(cache=True, forceinline=True)
def _stops(s, p, slot, out, n, base):
    """The spaces the creature in `slot` may stop on (S13), ascending, as base + space into
    out[n:]; returns the new n. A serpent: a sea space next to it; a shark: 1 or 2 steps over
    sea; a kaiju: 1 or 2 steps over sea or land (the step between may not be a volcano).
    Serpents and sharks never stop on a kaiju's space. A creature must move: its own space is
    not a stop. The spaces within two steps come from the parameters (P_REACH), each with the
    neighbours it lies next to, so a space two steps away is a stop when one of those may be
    passed through."""
    q0 = s[CREATURE_SPACE + slot]
    kind = creature_kind(slot)
    if kind == SERPENT:  # its neighbours only, read in the directions' ascending order
        for d in ASCENDING_DIRECTIONS:
            q = neighbour(p, q0, d)
            if q >= 0:
                out[n] = base + q
                n += s[MAY + q] & MAY_SEA_STOP != 0
        return n
    stop = MAY_KAIJU if kind == KAIJU else MAY_SEA_STOP
    through = MAY_KAIJU if kind == KAIJU else MAY_SEA_PASS
    reached = REACH_NEIGHBOUR  # a neighbour directly; a space beyond through a neighbour it may pass
    for d in range(6):
        q1 = neighbour(p, q0, d)
        if q1 >= 0 and s[MAY + q1] & through:
            reached |= 1 << (REACH_VIA_SHIFT + d)
    at = P_REACH + REACH_ROOM * q0
    for i in range(p[P_NREACH + q0]):
        e = p[at + i]
        q = e & REACH_SPACE_MASK
        # written every time and kept (n moved on) only at a stop: no branch to mispredict
        out[n] = base + q
        n += (e & reached != 0) & (s[MAY + q] & stop != 0)
    return n


@njit(cache=True)
def creature_destinations(s, p, slot, out):
    """The spaces the creature in `slot` may stop on (S13), ascending, into out[:n]; returns n.
    `out` needs room for REACH_ROOM entries."""
    s, p, out = borrowed(s), borrowed(p), borrowed(out)
    return _stops(s, p, slot, out, 0, 0)


@njit(cache=True)
def creature_can_move(s, p, slot):
    """Whether `creature_destinations` would find any (without listing them)."""
    s, p = borrowed(s), borrowed(p)
    q0 = s[CREATURE_SPACE + slot]
    kind = creature_kind(slot)
    for d in range(6):
        q1 = neighbour(p, q0, d)
        if q1 < 0:
            continue
        may = s[MAY + q1]
        if kind == KAIJU:
            if may & MAY_KAIJU:
                return True
            continue
        if may & MAY_SEA_STOP:
            return True
        if kind == SHARK and may & MAY_SEA_PASS:  # over the kaiju's space to a sea space beyond it
            for e in range(6):
                q2 = neighbour(p, q1, e)
                if q2 >= 0 and q2 != q0 and s[MAY + q2] & MAY_SEA_STOP:
                    return True
    return False


@njit(cache=True)
def action_list(s, p, out, n, first_only):
    """The action phase's codes after `end` (S9, S10, S11), ascending, into out[n:]; returns the
    new n. With `first_only`, writes nothing and returns 1 at the first one found (0 if none):
    the game closes the action phase itself when `end` is all that is left."""
    s, p, out = borrowed(s), borrowed(p), borrowed(out)
    seat = s[SEAT]
    each = p[P_ADV_EACH]
    a0 = seat * each
    nrafts = p[P_RAFTS]
    if s[MOVES_LEFT] > 0:
        if s[ON_BOARD + seat] > 0:
            for a in range(a0, a0 + each):
                q0 = s[ADV_SPACE + a]
                if q0 < 0:
                    continue
                swam = s[SWAM + a] != 0
                if swam and s[ADV_RAFT + a] < 0 and s[KIND + q0] == K_SEA:
                    continue  # a swimmer that swam this turn cannot move again (S9)
                for d in range(6):
                    q = neighbour(p, q0, d)
                    if not adventurer_may_stop(s, q):
                        continue
                    if swam and s[KIND + q] == K_SEA and not raft_room(s, p, q):
                        continue  # it would end as a swimmer
                    if first_only:
                        return 1
                    out[n] = MOVE_ADVENTURER + 6 * a + d
                    n += 1
        for r in range(nrafts):
            q0 = s[RAFT_SPACE + r]
            if q0 < 0 or not controls(s, p, seat, r):
                continue
            for d in range(6):
                if raft_may_stop(s, neighbour(p, q0, d)):
                    if first_only:
                        return 1
                    out[n] = MOVE_RAFT + 6 * r + d
                    n += 1
    hand = HAND + NABILITIES * seat
    if s[hand + A_DIE] > 0:
        if first_only:
            return 1
        out[n] = USE_DIE
        n += 1
    if s[hand + A_OARS] > 0:  # S11: a raft it may move, 1 or 2 spaces in one direction
        for r in range(nrafts):
            q0 = s[RAFT_SPACE + r]
            if q0 < 0 or not controls(s, p, seat, r):
                continue
            for d in range(6):
                q1 = neighbour(p, q0, d)
                if q1 < 0:
                    continue
                if raft_may_stop(s, q1):
                    if first_only:
                        return 1
                    out[n] = OARS_MOVE + 12 * r + 2 * d
                    n += 1
                if s[KIND + q1] == K_SEA and raft_may_stop(s, neighbour(p, q1, d)):
                    if first_only:
                        return 1
                    out[n] = OARS_MOVE + 12 * r + 2 * d + 1
                    n += 1
    if s[hand + A_DOLPHIN] > 0 and s[ON_BOARD + seat] > 0:  # S11: one of its swimmers, 1 or 2 over sea
        for a in range(a0, a0 + each):
            if not is_swimmer(s, a):
                continue
            q0 = s[ADV_SPACE + a]
            for d in range(6):
                q1 = neighbour(p, q0, d)
                if q1 < 0:
                    continue
                if adventurer_may_stop(s, q1):
                    if first_only:
                        return 1
                    out[n] = DOLPHIN_MOVE + 12 * a + 2 * d
                    n += 1
                if s[KIND + q1] == K_SEA and adventurer_may_stop(s, neighbour(p, q1, d)):
                    if first_only:
                        return 1
                    out[n] = DOLPHIN_MOVE + 12 * a + 2 * d + 1
                    n += 1
    if s[hand + A_DIVE] > 0:  # S11: any creature to a sea space with no piece and no creature
        nspaces = p[P_NSPACES]
        for slot in range(MAX_CREATURES):
            if s[CREATURE_SPACE + slot] < 0:
                continue
            for q in range(nspaces):
                if dive_open(s, q):
                    if first_only:
                        return 1
                    out[n] = DIVE_MOVE + MAX_SPACES * slot + q
                    n += 1
    return n


@njit(cache=True, forceinline=True)
def dive_open(s, q):
    return (s[KIND + q] == K_SEA and s[ADV_N + q] == 0 and s[RAFT_AT + q] < 0 and s[SERPENT_N + q] == 0
            and s[SHARK_N + q] == 0 and s[KAIJU_AT + q] < 0)


@njit(cache=True)
def flood_list(s, p, out):
    """S12: the tiles of the lowest terrain left that touch the sea; if none of it does, any of
    it. Ascending (board order)."""
    s, p, out = borrowed(s), borrowed(p), borrowed(out)
    t = lowest_terrain(s)
    if t < 0:
        return 0
    tiles = TILE_BITS + BIT_WORDS * t
    n = 0
    for shore in range(2):  # first those on the shore; with none, all of them
        for w in range(BIT_WORDS):
            x = _word(s, tiles, w)
            if shore == 0:
                x &= _word(s, SHORE_BITS, w)
            while x != 0:
                low = x & -x
                out[n] = FLOOD + (w << 5) + popcount(low - 1)
                n += 1
                x ^= low
        if n > 0:
            return n
    return 0


@njit(cache=True)
def place_spaces(s, p, out):
    """S7: the island spaces holding no adventurer, ascending; with none left, those holding
    exactly one. Spaces, not codes, into out[:n]."""
    s, p, out = borrowed(s), borrowed(p), borrowed(out)
    for crowd in range(2):
        n = 0
        for i in range(p[P_NLAND]):
            q = p[P_LAND + i]
            if s[KIND + q] == K_LAND and s[ADV_N + q] == crowd:
                out[n] = q
                n += 1
        if n > 0:
            return n
    return 0


@njit(cache=True, forceinline=True)
def unplaced_values(s, p, seat):
    """S7: the values among the seat's unplaced adventurers, as bits (bit v for value v)."""
    left = s[UNPLACED_BITS + seat]
    mask = 0
    for v in range(1, MAX_VALUE + 1):
        if left & s[VALUE_BITS + VALUE_ROOM * seat + v]:
            mask |= 1 << v
    return mask


@njit(cache=True)
def _value_bits(s, p, seat):
    """VALUE_BITS of a seat from its adventurers' values (after the deal, or a world's redraw)."""
    s, p = borrowed(s), borrowed(p)
    each = p[P_ADV_EACH]
    for v in range(VALUE_ROOM):
        s[VALUE_BITS + VALUE_ROOM * seat + v] = 0
    for i in range(each):
        s[VALUE_BITS + VALUE_ROOM * seat + s[VALUE + seat * each + i]] |= 1 << i


@njit(cache=True)
def place_list(s, p, out):
    """S7: each value the placing seat has unplaced, ascending, on each space `place_spaces` lists."""
    s, p, out = borrowed(s), borrowed(p), borrowed(out)
    spaces = stack_empty(TILES_TOTAL, np.int64)
    ns = place_spaces(s, p, spaces)
    mask = unplaced_values(s, p, s[SEAT])
    n = 0
    for v in range(1, MAX_VALUE + 1):
        if (mask >> v) & 1:
            base = PLACE_ADVENTURER + MAX_SPACES * (v - 1)
            for i in range(ns):
                out[n] = base + spaces[i]
                n += 1
    return n


@njit(cache=True, forceinline=True)
def raft_start_open(s, p, q):
    """S7: an empty sea space (no raft, no creature) next to an island space."""
    if s[KIND + q] != K_SEA or s[RAFT_AT + q] >= 0 or s[SERPENT_N + q] or s[SHARK_N + q] or s[KAIJU_AT + q] >= 0:
        return False
    for d in range(6):
        n = neighbour(p, q, d)
        if n >= 0 and s[KIND + n] == K_LAND:
            return True
    return False


@njit(cache=True)
def raft_start_list(s, p, out):
    s, p, out = borrowed(s), borrowed(p), borrowed(out)
    n = 0
    for i in range(p[P_NSHORE]):
        q = p[P_SHORE + i]
        if raft_start_open(s, p, q):
            out[n] = PLACE + q
            n += 1
    return n


@njit(cache=True)
def creature_list(s, p, out):
    """S13: the rolled kind's creatures on the board, each to each of its destinations."""
    s, p, out = borrowed(s), borrowed(p), borrowed(out)
    first, end = kind_slots(p, s[ROLLED])
    n = 0
    for slot in range(first, end):
        if s[CREATURE_SPACE + slot] >= 0:
            n = _stops(s, p, slot, out, n, CREATURE_MOVE + MAX_SPACES * slot)
    return n


@njit(cache=True)
def push_list(s, p, out):
    s, p, out = borrowed(s), borrowed(p), borrowed(out)
    n = 0
    for d in range(6):
        if push_open(s, p, s[PUSH_SPACE], d):
            out[n] = PUSH + d
            n += 1
    return n


@njit(cache=True)
def repel_list(s, p, out):
    """S15: keep the repellent, or spend it."""
    out[0] = KEEP_REPELLENT
    out[1] = USE_REPELLENT
    return 2


@njit(cache=True)
def legal_actions(s, p, out):
    """Every decision open now, as action codes in out[:n], ascending (S17); 0 once over. The
    decider is `decider(s)`: the seat asked in PH_REPEL (S15), else s[SEAT] (the placing seat in
    set-up, else the seat whose turn it is)."""
    s, p, out = borrowed(s), borrowed(p), borrowed(out)
    ph = s[PHASE]
    if ph == PH_ACTION:
        out[0] = END
        return action_list(s, p, out, 1, False)
    if ph == PH_FLOOD:
        return flood_list(s, p, out)
    if ph == PH_CREATURE:
        return creature_list(s, p, out)
    if ph == PH_PUSH:
        return push_list(s, p, out)
    if ph == PH_PLACE:
        return place_list(s, p, out)
    if ph == PH_RAFT:
        return raft_start_list(s, p, out)
    if ph == PH_REPEL:
        return repel_list(s, p, out)
    return 0


# --- the deal and the set-up (S2, S3, S7) -----------------------------------------------------------------


@njit(cache=True)
def _shuffle(a, n, rng):
    """S3's Fisher-Yates on a[:n], from the deal stream."""
    a, rng = borrowed(a), borrowed(rng)
    for i in range(n - 1, 0, -1):
        j = rand_below(rng, STREAM_DEAL, i + 1)
        a[i], a[j] = a[j], a[i]


@njit(cache=True)
def init_game(s, p, rng, seed, game):
    """Game `game` of `seed`: the streams seeded, the deal (S3), the serpents (S2), and set-up up to
    its first decision (seat 0 places, S7)."""
    s, p, rng = borrowed(s), borrowed(p), borrowed(rng)
    seed_streams(rng, seed, game)
    s[:NSTATE] = 0
    nspaces = p[P_NSPACES]
    for q in range(MAX_SPACES):
        s[TILE_AT + q] = -1
        s[RAFT_AT + q] = -1
        s[KAIJU_AT + q] = -1
        s[KIND + q] = p[P_KIND + q] if q < nspaces else K_VOLCANO
        _refresh_may(s, q)
    for q in range(nspaces):
        n = 0
        for d in range(6):
            m = neighbour(p, q, d)
            if m >= 0 and s[KIND + m] == K_SEA:
                n += 1
        s[SEA_NEAR + q] = n
        if n > 0:
            _bit_on(s, SHORE_BITS, q)
    for a in range(MAX_ADVENTURERS):
        s[ADV_SPACE + a] = UNPLACED_SPACE
        s[ADV_RAFT + a] = -1
    for r in range(MAX_RAFTS):
        s[RAFT_SPACE + r] = -1
    for slot in range(MAX_CREATURES):
        s[CREATURE_SPACE + slot] = -1
    tiles = stack_empty(TILES_TOTAL, np.int64)
    for i in range(TILES_TOTAL):
        tiles[i] = i
    _shuffle(tiles, TILES_TOTAL, rng)
    for i in range(p[P_NLAND]):
        q = p[P_LAND + i]
        s[TILE_AT + q] = tiles[i]
        t = p[P_TILE_TERRAIN + tiles[i]]
        s[TERRAIN_LEFT + t] += 1
        _bit_on(s, TILE_BITS + BIT_WORDS * t, q)
    each = p[P_ADV_EACH]
    values = stack_empty(32, np.int64)
    for seat in range(p[P_PLAYERS]):
        for i in range(each):
            values[i] = p[P_SEAT_VALUES + i]
        _shuffle(values, each, rng)
        for i in range(each):  # the state is all zeros: the bits need no clearing
            s[VALUE + seat * each + i] = values[i]
            s[VALUE_BITS + VALUE_ROOM * seat + values[i]] |= 1 << i
        s[UNPLACED_BITS + seat] = (1 << each) - 1
    for i in range(p[P_SERPENTS]):
        _creature_to(s, i, p[P_SERPENT_STARTS + i])
    s[ENDING] = -1
    s[ROLLED] = -1
    s[PUSH_SPACE] = -1
    s[PUSH_FROM] = -1
    s[ROLL_FROM] = -1
    s[PHASE] = PH_PLACE
    s[SEAT] = 0


# --- playing a decision -----------------------------------------------------------------------------------


@njit(cache=True)
def _place(s, p, code):
    """S7: the placing seat's lowest-numbered unplaced adventurer of the value it chose onto
    island space q; the next seat places; after the last adventurer, the rafts."""
    s, p = borrowed(s), borrowed(p)
    v, q = divmod(code - PLACE_ADVENTURER, MAX_SPACES)
    seat = s[SEAT]
    x = s[UNPLACED_BITS + seat] & s[VALUE_BITS + VALUE_ROOM * seat + v + 1]
    low = x & -x  # the lowest-numbered of them
    s[UNPLACED_BITS + seat] ^= low
    a = seat * p[P_ADV_EACH] + popcount(low - 1)
    s[PLACED + seat] += 1
    s[ON_BOARD + seat] += 1
    s[ADV_SPACE + a] = q
    s[ADV_N + q] += 1
    s[LOOSE_N + q] += 1
    players = p[P_PLAYERS]
    placed = 0
    for other in range(players):
        placed += s[PLACED + other]
    if placed == players * p[P_ADV_EACH]:  # the last placement (seat 0's in a snake of even rounds)
        s[PHASE] = PH_RAFT
        s[SEAT] = 0
    else:
        s[SEAT] = placing_seat(p, placed)


@njit(cache=True, forceinline=True)
def placing_seat(p, placed):
    """S7: the seat making set-up placement number `placed` of its kind (rules.placing_seat)."""
    return p[P_PLACING_SEAT + placed]


@njit(cache=True)
def _place_raft(s, p, q):
    """S7: raft number `RAFTS_PLACED` onto sea space q; after each seat's own, the first turn."""
    s, p = borrowed(s), borrowed(p)
    r = s[RAFTS_PLACED]
    s[RAFT_SPACE + r] = q
    s[RAFT_AT + q] = r
    s[RAFTS_PLACED] = r + 1
    if r + 1 == p[P_PLAYERS] * p[P_RAFTS_EACH]:
        _next_turn(s, p)
    else:
        s[SEAT] = placing_seat(p, r + 1)


@njit(cache=True)
def _flood(s, p, q):
    """S12: the tile on q is removed and its back read."""
    s, p = borrowed(s), borrowed(p)
    tile = s[TILE_AT + q]
    back = p[P_TILE_BACK + tile]
    s[TILE_AT + q] = -1
    terrain = p[P_TILE_TERRAIN + tile]
    s[TERRAIN_LEFT + terrain] -= 1
    _bit_off(s, TILE_BITS + BIT_WORDS * terrain, q)
    s[FLOODED_N] += 1
    s[FLOODS_LEFT] -= 1
    if back == VOLCANO:
        s[KIND + q] = K_VOLCANO
        _refresh_may(s, q)
        _clear_space(s, p, q)
        s[VOLCANOES] += 1
        if s[VOLCANOES] >= p[P_VOLCANOES_TO_END]:  # S14: the game ends at once
            _end(s, END_VOLCANO)
        return
    s[KIND + q] = K_SEA  # its adventurers swim there; a kaiju on it stays
    _refresh_may(s, q)
    for d in range(6):
        n = neighbour(p, q, d)
        if n >= 0:
            s[SEA_NEAR + n] += 1
            _bit_on(s, SHORE_BITS, n)
    if back == SHARK_TILE or back == KAIJU_TILE:
        if s[KAIJU_AT + q] >= 0:
            return  # nothing happens where a kaiju already stands
        kind = SHARK if back == SHARK_TILE else KAIJU
        first, end = kind_slots(p, kind)
        slot = -1
        for c in range(first, end):  # S5: the lowest free slot, else the lowest on the board
            if s[CREATURE_SPACE + c] < 0:
                slot = c
                break
        if slot < 0:
            slot = first
        _creature_to(s, slot, q)
        _creature_arrives(s, p, slot, q)
    elif back == RAFT_TILE:
        r = -1
        for i in range(p[P_RAFTS]):
            if s[RAFT_SPACE + i] < 0:
                r = i
                break
        if r < 0:
            for i in range(p[P_RAFTS]):
                if s[RAFT_LOAD + i] == 0:
                    r = i
                    break
        if r < 0:
            return
        if s[RAFT_SPACE + r] >= 0:
            s[RAFT_AT + s[RAFT_SPACE + r]] = -1
        s[RAFT_SPACE + r] = q
        s[RAFT_AT + q] = r
        if s[LOOSE_N + q] > 0:  # its swimmers board it in number order
            for a in range(adventurers(p)):
                if s[RAFT_LOAD + r] >= p[P_CAPACITY]:
                    break
                if s[ADV_SPACE + a] == q and s[ADV_RAFT + a] < 0:
                    s[LOOSE_N + q] -= 1
                    _board(s, p, a, r)
    elif back == WHIRLPOOL:
        _clear_space(s, p, q)
        for d in range(6):
            n = neighbour(p, q, d)
            if n >= 0 and s[KIND + n] == K_SEA:
                _clear_space(s, p, n)
    else:
        s[HAND + NABILITIES * s[SEAT] + back - FIRST_ABILITY] += 1  # kept face down (S16)


@njit(cache=True)
def _push(s, p, d):
    """S13: the adventurers of the push space, all together, to the neighbour in direction d;
    they board a raft there with room (in number order), and meet its creatures."""
    s, p = borrowed(s), borrowed(p)
    q = s[PUSH_SPACE]
    to = neighbour(p, q, d)
    for a in range(adventurers(p)):
        if s[ADV_SPACE + a] == q:
            _lift(s, p, a)
            _set_down(s, p, a, to)
    s[PUSH_SPACE] = -1
    s[PHASE] = s[PUSH_FROM]
    s[PUSH_FROM] = -1
    if s[SERPENT_N + to] > 0:
        _serpent_strikes(s, p, to)
    elif s[SHARK_N + to] > 0:
        _sharks_meet(s, p, to)


@njit(cache=True)
def _act(s, p, a, rng):
    """An action-phase decision (S9, S11); a roll of the die ability leaves the phase for a while."""
    s, p, rng = borrowed(s), borrowed(p), borrowed(rng)
    if a == END:
        s[PHASE] = PH_FLOOD
        return
    seat = s[SEAT]
    hand = HAND + NABILITIES * seat
    if a < MOVE_RAFT:
        adv = (a - MOVE_ADVENTURER) // 6
        q0 = s[ADV_SPACE + adv]
        q = neighbour(p, q0, (a - MOVE_ADVENTURER) % 6)
        s[MOVES_LEFT] -= 1
        if (s[ADV_RAFT + adv] < 0 and s[KIND + q0] == K_SEA) or (s[KIND + q] == K_SEA and not raft_room(s, p, q)):
            s[SWAM + adv] = 1  # S9: it starts or ends the move as a swimmer
        _lift(s, p, adv)
        _adventurer_enters(s, p, adv, q)
    elif a < FLOOD:
        r = (a - MOVE_RAFT) // 6
        s[MOVES_LEFT] -= 1
        _raft_to(s, p, r, neighbour(p, s[RAFT_SPACE + r], (a - MOVE_RAFT) % 6))
    elif a == USE_DIE:
        s[hand + A_DIE] -= 1
        s[PHASE] = PH_CREATURE
        s[ROLLED] = -1
        _roll(s, p, rng, PH_ACTION)
    elif a < DOLPHIN_MOVE:
        s[hand + A_OARS] -= 1
        r, rest = divmod(a - OARS_MOVE, 12)
        d = rest // 2
        q = neighbour(p, s[RAFT_SPACE + r], d)
        if rest % 2:
            q = neighbour(p, q, d)
        _raft_to(s, p, r, q)
    elif a < CREATURE_MOVE:
        s[hand + A_DOLPHIN] -= 1
        adv, rest = divmod(a - DOLPHIN_MOVE, 12)
        d = rest // 2
        q = neighbour(p, s[ADV_SPACE + adv], d)
        if rest % 2:
            q = neighbour(p, q, d)
        _lift(s, p, adv)
        _adventurer_enters(s, p, adv, q)  # not its swim (S11)
    else:
        s[hand + A_DIVE] -= 1
        slot, q = divmod(a - DIVE_MOVE, MAX_SPACES)
        _creature_to(s, slot, q)  # onto a space with no piece: it meets nothing


@njit(cache=True)
def play_action(s, p, a, rng):
    """Play legal decision `a` (not checked), then every step no one decides, to the next decision."""
    s, p, rng = borrowed(s), borrowed(p), borrowed(rng)
    ph = s[PHASE]
    if ph == PH_ACTION:
        _act(s, p, a, rng)
    elif ph == PH_FLOOD:
        _flood(s, p, a - FLOOD)
    elif ph == PH_CREATURE:
        slot, q = divmod(a - CREATURE_MOVE, MAX_SPACES)
        s[ROLLED] = -1
        _creature_to(s, slot, q)
        _creature_arrives(s, p, slot, q)
    elif ph == PH_PUSH:
        _push(s, p, a - PUSH)
    elif ph == PH_PLACE:
        _place(s, p, a)
    elif ph == PH_RAFT:
        _place_raft(s, p, a - PLACE)
    elif ph == PH_REPEL:
        _answer_repel(s, p, a == USE_REPELLENT)
    if s[TURN] > 0 and not _cleared(s, p):
        _settle(s, p, rng)


# --- the entry points every game's kernel shares (sim/kernel_api.py) ------------------------------


@njit(cache=True)
def apply_action(s, p, a, rng, log, nlog):
    """Play legal decision `a` (`play_action`), its code logged into log[nlog] while nlog >= 0
    and the log has room; returns the new nlog."""
    s, p, rng, log = borrowed(s), borrowed(p), borrowed(rng), borrowed(log)
    if 0 <= nlog < log.size:
        log[nlog] = a
        nlog += 1
    play_action(s, p, a, rng)
    return nlog


@njit(cache=True, forceinline=True)
def is_over(s, p):
    """Whether the game has ended (S14)."""
    return s[PHASE] == PH_OVER


@njit(cache=True, forceinline=True)
def turn_number(s, p):
    """The turn being played: 0 during set-up, then +1 a seat's turn (S8)."""
    return s[TURN]


# the abilities' share of the tiles (an unseen ability's kind, S4)
ABILITY_WEIGHTS = np.array([sum(1 for _, b in TILES if b == FIRST_ABILITY + k) for k in range(NABILITIES)],
                           dtype=np.int64)
ABILITY_TILES = int(ABILITY_WEIGHTS.sum())


@njit(cache=True)
def sample_world(s, p, rng, out):
    """Into `out` a world the deciding seat (`decider`) cannot tell from the true one (S16), drawn
    from the policy stream of `rng`: the other seats' adventurers' values dealt anew (their
    scores recounted), their ability tiles drawn anew by the tiles' shares, and the unflooded
    tiles dealt anew among their spaces within each terrain. What is hidden is gathered in a
    canonical order first, so the world depends only on what the seat sees and on `rng`."""
    s, p, out, rng = borrowed(s), borrowed(p), borrowed(out), borrowed(rng)
    for i in range(NSTATE):
        out[i] = s[i]
    seat = decider(s)
    each = p[P_ADV_EACH]
    for other in range(p[P_PLAYERS]):
        if other == seat:
            continue
        base = VALUE + other * each
        for i in range(each):  # gathered in the canonical order first: the true order is never read
            out[base + i] = p[P_SEAT_VALUES + i]
        for i in range(each - 1, 0, -1):
            j = rand_below(rng, STREAM_POLICY, i + 1)
            out[base + i], out[base + j] = out[base + j], out[base + i]
        _value_bits(out, p, other)
        score = 0
        for a in range(other * each, other * each + each):
            if out[ADV_SPACE + a] == RESCUED_SPACE:
                score += out[VALUE + a]
        out[SCORE + other] = score
        held = 0
        for k in range(NABILITIES):
            held += out[HAND + NABILITIES * other + k]
            out[HAND + NABILITIES * other + k] = 0
        for _ in range(held):
            x = rand_below(rng, STREAM_POLICY, ABILITY_TILES)
            k = 0
            while x >= ABILITY_WEIGHTS[k]:
                x -= ABILITY_WEIGHTS[k]
                k += 1
            out[HAND + NABILITIES * other + k] += 1
    spaces = stack_empty(MAX_SPACES, np.int64)
    tiles = stack_empty(TILES_TOTAL, np.int64)
    for terrain in range(3):
        n = 0
        for q in range(p[P_NSPACES]):
            t = out[TILE_AT + q]
            if t >= 0 and p[P_TILE_TERRAIN + t] == terrain:
                spaces[n] = q
                tiles[n] = t
                n += 1
        for i in range(1, n):  # sorted first: which tile lies where is never read
            t = tiles[i]
            j = i
            while j > 0 and tiles[j - 1] > t:
                tiles[j] = tiles[j - 1]
                j -= 1
            tiles[j] = t
        for i in range(n - 1, 0, -1):
            j = rand_below(rng, STREAM_POLICY, i + 1)
            tiles[i], tiles[j] = tiles[j], tiles[i]
        for i in range(n):
            out[TILE_AT + spaces[i]] = tiles[i]


@njit(cache=True)
def winners(s, p):
    """S14: the seats with the highest score, as a bit mask (ties share the win)."""
    s, p = borrowed(s), borrowed(p)
    best = -1
    mask = 0
    for seat in range(p[P_PLAYERS]):
        v = s[SCORE + seat]
        if v > best:
            best = v
            mask = 0
        if v == best:
            mask |= 1 << seat
    return mask


@njit(cache=True)
def seat_outcomes(s, p, out):
    """Each seat's result into out[:n], returns n, the players: 1 for each winning seat (ties: every
    tied winner), 0 for the others, -1 while the game runs."""
    s, p, out = borrowed(s), borrowed(p), borrowed(out)
    players = p[P_PLAYERS]
    if s[ENDING] < 0:
        for seat in range(players):
            out[seat] = -1
        return players
    mask = winners(s, p)
    for seat in range(players):
        out[seat] = (mask >> seat) & 1
    return players


# --- results ------------------------------------------------------------------------------------------------


@njit(cache=True)
def write_result(s, p, out, row):
    """One row of layout.RESULT_FIELDS."""
    s, p, out = borrowed(s), borrowed(p), borrowed(out)
    out[row, 0] = s[ENDING]
    out[row, 1] = s[TURN]
    out[row, 2] = s[VOLCANOES]
    out[row, 3] = s[FLOODED_N]
    out[row, 4] = s[RESCUED_N]
    out[row, 5] = s[LOST_N]
    out[row, 6] = winners(s, p)
    for seat in range(MAX_PLAYERS):
        played = seat < p[P_PLAYERS]
        out[row, R_SCORE + seat] = s[SCORE + seat] if played else 0
        out[row, R_RESCUED + seat] = s[RESCUED + seat] if played else 0
