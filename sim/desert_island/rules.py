"""Desert Island's characters, places, decks and rule parameters.

Plain data for the reference engine, the kernel, the records and the players to share. Rulings
are cited as ``D<n>``; docs/RULES-DI.md states each one and why. The two decks are data
(`decks.toml`, D2 and D3): a sweep varies them like any other rule.
"""

from __future__ import annotations

import tomllib
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path

# D1: (name, strength, survival points), in the rulebook's order of the character cards
CHARACTERS = (("Bosun", 8, 4), ("Cap", 7, 5), ("Ladle", 6, 6), ("Snob", 5, 7), ("Milady", 4, 8), ("Kid", 4, 8))
PLACES = ("Beach", "Jungle", "Swamp", "Stream", "Hill", "Cave")  # place k is number k + 1 on a fate card
# D1: what leaves the game with fewer than six players: (place, character) pairs, the first with 5
LEFT_OUT = (("Cave", "Kid"), ("Hill", "Milady"))
EVENTS = ("boar", "monkey", "malaria", "rats", "storm")
MARKERS = ("wood", "torch", "ship")
ITEM_KINDS = ("food", "weapon", "medicine", "treasure", "trap", "shovel", "lens", "garden")
ITEM_USES = ("once", "kept", "held", "face_up")  # D3
FATE_CARDS, ITEM_CARDS = 30, 40  # the rulebook's deck sizes
STANDARD_DECKS = Path(__file__).resolve().with_name("decks.toml")
STANDARD = "standard"  # the decks a setting names when it names none


class RuleError(ValueError):
    """An impossible setting; the message names the parameter (`rules.<name>`)."""


class DeckError(ValueError):
    """A decks file that cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class FateCard:
    character: str  # who receives a fate token when it is played
    number: int  # 1-6: a place, a strength, an amount of food
    event: str
    marker: str | None  # wood, torch, ship or none (D2)


@dataclass(frozen=True)
class ItemCard:
    name: str
    kind: str  # ITEM_KINDS
    value: int  # portions, strength bonus or points (D3)
    uses: str  # ITEM_USES


@dataclass(frozen=True)
class Decks:
    fate: tuple[FateCard, ...]  # in the fixed order D2 lays them out, before any shuffle
    items: tuple[ItemCard, ...]


def fate_deck(characters: list[str], events: list[str], numbers: list[int], markers: dict[str, int],
              size: int = FATE_CARDS) -> tuple[FateCard, ...]:
    """D2: card i shows character i mod 6, number (c + r) mod 6 and event (c + 2r) mod 5 of the
    given lists (c = i mod 6, r = i div 6); the markers go to the cards in order, wood first,
    then torch, then ship, and the cards left carry none."""
    marked = [name for name in MARKERS for _ in range(markers.get(name, 0))]
    marked += [None] * (size - len(marked))
    cards = []
    for i in range(size):
        c, r = i % len(characters), i // len(characters)
        cards.append(FateCard(characters[c], numbers[(c + r) % len(numbers)], events[(c + 2 * r) % len(events)],
                              marked[i]))
    return tuple(cards)


def load_decks(path: str | Path = STANDARD_DECKS) -> Decks:
    """The decks a data file describes (D2, D3), checked: DeckError names the file and the key of
    the first thing that cannot be used."""
    path = Path(path)

    def bad(key: str, why: str) -> DeckError:
        return DeckError(f"{path}: {key}: {why}")

    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise DeckError(f"{path}: cannot be read as TOML ({str(exc).splitlines()[0]})") from None
    fate, items = data.get("fate"), data.get("items")
    if not isinstance(fate, dict) or not isinstance(items, dict):
        raise bad("fate" if not isinstance(fate, dict) else "items", "missing table")
    names = [c[0] for c in CHARACTERS]
    lists = {"fate.characters": (fate.get("characters"), names), "fate.events": (fate.get("events"), list(EVENTS)),
             "fate.numbers": (fate.get("numbers"), [1, 2, 3, 4, 5, 6])}
    for key, (given, allowed) in lists.items():
        if not isinstance(given, list) or sorted(given, key=str) != sorted(allowed, key=str):
            raise bad(key, f"must list each of {', '.join(map(str, allowed))} once, not {given!r}")
    markers = fate.get("markers")
    if not isinstance(markers, dict) or set(markers) - set(MARKERS) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in markers.values()):
        raise bad("fate.markers", f"must give a whole count of at least 0 for {', '.join(MARKERS)}, not {markers!r}")
    if sum(markers.values()) > FATE_CARDS:
        raise bad("fate.markers", f"{sum(markers.values())} markers for {FATE_CARDS} cards (at most one a card, D2)")
    cards = items.get("cards")
    if not isinstance(cards, list):
        raise bad("items.cards", "must be a list of cards")
    deck: list[ItemCard] = []
    for k, card in enumerate(cards):
        where = f"items.cards[{k}]"
        if not isinstance(card, dict) or set(card) != {"name", "kind", "value", "uses", "count"}:
            raise bad(where, "must have a name, kind, value, uses and count")
        if card["kind"] not in ITEM_KINDS:
            raise bad(f"{where}.kind", f"unknown kind {card['kind']!r} (choose from {', '.join(ITEM_KINDS)})")
        if card["uses"] not in ITEM_USES:
            raise bad(f"{where}.uses", f"unknown use {card['uses']!r} (choose from {', '.join(ITEM_USES)})")
        for key in ("value", "count"):
            if not isinstance(card[key], int) or isinstance(card[key], bool) or card[key] < 0:
                raise bad(f"{where}.{key}", f"must be a whole number of at least 0, not {card[key]!r}")
        deck += [ItemCard(str(card["name"]), card["kind"], card["value"], card["uses"])] * card["count"]
    if len(deck) != ITEM_CARDS:
        raise bad("items.cards", f"the counts add up to {len(deck)} cards, not {ITEM_CARDS}")
    return Decks(fate_deck(fate["characters"], fate["events"], fate["numbers"], markers), tuple(deck))


@lru_cache(maxsize=8)
def decks_of(name: str) -> Decks:
    """The decks of a setting: "standard" (decks.toml beside this module) or a decks file's path."""
    return load_decks(STANDARD_DECKS if name == STANDARD else name)


@dataclass(frozen=True)
class Rules:
    """One setting of Desert Island: its player count and the numbers a designer may change."""

    players: int = 4
    ships_to_rescue: int = 4  # D4: the ship token that ends the game in a rescue
    start_food: int = 4  # D4: portions each castaway starts with
    decks: str = STANDARD  # D2, D3: the decks' data file ("standard": decks.toml here)

    def __post_init__(self):
        for name, lo, hi in (("players", 4, 6), ("ships_to_rescue", 1, 9), ("start_food", 0, 20)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                raise RuleError(f"rules.{name} must be a whole number from {lo} to {hi}, not {value!r}")
        try:
            decks_of(self.decks)
        except DeckError as exc:
            raise RuleError(f"rules.decks: {exc}") from None

    @property
    def places(self) -> tuple[str, ...]:
        """The places in play, in order (D1)."""
        out = [p for p in PLACES if p not in {place for place, _ in LEFT_OUT[:6 - self.players]}]
        return tuple(out)

    @property
    def characters(self) -> tuple[str, ...]:
        """The characters in play, in the rulebook's order (D1)."""
        gone = {who for _, who in LEFT_OUT[:6 - self.players]}
        return tuple(name for name, _, _ in CHARACTERS if name not in gone)

    @property
    def deck_data(self) -> Decks:
        return decks_of(self.decks)

    def as_record(self) -> dict:
        return asdict(self)
