"""The numba kernel: Forbidden Island on fixed-size int arrays, for millions of games.

Step functions only (pgx style): the rules here know nothing of who chooses. A game is the int32
state `s` and the parameters `p` of sim/forbidden_island/layout.py (docs/FI-KERNEL.md); every
decision of the reference engine (`engine.py`, the definition of the game) is one action code,
`legal_actions` lists them and `play_action` plays one (`apply_action` too, logging it: the
entry points every game's kernel shares, sim/kernel_api.py, are `init_game`, `legal_actions`,
`apply_action` and `seat_outcomes`). Randomness is passed in (`rng`: the
splitmix64 streams of sim/island_escape/layout.py), so a caller decides what each shuffle sees.

Every function mirrors the engine function named in its docstring, rule by rule (F1-F14); the
cross-check (tests/forbidden_island/test_kernel.py) demands the same legal actions at every
decision and the same state after every step. Nothing here allocates: places, seats and
treasures are bit masks, piles are stacks inside `s`, discards are counts and masks.
"""

from __future__ import annotations

import numpy as np
from numba import njit

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
    ALL_PLACES,
    C_LIFT,
    C_SANDBAGS,
    C_WATERS_RISE,
    CAPTURE_ORDER,
    CAPTURE_TURN,
    CAPTURED,
    CAUSE_DROWNED,
    CAUSE_FOOLS_LANDING,
    CAUSE_TREASURE,
    CAUSE_WATER,
    CAUSE_WIN,
    COUNT,
    CUR,
    DISCARDABLE,
    DIST,
    DRAWS,
    FDISC,
    FLAYER,
    FLAYERS_N,
    FLEW,
    FLOOD_DRAWS,
    FLOODED,
    FLOODS,
    FLOODS_DRAWN,
    FPILE,
    FPILE_N,
    HAND,
    HAND_SIZE,
    HAND_STRIDE,
    K_CAPTURE,
    K_DISCARD,
    K_DRAW,
    K_FLOOD,
    K_FLY,
    K_GIVE,
    K_LIFT,
    K_LIFTOFF,
    K_MOVE,
    K_NAVIGATE,
    K_SANDBAGS,
    K_SHORE,
    K_SHORE2,
    K_SWIM,
    MARK,
    MAX_PLAYERS,
    N_FSHUFFLES,
    N_TSHUFFLES,
    NCARDS,
    NEIGH,
    NEIGH8,
    NPLACES,
    NSTATE,
    OUTCOME,
    P_ACTIONS,
    P_CAPTURE,
    P_DRAWS,
    P_HAND_LIMIT,
    P_PLAYERS,
    P_SETUP_CARDS,
    P_SETUP_FLOODS,
    P_START_MARK,
    PAWN,
    PH_DISCARD,
    PH_FLOOD,
    PH_OVER,
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
    ROLE_START_TILE,
    SKULL,
    STAGE,
    STAGE_ACTIONS,
    STAGE_FLOOD,
    STAGE_TREASURE,
    STREAM_DEAL,
    STREAM_POLICY,
    STREAM_SHUFFLE,
    SUNK,
    SWIMMERS,
    T_FOOLS_LANDING,
    TDISC,
    TILE_PLACE,
    TILE_TREASURE,
    TPILE,
    TPILE_N,
    TREASURE_DECK_COUNTS,
    TURN,
    WATERS_RISEN,
)
from sim.intrinsics import borrowed, popcount
from sim.streams import rand_below, seed_streams

# --- small queries -----------------------------------------------------------------------------------


@njit(cache=True, forceinline=True)
def standing(s):
    """Place mask of the tiles that have not sunk."""
    return ALL_PLACES & ~np.int64(s[SUNK])


@njit(cache=True, forceinline=True)
def near(place, role):
    """Side neighbours, and corners too for the Explorer (F10)."""
    return NEIGH8[place] if role == ROLE_EXPLORER else NEIGH[place]


@njit(cache=True, forceinline=True)
def low_seat(mask):
    """The lowest seat (bit) of a non-empty mask."""
    i = 0
    while not (mask >> i) & 1:
        i += 1
    return i


@njit(cache=True)
def over_limit(s, p):
    """engine.over_limit (F8): the seat holding more cards than the limit, or -1."""
    s, p = borrowed(s), borrowed(p)
    for seat in range(p[P_PLAYERS]):
        if s[HAND_SIZE + seat] > p[P_HAND_LIMIT]:
            return seat
    return -1


