"""`expert` for Forbidden Island in numba: the readable expert (`expert_reference.py`) ported
over the kernel's state, decision by decision.

Every function below mirrors the function of the same name in `expert_reference.py`, in the
same order of arithmetic, so that both choose the same action whenever they see the same state
(tests/forbidden_island/test_expert_port.py plays them side by side). The reference documents
the reasoning; this file only says where the port differs in form (masks instead of sets, a
table of distances filled on demand instead of a dictionary). Only public parts of the state
are read: hands, tiles, pawns, the treasure discard, the flood discard and the sizes of the
flood pile's layers with their cards (never the order inside the treasure or flood pile).
"""

from __future__ import annotations

import numpy as np
from numba import njit

import sim.forbidden_island.numba_cache  # noqa: F401  (before any Forbidden Island @njit)
from policies.forbidden_island.expert_reference import (
    BAG_INSTEAD,
    CAPTURE,
    DRY_BONUS,
    FAR,
    FUTURE_RISK,
    GIVE,
    GIVE_PER_CARD,
    LIFT_SPARE,
    LOSING_TILE,
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
)
from sim.forbidden_island.kernel import diver_chain_ends, phase, standing
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
    ROLE_EXPLORER,
    ROLE_MESSENGER,
    ROLE_PILOT,
    SKULL,
    SUNK,
    T_FOOLS_LANDING,
    TDISC,
    TILE_PLACE,
    TILE_TREASURE,
    TREASURE_DECK_COUNTS,
)

MAX_GOALS = 16  # per seat: four treasures, three partners each, and a pickup pull
THREAT_SLOTS = 5  # place_score looks at the five most pressing flooded tiles

# Board layout: one float64 array `b` and one int64 array `bi` per decision.
# bi: [0:24] layer above (-1 not in pile), [24:48] layer size, [48:52] collector,
#     [52:76] threatened tiles sorted, [76] threatened count, [77:81] pawn places,
#     [81:85] roles, [85] players, [86:86+4*7] counts, [114:121] team, [121] pile size,
#     [122] discard mask, [123] n discard, [124] captured mask, [125] treasure discard base copy,
#     goals: [200 + seat*MAX_GOALS + g] goal place mask, [280 + seat] goal count,
#     distance table: [300 + (seat*(MAX_GOALS+THREAT_SLOTS) + slot)*24 + place], filled flags at [3000+]
# b:  [0:24] tile value, [24:48] worth of threatened (by sorted slot), [48:72] goal weights (x4 seats
#     by 16 -> 48..112), scalars at 120+.
BI_ABOVE, BI_SIZE, BI_COLLECTOR, BI_THR, BI_NTHR, BI_PAWN, BI_ROLE, BI_PLAYERS = 0, 24, 48, 52, 76, 77, 81, 85
BI_COUNTS, BI_TEAM, BI_PILE, BI_DISC, BI_NDISC, BI_CAPT = 86, 114, 121, 122, 123, 124
BI_GOAL, BI_NGOAL, BI_DIST = 200, 280, 300
SLOTS = MAX_GOALS + THREAT_SLOTS
BI_FILLED = BI_DIST + 4 * SLOTS * 24
NBI = BI_FILLED + 4 * SLOTS
B_VALUE, B_THRW, B_GOALW = 0, 24, 48
B_RISE, B_FNOW, B_FAFTER, B_FNEXT, B_WRISE = 120, 121, 122, 123, 124
B_W = 130  # the weights in use (a policy parameter, or the reference's constant when it is 0)
NB = B_W + 32
# The weights, by slot of the policy's parameter array; 0 there means the reference's value.
(W_LOSING, W_PICKUP_TWIN, W_PLAIN, W_TO_LANDING, W_TO_CAPTURE, W_TO_COMPLETING, W_TO_TRADE, W_TO_DEFAULT,
 W_GIVE, W_GIVE_PER_CARD, W_FUTURE, W_SOON, W_PULL, W_LIFT_SPARE, W_SANDBAGS_KEEP, W_DRY, W_RISKY,
 W_OPEN, W_BAG_INSTEAD) = range(19)
