"""Desert Island's action codes (ruling D10 in docs/RULES-DI.md): every choice a player makes is one
integer, the same for the reference engine, the kernel and the records.

A code's kind is fixed by its range, so a code reads the same in every part of the week; the
engine lists the codes a decision allows in ascending order. Characters are numbered in the
rulebook's order (`rules.CHARACTERS`), item cards by their place in the decks file's canonical
order (0-39, `rules.ItemCard`), and a trade's goods by `goods` below.
"""

from __future__ import annotations

from sim.desert_island.rules import CHARACTERS, ITEM_CARDS, Decks

CLAIMS = ("food", "item", "place")  # what a fight is over
MAX_CHARACTERS = len(CHARACTERS)
MAX_FOOD = 80  # D12: the portions a castaway may hold (the rulebook's food tokens)
MAX_TRADE_FOOD = 4  # D16: the most portions one side of a trade may carry
GOODS = ITEM_CARDS + MAX_TRADE_FOOD  # a trade good: an item card (0-39) or 1-4 portions (40-43)

PASS = 0  # no ability, no weapon, no flight, no offer
FOOD = 1  # look for food
FIRE = 2  # build the signal fire
YIELD = 3  # give in to an attacker
RESIST = 4  # fight back
JOIN_ATTACKER = 5
JOIN_DEFENDER = 6
STAY_OUT = 7
FLEE = 8  # Ladle leaves a fight
TAKE_HAND = 9  # a random card from the other's hand
LEFT_HAND = 10
RIGHT_HAND = 11
ACCEPT = 12
REFUSE = 13
KEEP = 14  # + 0 or 1: which of the two fate cards drawn to keep
FIGHT = 20  # + 3 * character + claim
ABILITY = 40  # + character: Cap's, Milady's or Snob's target
NEIGHBOUR = 50  # + character: whom a monkey's victim names
DEAL = 100  # + card: the Beach player's card for the next receiver
TAKE = 150  # + card: a face-up card taken (a claim) or thrown away (a monkey)
WEAPON = 200  # + card: the single-use weapon a fighter plays
FIST = 300  # + portions in the left fist
OFFER = 1000  # + (character * GOODS + given) * GOODS + wanted
ACTION_LIMIT = OFFER + MAX_CHARACTERS * GOODS * GOODS

_SIMPLE = {PASS: "pass", FOOD: "food", FIRE: "fire", YIELD: "yield", RESIST: "resist",
           JOIN_ATTACKER: "join_attacker", JOIN_DEFENDER: "join_defender", STAY_OUT: "stay_out", FLEE: "flee",
           TAKE_HAND: "take_hand", LEFT_HAND: "left_hand", RIGHT_HAND: "right_hand", ACCEPT: "accept",
           REFUSE: "refuse"}
_CODES = {name: code for code, name in _SIMPLE.items()}
_CARD_KINDS = (("deal", DEAL), ("take", TAKE), ("weapon", WEAPON))


def food_good(portions: int) -> int:
    """The trade good of 1..MAX_TRADE_FOOD portions."""
    return ITEM_CARDS + portions - 1


def good_portions(good: int) -> int:
    """The portions a trade good carries (0 for an item card)."""
    return good - ITEM_CARDS + 1 if good >= ITEM_CARDS else 0


def decode(code: int) -> tuple:
    """An action code as (kind, fields...): the simple kinds alone, ("keep", 0 or 1),
    ("fight", character, claim), ("ability", character), ("neighbour", character), ("deal", card),
    ("take", card), ("weapon", card), ("fist", portions), ("offer", character, given, wanted)."""
    code = int(code)
    if code in _SIMPLE:
        return (_SIMPLE[code],)
    if KEEP <= code < KEEP + 2:
        return ("keep", code - KEEP)
    if FIGHT <= code < FIGHT + 3 * MAX_CHARACTERS:
        return ("fight", *divmod(code - FIGHT, 3))
    if ABILITY <= code < ABILITY + MAX_CHARACTERS:
        return ("ability", code - ABILITY)
    if NEIGHBOUR <= code < NEIGHBOUR + MAX_CHARACTERS:
        return ("neighbour", code - NEIGHBOUR)
    for kind, base in _CARD_KINDS:
        if base <= code < base + ITEM_CARDS:
            return (kind, code - base)
    if FIST <= code <= FIST + MAX_FOOD:
        return ("fist", code - FIST)
    if OFFER <= code < ACTION_LIMIT:
        character, rest = divmod(code - OFFER, GOODS * GOODS)
        return ("offer", character, *divmod(rest, GOODS))
    raise ValueError(f"{code} is no Desert Island action code")


def encode(action: tuple) -> int:
    """The code of a decoded action (decode's inverse)."""
    kind, *rest = action
    if kind in _CODES and not rest:
        return _CODES[kind]
    if kind == "keep":
        return KEEP + rest[0]
    if kind == "fight":
        return FIGHT + 3 * rest[0] + rest[1]
    if kind == "ability":
        return ABILITY + rest[0]
    if kind == "neighbour":
        return NEIGHBOUR + rest[0]
    for name, base in _CARD_KINDS:
        if kind == name:
            return base + rest[0]
    if kind == "fist":
        return FIST + rest[0]
    if kind == "offer":
        return OFFER + (rest[0] * GOODS + rest[1]) * GOODS + rest[2]
    raise ValueError(f"{action!r} is no Desert Island action")


def good_text(good: int, decks: Decks) -> str:
    portions = good_portions(good)
    return f"{portions} food" if portions else f"{decks.items[good].name} #{good}"


def action_text(code: int, decks: Decks) -> str:
    """An action as records write it: `fight Cap item`, `deal spear #14`, `offer Kid 2 food for
    knife #10`."""
    kind, *rest = decode(code)
    names = [name for name, _, _ in CHARACTERS]
    if kind == "keep":
        return f"keep {('first', 'second')[rest[0]]}"
    if kind == "fight":
        return f"fight {names[rest[0]]} {CLAIMS[rest[1]]}"
    if kind in ("ability", "neighbour"):
        return f"{kind} {names[rest[0]]}"
    if kind in ("deal", "take", "weapon"):
        return f"{kind} {good_text(rest[0], decks)}"
    if kind == "fist":
        return f"fist {rest[0]} left"
    if kind == "offer":
        return f"offer {names[rest[0]]} {good_text(rest[1], decks)} for {good_text(rest[2], decks)}"
    return kind
