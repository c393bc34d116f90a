"""`expert`: the strongest fair heuristic of the ladder (R19: public information only).

It builds on `greedy` (goal scores in actions, shortest paths with swims) and adds:

- suits split between pawns, and meetings: any pawn salvages a needed card next to it, the
  pawn holding most of a suit collects it, and a pawn holding cards that complete another
  pawn's treasure walks to meet it and give them (R11);
- the discard piles (R14, R19): a place whose column or row was already drawn this pass cannot
  flood again before the reshuffle, and with k floods left in the pass a place whose column and
  row are both undrawn is hit with chance 1/k. A flooded King or helicopter far away is worth
  walking to in proportion to the chance that it sinks before this pawn's next turn; spare
  actions shore up the tiles that can still be hit first, bridges and needed tiles before the
  rest;
- salvage from the edge, never a place whose loss cuts a target off (R16) or strands a King,
  and a penalty for breaking a walking path home;
- the clock: the gauge and the pile position say exactly how many turns remain (R14); a pawn
  starts home when its own remaining actions barely cover the walk;
- escapes (R15) onto the tile that keeps a path home, is dry, cannot be hit again this pass
  and has most tile neighbours.

`oracle` runs the same code with `cheat=True`: it then also reads the face-down cards (it
knows where every King and needed card lies) and the undrawn pile order (exact flood hits).

Tunable weights in `pp` (0 = default; pass a tiny number such as 1e-9 for a real zero): see
`DEFAULTS`. Deterministic: it draws nothing from the policy stream.
"""

import numpy as np
from numba import njit

from policies._search import (
    INF,
    distances,
    face_up_kings,
    hit_chance,
    in_play,
    pawn_mask,
    raise_is_safe,
    reach_mask,
    step,
    tile_degree,
    turns_left,
)
from sim.layout import (
    A_END,
    A_GIVE,
    A_MOVE,
    A_RAISE,
    A_SALVAGE,
    A_SHORE,
    A_SHORE_HERE,
    A_SWIM,
    A_TAKEOFF,
    ACTS,
    CARD,
    CENTRE,
    COLP,
    CUR,
    DOWN,
    DRY,
    FLOODED,
    GAUGE_TOP,
    HAND,
    KINGPOS,
    P_ACTIONS,
    P_CPT,
    P_GRANK,
    P_PAWNS,
    P_SWIM,
    PAWN,
    PILE_POS,
    RAISED,
    ROWP,
    SEA,
    SUIT_MASK,
    TILES,
    TSTATE,
    popcount,
)

DESCRIPTION = "best fair heuristic: splits suits and meets to give, edge salvage, flood odds, clock-aware"

# pp slots (0 = default). Goal bonuses are in actions: worth walking that many extra actions.
#   W_RAISE     a King this pawn can raise
#   W_SAVE      a flooded unraised King or helicopter it can shore up this turn
#   W_COLLECT   a place next to a needed land tile
#   W_EXPLORE   a face-down place (while Kings or needed cards may hide face down)
#   W_SPREAD    taken off W_EXPLORE / W_COLLECT when another pawn is nearer
#   W_HOME      home turns urgent when my remaining actions minus the walk home <= this
#   W_CUT       penalty for a salvage that breaks a walking path from the helicopter
#   W_SAVE_FAR  base bonus of a flooded King or helicopter out of reach this turn
#   W_RISK      extra bonus of such a place times its chance to be hit before my next turn
#   W_MEET      a pawn I should meet to give or take cards that complete a treasure
#   W_EDGE      penalty per tile neighbour of a land tile to salvage (salvage from the edge)
#   W_ANY       any pawn salvages a needed card next to it when a treasure needs at least this
#               many cards (with fewer, only the suit's collector: gives cost more than they save)
#   W_BRIDGE    > 0: a flooded tile whose sinking would cut a target off is guarded like a King
W_RAISE, W_SAVE, W_COLLECT, W_EXPLORE, W_SPREAD, W_HOME, W_CUT, W_SAVE_FAR = range(8)
W_RISK, W_MEET, W_EDGE, W_ANY, W_BRIDGE = 8, 9, 10, 11, 12
# Tuned with `island-escape tune expert --trials 40 --games 3000 --players 3
# --cards-per-treasure 3` (held out: 12.9% -> 16.2%); W_ANY set by hand (3p/3 cards vs 4p/2 cards).
# Then W_SAVE 2.69 -> 11.2 and W_BRIDGE on, from a 40-trial search on the summed wins of Normal
# 2p and 3p/3 cards (training seeds 1000/1001): fewer Kings lost on Normal (seed 77, 20,000
# games: 90.4% -> 92.9%, greedy 91.7%), the hard setting 16.0% -> 16.3%.
DEFAULTS = np.array([17.94, 11.2, 5.42, 8.38, 2.68, -0.31, 4.82, 1.50, 6.54, 9.60, 0.87, 3.0, 1.0])
NWEIGHTS = 13
# What `island-escape tune expert` searches (slot: (low, high)); W_BRIDGE is a switch (> 0: on).
TUNE_SPACE = {W_RAISE: (3.0, 20.0), W_SAVE: (2.0, 16.0), W_COLLECT: (0.5, 8.0), W_EXPLORE: (1.0, 10.0),
              W_SPREAD: (0.05, 4.0), W_HOME: (-2.0, 4.0), W_CUT: (0.05, 6.0), W_SAVE_FAR: (0.5, 10.0),
              W_RISK: (0.05, 20.0), W_MEET: (0.5, 10.0), W_EDGE: (0.01, 2.0), W_ANY: (1.0, 5.0),
              W_BRIDGE: (-1.0, 1.0)}