DEFAULT_WEIGHTS = np.zeros(32, dtype=np.float64)
DEFAULT_WEIGHTS[:19] = (LOSING_TILE, PICKUP_WITH_TWIN, PLAIN_TILE, TO_LANDING, TO_CAPTURE, TO_COMPLETING_TRADE,
                        TO_TRADE, TO_DEFAULT, GIVE, GIVE_PER_CARD, FUTURE_RISK, SOON_WEIGHT, PULL, LIFT_SPARE,
                        SANDBAGS_KEEP, DRY_BONUS, RISKY_PENALTY, OPEN_SIDE, BAG_INSTEAD)


@njit(cache=True, forceinline=True)
def _bit(mask, i):
    return (np.int64(mask) >> i) & 1


@njit(cache=True)
def _steps(s, role, place, stand):
    """expert_reference.Board.steps."""
    m = (NEIGH8[place] if role == ROLE_EXPLORER else NEIGH[place]) & stand
    if role == ROLE_DIVER:
        m |= diver_chain_ends(s, place)
        m &= ~(np.int64(1) << place)
    return m


@njit(cache=True)
def _bfs(s, role, goals, stand, out):
    """expert_reference.Board.distances into out[0:24] (FAR where cut off)."""
    for q in range(24):
        out[q] = FAR
    frontier = goals & stand
    for q in range(24):
        if _bit(frontier, q):
            out[q] = 0
    seen = frontier
    d = 0
    while frontier:
        d += 1
        ring = np.int64(0)
        for q in range(24):
            if _bit(frontier, q):
                ring |= _steps(s, role, q, stand)
        ring &= ~seen
        for q in range(24):
            if _bit(ring, q):
                out[q] = d
        seen |= ring
        frontier = ring
    if role == ROLE_PILOT and (goals & stand):
        for q in range(24):
            if _bit(stand, q):
                out[q] = 0 if _bit(goals, q) else min(out[q], 1)


@njit(cache=True)
def _distance(s, b, bi, seat, slot, goals, place):
    """Distance of `seat`'s pawn role from `place` to goal mask `goals`, cached in table slot."""
    row = seat * SLOTS + slot
    base = BI_DIST + row * 24
    if bi[BI_FILLED + row] == 0:
        _bfs(s, bi[BI_ROLE + seat], goals, standing(s), bi[base:base + 24])
        bi[BI_FILLED + row] = 1
    return bi[base + place]


@njit(cache=True)
def _escapes(s, bi, seat, place):
    """expert_reference.Board.escapes as a place mask."""
    role = bi[BI_ROLE + seat]
    stand = standing(s)
    if role == ROLE_PILOT or role == ROLE_DIVER:
        return stand & ~(np.int64(1) << place)
    return (NEIGH8[place] if role == ROLE_EXPLORER else NEIGH[place]) & stand


@njit(cache=True)
def _shore_reach(s, role, tile):
    at = s[TILE_PLACE + tile]
    return ((np.int64(1) << at) | (NEIGH8[at] if role == ROLE_EXPLORER else NEIGH[at])) & standing(s)


@njit(cache=True)
def _flooded_tile(s, tile):
    return _bit(s[FLOODED], s[TILE_PLACE + tile]) == 1


@njit(cache=True)
def _sunk_tile(s, tile):
    return _bit(s[SUNK], s[TILE_PLACE + tile]) == 1


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def _risk_soon(s, b, bi, tile):
    now = _risk_now(s, b, bi, tile)
    later = _drawn_within(b, bi, tile, np.int64(b[B_FNOW] + b[B_FNEXT]), 0)
    return max(now, later)


@njit(cache=True)
def _urgency(s, b, bi, tile):
    now = _risk_now(s, b, bi, tile)
    later = max(_risk_soon(s, b, bi, tile) - now, 0.0)
    return now + b[B_W + W_SOON] * later + b[B_W + W_FUTURE] * _bit(bi[BI_DISC], tile)