@njit(cache=True)
def phase(s, p):
    """engine.phase: PH_OVER, PH_SWIM, PH_DISCARD, or the stage (actions, treasure, flood draw)."""
    s, p = borrowed(s), borrowed(p)
    if s[OUTCOME] >= 0:
        return PH_OVER
    if s[SWIMMERS]:
        return PH_SWIM
    if over_limit(s, p) >= 0:
        return PH_DISCARD
    return s[STAGE]  # STAGE_* equal PH_ACTIONS, PH_TREASURE, PH_FLOOD


@njit(cache=True, forceinline=True)
def only_draw(s, p, ph):
    """The draw (A_DRAW, A_FLOOD) when it is the only legal action in phase `ph`, else -1: a
    treasure or flood draw while no hand holds a Helicopter Lift or Sandbags, the only cards that
    may be played then (F9; the lift-off needs a Lift too, F13). A player that decides without
    the legal list has nothing to choose there, and draws nothing from chance."""
    if ph != PH_TREASURE and ph != PH_FLOOD:
        return -1
    for seat in range(p[P_PLAYERS]):
        if s[HAND + HAND_STRIDE * seat + C_LIFT] + s[HAND + HAND_STRIDE * seat + C_SANDBAGS]:
            return -1
    return A_DRAW if ph == PH_TREASURE else A_FLOOD


@njit(cache=True, forceinline=True)
def seats_at(s, p, place):
    m = 0
    for seat in range(p[P_PLAYERS]):
        if s[PAWN + seat] == place:
            m |= 1 << seat
    return m


# --- where pawns can go (F5, F10, F11) -------------------------------------------------------------


@njit(cache=True)
def diver_chain_ends(s, start):
    """engine._diver_chain_ends: standing tiles next to a chain of flooded or sunk places from
    `start` (or next to `start`), other than `start`."""
    s = borrowed(s)
    wet = np.int64(s[FLOODED]) | np.int64(s[SUNK])
    stand = standing(s)
    seen = np.int64(1) << start
    frontier = seen
    ends = np.int64(0)
    while frontier:
        ring = np.int64(0)
        for q in range(NPLACES):
            if (frontier >> q) & 1:
                ring |= NEIGH[q]
        ring &= ~seen
        seen |= ring
        ends |= ring & stand
        frontier = ring & wet
    return ends & ~(np.int64(1) << start)


@njit(cache=True)
def move_targets(s, p, seat):
    """engine.move_targets: a walk to a standing neighbour; the Diver also through chains."""
    s, p = borrowed(s), borrowed(p)
    here = s[PAWN + seat]
    role = s[ROLE + seat]
    m = near(here, role) & standing(s)
    if role == ROLE_DIVER:
        m |= diver_chain_ends(s, here)
    return m


@njit(cache=True)
def fly_targets(s, p, seat):
    """engine.fly_targets (F10): the Pilot, once a turn, to any standing tile but its own, the
    ones it could walk to included."""
    s, p = borrowed(s), borrowed(p)
    if s[ROLE + seat] != ROLE_PILOT or s[FLEW]:
        return np.int64(0)
    return standing(s) & ~(np.int64(1) << s[PAWN + seat])


@njit(cache=True)
def navigate_targets(s, p, pawn):
    """engine.navigate_targets: up to two steps of the pawn's own walk; the Diver may cross one
    sunk place; the pawn ends on a standing tile other than its start."""
    s, p = borrowed(s), borrowed(p)
    role = s[ROLE + pawn]
    if role == ROLE_NAVIGATOR:
        return np.int64(0)
    here = s[PAWN + pawn]
    stand = standing(s)
    first = near(here, role)
    out = np.int64(0)
    for q in range(NPLACES):
        if not (first >> q) & 1:
            continue
        if (stand >> q) & 1:
            out |= np.int64(1) << q
        elif role != ROLE_DIVER:
            continue
        out |= near(q, role) & stand
    return out & ~(np.int64(1) << here)


@njit(cache=True)
def shore_targets(s, p, seat):
    """engine.shore_targets: flooded tiles at the player's place or next to it."""
    s, p = borrowed(s), borrowed(p)
    here = s[PAWN + seat]
    return ((np.int64(1) << here) | near(here, s[ROLE + seat])) & np.int64(s[FLOODED])


