"""The `island-escape` command line.

Errors the user can fix (a bad record, an impossible rule setting) print one line on stderr and
exit with status 2, never a traceback.
"""

from __future__ import annotations

import json
import sys

import click

from sim.records import RecordError, load_record, replay, result_json

EXIT_BAD_INPUT = 2


def fail(message: str) -> None:
    click.echo(f"island-escape: {message}", err=True)
    sys.exit(EXIT_BAD_INPUT)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Island Escape balance lab: replay records, simulate games, measure difficulty."""


@main.command("replay")
@click.argument("records", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="One JSON result per record, one per line.")
@click.option("--board", is_flag=True, help="Draw the island in ASCII after each turn.")
def replay_cmd(records: tuple[str, ...], as_json: bool, board: bool) -> None:
    """Replay game RECORDS (RECORD-FORMAT.md) with the reference engine.

    Prints a narrative of every turn, or with --json the outcome, cause, turns, floods, events
    and final state. A bad record is reported on stderr in one line and the others still
    replay; the exit status is 2 if any record was bad.
    """
    from sim.narrative import Narrator, board_text, ending_text

    bad = 0
    for path in records:
        try:
            record = load_record(path)
            if as_json:
                game = replay(record)
                click.echo(json.dumps(result_json(game), ensure_ascii=False))
                continue
            narrator = Narrator()
            shown = 0
            rules = record.rules
            click.echo(f"== {path}: {rules.players} player(s), {rules.cards_per_treasure} cards a "
                       f"treasure, swim {rules.swim_cost}, {rules.actions_per_turn} actions, "
                       f"gauge {' '.join(rules.gauge)}")

            def after_turn(game, narrator=narrator):
                nonlocal shown
                new = game.events[shown:]
                shown = len(game.events)
                if not new:
                    return
                turn = new[0].turn
                click.echo(f"Turn {turn}, pawn {(turn - 1) % game.rules.pawns}:")
                for e in new:
                    click.echo(f"  {narrator.describe(e)}")
                if board:
                    click.echo(board_text(game))

            game = replay(record, after_turn=after_turn)
            click.echo(ending_text(game))
        except RecordError as exc:
            bad += 1
            click.echo(f"island-escape replay: {path}: {exc}", err=True)
    if bad:
        sys.exit(EXIT_BAD_INPUT)


if __name__ == "__main__":
    main()