@njit(cache=True)
def _count(bi, seat, card):
    return bi[BI_COUNTS + 7 * seat + card]


@njit(cache=True)
def _uncaptured(bi, t):
    return _bit(bi[BI_CAPT], t) == 0


@njit(cache=True)
def _card_value(s, b, bi, seat, card, capture_cards):
    lifts = bi[BI_TEAM + C_LIFT]
    if card == C_LIFT:
        return 60.0 if lifts <= 1 else b[B_W + W_LIFT_SPARE] if lifts == 2 else 20.0
    if card == C_SANDBAGS:
        return b[B_W + W_SANDBAGS_KEEP]
    if not _uncaptured(bi, card):
        return 0.0
    collector = bi[BI_COLLECTOR + card]
    best = _count(bi, collector, card)
    if bi[BI_TEAM + card] > capture_cards and seat != collector:
        return 2.0 + _count(bi, seat, card)
    value = 10.0 + 5.0 * best + (6.0 if seat == collector else 0.0)
    value -= 3.0 * s[TDISC + card]
    return value


@njit(cache=True)
def _pickups_standing(s, t):
    m = np.int64(0)
    for k in range(2):
        tile = PICKUP[t, k]
        if not _sunk_tile(s, tile):
            m |= np.int64(1) << s[TILE_PLACE + tile]
    return m


@njit(cache=True)
def _add_goal(b, bi, seat, weight, mask):
    g = bi[BI_NGOAL + seat]
    bi[BI_GOAL + seat * MAX_GOALS + g] = mask
    b[B_GOALW + seat * MAX_GOALS + g] = weight
    bi[BI_NGOAL + seat] = g + 1


@njit(cache=True)
def _goals(s, p, b, bi, seat):
    """expert_reference.Board.goals, written into the seat's goal slots."""
    bi[BI_NGOAL + seat] = 0
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


@njit(cache=True)
def _place_score(s, p, b, bi, seat, place, actions, shored):
    """expert_reference.Board.place_score; `shored` is a tile mask."""
    role = bi[BI_ROLE + seat]
    score = 0.0
    for g in range(bi[BI_NGOAL + seat]):
        d = _distance(s, b, bi, seat, g, bi[BI_GOAL + seat * MAX_GOALS + g], place)
        score -= b[B_GOALW + seat * MAX_GOALS + g] * min(d, 6)
    best_now = 0.0
    for k in range(min(bi[BI_NTHR], THREAT_SLOTS)):
        tile = bi[BI_THR + k]
        if _bit(shored, tile):
            continue
        reach = _shore_reach(s, role, tile)
        if reach == 0:
            continue
        worth = b[B_THRW + k]
        d = _distance(s, b, bi, seat, MAX_GOALS + k, reach, place)
        if d <= actions - 1:
            best_now = max(best_now, worth)
        score -= b[B_W + W_PULL] * worth * min(d, 4)
    score += best_now
    if bi[BI_CAPT] != 15 and role != ROLE_PILOT and role != ROLE_DIVER:
        if _escapes(s, bi, seat, place) == 0 and _bit(s[FLOODED], place):
            score -= b[B_W + W_LOSING] * _risk_soon(s, b, bi, s[PLACE_TILE + place])
    return score


@njit(cache=True)
def _open_sides(s, place):
    m = NEIGH[place] & standing(s)
    n = 0
    for q in range(24):
        n += _bit(m, q)
    return n


@njit(cache=True)
def _tile_value(s, b, bi, tile):
    losing = b[B_W + W_LOSING]
    if tile == T_FOOLS_LANDING:
        return losing
    value = b[B_W + W_PLAIN]
    t = TILE_TREASURE[tile]
    if t >= 0 and _uncaptured(bi, t):
        twin = PICKUP[t, 0] if PICKUP[t, 1] == tile else PICKUP[t, 1]
        value = losing if _sunk_tile(s, twin) else b[B_W + W_PICKUP_TWIN]
    place = s[TILE_PLACE + tile]
    for seat in range(bi[BI_PLAYERS]):
        if bi[BI_PAWN + seat] == place and _escapes(s, bi, seat, place) == 0:
            value = max(value, losing)
    return value


