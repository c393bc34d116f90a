"""The island-escape command as a user runs it: real processes, exit codes, one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parent.parent
WORKED = str(ROOT / "examples" / "worked-example.json")


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "experiments.cli", *args], capture_output=True, text=True)


def test_replay_narrative_of_the_worked_example():
    r = run("replay", WORKED)
    assert r.returncode == 0
    assert "Turn 3, pawn 0:" in r.stdout
    assert "salvages 7♣ at column 2, row 1 - the place is sea now" in r.stdout
    assert "raises the ♣ treasure, tucking 7♣ 10♣ under K♣" in r.stdout
    assert "A♣ comes off the gauge" in r.stdout


def test_replay_board_and_json():
    board = run("replay", WORKED, "--board")
    assert board.returncode == 0
    assert sum(line.startswith("row 5 ") for line in board.stdout.splitlines()) == 5  # a board a turn
    out = run("replay", WORKED, WORKED, "--json")
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 2
    res = json.loads(lines[0])
    assert {"outcome", "cause", "turns", "floods", "events", "final"} <= set(res)
    assert res["final"]["raised"] == ["C"] and res["final"]["pawns"] == [[3, 4], [5, 3]]


def test_a_bad_record_is_reported_and_the_others_still_replay(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"turns": [["move up", "fly away"]]}')
    r = run("replay", str(bad), WORKED, "--json")
    assert r.returncode == 2
    assert len(r.stdout.strip().splitlines()) == 1  # the good record still replayed
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and "bad.json" in err[0] and "turn 1, entry 2 'fly away'" in err[0]
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("args, message", [
    (["--policy", "nobody"], "policy 'nobody'"),
    (["--players", "0"], "--players must be a whole number from 1 to 4"),
    (["--gauge", "AC 6D"], "'6D' is not a gauge card"),
    (["--games", "-5"], "--games must be 0 or more"),
    (["--gauge-length", "12"], "gauge length must be from 1 to 10"),
    (["--cards-per-treasure", "0"], "--cards-per-treasure must be a whole number from 1 to 5, not 0"),
    (["--games", "many"], "'many' is not a valid integer"),
])
def test_simulate_bad_input(args, message):
    r = run("simulate", *args)
    assert r.returncode == 2
    assert message in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert "Traceback" not in r.stderr


def test_simulate_json_table_and_records_replay_identically(tmp_path):
    table = tmp_path / "games.parquet"
    records = tmp_path / "records"
    r = run("simulate", "--games", "3000", "--players", "3", "--policy", "greedy", "--seed", "4", "--json",
            "--out", str(table), "--records", str(records), "--record-count", "5")
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""  # no progress bar when not on a terminal
    summary = json.loads(r.stdout)
    assert {"games", "wins", "win_rate", "ci95", "loss_rates", "mean_turns", "games_per_second"} <= set(summary)
    assert summary["games"] == 3000 and summary["ci95"][0] <= summary["win_rate"] <= summary["ci95"][1]
    # one unit for every rate, and the output says which; the policy and rules are named
    assert summary["rate_unit"] == "fraction of games"
    assert summary["win_rate"] + sum(summary["loss_rates"].values()) == pytest.approx(1.0)
    assert summary["policy"] == "greedy" and summary["rules"]["players"] == 3
    df = pd.read_parquet(table)
    assert len(df) == 3000 and int(df.won.sum()) == summary["wins"]
    assert not (tmp_path / "games.parquet.partial").exists()
    files = sorted(records.glob("*.json"))
    assert len(files) == 5
    replayed = run("replay", "--json", *map(str, files))
    assert replayed.returncode == 0
    for path, line in zip(files, replayed.stdout.strip().splitlines(), strict=True):
        expected = json.loads(path.read_text())["result"]
        got = json.loads(line)
        assert {k: got[k] for k in expected} == expected
    first = df.iloc[0]
    assert json.loads(files[0].read_text())["result"]["turns"] == int(first.turns)


def test_simulate_summary_text_and_variants():
    r = run("simulate", "--games", "2000", "--variant", "short", "--policy", "random")
    assert r.returncode == 0
    assert "2 players, 1 card a treasure" in r.stdout and "gauge AD 2C" in r.stdout
    assert "win rate    0.00%" in r.stdout and "95% Wilson interval" in r.stdout


def test_policies_lists_the_registry():
    r = run("policies")
    assert r.returncode == 0
    names = [line.split()[0] for line in r.stdout.strip().splitlines()]
    assert {"random", "greedy", "idle"} <= set(names)


def test_sweep_bad_file_is_one_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[grid]\nplayers = [7]\n")
    r = run("sweep", str(bad), "--out", str(tmp_path / "out"))
    assert r.returncode == 2 and "bad.toml: grid.players" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_simulate_plays_the_reports_judge_by_default():
    from policies.island_escape.registry import REGISTRY

    default_judge = REGISTRY.default_policy
    r = run("simulate", "--games", "300", "--players", "3", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["policy"] == default_judge
    text = run("simulate", "--games", "300")
    assert f"policy {default_judge}, seed 0" in text.stdout


def test_a_slow_first_call_says_it_is_compiling():
    import time

    from experiments.cli import compile_notice

    said = []
    compile_notice("expert", lambda: time.sleep(0.5), echo=said.append, after=0.1)
    assert said == ["compiling the kernel for expert, once (about half a minute; later runs load it from the "
                    "cache)…"]
    quiet = []
    compile_notice("expert", lambda: None, echo=quiet.append, after=0.3)
    time.sleep(0.4)
    assert quiet == []


def test_sweep_table_names_the_gauge_by_its_cards_and_the_policy(tmp_path):
    cfg = tmp_path / "s.toml"
    cfg.write_text('games = 30\n[grid]\ngauge = ["AD 2C 2D 3C 3D 4C 4D 5C", "AC AD 2D 3C 3D 4D 5C"]\n'
                   'policy = "greedy"\n')
    r = run("sweep", str(cfg), "--out", str(tmp_path / "out"), "--no-plots")
    assert r.returncode == 0, r.stderr
    assert "A♦-5♣, 8 cards" in r.stdout and "A♣ A♦ 2♦ 3♣ 3♦ 4♦ 5♣" in r.stdout and "greedy" in r.stdout


_THREADS_AFTER_NUMPY = (
    "import os, experiments.cli, numpy; print(len(os.listdir('/proc/self/task')))"
)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads through Linux's /proc")
def test_the_command_keeps_numpy_from_starting_blas_threads():
    """experiments/cli.py: no OpenBLAS worker (it spins beside numba's threads), unless the user
    asks for it."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    mine = subprocess.run([sys.executable, "-c", _THREADS_AFTER_NUMPY], env=env, cwd=ROOT,
                          capture_output=True, text=True, check=True)
    asked = subprocess.run([sys.executable, "-c", _THREADS_AFTER_NUMPY], env={**env, "OPENBLAS_NUM_THREADS": "2"},
                           cwd=ROOT, capture_output=True, text=True, check=True)
    assert int(mine.stdout) == 1
    assert int(asked.stdout) == min(2, os.cpu_count() or 1)  # OpenBLAS starts no more than the cores


