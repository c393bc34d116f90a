"""Survive the Island through the lab's commands: `simulate` prints every seat's win share and
mean score (and `--json` gives `seats`), `--policy` takes a player per seat, `replay` tells a
record's story, and bad input (a player count, a seat's player, a board file) is one line and
exit 2 before any game is played."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from policies.game import game

STI = game("survive-the-island")


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "experiments.cli", *args], capture_output=True, text=True)


def test_simulate_prints_each_seats_win_share_and_mean_score():
    r = run("simulate", "--game", "survive-the-island", "--players", "4", "--games", "2000", "--threads", "2")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("rules       Survive the Island, 4 players; policy expert")
    seats = [line for line in lines if line[:4].strip().isdigit()]
    assert [int(line.split()[0]) for line in seats] == [1, 2, 3, 4]
    assert all("expert" in line and "%" in line for line in seats)
    assert "fair share  25.0% a seat" in r.stdout and "endings     cleared" in r.stdout


def test_simulate_json_gives_one_object_a_seat_whose_shares_sum_to_one():
    r = run("simulate", "--game", "survive-the-island", "--players", "3", "--games", "3000", "--json",
            "--policy", "expert,random,random")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["game"] == "survive-the-island" and out["rules"]["players"] == 3
    seats = out["seats"]
    assert [s["policy"] for s in seats] == ["expert", "random", "random"]
    assert sum(s["win_share"] for s in seats) == pytest.approx(1.0)
    assert all(s["win_share_ci95"][0] <= s["win_share"] <= s["win_share_ci95"][1] for s in seats)
    assert seats[0]["win_share"] > 0.6 and seats[0]["mean_score"] > max(s["mean_score"] for s in seats[1:])
    assert set(out["endings"]) == set(STI.causes) and sum(out["endings"].values()) == pytest.approx(1.0)


def _board_with_a_hole(tmp_path: Path) -> Path:
    lines = (Path(STI.rules_module.board_path("standard"))).read_text().splitlines()
    row = next(i for i, line in enumerate(lines) if "#" in line and not line.startswith(";"))
    lines[row] = lines[row].replace("# ", "", 1)  # one island hex gone from its row
    path = tmp_path / "holed.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("args, message", [
    (["--players", "7"], "--players must be a whole number 2-5, not 7"),
    (["--players", "4", "--policy", "expert,random"], "names 2 policies for 4 seats"),
    (["--players", "3", "--policy", "expert,clever,random"], "unknown Survive the Island policy 'clever'"),
    (["--sharks", "0"], "--sharks must be a whole number 1-8, not 0"),
    (["--die", "2,2"], "--die must be three face counts"),
    (["--gauge", "AD 2C"], "--gauge is not an option of Survive the Island"),
])
def test_bad_input_is_one_line_and_exit_2(args, message):
    r = run("simulate", "--game", "survive-the-island", "--games", "10", *args)
    assert r.returncode == 2, r.stdout
    assert message in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "Traceback" not in r.stderr


def test_a_board_file_with_a_hole_is_refused_with_its_line(tmp_path):
    board = _board_with_a_hole(tmp_path)
    r = run("simulate", "--game", "survive-the-island", "--games", "10", "--board", str(board))
    assert r.returncode == 2
    (line,) = r.stderr.strip().splitlines()
    assert str(board) in line and "line" in line and "a hole in the board" in line


@pytest.mark.parametrize("command", [["calibrate"]])
def test_commands_that_read_win_rates_refuse_a_competitive_game(command):
    r = run(*command, "--game", "survive-the-island")
    assert r.returncode == 2 and "is competitive" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_records_replay_with_a_story(tmp_path):
    folder = tmp_path / "records"
    r = run("simulate", "--game", "survive-the-island", "--games", "5", "--records", str(folder),
            "--record-count", "2", "--policy", "expert")
    assert r.returncode == 0, r.stderr
    records = sorted(folder.glob("*.json"))
    assert len(records) == 2
    told = run("replay", str(records[0]))
    assert told.returncode == 0, told.stderr
    assert "Survive the Island" in told.stdout
    as_json = run("replay", "--json", str(records[0]))
    result = json.loads(as_json.stdout.splitlines()[0])
    assert result["outcome"] in STI.causes and sum(result["win_shares"]) == pytest.approx(1.0)


def test_the_policies_command_lists_the_players():
    r = run("policies", "--game", "survive-the-island")
    assert r.returncode == 0 and "random" in r.stdout and "expert" in r.stdout