@njit(cache=True)
def escape_targets(s, p, seat):
    """engine.escape_targets (F11): where a pawn whose tile sank may swim; 0 means it drowns."""
    s, p = borrowed(s), borrowed(p)
    role = s[ROLE + seat]
    here = s[PAWN + seat]
    stand = standing(s)
    if role == ROLE_PILOT:
        return stand
    if role == ROLE_DIVER:  # the standing tiles fewest side steps away
        best = 99
        out = np.int64(0)
        for q in range(NPLACES):
            if (stand >> q) & 1:
                d = DIST[here, q]
                if d < best:
                    best = d
                    out = np.int64(0)
                if d == best:
                    out |= np.int64(1) << q
        return out
    return near(here, role) & stand


@njit(cache=True)
def give_receivers(s, p, seat):
    """engine._give_receivers: seats on the giver's tile; anyone for the Messenger."""
    s, p = borrowed(s), borrowed(p)
    if s[ROLE + seat] == ROLE_MESSENGER:
        return ((1 << p[P_PLAYERS]) - 1) & ~(1 << seat)
    return seats_at(s, p, s[PAWN + seat]) & ~(1 << seat)


@njit(cache=True)
def can_capture(s, p, seat):
    """engine._capturable (F12): the treasure `seat` can capture where it stands, or -1."""
    s, p = borrowed(s), borrowed(p)
    t = TILE_TREASURE[s[PLACE_TILE + s[PAWN + seat]]]
    if t < 0 or (s[CAPTURED] >> t) & 1:
        return -1
    if s[HAND + HAND_STRIDE * seat + t] < p[P_CAPTURE]:
        return -1
    return t


@njit(cache=True)
def can_lift_off(s, p):
    """engine._can_lift_off (F13): all four treasures and every pawn on Fools' Landing."""
    s, p = borrowed(s), borrowed(p)
    if s[CAPTURED] != 15:
        return False
    landing = s[TILE_PLACE + T_FOOLS_LANDING]
    for seat in range(p[P_PLAYERS]):
        if s[PAWN + seat] != landing:
            return False
    return True


@njit(cache=True)
def decider(s, a):
    """The seat that takes decision `a` (engine.ForbiddenIslandEngine.decider)."""
    s = borrowed(s)
    if a < A_DISCARD:
        return s[CUR]
    if a < A_SWIM:
        return (a - A_DISCARD) // 8
    if a < A_SANDBAGS:
        return (a - A_SWIM) // 24
    if a < A_LIFT:
        return (a - A_SANDBAGS) // 24
    if a < A_LIFTOFF:
        return (a - A_LIFT) // 384
    return a - A_LIFTOFF


# --- legal actions (engine.legal_actions) ------------------------------------------------------------


@njit(cache=True, forceinline=True)
def _emit(out, n, base, mask):
    for q in range(NPLACES):
        if (mask >> q) & 1:
            out[n] = base + q
            n += 1
    return n


@njit(cache=True)
def turn_actions(s, p, out, n):
    """engine._turn_actions: the current player's actions (F5, F10, F12), into out[n:]; returns the
    new n. Public: a player that lists its own candidates (expert) starts from these."""
    s, p, out = borrowed(s), borrowed(p), borrowed(out)
    me = s[CUR]
    role = s[ROLE + me]
    n = _emit(out, n, A_MOVE, move_targets(s, p, me))
    n = _emit(out, n, A_FLY, fly_targets(s, p, me))
    if role == ROLE_NAVIGATOR:
        for pawn in range(p[P_PLAYERS]):
            n = _emit(out, n, A_NAVIGATE + 24 * pawn, navigate_targets(s, p, pawn))
    shore = shore_targets(s, p, me)
    n = _emit(out, n, A_SHORE, shore)
    if role == ROLE_ENGINEER:
        for a in range(NPLACES):
            if (shore >> a) & 1:
                n = _emit(out, n, A_SHORE2 + 24 * a, shore & ~((np.int64(2) << a) - 1))
    receivers = give_receivers(s, p, me)
    for to in range(p[P_PLAYERS]):
        if (receivers >> to) & 1:
            for t in range(4):
                if s[HAND + HAND_STRIDE * me + t] > 0:
                    out[n] = A_GIVE + 4 * to + t
                    n += 1
    if can_capture(s, p, me) >= 0:
        out[n] = A_CAPTURE
        n += 1
    return n


