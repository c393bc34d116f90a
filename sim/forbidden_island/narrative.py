"""A replayed Forbidden Island game told in words, and the island drawn in text.

`story(game)` turns the engine's events into one line each; `board(game)` draws the island:
every place shows a short tile name, `~` after it when flooded, the sea (`~~~~~~`) where it
sank, and the numbers of the players standing there.
"""

from __future__ import annotations

from sim.forbidden_island.engine import FLOODED, SUNK, ForbiddenIslandEngine
from sim.forbidden_island.rules import CARD_NAMES, FLOOD_DRAWS, PLACE_SET, TREASURE_NAMES, place_text, tile_name

CAUSES = {
    "water": "the water reached the skull",
    "drowned": "a pawn could not swim to safety",
    "treasure": "both tiles of a treasure not yet captured sank",
    "fools_landing": "Fools' Landing sank",
}


def short_name(tile: str) -> str:
    """Three letters, unique per tile: the first word's initial and the last word's first two
    (Fools' Landing -> Fla, Cave of Embers -> Cem), or a one-word name's first three."""
    words = [w for w in tile.split("_") if w not in ("of", "the")]
    return (words[0][:3] if len(words) == 1 else words[0][0] + words[-1][:2]).title()


def _where(game: ForbiddenIslandEngine, place) -> str:
    place = tuple(place)
    return f"{tile_name(game.layout[place])} ({place_text(place)})"


def _who(game: ForbiddenIslandEngine, seat: int) -> str:
    return f"player {seat} ({game.roles[seat]})"


def describe(game: ForbiddenIslandEngine, event: dict) -> str:
    """One event as a line of text."""
    k = event["kind"]
    if k in ("flood", "sink"):
        verb = "floods" if k == "flood" else "sinks"
        return f"{tile_name(event['tile'])} ({place_text(game.place_of[event['tile']])}) {verb}"
    if k == "deal":
        return f"{_who(game, event['player'])} is dealt {CARD_NAMES[event['card']]}"
    if k == "setup_reshuffle":
        return f"{event['cards']} Waters Rise! set aside in the deal go back; the deck is shuffled"
    if k == "loss":
        return f"The game is lost: {CAUSES[event['cause']]}."
    if k == "waters_rise":
        mark = event["mark"]
        count = f"{FLOOD_DRAWS[mark]} flood cards a turn" if mark in FLOOD_DRAWS else "the skull"
        return f"the water rises to mark {mark} ({count}); the flood discard goes back on top"
    if k == "treasure_reshuffle":
        return "the treasure pile is empty: its discard is shuffled into a new one"
    if k == "flood_reshuffle":
        return "the flood pile is empty: its discard is shuffled into a new one"
    who = _who(game, event["player"])
    if k in ("move", "fly", "swim"):
        verb = {"move": "moves", "fly": "flies", "swim": "swims"}[k]
        return f"{who} {verb} to {_where(game, event['place'])}"
    if k == "navigate":
        return f"{who} moves {_who(game, event['pawn'])} to {_where(game, event['place'])}"
    if k == "shore":
        return f"{who} shores up {_where(game, event['place'])}"
    if k == "give":
        return f"{who} gives {CARD_NAMES[event['card']]} to {_who(game, event['to'])}"
    if k == "capture":
        return f"{who} captures {TREASURE_NAMES[event['treasure']]} on {_where(game, event['place'])}"
    if k == "draw":
        return f"{who} draws {CARD_NAMES[event['card']]}"
    if k == "discard":
        return f"{who} discards {CARD_NAMES[event['card']]}"
    if k == "sandbags":
        return f"{who} plays Sandbags on {_where(game, event['place'])}"
    if k == "lift":
        passengers = ", ".join(str(p) for p in event["pawns"])
        carried = "player" if len(event["pawns"]) == 1 else "players"
        return f"{who} plays Helicopter Lift: {carried} {passengers} to {_where(game, event['place'])}"
    if k == "liftoff":
        return f"{who} plays Helicopter Lift from Fools' Landing: the team escapes with all four treasures!"
    return k


def story(game: ForbiddenIslandEngine) -> list[str]:
    """The whole game so far, one line per event, with a heading for each turn."""
    lines, turn = [], None
    for event in game.events:
        if event["turn"] != turn:
            turn = event["turn"]
            if turn == 0:
                lines.append("Setup:")
            else:
                seat = (turn - 1) % game.rules.players
                lines.append(f"Turn {turn}, {_who(game, seat)}:")
        lines.append("  " + describe(game, event))
    return lines


CELL = 7


def board(game: ForbiddenIslandEngine) -> str:
    """The island as six rows of text cells."""
    out = [("   " + "".join(f"{c:^{CELL}}" for c in range(1, 7))).rstrip()]
    for r in range(1, 7):
        cells = []
        for c in range(1, 7):
            place = (c, r)
            if place not in PLACE_SET:
                cells.append(" " * CELL)
                continue
            tile = game.layout[place]
            state = game.state[tile]
            text = "~" * (CELL - 1) if state == SUNK else short_name(tile) + ("~" if state == FLOODED else "")
            text += "".join(str(s) for s in game.players_at(place))
            cells.append(f"{text:<{CELL}}")
        out.append(f"{r:>2} " + "".join(cells).rstrip())
    captured = ", ".join(game.captured) or "none"
    out.append(f"mark {game.mark}; captured: {captured}; hands: "
               + " | ".join(f"{s}: {' '.join(h) or '-'}" for s, h in enumerate(game.hands)))
    return "\n".join(out)


def tell(record, echo, board_each_turn: bool = False) -> None:
    """`replay`'s story of a record: its setting, then each turn's events (and the island after
    it, with `board_each_turn`), then the ending, a line at a time to `echo`."""
    from sim.forbidden_island.records import replay

    rules = record.rules
    echo(f"Forbidden Island, {rules.players} players, {rules.difficulty}")
    shown = 0
    heading = None

    def after_action(game: ForbiddenIslandEngine, action=None) -> None:
        nonlocal shown, heading
        for event in game.events[shown:]:
            if event["turn"] != heading:
                if board_each_turn and heading is not None and heading > 0:
                    echo(board(game))
                heading = event["turn"]
                echo("Setup:" if heading == 0 else f"Turn {heading}, player {(heading - 1) % rules.players} "
                     f"({game.roles[(heading - 1) % rules.players]}):")
            echo(f"  {describe(game, event)}")
        shown = len(game.events)

    game = replay(record, after_action=after_action)
    after_action(game)
    if board_each_turn:
        echo(board(game))
    if game.outcome == "win":
        echo(f"The team lifted off with all four treasures in turn {game.turn}.")
    elif game.outcome:
        echo(f"Lost in turn {game.turn}: {CAUSES[game.outcome]} ({game.outcome}).")
    else:
        echo(f"The record ends in turn {game.turn}, the game still going.")
