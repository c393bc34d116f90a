"""Survive the Island's board pictures (sim/survive_the_island/boards.py)."""

from __future__ import annotations

import random

from PIL import Image

from sim.survive_the_island.boards import board_figure, replay_pictures
from sim.survive_the_island.engine import Deal, SurviveTheIslandEngine, random_dice
from sim.survive_the_island.records import record_of
from sim.survive_the_island.rules import Rules


def test_a_record_becomes_one_picture_a_turn_and_a_gif(tmp_path):
    rules = Rules(players=4, volcanoes_to_end=1)
    rng = random.Random(2)
    game = SurviveTheIslandEngine(rules, Deal.random(rules, 2, 0), random_dice(rules, 2, 0))
    while not game.over:
        game.apply(rng.choice(game.legal_actions()))
    gif = tmp_path / "game.gif"
    paths = replay_pictures(record_of(game, 2, 0), tmp_path / "pictures", gif=gif)
    assert [p.name for p in paths] == [f"turn-{t:03d}.png" for t in range(game.turn + 1)]
    with Image.open(paths[-1]) as image:
        assert image.size[0] > 600 and image.size[1] > 400
    with Image.open(gif) as animation:
        assert animation.n_frames == len(paths)


def test_one_state_is_one_figure_with_a_hex_for_every_space():
    rules = Rules(players=2)
    game = SurviveTheIslandEngine(rules, Deal.random(rules, 1, 0), random_dice(rules, 1, 0))
    fig = board_figure(game, "the set-up")
    hexes = [p for p in fig.axes[0].patches if getattr(p, "numvertices", 0) == 6]
    assert len(hexes) == game.board.spaces
