"""Board pictures, replay --png/--gif, finding games, and the loss-cause notebook."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import matplotlib.image as mpimg
import nbformat
import pandas as pd
import pytest

from experiments.find import FindError, export_found, find_games
from policies.runner import export_records, simulate
from sim.island_escape.boards import draw_board, replay_pictures, save_board
from sim.island_escape.engine import DRY, FLOODED, SEA, new_game
from sim.island_escape.records import load_record, replay
from sim.island_escape.rules import Rules, gauge_of_length

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


def _execute_notebook(env: dict) -> nbformat.NotebookNode:
    from nbclient import NotebookClient

    nb = nbformat.read(NOTEBOOK, as_version=4)
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        NotebookClient(nb, timeout=300, kernel_name="python3",
                       resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors, errors[0].get("evalue")
    return nb


def _text(nb) -> str:
    return "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)


def _images(nb) -> int:
    return sum("image/png" in o.get("data", {}) for c in nb.cells if c.cell_type == "code" for o in c.outputs)


def test_notebook_runs_on_its_own_small_study(tmp_path):
    nb = _execute_notebook({"NOTEBOOK_SWEEP": str(tmp_path / "no-sweep"), "NOTEBOOK_REPORT": str(tmp_path / "none"),
                            "NOTEBOOK_GAMES": "300"})
    text = _text(nb)
    assert "from the rulebook (no report found)" in text
    # The notebook's numbers are the games' numbers: 3 player counts (R5: 1-2 once) × 3 settings ×
    # 2 policies × 300 games, and the share of the judge's losses with all four treasures raised.
    from policies.island_escape.registry import REGISTRY

    judge = REGISTRY.default_policy
    assert "5,400 games from a small study played here (300 games a setting)" in text
    lost = []
    for players in (2, 3, 4):
        for cpt, length in ((2, 9), (2, 8), (3, 9)):
            df = simulate(Rules(players=players, cards_per_treasure=cpt, gauge=gauge_of_length(length)), judge,
                          300, seed=31, progress=False)
            lost.append(df[~df.won])
    lost = pd.concat(lost)
    assert f"{(lost.treasures_raised == 4).mean():.1%} of {judge}'s losses came with all four treasures raised" in text
    assert _images(nb) >= 5


def test_notebook_runs_on_the_reports_tables(tmp_path):
    # What `make report` leaves behind: a sweep played by the judge alone, and the recommendations.
    from experiments.sweep import parse_config, run_sweep
    from policies.island_escape.levels import Setting
    from policies.island_escape.registry import REGISTRY

    judge = REGISTRY.default_policy
    cfg = parse_config({"games": 150, "seed": 2, "grid": {"players": [1, 2, 3], "gauge_length": [8, 9],
                                                          "policy": judge}}, "report-like")
    run_sweep(cfg, tmp_path / "sweep", progress=False, plots=False)
    recs = [{"players": p, "level": "hard", "policy": judge, "change": "take A♣ off the gauge",
             "rules": Setting(2, ("AD", "2C", "2D", "3C", "3D", "4C", "4D", "5C"), False).rules(p).as_record()}
            for p in (1, 2, 3)]
    report = tmp_path / "difficulty.json"
    report.write_text(json.dumps(recs))
    nb = _execute_notebook({"NOTEBOOK_SWEEP": str(tmp_path / "sweep"), "NOTEBOOK_REPORT": str(report),
                            "NOTEBOOK_GAMES": "300"})
    text = _text(nb)
    assert f"games from the report's sweep ({tmp_path / 'sweep'}); policies: {judge}; studying {judge}" in text
    assert f"2 settings from {report}" in text  # players 1 and 2 are one setting (R5)
    assert f"only {judge} plays in these tables" in text
    assert _images(nb) >= 5


def test_find_over_a_sweep_folder_writes_one_file_per_game_and_never_overwrites(tmp_path):
    from experiments.sweep import parse_config, run_sweep

    cfg = parse_config({"games": 40, "seed": 3, "grid": {"players": [2, 3], "gauge_length": [8, 9],
                                                         "policy": "greedy"}}, "tiny")
    run_sweep(cfg, tmp_path / "sweep", progress=False, plots=False)
    cells = tmp_path / "sweep" / "cells"
    assert len(list(cells.glob("*.parquet"))) == 4  # four cells, each playing games 0-39
    out = tmp_path / "x"

    def find(*extra):
        return subprocess.run([sys.executable, "-m", "experiments.cli", "find", str(cells), "--where", "game < 2",
                               "--limit", "8", "--records", str(out), *extra], capture_output=True, text=True)

    r = find()
    assert r.returncode == 0, r.stderr
    printed = r.stdout.strip().splitlines()
    assert len(printed) == 8 and len(set(printed)) == 8
    files = sorted(out.glob("*.json"))
    assert sorted(map(str, files)) == sorted(printed)  # eight games, eight files
    rules_seen = set()
    for path in files:
        record = load_record(path)
        rules_seen.add((record.rules.players, len(record.rules.gauge)))
        assert f"-p{record.rules.players}-" in path.name
    assert len(rules_seen) == 4
    before = {p: p.read_bytes() for p in files}
    again = find()
    assert again.returncode == 2 and "already exist" in again.stderr
    assert len(again.stderr.strip().splitlines()) == 1 and again.stdout == ""
    assert {p: p.read_bytes() for p in sorted(out.glob("*.json"))} == before  # nothing touched
