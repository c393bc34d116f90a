"""The story and the text board of a replayed Forbidden Island game."""

from __future__ import annotations

import random
from pathlib import Path

from sim.forbidden_island.engine import new_game
from sim.forbidden_island.narrative import board, describe, short_name, story
from sim.forbidden_island.records import load_record, replay
from sim.forbidden_island.rules import TILE_CODES, Rules

from .support import random_play, scout_choice

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "forbidden-island" / "first-turns.json"


def test_the_example_told_turn_by_turn():
    lines = story(replay(load_record(EXAMPLE)))
    assert lines[0] == "Setup:"
    assert "Turn 1, player 0 (engineer):" in lines and "Turn 2, player 1 (pilot):" in lines
    assert "  player 0 (engineer) draws Waters Rise!" in lines
    assert "  the water rises to mark 2 (2 flood cards a turn); the flood discard goes back on top" in lines
    assert "  Copper Gate (2,2) sinks" in lines
    assert "  player 0 (engineer) plays Sandbags on Bronze Gate (4,1)" in lines
    turn2 = lines.index("Turn 2, player 1 (pilot):")
    assert lines[turn2 + 1] == "  player 1 (pilot) flies to Watchtower (4,6)"


def test_the_board_shows_states_pawns_and_sea():
    rows = board(replay(load_record(EXAMPLE))).splitlines()
    assert rows[1].split() == ["1", "Fla~", "Bga0"]  # flooded Fools' Landing; the Engineer on Bronze Gate
    assert rows[2].split() == ["2", "~~~~~~", "Gga~", "~~~~~~", "Sga~"]  # Copper and Iron Gate sank
    assert "Obs1" in rows[5]
    assert rows[-1].startswith("mark 2; captured: none; hands: 0: lift lift")


def test_every_event_of_played_games_has_words_and_names_are_unique():
    assert len({short_name(t) for t in TILE_CODES}) == 24
    for seed in range(15):
        game = random_play(new_game(Rules(players=2 + seed % 3), seed), random.Random(seed), chooser=scout_choice)
        for event in game.events:
            assert describe(game, event) != event["kind"]
        assert story(game)[-1].startswith("  The game is lost") or game.outcome == "win"
