"""The lab's commands on Forbidden Island (one interface for both games): a sweep file
with `game = "forbidden-island"`, `find` over its tables, records and pictures, the cluster task."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from experiments.cluster import play_chunk_task
from experiments.find import export_found, find_games, needed_columns, table_game
from experiments.sweep import SweepError, load_config, parse_config, run_sweep
from policies.game import game as game_named
from policies.game import game_of_table
from sim.forbidden_island.records import load_record, replay
from sim.forbidden_island.rules import Rules

FORBIDDEN_ISLAND = game_named("forbidden-island")
ISLAND_ESCAPE = game_named("island-escape")

FI_SWEEP = {"name": "fi", "game": "forbidden-island", "games": 300, "seed": 5,
            "grid": {"players": [2, 4], "difficulty": ["novice", "legendary"], "policy": ["expert"]}}


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "experiments.cli", *args], capture_output=True, text=True)


@pytest.fixture(scope="module")
def fi_sweep(tmp_path_factory):
    out = tmp_path_factory.mktemp("fi-sweep")
    return run_sweep(parse_config(FI_SWEEP, "fi.toml"), out, progress=False)


def test_forbidden_island_sweep_plays_its_own_grid(fi_sweep):
    s = fi_sweep.summary
    assert len(s) == 4 and list(s["cell"]) == [f"forbidden-island_p{p}_{level}_expert" for p in (2, 4)
                                                for level in ("novice", "legendary")]
    assert set(s["start_mark"]) == {1, 4}  # F4: the level is the starting mark
    causes = s[[f"loss_{c}" for c in FORBIDDEN_ISLAND.causes[1:]]].sum(axis=1) + s["win_rate"]
    np.testing.assert_allclose(causes, 1.0)
    assert ((s["ci_low"] <= s["win_rate"]) & (s["win_rate"] <= s["ci_high"])).all()
    # each cell is exactly what `simulate --game forbidden-island` plays for that setting
    raw = FORBIDDEN_ISLAND.run_games(Rules(players=4, difficulty="legendary"), "expert", 300, seed=5, threads=1)
    cell = fi_sweep.games[fi_sweep.games["cell"] == "forbidden-island_p4_legendary_expert"]
    assert (cell["cause"].cat.codes.to_numpy() == raw[:, 0]).all() and (cell["turns"].to_numpy() == raw[:, 1]).all()
    # harder levels never win more here (the same 300 deals at every level)
    for players in (2, 4):
        by = s[s["players"] == players].set_index("difficulty")["win_rate"]
        assert by["legendary"] < by["novice"]
    for name in ("win_rate_by_level", "loss_causes", "loss_hazard"):
        png = fi_sweep.out / "figures" / f"{name}.png"
        assert png.exists() and png.stat().st_size > 10_000
    manifest = json.loads((fi_sweep.out / "sweep.json").read_text())
    assert manifest["game"] == "forbidden-island"


def test_forbidden_island_sweep_resumes_identically(tmp_path, fi_sweep):
    cfg = parse_config(FI_SWEEP, "fi.toml")
    first = run_sweep(cfg, tmp_path, progress=False, plots=False, stop_after=1)
    assert len(first.ran) == 1
    again = run_sweep(cfg, tmp_path, resume=True, progress=False, plots=False)
    assert len(again.ran) == 3
    pd.testing.assert_frame_equal(again.summary, fi_sweep.summary)


@pytest.mark.parametrize("grid, where", [
    ('cards_per_treasure = [2]', "grid.cards_per_treasure: unknown key (the Forbidden Island grid takes"),
    ('players = [1]', "grid.players"),
    ('difficulty = ["easy"]', "grid.difficulty"),
    ('policy = ["greedy"]', "grid.policy"),
])
def test_bad_forbidden_island_sweep_files_are_refused_in_one_line(tmp_path, grid, where):
    path = tmp_path / "bad.toml"
    path.write_text(f'game = "forbidden-island"\n[grid]\n{grid}\n')
    with pytest.raises(SweepError) as err:
        load_config(path)
    assert str(err.value).startswith(str(path)) and where in str(err.value) and "\n" not in str(err.value)
    path.write_text('game = "monopoly"\n')
    with pytest.raises(SweepError, match="game: unknown game 'monopoly'"):
        load_config(path)


def test_sweep_command_checks_the_game_before_playing(tmp_path):
    path = tmp_path / "fi.toml"
    path.write_text('game = "forbidden-island"\ngames = 100\n[grid]\nplayers = [3]\n')
    r = run("sweep", str(path), "--game", "island-escape", "--out", str(tmp_path / "out"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert "sweeps forbidden-island" in r.stderr and not (tmp_path / "out").exists()
    r = run("sweep", str(path), "--game", "forbidden-island", "--out", str(tmp_path / "out"), "--no-plots")
    assert r.returncode == 0, r.stderr
    cells = {p.name for p in (tmp_path / "out" / "cells").iterdir()}
    assert "novice" in r.stdout and cells == {"forbidden-island_p3_novice_expert.parquet"}


def test_find_exports_forbidden_island_games_that_replay_to_the_table(tmp_path, fi_sweep):
    df = pd.read_parquet(fi_sweep.out / "cells")
    assert table_game(df) is FORBIDDEN_ISLAND and game_of_table(pd.DataFrame({"won": []})) is ISLAND_ESCAPE
    assert needed_columns(FORBIDDEN_ISLAND) == ("seed", "game", "players", "difficulty", "policy")
    rows = find_games(df, "cause == 'fools_landing' and players == 4", limit=2)
    assert len(rows) == 2
    paths = export_found(rows, tmp_path)
    for (_, row), path in zip(rows.iterrows(), paths, strict=True):
        assert path.name.startswith(f"forbidden-island-expert-p4-{row['difficulty']}-seed5-game")
        game = replay(load_record(path))
        assert game.outcome == "fools_landing" and game.turn == row["turns"]
        assert game.rules.players == 4 and game.rules.difficulty == row["difficulty"]
    with pytest.raises(Exception, match="already exist"):
        export_found(rows, tmp_path)  # never overwrites


def test_find_and_replay_draw_forbidden_island_games(tmp_path, fi_sweep):
    r = run("find", str(fi_sweep.out / "cells"), "--where", "won", "--limit", "1", "--records",
            str(tmp_path / "recs"), "--png", str(tmp_path / "pics"))
    assert r.returncode == 0, r.stderr
    record = next((tmp_path / "recs").glob("*.json"))
    turns = replay(load_record(record)).turn
    pictures = sorted((tmp_path / "pics" / record.stem).glob("*.png"))
    assert [p.name for p in pictures] == [f"turn-{t:02d}.png" for t in range(turns + 1)]  # the setup, each turn
    r = run("replay", str(record), "--gif", str(tmp_path / "game.gif"))
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "game.gif").stat().st_size > 10_000
    assert len(list((tmp_path / "game-frames").glob("*.png"))) == turns + 1


def test_cluster_task_plays_either_game():
    rules = Rules(players=3, difficulty="elite")
    got = play_chunk_task(rules.as_record(), "random", 8, 100, 200, 1, "forbidden-island")
    np.testing.assert_array_equal(got, FORBIDDEN_ISLAND.run_games(rules, "random", 200, 8, first_game=100, threads=1))


def test_calibrate_places_bands_on_forbidden_island_levels():
    from experiments.calibrate import printed_level_fits

    # Bands wide enough for 400 games' intervals (about +-5 points) around expert's 2-player rates.
    fits = printed_level_fits(FORBIDDEN_ISLAND, [2], {"easy": (0.35, 0.65), "hard": (0.0, 0.10)}, "expert", 400,
                              seed=3, threads=1)
    assert [f.level for f in fits] == ["easy", "hard"]
    rates = fits[0].rates
    raw = FORBIDDEN_ISLAND.run_games(Rules(players=2, difficulty="normal"), "expert", 400, 3, threads=1)
    assert rates["normal"].wins == int((raw[:, 0] == 0).sum())
    for f in fits:  # a confirmed level's interval lies inside its band; otherwise none does
        inside = [d for d, m in rates.items() if f.band[0] <= m.ci[0] and m.ci[1] <= f.band[1]]
        assert (f.difficulty in inside) if inside else f.difficulty is None
    assert fits[0].difficulty == "novice"  # 2 players, Novice: about 49% for expert
    assert fits[1].difficulty == "legendary"  # about 5%; Elite's interval reaches past 10%
    assert json.loads(json.dumps(fits[1].to_json()))["rates"]["legendary"]["games"] == 400


@pytest.mark.parametrize("args, where", [
    (["--knobs", "gauge"], "--knobs searches rules; Forbidden Island's rules are printed"),
    (["--same-rule"], "--same-rule searches rules"),
    (["--players", "1,2"], "--players: '1,2': Forbidden Island is played by 2-4"),
    (["--policy", "greedy"], "greedy"),
])
def test_calibrate_refuses_island_escape_options_for_forbidden_island(args, where):
    r = run("calibrate", "--game", "forbidden-island", *args)
    assert r.returncode == 2 and where in r.stderr and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
