"""The reference engine for Desert Island, in plain readable Python.

This is the lab's definition of the game: slow on purpose, every rule in one place citing its
ruling D1-D22 (docs/RULES-DI.md). The data (characters, places, decks, parameters) comes from
`sim.desert_island.rules`, the action codes from `sim.desert_island.actions` (D10), the lookout,
the week's event and whom it strikes from `sim.desert_island.week`, the scores from
`sim.desert_island.scoring`.

The game is a sequence of decision points. At each one `legal_actions()` lists the action codes
(ascending) the deciding seat `decider` may play, and `apply(code)` plays one; every forced or
automatic step after it (the lookout, the week's event, hunger, the next castaway's turn) is
played inside the same `apply`::

    game = DesertIslandEngine(rules, Deal.random(rules, seed, game_index),
                              random_draws(rules, seed, game_index))
    while not game.over:
        game.apply(choose(game.legal_actions()))

Randomness never lives in the state (D11): the shuffles before play are a `Deal`, and the one
random pick during play (a card taken blind from a hand) reads an iterator of 32-bit draws.
Characters, places and item cards are numbered as in `sim.desert_island.rules`: with n players the
characters and places in play are exactly numbers 0 to n-1 (D1).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from sim.desert_island import actions as A
from sim.desert_island.actions import GOODS, MAX_FOOD, MAX_TRADE_FOOD, action_text, decode, good_portions
from sim.desert_island.rules import CHARACTERS, FATE_CARDS, ITEM_CARDS, Rules
from sim.desert_island.scoring import score, win_shares
from sim.desert_island.week import SHIP, lookout, storm_reach, struck, week_event
from sim.streams import rand_below, shuffled, streams_of

NAMES = tuple(name for name, _, _ in CHARACTERS)
STRENGTH = tuple(strength for _, strength, _ in CHARACTERS)
BOSUN, CAP, LADLE, SNOB, MILADY, KID = range(6)
BEACH, JUNGLE, SWAMP, STREAM, HILL, CAVE = range(6)
JUNGLE_MEAL = 3  # portions the Jungle spares at Hunger
SWAMP_LOSS = 1  # portions the Swamp costs at the end of its castaway's turn (D13)
STREAM_FOOD = 3
BOSUN_FOOD = 1
HILL_FIRE = 1
BOAR_WOUNDS, MALARIA_WOUNDS, STORM_WOUNDS = 2, 1, 1
MAX_WEEKS = 40  # D22: a game still going after this many weeks ends where it stands

ENDINGS = ("rescued", "lost", "stranded")  # D4/D8/D22
# The parts of play that wait for a choice, each with its handler `_on_<phase>`: the Beach
# player's deal, a castaway's fate card, its action, a defender's answer, joining a fight, a
# single-use weapon, Ladle's flight, the item a won claim takes, a hidden food split, the fist
# picked, an ability, a monkey's victim naming a neighbour, the card that neighbour throws away,
# a trade's offer and its answer.
DECISIONS = ("deal", "keep", "act", "yield", "join", "weapon", "flee", "claim", "fists", "pick", "ability",
             "neighbour", "monkey", "offer", "answer")
IN_DECK, IN_BOX = -1, -2  # an item card's owner when no character holds it
STREAM_DEAL, STREAM_DRAW = 0, 1  # sim/streams.py streams (D11)


class IllegalAction(ValueError):
    """An action code the rules do not allow now; the message says why."""


class DealError(ValueError):
    """A deal that does not fit the rules; the message says why."""


class DrawError(ValueError):
    """A script of draws that runs out before the game needs no more."""


# --- the deal and the draws (D11) ---------------------------------------------------------------




@dataclass(frozen=True)
class Deal:
    """What the shuffles before play decide (D11): the character each seat plays, the place each
    character starts at, the item deck and the fate deck top card first (cards by their canonical
    number), and each seat's best friend and sworn enemy (characters)."""

    roles: tuple[int, ...]
    places: tuple[int, ...]
    items: tuple[int, ...]
    fate: tuple[int, ...]
    friends: tuple[int, ...]
    enemies: tuple[int, ...]

    @staticmethod
    def random(rules: Rules, seed: int, game: int = 0) -> Deal:
        """Game `game` of `seed`'s deal, shuffled on the deal stream in the rulebook's set-up order."""
        rng = streams_of(seed, game)
        n = rules.players
        roles = shuffled(list(range(n)), rng, STREAM_DEAL)
        places = shuffled(list(range(n)), rng, STREAM_DEAL)
        items = shuffled(list(range(ITEM_CARDS)), rng, STREAM_DEAL)
        fate = shuffled(list(range(FATE_CARDS)), rng, STREAM_DEAL)
        friends = shuffled(list(range(n)), rng, STREAM_DEAL)
        enemies = shuffled(list(range(n)), rng, STREAM_DEAL)
        return Deal(tuple(roles), tuple(places), tuple(items), tuple(fate), tuple(friends), tuple(enemies))

    def validate(self, rules: Rules) -> None:
        n = rules.players
        for name in ("roles", "places", "friends", "enemies"):
            if sorted(getattr(self, name)) != list(range(n)):
                raise DealError(f"deal.{name} must hold each of 0..{n - 1} once (D1)")
        if sorted(self.items) != list(range(ITEM_CARDS)):
            raise DealError(f"deal.items must hold each of the {ITEM_CARDS} item cards once")
        if sorted(self.fate) != list(range(FATE_CARDS)):
            raise DealError(f"deal.fate must hold each of the {FATE_CARDS} fate cards once")


