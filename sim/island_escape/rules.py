"""Cards, places and rule parameters of Island Escape.

Everything here is plain data shared by the reference engine, the records module and the
numba kernel. Rulings are cited as ``R<n>`` (see docs/RULES.md and ../shared/rules/RULINGS.md).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

# --- Cards (R1) ------------------------------------------------------------------------------

SUITS = ("S", "H", "D", "C")
SUIT_SYMBOL = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_VALUE = {name: i + 1 for i, name in enumerate(RANK_NAMES)}

JOKER = "JK"
KINGS = tuple("K" + s for s in SUITS)
LAND_CARDS = tuple(f"{rank}{s}" for s in SUITS for rank in ("6", "7", "8", "9", "10"))
ISLAND_CARDS = KINGS + LAND_CARDS  # the 24 cards dealt around the helicopter (R4)
GAUGE_CARDS = tuple(f"{rank}{s}" for rank in ("A", "2", "3", "4", "5") for s in ("C", "D"))

FULL_GAUGE = ("AC", "AD", "2C", "2D", "3C", "3D", "4C", "4D", "5C")  # R3, top first


class RuleError(ValueError):
    """An impossible rule setting or card code."""


def rank_of(card: str) -> int:
    """Numeric rank of a card code: A=1 … 10, J=11, Q=12, K=13."""
    return RANK_VALUE[card[:-1]]


def suit_of(card: str) -> str:
    return card[-1]


def is_card_code(code: str) -> bool:
    if code == JOKER:
        return True
    return len(code) >= 2 and code[-1] in SUITS and code[:-1] in RANK_VALUE


_SUIT_OF_SYMBOL = {**{symbol: suit for suit, symbol in SUIT_SYMBOL.items()},
                   "\u2667": "C", "\u2662": "D", "\u2664": "S", "\u2661": "H"}  # the outlined symbols too


def card_code(text: str) -> str:
    """A card's code (`AC`, `10D`) from the code in either case or as people and the reports write
    it (`A♣`, `10♦`); anything else comes back upper-cased, for the rules' checks to name."""
    text = text.strip()
    if text and text[-1] in _SUIT_OF_SYMBOL:
        text = text[:-1] + _SUIT_OF_SYMBOL[text[-1]]
    return text.upper()


def gauge_from_text(text: str) -> list[str]:
    """A gauge written out: its cards top first, separated by spaces or commas, as codes or as the
    reports write them (`A♣ 2♦ 3♣`), or a run of the rank order by its first and last card as
    the reports name it (`A♦-5♣`, `A♦-5♣, 8 cards`). Raises RuleError for a run that is none."""
    words = [w for w in re.split(r"[\s,]+", text.strip()) if w]
    if words and "-" in words[0] and words[0].count("-") == 1:
        first, last = (card_code(c) for c in words[0].split("-"))
        rest = words[1:]
        if first not in GAUGE_CARDS or last not in GAUGE_CARDS or GAUGE_CARDS.index(first) > GAUGE_CARDS.index(last):
            raise RuleError(f"gauge {text.strip()!r}: a run goes from a gauge card down the rank order "
                            f"({' '.join(pretty(c) for c in GAUGE_CARDS)}) to a later one")
        run = list(GAUGE_CARDS[GAUGE_CARDS.index(first):GAUGE_CARDS.index(last) + 1])
        if rest and not (len(rest) == 2 and rest[0].isdigit() and rest[1] in ("card", "cards")
                         and int(rest[0]) == len(run)):
            raise RuleError(f"gauge {text.strip()!r}: the run {pretty(first)}-{pretty(last)} holds {len(run)} cards")
        return run
    return [card_code(w) for w in words]


def is_land(card: str | None) -> bool:
    return card in LAND_CARDS


def is_king(card: str | None) -> bool:
    return card in KINGS


def pretty(card: str | None) -> str:
    """A card as people write it: 10♣, K♥, JK."""
    if card is None:
        return "-"
    if card == JOKER:
        return "JK"
    return card[:-1] + SUIT_SYMBOL[card[-1]]


# --- Places (R2) -----------------------------------------------------------------------------

SIZE = 5
HELICOPTER = (3, 3)
PLACES = tuple((c, r) for r in range(1, SIZE + 1) for c in range(1, SIZE + 1))  # row-major

DIRECTIONS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
ORTHOGONAL = tuple(DIRECTIONS.values())
# R15 / RECORD-FORMAT: the default escape order of a pawn whose place sinks.
ESCAPE_ORDER = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))


def on_island(place: tuple[int, int]) -> bool:
    c, r = place
    return 1 <= c <= SIZE and 1 <= r <= SIZE


def step(place: tuple[int, int], delta: tuple[int, int], times: int = 1) -> tuple[int, int]:
    return (place[0] + delta[0] * times, place[1] + delta[1] * times)


def orthogonal_neighbours(place: tuple[int, int]) -> list[tuple[int, int]]:
    return [p for p in (step(place, d) for d in ORTHOGONAL) if on_island(p)]


# --- Rule parameters (gymnax style: kept apart from the state) --------------------------------

VARIANTS = ("normal", "divers", "short")


