"""`replay`'s story of a Desert Island record: its setting, then week by week what the engine's
event log says happened (who did what, fights, the fate cards' events, hunger and deaths), the
table after each week with `board`, and the ending with each seat's score."""

from __future__ import annotations

from sim.desert_island.actions import good_text
from sim.desert_island.engine import NAMES, DesertIslandEngine
from sim.desert_island.records import Record, replay
from sim.desert_island.rules import PLACES

ENDING_TEXT = {"rescued": "a ship took the survivors home (D4)", "lost": "every castaway died (D8)",
               "stranded": "still on the island when the last week ended (D22)"}


def _card(game: DesertIslandEngine, card: int) -> str:
    return game.item(card).name


def describe(game: DesertIslandEngine, event: dict) -> str | None:
    """One event of the engine's log as a line, or None for one not worth telling."""
    kind, who = event["kind"], NAMES[event["character"]] if "character" in event else ""
    if kind == "week":
        return f"-- week {event['week']} (fire {event['fire']}, ships {event['ships']})"
    if kind == "action":
        target = f" {NAMES[event['target']]} for {event['claim']}" if "target" in event else ""
        return f"{who}: {event['action']}{target}"
    if kind == "found":
        return f"{who} finds {event['portions']} portions"
    if kind == "fire":
        return f"{who} builds the fire (+{event['added']}, now {event['fire']})"
    if kind == "fight":
        won = "the attackers win" if event["attacker_won"] else "the defenders hold"
        return f"fight: {NAMES[event['attacker']]} against {NAMES[event['defender']]}, {event['attack']} to " \
               f"{event['defence']}: {won}"
    if kind == "yield":
        return f"{who} gives in"
    if kind == "taken":
        return f"{NAMES[event['by']]} takes {_card(game, event['card'])} from {NAMES[event['source']]}"
    if kind == "picked":
        hand = event["hand"].replace("_hand", "")
        return f"{NAMES[event['by']]} picks {NAMES[event['source']]}'s {hand} fist: {event['portions']} portions"
    if kind == "swap":
        return f"{NAMES[event['attacker']]} and {NAMES[event['defender']]} swap places"
    if kind == "fate":
        struck = ", ".join(NAMES[c] for c in event["struck"]) if event.get("struck") else "no one"
        return f"fate: {event['event']} strikes {struck}"
    if kind == "lookout":
        return f"lookout: fire {event['fire']}"
    if kind == "traded":
        return f"{NAMES[event['by']]} trades {good_text(event['given'], game.decks)} to {NAMES[event['to']]} " \
               f"for {good_text(event['wanted'], game.decks)}"
    if kind == "wound":
        return f"{who} is wounded ({event['count']}, {event['cause']})"
    if kind == "death":
        return f"{who} dies at the {PLACES[event['place']]} ({event['cause']})"
    return None


def table_text(game: DesertIslandEngine) -> str:
    """Each living castaway's place, food, wounds and cards, in turn order."""
    rows = []
    for c in game.living():
        cards = ", ".join(_card(game, k) for k in game.cards_of(c))
        rows.append(f"   {PLACES[game.place[c]]:<7} {NAMES[c]:<7} food {game.food[c]:>2}  wounds {game.wounds[c]}"
                    + (f"  [{cards}]" if cards else ""))
    return "\n".join(rows)


def tell(record: Record, echo, board: bool = False) -> None:
    rules = record.rules
    echo(f"Desert Island, {rules.players} players, {rules.ships_to_rescue} ships to rescue, start food "
         f"{rules.start_food}" + (f", decks {rules.decks}" if rules.decks != "standard" else "")
         + f" (seed {record.seed}, game {record.game})")
    told = [0]

    def after_action(game: DesertIslandEngine, code=None) -> None:
        for event in game.events[told[0]:]:
            if board and event["kind"] == "week" and event["week"] > 1:
                echo(table_text(game))
            line = describe(game, event)
            if line:
                echo(line)
        told[0] = len(game.events)

    game = replay(record, after_action)
    after_action(game)
    if game.over:
        echo(f"ended: {game.ending}, {ENDING_TEXT[game.ending]}, in week {game.week}")
        shares = game.win_shares()
        for seat, points in enumerate(game.scores):
            c = game.deal.roles[seat]
            echo(f"  seat {seat + 1} {NAMES[c]:<7} {points:>3} points  win share {shares[seat]:.2f}"
                 f"  (friend {NAMES[game.deal.friends[seat]]}, enemy {NAMES[game.deal.enemies[seat]]})")
    else:
        echo(f"unfinished in week {game.week}")