@njit(cache=True)
def _board(s, p, b, bi):
    """expert_reference.Board.__init__: everything the choice reads, from the public state."""
    players = p[P_PLAYERS]
    bi[BI_PLAYERS] = players
    bi[BI_CAPT] = s[CAPTURED]
    for seat in range(players):
        bi[BI_PAWN + seat] = s[PAWN + seat]
        bi[BI_ROLE + seat] = s[ROLE + seat]
    for c in range(7):
        bi[BI_TEAM + c] = 0
    for seat in range(4):
        for c in range(7):
            n = s[HAND + HAND_STRIDE * seat + c] if seat < players else 0
            bi[BI_COUNTS + 7 * seat + c] = n
            bi[BI_TEAM + c] += n
    for row in range(4 * SLOTS):
        bi[BI_FILLED + row] = 0
    # flood odds: the public layers (sets of cards, bottom layer first in the kernel)
    for tile in range(24):
        bi[BI_ABOVE + tile] = -1
        bi[BI_SIZE + tile] = 0
    top = s[FPILE_N]
    nl = s[FLAYERS_N]
    for i in range(nl):
        lo = s[FLAYER + i]
        hi = s[FLAYER + i + 1] if i + 1 < nl else top
        for j in range(lo, hi):
            tile = s[FPILE + j]
            bi[BI_ABOVE + tile] = top - hi
            bi[BI_SIZE + tile] = hi - lo
    bi[BI_PILE] = top
    bi[BI_DISC] = s[FDISC]
    nd = 0
    for tile in range(24):
        nd += _bit(s[FDISC], tile)
    bi[BI_NDISC] = nd
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
    for tile in range(24):
        b[B_VALUE + tile] = _tile_value(s, b, bi, tile) if not _sunk_tile(s, tile) else 0.0
    # threatened: flooded tiles by worth (value x urgency) descending, then tile index
    nt = 0
    for tile in range(24):
        if _flooded_tile(s, tile):
            worth = b[B_VALUE + tile] * _urgency(s, b, bi, tile)
            k = nt
            while k > 0 and b[B_THRW + k - 1] < worth:
                b[B_THRW + k] = b[B_THRW + k - 1]
                bi[BI_THR + k] = bi[BI_THR + k - 1]
                k -= 1
            b[B_THRW + k] = worth
            bi[BI_THR + k] = tile
            nt += 1
    bi[BI_NTHR] = nt
    for seat in range(players):
        _goals(s, p, b, bi, seat)


# --- the choice -------------------------------------------------------------------------------------------


@njit(cache=True)
def _is_legal(legal, n, a):
    for i in range(n):
        if legal[i] == a:
            return True
    return False


@njit(cache=True)
def _lift_code(seat, pawns_mask, place):
    return A_LIFT + 384 * seat + 24 * pawns_mask + place


@njit(cache=True)
def choose_code(s, p, legal, n, b, bi):
    """expert_reference.choose over the kernel state: one code of legal[:n]. `b` (NB floats)
    and `bi` (NBI ints) are scratch arrays the caller keeps for the whole game."""
    if n == 1:
        return legal[0]
    _board(s, p, b, bi)
    a = _special_card(s, p, b, bi, legal, n)
    if a >= 0:
        return a
    ph = phase(s, p)
    if ph == PH_SWIM:
        return _swim(s, p, b, bi, legal, n)
    if ph == PH_DISCARD:
        return _discard(s, p, b, bi, legal, n)
    if ph == PH_ACTIONS:
        return _turn_action(s, p, b, bi, legal, n)
    for i in range(n):
        if legal[i] == A_DRAW or legal[i] == A_FLOOD:
            return legal[i]
    return legal[0]


