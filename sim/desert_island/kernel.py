"""The numba kernel: Desert Island on fixed-size int arrays, for millions of games.

The reference engine (`engine.py`) is the definition of the game; this plays the same game step
for step (the lockstep check, `sim/desert_island/lockstep.py`, holds it to that: the same legal
codes before every decision, the same state after every step). Each rule cites its ruling D1-D22
(docs/RULES-DI.md) where the engine's does. A game is the int32 state `s` and the parameters `p`
of `layout.py`; every decision is one action code (`actions.py`, D10). Randomness is passed in
(`rng`, sim/streams.py): the deal stream shuffles as `Deal.random` does, the draw stream picks a
card taken blind from a hand (D11), the policy stream is a player's.

The engine goes on from one step to the next by calling the next method; here every step no one
chooses is a `GO_*` number that `_run` plays in a loop until a decision is open, so that nothing
recurses. The entry points are those every game's kernel shares (sim/kernel_api.py): `init_game`,
`legal_actions`, `apply_action`, `is_over`, `turn_number`, `sample_world`, `write_result`,
`seat_outcomes`, and `decider`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.desert_island import actions as A
from sim.desert_island.engine import (
    BOAR_WOUNDS,
    BOSUN,
    BOSUN_FOOD,
    CAP,
    CAVE,
    HILL,
    HILL_FIRE,
    JUNGLE,
    JUNGLE_MEAL,
    KID,
    LADLE,
    MALARIA_WOUNDS,
    MAX_WEEKS,
    MILADY,
    SNOB,
    STORM_WOUNDS,
    STREAM,
    STREAM_FOOD,
    SWAMP,
    SWAMP_LOSS,
)
from sim.desert_island.layout import (
    ACTED,
    ACTOR,
    ALIVE,
    AT,
    BOAR,
    CHOICE,
    DEALT_CARD,
    DEALT_TO,
    DECIDING,
    DRAWN,
    END_LOST,
    END_RESCUED,
    END_STRANDED,
    ENDING,
    ENEMIES,
    F_ARMED_I,
    F_ATTACKER,
    F_BONUS,
    F_CARDS,
    F_CLAIM,
    F_DEFENDER,
    F_FLED,
    F_NCARDS,
    F_NORDER,
    F_ON,
    F_ORDER,
    F_SIDE,
    F_WAIT,
    F_WAIT_I,
    F_WAIT_N,
    F_WON,
    FACE_UP,
    FATE,
    FATE_HEAD,
    FATE_N,
    FATE_ORDER,
    FIRE,
    FIST_LEFT,
    FIST_OF,
    FIST_RIGHT,
    FOOD,
    FOOD_KIND,
    FRIENDS,
    GARDEN_KIND,
    GIVER,
    GO,
    GO_AFTER_FATE,
    GO_AFTER_FIGHT,
    GO_CONTINUE_DEAL,
    GO_DECIDE,
    GO_END_OF_TURN,
    GO_FINISH_TURN,
    GO_FLEE_POINT,
    GO_HUNGER,
    GO_LAST_CARD,
    GO_LOOKOUT,
    GO_NEXT_ACTOR,
    GO_NEXT_JOINER,
    GO_NEXT_MONKEY,
    GO_NEXT_OFFER,
    GO_NEXT_RAT,
    GO_NEXT_WEAPON,
    GO_START_WEEK,
    GO_WOUND_LOSERS,
    IN_BOX,
    IN_DECK,
    ITEM_ORDER,
    ITEM_TOP,
    KEPT_CARD,
    LENS_KIND,
    MALARIA,
    MAX_LEGAL,
    MEDICINE_KIND,
    NDEALT,
    NDRAWN,
    NDRAWS,
    NPLAYED,
    NSTATE,
    OFFER_BY,
    OFFER_GIVEN,
    OFFER_ON,
    OFFER_TO,
    OFFER_WANTED,
    ONCE,
    OWNER,
    P_FATE_CHARACTER,
    P_FATE_EVENT,
    P_FATE_MARKER,
    P_FATE_NUMBER,
    P_ITEM_KIND,
    P_ITEM_NAME,
    P_ITEM_USES,
    P_ITEM_VALUE,
    P_PLAYERS,
    P_SHIPS_TO_RESCUE,
    P_START_FOOD,
    P_STRENGTH,
    P_SURVIVAL,
    PH_ABILITY,
    PH_ACT,
    PH_ANSWER,
    PH_CLAIM,
    PH_DEAL,
    PH_FISTS,
    PH_FLEE,
    PH_JOIN,
    PH_KEEP,
    PH_MONKEY,
    PH_NEIGHBOUR,
    PH_OFFER,
    PH_OVER,
    PH_PICK,
    PH_WEAPON,
    PH_YIELD,
    PHASE,
    PLACE,
    PLACE_TOKENS,
    PLAYED_BY,
    PLAYED_CARD,
    QUEUE,
    QUEUE_I,
    QUEUE_N,
    R_ALIVE,
    R_CHARACTER,
    R_DEATHS,
    R_ENDING,
    R_FIRE,
    R_SCORE,
    R_SHIPS,
    R_WEEKS,
    R_WINNERS,
    RAT_LEFT,
    RAT_RIGHT,
    RAT_SPLIT,
    RATS,
    RECEIVERS,
    RECV_I,
    RECV_N,
    ROLES,
    SEAT_OF,
    SHIP,
    SHIPS,
    SHOVEL_KIND,
    SHOWN,
    START_PLACE,
    STORM,
    STREAM_DEAL,
    STREAM_DRAW,
    STREAM_POLICY,
    THEN,
    TOKENS,
    TORCH,
    TRAP_KIND,
    TREASURE_KIND,
    UNSET,
    VICTIM,
    WEAPON_KIND,
    WEEK,
    WOOD,
    WOUNDS,
)
from sim.desert_island.rules import FATE_CARDS, ITEM_CARDS
from sim.desert_island.scoring import PSYCHOPATH_POINTS
from sim.streams import rand_below, seed_streams

GOODS = A.GOODS
MAX_FOOD = A.MAX_FOOD
MAX_TRADE_FOOD = A.MAX_TRADE_FOOD
CHARACTERS_GOODS = GOODS * GOODS

# --- small pieces ----------------------------------------------------------------------------------


@njit(cache=True)
def _living(s, p, out):
    """The living characters in turn order (by place, from the Beach) into out; returns how many."""
    n = 0
    for place in range(p[P_PLAYERS]):
        c = s[AT + place]
        if s[ALIVE + c]:
            out[n] = c
            n += 1
    return n


@njit(cache=True)
def _any_alive(s, p):
    for c in range(p[P_PLAYERS]):
        if s[ALIVE + c]:
            return True
    return False


@njit(cache=True)
def _ask(s, phase, c):
    s[PHASE] = phase
    s[DECIDING] = c
    s[GO] = GO_DECIDE


@njit(cache=True)
def _end(s, ending):
    if s[ENDING] < 0:
        s[ENDING] = ending
        s[PHASE] = PH_OVER
        s[DECIDING] = -1


@njit(cache=True)
def _fate_pop(s):
    card = s[FATE + s[FATE_HEAD]]
    s[FATE_HEAD] = (s[FATE_HEAD] + 1) % FATE_CARDS
    s[FATE_N] -= 1
    return card


@njit(cache=True)
def _fate_push(s, card):
    s[FATE + (s[FATE_HEAD] + s[FATE_N]) % FATE_CARDS] = card
    s[FATE_N] += 1


@njit(cache=True)
def _turn_up(s):
    """A fate card turned up goes back to the deck's bottom (D20)."""
    card = _fate_pop(s)
    _fate_push(s, card)
    return card


