"""Desert Island's kernel layout: state offsets, parameter slots, phases, results.

The kernel (`sim/desert_island/kernel.py`) keeps a game in one int32 array `s` of `NSTATE` fields
and the rule parameters, the two decks included, in an int32 array `p` of `NPARAMS` (`params_of`
fills it from a `Rules`), so that a sweep changes `p` only and the kernel never reads a Python
object. Every size is bounded by the engine's constants (six characters, 40 item cards, 30 fate
cards, 80 portions, D10, D12): the numbers live here, the rules in `rules.py`, the codes in
`actions.py`.

Numbering is the engine's: characters and places 0 to players-1 (D1), item cards and fate cards
by their place in the decks' canonical order. Lists the engine keeps as Python lists are a block of
entries with a count (and, where the engine takes from the front, an index of the first entry
still in the list); the fate deck, which the engine takes from the top and puts back at the
bottom (D20), is a ring of FATE_CARDS entries.
"""

from __future__ import annotations

import numpy as np

from sim.desert_island import actions as A
from sim.desert_island.engine import DECISIONS, ENDINGS, MAX_WEEKS
from sim.desert_island.rules import EVENTS, FATE_CARDS, ITEM_CARDS, ITEM_KINDS, ITEM_USES, MARKERS, Rules
from sim.fields import Layout

MAX_PLAYERS = A.MAX_CHARACTERS  # one character, one place a seat (D1)
NO_MARKER = -1  # a fate card without a signal-fire marker (D2)

# what an item card is and how it is used, as numbers (rules.ITEM_KINDS, rules.ITEM_USES, D3)
FOOD_KIND, WEAPON_KIND, MEDICINE_KIND, TREASURE_KIND, TRAP_KIND, SHOVEL_KIND, LENS_KIND, GARDEN_KIND = range(8)
ONCE, KEPT, HELD, FACE_UP = range(4)
WOOD, TORCH, SHIP = range(3)
BOAR, MONKEY, MALARIA, RATS, STORM = range(5)
assert ITEM_KINDS[GARDEN_KIND] == "garden" and ITEM_USES[FACE_UP] == "face_up" and MARKERS[SHIP] == "ship"
assert EVENTS[STORM] == "storm"

# phases: the engine's decision parts (engine.DECISIONS) in its order, then the end
PHASES = (*DECISIONS, "over")
(PH_DEAL, PH_KEEP, PH_ACT, PH_YIELD, PH_JOIN, PH_WEAPON, PH_FLEE, PH_CLAIM, PH_FISTS, PH_PICK, PH_ABILITY,
 PH_NEIGHBOUR, PH_MONKEY, PH_OFFER, PH_ANSWER, PH_OVER) = range(len(PHASES))

# the steps no one chooses, each named after the engine method it plays; the kernel runs them one
# after another until a decision is open (a loop where the engine calls on)
STEPS = ("start_week", "continue_deal", "next_actor", "next_joiner", "next_weapon", "flee_point", "last_card",
         "wound_losers", "after_fight", "end_of_turn", "finish_turn", "lookout", "next_rat", "next_monkey",
         "after_fate", "next_offer", "hunger", "decide")
(GO_START_WEEK, GO_CONTINUE_DEAL, GO_NEXT_ACTOR, GO_NEXT_JOINER, GO_NEXT_WEAPON, GO_FLEE_POINT, GO_LAST_CARD,
 GO_WOUND_LOSERS, GO_AFTER_FIGHT, GO_END_OF_TURN, GO_FINISH_TURN, GO_LOOKOUT, GO_NEXT_RAT, GO_NEXT_MONKEY,
 GO_AFTER_FATE, GO_NEXT_OFFER, GO_HUNGER, GO_DECIDE) = range(len(STEPS))

IN_DECK, IN_BOX = -1, -2  # an item card's owner when no character holds it (engine's)
UNSET = -1  # a fighter's weapon bonus before its weapon is chosen