@njit(cache=True)
def _special_actions(s, p, lo, hi, out, n):
    """engine._special_actions (F9, F13): Helicopter Lift and Sandbags of seats lo ... hi-1."""
    s, p, out = borrowed(s), borrowed(p), borrowed(out)
    stand = standing(s)
    players = p[P_PLAYERS]
    for seat in range(lo, hi):
        if s[HAND + HAND_STRIDE * seat + C_LIFT] > 0:
            if can_lift_off(s, p):
                out[n] = A_LIFTOFF + seat
                n += 1
            for first in range(players):  # each group of pawns standing together, once
                place = s[PAWN + first]
                group = seats_at(s, p, place)
                if low_seat(group) != first:
                    continue
                to = stand & ~(np.int64(1) << place)
                sub = group
                while sub:
                    n = _emit(out, n, A_LIFT + 384 * seat + 24 * sub, to)
                    sub = (sub - 1) & group
        if s[HAND + HAND_STRIDE * seat + C_SANDBAGS] > 0:
            n = _emit(out, n, A_SANDBAGS + 24 * seat, np.int64(s[FLOODED]))
    return n


@njit(cache=True)
def legal_actions(s, p, out):
    """Every action any player may take now, written to out[:n]; returns n (0 once over)."""
    s, p, out = borrowed(s), borrowed(p), borrowed(out)
    ph = phase(s, p)
    if ph == PH_OVER:
        return 0
    if ph == PH_SWIM:  # F11 first, each pawn on the sunk tile in any order; F9: no special card meanwhile
        n = 0
        for seat in range(p[P_PLAYERS]):
            if (s[SWIMMERS] >> seat) & 1:
                n = _emit(out, n, A_SWIM + 24 * seat, escape_targets(s, p, seat))
        return n
    n = 0
    if ph == PH_DISCARD:  # F8: only the player above the limit acts
        seat = over_limit(s, p)
        for c in range(DISCARDABLE):
            if s[HAND + HAND_STRIDE * seat + c] > 0:
                out[n] = A_DISCARD + 8 * seat + c
                n += 1
        return _special_actions(s, p, seat, seat + 1, out, n)
    if s[STAGE] == STAGE_ACTIONS:
        n = turn_actions(s, p, out, n)
        out[n] = A_DRAW
    elif s[STAGE] == STAGE_TREASURE:
        out[n] = A_DRAW
    else:
        out[n] = A_FLOOD
    return _special_actions(s, p, 0, p[P_PLAYERS], out, n + 1)


# --- shuffles (F3, F6, F7): Fisher-Yates on a stretch of a pile, from the shuffle stream ----------------


@njit(cache=True, forceinline=True)
def _shuffle_stretch(s, lo, hi, rng, stream):
    for i in range(hi - 1, lo, -1):
        j = lo + rand_below(rng, stream, i - lo + 1)
        t = s[i]
        s[i] = s[j]
        s[j] = t


@njit(cache=True)
def _refill_treasure(s, rng):
    """F7: the treasure discard, shuffled, becomes the draw pile."""
    s, rng = borrowed(s), borrowed(rng)
    n = 0
    for c in range(NCARDS):
        for _ in range(s[TDISC + c]):
            s[TPILE + n] = c
            n += 1
        s[TDISC + c] = 0
    s[TPILE_N] = n
    _shuffle_stretch(s, TPILE, TPILE + n, rng, STREAM_SHUFFLE)
    s[N_TSHUFFLES] += 1


@njit(cache=True)
def _push_flood_discard(s, rng):
    """F6/F7: the flood discard, shuffled, goes on top of the flood pile as a new layer."""
    s, rng = borrowed(s), borrowed(rng)
    lo = s[FPILE_N]
    n = lo
    disc = np.int64(s[FDISC])
    for tile in range(NPLACES):
        if (disc >> tile) & 1:
            s[FPILE + n] = tile
            n += 1
    s[FDISC] = 0
    s[FPILE_N] = n
    s[FLAYER + s[FLAYERS_N]] = lo
    s[FLAYERS_N] += 1
    _shuffle_stretch(s, FPILE + lo, FPILE + n, rng, STREAM_SHUFFLE)
    s[N_FSHUFFLES] += 1


# --- setup (F1, F2, F3) ----------------------------------------------------------------------------------