@njit(cache=True)
def _receive(s, p, c, card):
    """D3: a card goes to the hand, a face-up one (the garden) straight onto the table."""
    s[OWNER + card] = c
    s[SHOWN + card] = 1 if p[P_ITEM_USES + card] == FACE_UP else 0


@njit(cache=True)
def _box(s, card):
    s[OWNER + card] = IN_BOX
    s[SHOWN + card] = 0


@njit(cache=True)
def _gain_food(s, c, portions):
    s[FOOD + c] = min(MAX_FOOD, s[FOOD + c] + portions)  # D12


@njit(cache=True)
def _holds_card(s, c):
    for k in range(ITEM_CARDS):
        if s[OWNER + k] == c:
            return True
    return False


@njit(cache=True)
def _first_of_kind(s, p, c, kind):
    for k in range(ITEM_CARDS):
        if s[OWNER + k] == c and p[P_ITEM_KIND + k] == kind:
            return k
    return -1


@njit(cache=True)
def _take_from_hand(s, rng, victim):
    """D11: a card taken blind from a hand, its cards in number order, one draw of the draw stream."""
    h = 0
    for k in range(ITEM_CARDS):
        if s[OWNER + k] == victim and s[SHOWN + k] == 0:
            h += 1
    pick = rand_below(rng, STREAM_DRAW, h)
    s[NDRAWS] += 1
    for k in range(ITEM_CARDS):
        if s[OWNER + k] == victim and s[SHOWN + k] == 0:
            if pick == 0:
                return k
            pick -= 1
    return -1


@njit(cache=True)
def _token(s, p, c):
    """Dead characters and unused ones take no fate tokens (D1, the rulebook's dead)."""
    if 0 <= c < p[P_PLAYERS] and s[ALIVE + c]:
        s[TOKENS + c] += 1


@njit(cache=True)
def _place_token(s, p, place):
    if 0 <= place < p[P_PLAYERS] and s[ALIVE + s[AT + place]]:
        s[PLACE_TOKENS + place] += 1


@njit(cache=True)
def _wound(s, p, c, count):
    """Wounds; a wound that would kill is healed by the castaway's own medicine first (D17)."""
    if not s[ALIVE + c] or count <= 0:
        return
    s[WOUNDS + c] += count
    strength = p[P_STRENGTH + c]
    while s[WOUNDS + c] >= strength:
        medicine = _first_of_kind(s, p, c, MEDICINE_KIND)
        if medicine < 0:
            break
        _box(s, medicine)
        s[WOUNDS + c] = max(0, s[WOUNDS + c] - max(1, p[P_ITEM_VALUE + medicine]))
    if s[WOUNDS + c] >= strength:
        s[ALIVE + c] = 0
        s[FOOD + c] = 0
        s[TOKENS + c] = 0
        s[PLACE_TOKENS + s[PLACE + c]] = 0
        if not _any_alive(s, p):
            _end(s, END_LOST)  # D8


@njit(cache=True)
def _is_neighbour(s, c, x):
    d = s[PLACE + x] - s[PLACE + c]
    return d == 1 or d == -1


@njit(cache=True)
def _has_neighbour(s, p, c):
    for x in range(p[P_PLAYERS]):
        if s[ALIVE + x] and _is_neighbour(s, c, x):
            return True
    return False


@njit(cache=True)
def _fled(s, c):
    return c == LADLE and s[F_FLED] == 1


@njit(cache=True)
def _best_kept_weapon(s, p, c):
    """(bonus, card) of the strongest reusable weapon a character holds, the lowest card of the
    strongest; (0, -1) for none (D15)."""
    bonus, card = 0, -1
    for k in range(ITEM_CARDS):
        if (s[OWNER + k] == c and p[P_ITEM_KIND + k] == WEAPON_KIND and p[P_ITEM_USES + k] != ONCE
                and p[P_ITEM_VALUE + k] > bonus):
            bonus, card = p[P_ITEM_VALUE + k], k
    return bonus, card


@njit(cache=True)
def _single_use_weapons(s, p, c, out):
    """D15: the single-use weapons that would beat the fighter's best reusable one, one card a name
    (D10), into out; returns how many."""
    kept = _best_kept_weapon(s, p, c)[0]
    n = 0
    seen = np.int64(0)
    for k in range(ITEM_CARDS):
        if (s[OWNER + k] == c and p[P_ITEM_KIND + k] == WEAPON_KIND and p[P_ITEM_USES + k] == ONCE
                and p[P_ITEM_VALUE + k] > kept and _unseen(p, k, seen)):
            seen |= _name_bit(p, k)
            out[n] = k
            n += 1
    return n


@njit(cache=True)
def _name_bit(p, k):
    return np.int64(1) << p[P_ITEM_NAME + k]


@njit(cache=True)
def _unseen(p, k, seen):
    """D10: cards with the same name are one choice, the lowest-numbered one (listed first)."""
    return (seen & _name_bit(p, k)) == 0


@njit(cache=True)
def _ability_targets(s, p, c, out):
    """D13: Cap takes a token off another living character, Milady off herself, Snob gives one to
    anyone living; into out by character number, returns how many."""
    n = 0
    for x in range(p[P_PLAYERS]):
        if not s[ALIVE + x]:
            continue
        if (c == CAP and x != CAP and s[TOKENS + x] > 0) or (c == MILADY and x == MILADY and s[TOKENS + x] > 0) \
                or c == SNOB:
            out[n] = x
            n += 1
    return n


@njit(cache=True)
def _holds(s, p, c, good):
    """The card c would hand over for an item good (a hand card before a face-up one, the lowest
    first), or -1; for portions the count itself when c has that much, else -1 (D16)."""
    if good >= ITEM_CARDS:
        portions = good - ITEM_CARDS + 1
        return portions if s[FOOD + c] >= portions else -1
    up = -1
    for k in range(ITEM_CARDS):
        if s[OWNER + k] == c and p[P_ITEM_NAME + k] == p[P_ITEM_NAME + good]:
            if s[SHOWN + k] == 0:
                return k
            if up < 0:
                up = k
    return up


@njit(cache=True)
def _hand_over(s, p, source, receiver, good):
    """D16: portions move as they are; a card goes to the receiver's hand (the garden face up)."""
    if good >= ITEM_CARDS:
        portions = good - ITEM_CARDS + 1
        s[FOOD + source] -= portions
        _gain_food(s, receiver, portions)
    else:
        _receive(s, p, receiver, _holds(s, p, source, good))