@njit(cache=True)
def _w(pp, k):
    if k < pp.shape[0] and pp[k] != 0.0:
        return pp[k]
    return DEFAULTS[k]


@njit(cache=True)
def _suit_of(card):
    return (card - 4) // 5


@njit(cache=True)
def hit_risk(s, place, floods, cheat):
    """Chance that `place` is hit by one of the next `floods` floods. Fair: from the drawn
    column and row cards of this pass (R19). Cheat: the undrawn pile order is read."""
    if not cheat:
        return hit_chance(s, place, floods)
    pos = s[PILE_POS]
    c = place % 5 + 1
    r = place // 5 + 1
    end = min(5, pos + floods)
    for k in range(pos, end):
        if s[COLP + k] == c and s[ROWP + k] == r:
            return 1.0
    if pos + floods <= 5:
        return 0.0
    return min(1.0, (floods - (5 - pos)) / 25.0)


@njit(cache=True)
def king_places(s, kpos, cheat):
    """kpos[suit]: place of the King of that suit if known and on the island, else -1."""
    if cheat:
        for k in range(4):
            kpos[k] = s[KINGPOS + k]
    else:
        face_up_kings(s, kpos)


@njit(cache=True)
def _unseen_kings(s, kpos):
    n = 0
    for k in range(4):
        if kpos[k] < 0 and not (s[RAISED] >> k) & 1:
            n += 1
    return n


@njit(cache=True)
def _targets(s, kpos, tiles):
    """R16 targets to keep reachable: the helicopter, known unraised Kings and, while a King is
    unknown, every face-down place."""
    m = 1 << CENTRE
    for k in range(4):
        if kpos[k] >= 0 and not (s[RAISED] >> k) & 1:
            m |= 1 << np.int64(kpos[k])
    if _unseen_kings(s, kpos) > 0:
        for place in range(25):
            if s[TSTATE + place] == DOWN:
                m |= 1 << place
    return m & tiles


@njit(cache=True)
def _salvage_ok(s, p, tiles, kpos, t):
    """0: the salvage cuts a target off (R16) or strands a King; 1: allowed but breaks a walking
    path from the helicopter; 2: fine."""
    swims = p[P_SWIM] <= p[P_ACTIONS]
    after = tiles & ~(1 << t)
    need = _targets(s, kpos, after)
    if reach_mask(p, after, pawn_mask(s, p), swims) & need != need:
        return 0
    if reach_mask(p, after, 1 << CENTRE, swims) & need != need:
        return 0
    walk_before = reach_mask(p, tiles, 1 << CENTRE, False) & need
    walk_after = reach_mask(p, after, 1 << CENTRE, False) & need
    if walk_after != walk_before:
        return 1
    return 2


@njit(cache=True)
def _is_bridge(s, p, tiles, kpos, t):
    after = tiles & ~(1 << t)
    need = _targets(s, kpos, after)
    before = reach_mask(p, tiles, 1 << CENTRE, False) & need
    return (reach_mask(p, after, 1 << CENTRE, False) & need) != before