@njit(cache=True)
def deal(s, p, rng):
    """The kernel's own deal from the deal stream: island, flood deck, treasure deck, then roles
    (last, so that the island and decks of a game do not depend on the player count)."""
    s, p, rng = borrowed(s), borrowed(p), borrowed(rng)
    for i in range(NPLACES):
        s[PLACE_TILE + i] = i
        s[FPILE + i] = i
    _shuffle_stretch(s, PLACE_TILE, PLACE_TILE + NPLACES, rng, STREAM_DEAL)
    for place in range(NPLACES):
        s[TILE_PLACE + s[PLACE_TILE + place]] = place
    s[FPILE_N] = NPLACES
    _shuffle_stretch(s, FPILE, FPILE + NPLACES, rng, STREAM_DEAL)
    n = 0
    for c in range(NCARDS):
        for _ in range(TREASURE_DECK_COUNTS[c]):
            s[TPILE + n] = c
            n += 1
    s[TPILE_N] = n
    _shuffle_stretch(s, TPILE, TPILE + n, rng, STREAM_DEAL)
    used = 0
    for seat in range(MAX_PLAYERS):  # F2: different roles, drawn one by one
        s[ROLE + seat] = -1
        if seat >= p[P_PLAYERS]:
            continue
        k = rand_below(rng, STREAM_DEAL, 6 - seat)
        role = 0
        while True:
            if not (used >> role) & 1:
                if k == 0:
                    break
                k -= 1
            role += 1
        used |= 1 << role
        s[ROLE + seat] = role


@njit(cache=True)
def set_up(s, p, rng):
    """engine.ForbiddenIslandEngine.__post_init__ and _set_up (F1, F3) from the island, roles and decks in `s`:
    pawns on their start tiles, six floods, two cards each with Waters Rise! set aside and
    shuffled back."""
    s, p, rng = borrowed(s), borrowed(p), borrowed(rng)
    players = p[P_PLAYERS]
    s[FLOODED] = 0
    s[SUNK] = 0
    for seat in range(MAX_PLAYERS):
        s[PAWN + seat] = s[TILE_PLACE + ROLE_START_TILE[s[ROLE + seat]]] if seat < players else -1
        s[HAND_SIZE + seat] = 0
        for c in range(HAND_STRIDE):
            s[HAND + HAND_STRIDE * seat + c] = 0
    for c in range(8):
        s[TDISC + c] = 0
    s[FDISC] = 0
    s[MARK] = p[P_START_MARK]
    s[TURN] = 0
    s[CUR] = 0
    s[STAGE] = STAGE_ACTIONS
    s[ACTS] = p[P_ACTIONS]
    s[DRAWS] = 0
    s[FLOODS] = 0
    s[FLEW] = 0
    s[SWIMMERS] = 0
    s[OUTCOME] = -1
    s[CAPTURED] = 0
    for k in range(4):
        s[CAPTURE_ORDER + k] = -1
        s[CAPTURE_TURN + k] = -1
    s[N_TSHUFFLES] = 0
    s[N_FSHUFFLES] = 0
    s[WATERS_RISEN] = 0
    s[FLOODS_DRAWN] = 0
    for k in range(14):
        s[COUNT + k] = 0
    for _ in range(p[P_SETUP_FLOODS]):
        s[FPILE_N] -= 1
        tile = s[FPILE + s[FPILE_N]]
        s[FLOODED] |= 1 << s[TILE_PLACE + tile]
        s[FDISC] |= 1 << tile
    s[FLAYERS_N] = 1
    s[FLAYER] = 0
    set_aside = 0
    for _ in range(p[P_SETUP_CARDS]):
        for seat in range(players):
            s[TPILE_N] -= 1
            card = s[TPILE + s[TPILE_N]]
            while card == C_WATERS_RISE:  # set aside, the next card dealt instead
                set_aside += 1
                s[TPILE_N] -= 1
                card = s[TPILE + s[TPILE_N]]
            s[HAND + HAND_STRIDE * seat + card] += 1
            s[HAND_SIZE + seat] += 1
    if set_aside:
        n = s[TPILE_N]
        for k in range(set_aside):
            s[TPILE + n + k] = C_WATERS_RISE
        s[TPILE_N] = n + set_aside
        _shuffle_stretch(s, TPILE, TPILE + n + set_aside, rng, STREAM_SHUFFLE)
        s[N_TSHUFFLES] += 1
    s[TURN] = 1


@njit(cache=True)
def init_game(s, p, rng, seed, game):
    """Game `game` of `seed`: the random streams, the kernel's deal and the setup."""
    s, p, rng = borrowed(s), borrowed(p), borrowed(rng)
    seed_streams(rng, seed, game)
    deal(s, p, rng)
    set_up(s, p, rng)


# --- playing an action (engine.apply and its _do_* methods) ------------------------------------------------


@njit(cache=True, forceinline=True)
def _take_card(s, seat, card):
    s[HAND + HAND_STRIDE * seat + card] -= 1
    s[HAND_SIZE + seat] -= 1


