"""Sweeps end to end, resume, paired statistics, adaptive cells and bad sweep files."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from experiments.plots import slices, swept
from experiments.runner import half_width
from experiments.sweep import (
    Adaptive,
    Cell,
    SweepError,
    load_config,
    paired_difference,
    parse_config,
    play_cell,
    run_sweep,
    summary_display,
)
from sim.island_escape.rules import Rules, gauge_of_length

TINY = {"name": "t", "games": 150, "seed": 3,
        "grid": {"players": [2, 3], "cards_per_treasure": [1, 2], "gauge_length": [8, 9],
                 "policy": ["random", "greedy"]}}


def test_tiny_sweep_end_to_end(tmp_path):
    cfg = parse_config(TINY, "tiny.toml")
    assert len(cfg.cells) == 16
    result = run_sweep(cfg, tmp_path, progress=False)
    assert len(result.ran) == 16 and len(result.summary) == 16
    assert len(result.games) == 16 * 150
    assert (tmp_path / "summary.csv").exists() and (tmp_path / "summary.parquet").exists()
    for name in ("win_rate_by_gauge", "heatmap_win_rate", "loss_causes", "loss_hazard"):
        png = tmp_path / "figures" / f"{name}.png"
        assert png.exists() and png.stat().st_size > 10_000
    s = result.summary
    assert ((s["ci_low"] <= s["win_rate"]) & (s["win_rate"] <= s["ci_high"])).all()
    causes = s[[c for c in s.columns if c.startswith("loss_")]].sum(axis=1) + s["win_rate"]
    np.testing.assert_allclose(causes, 1.0)
    # random never wins; greedy does on the easy cells
    assert (s.loc[s.policy == "random", "win_rate"] == 0).all()
    assert s.loc[s.policy == "greedy", "win_rate"].max() > 0.5
    # the per-game table reads back as one partitioned dataset
    assert len(pd.read_parquet(tmp_path / "cells")) == 16 * 150


def test_common_random_numbers_between_cells(tmp_path):
    # Two cells of one sweep play the same islands: the idle policy's flood-only games are
    # identical whatever the cards per treasure (the cards check aside, they never look).
    cfg = parse_config({"games": 200, "seed": 4, "grid": {"cards_per_treasure": [1, 2], "policy": "idle"}})
    result = run_sweep(cfg, tmp_path, progress=False, plots=False)
    a, b = (g.reset_index(drop=True) for _, g in result.games.groupby("cell", observed=True))
    same = (a["cause"] != "cards") & (b["cause"] != "cards")
    assert same.mean() > 0.8
    assert (a.loc[same, "turns"] == b.loc[same, "turns"]).all()


def test_resume_after_interruption_gives_identical_tables(tmp_path):
    cfg = parse_config(TINY, "tiny.toml")
    straight = run_sweep(cfg, tmp_path / "straight", progress=False, plots=False)
    part = run_sweep(cfg, tmp_path / "resumed", progress=False, plots=False, stop_after=5)
    assert len(part.ran) == 5
    assert not list((tmp_path / "resumed" / "cells").glob("*.tmp"))
    rest = run_sweep(cfg, tmp_path / "resumed", resume=True, progress=False, plots=False)
    assert len(rest.ran) == 11
    pd.testing.assert_frame_equal(straight.summary, rest.summary)
    pd.testing.assert_frame_equal(straight.games, rest.games)


def test_resume_refuses_other_settings(tmp_path):
    run_sweep(parse_config(TINY, "tiny.toml"), tmp_path, progress=False, plots=False, stop_after=1)
    other = parse_config({**TINY, "games": 99}, "tiny.toml")
    with pytest.raises(SweepError, match="other settings"):
        run_sweep(other, tmp_path, resume=True, progress=False, plots=False)


def test_paired_interval_is_narrower_on_correlated_settings():
    # Gauge 9 vs gauge 8, same games: the same islands make the outcomes correlated.
    n, seed = 3000, 11
    a = play_cell(Cell(Rules(gauge=gauge_of_length(9)), "greedy"), n, seed)
    b = play_cell(Cell(Rules(gauge=gauge_of_length(8)), "greedy"), n, seed)
    d = paired_difference(a["won"].to_numpy(), b["won"].to_numpy())
    paired = d["ci95"][1] - d["ci95"][0]
    unpaired = d["unpaired_ci95"][1] - d["unpaired_ci95"][0]
    assert d["ci95"][0] < d["difference"] < d["ci95"][1]
    assert paired < 0.8 * unpaired
    assert d["games_ratio"] > 1.5  # independent runs would need that many times the games
    assert d["difference"] > 0  # the longer gauge is kinder


def test_adaptive_cell_stops_at_the_requested_half_width():
    cell = Cell(Rules(players=3), "greedy")
    df = play_cell(cell, 500, 5, Adaptive(half_width=0.02, max_games=20_000, batch=500))
    n, wins = len(df), int(df["won"].sum())
    assert half_width(wins, n) <= 0.02
    assert half_width(int(df["won"][: n - 500].sum()), n - 500) > 0.02  # one batch earlier: not yet
    assert list(df["game"]) == list(range(n))  # the next games of the same seed, in order
    capped = play_cell(cell, 500, 5, Adaptive(half_width=0.001, max_games=1500, batch=400))
    assert len(capped) == 1500


@pytest.mark.parametrize("text, where", [
    ("games = 10\nbogus = 1\n", "bogus: unknown key"),
    ("[grid]\nplayers = [2, 5]\n", "grid.players"),
    ("[grid]\ncards_per_treasure = 0\n", "grid.cards_per_treasure"),
    ("[grid]\ncolour = [1]\n", "grid.colour: unknown key"),
    ("[grid]\nplayers = []\n", "grid.players: is empty"),
    ("[grid]\npolicy = ['clever']\n", "grid.policy: unknown Island Escape policy"),
    ("[grid]\nvariant = ['hard']\n", "grid.variant: unknown variant"),
    ("[grid]\ngauge_length = [11]\n", "grid.gauge_length"),
    ("[grid]\ngauge = [['AC', '9H']]\n", "grid.gauge"),
    ("games = -3\n", "games: must be"),
    ("games = \n", "not valid TOML"),
])
def test_bad_sweep_files_are_refused_in_one_line(tmp_path, text, where):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(SweepError) as err:
        load_config(path)
    message = str(err.value)
    assert message.startswith(str(path)) and where in message and "\n" not in message


def test_committed_configs_load():
    from pathlib import Path

    for path in sorted(Path("experiments/configs").glob("*.toml")):
        assert load_config(path).cells


def test_sweep_file_takes_the_gauge_as_simulate_does(tmp_path):
    spaced = tmp_path / "spaced.toml"
    spaced.write_text('games = 10\n[grid]\ngauge = "AD 2C 2D 3C 3D 4C 4D 5C"\n')
    listed = tmp_path / "listed.toml"
    listed.write_text('games = 10\n[grid]\ngauge = ["AD", "2C", "2D", "3C", "3D", "4C", "4D", "5C"]\n')
    several = tmp_path / "several.toml"
    several.write_text('games = 10\n[grid]\ngauge = ["AD 2C 2D 3C 3D 4C 4D 5C", ["2c", "2D"], "ac,ad"]\n')
    one = [c.rules.gauge for c in load_config(spaced).cells]
    assert one == [c.rules.gauge for c in load_config(listed).cells] == [gauge_of_length(8)]
    assert [c.rules.gauge for c in load_config(several).cells] == [gauge_of_length(8), ("2C", "2D"), ("AC", "AD")]


def test_every_error_of_a_sweep_file_at_once(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('games = 0\nspeed = 3\n[grid]\nplayers = [7]\npolicy = ["nobody"]\nvariant = "hard"\n')
    with pytest.raises(SweepError) as info:
        load_config(bad)
    lines = str(info.value).splitlines()
    keys = sorted(line.split(": ")[1] for line in lines)
    assert keys == ["games", "grid.players", "grid.policy", "grid.variant", "speed"], lines
    assert all(line.startswith(f"{bad}: ") for line in lines)
    good = tmp_path / "good.toml"
    good.write_text('games = 5\n[grid]\nplayers = [3]\n')
    assert load_config(good).games == 5  # a clean file is read as it is


def test_a_swim_by_actions_sweep_shows_every_swept_column_and_slice(tmp_path):
    cfg = parse_config({"name": "sa", "games": 60, "seed": 2,
                        "grid": {"players": [2, 3], "swim_cost": [1, 2], "actions_per_turn": [3, 4],
                                 "policy": "random"}}, "sa.toml")
    result = run_sweep(cfg, tmp_path, progress=False)
    shown = summary_display(cfg.game, result.summary)
    rules = ["players", "cards_per_treasure", "gauge", "swim_cost", "actions_per_turn"]
    assert rules == [c for c in shown.columns if c in rules]
    assert len(shown) == 8 and not shown[rules].duplicated().any()  # no two rows look alike
    assert swept(result.summary) == ["swim_cost", "actions_per_turn"]
    parts = slices(result.summary, "swim_cost")  # a panel per actions a turn, both counts in each
    assert sorted(key["actions_per_turn"] for key, _ in parts) == [3, 4]
    assert sorted(len(part) for _, part in parts) == [4, 4]
    assert (tmp_path / "figures" / "win_rate_by_swim_cost.png").stat().st_size > 10_000


def test_a_skill_sweep_draws_the_divers_half_too(tmp_path):
    cfg = parse_config({"name": "sk", "games": 40, "grid": {"players": 2, "variant": ["normal", "divers"],
                                                           "skill": [0.0, 1.0]}}, "sk.toml")
    result = run_sweep(cfg, tmp_path, progress=False)
    parts = slices(result.summary, "skill")
    assert sorted(key["variant"] for key, _ in parts) == ["divers", "normal"]
    assert sum(len(part) for _, part in parts) == len(result.summary) == 4
    assert (tmp_path / "figures" / "win_rate_by_skill.png").exists()


def test_every_policy_of_a_gauge_sweep_gets_its_panel():
    summary = pd.DataFrame([{"players": 2, "cards_per_treasure": c, "gauge_length": g, "gauge": "AC", "swim_cost": 2,
                             "actions_per_turn": 4, "variant": "normal", "policy": p, "win_rate": 0.5,
                             "ci_low": 0.4, "ci_high": 0.6} for p in ("random", "greedy") for c in (1, 2)
                            for g in (8, 9)])
    parts = slices(summary, "gauge_length")
    assert {(key["cards_per_treasure"], key["player"]) for key, _ in parts} == {
        (1, "random"), (2, "random"), (1, "greedy"), (2, "greedy")}


def test_a_gauge_out_of_rank_order_is_refused(tmp_path):
    with pytest.raises(SweepError, match=r"grid\.gauge: the cards must go in rank order"):
        parse_config({"grid": {"gauge": "5C 4D AC"}}, "bad.toml")
    with pytest.raises(SweepError, match=r"grid\.gauge: .*in rank order: AD 2C"):
        parse_config({"grid": {"gauge": [["AD", "2C"], ["2C", "AD"]]}}, "bad.toml")


def test_a_search_budget_in_a_player_is_not_read_as_a_skill():
    from experiments.plots import swept

    summary = pd.DataFrame({"policy": ["lookahead@1", "lookahead@4", "skilled@0.5", "skilled@0.9"]})
    assert swept(summary) == ["player", "skill"]
    summary = pd.DataFrame({"policy": ["lookahead@1", "lookahead@4"]})
    assert swept(summary) == ["player"]  # two players, not two skills of one