@dataclass(frozen=True)
class Rules:
    """The rule parameters of one game (R5, R6, R8, R12, R3 and the Variants of RULINGS.md)."""

    players: int = 2
    cards_per_treasure: int = 2
    swim_cost: int = 2
    actions_per_turn: int = 4
    gauge: tuple[str, ...] = field(default=FULL_GAUGE)

    def __post_init__(self) -> None:
        # a gauge card may be written as the reports write it (A♣), or its code in either case (ac)
        object.__setattr__(self, "gauge", tuple(card_code(c) if isinstance(c, str) else c for c in self.gauge))
        self.validate()

    @property
    def pawns(self) -> int:
        """R5: a solo game is played with two pawns."""
        return 2 if self.players == 1 else self.players

    @property
    def max_floods(self) -> int:
        """R14: the flood that would need to remove the last gauge card ends the game."""
        return 5 * len(self.gauge)

    def validate(self) -> None:
        def whole(name: str, value: object, lo: int, hi: int) -> None:
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                raise RuleError(f"rules.{name} must be a whole number from {lo} to {hi}, not {value!r}")

        whole("players", self.players, 1, 4)
        whole("cards_per_treasure", self.cards_per_treasure, 1, 5)
        whole("actions_per_turn", self.actions_per_turn, 1, 12)
        whole("swim_cost", self.swim_cost, 1, 12)
        if not self.gauge:
            raise RuleError("rules.gauge must hold at least one card")
        seen: set[str] = set()
        for card in self.gauge:
            if not isinstance(card, str) or card not in GAUGE_CARDS:
                raise RuleError(f"rules.gauge: {card!r} is not a gauge card (A-5 of clubs or diamonds, R3)")
            if card in seen:
                raise RuleError(f"rules.gauge names {card} twice")
            seen.add(card)

    def as_record(self) -> dict:
        """The RECORD-FORMAT.md `rules` object."""
        d = asdict(self)
        d["gauge"] = list(self.gauge)
        return d

    def with_variant(self, *names: str) -> Rules:
        """Apply named variants (RULINGS.md Variants) on top of these rules."""
        rules = self
        for name in names:
            if name == "normal":
                continue
            if name == "divers":  # swimming costs one action
                rules = Rules(**{**rules.as_record(), "swim_cost": 1})
            elif name == "short":  # one card a treasure, gauge without AC
                gauge = [c for c in rules.gauge if c != "AC"]
                rules = Rules(**{**rules.as_record(), "cards_per_treasure": 1, "gauge": gauge})
            else:
                raise RuleError(f"unknown variant {name!r} (choose from {', '.join(VARIANTS)})")
        return rules


def gauge_of_length(length: int) -> tuple[str, ...]:
    """The rulebook gauge without its top 9-L cards; 10 adds 5D at the bottom (R3)."""
    if not 1 <= length <= 10:
        raise RuleError(f"gauge length must be from 1 to 10, not {length}")
    if length == 10:
        return FULL_GAUGE + ("5D",)
    return FULL_GAUGE[len(FULL_GAUGE) - length :]


def gauge_name(gauge: tuple[str, ...] | list[str]) -> str:
    """A gauge named by its cards, the same way in every table and figure: a run of the rank
    order A♣ A♦ 2♣ … 5♣ 5♦ as its first and last card ("A♦-5♣, 8 cards"), any other gauge
    card by card."""
    gauge = tuple(gauge)
    if gauge and all(c in GAUGE_CARDS for c in gauge):
        first = GAUGE_CARDS.index(gauge[0])
        if gauge == GAUGE_CARDS[first:first + len(gauge)] and len(gauge) > 2:
            return f"{pretty(gauge[0])}-{pretty(gauge[-1])}, {len(gauge)} cards"
    return " ".join(pretty(c) for c in gauge)


def floods_per_turn(gauge: tuple[str, ...] | list[str]) -> list[int]:
    """Floods in each turn of a game that lasts until the water swallows the island (R14)."""
    out = []
    level_index = 0  # index of the top gauge card
    drawn_in_pass = 0
    while True:
        n = rank_of(gauge[level_index])  # fixed at the start of the flood phase
        done = 0
        for _ in range(n):
            done += 1
            drawn_in_pass += 1
            if drawn_in_pass == 5:
                drawn_in_pass = 0
                if level_index == len(gauge) - 1:
                    out.append(done)
                    return out
                level_index += 1
        out.append(done)


def gauge_order_problem(cards) -> str | None:
    """Why a gauge is not laid out in rank order, top first (None when it is): the water
    rises down the gauge A♣ A♦ 2♣ 2♦ … 5♣ 5♦ (GAUGE_CARDS, R3), and a gauge is a run or any
    subset of it in that order. Cards that are no gauge cards, or named twice, are left to
    Rules' own checks, which say what is wrong with them."""
    cards = [str(c).upper() for c in cards]
    known = [c for c in cards if c in GAUGE_CARDS]
    if len(set(known)) != len(known):
        return None
    ordered = sorted(known, key=GAUGE_CARDS.index)
    if known == ordered:
        return None
    return (f"the cards must go in rank order, top first ({' '.join(GAUGE_CARDS)}, or any of them in that "
            f"order), not {' '.join(cards)}; in rank order: {' '.join(ordered)}")