@njit(cache=True)
def _special_card(s, p, b, bi, legal, n):
    for i in range(n):
        if legal[i] >= A_LIFTOFF:
            best = legal[i]
            for j in range(n):
                if legal[j] >= A_LIFTOFF and legal[j] < best:
                    best = legal[j]
            return best
    ph = phase(s, p)
    if ph == PH_FLOOD:
        a = _rescue(s, p, b, bi, legal, n)
        if a >= 0:
            return a
    if (ph == PH_ACTIONS or ph == PH_TREASURE or ph == PH_FLOOD) and bi[BI_TEAM + C_LIFT] > 0:
        a = _lift_to_landing(s, p, b, bi, legal, n)
        if a >= 0:
            return a
        if ph == PH_ACTIONS:
            a = _lift_to_save(s, p, b, bi, legal, n)
            if a < 0:
                a = _lift_to_capture(s, p, b, bi, legal, n)
            if a < 0:
                a = _lift_to_trade(s, p, b, bi, legal, n)
            return a
    return -1


@njit(cache=True)
def _rescue(s, p, b, bi, legal, n):
    players = bi[BI_PLAYERS]
    for k in range(bi[BI_NTHR]):
        tile = bi[BI_THR + k]
        if b[B_THRW + k] <= 0 or b[B_VALUE + tile] < b[B_W + W_LOSING] or _risk_now(s, b, bi, tile) <= 0:
            continue
        place = s[TILE_PLACE + tile]
        for seat in range(players):
            if _count(bi, seat, C_SANDBAGS):
                a = A_SANDBAGS + 24 * seat + place
                if _is_legal(legal, n, a):
                    return a
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
                if _count(bi, seat, C_LIFT):
                    a = _lift_code(seat, stranded, to)
                    if _is_legal(legal, n, a):
                        return a
    return -1


@njit(cache=True)
def _safe_spot(s, p, b, bi, seat):
    best = s[TILE_PLACE + T_FOOLS_LANDING]
    found = False
    best_score = 0.0
    stand = standing(s)
    for q in range(24):
        if not _bit(stand, q) or q == bi[BI_PAWN + seat]:
            continue
        tile = s[PLACE_TILE + q]
        score = _place_score(s, p, b, bi, seat, q, 0, 0) + b[B_W + W_DRY] * (0 if _bit(s[FLOODED], q) else 1) \
            - b[B_W + W_RISKY] * _risk_soon(s, b, bi, tile) + b[B_W + W_OPEN] * _open_sides(s, q)
        if not found or score > best_score:
            best, best_score, found = q, score, True
    return best


@njit(cache=True)
def _lift_to_landing(s, p, b, bi, legal, n):
    if bi[BI_CAPT] != 15 or bi[BI_TEAM + C_LIFT] < 2:
        return -1
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
        if _count(bi, seat, C_LIFT):
            a = _lift_code(seat, best_mask, landing)
            if _is_legal(legal, n, a):
                return a
    return -1


@njit(cache=True)
def _lift_to_save(s, p, b, bi, legal, n):
    me = s[CUR]
    role = bi[BI_ROLE + me]
    if s[ACTS] < 1 or (role == ROLE_PILOT and not s[FLEW]):
        return -1
    for k in range(bi[BI_NTHR]):
        tile = bi[BI_THR + k]
        if b[B_VALUE + tile] < b[B_W + W_LOSING] or _risk_soon(s, b, bi, tile) <= 0.0:
            continue
        reach = _shore_reach(s, role, tile)
        # a distance to `reach` from the pawn: a fresh search (not one of the cached goals)
        d = _reach_distance(s, role, reach, bi[BI_PAWN + me])
        if d <= s[ACTS] - 1:
            return -1
        for seat in range(bi[BI_PLAYERS]):
            if _count(bi, seat, C_LIFT):
                a = _lift_code(seat, 1 << me, s[TILE_PLACE + tile])
                if _is_legal(legal, n, a):
                    return a
    return -1


