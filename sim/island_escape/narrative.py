"""Turn a replayed game into text a designer can follow, and draw the island in ASCII."""

from __future__ import annotations

from sim.island_escape.engine import DOWN, FLOODED, SEA, Event, IslandEscapeEngine
from sim.island_escape.rules import SUIT_SYMBOL, pretty, rank_of


def where(place) -> str:
    return f"column {place[0]}, row {place[1]}"


class Narrator:
    """Describes events in order; remembers which places were already face up."""

    def __init__(self) -> None:
        self.seen: set[tuple[int, int]] = {(3, 3)}
        self.flood_no = 0
        self.flooded: set[tuple[int, int]] = set()

    def _reached(self, place, card) -> str:
        if place in self.seen:
            return f"{where(place)} ({pretty(card)})"
        self.seen.add(place)
        return f"{where(place)} and turns it face up: {pretty(card)}"

    def describe(self, e: Event) -> str:
        at = tuple(e.at) if e.at else None
        if e.kind == "move":
            return f"moves to {self._reached(at, e.card)}"
        if e.kind == "swim":
            return f"swims across the sea to {self._reached(at, e.card)}"
        if e.kind == "shore":
            self.flooded.discard(at)
            return f"shores up {pretty(e.card)} at {where(at)} - it is dry again"
        if e.kind == "salvage":
            self.flooded.discard(at)
            return f"salvages {pretty(e.card)} at {where(at)} - the place is sea now"
        if e.kind == "give":
            return f"gives {' '.join(pretty(c) for c in e.cards)} to pawn {e.to}"
        if e.kind == "raise":
            suit = SUIT_SYMBOL[e.card[-1]]
            return (f"raises the {suit} treasure, tucking {' '.join(pretty(c) for c in e.cards)} "
                    f"under {pretty(e.card)}")
        if e.kind == "takeoff":
            return "takes off from the helicopter - the team escapes!"
        if e.kind == "flood":
            self.flood_no += 1
            head = f"flood {self.flood_no}: {where(at)} - "
            if e.card is None:
                return head + "sea, nothing happens"
            if at in self.flooded:
                return head + f"{pretty(e.card)} was flooded already and"
            self.flooded.add(at)
            if at not in self.seen:
                self.seen.add(at)
                return head + f"face down, turned up ({pretty(e.card)}) and flooded"
            return head + f"{pretty(e.card)} is flooded"
        if e.kind == "sink":
            self.flooded.discard(at)
            return f"  sinks: {pretty(e.card)} is gone, {where(at)} is sea now"
        if e.kind == "escape":
            return f"pawn {e.pawn} swims to safety at {self._reached(at, e.card)}"
        if e.kind == "rise":
            return f"both piles are used up and reshuffled; {pretty(e.card)} comes off the gauge"
        return f"{e.kind} at {at}"


def board_text(game: IslandEscapeEngine) -> str:
    """An ASCII island: ## face down, ~card flooded, ~~~ sea, pawn numbers after the card."""
    lines = ["       " + "".join(f"  col {c}  " for c in range(1, 6))]
    for r in range(1, 6):
        cells = []
        for c in range(1, 6):
            tile = game.board[(c, r)]
            if tile.state == SEA:
                label = "~~~"
            elif tile.state == DOWN:
                label = "##"
            elif tile.state == FLOODED:
                label = "~" + tile.card
            else:
                label = tile.card
            pawns = "".join(str(i) for i in game.pawns_at((c, r)))
            cells.append(f"{label:>5} {pawns:<3}")
        lines.append(f"row {r}  " + " ".join(cells))
    hands = "; ".join(f"pawn {i}: {' '.join(pretty(c) for c in h) or '-'}"
                      for i, h in enumerate(game.salvage))
    raised = " ".join(SUIT_SYMBOL[s] for s in game.raised) or "-"
    lines.append(f"salvage {hands} | raised {raised} | gauge "
                 f"{' '.join(pretty(c) for c in game.gauge)} (level {rank_of(game.gauge[0])})")
    return "\n".join(lines)


def ending_text(game: IslandEscapeEngine) -> str:
    if game.outcome is None:
        return f"The record ends after {game.turn} turns and {game.floods} floods; the game goes on."
    if game.outcome == "win":
        return f"The team wins in turn {game.turn}, after {game.floods} floods."
    why = {
        "treasure": "a King sank before its treasure was raised",
        "helicopter": "the helicopter sank",
        "drowned": "a pawn had no tile to swim to and drowned",
        "water": "the water had to rise past the last gauge card",
        "cut_off": "a King or the helicopter can no longer be reached",
        "cards": "too few land cards are left to raise every treasure",
    }[game.outcome]
    return f"The team loses in turn {game.turn}, after {game.floods} floods: {why} ({game.outcome})."


def tell(record, echo, board: bool = False) -> None:
    """`replay`'s story of a record: its setting, then each turn's events (and the island after
    it, with `board`), then the ending, a line at a time to `echo`."""
    from sim.island_escape.records import replay

    rules = record.rules
    def count(n: int, word: str) -> str:
        return f"{n} {word}" if n == 1 else f"{n} {word}s"

    echo(f"{count(rules.players, 'player')}, {count(rules.cards_per_treasure, 'card')} a treasure, swim "
         f"{rules.swim_cost}, {count(rules.actions_per_turn, 'action')}, gauge {' '.join(rules.gauge)}")
    narrator = Narrator()
    shown = 0

    def after_turn(game: IslandEscapeEngine) -> None:
        nonlocal shown
        new = game.events[shown:]
        shown = len(game.events)
        if not new:
            return
        turn = new[0].turn
        echo(f"Turn {turn}, pawn {(turn - 1) % game.rules.pawns}:")
        for e in new:
            echo(f"  {narrator.describe(e)}")
        if board:
            echo(board_text(game))

    echo(ending_text(replay(record, after_turn=after_turn)))
