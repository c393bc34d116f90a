"""Board pictures, replay --png/--gif, finding games, and the loss-cause notebook."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import matplotlib.image as mpimg
import nbformat
import pandas as pd
import pytest

from experiments.boards import draw_board, replay_pictures, save_board
from experiments.find import FindError, export_found, find_games
from experiments.runner import export_records, simulate
from sim.engine import DRY, FLOODED, SEA, new_game
from sim.records import load_record, replay
from sim.rules import Rules, gauge_of_length

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "notebooks" / "loss_causes.ipynb"


def _picture_ok(path: Path) -> None:
    img = mpimg.imread(path)
    assert img.shape[0] > 300 and img.shape[1] > 500
    assert img[..., :3].std() > 0.1  # not blank: cards, water and text differ


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_board_with_every_tile_state(tmp_path, players):
    game = new_game(Rules(players=players), seed=players)
    game.board[(1, 1)].state = DRY  # face up
    game.board[(2, 1)].state = FLOODED
    game.board[(3, 1)].state, game.board[(3, 1)].card = SEA, None
    for i in range(game.rules.pawns):
        game.pawns[i] = [(1, 1), (2, 1), (4, 4), (5, 5)][i]
    game.salvage[0].append("7C")
    game.raised.append("S")
    path = save_board(game, tmp_path / "b.png", "every tile state")
    _picture_ok(path)


def test_board_of_a_finished_game(tmp_path):
    record = export_records(Rules(players=3), "greedy", 3, [0])[0]
    game = replay(record)
    assert game.over
    fig = draw_board(game, "the end")
    assert fig.get_axes() and len(fig.get_axes()[0].patches) >= 25
    _picture_ok(save_board(game, tmp_path / "end.png"))


def test_replay_pictures_one_per_turn_and_a_gif(tmp_path):
    record = export_records(Rules(players=2), "greedy", 5, [3])[0]
    paths = replay_pictures(record, tmp_path / "png", gif=tmp_path / "game.gif")
    turns = [p for p in paths if "flood" not in p.name]
    assert len(turns) == len(record.turns)
    sinkings = sum(e.kind == "sink" for e in replay(record).events)
    assert len(paths) - len(turns) == min(sinkings, len(paths) - len(turns))
    assert (tmp_path / "game.gif").stat().st_size > 10_000
    _picture_ok(paths[-1])


def test_replay_png_from_the_command_line(tmp_path):
    worked = str(ROOT / "examples" / "worked-example.json")
    r = subprocess.run([sys.executable, "-m", "experiments.cli", "replay", worked, "--png", str(tmp_path)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in tmp_path.glob("*.png")) == [f"turn-{t:02d}.png" for t in range(1, 6)]


def test_find_games_by_condition_and_export(tmp_path):
    df = simulate(Rules(players=3), "greedy", 1500, seed=9, progress=False)
    rows = find_games(df, "cause == 'treasure' and treasures_raised >= 2", limit=3)
    assert 0 < len(rows) <= 3
    paths = export_found(rows, tmp_path)
    for (_, row), path in zip(rows.iterrows(), paths, strict=True):
        game = replay(load_record(path))
        assert game.outcome == "treasure" and len(game.raised) == row["treasures_raised"]
        assert game.turn == row["turns"]
    with pytest.raises(FindError, match="--where"):
        find_games(df, "cause ==")
    with pytest.raises(FindError, match="lacks the column"):
        find_games(pd.DataFrame({"won": [True]}))


def test_committed_notebook_has_no_outputs():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code
    for cell in code:
        assert cell.outputs == [] and cell.execution_count is None


def test_notebook_runs_top_to_bottom(tmp_path):
    from nbclient import NotebookClient

    nb = nbformat.read(NOTEBOOK, as_version=4)
    env = {"NOTEBOOK_SMALL": "1", "NOTEBOOK_GAMES": "500"}
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        NotebookClient(nb, timeout=120, kernel_name="python3",
                       resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)
    # The notebook's numbers are the games' numbers: 4 player counts × 3 settings × 2 policies ×
    # 500 games, and the share of greedy's losses with three treasures raised, recomputed here.
    assert "12,000 games from a small study played here (500 games a setting)" in text
    lost = []
    for players in (1, 2, 3, 4):
        for cpt, length in ((2, 9), (2, 8), (3, 9)):
            df = simulate(Rules(players=players, cards_per_treasure=cpt, gauge=gauge_of_length(length)), "greedy",
                          500, seed=31, progress=False)
            lost.append(df[~df.won])
    lost = pd.concat(lost)
    assert f"{(lost.treasures_raised == 3).mean():.1%} of greedy's losses came with three treasures raised" in text
    images = sum("image/png" in o.get("data", {}) for c in nb.cells if c.cell_type == "code" for o in c.outputs)
    assert images >= 5
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