# --- the week's steps no one chooses ------------------------------------------------------------


@njit(cache=True)
def _start_week(s, p):
    s[WEEK] += 1
    if s[WEEK] > MAX_WEEKS:  # D22
        s[WEEK] = MAX_WEEKS
        _end(s, END_STRANDED)
        s[GO] = GO_DECIDE
        return
    s[ACTED] = 0
    s[NPLAYED] = 0
    s[NDEALT] = 0
    living = np.empty(6, dtype=np.int32)
    nl = _living(s, p, living)
    s[GIVER] = living[0]  # the Beach's castaway, or the living one nearest the Beach
    count = min(nl, ITEM_CARDS - s[ITEM_TOP])
    for i in range(count):
        s[DRAWN + i] = s[ITEM_ORDER + s[ITEM_TOP]]
        s[ITEM_TOP] += 1
    s[NDRAWN] = count
    for i in range(1, nl):  # D18: in turn order
        s[RECEIVERS + i - 1] = living[i]
    s[RECV_I] = 0
    s[RECV_N] = nl - 1
    s[GO] = GO_CONTINUE_DEAL


@njit(cache=True)
def _continue_deal(s, p):
    """D18: one card to each other castaway in turn order, the last kept; with the deck short the
    last in turn order receive none."""
    if s[NDRAWN] > 1 and s[RECV_I] < s[RECV_N]:
        _ask(s, PH_DEAL, s[GIVER])
        return
    for i in range(s[NDRAWN]):
        _receive(s, p, s[GIVER], s[DRAWN + i])
    s[NDRAWN] = 0
    s[GO] = GO_NEXT_ACTOR


@njit(cache=True)
def _next_actor(s, p):
    """The living castaway nearest the Beach who has not acted (after a swap, the one whose place
    the attacker took)."""
    if s[ENDING] >= 0:
        s[GO] = GO_DECIDE
        return
    for place in range(p[P_PLAYERS]):
        c = s[AT + place]
        if s[ALIVE + c] and not (s[ACTED] >> c) & 1:
            s[ACTOR] = c
            s[CHOICE] = _fate_pop(s)
            s[CHOICE + 1] = _fate_pop(s)
            _ask(s, PH_KEEP, c)
            return
    s[GO] = GO_LOOKOUT


@njit(cache=True)
def _play_card(s, p):
    """The kept card goes face up: one token on its numbered place, one on its character."""
    me, card = s[ACTOR], s[KEPT_CARD]
    s[PLAYED_BY + s[NPLAYED]] = me
    s[PLAYED_CARD + s[NPLAYED]] = card
    s[NPLAYED] += 1
    _place_token(s, p, p[P_FATE_NUMBER + card] - 1)
    _token(s, p, p[P_FATE_CHARACTER + card])


@njit(cache=True)
def _resolve_claim(s, p):
    """The attacker gets what it fought for, then the game goes on at THEN (D14)."""
    a, d = s[F_ATTACKER], s[F_DEFENDER]
    claim = s[F_CLAIM]
    if claim == 2:
        pa, pd = s[PLACE + a], s[PLACE + d]
        s[PLACE + a], s[PLACE + d] = pd, pa
        s[AT + pd], s[AT + pa] = a, d
        s[GO] = s[THEN]
    elif claim == 0:
        if s[FOOD + d] > 0:
            _ask(s, PH_FISTS, d)
        else:
            s[GO] = s[THEN]
    elif _holds_card(s, d):
        _ask(s, PH_CLAIM, a)
    else:
        s[GO] = s[THEN]


@njit(cache=True)
def _next_joiner(s, p):
    if s[F_WAIT_I] < s[F_WAIT_N]:
        c = s[F_WAIT + s[F_WAIT_I]]
        s[F_WAIT_I] += 1
        _ask(s, PH_JOIN, c)
        return
    s[F_ARMED_I] = 0  # the attacker, the defender, then the joiners as they joined (D15)
    s[GO] = GO_NEXT_WEAPON


@njit(cache=True)
def _next_weapon(s, p):
    """D15: a fighter's best reusable weapon counts by itself (laid out if it was in the hand);
    a fighter holding a stronger single-use one decides whether to spend it."""
    scratch = np.empty(ITEM_CARDS, dtype=np.int32)
    while s[F_ARMED_I] < s[F_NORDER]:
        c = s[F_ORDER + s[F_ARMED_I]]
        bonus, card = _best_kept_weapon(s, p, c)
        s[F_BONUS + c] = bonus
        if card >= 0:
            s[SHOWN + card] = 1  # D3
        if _single_use_weapons(s, p, c, scratch) > 0:
            _ask(s, PH_WEAPON, c)
            return
        s[F_ARMED_I] += 1
    s[GO] = GO_FLEE_POINT


@njit(cache=True)
def _flee_point(s, p):
    """D15: Ladle, when fighting, may leave once every weapon is chosen, before the last card."""
    if s[F_SIDE + LADLE] >= 0 and s[F_FLED] == 0 and s[ALIVE + LADLE]:
        _ask(s, PH_FLEE, LADLE)
        return
    s[GO] = GO_LAST_CARD


@njit(cache=True)
def _strength(s, p, side):
    total = 0
    for c in range(p[P_PLAYERS]):
        if s[F_SIDE + c] == side and not _fled(s, c):
            bonus = s[F_BONUS + c]
            total += p[P_STRENGTH + c] + (bonus if bonus != UNSET else 0)
    return total


@njit(cache=True)
def _last_card(s, p):
    s[F_CARDS] = _turn_up(s)
    s[F_NCARDS] = 1
    cave = s[AT + CAVE] if p[P_PLAYERS] > CAVE else -1
    if cave >= 0 and s[F_SIDE + cave] == 1 and not _fled(s, cave):  # D14: whoever defends from the Cave
        s[F_CARDS + 1] = _turn_up(s)
        s[F_NCARDS] = 2
    attack = _strength(s, p, 0)
    if not _fled(s, s[F_ATTACKER]):  # D14: the attacker's own fate card counts for its side
        attack += p[P_FATE_NUMBER + s[KEPT_CARD]]
    defence = _strength(s, p, 1)
    for i in range(s[F_NCARDS]):
        defence += p[P_FATE_NUMBER + s[F_CARDS + i]]
    s[F_WON] = 1 if attack > defence else 0  # the defenders win a tie
    if s[F_WON] and not _fled(s, s[F_ATTACKER]):  # D14: a fled attacker wins nothing
        s[THEN] = GO_WOUND_LOSERS  # the rulebook's dying defender gives first
        _resolve_claim(s, p)
    else:
        s[GO] = GO_WOUND_LOSERS


@njit(cache=True)
def _wound_losers(s, p):
    losers = 1 if s[F_WON] else 0
    for c in range(p[P_PLAYERS]):
        if s[F_SIDE + c] == losers and not _fled(s, c):
            _wound(s, p, c, 1)
    s[GO] = GO_AFTER_FIGHT


