"""The reference engine for Survive the Island, in plain readable Python.

This is the lab's definition of the game: slow on purpose, every rule in one place citing its
ruling S1-S17 (docs/RULES-STI.md). The data (board, tiles, creatures, parameters, action codes)
comes from `sim.survive_the_island.rules`.

The game is a sequence of decision points. At each one `legal_actions()` lists the action codes
(S17, ascending) the deciding seat may play, and `apply(code)` plays one; the automatic steps
that follow (a roll with nothing to move, an action phase with nothing left but `end`, the next
seat's turn) are played inside the same `apply`::

    game = SurviveTheIslandEngine(rules, Deal.random(rules, seed, game_index),
                                  random_dice(rules, seed, game_index))
    while not game.over:
        game.apply(choose(game.legal_actions()))

Randomness never lives in the state: the deal (S3) is a `Deal`, and the creature die (S5) is an
iterator of rolled kinds, so a record can hand the engine exactly the kernel's rolls.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from sim.streams import rand_below, shuffled, streams_of
from sim.survive_the_island import rules as R
from sim.survive_the_island.rules import (
    ABILITIES,
    BACKS,
    CREATURE_BASE,
    CREATURES,
    FIRST_ABILITY,
    KAIJU,
    KAIJU_TILE,
    LAND,
    MAX_CREATURES,
    RAFT_TILE,
    REPELLENT,
    RESCUE,
    SEA,
    SERPENT,
    SHARK,
    SHARK_TILE,
    TILES,
    VOLCANO,
    WHIRLPOOL,
    Rules,
    action_text,
    creature_kind,
    decode,
    encode,
    placing_seat,
    seat_values,
)

# A space's kind in the snapshot: the printed kinds, and a volcano where one was revealed (S12).
VOLCANO_SPACE = 3
SPACE_KINDS = ("sea", "land", "rescue", "volcano")

PHASES = ("place", "raft", "action", "flood", "creature", "push", "over", "repel")
ENDINGS = ("cleared", "volcano")

# adventurer_space codes for an adventurer off the board
RESCUED, LOST, UNPLACED = -1, -2, -3
SUPPLY = -1  # raft_space / creature_space of a piece off the board

STREAM_DEAL, STREAM_DICE = 0, 1  # sim/streams.py streams (the contract's random streams)


class IllegalAction(ValueError):
    """An action code the rules do not allow now; the message says why."""


class DealError(ValueError):
    """A deal that does not fit the rules; the message says why."""


class DiceError(ValueError):
    """A script of rolls that runs out before the game needs no more."""


# --- the deal and the die (S3, S5) ---------------------------------------------------------------




@dataclass(frozen=True)
class Deal:
    """What the shuffles before play decide (S3): the tile (terrain, back) on each land space, in
    board order, and each adventurer's value, in adventurer order."""

    tiles: tuple[tuple[int, int], ...]
    values: tuple[int, ...]

    @staticmethod
    def random(rules: Rules, seed: int, game: int = 0) -> Deal:
        """Game `game` of `seed`'s deal, read from the deal stream as S3 says."""
        rng = streams_of(seed, game)
        tiles = shuffled(list(TILES), rng, STREAM_DEAL)
        values: list[int] = []
        for _ in range(rules.players):
            values += shuffled(list(seat_values(rules)), rng, STREAM_DEAL)
        return Deal(tuple(tiles), tuple(values))

    def validate(self, rules: Rules) -> None:
        if sorted(self.tiles) != sorted(TILES):
            raise DealError(f"the deal must lay each of the {len(TILES)} tiles once (S4)")
        e = rules.adventurers_each
        if len(self.values) != rules.adventurers:
            raise DealError(f"{rules.players} players have {rules.adventurers} adventurers, "
                            f"the deal gives {len(self.values)} values")
        for seat in range(rules.players):
            if sorted(self.values[seat * e:(seat + 1) * e]) != sorted(seat_values(rules)):
                raise DealError(f"seat {seat}'s values must be {list(seat_values(rules))} in some order (S6)")


def roll_kind(rules: Rules, face: int) -> int:
    """S5: a face read as serpent faces first, then shark, then kaiju."""
    serpent, shark, _ = rules.die
    return SERPENT if face < serpent else SHARK if face < serpent + shark else KAIJU


def random_dice(rules: Rules, seed: int, game: int = 0) -> Iterator[int]:
    """Game `game` of `seed`'s rolls from the dice stream, as the kernel rolls them (S5)."""
    rng = streams_of(seed, game)
    faces = sum(rules.die)
    while True:
        yield roll_kind(rules, int(rand_below(rng, STREAM_DICE, faces)))


# --- pieces ---------------------------------------------------------------------------------------


@dataclass
class Adventurer:
    number: int
    seat: int
    value: int
    space: int = UNPLACED  # a space, or RESCUED, LOST, UNPLACED
    raft: int = -1  # the raft it is on
    swam: bool = False  # it swam this turn (S9)

    @property
    def on_board(self) -> bool:
        return self.space >= 0


@dataclass
class Raft:
    number: int
    space: int = SUPPLY