def test_a_sweep_over_swim_and_actions_prints_both_columns(tmp_path):
    cfg = tmp_path / "s.toml"
    cfg.write_text('games = 20\n[grid]\nswim_cost = [1, 2]\nactions_per_turn = [3, 4]\npolicy = "random"\n')
    r = run("sweep", str(cfg), "--out", str(tmp_path / "out"), "--no-plots")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "4 cells played, 0 resumed; tables in " + str(tmp_path / "out")
    head = lines[1].split()
    assert "swim_cost" in head and "actions_per_turn" in head
    assert head[-9:-7] == ["swim_cost", "actions_per_turn"]  # the gauge's name has spaces: count from the end
    rows = {tuple(line.split()[-9:-7]) for line in lines[2:]}
    assert rows == {("1", "3"), ("1", "4"), ("2", "3"), ("2", "4")}


def test_a_gauge_out_of_rank_order_is_refused_in_one_line():
    r = run("simulate", "--games", "10", "--gauge", "5C 4D AC")
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [
        "island-escape: --gauge: the cards must go in rank order, top first (AC AD 2C 2D 3C 3D 4C 4D 5C 5D, or any "
        "of them in that order), not 5C 4D AC; in rank order: AC 4D 5C"]
    r = run("compare", "--a", "gauge=2C,AC", "--b", "players=2", "--games", "10")
    assert r.returncode == 2 and "gauge: the cards must go in rank order" in r.stderr