@njit(cache=True)
def _after_fight(s, p):
    s[F_ON] = 0
    s[GO] = GO_END_OF_TURN


@njit(cache=True)
def _end_of_turn(s, p):
    """D13: Cap, Milady and Snob may use their ability once their action is done."""
    if s[ENDING] >= 0:
        s[GO] = GO_DECIDE
        return
    me = s[ACTOR]
    if s[ALIVE + me] and (me == CAP or me == MILADY or me == SNOB):
        targets = np.empty(6, dtype=np.int32)
        if _ability_targets(s, p, me, targets) > 0:
            _ask(s, PH_ABILITY, me)
            return
    s[GO] = GO_FINISH_TURN


@njit(cache=True)
def _finish_turn(s, p):
    """D13: the Kid takes a portion off each living neighbour with food, then the Swamp costs one."""
    me = s[ACTOR]
    if s[ALIVE + me]:
        if me == KID:
            for c in range(p[P_PLAYERS]):
                if s[ALIVE + c] and _is_neighbour(s, me, c) and s[FOOD + c] > 0:
                    s[FOOD + c] -= 1
                    _gain_food(s, me, 1)
        if s[PLACE + me] == SWAMP and s[FOOD + me] > 0:
            s[FOOD + me] -= SWAMP_LOSS
    s[ACTED] |= 1 << me
    s[ACTOR] = -1
    s[GO] = GO_NEXT_ACTOR


@njit(cache=True)
def _lookout(s, p):
    """Part 3: the fire's tokens turn up as many cards (at most the deck's, D20), back to the bottom
    in order; wood and a torch light the fire, with a ship they bring one."""
    s[FIRE] += 1
    count = min(s[FIRE], s[FATE_N])
    wood = torch = ship = False
    for _ in range(count):
        card = _turn_up(s)
        marker = p[P_FATE_MARKER + card]
        wood |= marker == WOOD
        torch |= marker == TORCH
        ship |= marker == SHIP
    if wood and torch:
        s[FIRE] = 0
        if ship:
            s[SHIPS] += 1
            if s[SHIPS] >= p[P_SHIPS_TO_RESCUE]:  # D4
                _end(s, END_RESCUED)
                s[GO] = GO_DECIDE
                return
    _fate(s, p)


@njit(cache=True)
def _week_event(s, p):
    """The most frequent event of the cards played, the first to reach that count among equals."""
    counts = np.zeros(5, dtype=np.int32)
    for i in range(s[NPLAYED]):
        counts[p[P_FATE_EVENT + s[PLAYED_CARD + i]]] += 1
    best = counts.max()
    counts[:] = 0
    for i in range(s[NPLAYED]):
        event = p[P_FATE_EVENT + s[PLAYED_CARD + i]]
        counts[event] += 1
        if counts[event] == best:
            return event
    return -1


@njit(cache=True)
def _fate(s, p):
    """Part 4: the week's event strikes the living with the most fate tokens on their card and place
    together, every one of them where several tie (D21: all, when no one has a token)."""
    event = _week_event(s, p)
    living = np.empty(6, dtype=np.int32)
    nl = _living(s, p, living)
    most = -1
    for i in range(nl):
        c = living[i]
        most = max(most, s[TOKENS + c] + s[PLACE_TOKENS + s[PLACE + c]])
    hit = np.empty(6, dtype=np.int32)  # in turn order
    nh = 0
    for i in range(nl):
        c = living[i]
        if s[TOKENS + c] + s[PLACE_TOKENS + s[PLACE + c]] == most:
            hit[nh] = c
            nh += 1
    if event == BOAR or event == MALARIA:
        for i in range(nh):
            c = hit[i]
            trap = _first_of_kind(s, p, c, TRAP_KIND) if event == BOAR else -1
            if trap >= 0:  # D3
                _box(s, trap)
            else:
                _wound(s, p, c, BOAR_WOUNDS if event == BOAR else MALARIA_WOUNDS)
        s[GO] = GO_AFTER_FATE
    elif event == STORM:
        reach = 0
        for i in range(nh):
            reach = max(reach, s[PLACE + hit[i]] + 1)  # D9
        for i in range(nl):
            c = living[i]
            if s[PLACE + c] < reach:
                s[FOOD + c] = 0
                for k in range(ITEM_CARDS):
                    if s[OWNER + k] == c and s[SHOWN + k]:
                        _box(s, k)
                _wound(s, p, c, STORM_WOUNDS)
        s[FIRE] = 0
        s[GO] = GO_AFTER_FATE
    elif event == RATS:
        struck_bits = 0
        for i in range(nh):
            s[FOOD + hit[i]] = 0
            struck_bits |= 1 << hit[i]
        s[QUEUE_I] = 0
        s[QUEUE_N] = 0
        for i in range(nl):
            c = living[i]
            if not (struck_bits >> c) & 1 and s[FOOD + c] > 0:
                s[QUEUE + s[QUEUE_N]] = c
                s[QUEUE_N] += 1
        s[RAT_SPLIT] = 0
        s[GO] = GO_NEXT_RAT
    else:  # MONKEY
        s[QUEUE_I] = 0
        s[QUEUE_N] = 0
        for i in range(nh):
            c = hit[i]
            if _holds_card(s, c) and _has_neighbour(s, p, c):  # D21
                s[QUEUE + s[QUEUE_N]] = c
                s[QUEUE_N] += 1
        s[GO] = GO_NEXT_MONKEY


@njit(cache=True)
def _next_rat(s, p):
    """Every split is made before the card that picks the fist is turned up (turned up even when no
    one had food to split): an odd number takes the left fist."""
    if s[QUEUE_I] < s[QUEUE_N]:
        c = s[QUEUE + s[QUEUE_I]]
        s[QUEUE_I] += 1
        _ask(s, PH_FISTS, c)
        return
    card = _turn_up(s)
    odd = p[P_FATE_NUMBER + card] % 2 == 1
    for c in range(p[P_PLAYERS]):
        if (s[RAT_SPLIT] >> c) & 1:
            s[FOOD + c] -= s[RAT_LEFT + c] if odd else s[RAT_RIGHT + c]
    s[GO] = GO_AFTER_FATE


@njit(cache=True)
def _next_monkey(s, p):
    if s[QUEUE_I] < s[QUEUE_N]:
        c = s[QUEUE + s[QUEUE_I]]
        s[QUEUE_I] += 1
        s[VICTIM] = c
        _ask(s, PH_NEIGHBOUR, c)
        return
    s[VICTIM] = -1
    s[GO] = GO_AFTER_FATE


@njit(cache=True)
def _after_fate(s, p):
    """D16: one trading round, each living castaway in turn order offering once."""
    if s[ENDING] >= 0:
        s[GO] = GO_DECIDE
        return
    living = np.empty(6, dtype=np.int32)
    s[QUEUE_N] = _living(s, p, living)
    s[QUEUE_I] = 0
    for i in range(s[QUEUE_N]):
        s[QUEUE + i] = living[i]
    s[GO] = GO_NEXT_OFFER