@njit(cache=True, forceinline=True)
def _draw(s, p, rng):
    """engine._do_draw (F5, F6, F7): one treasure card for the current player."""
    if s[STAGE] == STAGE_ACTIONS:  # drawing ends the actions early
        s[STAGE] = STAGE_TREASURE
        s[DRAWS] = p[P_DRAWS]
    s[DRAWS] -= 1
    s[TPILE_N] -= 1
    card = s[TPILE + s[TPILE_N]]
    if card == C_WATERS_RISE:  # engine._waters_rise
        s[MARK] += 1
        s[WATERS_RISEN] += 1
        if _water_lost(s):  # F14: lost at the skull, before the flood discard is shuffled
            s[OUTCOME] = CAUSE_WATER
        elif s[FDISC]:
            _push_flood_discard(s, rng)
        s[TDISC + C_WATERS_RISE] += 1
    else:
        me = s[CUR]
        s[HAND + HAND_STRIDE * me + card] += 1
        s[HAND_SIZE + me] += 1
    if s[TPILE_N] == 0 and s[OUTCOME] < 0:  # F7; nothing is shuffled once the game is lost
        _refill_treasure(s, rng)


@njit(cache=True, forceinline=True)
def _flood(s, p, rng):
    """engine._do_flood (F5, F7, F11): a dry tile floods, a flooded one sinks."""
    s[FLOODS] -= 1
    s[FLOODS_DRAWN] += 1
    s[FPILE_N] -= 1
    tile = s[FPILE + s[FPILE_N]]
    if s[FLAYERS_N] > 0 and s[FPILE_N] == s[FLAYER + s[FLAYERS_N] - 1]:
        s[FLAYERS_N] -= 1
    place = s[TILE_PLACE + tile]
    bit = 1 << place
    if not s[FLOODED] & bit:
        s[FLOODED] |= bit
        s[FDISC] |= 1 << tile
    else:
        s[FLOODED] &= ~bit
        s[SUNK] |= bit  # F7: its card leaves the game
        s[SWIMMERS] = seats_at(s, p, place)  # F11: each swims at once, in any order
        s[OUTCOME] = loss_cause(s, p)  # F14: a sinking that loses the game ends it before any reshuffle
    if s[FPILE_N] == 0 and s[FDISC] and s[OUTCOME] < 0:
        s[FLAYERS_N] = 0
        _push_flood_discard(s, rng)


@njit(cache=True, forceinline=True)
def _water_lost(s):
    """F14's first cause: the water mark has reached the skull."""
    return s[MARK] >= SKULL


@njit(cache=True, forceinline=True)
def loss_cause(s, p):
    """engine.loss_cause (F14): the first cause that holds, in order, or -1. Inlined into
    `play_action`, after each of a game's ~60 flood cards."""
    if _water_lost(s):
        return CAUSE_WATER
    swimmers = s[SWIMMERS]
    for seat in range(p[P_PLAYERS]):
        if (swimmers >> seat) & 1 and escape_targets(s, p, seat) == 0:
            return CAUSE_DROWNED
    sunk = np.int64(s[SUNK])
    for t in range(4):
        if not (s[CAPTURED] >> t) & 1:
            a = s[TILE_PLACE + PICKUP[t, 0]]
            b = s[TILE_PLACE + PICKUP[t, 1]]
            if (sunk >> a) & 1 and (sunk >> b) & 1:
                return CAUSE_TREASURE
    if (sunk >> s[TILE_PLACE + T_FOOLS_LANDING]) & 1:
        return CAUSE_FOOLS_LANDING
    return -1


@njit(cache=True)
def _advance(s, p):
    """engine._advance (F5): the turn moves on once nothing is pending."""
    s, p = borrowed(s), borrowed(p)
    if s[OUTCOME] >= 0 or s[SWIMMERS] or over_limit(s, p) >= 0:
        return
    if s[STAGE] == STAGE_ACTIONS and s[ACTS] == 0:
        s[STAGE] = STAGE_TREASURE
        s[DRAWS] = p[P_DRAWS]
    if s[STAGE] == STAGE_TREASURE and s[DRAWS] == 0:
        s[STAGE] = STAGE_FLOOD
        s[FLOODS] = FLOOD_DRAWS[s[MARK]]  # F5: fixed now, at the start of the flood draw
    if s[STAGE] == STAGE_FLOOD and s[FLOODS] == 0:
        s[TURN] += 1
        s[CUR] = (s[CUR] + 1) % p[P_PLAYERS]
        s[STAGE] = STAGE_ACTIONS
        s[ACTS] = p[P_ACTIONS]
        s[FLEW] = 0


