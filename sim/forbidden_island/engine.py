"""The reference engine for Forbidden Island, in plain readable Python.

This is the lab's definition of the game: slow on purpose, every rule in one place citing its
ruling F1-F14 (../shared/rules/FI-RULINGS.md; docs/RULES-FI.md maps rulings to code).

The game is a sequence of decision points. At each one `legal_actions()` lists every action any
player may take now, and `apply(action)` plays one. Drawing cards is an action of the player
whose turn it is ("draw", "flood"), so that special cards can be played before and between
draws (F9). Over-limit discards (F8) and swims to safety (F11) are decisions of the player
concerned, taken before anything else may happen::

    game = new_game(Rules(players=3, difficulty="elite"), seed=7)
    while not game.over:
        game.apply(choose(game.legal_actions()))

Randomness never lives in the state: the deal comes from `deal(rules, seed)` and every
reshuffle during play asks a `Shuffler`, which can follow a script (records) or a seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from sim.forbidden_island.rules import (
    FLOOD_DRAWS,
    FOOLS_LANDING,
    LIFT,
    PICKUP_TILES,
    PLACE_SET,
    PLACES,
    ROLES,
    SANDBAGS,
    SKULL,
    START_TILE,
    TILE_CODES,
    TREASURE_DECK,
    TREASURES,
    WATERS_RISE,
    Rules,
    is_treasure_card,
    neighbours,
    parse_place,
    pickup_treasure,
    place_text,
)

Place = tuple[int, int]

DRY, FLOODED, SUNK = "dry", "flooded", "sunk"

# F14: the loss causes, in the order they are checked (the first that matches is the cause).
LOSS_CAUSES = ("water", "drowned", "treasure", "fools_landing")
PHASES = ("actions", "treasure_draw", "flood_draw", "discard", "swim", "over")

# Kinds taken by the player whose turn it is (the record names no player for them) ...
IN_TURN_KINDS = ("move", "fly", "navigate", "shore", "give", "capture", "draw", "flood")
# ... and kinds that name the player who decides, who may be anyone (F8, F9, F11, F13).
NAMED_KINDS = ("discard", "swim", "sandbags", "lift", "liftoff")
ACTION_KINDS = IN_TURN_KINDS + NAMED_KINDS
SPENDS_AN_ACTION = ("move", "fly", "navigate", "shore", "give", "capture")  # F5


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why."""


class SetupError(ValueError):
    """A setup (layout, roles, decks) that cannot start a game; the message says why."""


# --- Actions ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Action:
    """One decision, as written in a record (docs/FI-RECORD-FORMAT.md).

    `by` is the deciding player for the named kinds and None for in-turn kinds (always the
    player whose turn it is). `pawn` is the receiver of a give or the pawn a Navigator moves.
    """

    kind: str
    by: int | None = None
    place: Place | None = None
    place2: Place | None = None  # an Engineer's second shore-up
    pawn: int | None = None
    pawns: tuple[int, ...] = ()  # Helicopter Lift passengers, ascending
    card: str | None = None

    def __post_init__(self) -> None:
        """One spelling per action: an Engineer's two tiles in island order, passengers ascending."""
        a, b = self.place, self.place2
        if a in PLACE_SET and b in PLACE_SET and PLACES.index(b) < PLACES.index(a):
            object.__setattr__(self, "place", b)
            object.__setattr__(self, "place2", a)
        object.__setattr__(self, "pawns", tuple(sorted(self.pawns)))

    def __str__(self) -> str:
        k = self.kind
        if k in ("move", "fly"):
            return f"{k} {place_text(self.place)}"
        if k == "navigate":
            return f"navigate {self.pawn} {place_text(self.place)}"
        if k == "shore":
            return "shore " + " ".join(place_text(p) for p in (self.place, self.place2) if p)
        if k == "give":
            return f"give {self.pawn} {self.card}"
        if k in ("capture", "draw", "flood"):
            return k
        if k == "discard":
            return f"discard {self.by} {self.card}"
        if k in ("swim", "sandbags"):
            return f"{k} {self.by} {place_text(self.place)}"
        if k == "lift":
            return f"lift {self.by} {'+'.join(map(str, self.pawns))} {place_text(self.place)}"
        return f"liftoff {self.by}"

    @staticmethod
    def parse(text: str) -> Action:
        """Read a record entry; raises ValueError with a short reason."""
        words = text.split()
        if not words:
            raise ValueError("empty entry")
        kind, args = words[0], words[1:]

        def player(word: str) -> int:
            if not word.isdigit():
                raise ValueError(f"{word!r} is not a player number")
            return int(word)

        def expect(n: int, shape: str) -> None:
            if len(args) != n:
                raise ValueError(f"{kind} takes {shape}")

        if kind in ("move", "fly"):
            expect(1, "one place C,R")
            return Action(kind, place=parse_place(args[0]))
        if kind == "navigate":
            expect(2, "a player number and a place C,R")
            return Action(kind, pawn=player(args[0]), place=parse_place(args[1]))
        if kind == "shore":
            if len(args) not in (1, 2):
                raise ValueError("shore takes one place C,R (two for the Engineer)")
            places = [parse_place(a) for a in args]
            return Action(kind, place=places[0], place2=places[1] if len(places) == 2 else None)
        if kind == "give":
            expect(2, "a player number and a treasure card")
            return Action(kind, pawn=player(args[0]), card=args[1])
        if kind in ("capture", "draw", "flood"):
            expect(0, "nothing")
            return Action(kind)
        if kind == "discard":
            expect(2, "a player number and a card")
            return Action(kind, by=player(args[0]), card=args[1])
        if kind in ("swim", "sandbags"):
            expect(2, "a player number and a place C,R")
            return Action(kind, by=player(args[0]), place=parse_place(args[1]))
        if kind == "lift":
            expect(3, "the card's holder, the passengers joined by + (e.g. 0+2) and a place C,R")
            pawns = tuple(sorted(player(w) for w in args[1].split("+")))
            if len(set(pawns)) != len(pawns):
                raise ValueError("a passenger is named twice")
            return Action(kind, by=player(args[0]), pawns=pawns, place=parse_place(args[2]))
        if kind == "liftoff":
            expect(1, "the player number of the Helicopter Lift's holder")
            return Action(kind, by=player(args[0]))
        raise ValueError(f"unknown action {kind!r} (one of {', '.join(ACTION_KINDS)})")