@njit(cache=True)
def _next_offer(s, p):
    if s[QUEUE_I] < s[QUEUE_N]:
        c = s[QUEUE + s[QUEUE_I]]
        s[QUEUE_I] += 1
        _ask(s, PH_OFFER, c)
        return
    s[OFFER_ON] = 0
    s[GO] = GO_HUNGER


@njit(cache=True)
def _hunger(s, p):
    """Part 5: each castaway eats its strength (less in the Jungle), the garden's portions first
    (D3), food cards only as far as its portions fall short, smallest first (D19); short of food, a
    wound. Part 6: the tokens go and the cards played go to the fate deck's bottom in order (D20)."""
    living = np.empty(6, dtype=np.int32)
    nl = _living(s, p, living)
    for i in range(nl):
        c = living[i]
        for k in range(ITEM_CARDS):
            if s[OWNER + k] == c and s[SHOWN + k] and p[P_ITEM_KIND + k] == GARDEN_KIND:
                _gain_food(s, c, p[P_ITEM_VALUE + k])
        need = max(0, p[P_STRENGTH + c] - (JUNGLE_MEAL if s[PLACE + c] == JUNGLE else 0))
        while s[FOOD + c] < need:
            card = -1
            for k in range(ITEM_CARDS):
                if s[OWNER + k] == c and p[P_ITEM_KIND + k] == FOOD_KIND and (
                        card < 0 or p[P_ITEM_VALUE + k] < p[P_ITEM_VALUE + card]):
                    card = k
            if card < 0:
                break
            _box(s, card)
            _gain_food(s, c, p[P_ITEM_VALUE + card])
        if s[FOOD + c] >= need:
            s[FOOD + c] -= need
        else:
            _wound(s, p, c, 1)
        if s[ENDING] >= 0:
            s[GO] = GO_DECIDE
            return
    for c in range(p[P_PLAYERS]):
        s[TOKENS + c] = 0
        s[PLACE_TOKENS + c] = 0
    for i in range(s[NPLAYED]):
        _fate_push(s, s[PLAYED_CARD + i])
    s[NPLAYED] = 0
    s[GO] = GO_START_WEEK


@njit(cache=True)
def _run(s, p):
    """Every step no one chooses, up to the next decision or the end."""
    while s[GO] != GO_DECIDE:
        go = s[GO]
        if go == GO_START_WEEK:
            _start_week(s, p)
        elif go == GO_CONTINUE_DEAL:
            _continue_deal(s, p)
        elif go == GO_NEXT_ACTOR:
            _next_actor(s, p)
        elif go == GO_NEXT_JOINER:
            _next_joiner(s, p)
        elif go == GO_NEXT_WEAPON:
            _next_weapon(s, p)
        elif go == GO_FLEE_POINT:
            _flee_point(s, p)
        elif go == GO_LAST_CARD:
            _last_card(s, p)
        elif go == GO_WOUND_LOSERS:
            _wound_losers(s, p)
        elif go == GO_AFTER_FIGHT:
            _after_fight(s, p)
        elif go == GO_END_OF_TURN:
            _end_of_turn(s, p)
        elif go == GO_FINISH_TURN:
            _finish_turn(s, p)
        elif go == GO_LOOKOUT:
            _lookout(s, p)
        elif go == GO_NEXT_RAT:
            _next_rat(s, p)
        elif go == GO_NEXT_MONKEY:
            _next_monkey(s, p)
        elif go == GO_AFTER_FATE:
            _after_fate(s, p)
        elif go == GO_NEXT_OFFER:
            _next_offer(s, p)
        else:
            _hunger(s, p)


# --- the deal ------------------------------------------------------------------------------------------


@njit(cache=True)
def _shuffled(s, at, n, rng):
    """Fisher-Yates of 0..n-1 into s[at:at+n] on the deal stream, as sim.streams.shuffled (D11)."""
    for i in range(n):
        s[at + i] = i
    for i in range(n - 1, 0, -1):
        j = rand_below(rng, STREAM_DEAL, i + 1)
        s[at + i], s[at + j] = s[at + j], s[at + i]


@njit(cache=True)
def init_game(s, p, rng, seed, game):
    """Game `game` of `seed`: the streams seeded, the deal shuffled in the rulebook's set-up order
    (D11), one item card each seat by seat, the start food (D4), on to the first decision."""
    seed_streams(rng, seed, game)
    s[:] = 0
    n = p[P_PLAYERS]
    _shuffled(s, ROLES, n, rng)
    _shuffled(s, START_PLACE, n, rng)
    _shuffled(s, ITEM_ORDER, ITEM_CARDS, rng)
    _shuffled(s, FATE_ORDER, FATE_CARDS, rng)
    _shuffled(s, FRIENDS, n, rng)
    _shuffled(s, ENEMIES, n, rng)
    for seat in range(n):
        s[SEAT_OF + s[ROLES + seat]] = seat
    for c in range(n):
        s[PLACE + c] = s[START_PLACE + c]
        s[AT + s[PLACE + c]] = c
        s[ALIVE + c] = 1
        s[FOOD + c] = min(p[P_START_FOOD], MAX_FOOD)  # D12
    for k in range(ITEM_CARDS):
        s[OWNER + k] = IN_DECK
    for k in range(FATE_CARDS):
        s[FATE + k] = s[FATE_ORDER + k]
    s[FATE_N] = FATE_CARDS
    s[ENDING] = -1
    s[DECIDING] = -1
    s[THEN] = GO_AFTER_FIGHT
    s[ACTOR] = -1
    s[GIVER] = -1
    s[CHOICE] = -1
    s[CHOICE + 1] = -1
    s[KEPT_CARD] = -1
    s[FIST_OF] = -1
    s[VICTIM] = -1
    for c in range(6):
        s[F_SIDE + c] = -1
    for seat in range(n):  # the set-up's one item card each, seat by seat
        if s[ITEM_TOP] < ITEM_CARDS:
            _receive(s, p, s[ROLES + seat], s[ITEM_ORDER + s[ITEM_TOP]])
            s[ITEM_TOP] += 1
    s[GO] = GO_START_WEEK
    _run(s, p)


# --- decisions -----------------------------------------------------------------------------------------


