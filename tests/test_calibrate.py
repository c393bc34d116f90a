"""Calibration on tiny budgets and the CLI's answers (the report: tests/test_report_for_people.py)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from experiments.calibrate import DEFAULT_BANDS, calibrate
from experiments.cli import cli
from policies.island_escape.levels import (
    ALL_GAUGE_CARDS,
    Setting,
    candidate_settings,
    divers_allowed,
    parse_knobs,
)
from sim.island_escape.rules import FULL_GAUGE

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
                                      "easy=0.80-0.99", "--screen-games", "100", "--confirm-games", "300",
                                      "--max-changes", "0", "--json"])
    assert result.exit_code == 0, result.output
    recs = json.loads(result.stdout.strip().splitlines()[-1])
    assert len(recs) == 1 and FIELDS <= set(recs[0]) and recs[0]["level"] == "easy"


def test_calibrate_for_a_table_of_one_skill_agrees_with_a_sweep_at_that_skill(tmp_path):
    """`calibrate --skill S` judges with the skilled player at S: its recommendation's rate is the
    win rate a sweep of the same rules, skill, games and seed measures (the same games), and
    `--policy skilled@S` is the same player."""
    from experiments.sweep import load_config, run_sweep

    args = ["calibrate", "--players", "2", "--bands", "easy=0.30-0.99", "--screen-games", "100",
            "--confirm-games", "400", "--max-changes", "0", "--seed", "5", "--json"]
    result = CliRunner().invoke(cli, [*args, "--skill", "0.7"])
    assert result.exit_code == 0, result.output
    (rec,) = json.loads(result.stdout.strip().splitlines()[-1])
    assert rec["policy"] == "skilled@0.7"
    spec = CliRunner().invoke(cli, [*args, "--policy", "skilled@0.7"])
    assert json.loads(spec.stdout.strip().splitlines()[-1]) == [rec]
    rules = rec["rules"]
    (tmp_path / "s.toml").write_text(
        f'name = "s"\ngames = 400\nseed = 5\n[grid]\nplayers = [2]\npolicy = ["skilled"]\nskill = [0.7]\n'
        f'cards_per_treasure = [{rules["cards_per_treasure"]}]\nswim_cost = [{rules["swim_cost"]}]\n'
        f'gauge = "{" ".join(rules["gauge"])}"\n')
    swept = run_sweep(load_config(tmp_path / "s.toml"), tmp_path / "out", plots=False, threads=1).summary
    assert len(swept) == 1 and swept["win_rate"].iloc[0] == rec["win_rate"]
    lower = CliRunner().invoke(cli, [*args, "--skill", "0.2"])
    assert json.loads(lower.stdout.strip().splitlines()[-1]) != [rec]  # another table, other levels


@pytest.mark.parametrize("args, message", [
    (["--players", "5"], "Island Escape is played by 1-4"),
    (["--skill", "2"], "--skill"),
    (["--anchor", "forbidden-island", "--policy", "greedy"], "--policy does not go with --anchor"),
    (["--anchor", "forbidden-island", "--game", "forbidden-island"], "levels are printed"),
    (["--anchor", "monopoly"], "--anchor"),
    (["--policy", "expert", "--skill", "0.5"], "takes no skill"),
    (["--players", "two"], "not a comma-separated list"),
    (["--policy", "oracle"], "reads hidden information"),
    (["--policy", "clever"], "policy 'clever'"),
    (["--bands", "easy=high"], "is not LEVEL=LOW-HIGH"),
    (["--bands", "eazy=0.7-0.8"], "'eazy' is no level (the levels are easy, normal, hard)"),
    (["--bands", "easy=70-80"], "win rates are fractions of games, e.g. easy=0.70-0.80"),
    (["--bands", "easy=0.7-0.8,easy=0.6-0.7"], "easy is given twice"),
    (["--knobs", "gauge,water"], "--knobs: 'water' is not a knob"),
])
def test_calibrate_cli_bad_input(args, message):
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "experiments.cli", "calibrate", *args], capture_output=True,
                            text=True)
    assert result.returncode == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_headline_says_where_each_count_falls():
    from experiments.calibrate import DEFAULT_BANDS
    from experiments.report import headline

    rows = {1: {"win_rate": 0.93, "ci95": [0.92, 0.94]}, 2: {"win_rate": 0.93, "ci95": [0.92, 0.94]},
            3: {"win_rate": 0.74, "ci95": [0.73, 0.75]}, 4: {"win_rate": 0.41, "ci95": [0.40, 0.42]}}
    lines = headline(rows, "expert", DEFAULT_BANDS)
    assert len(lines) == 3
    assert "1 or 2 players" in lines[0] and "far too easy" in lines[0]
    assert "an Easy game" in lines[1] and "between Hard and Normal" in lines[2]


def test_knobs_restrict_what_changes():
    for k in range(4):
        for s in candidate_settings(k, ("gauge",)):
            assert s.cards_per_treasure == 2 and not s.divers
        for s in candidate_settings(k, ("cards", "divers")):
            assert s.gauge == FULL_GAUGE
    assert parse_knobs("gauge, cards") == ("gauge", "cards")
    with pytest.raises(ValueError, match="'water' is not a knob"):
        parse_knobs("water")


def test_divers_is_never_used_against_its_label(monkeypatch):
    import experiments.calibrate as calibrate_module
    import policies.island_escape.levels as levels

    normal = DEFAULT_BANDS["normal"]
    assert divers_allowed(DEFAULT_BANDS["easy"], normal) and not divers_allowed(normal, normal)
    assert not divers_allowed(DEFAULT_BANDS["hard"], normal)
    # 3 players, 3 cards a treasure: greedy wins ~13%; Divers lifts that into a Hard-ish band,
    # which the label forbids - unless the rule is switched off, to show the test can see it.
    kwargs = dict(players=[3], bands={"hard": (0.20, 0.60)}, policy="greedy", seed=3, screen_games=200,
                  confirm_games=400, max_changes=2, other_games=50, validate_games=0, others=[],
                  knobs=("cards", "divers"))
    cal = calibrate(**kwargs)
    assert all(not r.setting.divers for r in cal.recommendations)
    monkeypatch.setattr(levels, "divers_allowed", lambda band, normal: True)
    loose = calibrate_module.calibrate(**kwargs)
    assert any(r.setting.divers for r in loose.recommendations)


def test_small_budget_reports_the_nearest_candidates():
    cal = calibrate(players=[2], bands={"normal": (0.45, 0.55)}, policy="greedy", seed=4, screen_games=60,
                    confirm_games=100, max_changes=1, other_games=50, validate_games=0, others=[])
    assert (2, "normal") in cal.missing
    near = cal.near[(2, "normal")]
    assert 1 <= len(near) <= 3
    assert [n.distance for n in near] == sorted(n.distance for n in near)
    for n in near:
        lo, hi = n.result.ci
        assert lo <= n.result.rate <= hi and n.setting.changes <= 1
        need = n.result.games_to_fit(n.band)
        if 0.45 < n.result.rate < 0.55:
            assert need is not None and need >= n.result.games and "could confirm" in n.verdict()
        else:
            assert need is None and "would not" in n.verdict() or "edge" in n.verdict()
    result = CliRunner().invoke(cli, ["calibrate", "--policy", "greedy", "--players", "2", "--bands",
                                      "normal=0.45-0.55", "--screen-games", "60", "--confirm-games", "100",
                                      "--max-changes", "1"])
    assert result.exit_code == 0, result.output
    assert "judged by greedy" in result.stdout and "nearest:" in result.stdout
    assert "lands in the band" not in result.stdout


def test_ladder_one_rule_per_level():
    from experiments.calibrate import ladder
    from policies.island_escape.levels import LADDER_GAUGE_CHANGES

    bands = {"easy": (0.70, 0.80), "hard": (0.20, 0.30)}
    lad = ladder(players=[1, 2, 4], bands=bands, policy="greedy", seed=6, screen_games=100, confirm_games=300,
                 knobs=("gauge", "divers"))
    assert [lv.level for lv in lad.levels] == ["easy", "hard"]
    for lv in lad.levels:
        assert set(lv.rungs) == {1, 2, 4}
        assert lv.rungs[1].result is lv.rungs[2].result  # R5: the same games
        if lv.level == "hard":
            assert not lv.rule.divers
        for r in lv.rungs.values():
            s = lv.rule.setting(r.gauge)
            assert s.cards_per_treasure == 2 and s.divers == lv.rule.divers  # one rule for every count
            assert len(set(r.gauge) ^ set(FULL_GAUGE)) <= LADDER_GAUGE_CHANGES + 1
            lo, hi = r.result.ci
            assert r.inside == (bands[lv.level][0] <= lo and hi <= bands[lv.level][1])
            assert (r.status() == "in band") == r.inside
    rows = lad.to_json()
    assert len(rows) == 6 and all(row["policy"] == "greedy" for row in rows)
    same = CliRunner().invoke(cli, ["calibrate", "--policy", "greedy", "--players", "2,4", "--bands",
                                    "hard=0.20-0.30", "--screen-games", "100", "--confirm-games", "300",
                                    "--same-rule", "--knobs", "gauge", "--json"])
    assert same.exit_code == 0, same.output
    rows = json.loads(same.stdout.strip().splitlines()[-1])
    assert {r["players"] for r in rows} == {2, 4} and all(r["rules"]["cards_per_treasure"] == 2 for r in rows)


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