# --- state (int32; declared in order) --------------------------------------------------------------
STATE = Layout("Desert Island state")
# the deal (D11), kept whole: the engine is built from it and the item deck is read from it
ROLES = STATE.field("ROLES", MAX_PLAYERS)  # the character each seat plays
FRIENDS = STATE.field("FRIENDS", MAX_PLAYERS)  # each seat's best friend
ENEMIES = STATE.field("ENEMIES", MAX_PLAYERS)  # each seat's sworn enemy
START_PLACE = STATE.field("START_PLACE", MAX_PLAYERS)  # each character's first place
ITEM_ORDER = STATE.field("ITEM_ORDER", ITEM_CARDS)  # the shuffled item deck, top first
FATE_ORDER = STATE.field("FATE_ORDER", FATE_CARDS)  # the shuffled fate deck, top first
ITEM_TOP = STATE.field("ITEM_TOP")  # item cards taken off the deck: it is ITEM_ORDER[ITEM_TOP:]
# the table
SEAT_OF = STATE.field("SEAT_OF", MAX_PLAYERS)  # each character's seat
PLACE = STATE.field("PLACE", MAX_PLAYERS)  # each character's place
AT = STATE.field("AT", MAX_PLAYERS)  # the character at each place (places are a permutation)
ALIVE = STATE.field("ALIVE", MAX_PLAYERS)
WOUNDS = STATE.field("WOUNDS", MAX_PLAYERS)
FOOD = STATE.field("FOOD", MAX_PLAYERS)  # portions (D12: at most actions.MAX_FOOD)
TOKENS = STATE.field("TOKENS", MAX_PLAYERS)  # fate tokens on each character's card
PLACE_TOKENS = STATE.field("PLACE_TOKENS", MAX_PLAYERS)  # fate tokens on each place
OWNER = STATE.field("OWNER", ITEM_CARDS)  # each item card's holder, IN_DECK or IN_BOX
SHOWN = STATE.field("SHOWN", ITEM_CARDS)  # 1 when the card lies face up
FATE = STATE.field("FATE", FATE_CARDS)  # the fate deck as a ring: FATE[(FATE_HEAD + i) % 30] is its i-th card
FATE_HEAD = STATE.field("FATE_HEAD")
FATE_N = STATE.field("FATE_N")
PLAYED_BY = STATE.field("PLAYED_BY", MAX_PLAYERS)  # the week's fate cards played, in order: who
PLAYED_CARD = STATE.field("PLAYED_CARD", MAX_PLAYERS)  # and which card
NPLAYED = STATE.field("NPLAYED")
FIRE = STATE.field("FIRE")
SHIPS = STATE.field("SHIPS")
WEEK = STATE.field("WEEK")
ENDING = STATE.field("ENDING")  # -1 while playing, else an index of ENDINGS
PHASE = STATE.field("PHASE")  # PH_*
DECIDING = STATE.field("DECIDING")  # the character who decides, -1 once over
GO = STATE.field("GO")  # the next step no one chooses (GO_*), GO_DECIDE while a decision is open
THEN = STATE.field("THEN")  # where a claim's resolution goes on: GO_AFTER_FIGHT or GO_WOUND_LOSERS
NDRAWS = STATE.field("NDRAWS")  # draws read from the draw stream so far (D11)
# the week's working state
ACTED = STATE.field("ACTED")  # bits: the characters who had their turn this week
ACTOR = STATE.field("ACTOR")
GIVER = STATE.field("GIVER")  # the week's Beach player (D18)
DRAWN = STATE.field("DRAWN", MAX_PLAYERS)  # the Beach player's cards still to give, in the order drawn
NDRAWN = STATE.field("NDRAWN")
RECEIVERS = STATE.field("RECEIVERS", MAX_PLAYERS)  # the castaways to receive one, in turn order
RECV_I = STATE.field("RECV_I")  # receivers already served: RECEIVERS[RECV_I:RECV_N] wait
RECV_N = STATE.field("RECV_N")
DEALT_TO = STATE.field("DEALT_TO", MAX_PLAYERS)  # the Beach player's deal this week: receivers
DEALT_CARD = STATE.field("DEALT_CARD", MAX_PLAYERS)  # and their cards
NDEALT = STATE.field("NDEALT")
CHOICE = STATE.field("CHOICE", 2)  # the two fate cards the actor drew, -1 when none
KEPT_CARD = STATE.field("KEPT_CARD")  # the fate card the actor kept, -1 before the first
# the fight (D14, D15); F_ON 0 when there is none
F_ON = STATE.field("F_ON")
F_ATTACKER = STATE.field("F_ATTACKER")
F_DEFENDER = STATE.field("F_DEFENDER")
F_CLAIM = STATE.field("F_CLAIM")  # actions.CLAIMS
F_SIDE = STATE.field("F_SIDE", MAX_PLAYERS)  # each character's side: 0 attackers, 1 defenders, -1 out
F_ORDER = STATE.field("F_ORDER", MAX_PLAYERS)  # the fighters in the order they entered
F_NORDER = STATE.field("F_NORDER")
F_WAIT = STATE.field("F_WAIT", MAX_PLAYERS)  # the castaways still to say whether they join
F_WAIT_I = STATE.field("F_WAIT_I")
F_WAIT_N = STATE.field("F_WAIT_N")
F_ARMED_I = STATE.field("F_ARMED_I")  # fighters F_ORDER[F_ARMED_I:] still to choose a weapon; -1 before
F_BONUS = STATE.field("F_BONUS", MAX_PLAYERS)  # each fighter's weapon bonus, UNSET before it is chosen
F_FLED = STATE.field("F_FLED")  # 1 once Ladle fled
F_CARDS = STATE.field("F_CARDS", 2)  # the fate cards turned up for the defenders
F_NCARDS = STATE.field("F_NCARDS")
F_WON = STATE.field("F_WON")  # 1 when the attackers won (or the defender gave in)
# a hidden split of food and the queues of one part of the week
FIST_OF = STATE.field("FIST_OF")  # the character whose split waits for the attacker's pick, -1
FIST_LEFT = STATE.field("FIST_LEFT")
FIST_RIGHT = STATE.field("FIST_RIGHT")
QUEUE = STATE.field("QUEUE", MAX_PLAYERS)  # the characters still to decide (rats, monkeys, offers)
QUEUE_I = STATE.field("QUEUE_I")
QUEUE_N = STATE.field("QUEUE_N")
VICTIM = STATE.field("VICTIM")  # a monkey's victim, -1
OFFER_ON = STATE.field("OFFER_ON")  # 1 while an offer waits for its answer
OFFER_BY = STATE.field("OFFER_BY")
OFFER_TO = STATE.field("OFFER_TO")
OFFER_GIVEN = STATE.field("OFFER_GIVEN")
OFFER_WANTED = STATE.field("OFFER_WANTED")
RAT_SPLIT = STATE.field("RAT_SPLIT")  # bits: the characters who split their food against the rats
RAT_LEFT = STATE.field("RAT_LEFT", MAX_PLAYERS)
RAT_RIGHT = STATE.field("RAT_RIGHT", MAX_PLAYERS)
NSTATE = STATE.size