@njit(cache=True)
def legal_actions(s, p, out):
    """The codes the deciding character may play, ascending, into out (room for MAX_LEGAL);
    returns how many, 0 once the game is over (D10)."""
    if s[ENDING] >= 0:
        return 0
    me, phase = s[DECIDING], s[PHASE]
    n = 0
    players = p[P_PLAYERS]
    if phase == PH_DEAL:
        seen = np.int64(0)
        for k in range(ITEM_CARDS):
            inside = False
            for i in range(s[NDRAWN]):
                inside |= s[DRAWN + i] == k
            if inside and _unseen(p, k, seen):
                seen |= _name_bit(p, k)
                out[n] = A.DEAL + k
                n += 1
    elif phase == PH_KEEP:
        out[0], out[1] = A.KEEP, A.KEEP + 1
        n = 2
    elif phase == PH_ACT:
        out[0], out[1] = A.FOOD, A.FIRE
        n = 2
        for c in range(players):
            if c != me and s[ALIVE + c]:
                if s[FOOD + c] > 0:  # D14: only what the target visibly has
                    out[n] = A.FIGHT + 3 * c
                    n += 1
                if _holds_card(s, c):
                    out[n] = A.FIGHT + 3 * c + 1
                    n += 1
                out[n] = A.FIGHT + 3 * c + 2
                n += 1
    elif phase == PH_YIELD:
        out[0], out[1] = A.YIELD, A.RESIST
        n = 2
    elif phase == PH_JOIN:
        out[0], out[1], out[2] = A.JOIN_ATTACKER, A.JOIN_DEFENDER, A.STAY_OUT
        n = 3
    elif phase == PH_WEAPON:
        out[0] = A.PASS
        scratch = np.empty(ITEM_CARDS, dtype=np.int32)
        m = _single_use_weapons(s, p, me, scratch)
        for i in range(m):
            out[1 + i] = A.WEAPON + scratch[i]
        n = 1 + m
    elif phase == PH_FLEE:
        out[0], out[1] = A.PASS, A.FLEE
        n = 2
    elif phase == PH_CLAIM or phase == PH_MONKEY:
        victim = s[F_DEFENDER] if phase == PH_CLAIM else s[VICTIM]
        hand = False
        for k in range(ITEM_CARDS):
            if s[OWNER + k] == victim and s[SHOWN + k] == 0:
                hand = True
        if hand:
            out[0] = A.TAKE_HAND
            n = 1
        seen = np.int64(0)
        for k in range(ITEM_CARDS):
            if s[OWNER + k] == victim and s[SHOWN + k] == 1 and _unseen(p, k, seen):
                seen |= _name_bit(p, k)
                out[n] = A.TAKE + k
                n += 1
    elif phase == PH_FISTS:
        for left in range(s[FOOD + me] + 1):
            out[left] = A.FIST + left
        n = s[FOOD + me] + 1
    elif phase == PH_PICK:
        out[0], out[1] = A.LEFT_HAND, A.RIGHT_HAND
        n = 2
    elif phase == PH_ABILITY:
        out[0] = A.PASS
        targets = np.empty(6, dtype=np.int32)
        m = _ability_targets(s, p, me, targets)
        for i in range(m):
            out[1 + i] = A.ABILITY + targets[i]
        n = 1 + m
    elif phase == PH_NEIGHBOUR:
        for c in range(players):
            if s[ALIVE + c] and _is_neighbour(s, me, c):
                out[n] = A.NEIGHBOUR + c
                n += 1
    elif phase == PH_OFFER:
        out[0] = A.PASS
        n = 1
        n = _offers(s, p, me, out, n)
    elif phase == PH_ANSWER:
        out[0], out[1] = A.ACCEPT, A.REFUSE
        n = 2
    return n


@njit(cache=True)
def _offers(s, p, me, out, n):
    """D16: one good of one's own (an item by the name of a card held, or 1-4 portions it has) for
    one of another living castaway (any name in the deck, or portions it visibly has), never food
    for food; ascending by the other, then what is given, then what is wanted."""
    names = np.empty(ITEM_CARDS, dtype=np.int32)  # every name in the deck, by its lowest card number
    held = np.zeros(ITEM_CARDS, dtype=np.bool_)  # the names of the cards `me` holds
    nn = 0
    for k in range(ITEM_CARDS):
        if p[P_ITEM_NAME + k] == k:
            names[nn] = k
            nn += 1
        if s[OWNER + k] == me:
            held[p[P_ITEM_NAME + k]] = True
    given = np.empty(GOODS, dtype=np.int32)
    ng = 0
    for i in range(nn):
        if held[names[i]]:
            given[ng] = names[i]
            ng += 1
    for portions in range(1, min(s[FOOD + me], MAX_TRADE_FOOD) + 1):
        given[ng] = ITEM_CARDS + portions - 1
        ng += 1
    for other in range(p[P_PLAYERS]):
        if other == me or not s[ALIVE + other]:
            continue
        wanted_food = min(s[FOOD + other], MAX_TRADE_FOOD)
        for i in range(ng):
            g = given[i]
            base = A.OFFER + (other * GOODS + g) * GOODS
            for j in range(nn):
                out[n] = base + names[j]
                n += 1
            if g < ITEM_CARDS:
                for portions in range(1, wanted_food + 1):
                    out[n] = base + ITEM_CARDS + portions - 1
                    n += 1
    return n