@dataclass
class Creature:
    slot: int
    kind: int
    space: int = SUPPLY

    @property
    def name(self) -> str:
        return CREATURES[self.kind]


# --- the game -------------------------------------------------------------------------------------


class SurviveTheIslandEngine:
    """The whole state of one game, hidden tiles and values included."""

    def __init__(self, rules: Rules, deal: Deal, dice: Iterable[int]):
        deal.validate(rules)
        self.rules = rules
        self.deal = deal
        self.board = rules.board_data
        self.dice = iter(dice)
        board = self.board
        self.kind = list(board.kinds)  # SEA, LAND, RESCUE or VOLCANO_SPACE per space
        self.tile: list[tuple[int, int] | None] = [None] * board.spaces  # (terrain, back) of an unflooded tile
        for space, tile in zip(board.land, deal.tiles, strict=True):  # S3
            self.tile[space] = tile
        e = rules.adventurers_each
        self.adventurers = [Adventurer(a, a // e, deal.values[a]) for a in range(rules.adventurers)]
        self.rafts = [Raft(r) for r in range(rules.rafts)]
        counts = (rules.serpents, rules.sharks, rules.kaijus)
        self.creatures = [Creature(slot, creature_kind(slot)) for slot in range(MAX_CREATURES)]
        self.in_game = [c for c in self.creatures if c.slot - CREATURE_BASE[c.kind] < counts[c.kind]]
        for creature, space in zip(self.in_game, board.serpent_starts[:rules.serpents], strict=False):
            creature.space = space  # S2: the first `serpents` serpent spaces, in board order
        self.hand = [[0] * len(ABILITIES) for _ in range(rules.players)]
        self.score = [0] * rules.players
        self.rescued = [0] * rules.players
        self.turn = 0
        self.seat = 0
        self.phase = "place"
        self.moves_left = 0
        self.floods_left = 0
        self.volcanoes = 0
        self.floods = 0  # tiles flooded so far
        self.rolled = -1
        self.push_space = -1
        self.return_to = ""  # where play goes after a creature move or a push: "action", "flood" or "turn"
        # S15: a shark or kaiju waiting while a seat decides whether to repel it: its slot and space,
        # the seat asked (k seats on from the seat whose turn it is), whether it met swimmers entering
        # its space (the other sharks there then follow), the phase it interrupted and what was
        # being played ("then": "action", "push", "flood" or "creature")
        self.repel: dict | None = None
        self.ending: str | None = None
        self.rolls: list[int] = []
        self.placed = 0  # set-up placements made (adventurers, then rafts)
        self.events: list[dict] = []
        self.history: list[tuple[int, int]] = []  # (turn, code) of every decision

    # -- queries --

    @property
    def over(self) -> bool:
        return self.ending is not None

    @property
    def outcome(self) -> str | None:
        """The ending's name ("cleared" or "volcano"), None while the game goes on."""
        return self.ending

    @property
    def decider(self) -> int:
        """The seat placing (set-up), the seat asked whether to repel a creature (S15), or the
        seat whose turn it is (the contract)."""
        if self.phase == "repel":
            return (self.seat + self.repel["k"]) % self.rules.players
        return self.seat

    @property
    def scores(self) -> list[int]:
        return list(self.score)

    def winners(self) -> list[int]:
        """S14: the seats with the highest score (all of them tie at the top when none scored)."""
        if not self.over:
            return []
        best = max(self.score)
        return [s for s, v in enumerate(self.score) if v == best]

    def win_shares(self) -> list[float]:
        """S14: each of k winners has a share of 1/k (all 0 while the game goes on)."""
        won = self.winners()
        return [1 / len(won) if s in won else 0.0 for s in range(self.rules.players)]

    def adventurers_at(self, space: int) -> list[Adventurer]:
        return [a for a in self.adventurers if a.space == space]

    def swimmers_at(self, space: int) -> list[Adventurer]:
        """Adventurers in the sea, not on a raft (S9)."""
        if self.kind[space] != SEA:
            return []
        return [a for a in self.adventurers if a.space == space and a.raft < 0]

    def is_swimmer(self, a: Adventurer) -> bool:
        return a.on_board and self.kind[a.space] == SEA and a.raft < 0

    def raft_at(self, space: int) -> Raft | None:
        for raft in self.rafts:
            if raft.space == space:
                return raft
        return None

    def passengers(self, raft: Raft) -> list[Adventurer]:
        return [a for a in self.adventurers if a.raft == raft.number]

    def has_room(self, raft: Raft) -> bool:
        return len(self.passengers(raft)) < self.rules.raft_capacity  # S6

    def creatures_at(self, space: int) -> list[Creature]:
        return [c for c in self.in_game if c.space == space]

    def has(self, space: int, kind: int) -> bool:
        return any(c.kind == kind for c in self.creatures_at(space))

    def on_board(self, seat: int | None = None) -> list[Adventurer]:
        return [a for a in self.adventurers if a.on_board and (seat is None or a.seat == seat)]

    def seat_adventurers(self, seat: int) -> list[Adventurer]:
        e = self.rules.adventurers_each
        return self.adventurers[seat * e:(seat + 1) * e]

    def neighbours(self, space: int) -> tuple[int, ...]:
        return self.board.neighbours[space]

    def step(self, space: int, direction: int, steps: int = 1) -> int:
        """The space `steps` spaces away in one direction (-1 off the board)."""
        for _ in range(steps):
            if space < 0:
                return -1
            space = self.board.neighbours[space][direction]
        return space

    def land_left(self) -> list[int]:
        return [q for q in range(self.board.spaces) if self.tile[q] is not None]

    def controls(self, seat: int, raft: Raft) -> bool:
        """S10: an empty raft, or one on which no other seat has more adventurers than `seat`."""
        count = [0] * self.rules.players
        for a in self.passengers(raft):
            count[a.seat] += 1
        return all(c <= count[seat] for c in count)

    # -- where things may go --

    def adventurer_may_enter(self, space: int) -> bool:
        """S9: land, sea, a raft's space or a rescue island; never a volcano or a kaiju's space."""
        return space >= 0 and self.kind[space] in (SEA, LAND, RESCUE) and not self.has(space, KAIJU)

    def is_sea(self, space: int) -> bool:
        return space >= 0 and self.kind[space] == SEA

    def raft_may_enter(self, space: int) -> bool:
        """S9: a sea space with no raft and no kaiju, or a rescue island."""
        if space < 0:
            return False
        return self.kind[space] == RESCUE or (self.kind[space] == SEA and self.raft_at(space) is None
                                              and not self.has(space, KAIJU))

    def would_swim(self, a: Adventurer, target: int) -> bool:
        """S9: a move swims when it starts or ends with the adventurer in the sea and not on a raft
        (entering a raft's space it boards when there is room)."""
        if self.is_swimmer(a):
            return True
        if self.kind[target] != SEA:
            return False
        raft = self.raft_at(target)
        return raft is None or not self.has_room(raft)

    def creature_may_enter(self, kind: int, space: int) -> bool:
        """S13: serpents and sharks over sea, never into a kaiju's space; a kaiju over sea or land
        (never a volcano or a rescue island), a kaiju's space included."""
        if space < 0:
            return False
        if kind == KAIJU:
            return self.kind[space] in (SEA, LAND)
        return self.kind[space] == SEA and not self.has(space, KAIJU)

    def creature_targets(self, creature: Creature) -> list[int]:
        """S13: where a rolled creature may stop: a serpent next to it, a shark or a kaiju 1 or 2
        steps away, never where it stands. Only the stop counts: the step between need only be
        of the creature's terrain (sea for a shark; sea or land for a kaiju, no volcano)."""
        start = creature.space
        reach = {n for n in self.neighbours(start) if self.creature_may_enter(creature.kind, n)}
        if creature.kind != SERPENT:
            terrain = (SEA,) if creature.kind == SHARK else (SEA, LAND)
            for n in self.neighbours(start):
                if n >= 0 and self.kind[n] in terrain:
                    reach |= {m for m in self.neighbours(n) if self.creature_may_enter(creature.kind, m)}
        reach.discard(start)
        return sorted(reach)

    def push_directions(self, space: int) -> list[int]:
        """S13: the neighbouring spaces pushed adventurers may enter (not a rescue island)."""
        return [d for d, n in enumerate(self.neighbours(space))
                if self.adventurer_may_enter(n) and self.kind[n] != RESCUE]

    def flood_choices(self) -> list[int]:
        """S12: the tiles of the lowest terrain left that touch the sea, or, when none of that
        terrain touches the sea, every tile of it."""
        land = self.land_left()
        if not land:
            return []
        lowest = min(self.tile[q][0] for q in land)
        tiles = [q for q in land if self.tile[q][0] == lowest]
        shore = [q for q in tiles if any(n >= 0 and self.kind[n] == SEA for n in self.neighbours(q))]
        return shore or tiles

    # -- legal actions --

    def legal_actions(self) -> list[int]:
        """Every action code the deciding seat may play now, ascending (S17)."""
        phase = self.phase
        if phase == "place":
            return self._placements()
        if phase == "raft":
            return [R.PLACE + q for q in range(self.board.spaces) if self._raft_start_allowed(q)]
        if phase == "action":
            return sorted(self._action_codes())
        if phase == "flood":
            return [R.FLOOD + q for q in self.flood_choices()]
        if phase == "creature":
            return sorted(encode(("creature", c.slot, q)) for c in self._rolled_creatures()
                          for q in self.creature_targets(c))
        if phase == "push":
            return [R.PUSH + d for d in self.push_directions(self.push_space)]
        if phase == "repel":  # S15
            return [R.KEEP_REPELLENT, R.USE_REPELLENT]
        return []

    def _placements(self) -> list[int]:
        """S7: any value among the seat's unplaced adventurers, on an island space holding no
        adventurer; with none left, one holding exactly one."""
        land = self.board.land
        held = {q: len(self.adventurers_at(q)) for q in land}
        empty = [q for q in land if held[q] == 0]
        spaces = empty or [q for q in land if held[q] == 1]
        return sorted(encode(("adventurer", v, q)) for v in self.unplaced_values(self.seat) for q in spaces)

    def unplaced_values(self, seat: int) -> list[int]:
        """The values a seat may still place (S7), each once, ascending."""
        return sorted({a.value for a in self.seat_adventurers(seat) if a.space == UNPLACED})

    def _raft_start_allowed(self, space: int) -> bool:
        """S7: an empty sea space (no raft, no creature) next to an island space."""
        return (self.kind[space] == SEA and self.raft_at(space) is None and not self.creatures_at(space)
                and any(n >= 0 and self.kind[n] == LAND for n in self.neighbours(space)))

    def _action_codes(self) -> list[int]:
        seat = self.seat
        codes = [R.END]  # S9: the phase may end at any time
        if self.moves_left > 0:  # S9
            for a in self.on_board(seat):
                for d, n in enumerate(self.neighbours(a.space)):
                    if self.adventurer_may_enter(n) and not (a.swam and self.would_swim(a, n)):
                        codes.append(encode(("move", a.number, d)))
            for raft in self._movable_rafts(seat):
                for d, n in enumerate(self.neighbours(raft.space)):
                    if self.raft_may_enter(n):
                        codes.append(encode(("raft", raft.number, d)))
        hand = self.hand[seat]
        if hand[R.OARS - FIRST_ABILITY]:  # S11
            for raft in self._movable_rafts(seat):
                for d in range(6):
                    first = self.step(raft.space, d)
                    if self.raft_may_enter(first):
                        codes.append(encode(("oars", raft.number, d, 1)))
                    # S11: two spaces over sea; only the space where the raft stops counts
                    if self.is_sea(first) and self.raft_may_enter(self.step(first, d)):
                        codes.append(encode(("oars", raft.number, d, 2)))
        if hand[R.DOLPHIN - FIRST_ABILITY]:  # S11
            for a in self.on_board(seat):
                if not self.is_swimmer(a):
                    continue
                for d in range(6):
                    first = self.step(a.space, d)
                    if self.adventurer_may_enter(first):
                        codes.append(encode(("dolphin", a.number, d, 1)))
                    # S11: over sea; only the space where the swimmer stops counts
                    if self.is_sea(first) and self.adventurer_may_enter(self.step(first, d)):
                        codes.append(encode(("dolphin", a.number, d, 2)))
        if hand[R.DIVE - FIRST_ABILITY]:  # S11
            empty = [q for q in range(self.board.spaces) if self.kind[q] == SEA and not self.adventurers_at(q)
                     and self.raft_at(q) is None and not self.creatures_at(q)]
            for c in self.in_game:
                if c.space >= 0:
                    codes += [encode(("dive", c.slot, q)) for q in empty]
        if hand[R.DIE - FIRST_ABILITY]:  # S11
            codes.append(R.USE_DIE)
        return codes

    def _movable_rafts(self, seat: int) -> list[Raft]:
        return [r for r in self.rafts if r.space >= 0 and self.controls(seat, r)]

    def _rolled_creatures(self) -> list[Creature]:
        return [c for c in self.in_game if c.kind == self.rolled and c.space >= 0]

    # -- playing one action --

    def apply(self, code: int) -> None:
        """Play one decision (an action code); raises IllegalAction if it is not legal now."""
        code = int(code)
        if self.over:
            raise IllegalAction(f"{self._text(code)}: the game is over ({self.ending})")
        legal = self.legal_actions()
        if code not in legal:
            raise IllegalAction(f"{self._text(code)} is not legal in the {self.phase} phase of turn {self.turn} "
                                f"(seat {self.decider} decides)")
        self.history.append((self.turn, code))
        kind, *rest = decode(code)
        if self.phase == "place":
            self._place_adventurer(*rest)
        elif self.phase == "raft":
            self._place_raft(rest[0])
        elif self.phase == "repel":
            self._answer_repel(kind == "repel")
        elif kind == "end":
            self._end_action_phase()
        elif kind == "move":
            self._move_adventurer(*rest)
        elif kind == "raft":
            self.moves_left -= 1  # S9
            self._move_raft(self.rafts[rest[0]], self.step(self.rafts[rest[0]].space, rest[1]))
            self._after_action_step()
        elif kind == "oars":
            self._use_ability(R.OARS)
            raft = self.rafts[rest[0]]
            self._move_raft(raft, self.step(raft.space, rest[1], rest[2]))
            self._after_action_step()
        elif kind == "dolphin":
            self._use_ability(R.DOLPHIN)
            a = self.adventurers[rest[0]]
            target = self.step(a.space, rest[1], rest[2])
            self._event("dolphin", adventurer=a.number, to=target)
            self._arrive([a], target, "action")  # S11: not counted as its swim
            self._go_on("action")
        elif kind == "dive":
            self._use_ability(R.DIVE)
            creature = self.creatures[rest[0]]
            self._event("dive", slot=creature.slot, creature=creature.name, start=creature.space, to=rest[1])
            creature.space = rest[1]  # S11: an empty sea space, so nothing meets it
            self._after_action_step()
        elif kind == "die":
            self._use_ability(R.DIE)
            self._roll("action")
        elif kind == "flood":
            self._flood(rest[0])
        elif kind == "creature":
            self._move_creature(self.creatures[rest[0]], rest[1])
        elif kind == "push":
            self._push(rest[0])
        else:  # pragma: no cover - legal_actions lists nothing else
            raise IllegalAction(self._text(code))

    def _text(self, code: int) -> str:
        try:
            return action_text(code, self.board)
        except ValueError:
            return str(code)

    def _event(self, kind: str, **details) -> None:
        self.events.append({"turn": self.turn, "seat": self.seat, "phase": self.phase, "kind": kind, **details})

    # -- set-up (S2, S7) --

    def _place_adventurer(self, value: int, space: int) -> None:
        """S7: the seat places one of its unplaced adventurers of the value it chose; adventurers
        of one value are alike, and the lowest-numbered of them is the one placed."""
        players = self.rules.players
        seat = self.seat
        a = next(a for a in self.seat_adventurers(seat) if a.space == UNPLACED and a.value == value)
        a.space = space
        self._event("place", adventurer=a.number, value=value, space=space)
        self.placed += 1
        if self.placed < self.rules.adventurers:
            self.seat = placing_seat(self.placed, players, self.rules.setup)
        else:
            self.phase, self.seat, self.placed = "raft", 0, 0

    def _place_raft(self, space: int) -> None:
        """S7: raft numbers follow the order they are placed; each seat places its own."""
        raft = self.rafts[self.placed]
        raft.space = space
        self._event("raft_placed", raft=raft.number, space=space)
        self.placed += 1
        if self.placed < self.rules.players * self.rules.rafts_each:
            self.seat = placing_seat(self.placed, self.rules.players, self.rules.setup)
        else:
            self._start_turn()

    # -- the flow of a turn (S8) --

    def _start_turn(self) -> None:
        """S8, S9, S12: the next seat's turn; two floods for a seat with no adventurer left."""
        self.turn += 1
        self.seat = (self.turn - 1) % self.rules.players
        self.phase = "action"
        self.moves_left = self.rules.moves
        self.floods_left = 1 if self.on_board(self.seat) else 2
        for a in self.adventurers:
            a.swam = False
        self._event("turn")
        self._close_action_phase_if_done()

    def _close_action_phase_if_done(self) -> None:
        """S9: the game ends the action phase itself when `end` is all that is left."""
        if self.phase == "action" and self.legal_actions() == [R.END]:
            self._end_action_phase()

    def _end_action_phase(self) -> None:
        self.phase = "flood"
        self._continue_floods()

    def _continue_floods(self) -> None:
        if self.floods_left > 0 and self.land_left():
            self.phase = "flood"
        else:
            self._roll("turn")

    def _after_action_step(self) -> None:
        if self._game_ended():
            return
        if self.push_space >= 0:
            self.phase, self.return_to = "push", "action"
            return
        self._close_action_phase_if_done()

    def _game_ended(self) -> bool:
        """S14: the last adventurer has left the board, or the volcano that ends the game is out."""
        if self.ending is None and self.turn > 0:
            if self.volcanoes >= self.rules.volcanoes_to_end:
                self.ending = "volcano"
            elif not self.on_board():
                self.ending = "cleared"
        if self.ending is not None and self.phase != "over":
            self.phase, self.rolled, self.push_space = "over", -1, -1
            self._event("end", ending=self.ending, scores=list(self.score))
        return self.ending is not None

    def _resume(self) -> None:
        """Play on where a creature move or a push came from."""
        if self._game_ended():
            return
        where = self.return_to
        self.return_to = ""
        if where == "action":
            self.phase = "action"
            self._close_action_phase_if_done()
        elif where == "flood":
            self._continue_floods()
        else:
            self._start_turn()

    # -- moves (S9, S10, S11) --

    def _move_adventurer(self, number: int, direction: int) -> None:
        a = self.adventurers[number]
        target = self.step(a.space, direction)
        self.moves_left -= 1  # S9
        swim = self.would_swim(a, target)
        if swim:
            a.swam = True  # S9: once a turn
        self._event("move", adventurer=number, start=a.space, to=target, swim=swim)
        self._arrive([a], target, "action")
        self._go_on("action")

    def _use_ability(self, back: int) -> None:
        self.hand[self.seat][back - FIRST_ABILITY] -= 1
        self._event("ability", ability=BACKS[back])

    def _move_raft(self, raft: Raft, target: int) -> None:
        """S9: a raft carries its passengers; on a rescue island it lands them all and goes back
        to the supply; entering a serpent's space it is lost with them (S13)."""
        self._event("raft_move", raft=raft.number, start=raft.space, to=target)
        riders = self.passengers(raft)
        if self.kind[target] == RESCUE:
            for a in riders:
                self._rescue(a)
            raft.space = SUPPLY
            self._event("raft_landed", raft=raft.number, space=target)
            return
        raft.space = target
        for a in riders:
            a.space = target
        if self.has(target, SERPENT):
            self._event("serpent_strikes", space=target, rafts=[raft.number], lost=[a.number for a in riders])
            for a in riders:
                self._lose(a)
            raft.space = SUPPLY

    def _rescue(self, a: Adventurer) -> None:
        """S9: an adventurer reaching a rescue island scores its value."""
        a.space, a.raft = RESCUED, -1
        self.score[a.seat] += a.value
        self.rescued[a.seat] += 1
        self._event("rescued", adventurer=a.number)

    def _lose(self, a: Adventurer) -> None:
        a.space, a.raft = LOST, -1
        self._event("lost", adventurer=a.number)

    def _remove_raft(self, raft: Raft) -> None:
        """A raft leaving the board goes back to the supply; its passengers swim."""
        for a in self.passengers(raft):
            a.raft = -1
        raft.space = SUPPLY

    def _arrive(self, group: list[Adventurer], space: int, then: str) -> None:
        """Adventurers entering a space together (a move, a dolphin, a push): rescued on a rescue
        island (S9); otherwise they board a raft there while it has room, in number order (S9,
        S13), and meet the creatures there (S13, S15): a serpent takes them all, the sharks the
        swimmers. `then` is what was being played (S15's question may interrupt it)."""
        if self.kind[space] == RESCUE:
            for a in group:
                self._rescue(a)
            return
        raft = self.raft_at(space)
        for a in group:
            a.space, a.raft = space, -1
            if raft is not None and self.has_room(raft):
                a.raft = raft.number
        if self.has(space, SERPENT):
            self._event("serpent_strikes", space=space, rafts=[], lost=[a.number for a in group])
            for a in group:
                self._lose(a)
            return
        self._meet_sharks(space, then)

    def _meet_sharks(self, space: int, then: str) -> None:
        """S13: swimmers that entered a shark's space meet its sharks in slot order, each of which
        may be repelled (S15); the first one not repelled takes them all."""
        for shark in [c for c in self.creatures_at(space) if c.kind == SHARK]:
            swimmers = self.swimmers_at(space)
            if not swimmers:
                return
            if self._ask_repel(shark, then, meet=True):
                return
            self._shark_strikes(shark, swimmers)

    def _shark_strikes(self, shark: Creature, swimmers: list[Adventurer]) -> None:
        self._event("shark_strikes", slot=shark.slot, space=shark.space, lost=[a.number for a in swimmers])
        for a in swimmers:
            self._lose(a)

    # -- repellent (S15) --

    def _affected(self, creature: Creature) -> list[Adventurer]:
        """S15: the adventurers a creature is about to act on: a shark's swimmers, every
        adventurer on a kaiju's space."""
        if creature.kind == SHARK:
            return self.swimmers_at(creature.space)
        return self.adventurers_at(creature.space)

    def _repel_asker(self, creature: Creature, first: int) -> int:
        """S15: the first seat, `first` or more seats on from the seat whose turn it is, with an
        adventurer the creature is about to act on and a repellent in hand, as that number of
        seats on (-1 with none)."""
        seats = {a.seat for a in self._affected(creature)}
        for k in range(first, self.rules.players):
            seat = (self.seat + k) % self.rules.players
            if seat in seats and self.hand[seat][REPELLENT - FIRST_ABILITY] > 0:
                return k
        return -1

    def _ask_repel(self, creature: Creature, then: str, meet: bool = False) -> bool:
        """S15: a shark or kaiju is about to act on adventurers: when a seat with one of them holds
        a repellent, play stops for it to choose (`repel` or `keep`); True then, and the creature
        waits. `then` is what was being played; `meet` says swimmers entered its space."""
        k = self._repel_asker(creature, 0)
        if k < 0:
            return False
        self.repel = {"slot": creature.slot, "space": creature.space, "k": k, "meet": meet, "then": then,
                      "phase": self.phase}
        self.phase = "repel"
        return True

    def _answer_repel(self, use: bool) -> None:
        """S15: the seat asked spends a repellent (the creature leaves the board and does nothing)
        or keeps it (the next seat on with an adventurer affected and a repellent is asked; with
        none, the creature acts). Then play goes on where the creature interrupted it."""
        wait = self.repel
        creature = self.creatures[wait["slot"]]
        if use:
            seat = self.decider
            self.hand[seat][REPELLENT - FIRST_ABILITY] -= 1
            self._event("repelled", by=seat, slot=creature.slot, creature=creature.name, space=creature.space)
            creature.space = SUPPLY
        else:
            k = self._repel_asker(creature, wait["k"] + 1)
            if k >= 0:
                wait["k"] = k
                return
        self.repel, self.phase = None, wait["phase"]
        if not use:
            if creature.kind == SHARK:
                self._shark_strikes(creature, self.swimmers_at(creature.space))
            else:
                self._kaiju_acts(creature, creature.space)
        if wait["meet"]:
            self._meet_sharks(wait["space"], wait["then"])
        self._go_on(wait["then"])

    def _go_on(self, then: str) -> None:
        """Play on after a step that a creature may have interrupted (S15): nothing while a seat
        decides whether to repel it, else what follows the step that was being played."""
        if self.phase == "repel":
            return
        if then == "action":
            self._after_action_step()
        elif then == "push":
            self._resume()
        elif then == "flood":
            self._after_flood()
        else:
            self._after_creature()

    # -- creatures (S13) --

    def _creature_arrives(self, creature: Creature, space: int, then: str) -> None:
        """S13: what a creature does where it stops (moved, placed by a tile or moved there by one);
        a shark or kaiju about to act on adventurers may have to wait for S15's question."""
        creature.space = space
        if creature.kind == SERPENT:
            rafts = [r for r in self.rafts if r.space == space]
            victims = self.adventurers_at(space)
            if rafts or victims:
                self._event("serpent_strikes", space=space, rafts=[r.number for r in rafts],
                            lost=[a.number for a in victims])
            for a in victims:
                self._lose(a)
            for r in rafts:
                self._remove_raft(r)
        elif creature.kind == SHARK:
            swimmers = self.swimmers_at(space)
            if swimmers and not self._ask_repel(creature, then):
                self._shark_strikes(creature, swimmers)
        elif not (self.adventurers_at(space) and self._ask_repel(creature, then)):
            self._kaiju_acts(creature, space)

    def _kaiju_acts(self, kaiju: Creature, space: int) -> None:
        """S13: a kaiju removes the rafts there (their passengers swim), moves the other creatures
        there to the first neighbouring space they may stand on that holds no piece, and then
        its adventurers wait to be pushed (lost when there is nowhere to push them)."""
        group = self.adventurers_at(space)
        for raft in [r for r in self.rafts if r.space == space]:
            self._event("kaiju_sinks_raft", slot=kaiju.slot, raft=raft.number, space=space)
            self._remove_raft(raft)
        for other in self.creatures_at(space):
            if other is not kaiju:
                self._displace(other, space)
        if not group:
            return
        if self.push_directions(space):
            self.push_space = space
        else:
            self._event("nowhere_to_push", space=space, lost=[a.number for a in group])
            for a in group:
                self._lose(a)

    def _displace(self, creature: Creature, space: int) -> None:
        """S13: to the first neighbour, in direction order, that the creature may stand on and
        that holds no piece; never where a kaiju stands, and a kaiju only where no creature is
        (kaijus share their space with no creature). With none it leaves the board."""
        for n in self.neighbours(space):
            if n < 0 or self.adventurers_at(n) or self.raft_at(n) is not None:
                continue
            if creature.kind == KAIJU:
                fits = self.kind[n] in (SEA, LAND) and not self.creatures_at(n)
            else:
                fits = self.kind[n] == SEA and not self.has(n, KAIJU)
            if fits:
                self._event("displaced", slot=creature.slot, creature=creature.name, start=space, to=n)
                creature.space = n
                return
        self._event("displaced", slot=creature.slot, creature=creature.name, start=space, to=SUPPLY)
        creature.space = SUPPLY

    def _roll(self, after: str) -> None:
        """S13 (and the die ability, S11): roll; with no creature of that kind able to move,
        nothing happens, otherwise the seat moves one of them."""
        try:
            kind = int(next(self.dice))
        except StopIteration:
            raise DiceError(f"roll {len(self.rolls) + 1} is needed in turn {self.turn}, "
                            f"the dice give only {len(self.rolls)}") from None
        if not 0 <= kind < len(CREATURES):
            raise DiceError(f"roll {len(self.rolls) + 1}: {kind!r} is no creature")
        self.rolls.append(kind)
        self.rolled = kind
        movable = [c for c in self._rolled_creatures() if self.creature_targets(c)]
        self._event("roll", creature=CREATURES[kind], moves=bool(movable))
        self.return_to = after
        if movable:
            self.phase = "creature"
        else:
            self.rolled = -1
            self._resume()

    def _move_creature(self, creature: Creature, target: int) -> None:
        self._event("creature_move", slot=creature.slot, creature=creature.name, start=creature.space, to=target)
        self.rolled = -1
        self._creature_arrives(creature, target, "creature")
        self._go_on("creature")

    def _after_creature(self) -> None:
        if self._game_ended():
            return
        if self.push_space >= 0:
            self.phase = "push"
            return
        self._resume()

    def _push(self, direction: int) -> None:
        """S13: the seat pushes the adventurers of the kaiju's space together to one neighbour."""
        space = self.push_space
        target = self.step(space, direction)
        group = self.adventurers_at(space)
        self.push_space = -1
        self._event("push", start=space, to=target, adventurers=[a.number for a in group])
        self._arrive(group, target, "push")
        self._go_on("push")

    # -- flooding (S12) --

    def _flood(self, space: int) -> None:
        terrain, back = self.tile[space]
        self.tile[space] = None
        self.kind[space] = SEA  # its adventurers swim there; a kaiju on it stays
        self.floods_left -= 1
        self.floods += 1
        secret = back in (R.OARS, R.DOLPHIN, R.REPELLENT, R.DIVE, R.DIE)
        self._event("flood", space=space, terrain=R.TERRAINS[terrain], back=BACKS[back], ability=secret)
        if back == VOLCANO:
            self._volcano(space)
        elif back in (SHARK_TILE, KAIJU_TILE):
            self._creature_tile(SHARK if back == SHARK_TILE else KAIJU, space)
        elif back == RAFT_TILE:
            self._raft_tile(space)
        elif back == WHIRLPOOL:
            self._whirlpool(space)
        else:
            self.hand[self.seat][back - FIRST_ABILITY] += 1  # kept face down (S11, S16)
        self._go_on("flood")

    def _after_flood(self) -> None:
        if self._game_ended():
            return
        if self.push_space >= 0:
            self.phase, self.return_to = "push", "flood"
            return
        self._continue_floods()

    def _clear(self, spaces: list[int], cause: str) -> None:
        """Every adventurer, raft and creature on `spaces` leaves the board."""
        lost = [a for a in self.adventurers if a.space in spaces]
        rafts = [r for r in self.rafts if r.space in spaces]
        creatures = [c for c in self.in_game if c.space in spaces]
        if lost or rafts or creatures:
            self._event("swept", cause=cause, lost=[a.number for a in lost], rafts=[r.number for r in rafts],
                        creatures=[c.name for c in creatures])
        for a in lost:
            self._lose(a)
        for raft in rafts:
            raft.space = SUPPLY
        for c in creatures:
            c.space = SUPPLY

    def _volcano(self, space: int) -> None:
        """S12: everything there leaves the board; nothing may enter the volcano again."""
        self._clear([space], "volcano")
        self.kind[space] = VOLCANO_SPACE
        self.volcanoes += 1

    def _creature_tile(self, kind: int, space: int) -> None:
        """S12: a creature from the supply (the lowest free slot, S5), or with none left the one
        on the board in the lowest slot; nothing happens where a kaiju already stands."""
        if self.has(space, KAIJU):
            return
        mine = [c for c in self.in_game if c.kind == kind]
        free = [c for c in mine if c.space < 0]
        creature = free[0] if free else mine[0]
        self._event("creature_placed", slot=creature.slot, creature=creature.name, start=creature.space, to=space)
        self._creature_arrives(creature, space, "flood")

    def _raft_tile(self, space: int) -> None:
        """S12: a raft from the supply (the lowest number), or with none the empty raft on the
        board with the lowest number; its swimmers board it in number order. A kaiju standing
        there does not act: it acts only when it arrives."""
        supply = [r for r in self.rafts if r.space < 0]
        empty = [r for r in self.rafts if r.space >= 0 and not self.passengers(r)]
        raft = supply[0] if supply else empty[0] if empty else None
        if raft is None:
            return
        self._event("raft_tile", raft=raft.number, start=raft.space, to=space)
        raft.space = space
        for a in self.swimmers_at(space):
            if self.has_room(raft):
                a.raft = raft.number

    def _whirlpool(self, space: int) -> None:
        """S12: everything on this space and on the sea spaces next to it leaves the board."""
        self._clear([space] + [n for n in self.neighbours(space) if n >= 0 and self.kind[n] == SEA], "whirlpool")

    # -- the state as plain values (the contract's snapshot) --

    def snapshot(self) -> dict:
        kinds = list(self.kind)
        return {
            "space_kind": kinds,
            "tile_back": [t[1] if t else -1 for t in self.tile],
            "tile_terrain": [t[0] if t else -1 for t in self.tile],
            "values": [a.value for a in self.adventurers],
            "adventurer_space": [a.space for a in self.adventurers],
            "adventurer_raft": [a.raft for a in self.adventurers],
            "swam": [a.swam for a in self.adventurers],
            "raft_space": [r.space for r in self.rafts],
            "creature_space": [c.space for c in self.creatures],
            "hand": [list(h) for h in self.hand],
            "score": list(self.score),
            "rescued": list(self.rescued),
            "turn": self.turn,
            "seat": self.seat,
            "decider": self.decider,
            "phase": self.phase,
            "moves_left": self.moves_left,
            "floods_left": self.floods_left,
            "volcanoes": self.volcanoes,
            "rolled": self.rolled,
            "push_space": self.push_space,
            "repel": [self.repel["slot"], self.repel["space"]] if self.repel else None,
            "ending": self.ending,
            "rolls": list(self.rolls),
        }

    def lost(self) -> int:
        return sum(a.space == LOST for a in self.adventurers)

    def result_row(self) -> dict:
        """The contract's results row as named values."""
        won = self.winners()
        return {"ending": ENDINGS.index(self.ending) if self.ending else -1, "turns": self.turn,
                "volcanoes": self.volcanoes, "floods": self.floods, "rescued": sum(self.rescued),
                "lost": self.lost(), "winners": sum(1 << s for s in won),
                "score": list(self.score), "rescued_by_seat": list(self.rescued)}


def play_random(rules: Rules, seed: int, game: int = 0, choose=None) -> SurviveTheIslandEngine:
    """Game `game` of `seed` played to its end by the engine alone, with its own dice; `choose(codes)`
    picks each decision (the first legal one when not given)."""
    engine = SurviveTheIslandEngine(rules, Deal.random(rules, seed, game), random_dice(rules, seed, game))
    while not engine.over:
        codes = engine.legal_actions()
        engine.apply(choose(codes) if choose else codes[0])
    return engine