def random_draws(rules: Rules, seed: int, game: int = 0) -> Iterator[int]:
    """Game `game` of `seed`'s draws (D11): 32-bit numbers from the draw stream; a draw u picks
    item (u * h) >> 32 of h, which is what `rand_below(rng, STREAM_DRAW, h)` gives the kernel."""
    rng = streams_of(seed, game)
    while True:
        yield int(rand_below(rng, STREAM_DRAW, 1 << 32))


# --- the game ------------------------------------------------------------------------------------


@dataclass
class Fight:
    attacker: int
    defender: int
    claim: int  # actions.CLAIMS
    side: dict[int, int]  # character -> 0 (the attacker's side) or 1 (the defender's)
    waiting: list[int]  # characters still to say whether they join (D14)
    armed: list[int]  # fighters still to choose a weapon (D15)
    bonus: dict[int, int]  # a fighter's weapon bonus
    fled: list[int]
    cards: list[int]  # fate cards turned up for the defenders
    attacker_won: bool = False


class DesertIslandEngine:
    """The whole state of one game, secret cards and fists included."""

    def __init__(self, rules: Rules, deal: Deal, draws: Iterable[int]):
        deal.validate(rules)
        self.rules = rules
        self.deal = deal
        self.decks = rules.deck_data
        self.draws = iter(draws)
        n = self.n = rules.players
        self.seat_of = [0] * n
        for seat, character in enumerate(deal.roles):
            self.seat_of[character] = seat
        self.place = list(deal.places)
        self.alive = [True] * n
        self.wounds = [0] * n
        self.food = [min(rules.start_food, MAX_FOOD)] * n  # D12
        self.tokens = [0] * n  # fate tokens on a character's card
        self.place_tokens = [0] * n
        self.owner = [IN_DECK] * ITEM_CARDS  # a character, IN_DECK or IN_BOX
        self.face_up = [False] * ITEM_CARDS
        self.item_deck = list(deal.items)
        names = [item.name for item in self.decks.items]
        self.name_good = [names.index(name) for name in names]  # D10: a trade names a card by its name
        self.fate_deck = list(deal.fate)
        self.played: list[tuple[int, int]] = []  # (character, fate card) this week, in order
        self.fire = 0
        self.ships = 0
        self.week = 0
        self.ending: str | None = None
        self.events: list[dict] = []
        self.history: list[tuple[int, int]] = []  # (week, code) of every decision
        self.phase = "setup"
        self.deciding = -1  # the character who decides
        self._then: Callable[[], None] = self._after_fight  # where a claim's resolution goes on
        # the week's working state
        self.acted: set[int] = set()
        self.actor = -1
        self.giver = -1  # the week's Beach player, who deals the items washed up
        self.drawn: list[int] = []  # the Beach player's cards still to give
        self.receivers: list[int] = []
        self.dealt: list[tuple[int, int]] = []  # (receiver, card) of the Beach player's deal
        self.choice: list[int] = []  # the two fate cards the actor drew
        self.kept = -1
        self.fight: Fight | None = None
        self.fists: tuple[int, int, int] = (-1, 0, 0)  # (character, left, right) of a hidden split
        self.queue: list[int] = []  # characters still to decide in this part (rats, monkeys, offers)
        self.victim = -1  # a monkey's victim
        self.offer: tuple[int, int, int, int] | None = None  # (from, to, given, wanted)
        self.rat_fists: dict[int, tuple[int, int]] = {}  # character -> (left, right) against the rats
        for seat in range(n):  # the set-up's one item card each, seat by seat
            if self.item_deck:
                self._receive(deal.roles[seat], self.item_deck.pop(0))
        self._event("setup", roles=list(deal.roles), places=list(self.place))
        self._start_week()

    # -- queries --

    @property
    def over(self) -> bool:
        return self.ending is not None

    @property
    def decider(self) -> int:
        """The seat whose choice the game waits for (-1 once the game is over)."""
        return self.seat_of[self.deciding] if self.deciding >= 0 and not self.over else -1

    @property
    def characters(self) -> tuple[str, ...]:
        return NAMES[:self.n]

    def living(self) -> list[int]:
        """The living characters in turn order: by place, from the Beach."""
        return sorted((c for c in range(self.n) if self.alive[c]), key=lambda c: self.place[c])

    def at(self, place: int) -> int:
        for c in range(self.n):
            if self.place[c] == place:
                return c
        return -1

    def cards_of(self, character: int, face_up: bool | None = None) -> list[int]:
        """A character's item cards (in hand, face up or both), by number."""
        return [k for k in range(ITEM_CARDS) if self.owner[k] == character
                and (face_up is None or self.face_up[k] == face_up)]

    def item(self, card: int):
        return self.decks.items[card]

    def treasure(self, character: int) -> int:
        return sum(self.item(k).value for k in self.cards_of(character) if self.item(k).kind == "treasure")

    @property
    def scores(self) -> list[int]:
        """Each seat's points as things stand (D7)."""
        alive = {NAMES[c]: self.alive[c] for c in range(self.n)}
        out = []
        for seat in range(self.n):
            c = self.deal.roles[seat]
            out.append(score(NAMES[c], NAMES[self.deal.friends[seat]], NAMES[self.deal.enemies[seat]], alive,
                             self.treasure(c)))
        return out

    def win_shares(self) -> list[float]:
        """D8: each seat's share of the win (all 0 while the game goes on and when all died)."""
        if not self.over:
            return [0.0] * self.n
        return win_shares(self.scores, {NAMES[c]: self.alive[c] for c in range(self.n)})

    def known_to(self, seat: int) -> dict:
        """What `seat` may see (D6): the table, its own hand, best friend and sworn enemy, the cards
        it dealt from the Beach this week, the fate cards it drew, and its own fists."""
        me = self.deal.roles[seat]
        fight = None
        if self.fight is not None:
            f = self.fight
            fight = {"attacker": f.attacker, "defender": f.defender, "claim": A.CLAIMS[f.claim],
                     "side": dict(f.side), "bonus": dict(f.bonus), "fled": list(f.fled), "cards": list(f.cards)}
        return {
            "seat": seat, "character": me, "friend": self.deal.friends[seat], "enemy": self.deal.enemies[seat],
            "hand": self.cards_of(me, face_up=False),
            "roles": list(self.deal.roles), "place": list(self.place), "alive": list(self.alive),
            "wounds": list(self.wounds), "food": list(self.food), "tokens": list(self.tokens),
            "place_tokens": list(self.place_tokens),
            "face_up": [self.cards_of(c, face_up=True) for c in range(self.n)],
            "hand_sizes": [len(self.cards_of(c, face_up=False)) for c in range(self.n)],
            "items_left": len(self.item_deck), "fire": self.fire, "ships": self.ships, "week": self.week,
            "played": list(self.played), "phase": self.phase, "decider": self.decider, "fight": fight,
            "drawn": list(self.drawn) if self.giver == me else [],
            "dealt": list(self.dealt) if self.giver == me else [],
            "choice": list(self.choice) if self.actor == me and self.phase == "keep" else [],
            "fists": self.fists[1:] if self.fists[0] == me else None,
            "offer": self.offer, "ending": self.ending,
        }

    # -- legal actions --

    def legal_actions(self) -> list[int]:
        """Every action code the deciding seat may play now, ascending (D10)."""
        if self.over:
            return []
        return sorted(self._codes())

    def _codes(self) -> list[int]:
        me, phase = self.deciding, self.phase
        if phase == "deal":
            return [A.DEAL + k for k in self._distinct(self.drawn)]
        if phase == "keep":
            return [A.KEEP, A.KEEP + 1]
        if phase == "act":
            codes = [A.FOOD, A.FIRE]
            for c in self.living():
                if c != me:
                    codes += [A.FIGHT + 3 * c + claim for claim in range(3) if self._claimable(c, claim)]
            return codes
        if phase == "yield":
            return [A.YIELD, A.RESIST]
        if phase == "join":
            return [A.JOIN_ATTACKER, A.JOIN_DEFENDER, A.STAY_OUT]
        if phase == "weapon":
            return [A.PASS] + [A.WEAPON + k for k in self._single_use_weapons(me)]
        if phase == "flee":
            return [A.PASS, A.FLEE]
        if phase in ("claim", "monkey"):
            victim = self.fight.defender if phase == "claim" else self.victim
            codes = [A.TAKE + k for k in self._distinct(self.cards_of(victim, face_up=True))]
            return codes + ([A.TAKE_HAND] if self.cards_of(victim, face_up=False) else [])
        if phase == "fists":
            return [A.FIST + left for left in range(self.food[me] + 1)]
        if phase == "pick":
            return [A.LEFT_HAND, A.RIGHT_HAND]
        if phase == "ability":
            return [A.PASS] + [A.ABILITY + c for c in self._ability_targets(me)]
        if phase == "neighbour":
            return [A.NEIGHBOUR + c for c in self._neighbours(me)]
        if phase == "offer":
            return [A.PASS] + self._offers(me)
        if phase == "answer":
            return [A.ACCEPT, A.REFUSE]
        return []

    def _distinct(self, cards: list[int]) -> list[int]:
        """D10: of cards with the same name only the lowest-numbered one is offered as a choice."""
        seen, out = set(), []
        for k in sorted(cards):
            if self.item(k).name not in seen:
                seen.add(self.item(k).name)
                out.append(k)
        return out

    def _claimable(self, target: int, claim: int) -> bool:
        """D14: a fight is over something the target has: food, an item card, or a place."""
        if claim == 0:
            return self.food[target] > 0
        if claim == 1:
            return bool(self.cards_of(target))
        return True

    def _best_kept_weapon(self, c: int) -> tuple[int, int]:
        """(bonus, card) of the strongest reusable weapon a character holds; (0, -1) for none."""
        best = (0, -1)
        for k in self.cards_of(c):
            item = self.item(k)
            if item.kind == "weapon" and item.uses != "once" and item.value > best[0]:
                best = (item.value, k)
        return best

    def _single_use_weapons(self, c: int) -> list[int]:
        """D15: the single-use weapons that would beat the fighter's best reusable one."""
        kept = self._best_kept_weapon(c)[0]
        return self._distinct([k for k in self.cards_of(c) if self.item(k).kind == "weapon"
                               and self.item(k).uses == "once" and self.item(k).value > kept])

    def _ability_targets(self, c: int) -> list[int]:
        """D13: Cap takes a token from another character, Milady from herself, Snob gives one to
        anyone; only living characters carry tokens (the rulebook's dead take none)."""
        living = self.living()
        if c == CAP:
            return sorted(x for x in living if x != CAP and self.tokens[x] > 0)
        if c == MILADY:
            return [MILADY] if self.tokens[MILADY] > 0 else []
        if c == SNOB:
            return sorted(living)
        return []

    def _neighbours(self, c: int) -> list[int]:
        return sorted(x for x in self.living() if abs(self.place[x] - self.place[c]) == 1)

    def _goods_held(self, c: int) -> list[int]:
        """D16: what a character may give in a trade: one of its item cards (by name) or 1-4 portions."""
        goods = sorted({self.name_good[k] for k in self.cards_of(c)})
        return goods + [A.food_good(p) for p in range(1, min(self.food[c], MAX_TRADE_FOOD) + 1)]

    def _offers(self, me: int) -> list[int]:
        """D16: one good of one's own for one good of another living character: any item name in
        the deck (its hand is hidden) or portions it visibly has; never food for food."""
        names = sorted({self.name_good[k] for k in range(ITEM_CARDS)})
        codes = []
        for other in self.living():
            if other == me:
                continue
            wanted = names + [A.food_good(p) for p in range(1, min(self.food[other], MAX_TRADE_FOOD) + 1)]
            for given in self._goods_held(me):
                for want in wanted:
                    if not (good_portions(given) and good_portions(want)):
                        codes.append(A.OFFER + (other * GOODS + given) * GOODS + want)
        return codes

    # -- playing one decision --

    def apply(self, code: int) -> None:
        """Play one decision (an action code); raises IllegalAction if it is not legal now."""
        code = int(code)
        if self.over:
            raise IllegalAction(f"{self._text(code)}: the game is over ({self.ending})")
        if code not in self.legal_actions():
            raise IllegalAction(f"{self._text(code)} is not legal in the {self.phase} part of week {self.week} "
                                f"({NAMES[self.deciding]}, seat {self.decider}, decides)")
        self.history.append((self.week, code))
        kind, *rest = decode(code)
        handler = getattr(self, f"_on_{self.phase}")
        handler(kind, *rest)

    def _text(self, code: int) -> str:
        try:
            return action_text(code, self.decks)
        except ValueError:
            return str(code)

    def _event(self, kind: str, **details) -> None:
        self.events.append({"week": self.week, "phase": self.phase, "kind": kind, **details})

    def _ask(self, phase: str, character: int) -> None:
        self.phase, self.deciding = phase, character

    def _draw(self, h: int) -> int:
        """D11: the next draw read as one of h."""
        try:
            u = next(self.draws)
        except StopIteration:
            raise DrawError("the script of draws ran out") from None
        return (u * h) >> 32

    # -- items --

    def _receive(self, c: int, card: int) -> None:
        """D3: a card goes to the hand, a face-up one (the garden) straight onto the table."""
        self.owner[card] = c
        self.face_up[card] = self.item(card).uses == "face_up"

    def _box(self, card: int) -> None:
        self.owner[card], self.face_up[card] = IN_BOX, False

    def _lay_out(self, card: int) -> None:
        """D3: a reusable card is laid face up the first time it is used."""
        self.face_up[card] = True

    def _take_from_hand(self, victim: int) -> int:
        hand = self.cards_of(victim, face_up=False)
        return hand[self._draw(len(hand))]

    def _gain_food(self, c: int, portions: int) -> None:
        self.food[c] = min(MAX_FOOD, self.food[c] + portions)  # D12

    # -- fate tokens, wounds and death --

    def _token(self, c: int, count: int = 1) -> None:
        """Dead characters and unused ones take no fate tokens (D1, the rulebook's dead)."""
        if 0 <= c < self.n and self.alive[c]:
            self.tokens[c] += count

    def _place_token(self, place: int) -> None:
        if 0 <= place < self.n and self.alive[self.at(place)]:
            self.place_tokens[place] += 1

    def _wound(self, c: int, count: int, cause: str) -> None:
        """Wounds; a character whose wounds reach its strength uses its medicine first (D17) and
        otherwise dies where it is."""
        if not self.alive[c] or count <= 0:
            return
        self.wounds[c] += count
        self._event("wound", character=c, count=count, cause=cause)
        while self.wounds[c] >= STRENGTH[c]:
            medicine = [k for k in self.cards_of(c) if self.item(k).kind == "medicine"]
            if not medicine:
                break
            self._box(medicine[0])
            self.wounds[c] = max(0, self.wounds[c] - max(1, self.item(medicine[0]).value))
            self._event("medicine", character=c, card=medicine[0])
        if self.wounds[c] >= STRENGTH[c]:
            self.alive[c] = False
            self.food[c] = 0  # the dead's food cannot be used by anyone
            self.tokens[c] = 0
            self.place_tokens[self.place[c]] = 0
            self._event("death", character=c, place=self.place[c], cause=cause)
            if not any(self.alive):
                self._end("lost")  # D8

    def _end(self, ending: str) -> None:
        if self.ending is None:
            self.ending = ending
            self.phase, self.deciding = "over", -1
            self._event("end", ending=ending, scores=self.scores, alive=list(self.alive))

    # -- part 1: the Beach player's deal --

    def _start_week(self) -> None:
        self.week += 1
        if self.week > MAX_WEEKS:  # D22
            self.week = MAX_WEEKS
            self._end("stranded")
            return
        self.acted, self.played, self.dealt = set(), [], []
        self.phase = "deal"
        self._event("week", ships=self.ships, fire=self.fire)
        living = self.living()
        self.giver = living[0]  # the Beach's castaway, or the living one nearest the Beach
        count = min(len(living), len(self.item_deck))
        self.drawn = [self.item_deck.pop(0) for _ in range(count)]
        self.receivers = living[1:]  # D18: in turn order
        self._event("washed_up", giver=self.giver, count=count)
        self._continue_deal()

    def _continue_deal(self) -> None:
        """D18: the Beach player gives one card to each other castaway in turn order and keeps the
        last; when the deck runs short the castaways last in turn order receive none."""
        giver = self.giver
        if len(self.drawn) > 1 and self.receivers:
            self._ask("deal", giver)
            return
        for card in self.drawn:
            self._receive(giver, card)
            self._event("kept", character=giver, card=card, seen_by=[self.seat_of[giver]])
        self.drawn = []
        self._begin_actions()

    def _on_deal(self, kind: str, card: int) -> None:
        receiver = self.receivers.pop(0)
        self.drawn.remove(card)
        self._receive(receiver, card)
        self.dealt.append((receiver, card))
        self._event("dealt", giver=self.deciding, receiver=receiver, card=card,
                    seen_by=[self.decider, self.seat_of[receiver]])
        self._continue_deal()

    # -- part 2: actions --

    def _begin_actions(self) -> None:
        self.phase = "actions"
        self._next_actor()

    def _next_actor(self) -> None:
        """The living castaway nearest the Beach who has not acted; after a swap that is the one
        whose place the attacker took, as the rulebook says."""
        if self.over:
            return
        waiting = [c for c in self.living() if c not in self.acted]
        if not waiting:
            self._lookout()
            return
        self.actor = waiting[0]
        self.choice = [self.fate_deck.pop(0), self.fate_deck.pop(0)]
        self._ask("keep", self.actor)

    def _on_keep(self, kind: str, which: int) -> None:
        self.kept = self.choice[which]
        self.fate_deck.append(self.choice[1 - which])
        self.choice = []
        self._ask("act", self.actor)

    def _play_card(self, action: str, **details) -> None:
        """The kept card goes face up: one token on its numbered place, one on its character."""
        me, card = self.actor, self.decks.fate[self.kept]
        self.played.append((me, self.kept))
        self._event("action", character=me, action=action, card=self.kept, **details)
        self._place_token(card.number - 1)
        self._token(NAMES.index(card.character))

    def _on_act(self, kind: str, *rest) -> None:
        me = self.actor
        number = self.decks.fate[self.kept].number
        if kind == "food":
            self._play_card("food")
            found = number + (STREAM_FOOD if self.place[me] == STREAM else 0) + (BOSUN_FOOD if me == BOSUN else 0)
            shovels = [k for k in self.cards_of(me) if self.item(k).kind == "shovel"]
            if shovels:  # D3, D19: one shovel digs
                best = max(shovels, key=lambda k: (self.item(k).value, -k))
                self._lay_out(best)
                found += self.item(best).value
            self._gain_food(me, found)
            self._event("found", character=me, portions=found)
            self._end_of_turn()
        elif kind == "fire":
            self._play_card("fire")
            added = 1 + (HILL_FIRE if self.place[me] == HILL else 0)
            for k in self.cards_of(me):
                if self.item(k).kind == "lens":  # D3: lenses stack with each other and the Hill
                    self._lay_out(k)
                    added += self.item(k).value
            self.fire += added
            self._event("fire", character=me, added=added, fire=self.fire)
            self._end_of_turn()
        else:
            target, claim = rest
            self._play_card("fight", target=target, claim=A.CLAIMS[claim])
            self._token(me)
            self.fight = Fight(me, target, claim, {me: 0, target: 1}, [], [], {}, [], [])
            self._ask("yield", target)

    # -- fights (D14, D15) --

    def _on_yield(self, kind: str) -> None:
        f = self.fight
        if kind == "yield":
            self._event("yield", character=f.defender)
            f.attacker_won = True
            self._resolve_claim(self._after_fight)
            return
        self._token(f.defender)
        self._event("resist", character=f.defender)
        f.waiting = [c for c in self.living() if c not in (f.attacker, f.defender)]  # D14
        self._next_joiner()

    def _next_joiner(self) -> None:
        f = self.fight
        if f.waiting:
            self._ask("join", f.waiting.pop(0))
            return
        f.armed = list(f.side)  # the attacker, the defender, then the joiners as they joined
        self._next_weapon()

    def _on_join(self, kind: str) -> None:
        f, me = self.fight, self.deciding
        if kind != "stay_out":
            f.side[me] = 0 if kind == "join_attacker" else 1
            self._token(me)
        self._event(kind, character=me)
        self._next_joiner()

    def _next_weapon(self) -> None:
        """D15: a fighter's best reusable weapon counts by itself (laid out if it was in the hand);
        a fighter holding a stronger single-use weapon decides whether to spend it."""
        f = self.fight
        while f.armed:
            c = f.armed[0]
            bonus, card = self._best_kept_weapon(c)
            f.bonus[c] = bonus
            if card >= 0:
                self._lay_out(card)
            if self._single_use_weapons(c):
                self._ask("weapon", c)
                return
            f.armed.pop(0)
        self._flee_point()

    def _on_weapon(self, kind: str, card: int = -1) -> None:
        f = self.fight
        c = f.armed.pop(0)
        if kind == "weapon":
            f.bonus[c] = self.item(card).value
            self._box(card)
            self._event("weapon", character=c, card=card)
        self._next_weapon()

    def _flee_point(self) -> None:
        """D15: Ladle, when fighting, may leave once every weapon is chosen, before the last card."""
        f = self.fight
        if LADLE in f.side and LADLE not in f.fled and self.alive[LADLE]:
            self._ask("flee", LADLE)
            return
        self._last_card()

    def _on_flee(self, kind: str) -> None:
        if kind == "flee":
            self.fight.fled.append(LADLE)
            self._token(LADLE)
            self._event("flee", character=LADLE)
        self._last_card()

    def _strength(self, side: int) -> int:
        f = self.fight
        return sum(STRENGTH[c] + f.bonus.get(c, 0) for c, s in f.side.items() if s == side and c not in f.fled)

    def _turn_up(self) -> int:
        card = self.fate_deck.pop(0)
        self.fate_deck.append(card)
        return card

    def _last_card(self) -> None:
        f = self.fight
        f.cards.append(self._turn_up())
        cave = self.at(CAVE) if self.n > CAVE else -1
        if f.side.get(cave) == 1 and cave not in f.fled:  # D14: whoever defends from the Cave
            f.cards.append(self._turn_up())
        attack = self._strength(0)
        if f.attacker not in f.fled:  # D14: the attacker's own fate card counts for its side
            attack += self.decks.fate[self.kept].number
        defence = self._strength(1) + sum(self.decks.fate[k].number for k in f.cards)
        f.attacker_won = attack > defence  # the defenders win a tie
        self._event("fight", attacker=f.attacker, defender=f.defender, sides=dict(f.side), bonus=dict(f.bonus),
                    fled=list(f.fled), cards=list(f.cards), attack=attack, defence=defence,
                    attacker_won=f.attacker_won)
        if f.attacker_won and f.attacker not in f.fled:  # D14: a fled attacker wins nothing
            self._resolve_claim(self._wound_losers)  # the rulebook's dying defender gives first
        else:
            self._wound_losers()

    def _wound_losers(self) -> None:
        f = self.fight
        losers = 1 if f.attacker_won else 0
        for c in sorted(f.side):
            if f.side[c] == losers and c not in f.fled:
                self._wound(c, 1, "fight")
        self._after_fight()

    def _after_fight(self) -> None:
        self.fight = None
        self._end_of_turn()

    def _resolve_claim(self, then: Callable[[], None]) -> None:
        """The attacker gets what it fought for, as when the defender gives in."""
        f = self.fight
        self._then = then
        if f.claim == 2:
            a, d = f.attacker, f.defender
            self.place[a], self.place[d] = self.place[d], self.place[a]
            self._event("swap", attacker=a, defender=d)
            then()
        elif f.claim == 0:
            if self.food[f.defender] > 0:
                self._ask("fists", f.defender)
            else:
                then()
        elif self.cards_of(f.defender):
            self._ask("claim", f.attacker)
        else:
            then()

    def _on_claim(self, kind: str, card: int = -1) -> None:
        f = self.fight
        if kind == "take_hand":
            card = self._take_from_hand(f.defender)
            self.owner[card] = f.attacker
        else:
            self.owner[card] = f.attacker  # a face-up card stays face up (the rulebook's garden)
        self._event("taken", by=f.attacker, source=f.defender, card=card, face_up=self.face_up[card])
        self._then()

    # -- fists: a hidden split of food (fights over food, rats) --

    def _on_fists(self, kind: str, left: int) -> None:
        me = self.deciding
        self.fists = (me, left, self.food[me] - left)
        self._event("fists", character=me, left=left, right=self.food[me] - left, seen_by=[self.decider])
        if self.fight is not None:  # a fight over food: the attacker picks a fist
            self._ask("pick", self.fight.attacker)
        else:  # the rats: every split is made before the card that picks the fist is turned up
            self.rat_fists[me] = (left, self.food[me] - left)
            self.fists = (-1, 0, 0)
            self._next_rat()

    def _on_pick(self, kind: str) -> None:
        f = self.fight
        _, left, right = self.fists
        portions = left if kind == "left_hand" else right
        self.food[f.defender] -= portions
        self._gain_food(f.attacker, portions)
        self._event("picked", by=f.attacker, source=f.defender, hand=kind, portions=portions)
        self.fists = (-1, 0, 0)
        self._then()

    # -- the end of a castaway's turn: abilities and the Swamp (D13) --

    def _end_of_turn(self) -> None:
        if self.over:
            return
        me = self.actor
        if self.alive[me] and me in (CAP, MILADY, SNOB) and self._ability_targets(me):
            self._ask("ability", me)
            return
        self._finish_turn()

    def _on_ability(self, kind: str, target: int = -1) -> None:
        me = self.actor
        if kind == "ability":
            self.tokens[target] += 1 if me == SNOB else -1
            self._event("ability", character=me, target=target)
        self._finish_turn()

    def _finish_turn(self) -> None:
        me = self.actor
        if self.alive[me]:
            if me == KID:
                for c in self._neighbours(me):
                    if self.food[c] > 0:
                        self.food[c] -= 1
                        self._gain_food(me, 1)
                        self._event("kid_takes", source=c)
            if self.place[me] == SWAMP and self.food[me] > 0:
                self.food[me] -= SWAMP_LOSS
                self._event("swamp", character=me)
        self.acted.add(me)
        self.actor = -1
        self._next_actor()

    # -- part 3: the lookout --

    def _lookout(self) -> None:
        self.phase = "lookout"
        self.fire += 1
        count = min(self.fire, len(self.fate_deck))  # D20
        cards = [self.fate_deck.pop(0) for _ in range(count)]
        self.fate_deck += cards
        seen = lookout([self.decks.fate[k].marker for k in cards])
        self._event("lookout", cards=cards, seen=seen, fire=self.fire)
        if seen != "nothing":
            self.fire = 0
        if seen == SHIP:
            self.ships += 1
            if self.ships >= self.rules.ships_to_rescue:
                self._end("rescued")
                return
        self._fate()

    # -- part 4: fate --

    def _fate(self) -> None:
        self.phase = "fate"
        event = week_event([self.decks.fate[k].event for _, k in self.played])
        living = self.living()
        # D21: with no token on anyone, every living character ties and is struck
        hit = struck({c: self.tokens[c] + self.place_tokens[self.place[c]] for c in living})
        hit = sorted(hit, key=lambda c: self.place[c])
        self._event("fate", event=event, struck=hit)
        if event in ("boar", "malaria"):
            for c in hit:
                traps = [k for k in self.cards_of(c) if self.item(k).kind == "trap"]
                if event == "boar" and traps:  # D3
                    self._box(traps[0])
                    self._event("trap", character=c, card=traps[0])
                else:
                    self._wound(c, BOAR_WOUNDS if event == "boar" else MALARIA_WOUNDS, event)
            self._after_fate()
        elif event == "storm":
            reach = storm_reach([self.place[c] + 1 for c in hit])
            for c in living:
                if self.place[c] < reach:
                    self.food[c] = 0
                    for k in self.cards_of(c, face_up=True):
                        self._box(k)
                    self._wound(c, STORM_WOUNDS, "storm")
            self.fire = 0
            self._after_fate()
        elif event == "rats":
            for c in hit:
                self.food[c] = 0
            self.queue = [c for c in living if c not in hit and self.food[c] > 0]
            self.rat_fists = {}
            self._next_rat()
        else:
            self.queue = [c for c in hit if self.cards_of(c) and self._neighbours(c)]  # D21
            self._next_monkey()

    def _next_rat(self) -> None:
        if self.queue:
            self._ask("fists", self.queue.pop(0))
            return
        self.phase = "fate"
        card = self._turn_up()  # turned up even when no one had food to split, as the rulebook says
        odd = self.decks.fate[card].number % 2 == 1
        for c, (left, right) in self.rat_fists.items():
            self.food[c] -= left if odd else right
        self._event("rats", card=card, lost="left" if odd else "right")
        self._after_fate()

    def _next_monkey(self) -> None:
        if self.queue:
            self.victim = self.queue.pop(0)
            self._ask("neighbour", self.victim)
            return
        self.victim = -1
        self._after_fate()

    def _on_neighbour(self, kind: str, chooser: int) -> None:
        self._event("monkey", victim=self.victim, chooser=chooser)
        self._ask("monkey", chooser)

    def _on_monkey(self, kind: str, card: int = -1) -> None:
        if kind == "take_hand":
            card = self._take_from_hand(self.victim)
        self._event("thrown_away", character=self.victim, card=card, by=self.deciding)
        self._box(card)
        self._next_monkey()

    def _after_fate(self) -> None:
        if self.over:
            return
        self.phase = "trade"
        self.queue = self.living()
        self._next_offer()

    # -- trades (D5, D16) --

    def _next_offer(self) -> None:
        if self.queue:
            self._ask("offer", self.queue.pop(0))
            return
        self.offer = None
        self._hunger()

    def _holds(self, c: int, good: int) -> int:
        """The card (or -1) a character would hand over for an item good, or -1 for missing food;
        portions answer the count itself."""
        portions = good_portions(good)
        if portions:
            return portions if self.food[c] >= portions else -1
        same = [k for k in self.cards_of(c) if self.item(k).name == self.item(good).name]
        return min(same, key=lambda k: (self.face_up[k], k)) if same else -1

    def _on_offer(self, kind: str, other: int = -1, given: int = -1, wanted: int = -1) -> None:
        me = self.deciding
        if kind == "pass":
            self._next_offer()
            return
        self.offer = (me, other, given, wanted)
        self._event("offer", by=me, to=other, given=given, wanted=wanted)
        if self._holds(other, wanted) < 0:  # D16: an offer the other cannot meet is refused at once
            self._event("refused", by=other, why="cannot")
            self.offer = None
            self._next_offer()
            return
        self._ask("answer", other)

    def _on_answer(self, kind: str) -> None:
        me, other, given, wanted = self.offer
        if kind == "accept":
            self._hand_over(me, other, given)
            self._hand_over(other, me, wanted)
            self._event("traded", by=me, to=other, given=given, wanted=wanted)
        else:
            self._event("refused", by=other, why="no")
        self.offer = None
        self._next_offer()

    def _hand_over(self, source: int, receiver: int, good: int) -> None:
        """D16: portions move as they are; a card goes to the receiver's hand (the garden face up)."""
        portions = good_portions(good)
        if portions:
            self.food[source] -= portions
            self._gain_food(receiver, portions)
        else:
            self._receive(receiver, self._holds(source, good))

    # -- part 5: hunger; part 6: the end of the week --

    def _hunger(self) -> None:
        self.phase = "hunger"
        for c in self.living():
            for k in self.cards_of(c, face_up=True):
                if self.item(k).kind == "garden":  # D3
                    self._gain_food(c, self.item(k).value)
            need = max(0, STRENGTH[c] - (JUNGLE_MEAL if self.place[c] == JUNGLE else 0))
            larders = sorted((k for k in self.cards_of(c) if self.item(k).kind == "food"),
                             key=lambda k: (self.item(k).value, k))
            while self.food[c] < need and larders:  # D19: food cards are eaten only when needed
                card = larders.pop(0)
                self._box(card)
                self._gain_food(c, self.item(card).value)
                self._event("eats_card", character=c, card=card)
            if self.food[c] >= need:
                self.food[c] -= need
                self._event("eats", character=c, portions=need)
            else:
                self._wound(c, 1, "hunger")
            if self.over:
                return
        self._end_week()

    def _end_week(self) -> None:
        self.phase = "end"
        self.tokens = [0] * self.n
        self.place_tokens = [0] * self.n
        self.fate_deck += [card for _, card in self.played]
        self.played = []
        self._start_week()

    # -- records --

    def result_row(self) -> dict:
        return {"ending": ENDINGS.index(self.ending) if self.ending else -1, "weeks": self.week,
                "ships": self.ships, "alive": list(self.alive), "scores": self.scores,
                "shares": self.win_shares()}


def play_random(rules: Rules, seed: int, game: int = 0, choose=None) -> DesertIslandEngine:
    """Game `game` of `seed` played to its end by the engine alone, with its own draws; `choose(codes)`
    picks each decision (the first legal one when not given)."""
    engine = DesertIslandEngine(rules, Deal.random(rules, seed, game), random_draws(rules, seed, game))
    while not engine.over:
        codes = engine.legal_actions()
        engine.apply(choose(codes) if choose else codes[0])
    return engine