@njit(cache=True)
def play_action(s, p, a, rng):
    """Play legal decision `a` (not checked), then every step no one chooses after it."""
    phase, me = s[PHASE], s[DECIDING]
    if phase == PH_DEAL:
        card = a - A.DEAL
        receiver = s[RECEIVERS + s[RECV_I]]
        s[RECV_I] += 1
        removed = False
        for i in range(s[NDRAWN]):
            if s[DRAWN + i] == card:
                removed = True
            elif removed:
                s[DRAWN + i - 1] = s[DRAWN + i]
        s[NDRAWN] -= 1
        _receive(s, p, receiver, card)
        s[DEALT_TO + s[NDEALT]] = receiver
        s[DEALT_CARD + s[NDEALT]] = card
        s[NDEALT] += 1
        s[GO] = GO_CONTINUE_DEAL
    elif phase == PH_KEEP:
        which = a - A.KEEP
        s[KEPT_CARD] = s[CHOICE + which]
        _fate_push(s, s[CHOICE + 1 - which])
        s[CHOICE] = -1
        s[CHOICE + 1] = -1
        _ask(s, PH_ACT, s[ACTOR])
    elif phase == PH_ACT:
        _act(s, p, a)
    elif phase == PH_YIELD:
        if a == A.YIELD:
            s[F_WON] = 1
            s[THEN] = GO_AFTER_FIGHT
            _resolve_claim(s, p)
        else:
            _token(s, p, s[F_DEFENDER])
            living = np.empty(6, dtype=np.int32)
            nl = _living(s, p, living)
            s[F_WAIT_I] = 0
            s[F_WAIT_N] = 0
            for i in range(nl):  # D14: one round, in turn order
                c = living[i]
                if c != s[F_ATTACKER] and c != s[F_DEFENDER]:
                    s[F_WAIT + s[F_WAIT_N]] = c
                    s[F_WAIT_N] += 1
            s[GO] = GO_NEXT_JOINER
    elif phase == PH_JOIN:
        if a != A.STAY_OUT:
            s[F_SIDE + me] = 0 if a == A.JOIN_ATTACKER else 1
            s[F_ORDER + s[F_NORDER]] = me
            s[F_NORDER] += 1
            _token(s, p, me)
        s[GO] = GO_NEXT_JOINER
    elif phase == PH_WEAPON:
        s[F_ARMED_I] += 1
        if a != A.PASS:
            card = a - A.WEAPON
            s[F_BONUS + me] = p[P_ITEM_VALUE + card]
            _box(s, card)
        s[GO] = GO_NEXT_WEAPON
    elif phase == PH_FLEE:
        if a == A.FLEE:
            s[F_FLED] = 1
            _token(s, p, LADLE)
        s[GO] = GO_LAST_CARD
    elif phase == PH_CLAIM:
        card = _take_from_hand(s, rng, s[F_DEFENDER]) if a == A.TAKE_HAND else a - A.TAKE
        s[OWNER + card] = s[F_ATTACKER]  # a face-up card stays face up (the rulebook's garden)
        s[GO] = s[THEN]
    elif phase == PH_FISTS:
        left = a - A.FIST
        if s[F_ON]:  # a fight over food: the attacker picks a fist
            s[FIST_OF] = me
            s[FIST_LEFT] = left
            s[FIST_RIGHT] = s[FOOD + me] - left
            _ask(s, PH_PICK, s[F_ATTACKER])
        else:  # the rats
            s[RAT_SPLIT] |= 1 << me
            s[RAT_LEFT + me] = left
            s[RAT_RIGHT + me] = s[FOOD + me] - left
            s[GO] = GO_NEXT_RAT
    elif phase == PH_PICK:
        portions = s[FIST_LEFT] if a == A.LEFT_HAND else s[FIST_RIGHT]
        s[FOOD + s[F_DEFENDER]] -= portions
        _gain_food(s, s[F_ATTACKER], portions)
        s[FIST_OF] = -1
        s[FIST_LEFT] = 0
        s[FIST_RIGHT] = 0
        s[GO] = s[THEN]
    elif phase == PH_ABILITY:
        if a != A.PASS:
            target = a - A.ABILITY
            s[TOKENS + target] += 1 if s[ACTOR] == SNOB else -1
        s[GO] = GO_FINISH_TURN
    elif phase == PH_NEIGHBOUR:
        _ask(s, PH_MONKEY, a - A.NEIGHBOUR)
    elif phase == PH_MONKEY:
        card = _take_from_hand(s, rng, s[VICTIM]) if a == A.TAKE_HAND else a - A.TAKE
        _box(s, card)
        s[GO] = GO_NEXT_MONKEY
    elif phase == PH_OFFER:
        if a == A.PASS:
            s[GO] = GO_NEXT_OFFER
        else:
            x = a - A.OFFER
            other = x // CHARACTERS_GOODS
            s[OFFER_ON] = 1
            s[OFFER_BY] = me
            s[OFFER_TO] = other
            s[OFFER_GIVEN] = (x % CHARACTERS_GOODS) // GOODS
            s[OFFER_WANTED] = x % GOODS
            if _holds(s, p, other, s[OFFER_WANTED]) < 0:  # D16: what it cannot meet is refused at once
                s[OFFER_ON] = 0
                s[GO] = GO_NEXT_OFFER
            else:
                _ask(s, PH_ANSWER, other)
    elif phase == PH_ANSWER:
        if a == A.ACCEPT:
            _hand_over(s, p, s[OFFER_BY], s[OFFER_TO], s[OFFER_GIVEN])
            _hand_over(s, p, s[OFFER_TO], s[OFFER_BY], s[OFFER_WANTED])
        s[OFFER_ON] = 0
        s[GO] = GO_NEXT_OFFER
    _run(s, p)


@njit(cache=True)
def _act(s, p, a):
    """Part 2: look for food, build the fire or fight, with the card kept."""
    me = s[ACTOR]
    number = p[P_FATE_NUMBER + s[KEPT_CARD]]
    if a == A.FOOD:
        _play_card(s, p)
        found = number + (STREAM_FOOD if s[PLACE + me] == STREAM else 0) + (BOSUN_FOOD if me == BOSUN else 0)
        best = -1
        for k in range(ITEM_CARDS):  # D3, D19: one shovel digs, the best
            if s[OWNER + k] == me and p[P_ITEM_KIND + k] == SHOVEL_KIND and (
                    best < 0 or p[P_ITEM_VALUE + k] > p[P_ITEM_VALUE + best]):
                best = k
        if best >= 0:
            s[SHOWN + best] = 1
            found += p[P_ITEM_VALUE + best]
        _gain_food(s, me, found)
        s[GO] = GO_END_OF_TURN
    elif a == A.FIRE:
        _play_card(s, p)
        added = 1 + (HILL_FIRE if s[PLACE + me] == HILL else 0)
        for k in range(ITEM_CARDS):
            if s[OWNER + k] == me and p[P_ITEM_KIND + k] == LENS_KIND:  # D3: lenses stack with the Hill
                s[SHOWN + k] = 1
                added += p[P_ITEM_VALUE + k]
        s[FIRE] += added
        s[GO] = GO_END_OF_TURN
    else:
        target, claim = (a - A.FIGHT) // 3, (a - A.FIGHT) % 3
        _play_card(s, p)
        _token(s, p, me)
        s[F_ON] = 1
        s[F_ATTACKER] = me
        s[F_DEFENDER] = target
        s[F_CLAIM] = claim
        for c in range(6):
            s[F_SIDE + c] = -1
            s[F_BONUS + c] = UNSET
        s[F_SIDE + me] = 0
        s[F_SIDE + target] = 1
        s[F_ORDER] = me
        s[F_ORDER + 1] = target
        s[F_NORDER] = 2
        s[F_WAIT_I] = 0
        s[F_WAIT_N] = 0
        s[F_ARMED_I] = -1
        s[F_FLED] = 0
        s[F_NCARDS] = 0
        s[F_WON] = 0
        _ask(s, PH_YIELD, target)


@njit(cache=True)
def apply_action(s, p, a, rng, log, nlog):
    """Play legal decision `a` (`play_action`), its code logged into log[nlog] while nlog >= 0
    and the log has room; returns the new nlog."""
    if 0 <= nlog < log.size:
        log[nlog] = a
        nlog += 1
    play_action(s, p, a, rng)
    return nlog


@njit(cache=True)
def is_over(s, p):
    return s[ENDING] >= 0


@njit(cache=True)
def turn_number(s, p):
    return s[WEEK]


@njit(cache=True)
def decider(s):
    """The seat whose choice the game waits for, -1 once over."""
    if s[DECIDING] < 0 or s[ENDING] >= 0:
        return -1
    return s[SEAT_OF + s[DECIDING]]


# --- what a seat cannot see ----------------------------------------------------------------------------


@njit(cache=True)
def _shuffle_policy(out, at, count, rng):
    """out[at:at+count] in an order drawn from the policy stream (Fisher-Yates)."""
    for i in range(count - 1, 0, -1):
        j = rand_below(rng, STREAM_POLICY, i + 1)
        out[at + i], out[at + j] = out[at + j], out[at + i]