# --- Setup and randomness passed in -----------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """What the shuffles before play decide (F1, F2, F3): everything else follows the rules."""

    layout: tuple[str, ...]  # the tile code at each place of PLACES (row-major)
    roles: tuple[str, ...]  # one per player, in turn order
    flood_deck: tuple[str, ...]  # top first, before the six setup floods
    treasure_deck: tuple[str, ...]  # top first, before the deal

    def validate(self, rules: Rules) -> None:
        if sorted(self.layout) != sorted(TILE_CODES):
            raise SetupError("the layout must place each of the 24 tiles once")
        if len(self.roles) != rules.players:
            raise SetupError(f"{rules.players} players need {rules.players} roles, not {len(self.roles)}")
        for role in self.roles:
            if role not in ROLES:
                raise SetupError(f"{role!r} is not a role (one of {', '.join(ROLES)})")
        if len(set(self.roles)) != len(self.roles):
            raise SetupError("each player has a different role (F2)")
        if sorted(self.flood_deck) != sorted(TILE_CODES):
            raise SetupError("the flood deck must hold each of the 24 tiles' cards once")
        if sorted(self.treasure_deck) != sorted(TREASURE_DECK):
            raise SetupError("the treasure deck must hold the 28 cards (5 of each treasure, "
                             "3 lift, 2 sandbags, 3 waters_rise)")


def deal(rules: Rules, seed: int = 0) -> Setup:
    """The seeded setup: each shuffle has a stream of its own, so that the island, the roles
    and the decks of one seed stay the same across difficulties, and the island and decks
    across player counts (common random numbers)."""
    layout = list(TILE_CODES)
    random.Random(f"fi/layout/{seed}").shuffle(layout)
    roles = random.Random(f"fi/roles/{seed}").sample(ROLES, rules.players)
    flood_deck = list(TILE_CODES)
    random.Random(f"fi/flood-deck/{seed}").shuffle(flood_deck)
    treasure_deck = list(TREASURE_DECK)
    random.Random(f"fi/treasure-deck/{seed}").shuffle(treasure_deck)
    return Setup(tuple(layout), tuple(roles), tuple(flood_deck), tuple(treasure_deck))


class ShuffleError(ValueError):
    """A scripted shuffle that does not fit the cards being shuffled."""


class Shuffler:
    """Every shuffle during a game: the setup's Waters Rise! return (F3), the flood discard put
    back on top (F6) and the empty piles replaced (F7).

    `script` lists (pile, order) pairs to use first, in the order the shuffles happen; after it
    runs out each pile ("treasure" or "flood") shuffles with its own seeded stream. `log`
    records what every shuffle gave, so a game can be written down and replayed exactly.
    """

    def __init__(self, seed: int = 0, script: Sequence[tuple[str, Sequence[str]]] = ()):
        self.seed = seed
        self.script = [(pile, list(order)) for pile, order in script]
        self.rngs: dict[str, random.Random] = {}
        self.log: list[tuple[str, list[str]]] = []

    def shuffle(self, pile: str, cards: Sequence[str]) -> list[str]:
        if self.script:
            want, order = self.script.pop(0)
            if want != pile:
                raise ShuffleError(f"shuffle {len(self.log) + 1} is of the {pile} pile, the script says {want}")
            if sorted(order) != sorted(cards):
                raise ShuffleError(f"shuffle {len(self.log) + 1} ({pile}) must order exactly the cards "
                                   f"{sorted(cards)}")
        else:
            if pile not in self.rngs:
                self.rngs[pile] = random.Random(f"fi/reshuffle-{pile}/{self.seed}")
            order = list(cards)
            self.rngs[pile].shuffle(order)
        self.log.append((pile, list(order)))
        return list(order)