# --- parameters (int32): the rules and the decks' data ------------------------------------------
PARAMS = Layout("Desert Island parameters")
P_PLAYERS = PARAMS.field("P_PLAYERS")
P_SHIPS_TO_RESCUE = PARAMS.field("P_SHIPS_TO_RESCUE")  # D4
P_START_FOOD = PARAMS.field("P_START_FOOD")  # D4
P_STRENGTH = PARAMS.field("P_STRENGTH", MAX_PLAYERS)  # D1
P_SURVIVAL = PARAMS.field("P_SURVIVAL", MAX_PLAYERS)
P_FATE_CHARACTER = PARAMS.field("P_FATE_CHARACTER", FATE_CARDS)  # D2: a character number (any of the six)
P_FATE_NUMBER = PARAMS.field("P_FATE_NUMBER", FATE_CARDS)  # 1-6
P_FATE_EVENT = PARAMS.field("P_FATE_EVENT", FATE_CARDS)  # index of rules.EVENTS
P_FATE_MARKER = PARAMS.field("P_FATE_MARKER", FATE_CARDS)  # index of rules.MARKERS, NO_MARKER
P_ITEM_KIND = PARAMS.field("P_ITEM_KIND", ITEM_CARDS)  # D3: index of rules.ITEM_KINDS
P_ITEM_VALUE = PARAMS.field("P_ITEM_VALUE", ITEM_CARDS)
P_ITEM_USES = PARAMS.field("P_ITEM_USES", ITEM_CARDS)  # index of rules.ITEM_USES
P_ITEM_NAME = PARAMS.field("P_ITEM_NAME", ITEM_CARDS)  # D10: the lowest card number with the same name
NPARAMS = PARAMS.size

