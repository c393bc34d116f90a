"""Calibration on tiny budgets, the report on a tiny study, and the CLI's answers."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from experiments.calibrate import ALL_GAUGE_CARDS, Setting, calibrate, candidate_settings
from experiments.cli import cli
from sim.rules import FULL_GAUGE

FIELDS = {"players", "level", "band", "policy", "rules", "win_rate", "ci95", "games"}


def test_candidates_are_what_one_deck_lays_out():
    seen = set()
    for changes in range(4):
        for s in candidate_settings(changes):
            assert s.changes == changes
            assert 1 <= s.cards_per_treasure <= 3
            order = [ALL_GAUGE_CARDS.index(c) for c in s.gauge]
            assert order == sorted(order) and len(set(order)) == len(order)  # rank order, each once
            seen.add(s)
    assert Setting(2, FULL_GAUGE, False) in seen
    assert len(candidate_settings(1)) == 13  # cpt 1 or 3, Divers, 9 cards off, 5D added


def _in_space(rules: dict) -> bool:
    gauge = rules["gauge"]
    return (1 <= rules["cards_per_treasure"] <= 3 and rules["swim_cost"] in (1, 2)
            and all(c in ALL_GAUGE_CARDS for c in gauge)
            and [ALL_GAUGE_CARDS.index(c) for c in gauge] == sorted(ALL_GAUGE_CARDS.index(c) for c in gauge))


def test_tiny_calibration_prefers_the_fewest_changes():
    # A band the rulebook's rules already meet for 2 players (greedy wins ~92%) must return them.
    cal = calibrate(players=[2], bands={"kind": (0.80, 0.99)}, policy="greedy", seed=1, screen_games=200,
                    confirm_games=600, max_changes=1, other_games=100, validate_games=300, others=["random"])
    (rec,) = cal.recommendations
    assert rec.setting == Setting(2, FULL_GAUGE, False) and rec.setting.changes == 0
    d = rec.to_json()
    assert FIELDS <= set(d) and _in_space(d["rules"]) and d["rules"]["players"] == 2
    assert d["band"] == [0.80, 0.99] and 0.80 <= d["ci95"][0] and d["ci95"][1] <= 0.99
    assert d["other_policies"]["random"]["win_rate"] == 0.0
    assert "validation" in d and d["validation"]["seed"] == 1001


def test_tiny_calibration_finds_harder_rules_and_reports_what_it_cannot():
    cal = calibrate(players=[1, 3], bands={"hard": (0.10, 0.60), "impossible": (0.999, 1.0)}, policy="greedy",
                    seed=2, screen_games=150, confirm_games=400, max_changes=1, other_games=50,
                    validate_games=0, others=[])
    recs = {(r.players, r.level): r for r in cal.recommendations}
    assert (3, "hard") in recs and recs[(3, "hard")].setting.changes <= 1
    assert 0.10 <= recs[(3, "hard")].result.ci[0] and recs[(3, "hard")].result.ci[1] <= 0.60
    assert (1, "impossible") in cal.missing and (3, "impossible") in cal.missing
    # solo is two pawns (R5): players 1 and 2 share games, the recommendation says players 1
    for r in cal.recommendations:
        assert r.to_json()["rules"]["players"] == r.players


def test_calibrate_cli_json():
    result = CliRunner().invoke(cli, ["calibrate", "--policy", "greedy", "--players", "2", "--bands",
                                      "kind=0.80-0.99", "--screen-games", "100", "--confirm-games", "300",
                                      "--max-changes", "0", "--json"])
    assert result.exit_code == 0, result.output
    recs = json.loads(result.stdout.strip().splitlines()[-1])
    assert len(recs) == 1 and FIELDS <= set(recs[0]) and recs[0]["level"] == "kind"


@pytest.mark.parametrize("args, message", [
    (["--players", "5"], "player counts are 1-4"),
    (["--players", "two"], "not a comma-separated list"),
    (["--policy", "oracle"], "reads hidden information"),
    (["--policy", "clever"], "unknown policy"),
    (["--bands", "easy=high"], "is not LEVEL=LOW-HIGH"),
])
def test_calibrate_cli_bad_input(args, message):
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "experiments.cli", "calibrate", *args], capture_output=True,
                            text=True)
    assert result.returncode == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_report_on_a_tiny_study(tmp_path):
    from experiments.report import build_report

    sweep = tmp_path / "sweep.toml"
    sweep.write_text('games = 100\nseed = 1\n[grid]\nplayers = [2, 3]\ngauge_length = [8, 9]\n'
                     'cards_per_treasure = [1, 2]\npolicy = "greedy"\n')
    study = tmp_path / "study.toml"
    study.write_text(f'sweep = "{sweep}"\npolicy = "greedy"\nseed = 5\n'
                     '[calibrate]\nplayers = [2]\nscreen_games = 100\nconfirm_games = 300\nmax_changes = 1\n'
                     'other_games = 100\nvalidate_games = 300\nknobs = "gauge"\n'
                     '[rulebook]\ngames = 300\npolicies = ["greedy"]\n')
    recs = build_report(str(study), tmp_path / "reports", out_dir=tmp_path / "out", echo=lambda s: None)
    md = (tmp_path / "reports" / "difficulty.md").read_text()
    assert md.startswith("# Island Escape") and "## The answer" in md and "## The rulebook's numbers" in md
    assert json.loads((tmp_path / "reports" / "difficulty.json").read_text()) == recs
    for r in recs:
        assert FIELDS <= set(r)
    for png in (tmp_path / "reports" / "figures").glob("*.png"):
        assert png.stat().st_size > 5_000
    assert (tmp_path / "reports" / "figures" / "sweep_win_rate_by_gauge.png").exists()


def test_committed_study_loads_and_bad_studies_are_refused(tmp_path):
    from experiments.report import load_study
    from experiments.sweep import SweepError

    study = load_study("experiments/studies/difficulty.toml")
    assert study.policy in ("expert", "greedy") and study.seed >= 0
    bad = tmp_path / "bad.toml"
    bad.write_text('policy = "oracle"\n')
    with pytest.raises(SweepError, match="policy"):
        load_study(bad)
    bad.write_text("[calibrate]\nscreen = 5\n")
    with pytest.raises(SweepError, match="calibrate.screen: unknown key"):
        load_study(bad)