def test_a_gauge_is_taken_as_the_reports_write_it(tmp_path):
    """A gauge named as tables and figures name it (a run by its ends, or card by card with suit
    symbols) is the gauge of its codes wherever a gauge is taken: simulate, compare's words, a
    sweep grid and a playtest log."""
    from policies.game import game

    lab = game()
    codes = lab.rules_from_options(gauge="AD 2C 2D 3C 3D 4C 4D 5C")
    named = lab.value_text("gauge", " ".join(codes.gauge))  # as a table names it: "A♦-5♣, 8 cards"
    for written in ("A♦-5♣", "a♦ 2♣ 2♦ 3♣ 3♦ 4♣ 4♦ 5♣", "A♦, 2♣, 2♦, 3♣, 3♦, 4♣, 4♦, 5♣", named):
        assert lab.rules_from_options(gauge=written) == codes, written
    assert lab.cards_from_text("A♦-5♣, 8 cards") == list(codes.gauge)
    from experiments.compare import parse_rules_text

    assert parse_rules_text("players=2 gauge=A♦-5♣, 8 cards", lab) == codes
    settings = lab.sweep_settings({"gauge": "A♦-5♣"}, lambda key, why: ValueError(f"{key}: {why}"))
    assert [s[0] for s in settings] == [codes]
    r = run("simulate", "--games", "20", "--policy", "random", "--gauge", "A♦-5♣", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["rules"]["gauge"] == list(codes.gauge)
    bad = run("simulate", "--games", "20", "--gauge", "A♦-5♣, 7 cards")
    assert bad.returncode == 2 and bad.stderr.strip().splitlines() == [
        "island-escape: gauge 'A♦-5♣, 7 cards': the run A♦-5♣ holds 8 cards"]


def test_numbers_are_in_the_right_number(tmp_path):
    r = run("simulate", "--games", "50", "--players", "1", "--cards-per-treasure", "1", "--actions", "1",
            "--threads", "1", "--policy", "random")
    assert r.returncode == 0, r.stderr
    assert "rules       1 player, 1 card a treasure, swim 2, 1 action, gauge" in r.stdout
    assert "on 1 thread\n" in r.stdout
    replayed = run("replay", WORKED)
    assert "2 players, 2 cards a treasure, swim 2, 4 actions, gauge" in replayed.stdout.splitlines()[0]


def test_find_names_the_causes_and_columns_when_nothing_matches(tmp_path):
    table = tmp_path / "g.parquet"
    assert run("simulate", "--games", "200", "--policy", "random", "--out", str(table)).returncode == 0
    r = run("find", str(table), "--where", "cause == 'drowning'", "--records", str(tmp_path / "recs"))
    assert r.returncode == 0, r.stderr
    assert "no game in" in r.stdout and "'drowning' is not a value of cause" in r.stdout
    assert "drowned" in r.stdout and "the columns are game_kind, seed, game" in r.stdout
    bad = run("find", str(table), "--where", "caus == 'water'", "--records", str(tmp_path / "recs"))
    assert bad.returncode == 2 and "name 'caus' is not defined" in bad.stderr
    assert "the columns are game_kind, seed, game" in bad.stderr and "the causes are win, treasure" in bad.stderr


def test_explore_refuses_bad_options_in_one_line():
    r = run("explore", "--no-browser", "--players", "2,9")
    assert r.returncode == 2 and r.stderr.strip() == "island-escape: --players: '2,9': Island Escape is played by 1-4"
    r = run("explore", "--no-browser", "--games", "10")
    assert r.returncode == 2 and "--games" in r.stderr


@pytest.mark.parametrize(("args", "line"), [
    (["tune", "expert", "--game", "survive-the-island"], "island-escape: Survive the Island has no tunable players"),
    (["tune", "nobody"], "island-escape: unknown Island Escape policy 'nobody'"),
    (["tune", "random"], "island-escape: policy 'random' has no tunable weights (no DEFAULTS)"),
    (["tune", "tuned"], "island-escape: policy 'tuned' has no tunable weights"),
    (["tune", "expert", "--gauge-length", "11"], "island-escape: gauge length must be from 1 to 10, not 11"),
    (["tune", "expert", "--save", "nobody"], "island-escape: --save nobody: not a named player of Island Escape"),
    (["tune", "greedy", "--save", "tuned"], "island-escape: --save tuned: that player plays expert, not greedy"),
    (["tune", "expert", "--save", "tuned", "--players", "3"], "island-escape: --save keeps a player for every setting"),
])
def test_tune_refuses_in_one_line_before_playing(args, line):
    r = run(*args)
    assert r.returncode == 2, r
    assert r.stderr.strip().startswith(line) and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_tune_plays_the_game_through_its_game_object(tmp_path):
    out = tmp_path / "tuned.json"
    r = run("tune", "greedy", "--trials", "2", "--games", "200", "--holdout", "300", "--sampler", "random",
            "--players", "3", "--out", str(out))
    assert r.returncode == 0, r.stderr
    result = json.loads(out.read_text())
    assert result["policy"] == "greedy" and result["sampler"] == "random" and result["settings"] == [
        "3 players, 2 cards a treasure, swim 2, 4 actions, gauge AC AD 2C 2D 3C 3D 4C 4D 5C"]
    assert result["holdout_default"]["games"] == 300 and 0 <= result["holdout_tuned"]["win_rate"] <= 1
    assert "default " in r.stdout and "tuned " in r.stdout and "(paired, same games)" in r.stdout


def test_tune_weighs_a_player_over_the_games_own_settings(tmp_path):
    """Without a rule option the weights are judged over every setting the game tunes on, each on
    the same held-out games for the default and the tuned weights (Forbidden Island's expert keeps
    its scratch space in its parameter array: the tuned array is built on it)."""
    from experiments.tune import judge, with_weights
    from policies.game import game as game_named

    fi = game_named("forbidden-island")
    assert len(fi.tune_settings()) == 12 and len(fi.tune_space("expert")) > 20
    pp = with_weights(fi, "expert", {0: 900.0})
    assert len(pp) == len(fi.registry.default_params("expert")) and pp[0] == 900.0
    same = judge(fi, "expert", fi.tune_settings()[:2], {}, 60, 5)
    assert same["holdout_difference"] == {"points": 0.0, "half_width": 0.0}  # the defaults against themselves
    assert [row["default"] for row in same["by_setting"]] == [row["tuned"] for row in same["by_setting"]]
    out = tmp_path / "tuned.json"
    r = run("tune", "greedy", "--trials", "2", "--games", "100", "--holdout", "100", "--sampler", "optuna",
            "--out", str(out))
    assert r.returncode == 0, r.stderr
    result = json.loads(out.read_text())
    train = result["train"]
    assert result["sampler"] == "optuna-tpe" and train["tuned_win_rate"] >= train["default_win_rate"]
    assert len(result["settings"]) == len(result["by_setting"]) == 6
    assert result["holdout_default"]["games"] == 600