# --- endings and the results row ---------------------------------------------------------------------
CAUSES = ENDINGS  # rescued (D4), lost (D8), stranded (D22)
END_RESCUED, END_LOST, END_STRANDED = range(len(ENDINGS))
# "turns" counts the weeks (a week is the game's turn), under the name every game's tables share
RESULT_FIELDS = ("ending", "turns", "ships", "winners", "alive", "deaths", "fire",
                 *(f"score{k}" for k in range(MAX_PLAYERS)), *(f"character{k}" for k in range(MAX_PLAYERS)))
NRESULT = len(RESULT_FIELDS)
# winners: bits by seat (D8, none when all died); alive: bits by character
R_ENDING, R_WEEKS, R_SHIPS, R_WINNERS, R_ALIVE, R_DEATHS, R_FIRE = range(7)
R_SCORE = RESULT_FIELDS.index("score0")  # each seat's points (D7), 0 for a seat not in play
R_CHARACTER = RESULT_FIELDS.index("character0")  # the character each seat played, -1 for none
RESULT_INT8 = tuple(name for name in RESULT_FIELDS if name not in ("turns", "winners", "alive")
                    and not name.startswith("score"))

# longest legal list: an offer to each of five others of any of 44 goods for any of 44 (D16), and pass
MAX_LEGAL = (MAX_PLAYERS - 1) * A.GOODS * A.GOODS + 1
MAX_STEPS = MAX_WEEKS * 400  # decisions a game can take, far above what one does (D22 bounds the weeks)
LOG_SHAPE = (MAX_STEPS,)  # a logged game's decision codes

# --- random streams (sim/streams.py; D11) ----------------------------------------------------------
STREAM_DEAL, STREAM_DRAW, STREAM_POLICY = 0, 1, 2


def params_of(rules: Rules) -> np.ndarray:
    """The parameter array of a setting: its numbers and its decks' data (D1-D4)."""
    from sim.desert_island.rules import CHARACTERS

    p = np.zeros(NPARAMS, dtype=np.int32)
    p[P_PLAYERS] = rules.players
    p[P_SHIPS_TO_RESCUE] = rules.ships_to_rescue
    p[P_START_FOOD] = min(rules.start_food, A.MAX_FOOD)  # D12
    for c, (_, strength, survival) in enumerate(CHARACTERS):
        p[P_STRENGTH + c], p[P_SURVIVAL + c] = strength, survival
    names = [name for name, _, _ in CHARACTERS]
    decks = rules.deck_data
    for k, card in enumerate(decks.fate):
        p[P_FATE_CHARACTER + k] = names.index(card.character)
        p[P_FATE_NUMBER + k] = card.number
        p[P_FATE_EVENT + k] = EVENTS.index(card.event)
        p[P_FATE_MARKER + k] = NO_MARKER if card.marker is None else MARKERS.index(card.marker)
    item_names = [item.name for item in decks.items]
    for k, item in enumerate(decks.items):
        p[P_ITEM_KIND + k] = ITEM_KINDS.index(item.kind)
        p[P_ITEM_VALUE + k] = item.value
        p[P_ITEM_USES + k] = ITEM_USES.index(item.uses)
        p[P_ITEM_NAME + k] = item_names.index(item.name)
    return p