# --- The game ----------------------------------------------------------------------------------------


@dataclass
class ForbiddenIslandEngine:
    """The whole state of one game, hidden piles included."""

    rules: Rules
    setup: Setup
    shuffler: Shuffler = field(default_factory=Shuffler)

    def __post_init__(self) -> None:
        self.setup.validate(self.rules)
        self.layout: dict[Place, str] = dict(zip(PLACES, self.setup.layout, strict=True))  # place -> tile
        self.place_of: dict[str, Place] = {tile: place for place, tile in self.layout.items()}
        self.state: dict[str, str] = {tile: DRY for tile in TILE_CODES}  # tile -> dry/flooded/sunk
        self.roles: list[str] = list(self.setup.roles)
        self.pawns: list[Place] = [self.place_of[START_TILE[role]] for role in self.roles]  # F1
        self.hands: list[list[str]] = [[] for _ in self.roles]
        self.treasure_pile: list[str] = list(self.setup.treasure_deck)  # top first
        self.treasure_discard: list[str] = []
        self.flood_pile: list[str] = list(self.setup.flood_deck)  # top first
        self.flood_discard: list[str] = []
        self.flood_out: list[str] = []  # the cards of sunk tiles, out of the game (F7)
        # What the table knows of the flood pile's order: its cards form layers, top first, each
        # a set whose order is hidden (after Waters Rise! the old discard lies on top). Sizes only.
        self.flood_layers: list[int] = []
        self.captured: list[str] = []  # treasures in the order captured
        self.mark = self.rules.start_mark  # F4
        self.turn = 0  # setup events belong to turn 0
        self.current = 0  # F2: turns pass in deal order
        self.stage = "actions"  # actions -> treasure -> flood, then the next turn
        self.actions_left = self.rules.actions_per_turn
        self.draws_left = 0
        self.floods_left = 0
        self.flew = False  # the Pilot's flight of this turn is used (F10)
        self.swimmers: list[int] = []  # players whose tile sank, still to swim, ascending; any may go first (F11)
        self.outcome: str | None = None  # "win" or one of LOSS_CAUSES
        self.events: list[dict] = []
        self.history: list[tuple[int, Action]] = []  # (turn, action) of every applied action
        self._set_up()

    def _set_up(self) -> None:
        """F3: six floods, then two cards each with any Waters Rise! set aside and returned."""
        for _ in range(self.rules.setup_floods):
            tile = self.flood_pile.pop(0)
            self.state[tile] = FLOODED
            self.flood_discard.append(tile)
            self._event("flood", tile=tile, place=self.place_of[tile])
        self.flood_layers = [len(self.flood_pile)]
        set_aside = []
        for _ in range(self.rules.setup_cards):
            for seat in range(self.rules.players):
                card = self.treasure_pile.pop(0)
                while card == WATERS_RISE:  # set aside, the next card dealt instead
                    set_aside.append(card)
                    card = self.treasure_pile.pop(0)
                self.hands[seat].append(card)
                self._event("deal", player=seat, card=card)
        if set_aside:
            self.treasure_pile = self.shuffler.shuffle("treasure", self.treasure_pile + set_aside)
            self._event("setup_reshuffle", cards=len(set_aside))
        self.turn = 1

    def _event(self, kind: str, **details) -> None:
        self.events.append({"turn": self.turn, "kind": kind, **details})

    # -- simple queries --

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def flood_count(self) -> int:
        """F4: the flood cards a turn draws at the current mark (0 at the skull)."""
        return FLOOD_DRAWS.get(self.mark, 0)

    def tile_at(self, place: Place) -> str:
        return self.layout[place]

    def state_at(self, place: Place) -> str:
        return self.state[self.layout[place]]

    def standing(self, place: Place) -> bool:
        """A place whose tile has not sunk."""
        return place in PLACE_SET and self.state[self.layout[place]] != SUNK

    def players_at(self, place: Place) -> list[int]:
        return [seat for seat, p in enumerate(self.pawns) if p == place]

    def seat_of(self, role: str) -> int | None:
        return self.roles.index(role) if role in self.roles else None

    def over_limit(self) -> int | None:
        """F8: the player holding more cards than the limit, if any (only one can be)."""
        for seat, hand in enumerate(self.hands):
            if len(hand) > self.rules.hand_limit:
                return seat
        return None

    @property
    def phase(self) -> str:
        if self.outcome is not None:
            return "over"
        if self.swimmers:
            return "swim"
        if self.over_limit() is not None:
            return "discard"
        return {"actions": "actions", "treasure": "treasure_draw", "flood": "flood_draw"}[self.stage]

    def treasure_cards(self) -> list[str]:
        """Every one of the 28 treasure-deck cards, wherever it is (for invariant checks)."""
        return self.treasure_pile + self.treasure_discard + [c for hand in self.hands for c in hand]

    def flood_cards(self) -> list[str]:
        """Every one of the 24 flood cards: draw pile, discard, or out with its sunk tile."""
        return self.flood_pile + self.flood_discard + self.flood_out

    # -- where pawns can go (F10, F11) --

    def move_targets(self, seat: int) -> list[Place]:
        """F10: a walk to a side neighbour (corners too for the Explorer); the Diver also
        swims through any chain of side-adjacent flooded or sunk places to a standing tile."""
        here = self.pawns[seat]
        role = self.roles[seat]
        targets = [p for p in neighbours(here, diagonal=role == "explorer") if self.standing(p)]
        if role == "diver":
            targets += [p for p in self._diver_chain_ends(here) if p not in targets]
        return [p for p in PLACES if p in set(targets)]

    def _diver_chain_ends(self, start: Place) -> set[Place]:
        ends: set[Place] = set()
        seen = {start}
        frontier = [start]
        while frontier:
            nxt = []
            for place in frontier:
                for p in neighbours(place):
                    if p in seen:
                        continue
                    seen.add(p)
                    if self.standing(p):
                        ends.add(p)
                    if self.state_at(p) != DRY:  # flooded or sunk: the chain goes on through it
                        nxt.append(p)
            frontier = nxt
        ends.discard(start)
        return ends

    def fly_targets(self, seat: int) -> list[Place]:
        """F10: the Pilot, once a turn, to any standing tile but its own. A tile it could walk
        to is a target too: flying there spends the turn's flight for nothing, but it is allowed."""
        if self.roles[seat] != "pilot" or self.flew:
            return []
        here = self.pawns[seat]
        return [p for p in PLACES if p != here and self.standing(p)]

    def navigate_targets(self, pawn: int) -> list[Place]:
        """F10: where the Navigator may move another pawn: up to two steps of that pawn's own
        walk (corners for the Explorer); the Diver may cross one sunk place on the way; the
        pawn ends on a standing tile other than its start."""
        if self.seat_of("navigator") == pawn:
            return []
        here = self.pawns[pawn]
        role = self.roles[pawn]
        diagonal = role == "explorer"
        out = set()
        for first in neighbours(here, diagonal):
            if self.standing(first):
                out.add(first)
            elif role != "diver":
                continue
            for second in neighbours(first, diagonal):
                if self.standing(second):
                    out.add(second)
        out.discard(here)
        return [p for p in PLACES if p in out]

    def shore_targets(self, seat: int) -> list[Place]:
        """F5/F10: flooded tiles at the player's place or next to it (corners for the Explorer)."""
        here = self.pawns[seat]
        near = [here] + neighbours(here, diagonal=self.roles[seat] == "explorer")
        return [p for p in PLACES if p in near and self.state_at(p) == FLOODED]

    def escape_targets(self, seat: int) -> list[Place]:
        """F11: where a pawn whose tile sank may swim. Empty means it drowns."""
        role = self.roles[seat]
        here = self.pawns[seat]
        if role == "pilot":
            return [p for p in PLACES if self.standing(p)]
        if role == "diver":
            return self._nearest_standing(here)
        return [p for p in neighbours(here, diagonal=role == "explorer") if self.standing(p)]

    def _nearest_standing(self, start: Place) -> list[Place]:
        """The standing tiles fewest side steps away, counting steps across sunk places."""
        seen = {start}
        frontier = [start]
        while frontier:
            ring = []
            for place in frontier:
                for p in neighbours(place):
                    if p not in seen:
                        seen.add(p)
                        ring.append(p)
            found = [p for p in ring if self.standing(p)]
            if found:
                return [p for p in PLACES if p in set(found)]
            frontier = ring
        return []

    # -- legal actions --

    def legal_actions(self) -> list[Action]:
        """Every action some player may take now, in a fixed order."""
        phase = self.phase
        if phase == "over":
            return []
        if phase == "swim":  # F11: each pawn still on the sunk tile, in any order; F9: no special card meanwhile
            return [Action("swim", by=seat, place=p) for seat in self.swimmers for p in self.escape_targets(seat)]
        if phase == "discard":  # F8: only the player above the limit acts
            seat = self.over_limit()
            cards = list(dict.fromkeys(self.hands[seat]))
            return [Action("discard", by=seat, card=c) for c in cards] + list(self._special_actions([seat]))
        out: list[Action] = []
        if phase == "actions":
            out += self._turn_actions()
            out.append(Action("draw"))
        elif phase == "treasure_draw":
            out.append(Action("draw"))
        else:
            out.append(Action("flood"))
        out += self._special_actions(range(self.rules.players))
        return out

    def _turn_actions(self) -> list[Action]:
        me = self.current
        role = self.roles[me]
        out = [Action("move", place=p) for p in self.move_targets(me)]
        out += [Action("fly", place=p) for p in self.fly_targets(me)]
        if role == "navigator":
            for pawn in range(self.rules.players):
                out += [Action("navigate", pawn=pawn, place=p) for p in self.navigate_targets(pawn)]
        shore = self.shore_targets(me)
        out += [Action("shore", place=p) for p in shore]
        if role == "engineer":
            out += [Action("shore", place=a, place2=b) for a, b in combinations(shore, 2)]
        for to in self._give_receivers(me):
            for card in dict.fromkeys(c for c in self.hands[me] if is_treasure_card(c)):
                out.append(Action("give", pawn=to, card=card))
        if self._capturable(me):
            out.append(Action("capture"))
        return out

    def _give_receivers(self, seat: int) -> list[int]:
        """F5/F10: players on the giver's tile; anyone anywhere for the Messenger."""
        if self.roles[seat] == "messenger":
            return [p for p in range(self.rules.players) if p != seat]
        return [p for p in self.players_at(self.pawns[seat]) if p != seat]

    def _capturable(self, seat: int) -> str | None:
        """F12: the treasure `seat` can capture where it stands, if any."""
        treasure = pickup_treasure(self.tile_at(self.pawns[seat]))
        if treasure is None or treasure in self.captured:
            return None
        if self.hands[seat].count(treasure) < self.rules.capture_cards:
            return None
        return treasure

    def _can_lift_off(self) -> bool:
        """F13: all four treasures captured and every pawn on Fools' Landing."""
        landing = self.place_of[FOOLS_LANDING]
        return len(self.captured) == len(TREASURES) and all(p == landing for p in self.pawns)

    def _special_actions(self, seats: Sequence[int]) -> Iterator[Action]:
        """F9, F13: Helicopter Lift (moves, or the final lift-off) and Sandbags by their holders."""
        flooded = [p for p in PLACES if self.state_at(p) == FLOODED]
        groups = {}
        for seat, place in enumerate(self.pawns):
            groups.setdefault(place, []).append(seat)
        for seat in seats:
            hand = self.hands[seat]
            if LIFT in hand:
                if self._can_lift_off():
                    yield Action("liftoff", by=seat)
                for place, group in groups.items():
                    for size in range(1, len(group) + 1):
                        for pawns in combinations(group, size):
                            for to in PLACES:
                                if to != place and self.standing(to):
                                    yield Action("lift", by=seat, pawns=pawns, place=to)
            if SANDBAGS in hand:
                for place in flooded:
                    yield Action("sandbags", by=seat, place=place)

    def decider(self, action: Action) -> int:
        """The player who takes this decision."""
        return self.current if action.kind in IN_TURN_KINDS else action.by

    def check(self, action: Action) -> str | None:
        """Why `action` is illegal now, or None when it is legal."""
        phase = self.phase
        if phase == "over":
            return f"the game is over ({self.outcome})"
        kind = action.kind
        if kind not in ACTION_KINDS:
            return f"unknown action {kind!r}"
        if kind in NAMED_KINDS and not (isinstance(action.by, int) and 0 <= action.by < self.rules.players):
            return f"there is no player {action.by}"
        if phase == "swim":
            who = ("player " if len(self.swimmers) == 1 else "players ") + ", ".join(map(str, self.swimmers))
            if kind != "swim":
                return f"{who} must first swim to safety (F11); nothing else may happen meanwhile (F9)"
            seat = action.by
            if seat not in self.swimmers:
                return f"player {seat} is not on the tile that sank; {who} must swim (F11)"
            targets = self.escape_targets(seat)
            if action.place not in targets:
                return (f"the {self.roles[seat]} can swim only to " + " ".join(map(place_text, targets)))
            return None
        if kind == "swim":
            return "nobody is swimming: no tile with a pawn on it has just sunk"
        if kind in ("lift", "sandbags", "liftoff"):
            return self._check_special(action, phase)
        if phase == "discard":
            seat = self.over_limit()
            if kind != "discard":
                return (f"player {seat} holds {len(self.hands[seat])} cards and must first discard "
                        f"or play a special card (F8)")
            if action.by != seat:
                return f"player {seat}, not player {action.by}, is above the hand limit (F8)"
            if action.card not in self.hands[seat]:
                return f"player {seat} holds no {action.card}"
            return None
        if kind == "discard":
            return f"nobody holds more than {self.rules.hand_limit} cards (F8)"
        if kind == "draw":
            if phase not in ("actions", "treasure_draw"):
                return "the treasure draws of this turn are done (F5)"
            return None
        if kind == "flood":
            if phase != "flood_draw":
                return "the flood draw comes after the actions and the two treasure draws (F5)"
            return None
        if phase != "actions":
            return "the actions of this turn are over (F5)"
        return self._check_turn_action(action)

    def _check_turn_action(self, action: Action) -> str | None:
        me = self.current
        role = self.roles[me]
        kind = action.kind
        if kind == "move":
            if action.place not in self.move_targets(me):
                return f"the {role} cannot move from {place_text(self.pawns[me])} to {place_text(action.place)}"
            return None
        if kind == "fly":
            if role != "pilot":
                return "only the Pilot flies (F10)"
            if self.flew:
                return "the Pilot has flown already this turn (F10)"
            if action.place not in self.fly_targets(me):
                return f"{place_text(action.place)} is sunk or the Pilot's own tile (F10)"
            return None
        if kind == "navigate":
            if role != "navigator":
                return "only the Navigator moves other pawns (F10)"
            if not (isinstance(action.pawn, int) and 0 <= action.pawn < self.rules.players):
                return f"there is no player {action.pawn}"
            if action.pawn == me:
                return "the Navigator moves other pawns; to move yourself use move"
            if action.place not in self.navigate_targets(action.pawn):
                return (f"the {self.roles[action.pawn]} cannot be moved from "
                        f"{place_text(self.pawns[action.pawn])} to {place_text(action.place)} in two steps")
            return None
        if kind == "shore":
            targets = self.shore_targets(me)
            places = [p for p in (action.place, action.place2) if p is not None]
            if len(places) == 2 and role != "engineer":
                return "only the Engineer shores up two tiles in one action (F10)"
            if len(places) == 2 and places[0] == places[1]:
                return "the two tiles must differ"
            for p in places:
                if p not in targets:
                    return f"{place_text(p)} is not a flooded tile at or next to the player"
            return None
        if kind == "give":
            if action.card not in self.hands[me]:
                return f"player {me} holds no {action.card}"
            if not is_treasure_card(action.card):
                return "only treasure cards are given, never Helicopter Lift or Sandbags"
            if action.pawn not in self._give_receivers(me):
                return f"player {action.pawn} is not on the giver's tile (only the Messenger gives anywhere)"
            return None
        if kind == "capture":
            if self._capturable(me) is None:
                return (f"a capture takes {self.rules.capture_cards} cards of an uncaptured treasure "
                        "and one of its two tiles (F12)")
            return None
        return f"unknown action {kind!r}"

    def _check_special(self, action: Action, phase: str) -> str | None:
        seat = action.by
        kind = action.kind
        if phase == "discard" and seat != self.over_limit():
            return f"player {self.over_limit()} must first discard or play a special card (F8)"
        card = SANDBAGS if kind == "sandbags" else LIFT
        if card not in self.hands[seat]:
            return f"player {seat} holds no {card}"
        if kind == "sandbags":
            if not self.standing(action.place) or self.state_at(action.place) != FLOODED:
                return f"{place_text(action.place)} is not a flooded tile (F9)"
            return None
        if kind == "liftoff":
            if not self._can_lift_off():
                return "the lift-off needs all four treasures and every pawn on Fools' Landing (F13)"
            return None
        pawns = action.pawns
        if not pawns or any(not 0 <= p < self.rules.players for p in pawns) or len(set(pawns)) != len(pawns):
            return "name one or more different players to lift"
        start = self.pawns[pawns[0]]
        if any(self.pawns[p] != start for p in pawns):
            return "the passengers must stand together on one tile (F9)"
        if action.place == start or not self.standing(action.place):
            return f"{place_text(action.place)} is sunk or where the passengers already are (F9)"
        return None

    # -- playing an action --

    def apply(self, action: Action) -> None:
        """Play one action; raises IllegalAction with the reason if it is not legal now."""
        reason = self.check(action)
        if reason:
            raise IllegalAction(reason)
        self.history.append((self.turn, action))
        getattr(self, f"_do_{action.kind}")(action)
        if action.kind in SPENDS_AN_ACTION:
            self.actions_left -= 1
        self._check_losses()
        self._advance()

    def _do_move(self, a: Action) -> None:
        self.pawns[self.current] = a.place
        self._event("move", player=self.current, place=a.place)

    def _do_fly(self, a: Action) -> None:
        self.flew = True
        self.pawns[self.current] = a.place
        self._event("fly", player=self.current, place=a.place)

    def _do_navigate(self, a: Action) -> None:
        self.pawns[a.pawn] = a.place
        self._event("navigate", player=self.current, pawn=a.pawn, place=a.place)

    def _do_shore(self, a: Action) -> None:
        for p in (a.place, a.place2):
            if p is not None:
                self.state[self.layout[p]] = DRY
                self._event("shore", player=self.current, place=p)

    def _do_give(self, a: Action) -> None:
        self.hands[self.current].remove(a.card)
        self.hands[a.pawn].append(a.card)  # above the limit: the receiver discards at once (F8)
        self._event("give", player=self.current, to=a.pawn, card=a.card)

    def _do_capture(self, a: Action) -> None:
        treasure = self._capturable(self.current)
        for _ in range(self.rules.capture_cards):
            self.hands[self.current].remove(treasure)
            self.treasure_discard.append(treasure)  # F7: they stay in circulation
        self.captured.append(treasure)
        self._event("capture", player=self.current, treasure=treasure, place=self.pawns[self.current])

    def _do_draw(self, a: Action) -> None:
        """F5, F6, F7: one treasure-deck card."""
        if self.stage == "actions":  # drawing ends the actions early
            self.stage = "treasure"
            self.draws_left = self.rules.treasure_draws
        self.draws_left -= 1
        card = self.treasure_pile.pop(0)
        self._event("draw", player=self.current, card=card)
        if card == WATERS_RISE:
            self._waters_rise()
            self.treasure_discard.append(card)
        else:
            self.hands[self.current].append(card)
        if not self.treasure_pile and not self.over:  # F7; F14: nothing is shuffled once the game is lost
            self.treasure_pile = self.shuffler.shuffle("treasure", self.treasure_discard)
            self.treasure_discard = []
            self._event("treasure_reshuffle")

    def _waters_rise(self) -> None:
        """F6: one mark up; the flood discard, shuffled, goes on top of the flood pile. F14: the
        rise is an event of its own, so at the skull the game is lost before that shuffle."""
        self.mark += 1
        self._event("waters_rise", mark=self.mark)
        self._check_losses()
        if self.flood_discard and not self.over:
            self.flood_pile = self.shuffler.shuffle("flood", self.flood_discard) + self.flood_pile
            self.flood_layers.insert(0, len(self.flood_discard))
            self.flood_discard = []

    def _do_flood(self, a: Action) -> None:
        """F5, F7, F11: one flood card; a dry tile floods, a flooded one sinks."""
        self.floods_left -= 1
        tile = self.flood_pile.pop(0)
        self.flood_layers[0] -= 1
        if not self.flood_layers[0]:
            self.flood_layers.pop(0)
        place = self.place_of[tile]
        if self.state[tile] == DRY:
            self.state[tile] = FLOODED
            self.flood_discard.append(tile)
            self._event("flood", tile=tile, place=place)
        else:
            self.state[tile] = SUNK
            self.flood_out.append(tile)  # F7: the card leaves the game with its tile
            self._event("sink", tile=tile, place=place)
            self.swimmers = self.players_at(place)  # F11: each swims at once, in any order
            self._check_losses()  # F14: a sinking that loses the game ends it before any reshuffle
        if not self.flood_pile and self.flood_discard and not self.over:  # F7
            self.flood_pile = self.shuffler.shuffle("flood", self.flood_discard)
            self.flood_layers = [len(self.flood_pile)]
            self.flood_discard = []
            self._event("flood_reshuffle")

    def _do_swim(self, a: Action) -> None:
        self.swimmers.remove(a.by)
        self.pawns[a.by] = a.place
        self._event("swim", player=a.by, place=a.place)

    def _do_discard(self, a: Action) -> None:
        self.hands[a.by].remove(a.card)
        self.treasure_discard.append(a.card)
        self._event("discard", player=a.by, card=a.card)

    def _play_card(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self.treasure_discard.append(card)

    def _do_sandbags(self, a: Action) -> None:
        self._play_card(a.by, SANDBAGS)
        self.state[self.layout[a.place]] = DRY
        self._event("sandbags", player=a.by, place=a.place)

    def _do_lift(self, a: Action) -> None:
        self._play_card(a.by, LIFT)
        for p in a.pawns:
            self.pawns[p] = a.place
        self._event("lift", player=a.by, pawns=list(a.pawns), place=a.place)

    def _do_liftoff(self, a: Action) -> None:
        self._play_card(a.by, LIFT)
        self._event("liftoff", player=a.by)
        self.outcome = "win"  # F13

    # -- losses (F14) and the flow of a turn (F5) --

    def loss_cause(self) -> str | None:
        """F14, checked on the state after every event: the first cause that holds."""
        if self.mark >= SKULL:
            return "water"
        if any(not self.escape_targets(seat) for seat in self.swimmers):
            return "drowned"
        for treasure in TREASURES:
            if treasure not in self.captured and all(self.state[t] == SUNK for t in PICKUP_TILES[treasure]):
                return "treasure"
        if self.state[FOOLS_LANDING] == SUNK:
            return "fools_landing"
        return None

    def _check_losses(self) -> None:
        if self.outcome is not None:
            return
        cause = self.loss_cause()
        if cause:
            self.outcome = cause  # F14: final, nothing is played afterwards
            self._event("loss", cause=cause)

    def _advance(self) -> None:
        """Move the turn on once nothing is pending: actions, treasure draws, floods, next turn."""
        if self.outcome is not None or self.swimmers or self.over_limit() is not None:
            return
        if self.stage == "actions" and self.actions_left == 0:
            self.stage = "treasure"
            self.draws_left = self.rules.treasure_draws
        if self.stage == "treasure" and self.draws_left == 0:
            self.stage = "flood"
            self.floods_left = self.flood_count  # F5: fixed now, at the start of the flood draw
        if self.stage == "flood" and self.floods_left == 0:
            self.turn += 1
            self.current = (self.current + 1) % self.rules.players
            self.stage = "actions"
            self.actions_left = self.rules.actions_per_turn
            self.flew = False

    # -- information --

    def public_view(self) -> PublicView:
        """What every player can see: all but the order of the two draw piles. The flood pile
        is shown as its known layers (sets of cards, top layer first); the treasure pile only
        by its size, as its cards follow from the hands and the discard."""
        layers, start = [], 0
        for size in self.flood_layers:
            layers.append(tuple(sorted(self.flood_pile[start:start + size])))
            start += size
        return PublicView(
            rules=self.rules, layout=tuple(self.setup.layout), roles=tuple(self.roles),
            state=tuple(self.state[t] for t in TILE_CODES), pawns=tuple(self.pawns),
            hands=tuple(tuple(h) for h in self.hands), captured=tuple(self.captured), mark=self.mark,
            treasure_pile_size=len(self.treasure_pile), treasure_discard=tuple(self.treasure_discard),
            flood_layers=tuple(layers), flood_discard=tuple(self.flood_discard), flood_out=tuple(self.flood_out),
            turn=self.turn, current=self.current, phase=self.phase, actions_left=self.actions_left,
            draws_left=self.draws_left, floods_left=self.floods_left, flew=self.flew,
            swimmers=tuple(self.swimmers), outcome=self.outcome,
        )

    # -- reporting --

    def final_state(self) -> dict:
        """The end state as plain JSON data (docs/FI-RECORD-FORMAT.md `final`)."""
        return {
            "tiles": {tile: self.state[tile] for tile in TILE_CODES},
            "pawns": [list(p) for p in self.pawns],
            "hands": [list(h) for h in self.hands],
            "captured": list(self.captured),
            "mark": self.mark,
        }


@dataclass(frozen=True)
class PublicView:
    """The public part of a state: what a fair player may decide from (the draw piles' order
    is hidden; `state` follows rules.TILE_CODES)."""

    rules: Rules
    layout: tuple[str, ...]
    roles: tuple[str, ...]
    state: tuple[str, ...]
    pawns: tuple[Place, ...]
    hands: tuple[tuple[str, ...], ...]
    captured: tuple[str, ...]
    mark: int
    treasure_pile_size: int
    treasure_discard: tuple[str, ...]
    flood_layers: tuple[tuple[str, ...], ...]
    flood_discard: tuple[str, ...]
    flood_out: tuple[str, ...]
    turn: int
    current: int
    phase: str
    actions_left: int
    draws_left: int
    floods_left: int
    flew: bool
    swimmers: tuple[int, ...]
    outcome: str | None

    def treasure_pile_cards(self) -> list[str]:
        """The cards in the treasure pile, in canonical order (which card is where is hidden)."""
        left = list(TREASURE_DECK)
        for card in list(self.treasure_discard) + [c for h in self.hands for c in h]:
            left.remove(card)
        return left


def new_game(rules: Rules, seed: int = 0) -> ForbiddenIslandEngine:
    """A freshly dealt game: the setup and every later reshuffle from streams of `seed`."""
    return ForbiddenIslandEngine(rules, deal(rules, seed), Shuffler(seed))


__all__ = [
    "ACTION_KINDS", "Action", "DRY", "FLOODED", "ForbiddenIslandEngine", "IllegalAction", "IN_TURN_KINDS",
    "LOSS_CAUSES", "NAMED_KINDS", "PHASES", "PublicView", "SUNK", "Setup", "SetupError", "ShuffleError", "Shuffler",
    "deal", "new_game",
]