@njit(cache=True)
def _reach_distance(s, role, goals, place):
    out = np.empty(24, dtype=np.int64)
    _bfs(s, role, goals, standing(s), out)
    return out[place]


@njit(cache=True)
def _lift_to_capture(s, p, b, bi, legal, n):
    me = s[CUR]
    role = bi[BI_ROLE + me]
    if bi[BI_TEAM + C_LIFT] < 2 or role == ROLE_PILOT:
        return -1
    for t in range(4):
        if not _uncaptured(bi, t) or _count(bi, me, t) < p[P_CAPTURE]:
            continue
        pickups = _pickups_standing(s, t)
        if pickups == 0 or _reach_distance(s, role, pickups, bi[BI_PAWN + me]) < s[ACTS]:
            continue
        for seat in range(bi[BI_PLAYERS]):
            if _count(bi, seat, C_LIFT):
                for k in range(2):
                    tile = PICKUP[t, k]
                    if _sunk_tile(s, tile):
                        continue
                    a = _lift_code(seat, 1 << me, s[TILE_PLACE + tile])
                    if _is_legal(legal, n, a):
                        return a
    return -1


@njit(cache=True)
def _lift_to_trade(s, p, b, bi, legal, n):
    me = s[CUR]
    role = bi[BI_ROLE + me]
    if bi[BI_TEAM + C_LIFT] < 2 or role == ROLE_MESSENGER or role == ROLE_PILOT or s[ACTS] < 2:
        return -1
    for t in range(4):
        if not _uncaptured(bi, t):
            continue
        to = bi[BI_COLLECTOR + t]
        held = _count(bi, me, t)
        if to == me or not held or held + _count(bi, to, t) < p[P_CAPTURE]:
            continue
        there = bi[BI_PAWN + to]
        if there == bi[BI_PAWN + me] or \
                _reach_distance(s, role, np.int64(1) << there, bi[BI_PAWN + me]) <= s[ACTS] - 1:
            continue
        for seat in range(bi[BI_PLAYERS]):
            if _count(bi, seat, C_LIFT):
                a = _lift_code(seat, 1 << me, there)
                if _is_legal(legal, n, a):
                    return a
    return -1


@njit(cache=True)
def _swim(s, p, b, bi, legal, n):
    best, best_score = -1, 0.0
    for i in range(n):
        a = legal[i]
        seat = (a - A_SWIM) // 24
        q = (a - A_SWIM) % 24
        tile = s[PLACE_TILE + q]
        score = (_place_score(s, p, b, bi, seat, q, 0, 0) + b[B_W + W_DRY] * (0 if _bit(s[FLOODED], q) else 1)
                 - b[B_W + W_RISKY] * _risk_soon(s, b, bi, tile) + b[B_W + W_OPEN] * _open_sides(s, q))
        if best < 0 or score > best_score or (score == best_score and a < best):
            best, best_score = a, score
    return best


@njit(cache=True)
def _discard(s, p, b, bi, legal, n):
    worst, worst_value = -1, 0.0
    seat = -1
    for i in range(n):
        a = legal[i]
        if A_DISCARD <= a < A_SWIM:
            seat = (a - A_DISCARD) // 8
            v = _card_value(s, b, bi, seat, (a - A_DISCARD) % 8, p[P_CAPTURE])
            if worst < 0 or v < worst_value or (v == worst_value and a < worst):
                worst, worst_value = a, v
    if worst_value >= b[B_W + W_BAG_INSTEAD] or (worst - A_DISCARD) % 8 == C_SANDBAGS:
        best, best_score = -1, 0.0
        for i in range(n):
            a = legal[i]
            if A_SANDBAGS <= a < A_LIFT:
                tile = s[PLACE_TILE + (a - A_SANDBAGS) % 24]
                score = b[B_VALUE + tile] * (_urgency(s, b, bi, tile) + 0.01)
                if best < 0 or score > best_score or (score == best_score and a < best):
                    best, best_score = a, score
        if best >= 0:
            return best
    return worst


