"""A replayed Survive the Island game told in words, and the hex board drawn in text.

`describe(game, event)` turns one of the engine's events into a line; `board_text(game)` draws the
board as rows of hexes; `tell(record, echo, board=...)` tells a whole record. The story shows
what the table sees (S16): the effect of every flooded tile, but an ability only when it is
played, and no adventurer's value until the final scores.
"""

from __future__ import annotations

from sim.survive_the_island.engine import SUPPLY, VOLCANO_SPACE, SurviveTheIslandEngine
from sim.survive_the_island.rules import DIRECTIONS, LAND, RESCUE, SEA, TERRAINS

ENDING_TEXT = {
    "cleared": "no adventurer is left on the board",
    "volcano": "the volcano that ends the game erupts",
}
EFFECT_TEXT = {
    "volcano": "a volcano! nothing may enter it again",
    "shark": "a shark",
    "kaiju": "a kaiju",
    "raft": "a raft",
    "whirlpool": "a whirlpool!",
}


def _where(game: SurviveTheIslandEngine, space: int) -> str:
    return game.board.space_text(space)


def _adventurer(game: SurviveTheIslandEngine, number: int) -> str:
    return f"adventurer {number} (seat {game.adventurers[number].seat})"


def _adventurers(game: SurviveTheIslandEngine, numbers: list[int]) -> str:
    if len(numbers) == 1:
        return _adventurer(game, numbers[0])
    return "adventurers " + ", ".join(f"{n} (seat {game.adventurers[n].seat})" for n in numbers)


def describe(game: SurviveTheIslandEngine, event: dict) -> str | None:
    """One event as a line of text (None for the ones a story leaves out)."""
    k = event["kind"]
    seat = f"seat {event['seat']}"
    if k == "place":  # which value the seat chose is its own to know (S7, S16): the piece is told, not its value
        return f"{seat} places {_adventurer(game, event['adventurer'])} on {_where(game, event['space'])}"
    if k == "raft_placed":
        return f"{seat} puts raft {event['raft']} on the sea at {_where(game, event['space'])}"
    if k == "move":
        how = "swims" if event["swim"] else "moves"
        return f"{_adventurer(game, event['adventurer'])} {how} to {_where(game, event['to'])}"
    if k == "raft_move":
        return f"{seat} moves raft {event['raft']} to {_where(game, event['to'])}"
    if k == "raft_landed":
        return f"raft {event['raft']} lands on the rescue island at {_where(game, event['space'])} " \
               "and goes back to the supply"
    if k == "rescued":
        return f"{_adventurer(game, event['adventurer'])} is rescued"
    if k == "swept":
        gone = []
        if event["lost"]:
            gone.append(_adventurers(game, event["lost"]))
        if event["rafts"]:
            gone.append("raft" + ("s " if len(event["rafts"]) > 1 else " ") + ", ".join(map(str, event["rafts"])))
        gone += [f"a {c}" for c in event["creatures"]]
        return f"the {event['cause']} takes {', '.join(gone)}"
    if k == "ability":
        return f"{seat} plays {event['ability']}"
    if k == "dolphin":
        return f"a dolphin carries {_adventurer(game, event['adventurer'])} to {_where(game, event['to'])}"
    if k == "dive":
        return f"the {event['creature']} at {_where(game, event['start'])} dives to {_where(game, event['to'])}"
    if k == "roll":
        nothing = "" if event["moves"] else ": none can move"
        return f"{seat} rolls the die: {event['creature']}{nothing}"
    if k == "creature_move":
        start, to = _where(game, event["start"]), _where(game, event["to"])
        return f"{seat} moves the {event['creature']} from {start} to {to}"
    if k == "creature_placed":
        start = "from the supply" if event["start"] == SUPPLY else f"from {_where(game, event['start'])}"
        return f"a {event['creature']} comes {start} to {_where(game, event['to'])}"
    if k == "serpent_strikes":
        parts = []
        if event["rafts"]:
            parts.append("raft" + ("s " if len(event["rafts"]) > 1 else " ") + ", ".join(map(str, event["rafts"])))
        if event["lost"]:
            parts.append(_adventurers(game, event["lost"]))
        return f"the sea serpent at {_where(game, event['space'])} takes {' and '.join(parts)}"
    if k == "shark_strikes":
        return f"the shark at {_where(game, event['space'])} takes {_adventurers(game, event['lost'])}"
    if k == "repelled":
        return f"seat {event['by']} spends a repellent: the {event['creature']} at " \
               f"{_where(game, event['space'])} leaves the board"
    if k == "kaiju_sinks_raft":
        return f"the kaiju breaks raft {event['raft']}; its passengers swim"
    if k == "displaced":
        to = "off the board" if event["to"] == SUPPLY else f"to {_where(game, event['to'])}"
        return f"the kaiju drives the {event['creature']} {to}"
    if k == "nowhere_to_push":
        return f"the kaiju at {_where(game, event['space'])} has nowhere to push {_adventurers(game, event['lost'])}"
    if k == "push":
        direction = DIRECTIONS[game.board.neighbours[event["start"]].index(event["to"])]
        return f"{seat} pushes {_adventurers(game, event['adventurers'])} {direction} to {_where(game, event['to'])}"
    if k == "flood":
        what = "an ability, kept face down" if event["ability"] else EFFECT_TEXT[event["back"]]
        return f"{seat} floods the {event['terrain']} at {_where(game, event['space'])}: {what}"
    if k == "raft_tile":
        start = "from the supply" if event["start"] == SUPPLY else f"from {_where(game, event['start'])}"
        return f"raft {event['raft']} comes {start} to {_where(game, event['to'])}"
    return None