@njit(cache=True)
def _critical(s, p, kpos, tiles, bridges):
    """Places whose sinking loses the game: the helicopter, known unraised Kings and (with
    `bridges`) flooded tiles whose loss would cut a target off (R16)."""
    m = 1 << CENTRE
    for k in range(4):
        if kpos[k] >= 0 and not (s[RAISED] >> k) & 1:
            m |= 1 << np.int64(kpos[k])
    if bridges:
        swims = p[P_SWIM] <= p[P_ACTIONS]
        pawns = pawn_mask(s, p)
        for t in range(25):
            if s[TSTATE + t] == FLOODED and not (m >> t) & 1 and not (pawns >> t) & 1:
                after = tiles & ~(1 << t)
                need = _targets(s, kpos, after)
                if reach_mask(p, after, pawns, swims) & need != need:
                    m |= 1 << t
    return m


@njit(cache=True)
def _step_toward(s, p, legal, here, dist):
    swim = p[P_SWIM]
    best = dist[here]
    act = A_END
    for d in range(4):
        if (legal >> (A_MOVE + d)) & 1:
            t = step(here, d, 1)
            v = 1.0 + dist[t]
            if v < best - 1e-9 or (act == A_END and v <= best + 1e-9 and v < INF):
                best = v
                act = A_MOVE + d
    for d in range(4):
        if (legal >> (A_SWIM + d)) & 1:
            t = step(here, d, 2)
            v = swim + dist[t]
            if v < best - 1e-9 or (act == A_END and v <= best + 1e-9 and v < INF):  # moves first
                best = v
                act = A_SWIM + d
    return act


@njit(cache=True)
def _team_counts(s, p, me, team, mine, best_other, owner):
    """Per suit: cards the team holds, I hold, the most another pawn holds, and the collector
    (the pawn holding most; ties: lower index)."""
    for suit in range(4):
        team[suit] = 0
        mine[suit] = 0
        best_other[suit] = 0
        owner[suit] = -1
        top = 0
        for i in range(p[P_PAWNS]):
            c = popcount(s[HAND + i] & SUIT_MASK[suit])
            team[suit] += c
            if i == me:
                mine[suit] = c
            elif c > best_other[suit]:
                best_other[suit] = c
            if c > top:
                top = c
                owner[suit] = i


@njit(cache=True)
def _needs(s, p, team, need):
    """need[suit] = 1 while the team still lacks cards of that unraised, not-short suit;
    returns how many any-suit cards short suits still want (R12)."""
    cpt = p[P_CPT]
    m = in_play(s, p)
    held = 0
    reserved = 0
    short_need = 0
    for suit in range(4):
        need[suit] = 0
        held += team[suit]
        if (s[RAISED] >> suit) & 1:
            continue
        if popcount(m & SUIT_MASK[suit]) < cpt:
            short_need += cpt + 1
            continue
        reserved += min(team[suit], cpt)
        if team[suit] < cpt:
            need[suit] = 1
    return max(0, short_need - (held - reserved))


@njit(cache=True)
def _spare_shore(s, p, legal, tiles, kpos, need, level, cheat):
    """A shore-up for actions that would otherwise be lost: tiles that can still be hit soon
    first, bridges and needed tiles before the rest."""
    best = -1
    best_score = 0.0
    here = s[PAWN + s[CUR]]
    for d in range(5):
        a = A_SHORE_HERE if d == 4 else A_SHORE + d
        if not (legal >> a) & 1:
            continue
        t = here if d == 4 else step(here, d, 1)
        score = 1.0
        card = s[CARD + t]
        if 4 <= card < 24 and need[_suit_of(card)]:
            score = 3.0
        if _is_bridge(s, p, tiles, kpos, t):
            score = 4.0
        score += 4.0 * hit_risk(s, t, level * p[P_PAWNS], cheat)
        if score > best_score:
            best_score = score
            best = a
    return best