@njit(cache=True)
def sample_world(s, p, rng, out):
    """Into `out` a state the deciding seat cannot tell from `s` (D6), drawn from the policy
    stream and what it sees alone: what it cannot see is gathered in a canonical order and dealt
    again. That is every other seat's best friend and sworn enemy; the face-down cards of other
    hands with the item deck still to come (each hand keeps its count; the cards the seat dealt
    from the Beach this week are seen, a garden in the deck keeps its place, D3); the fate cards
    never drawn since the shuffle (while the deck has not gone round once: the run from its top
    still in the deal's order, which is dealt again with them); and another's closed fist (its
    split of the same food). The item cards the Beach player drew and has not dealt yet, the two
    fate cards another drew to choose from and the fate cards put back unseen stay as they are."""
    out[:] = s
    if s[DECIDING] < 0 or s[ENDING] >= 0:
        return
    seats = p[P_PLAYERS]
    me = s[DECIDING]
    seat = s[SEAT_OF + me]
    scratch = np.empty(ITEM_CARDS, dtype=np.int32)
    for block in (FRIENDS, ENEMIES):
        k = 0
        for x in range(seats):
            if x != seat:
                scratch[k] = s[block + x]
                k += 1
        scratch[:k] = np.sort(scratch[:k])
        _shuffle_policy(scratch, 0, k, rng)
        k = 0
        for x in range(seats):
            if x != seat:
                out[block + x] = scratch[k]
                k += 1
    seen = np.int64(0)
    if s[GIVER] == me:
        for i in range(s[NDEALT]):
            seen |= np.int64(1) << s[DEALT_CARD + i]
    count = np.zeros(6, dtype=np.int32)
    n = 0
    for k in range(ITEM_CARDS):
        owner = s[OWNER + k]
        if owner >= 0 and owner != me and s[SHOWN + k] == 0 and not (seen >> k) & 1:
            count[owner] += 1
            scratch[n] = k
            n += 1
    top = s[ITEM_TOP]
    for i in range(top, ITEM_CARDS):
        k = s[ITEM_ORDER + i]
        if p[P_ITEM_USES + k] != FACE_UP:
            scratch[n] = k
            n += 1
    scratch[:n] = np.sort(scratch[:n])
    _shuffle_policy(scratch, 0, n, rng)
    n = 0
    for c in range(seats):
        for _ in range(count[c]):
            out[OWNER + scratch[n]] = c
            out[SHOWN + scratch[n]] = 0
            n += 1
    for i in range(top, ITEM_CARDS):
        if p[P_ITEM_USES + s[ITEM_ORDER + i]] != FACE_UP:
            out[ITEM_ORDER + i] = scratch[n]
            out[OWNER + scratch[n]] = IN_DECK
            out[SHOWN + scratch[n]] = 0
            n += 1
    head = s[FATE_HEAD]
    if s[FATE_HEAD] + s[FATE_N] >= FATE_CARDS:
        unseen = True
        for q in range(head, FATE_CARDS):
            unseen &= s[FATE + q] == s[FATE_ORDER + q]
        if unseen:
            fate = np.sort(s[FATE + head:FATE + FATE_CARDS])
            _shuffle_policy(fate, 0, fate.size, rng)
            for i in range(fate.size):
                out[FATE + head + i] = fate[i]
                out[FATE_ORDER + head + i] = fate[i]
    if s[FIST_OF] >= 0 and s[FIST_OF] != me:
        total = s[FIST_LEFT] + s[FIST_RIGHT]
        out[FIST_LEFT] = rand_below(rng, STREAM_POLICY, total + 1)
        out[FIST_RIGHT] = total - out[FIST_LEFT]
    for c in range(seats):
        if c != me and (s[RAT_SPLIT] >> c) & 1:
            total = s[RAT_LEFT + c] + s[RAT_RIGHT + c]
            out[RAT_LEFT + c] = rand_below(rng, STREAM_POLICY, total + 1)
            out[RAT_RIGHT + c] = total - out[RAT_LEFT + c]


# --- scores and results ------------------------------------------------------------------------------


@njit(cache=True)
def score(s, p, seat):
    """D7: own survival points alive, the best friend's alive, the sworn enemy's strength dead (a
    psychopath: 2 for every other death but the friend's), and the treasures held, alive or dead."""
    c, friend, enemy = s[ROLES + seat], s[FRIENDS + seat], s[ENEMIES + seat]
    points = 0
    for k in range(ITEM_CARDS):
        if s[OWNER + k] == c and p[P_ITEM_KIND + k] == TREASURE_KIND:
            points += p[P_ITEM_VALUE + k]
    if s[ALIVE + c]:
        points += p[P_SURVIVAL + c]
    if s[ALIVE + friend]:
        points += p[P_SURVIVAL + friend]
    if enemy == c:
        for x in range(p[P_PLAYERS]):
            if x != c and x != friend and not s[ALIVE + x]:
                points += PSYCHOPATH_POINTS
    elif not s[ALIVE + enemy]:
        points += p[P_STRENGTH + enemy]
    return points


@njit(cache=True)
def winners(s, p):
    """D8: the seats with the highest score, as bits; none while playing or when everyone died."""
    if s[ENDING] < 0 or not _any_alive(s, p):
        return 0
    best = -1
    for seat in range(p[P_PLAYERS]):
        best = max(best, score(s, p, seat))
    mask = 0
    for seat in range(p[P_PLAYERS]):
        if score(s, p, seat) == best:
            mask |= 1 << seat
    return mask


@njit(cache=True)
def seat_outcomes(s, p, out):
    """Each seat's result into out[:n], returns n, the players: 1 for each winning seat (tied
    winners all), 0 for the others, -1 while the game runs."""
    players = p[P_PLAYERS]
    mask = winners(s, p)
    for seat in range(players):
        out[seat] = -1 if s[ENDING] < 0 else (mask >> seat) & 1
    return players


@njit(cache=True)
def write_result(s, p, out, row):
    """One row of layout.RESULT_FIELDS."""
    players = p[P_PLAYERS]
    out[row, R_ENDING] = s[ENDING]
    out[row, R_WEEKS] = s[WEEK]
    out[row, R_SHIPS] = s[SHIPS]
    out[row, R_WINNERS] = winners(s, p)
    alive, deaths = 0, 0
    for c in range(players):
        if s[ALIVE + c]:
            alive |= 1 << c
        else:
            deaths += 1
    out[row, R_ALIVE] = alive
    out[row, R_DEATHS] = deaths
    out[row, R_FIRE] = s[FIRE]
    for seat in range(6):
        out[row, R_SCORE + seat] = score(s, p, seat) if seat < players else 0
        out[row, R_CHARACTER + seat] = s[ROLES + seat] if seat < players else -1


# --- whole games ---------------------------------------------------------------------------------------


@njit(cache=True)
def play_random(p, seed, first_game, games, out):
    """Games first_game .. first_game+games-1 of `seed`, each decision uniform over the legal codes
    from the policy stream, their result rows into out[:games]; returns the decisions made."""
    s = np.empty(NSTATE, dtype=np.int32)
    rng = np.empty(3, dtype=np.uint64)
    codes = np.empty(MAX_LEGAL, dtype=np.int64)
    decisions = 0
    for g in range(games):
        init_game(s, p, rng, seed, first_game + g)
        while s[ENDING] < 0:
            n = legal_actions(s, p, codes)
            play_action(s, p, codes[rand_below(rng, STREAM_POLICY, n)], rng)
            decisions += 1
        write_result(s, p, out, g)
    return decisions

