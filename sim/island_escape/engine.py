"""The reference engine: Island Escape in plain, readable Python.

This engine is the project's definition of the game. It is slow on purpose: every rule lives in
one obvious place and cites its ruling (R1-R19, see docs/RULES.md). The numba kernel and every
policy are checked against it.

A game is driven from outside, one step at a time::

    game = IslandEscapeEngine(rules, layout, piles)
    game.begin_turn()
    game.apply(Action.parse("move up"))      # as many as the turn allows
    game.start_flood_phase()
    while game.floods_left and not game.over:
        game.flood()                           # one flood (and its sinkings, escapes, rise)

`IslandEscapeEngine.play_turn` bundles a whole turn. Randomness never lives in the state: the flood piles come
from a `PileSource` the caller passes in (R14), and the layout is dealt by the caller (R4).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from sim.island_escape.rules import (
    DIRECTIONS,
    ESCAPE_ORDER,
    HELICOPTER,
    ISLAND_CARDS,
    JOKER,
    LAND_CARDS,
    ORTHOGONAL,
    PLACES,
    SUITS,
    Rules,
    is_king,
    is_land,
    on_island,
    orthogonal_neighbours,
    rank_of,
    step,
    suit_of,
)

Place = tuple[int, int]

# Tile states (rulebook "The tiles"; RECORD-FORMAT `state`).
DOWN, DRY, FLOODED, SEA = "down", "dry", "flooded", "sea"

# Outcomes and the loss causes in the order R18 checks them.
LOSS_CAUSES = ("treasure", "helicopter", "drowned", "water", "cut_off", "cards")
ACTION_KINDS = ("move", "swim", "shore", "salvage", "give", "raise", "takeoff")


class IllegalAction(ValueError):
    """An action the rules do not allow in this state; the message says why."""


# --- Actions -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Action:
    """One action of a turn, as written in a record (RECORD-FORMAT.md `turns`)."""

    kind: str
    direction: str | None = None  # move, swim
    place: Place | None = None  # shore, salvage
    to: int | None = None  # give
    cards: tuple[str, ...] = ()  # give, raise

    def __str__(self) -> str:
        if self.kind in ("move", "swim"):
            return f"{self.kind} {self.direction}"
        if self.kind in ("shore", "salvage"):
            return f"{self.kind} {self.place[0]},{self.place[1]}"
        if self.kind == "give":
            return f"give {self.to} " + " ".join(self.cards)
        if self.kind == "raise":
            return "raise " + " ".join(self.cards)
        return self.kind

    @staticmethod
    def parse(text: str) -> Action:
        """Parse a record entry; raises ValueError with a short reason."""
        words = text.split()
        if not words:
            raise ValueError("empty entry")
        kind, args = words[0], words[1:]
        if kind in ("move", "swim"):
            if len(args) != 1 or args[0] not in DIRECTIONS:
                raise ValueError(f"{kind} takes one direction: up, down, left or right")
            return Action(kind, direction=args[0])
        if kind in ("shore", "salvage"):
            if len(args) != 1:
                raise ValueError(f"{kind} takes one place C,R")
            return Action(kind, place=parse_place(args[0]))
        if kind == "give":
            if len(args) < 2 or not args[0].isdigit():
                raise ValueError("give takes a pawn number and at least one card")
            return Action(kind, to=int(args[0]), cards=tuple(args[1:]))
        if kind == "raise":
            if not args:
                raise ValueError("raise takes the cards it discards")
            return Action(kind, cards=tuple(args))
        if kind == "takeoff":
            if args:
                raise ValueError("takeoff takes no arguments")
            return Action(kind)
        raise ValueError(f"unknown action {kind!r}")


def parse_place(text: str) -> Place:
    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise ValueError(f"{text!r} is not a place C,R")
    place = (int(parts[0]), int(parts[1]))
    if not on_island(place):
        raise ValueError(f"place {text} is off the island (columns and rows are 1-5)")
    return place


# --- Randomness passed in ------------------------------------------------------------------------


class PileSource:
    """Gives the column and row pile orders for each pass (R14), optionally following a script.

    `script` is the RECORD-FORMAT `floods` list. When it runs out, the rest of a pass and every
    later pass are shuffled with `random.Random(f"floods/{seed}")`, a stream of its own so that
    the deal and the floods are independent (common random numbers across rule settings).
    """

    def __init__(self, seed: int = 0, script: Sequence[Place] = ()):
        self.rng = random.Random(f"floods/{seed}")
        self.script = [tuple(p) for p in script]

    def piles(self, pass_index: int) -> tuple[list[int], list[int]]:
        scripted = self.script[5 * pass_index : 5 * pass_index + 5]
        cols = [c for c, _ in scripted]
        rows = [r for _, r in scripted]
        rest_cols = [c for c in range(1, 6) if c not in cols]
        rest_rows = [r for r in range(1, 6) if r not in rows]
        self.rng.shuffle(rest_cols)
        self.rng.shuffle(rest_rows)
        return cols + rest_cols, rows + rest_rows


def deal(seed: int = 0, named: dict[Place, str] | None = None) -> dict[Place, str]:
    """A full layout (R4): the named places as given, the rest dealt from the unnamed cards.

    The unnamed cards, in the canonical order of `ISLAND_CARDS`, are shuffled with
    `random.Random(f"deal/{seed}")` and laid on the open places in row-major order.
    """
    named = dict(named or {})
    named[HELICOPTER] = JOKER
    rng = random.Random(f"deal/{seed}")
    rest = [c for c in ISLAND_CARDS if c not in named.values()]
    rng.shuffle(rest)
    layout = {}
    for place in PLACES:
        layout[place] = named[place] if place in named else rest.pop(0)
    return layout


# --- State ---------------------------------------------------------------------------------------


@dataclass
class Tile:
    card: str | None
    state: str


@dataclass
class Event:
    turn: int
    pawn: int
    kind: str
    at: Place | None
    card: str | None = None
    to: int | None = None
    cards: tuple[str, ...] = ()

    def as_record(self) -> dict:
        d = {"turn": self.turn, "pawn": self.pawn, "kind": self.kind,
             "at": list(self.at) if self.at else None, "card": self.card}
        if self.kind == "give":
            d["to"] = self.to
        if self.kind in ("give", "raise"):
            d["cards"] = list(self.cards)
        return d


EscapeChooser = Callable[["IslandEscapeEngine", int, list[Place]], Place]


def first_escape(game: IslandEscapeEngine, pawn: int, options: list[Place]) -> Place:
    """RECORD-FORMAT default: the first tile in the order up, up-right, right, … up-left."""
    return options[0]


@dataclass
class IslandEscapeEngine:
    """The whole state of one game, hidden parts included (R19 says what is public)."""

    rules: Rules
    layout: dict[Place, str]
    pile_source: PileSource = field(default_factory=PileSource)

    def __post_init__(self) -> None:
        # R4: every card face down, the joker face up in the centre, pawns on the helicopter.
        self.board: dict[Place, Tile] = {p: Tile(c, DOWN) for p, c in self.layout.items()}
        self.board[HELICOPTER].state = DRY
        self.pawns: list[Place] = [HELICOPTER] * self.rules.pawns
        self.salvage: list[list[str]] = [[] for _ in range(self.rules.pawns)]
        self.raised: list[str] = []  # suits, in the order raised
        self.under_kings: dict[str, list[str]] = {}  # suit -> cards tucked under its King
        self.set_aside: list[str] = []  # raised Kings whose place sank (R15), with their cards
        self.box: list[str] = []  # sunk land tiles (R15)
        self.gauge: list[str] = list(self.rules.gauge)  # top first (R3)
        self.passes = 0
        self.col_pile, self.row_pile = self.pile_source.piles(0)  # R4: undrawn, top first
        self.col_drawn: list[int] = []
        self.row_drawn: list[int] = []
        self.turn = 0  # turns begun
        self.actions_left = 0
        self.floods = 0  # floods resolved
        self.floods_left = 0  # in the current flood phase
        self.outcome: str | None = None  # "win" or a loss cause
        self.events: list[Event] = []
        self.actions_used = {k: 0 for k in ACTION_KINDS}

    # -- simple queries --

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def current_pawn(self) -> int:
        return (self.turn - 1) % self.rules.pawns

    @property
    def water_level(self) -> int:
        return rank_of(self.gauge[0])  # R3

    def tile(self, place: Place) -> Tile:
        return self.board[place]

    def is_tile(self, place: Place) -> bool:
        """A place that is not sea (face down, dry or flooded)."""
        return on_island(place) and self.board[place].state != SEA

    def pawns_at(self, place: Place) -> list[int]:
        return [i for i, p in enumerate(self.pawns) if p == place]

    def king_place(self, suit: str) -> Place | None:
        for place, tile in self.board.items():
            if tile.card == "K" + suit and tile.state != SEA:
                return place
        return None

    def land_in_play(self) -> list[str]:
        """Land cards on the island (any state but sea) or in any salvage (R12, R17)."""
        on_island_ = [t.card for t in self.board.values() if t.state != SEA and is_land(t.card)]
        return on_island_ + [c for hand in self.salvage for c in hand]

    def suit_short(self, suit: str) -> bool:
        """R12: fewer land cards of this suit in play than a treasure needs."""
        in_play = sum(1 for c in self.land_in_play() if suit_of(c) == suit)
        return in_play < self.rules.cards_per_treasure

    def _event(self, kind: str, at: Place | None, card: str | None = None, pawn: int | None = None,
               **extra) -> None:
        self.events.append(Event(self.turn, self.current_pawn if pawn is None else pawn, kind, at,
                                 card, **extra))

    def _reveal(self, place: Place) -> None:
        """R7, R8, R15: a face-down tile a pawn reaches is turned face up."""
        if self.board[place].state == DOWN:
            self.board[place].state = DRY

    def _end(self, outcome: str) -> None:
        if self.outcome is None:
            self.outcome = outcome

    # -- turns --

    def begin_turn(self) -> None:
        if self.over:
            raise IllegalAction("the game is over")
        if self.floods_left:
            raise IllegalAction("the flood phase is not finished")
        self.turn += 1
        self.actions_left = self.rules.actions_per_turn  # R6

    # -- actions (R7-R13) --

    def check(self, action: Action) -> str | None:
        """Why `action` is illegal for the current pawn now, or None when it is legal."""
        if self.over:
            return "the game is over"
        if self.turn == 0 or self.floods_left:
            return "it is not the action phase of a turn"
        me = self.current_pawn
        here = self.pawns[me]
        kind = action.kind
        cost = self.rules.swim_cost if kind == "swim" else 1
        if self.actions_left < cost:
            if kind == "swim":
                return f"a swim costs {cost} actions and only {self.actions_left} are left"  # R8
            return f"all {self.rules.actions_per_turn} actions of the turn are used"
        if kind == "move":  # R7
            target = step(here, DIRECTIONS[action.direction])
            if not on_island(target):
                return "that is off the island"
            if not self.is_tile(target):
                return "that place is sea (swim across one sea place instead)"
            return None
        if kind == "swim":  # R8
            delta = DIRECTIONS[action.direction]
            middle, target = step(here, delta), step(here, delta, 2)
            if not on_island(target):
                return "that is off the island"
            if self.is_tile(middle):
                return "a swim crosses exactly one sea place; the place in between is a tile (walk)"
            if not self.is_tile(target):
                return "a swim must end on a tile, and that place is sea"
            return None
        if kind == "shore":  # R9
            place = action.place
            if place != here and place not in orthogonal_neighbours(here):
                return "you can shore up only your own place or one next to it"
            if self.board[place].state != FLOODED:
                return f"the place is not flooded (it is {self.board[place].state})"
            return None
        if kind == "salvage":  # R10
            place = action.place
            tile = self.board[place]
            if place == here:
                return "you cannot salvage your own place"
            if place not in orthogonal_neighbours(here):
                return "you can salvage only a place next to you (up, down, left, right)"
            if tile.state == SEA:
                return "that place is sea"
            if tile.state == DOWN:
                return "that tile is face down (explore it first)"
            if tile.card == JOKER:
                return "the helicopter can never be salvaged"
            if is_king(tile.card):
                return "Kings can never be salvaged"
            if self.pawns_at(place):
                return "a pawn stands there"
            return None
        if kind == "give":  # R11
            to = action.to
            if not 0 <= to < len(self.pawns):
                return f"there is no pawn {to}"
            if to == me:
                return "you cannot give cards to yourself"
            if self.pawns[to] != here:
                return f"pawn {to} does not stand on your place"
            return self._missing_cards(action.cards)
        if kind == "raise":  # R12
            tile = self.board[here]
            if not is_king(tile.card):
                return "you are not standing on a King"
            suit = suit_of(tile.card)
            if suit in self.raised:
                return "that treasure is raised already"
            missing = self._missing_cards(action.cards)
            if missing:
                return missing
            need = self.rules.cards_per_treasure
            if len(action.cards) == need and all(suit_of(c) == suit for c in action.cards):
                return None
            if self.suit_short(suit):
                if len(action.cards) == need + 1:
                    return None
                return f"{suit} is short of a suit: the raise takes {need + 1} cards of any suits"
            return f"the raise takes {need} cards of {suit} (the suit is not short)"
        if kind == "takeoff":  # R13
            if len(self.raised) < 4:
                return f"only {len(self.raised)} of 4 treasures are raised"
            if any(p != HELICOPTER for p in self.pawns):
                return "not every pawn stands on the helicopter"
            return None
        return f"unknown action {kind!r}"

    def _missing_cards(self, cards: Sequence[str]) -> str | None:
        hand = self.salvage[self.current_pawn]
        if len(set(cards)) != len(cards):
            return "a card is named twice"
        for card in cards:
            if card not in hand:
                return f"{card} is not in your salvage"
        return None

    def apply(self, action: Action) -> None:
        """Play one action of the current pawn; raises IllegalAction with the reason."""
        reason = self.check(action)
        if reason:
            raise IllegalAction(reason)
        me = self.current_pawn
        here = self.pawns[me]
        kind = action.kind
        self.actions_left -= self.rules.swim_cost if kind == "swim" else 1
        self.actions_used[kind] += 1
        if kind in ("move", "swim"):
            target = step(here, DIRECTIONS[action.direction], 1 if kind == "move" else 2)
            self.pawns[me] = target
            self._reveal(target)
            self._event(kind, target, self.board[target].card)
        elif kind == "shore":
            self.board[action.place].state = DRY
            self._event(kind, action.place, self.board[action.place].card)
        elif kind == "salvage":
            tile = self.board[action.place]
            self.salvage[me].append(tile.card)
            self._event(kind, action.place, tile.card)
            tile.card, tile.state = None, SEA
        elif kind == "give":
            for card in action.cards:
                self.salvage[me].remove(card)
                self.salvage[action.to].append(card)
            self._event(kind, here, None, to=action.to, cards=tuple(action.cards))
        elif kind == "raise":
            suit = suit_of(self.board[here].card)
            for card in action.cards:
                self.salvage[me].remove(card)
            self.raised.append(suit)
            self.under_kings[suit] = list(action.cards)
            self._event(kind, here, self.board[here].card, cards=tuple(action.cards))
        elif kind == "takeoff":
            self._event(kind, here, JOKER)
            self._end("win")
            return
        self._check_position_losses()  # R18: after every action

    def legal_actions(self) -> list[Action]:
        """The canonical legal actions of the current pawn.

        Moves, swims, shore-ups, salvages and take-off are listed in full. Gives are listed as
        "all your cards of one suit to one pawn"; raises with the first cards of the King's suit
        in salvage order, or (short of a suit, R12) with the cards the team needs least. `apply`
        accepts any other legal give or raise too.
        """
        if self.over or self.turn == 0 or self.floods_left:
            return []
        me = self.current_pawn
        here = self.pawns[me]
        out: list[Action] = []
        for name in DIRECTIONS:
            out.append(Action("move", direction=name))
            out.append(Action("swim", direction=name))
        for place in [here] + orthogonal_neighbours(here):
            out.append(Action("shore", place=place))
        for place in orthogonal_neighbours(here):
            out.append(Action("salvage", place=place))
        hand = self.salvage[me]
        for to in self.pawns_at(here):
            if to == me:
                continue
            for suit in SUITS:
                cards = tuple(c for c in hand if suit_of(c) == suit)
                if cards:
                    out.append(Action("give", to=to, cards=cards))
        tile = self.board[here]
        if is_king(tile.card) and suit_of(tile.card) not in self.raised:
            suit = suit_of(tile.card)
            own = [c for c in hand if suit_of(c) == suit]
            need = self.rules.cards_per_treasure
            if len(own) >= need:
                out.append(Action("raise", cards=tuple(own[:need])))
            elif self.suit_short(suit) and len(hand) >= need + 1:
                out.append(Action("raise", cards=tuple(self.short_raise_cards(suit))))
        out.append(Action("takeoff"))
        return [a for a in out if self.check(a) is None]

    def short_raise_cards(self, suit: str) -> list[str]:
        """R12 short of a suit: which `cards_per_treasure + 1` cards to give up.

        Cards of raised suits first (nobody needs them), then the King's own suit, then cards of
        the suits with the most spare cards in play; salvage order breaks ties.
        """
        hand = self.salvage[self.current_pawn]
        in_play = self.land_in_play()
        spare = {s: sum(1 for c in in_play if suit_of(c) == s) for s in SUITS}

        def priority(card: str) -> tuple[int, int]:
            s = suit_of(card)
            if s in self.raised:
                return (0, 0)
            if s == suit:
                return (1, 0)
            return (2, -spare[s])

        ranked = sorted(hand, key=lambda c: (priority(c), hand.index(c)))
        return ranked[: self.rules.cards_per_treasure + 1]

    # -- the flood (R14, R15) --

    def start_flood_phase(self) -> None:
        """R14: the number of floods is fixed to the water level now."""
        if self.over:
            return
        self.actions_left = 0
        self.floods_left = self.water_level

    def flood(self, choose_escape: EscapeChooser = first_escape) -> None:
        """Resolve one flood: draw a column and a row card, flood or sink, then maybe rise."""
        if self.over or not self.floods_left:
            raise IllegalAction("no flood is due")
        self.floods_left -= 1
        col, row = self.col_pile.pop(0), self.row_pile.pop(0)
        self.col_drawn.append(col)
        self.row_drawn.append(row)
        self.floods += 1
        place = (col, row)
        tile = self.board[place]
        if tile.state == SEA:
            self._event("flood", place, None)  # R14: sea, nothing happens
        elif tile.state in (DOWN, DRY):
            tile.state = FLOODED  # turned face up if it was face down, then crosswise
            self._event("flood", place, tile.card)
        else:
            self._event("flood", place, tile.card)
            self._sink(place, choose_escape)
        if self.over:
            self.floods_left = 0
            return
        if not self.col_pile:  # both piles run out together after five floods
            self._rise()
        if self.over:
            self.floods_left = 0
            return
        self._check_position_losses()  # R18: after every flood

    def _rise(self) -> None:
        """R14: reshuffle both piles and take the top card off the gauge."""
        if len(self.gauge) == 1:
            self._end("water")  # the last card cannot be removed: the island is swallowed
            return
        removed = self.gauge.pop(0)
        self._event("rise", None, removed)
        self.passes += 1
        self.col_pile, self.row_pile = self.pile_source.piles(self.passes)
        self.col_drawn, self.row_drawn = [], []

    def _sink(self, place: Place, choose_escape: EscapeChooser) -> None:
        """R15: the place becomes sea; Kings, the helicopter and pawns on it are dealt with."""
        tile = self.board[place]
        card = tile.card
        self._event("sink", place, card)
        tile.card, tile.state = None, SEA
        if card == JOKER:
            self._end("helicopter")  # pawns on it stay where it was (RECORD-FORMAT `pawns`)
            return
        if is_king(card):
            suit = suit_of(card)
            if suit not in self.raised:
                # R15: the treasure is lost. The King still goes to the box so that all_cards()
                # keeps accounting for all 24 island cards after this loss.
                self.box.append(card)
                self._end("treasure")
                return
            self.set_aside.append(card)  # safe, with the cards under it
        else:
            self.box.append(card)
        for pawn in self.pawns_at(place):
            options = self.escape_options(place)
            if not options:
                self._end("drowned")
                return
            target = choose_escape(self, pawn, options)
            if target not in options:
                raise IllegalAction(f"pawn {pawn} cannot escape to {target[0]},{target[1]}")
            self.pawns[pawn] = target
            self._reveal(target)
            self._event("escape", target, self.board[target].card, pawn=pawn)

    def escape_options(self, place: Place) -> list[Place]:
        """R15: the up-to-8 surrounding tiles, in the RECORD-FORMAT default order."""
        return [p for p in (step(place, d) for d in ESCAPE_ORDER) if self.is_tile(p)]

    # -- losses checked on the state (R16, R17) --

    def _check_position_losses(self) -> None:
        # R18 order: treasure, helicopter, drowned and water arise only while a flood resolves
        # and end the game there; what is left to check on the state is cut_off, then cards.
        if self.cut_off():
            self._end("cut_off")
        elif self.cards_short():
            self._end("cards")

    def reachable(self) -> set[Place]:
        """Places some pawn can reach with moves and swims on the island as it stands (R16)."""
        can_swim = self.rules.swim_cost <= self.rules.actions_per_turn
        seen = set(self.pawns)
        queue = deque(self.pawns)
        while queue:
            here = queue.popleft()
            for delta in ORTHOGONAL:
                nxt = step(here, delta)
                if not on_island(nxt):
                    continue
                if self.is_tile(nxt):
                    target = nxt  # R7 move
                elif can_swim and self.is_tile(step(here, delta, 2)):
                    target = step(here, delta, 2)  # R8 swim over exactly one sea place
                else:
                    continue
                if target not in seen:
                    seen.add(target)
                    queue.append(target)
        return seen

    def targets(self) -> list[Place]:
        """R16: the Kings of unraised treasures and the helicopter."""
        places = [HELICOPTER] if self.is_tile(HELICOPTER) else []
        for suit in SUITS:
            if suit not in self.raised:
                place = self.king_place(suit)
                if place is not None:
                    places.append(place)
        return places

    def cut_off(self) -> bool:
        reach = self.reachable()
        return any(t not in reach for t in self.targets())

    def cards_short(self) -> bool:
        """R17: can the unraised treasures all still be raised from the land cards in play?"""
        need = self.rules.cards_per_treasure
        in_play = self.land_in_play()
        count = {s: sum(1 for c in in_play if suit_of(c) == s) for s in SUITS}
        reserved, short = 0, 0
        for suit in SUITS:
            if suit in self.raised:
                continue
            if count[suit] >= need:
                reserved += need
            else:
                short += 1
        return len(in_play) - reserved < (need + 1) * short

    # -- whole turns --

    def play_turn(self, actions: Iterable[Action], choose_escape: EscapeChooser = first_escape) -> None:
        """Begin a turn, apply the actions, then run the whole flood phase."""
        self.begin_turn()
        for action in actions:
            self.apply(action)
            if self.over:
                return
        self.run_flood_phase(choose_escape)

    def run_flood_phase(self, choose_escape: EscapeChooser = first_escape) -> None:
        self.start_flood_phase()
        while self.floods_left and not self.over:
            self.flood(choose_escape)

    # -- information (R19) --

    def public_view(self) -> PublicView:
        """What the table can see: face-down cards and undrawn pile orders are hidden (R19)."""
        return PublicView(
            rules=self.rules,
            board={p: (None if t.state == DOWN else t.card, t.state) for p, t in self.board.items()},
            pawns=tuple(self.pawns),
            salvage=tuple(tuple(h) for h in self.salvage),
            raised=tuple(self.raised),
            gauge=tuple(self.gauge),
            columns_drawn=tuple(self.col_drawn),
            rows_drawn=tuple(self.row_drawn),
            turn=self.turn,
            pawn=self.current_pawn,
            actions_left=self.actions_left,
            floods=self.floods,
            gone=tuple(self.box + self.set_aside + [c for cs in self.under_kings.values() for c in cs]),
        )

    def all_cards(self) -> list[str]:
        """Every one of the 24 island cards, wherever it is now (for invariant checks)."""
        cards = [t.card for t in self.board.values() if t.card and t.card != JOKER]
        cards += [c for h in self.salvage for c in h]
        cards += [c for cs in self.under_kings.values() for c in cs]
        cards += self.set_aside + self.box
        return cards

    def final_state(self) -> dict:
        """RECORD-FORMAT `final`."""
        return {
            "board": [[{"card": self.board[(c, r)].card, "state": self.board[(c, r)].state}
                       for c in range(1, 6)] for r in range(1, 6)],
            "pawns": [list(p) for p in self.pawns],
            "salvage": [list(h) for h in self.salvage],
            "raised": list(self.raised),
            "gauge": list(self.gauge),
        }


@dataclass(frozen=True)
class PublicView:
    """The public part of a state (R19): what a fair policy may decide from."""

    rules: Rules
    board: dict[Place, tuple[str | None, str]]  # (card or None when face down, state)
    pawns: tuple[Place, ...]
    salvage: tuple[tuple[str, ...], ...]
    raised: tuple[str, ...]
    gauge: tuple[str, ...]
    columns_drawn: tuple[int, ...]
    rows_drawn: tuple[int, ...]
    turn: int
    pawn: int
    actions_left: int
    floods: int

    gone: tuple[str, ...]  # sunk, set aside or under raised Kings: all were seen face up

    def unseen_cards(self) -> list[str]:
        """Island cards nobody has seen yet: exactly those lying face down."""
        seen = {card for card, _ in self.board.values() if card}
        seen |= {c for h in self.salvage for c in h} | set(self.gone)
        return [c for c in ISLAND_CARDS if c not in seen]


def new_game(rules: Rules, seed: int) -> IslandEscapeEngine:
    """A freshly dealt game: deal and flood piles from independent streams of `seed`."""
    return IslandEscapeEngine(rules, deal(seed), PileSource(seed))


__all__ = [
    "Action", "Event", "IslandEscapeEngine", "IllegalAction", "PileSource", "PublicView", "LAND_CARDS",
    "DOWN", "DRY", "FLOODED", "SEA", "LOSS_CAUSES", "deal", "first_escape", "new_game",
    "parse_place",
]
