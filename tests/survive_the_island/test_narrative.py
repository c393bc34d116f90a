"""Survive the Island's story of a record and its text board (sim/survive_the_island/narrative.py)."""

from __future__ import annotations

import random

from sim.survive_the_island.engine import Deal, SurviveTheIslandEngine, random_dice
from sim.survive_the_island.narrative import board_text, tell
from sim.survive_the_island.records import record_of
from sim.survive_the_island.rules import ABILITIES, Rules


def a_record(players: int = 3, seed: int = 5):
    rules = Rules(players=players, moves=9, volcanoes_to_end=4)
    rng = random.Random(seed)
    game = SurviveTheIslandEngine(rules, Deal.random(rules, seed, 0), random_dice(rules, seed, 0))
    while not game.over:
        game.apply(rng.choice(game.legal_actions()))
    return record_of(game, seed, 0), game


def test_the_story_has_the_setting_every_turn_and_the_ending_with_scores():
    record, game = a_record()
    lines: list[str] = []
    tell(record, lines.append)
    assert lines[0].startswith("Survive the Island, 3 players")
    first = next(e for e in game.events if e["kind"] == "place")
    assert lines[1] == "Set-up:" and f"seat 0 places adventurer {first['adventurer']} (seat 0) on r" in lines[2]
    for turn in range(1, game.turn + 1):
        assert f"Turn {turn}, seat {(turn - 1) % 3}:" in lines
    assert lines[-3].startswith(f"The game ends in turn {game.turn}")
    assert lines[-2] == "Scores: " + ", ".join(f"seat {s} {v} ({game.rescued[s]} rescued)"
                                               for s, v in enumerate(game.score))
    assert "win" in lines[-1]
    floods = [line for line in lines if " floods the " in line]
    assert len(floods) == game.floods
    for line in floods:  # an ability stays face down until it is played (S16)
        assert not any(f": {name}" in line for name in ABILITIES)
    assert not any("value" in line for line in lines)


def test_the_board_is_drawn_after_every_turn_with_the_pieces():
    record, game = a_record(players=2, seed=8)
    lines: list[str] = []
    tell(record, lines.append, board=True)
    drawing = board_text(game).splitlines()
    assert len(drawing) == 14  # 13 rows of hexes and the volcano and hand line
    assert drawing[0].split()[1] == "R" and drawing[12].split()[-1] == "R"  # the rescue islands in the corners
    assert sum(line.startswith("  1 R") for line in lines) == game.turn + 1  # after the set-up and each turn
    assert "\n".join(lines).count("volcanoes ") >= game.turn