@njit(cache=True)
def play_action(s, p, a, rng):
    """engine.apply without the check: play legal action `a`, then F14's loss checks and the
    flow of the turn. Reshuffles draw from rng's shuffle stream.

    The draws come first: they are more than half of a game's decisions. F14's causes are
    checked only where one can start to hold, inside the draw and the flood, before the
    reshuffle the same card may cause (a lost game shuffles nothing): the water mark rises only
    on a Waters Rise! (`_draw`), and places sink and pawns start to swim only in `_flood`;
    every other action leaves the mark, the sunk places and each swimmer's way out as they were
    (a swim only takes a swimmer off the list; a capture can only end the treasure cause), and
    the game was running before it, so no cause held then (engine.apply checks after every
    action and finds the same)."""
    s, p, rng = borrowed(s), borrowed(p), borrowed(rng)
    if a == A_DRAW or a == A_FLOOD:
        if a == A_DRAW:  # of the causes only the water can hold now (`_draw` checks it)
            _draw(s, p, rng)
            s[COUNT + K_DRAW] += 1
        else:  # a cause can hold only once a tile sinks (`_flood` checks them)
            _flood(s, p, rng)
            s[COUNT + K_FLOOD] += 1
        _advance(s, p)
        return
    me = s[CUR]
    if a < A_FLY:
        s[PAWN + me] = a - A_MOVE
        kind = K_MOVE
    elif a < A_NAVIGATE:
        s[FLEW] = 1
        s[PAWN + me] = a - A_FLY
        kind = K_FLY
    elif a < A_SHORE:
        s[PAWN + (a - A_NAVIGATE) // 24] = (a - A_NAVIGATE) % 24
        kind = K_NAVIGATE
    elif a < A_SHORE2:
        s[FLOODED] &= ~(1 << (a - A_SHORE))
        kind = K_SHORE
    elif a < A_GIVE:
        s[FLOODED] &= ~(1 << ((a - A_SHORE2) // 24))
        s[FLOODED] &= ~(1 << ((a - A_SHORE2) % 24))
        kind = K_SHORE2
    elif a < A_CAPTURE:
        to = (a - A_GIVE) // 4
        t = (a - A_GIVE) % 4
        _take_card(s, me, t)
        s[HAND + HAND_STRIDE * to + t] += 1  # above the limit: the receiver discards at once (F8)
        s[HAND_SIZE + to] += 1
        kind = K_GIVE
    elif a == A_CAPTURE:
        t = can_capture(s, p, me)
        s[HAND + HAND_STRIDE * me + t] -= p[P_CAPTURE]
        s[HAND_SIZE + me] -= p[P_CAPTURE]
        s[TDISC + t] += p[P_CAPTURE]  # F7: they stay in circulation
        s[CAPTURE_ORDER + popcount(s[CAPTURED])] = t
        s[CAPTURED] |= 1 << t
        s[CAPTURE_TURN + t] = s[TURN]
        kind = K_CAPTURE
    elif a < A_SWIM:
        seat = (a - A_DISCARD) // 8
        card = (a - A_DISCARD) % 8
        _take_card(s, seat, card)
        s[TDISC + card] += 1
        kind = K_DISCARD
    elif a < A_SANDBAGS:
        seat = (a - A_SWIM) // 24
        s[SWIMMERS] &= ~(1 << seat)
        s[PAWN + seat] = (a - A_SWIM) % 24
        kind = K_SWIM
    elif a < A_LIFT:
        seat = (a - A_SANDBAGS) // 24
        _take_card(s, seat, C_SANDBAGS)
        s[TDISC + C_SANDBAGS] += 1
        s[FLOODED] &= ~(1 << ((a - A_SANDBAGS) % 24))
        kind = K_SANDBAGS
    elif a < A_LIFTOFF:
        seat = (a - A_LIFT) // 384
        passengers = ((a - A_LIFT) % 384) // 24
        to = (a - A_LIFT) % 24
        _take_card(s, seat, C_LIFT)
        s[TDISC + C_LIFT] += 1
        for pawn in range(p[P_PLAYERS]):
            if (passengers >> pawn) & 1:
                s[PAWN + pawn] = to
        kind = K_LIFT
    else:
        _take_card(s, a - A_LIFTOFF, C_LIFT)
        s[TDISC + C_LIFT] += 1
        s[OUTCOME] = CAUSE_WIN  # F13
        kind = K_LIFTOFF
    if kind <= K_GIVE or kind == K_CAPTURE or kind == K_SHORE2:  # F5: these spend an action
        s[ACTS] -= 1
    s[COUNT + kind] += 1
    _advance(s, p)


# --- the entry points every game's kernel shares (sim/kernel_api.py) ------------------------------


@njit(cache=True)
def apply_action(s, p, a, rng, log, nlog):
    """Play legal decision `a` (`play_action`), its code logged into log[nlog] while nlog >= 0
    and the log has room, as the play loop logs it; returns the new nlog."""
    s, p, rng, log = borrowed(s), borrowed(p), borrowed(rng), borrowed(log)
    if 0 <= nlog < log.size:
        log[nlog] = a
        nlog += 1
    play_action(s, p, a, rng)
    return nlog


@njit(cache=True, forceinline=True)
def is_over(s, p):
    """Whether the game has ended (F13, F14)."""
    return s[OUTCOME] >= 0


@njit(cache=True, forceinline=True)
def turn_number(s, p):
    """The turn being played."""
    return s[TURN]


@njit(cache=True, forceinline=True)
def _shuffle_policy(s, lo, hi, rng):
    """Fisher-Yates on s[lo:hi] from the policy stream."""
    for i in range(hi - 1, lo, -1):
        j = lo + rand_below(rng, STREAM_POLICY, i - lo + 1)
        x = s[i]
        s[i] = s[j]
        s[j] = x


@njit(cache=True, forceinline=True)
def _sort_stretch(t, lo, hi):
    """Insertion sort of t[lo:hi]: afterwards only which cards lie there matters, not their order."""
    for i in range(lo + 1, hi):
        j = i
        while j > lo and t[j] < t[j - 1]:
            x = t[j]
            t[j] = t[j - 1]
            t[j - 1] = x
            j -= 1


@njit(cache=True)
def sample_world(s, p, rng, out):
    """Into `out` a copy of `s` whose hidden parts are drawn at random from the policy stream of
    `rng`, consistently with what the table knows (everything is public but the order of the
    two draw piles): the treasure pile as a whole reordered, the flood pile layer by layer
    (FLAYER: after a Waters Rise! the top layer is exactly the old discard). Each stretch is
    sorted before it is shuffled, so the world depends only on what is public and on `rng`."""
    s, out, rng = borrowed(s), borrowed(out), borrowed(rng)
    for i in range(NSTATE):
        out[i] = s[i]
    _sort_stretch(out, TPILE, TPILE + out[TPILE_N])
    _shuffle_policy(out, TPILE, TPILE + out[TPILE_N], rng)
    layers = out[FLAYERS_N]
    for k in range(layers):
        lo = out[FLAYER + k]
        hi = out[FLAYER + k + 1] if k + 1 < layers else out[FPILE_N]
        _sort_stretch(out, FPILE + lo, FPILE + hi)
        _shuffle_policy(out, FPILE + lo, FPILE + hi, rng)
    if layers == 0 or out[FLAYER] > 0:  # cards below the bottom layer (none in the kernel's states)
        hi = out[FLAYER] if layers > 0 else out[FPILE_N]
        _sort_stretch(out, FPILE, FPILE + hi)
        _shuffle_policy(out, FPILE, FPILE + hi, rng)


@njit(cache=True)
def seat_outcomes(s, p, out):
    """Each player's result into out[:n], returns n, the players: 1 for a win, 0 for a loss, -1
    while the game runs. A cooperative game: the whole team wins or loses together (F13, F14)."""
    s, p, out = borrowed(s), borrowed(p), borrowed(out)
    result = -1 if s[OUTCOME] < 0 else 1 if s[OUTCOME] == CAUSE_WIN else 0
    for seat in range(p[P_PLAYERS]):
        out[seat] = result
    return p[P_PLAYERS]


# --- results ------------------------------------------------------------------------------------------------


@njit(cache=True)
def write_result(s, p, out, row):
    """One row of layout.RESULT_FIELDS."""
    s, p, out = borrowed(s), borrowed(p), borrowed(out)
    out[row, 0] = s[OUTCOME]
    out[row, 1] = s[TURN]
    out[row, 2] = popcount(s[CAPTURED])
    out[row, 3] = s[MARK]
    out[row, 4] = popcount(s[SUNK])
    out[row, 5] = s[FLOODS_DRAWN]
    out[row, 6] = s[WATERS_RISEN]
    for t in range(4):
        out[row, 7 + t] = s[CAPTURE_TURN + t]
    kinds = (K_MOVE, K_FLY, K_NAVIGATE, K_SHORE, K_SHORE2, K_GIVE, K_CAPTURE, K_DISCARD, K_SWIM, K_SANDBAGS,
             K_LIFT, K_DRAW)
    for i in range(12):
        out[row, 11 + i] = s[COUNT + kinds[i]]