# --- the board in text ----------------------------------------------------------------------------

TERRAIN_CHARS = {t: t[0] for t in TERRAINS}  # b, f, m
CREATURE_CHARS = {"serpent": "S", "shark": "H", "kaiju": "K"}
LEGEND = ("~ sea  b f m beach, forest, mountain  V volcano  R rescue island  "
          "S serpent  H shark  K kaiju  = raft  digits: the seats of the adventurers there")


def _cell(game: SurviveTheIslandEngine, q: int) -> str:
    kind = game.kind[q]
    if kind == SEA:
        base = "~"
    elif kind == LAND:
        base = TERRAIN_CHARS[TERRAINS[game.tile[q][0]]]
    elif kind == RESCUE:
        base = "R"
    else:
        base = "V" if kind == VOLCANO_SPACE else "?"
    marks = "".join(CREATURE_CHARS[c.name] for c in game.creatures_at(q))
    if game.raft_at(q) is not None:
        marks += "="
    marks += "".join(str(a.seat) for a in game.adventurers_at(q))
    text = base + marks
    return (text[:4] if len(text) <= 4 else text[:3] + "+").ljust(4)


def board_text(game: SurviveTheIslandEngine) -> str:
    """The board as rows of hexes (odd rows half a hex to the right, S1), four characters a hex."""
    b = game.board
    lines = []
    for row in range(max(r for r, _ in b.cells) + 1):
        spaces = [q for q, (r, _) in enumerate(b.cells) if r == row]
        indent = "  " if row % 2 else ""
        lines.append(f"{row + 1:>3} {indent}" + "".join(_cell(game, q) for q in spaces).rstrip())
    hands = " | ".join(f"seat {s}: {sum(h)} abilit{'y' if sum(h) == 1 else 'ies'}" for s, h in enumerate(game.hand))
    lines.append(f"    volcanoes {game.volcanoes}/{game.rules.volcanoes_to_end}; hands (face down): {hands}")
    return "\n".join(lines)


def tell(record, echo, board: bool = False) -> None:
    """`replay`'s story of a record: its setting, the set-up, each turn's events (and the board
    after it, with `board`), then the ending with the scores, a line at a time to `echo`."""
    from sim.survive_the_island.records import replay

    rules = record.rules
    echo(f"Survive the Island, {rules.players} players, {rules.moves} moves a turn, "
         f"{rules.volcanoes_to_end} volcanoes end it (seed {record.seed}, game {record.game})")
    if board:
        echo(f"(the board after each turn: {LEGEND})")
    shown = 0
    heading = None

    def after_action(game: SurviveTheIslandEngine, code=None) -> None:
        nonlocal shown, heading
        for event in game.events[shown:]:
            if event["turn"] != heading:
                if board and heading is not None:
                    echo(board_text(game))
                heading = event["turn"]
                echo("Set-up:" if heading == 0 else f"Turn {heading}, seat {event['seat']}:")
            line = describe(game, event)
            if line:
                echo(f"  {line}")
        shown = len(game.events)

    game = replay(record, after_action=after_action)
    after_action(game)
    if board:
        echo(board_text(game))
    if game.ending is None:
        echo(f"The record ends in turn {game.turn}, the game still going.")
        return
    echo(f"The game ends in turn {game.turn}: {ENDING_TEXT[game.ending]}.")
    echo("Scores: " + ", ".join(f"seat {s} {v} ({game.rescued[s]} rescued)" for s, v in enumerate(game.score)))
    won = game.winners()
    if len(won) == 1:
        echo(f"Seat {won[0]} wins.")
    else:
        echo("Seats " + ", ".join(map(str, won)) + " share the win.")
