"""`island-escape simulate --game forbidden-island` and `replay` of its records, as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

EXAMPLE = str(Path(__file__).resolve().parents[2] / "examples" / "forbidden-island" / "first-turns.json")


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "experiments.cli", *args], capture_output=True, text=True)


def test_simulate_forbidden_island_random_summary_table_and_records(tmp_path):
    table, folder = tmp_path / "fi.parquet", tmp_path / "recs"
    r = run("simulate", "--game", "forbidden-island", "--policy", "random", "--difficulty", "elite", "--players", "3",
            "--games", "3000", "--seed", "4", "--json", "--out", str(table), "--records", str(folder),
            "--record-count", "3")
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["game"] == "forbidden-island" and summary["rules"]["difficulty"] == "elite"
    assert summary["games"] == 3000 and summary["win_rate"] < 0.01  # random play hardly ever captures all four
    assert set(summary["loss_rates"]) == {"water", "drowned", "treasure", "fools_landing"}  # F14's causes
    df = pd.read_parquet(table)
    assert len(df) == 3000 and set(df["difficulty"]) == {"elite"} and (df["players"] == 3).all()
    assert df["won"].sum() == summary["wins"]
    records = sorted(folder.glob("*.json"))
    assert len(records) == 3
    replayed = run("replay", "--json", *map(str, records))
    assert replayed.returncode == 0, replayed.stderr
    for path, line in zip(records, replayed.stdout.splitlines(), strict=True):
        got = json.loads(line)
        assert got["cause"] == json.loads(path.read_text())["result"]["cause"]
        assert got["cause"] == df["cause"][int(path.stem.split("-")[-1])]


def test_replay_tells_a_forbidden_island_record():
    r = run("replay", EXAMPLE, "--board")
    assert r.returncode == 0, r.stderr
    assert "Forbidden Island, 2 players, novice" in r.stdout
    assert "Turn 2, player 1 (pilot):" in r.stdout
    assert "The record ends in turn 3" in r.stdout


@pytest.mark.parametrize("option", [["--cards-per-treasure", "3"], ["--gauge-length", "8"], ["--swim-cost", "1"],
                                    ["--actions", "3"], ["--variant", "divers"]])
def test_island_escape_options_are_refused_under_forbidden_island(option):
    r = run("simulate", "--game", "forbidden-island", "--games", "10", *option)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and f"{option[0]} is not an option of Forbidden Island" in r.stderr


def test_skill_plays_forbidden_islands_skilled_player():
    r = run("simulate", "--game", "forbidden-island", "--games", "40", "--skill", "0.5", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["policy"] == "skilled@0.5"
    r = run("simulate", "--game", "forbidden-island", "--games", "10", "--policy", "expert", "--skill", "0.5")
    assert r.returncode == 2 and "takes no skill" in r.stderr and r.stderr.count("\n") == 1


def test_difficulty_is_refused_under_island_escape_and_bad_settings_are_one_line():
    r = run("simulate", "--difficulty", "elite", "--games", "10")
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert "--difficulty is not an option of Island Escape" in r.stderr
    for args, words in ((["--players", "1"], "--players must be"), (["--policy", "oracle"], "unknown Forbidden")):
        r = run("simulate", "--game", "forbidden-island", "--games", "10", *args)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and words in r.stderr, r.stderr


def test_policies_lists_forbidden_islands_players():
    r = run("policies", "--game", "forbidden-island")
    assert r.returncode == 0 and r.stdout.startswith("random ")
    assert "greedy" not in r.stdout  # Island Escape's players are not Forbidden Island's