@njit(cache=True)
def decide(s, p, pp, legal, cheat):
    if (legal >> A_TAKEOFF) & 1:  # R13
        return A_TAKEOFF
    me = s[CUR]
    here = s[PAWN + me]
    npawns = p[P_PAWNS]
    cpt = p[P_CPT]
    tiles = np.int64(s[TILES])
    raised = s[RAISED]
    level = p[P_GRANK + s[GAUGE_TOP]]
    kpos = np.empty(4, dtype=np.int64)
    king_places(s, kpos, cheat)

    if (legal >> A_RAISE) & 1 and raise_is_safe(s, p, me, s[CARD + here]):  # R12
        return A_RAISE

    crit = _critical(s, p, kpos, tiles, _w(pp, W_BRIDGE) > 0)
    if (legal >> A_SHORE_HERE) & 1 and (crit >> here) & 1:
        return A_SHORE_HERE
    for d in range(4):
        if (legal >> (A_SHORE + d)) & 1 and (crit >> step(here, d, 1)) & 1:
            return A_SHORE + d

    init = np.full(25, INF)
    dist = np.empty(25)
    if raised == 15:
        init[CENTRE] = 0.0
        distances(p, tiles, init, dist)
        a = _step_toward(s, p, legal, here, dist)
        if a != A_END:
            return a
        return A_END

    team = np.zeros(4, dtype=np.int64)
    mine = np.zeros(4, dtype=np.int64)
    other = np.zeros(4, dtype=np.int64)
    owner = np.zeros(4, dtype=np.int64)
    _team_counts(s, p, me, team, mine, other, owner)
    need = np.zeros(4, dtype=np.int64)
    any_need = _needs(s, p, team, need)

    # gives: to a pawn here that holds more of the suit (ties: the lower index)
    my_hand = np.int64(s[HAND + me])
    if my_hand:
        for o in range(npawns):
            if o == me or s[PAWN + o] != here:
                continue
            for suit in range(4):
                a = A_GIVE + 4 * o + suit
                if not (legal >> a) & 1 or (raised >> suit) & 1:
                    continue
                theirs = popcount(s[HAND + o] & SUIT_MASK[suit])
                if theirs > mine[suit] or (theirs == mine[suit] and o < me):
                    return a
                if theirs > 0 and theirs < cpt and mine[suit] < cpt and theirs + mine[suit] >= cpt:
                    return a  # it is my turn: I give, the other pawn completes the set

    # salvage a needed next-door land tile, from the edge
    best = -1
    best_score = -1e9
    for d in range(4):
        if not (legal >> (A_SALVAGE + d)) & 1:
            continue
        t = step(here, d, 1)
        suit = _suit_of(s[CARD + t])
        mine_to_collect = need[suit] and (mine[suit] >= other[suit] or cpt >= _w(pp, W_ANY))
        if not (mine_to_collect or any_need > 0):
            continue
        ok = _salvage_ok(s, p, tiles, kpos, t)
        if ok == 0:
            continue
        score = -tile_degree(tiles, t) - (_w(pp, W_CUT) if ok == 1 else 0.0)
        if mine_to_collect:
            score += 10.0
        if score > best_score:
            best_score = score
            best = A_SALVAGE + d
    if best >= 0:
        return best

    acts = p[P_ACTIONS]
    left = s[ACTS]
    t_left = turns_left(s, p)
    my_turns = (t_left - 1) // npawns + 1
    budget = (my_turns - 1) * acts + left

    hand = my_hand
    for suit in range(4):  # a King I can raise
        k = kpos[suit]
        if k >= 0 and not (raised >> suit) & 1:
            if popcount(hand & SUIT_MASK[suit]) >= cpt or raise_is_safe(s, p, me, suit):
                init[k] = min(init[k], -_w(pp, W_RAISE))

    init_me = np.full(25, INF)
    init_me[here] = 0.0
    dme = np.empty(25)
    distances(p, tiles, init_me, dme)
    others = np.full(25, INF)
    for i in range(npawns):
        if i != me:
            others[s[PAWN + i]] = 0.0
    dother = np.empty(25)
    distances(p, tiles, others, dother)

    # flooded Kings and helicopter: now if I can, else by the chance they sink before my turn
    for place in range(25):
        if (crit >> place) & 1 and s[TSTATE + place] == FLOODED:
            near = dme[place]
            for d in range(4):
                t = step(place, d, 1)
                if t >= 0 and (tiles >> t) & 1 and dme[t] < near:
                    near = dme[t]
            if near + 1 <= left:
                bonus = _w(pp, W_SAVE)
            else:
                bonus = _w(pp, W_SAVE_FAR) + _w(pp, W_RISK) * hit_risk(s, place, level * npawns, cheat)
            init[place] = min(init[place], -bonus)
            for d in range(4):
                t = step(place, d, 1)
                if t >= 0 and (tiles >> t) & 1:
                    init[t] = min(init[t], -bonus)

    # meet a pawn to complete a treasure: cards of a suit split between us
    for suit in range(4):
        if (raised >> suit) & 1 or mine[suit] == 0 or mine[suit] >= cpt:
            continue
        for o in range(npawns):
            if o == me or s[PAWN + o] == here:
                continue
            theirs = popcount(s[HAND + o] & SUIT_MASK[suit])
            if theirs > 0 and theirs + mine[suit] >= cpt:
                init[s[PAWN + o]] = min(init[s[PAWN + o]], -_w(pp, W_MEET))

    # needed face-up land tiles: stand next to them (the suit's collector, or anyone nearer)
    down = 0
    for place in range(25):
        st = s[TSTATE + place]
        if st == DOWN:
            down += 1
        if st == SEA or st == DOWN:
            continue
        card = s[CARD + place]
        if card < 4 or card >= 24:
            continue
        suit = _suit_of(card)
        if not ((need[suit] and mine[suit] >= other[suit]) or any_need > 0):
            continue
        ok = _salvage_ok(s, p, tiles, kpos, place)
        if ok == 0:
            continue
        bonus = _w(pp, W_COLLECT) - (_w(pp, W_CUT) if ok == 1 else 0.0) - _w(pp, W_EDGE) * tile_degree(
            tiles, place)
        for d in range(4):
            t = step(place, d, 1)
            if t >= 0 and (tiles >> t) & 1:
                b = bonus
                if dother[t] < dme[t]:
                    b -= _w(pp, W_SPREAD)
                init[t] = min(init[t], -b)

    # explore while a King or a needed card may hide face down
    if down > 0 and not cheat:
        explore = _unseen_kings(s, kpos) > 0 or any_need > 0
        if not explore:
            isl = in_play(s, p)
            for suit in range(4):
                if need[suit]:
                    hidden = popcount(isl & SUIT_MASK[suit]) - team[suit]
                    for place in range(25):
                        st = s[TSTATE + place]
                        if st == DRY or st == FLOODED:
                            card = s[CARD + place]
                            if 4 <= card < 24 and _suit_of(card) == suit:
                                hidden -= 1
                    if hidden > 0:
                        explore = True
        if explore:
            for place in range(25):
                if s[TSTATE + place] == DOWN:
                    bonus = _w(pp, W_EXPLORE)
                    if dother[place] < dme[place]:
                        bonus -= _w(pp, W_SPREAD)
                    init[place] = min(init[place], -bonus)
    elif down > 0:  # oracle: only the face-down places that hold an unraised King or a needed card
        for place in range(25):
            if s[TSTATE + place] != DOWN:
                continue
            card = s[CARD + place]
            useful = card < 4 and not (raised >> card) & 1
            if 4 <= card < 24:
                useful = need[_suit_of(card)] == 1 or any_need > 0
            if useful:
                bonus = _w(pp, W_EXPLORE)
                if dother[place] < dme[place]:
                    bonus -= _w(pp, W_SPREAD)
                init[place] = min(init[place], -bonus)

    home = 0.0
    if budget - dme[CENTRE] <= _w(pp, W_HOME):
        home = -max(_w(pp, W_COLLECT), _w(pp, W_EXPLORE)) - 1.0
    init[CENTRE] = min(init[CENTRE], home)

    distances(p, tiles, init, dist)
    if init[here] > dist[here] + 1e-9:
        a = _step_toward(s, p, legal, here, dist)
        if a != A_END:
            return a
    a = _spare_shore(s, p, legal, tiles, kpos, need, level, cheat)
    if a >= 0:
        return a
    return A_END


@njit(cache=True)
def pick_escape(s, p, pp, pawn, opts, n, cheat):
    """R15: a tile with a path home, dry, not hit again soon, most tile neighbours, nearest home."""
    tiles = np.int64(s[TILES])
    init = np.full(25, INF)
    init[CENTRE] = 0.0
    dist = np.empty(25)
    distances(p, tiles, init, dist)
    level = p[P_GRANK + s[GAUGE_TOP]]
    best = 0
    best_score = -1e18
    for k in range(n):
        t = opts[k]
        score = 10.0 * tile_degree(tiles, t) - min(dist[t], 50.0)
        if dist[t] >= INF:
            score -= 1000.0
        if s[TSTATE + t] == DRY or s[TSTATE + t] == DOWN:
            score += 3.0
        else:
            score -= 20.0 * hit_risk(s, t, level, cheat)
        if score > best_score:
            best_score = score
            best = k
    return best


@njit(cache=True, _nrt=True)  # may create arrays: see policies/dispatch.py
def choose(s, p, pp, legal, rng):
    return decide(s, p, pp, legal, False)


@njit(cache=True, _nrt=True)
def escape(s, p, pp, pawn, opts, n, rng):
    return pick_escape(s, p, pp, pawn, opts, n, False)