@njit(cache=True)
def _turn_action(s, p, b, bi, legal, n):
    best, best_score = -1, 0.0
    for i in range(n):
        a = legal[i]
        if a > A_DRAW:
            continue
        score = _score(s, p, b, bi, a)
        if best < 0 or score > best_score or (score == best_score and a < best):
            best, best_score = a, score
    return best


@njit(cache=True)
def _score(s, p, b, bi, a):
    me = s[CUR]
    here = bi[BI_PAWN + me]
    k = s[ACTS]
    before = _place_score(s, p, b, bi, me, here, k, 0)
    if a == A_CAPTURE:
        return CAPTURE
    if a == A_DRAW:
        return _place_score(s, p, b, bi, me, here, 0, 0) - before
    if a < A_NAVIGATE:
        fly = a >= A_FLY
        q = a - (A_FLY if fly else A_MOVE)
        return _place_score(s, p, b, bi, me, q, k - 1, 0) - before - (0.01 if fly else 0.0)
    if A_SHORE <= a < A_GIVE:
        if a < A_SHORE2:
            t1 = s[PLACE_TILE + a - A_SHORE]
            worth = 0.0 + (b[B_VALUE + t1] * _urgency(s, b, bi, t1) + 0.5)
            shored = np.int64(1) << t1
        else:
            t1 = s[PLACE_TILE + (a - A_SHORE2) // 24]
            t2 = s[PLACE_TILE + (a - A_SHORE2) % 24]
            worth = 0.0 + (b[B_VALUE + t1] * _urgency(s, b, bi, t1) + 0.5) \
                + (b[B_VALUE + t2] * _urgency(s, b, bi, t2) + 0.5)
            shored = (np.int64(1) << t1) | (np.int64(1) << t2)
        return worth + _place_score(s, p, b, bi, me, here, k - 1, shored) - before
    spent = _place_score(s, p, b, bi, me, here, k - 1, 0) - before
    if A_GIVE <= a < A_CAPTURE:
        to = (a - A_GIVE) // 4
        card = (a - A_GIVE) % 4
        return _give_score(s, p, b, bi, me, to, card) + spent
    pawn = (a - A_NAVIGATE) // 24
    q = (a - A_NAVIGATE) % 24
    gain = _place_score(s, p, b, bi, pawn, q, 0, 0) - _place_score(s, p, b, bi, pawn, bi[BI_PAWN + pawn], 0, 0)
    return 0.9 * gain + spent


@njit(cache=True)
def _give_score(s, p, b, bi, giver, to, card):
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
    b[B_W:] = DEFAULT_WEIGHTS
    return b, np.zeros(NBI, dtype=np.int64)


# --- the registry's interface (policies/forbidden_island/registry.py) ---------------------------------------

DESCRIPTION = "goal-directed fair player: flood odds, collectors, special cards just in time (issue 14)"
WEIGHTS = 32  # the policy parameter slots proper: the W_* weights (0 = the reference's value)


def default_params() -> np.ndarray:
    """The policy's parameter array: WEIGHTS slots, then the scratch space `choose` works in.
    The play loop copies it per chunk of games, so every thread has its own scratch."""
    return np.zeros(WEIGHTS + NB + NBI, dtype=np.float64)


@njit(cache=True)
def choose(s, p, pp, acts, n, rng):
    """The play loop's interface: the index into acts[:n] of the expert's choice. The scratch
    arrays live at the end of `pp` (an int64 view of the float64 slots: nothing allocated)."""
    b = pp[WEIGHTS:WEIGHTS + NB]
    bi = pp[WEIGHTS + NB:WEIGHTS + NB + NBI].view(np.int64)
    for i in range(WEIGHTS):
        b[B_W + i] = pp[i] if pp[i] != 0.0 else DEFAULT_WEIGHTS[i]
    code = choose_code(s, p, acts, n, b, bi)
    for i in range(n):
        if acts[i] == code:
            return i
    return 0
