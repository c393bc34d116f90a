"""Desert Island through the lab's commands: `simulate` prints every seat's and every character's
win share and mean score (`--json` gives `seats` and `roles`), the `random` player plays the
kernel's `play_random` games, `compare` and `sweep` read the same tally, records replay to the
kernel's end, and bad input (a player count, a seat's player, a decks file) is one line and exit
2 before any game is played."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from policies.game import game
from sim.desert_island import kernel as K
from sim.desert_island import layout as L
from sim.desert_island.rules import STANDARD_DECKS

DI = game("desert-island")


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "experiments.cli", *args], capture_output=True, text=True)


@pytest.mark.parametrize("players, setting", [(4, {}), (5, {"ships_to_rescue": 2}), (6, {"start_food": 9})])
def test_the_random_player_plays_the_kernels_play_random_games(players, setting):
    rules = DI.rules(players=players, **setting)
    raw = DI.run_games(rules, "random", 400, seed=3, first_game=10, threads=2)
    out = np.zeros((400, L.NRESULT), dtype=np.int32)
    K.play_random(L.params_of(rules), 3, 10, 400, out)
    np.testing.assert_array_equal(raw, out)


def test_win_shares_are_shared_by_tied_winners_and_zero_when_everyone_died():
    rules = DI.rules(players=5, ships_to_rescue=2)
    raw = DI.run_games(rules, "random", 3000, seed=1, threads=2)
    share, score = DI.seat_results(raw, rules)
    nobody = DI.no_one_won(raw, rules)
    assert nobody.any() and (~nobody).any()
    np.testing.assert_allclose(share.sum(axis=1), np.where(nobody, 0.0, 1.0))
    assert (raw[nobody, DI.result_fields.index("ending")] == DI.causes.index("lost")).all()  # D8
    winners = share > 0
    tied = np.repeat(winners.sum(axis=1), winners.sum(axis=1))
    np.testing.assert_allclose(share[winners], 1 / tied)
    top = np.repeat(score.max(axis=1), winners.sum(axis=1))
    assert (score[winners] == top).all()


def test_a_characters_share_is_the_mean_over_the_games_it_was_played_in():
    rules = DI.rules(players=4, ships_to_rescue=2)
    raw = DI.run_games(rules, "random", 2000, seed=2, threads=2)
    tally = DI.tally(rules, "random")
    tally.add(raw[:700])
    tally.add(raw[700:])
    roles = tally.result()["roles"]
    share, score = DI.seat_results(raw, rules)
    played = raw[:, DI.result_fields.index("character0"):][:, :4]
    assert [r["role"] for r in roles] == ["Bosun", "Cap", "Ladle", "Snob"]
    for c, role in enumerate(roles):
        assert role["games"] == 2000  # every character in play is in every game
        assert role["win_share"] == pytest.approx(share[played == c].mean())
        assert role["mean_score"] == pytest.approx(score[played == c].mean())
    no_one = DI.no_one_won(raw, rules).mean()
    assert sum(r["win_share"] for r in roles) == pytest.approx(1 - no_one)


def test_simulate_prints_each_seat_and_each_character():
    r = run("simulate", "--game", "desert-island", "--players", "5", "--games", "3000", "--threads", "2")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("rules       Desert Island, 5 players; policy random")
    seats = [line for line in lines if line[:4].strip().isdigit()]
    assert [int(line.split()[0]) for line in seats] == [1, 2, 3, 4, 5]
    at = next(i for i, line in enumerate(lines) if line.startswith("role "))
    assert [line.split()[0] for line in lines[at + 1:at + 6]] == ["Bosun", "Cap", "Ladle", "Snob", "Milady"]
    # a fair seat's share is a fifth of the wins given out: few, as nearly every random game is lost (D8)
    fair = next(line for line in lines if line.startswith("fair share"))
    assert float(fair.split()[2].rstrip("%")) < 1.0 and "endings     rescued" in r.stdout
    assert "games/s on 2 threads" in r.stdout


def test_simulate_json_gives_seats_and_roles_whose_shares_sum_to_one_or_to_none_won():
    r = run("simulate", "--game", "desert-island", "--players", "6", "--ships", "1", "--start-food", "12",
            "--games", "3000", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["game"] == "desert-island" and out["rules"]["players"] == 6 and out["rules"]["ships_to_rescue"] == 1
    assert [s["seat"] for s in out["seats"]] == [1, 2, 3, 4, 5, 6]
    assert [r["role"] for r in out["roles"]] == ["Bosun", "Cap", "Ladle", "Snob", "Milady", "Kid"]
    won = 1 - out["endings"]["lost"] if "lost" in out["endings"] else 1.0
    # a lost game (everyone dead, D8) gives no one a share; every other game shares out one win
    assert sum(s["win_share"] for s in out["seats"]) == pytest.approx(won, abs=1e-9)
    assert sum(r["win_share"] for r in out["roles"]) == pytest.approx(won, abs=1e-9)
    assert all(r["win_share_ci95"][0] <= r["win_share"] <= r["win_share_ci95"][1] for r in out["roles"])
    assert set(out["endings"]) == set(DI.causes) and sum(out["endings"].values()) == pytest.approx(1.0)


def _decks_short_of_a_card(tmp_path: Path) -> Path:
    text = STANDARD_DECKS.read_text()
    path = tmp_path / "short.toml"
    path.write_text(text.replace("count = 1", "count = 0", 1))
    return path


@pytest.mark.parametrize("args, message", [
    (["--players", "3"], "--players must be a whole number from 4 to 6, not 3"),
    (["--players", "7"], "--players must be a whole number from 4 to 6, not 7"),
    (["--policy", "nobody"], "unknown Desert Island policy 'nobody' (choose from random)"),
    (["--policy", "random,nobody,random,random"], "unknown Desert Island policy 'nobody'"),
    (["--ships", "0"], "--ships must be a whole number from 1 to 9, not 0"),
    (["--sharks", "3"], "--sharks is not an option of Desert Island"),
    (["--decks", "SHORT"], "items.cards: the counts add up to 39 cards, not 40"),
])
def test_bad_input_is_one_line_and_exit_2(args, message, tmp_path):
    args = [str(_decks_short_of_a_card(tmp_path)) if a == "SHORT" else a for a in args]
    r = run("simulate", "--game", "desert-island", "--games", "10", *args)
    assert r.returncode == 2 and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and message in r.stderr, r.stderr


@pytest.mark.parametrize("command", [["calibrate"], ["tune", "random"], ["play", "--no-browser"],
                                     ["strength"], ["scale"]])
def test_commands_the_game_lacks_refuse_in_one_line(command):
    r = run(command[0], "--game", "desert-island", *command[1:])
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_compare_sets_seats_and_characters_side_by_side():
    r = run("compare", "--game", "desert-island", "--a", "players=5", "--b", "players=5 ships=2", "--games", "3000")
    assert r.returncode == 0, r.stderr
    assert "seat 5 win share" in r.stdout and "Milady win share" in r.stdout and "ended: rescued" in r.stdout
    assert "seat 1" in r.stdout.split("A - B", 1)[1]


def test_a_sweep_writes_each_cells_seat_and_character_shares(tmp_path):
    config = tmp_path / "di.toml"
    config.write_text('name = "di"\ngame = "desert-island"\ngames = 500\nseed = 0\n\n[grid]\n'
                      'players = [4, 6]\nships_to_rescue = [2]\npolicy = "random"\n')
    r = run("sweep", str(config), "--out", str(tmp_path / "out"), "--no-plots")
    assert r.returncode == 0, r.stderr
    rows = list(csv.DictReader((tmp_path / "out" / "summary.csv").open()))
    assert [int(row["players"]) for row in rows] == [4, 6]
    assert rows[1]["role_kid_share"] and not rows[0]["role_kid_share"]  # the Kid plays only with six (D1)
    for row in rows:
        seats = sum(float(row[f"seat{k}_share"]) for k in range(1, int(row["players"]) + 1))
        roles = sum(float(row[f"role_{n}_share"]) for n in ("bosun", "cap", "ladle", "snob", "milady", "kid")
                    if row[f"role_{n}_share"])
        # the table rounds its cells
        assert seats == pytest.approx(roles, abs=1e-3)
        assert seats == pytest.approx(1 - float(row["ended_lost"]), abs=1e-3)


def test_a_record_replays_to_the_kernels_end_and_tells_its_story(tmp_path):
    r = run("simulate", "--game", "desert-island", "--players", "4", "--games", "50", "--records", str(tmp_path),
            "--record-count", "2")
    assert r.returncode == 0, r.stderr
    path = tmp_path / "game-0-000000.json"
    record = DI.records.load_record(path)
    raw = DI.run_games(DI.rules(players=4), "random", 1, seed=0, threads=1)[0]
    assert record.result["cause"] == DI.causes[raw[0]] and record.result["turns"] == raw[1]
    told = run("replay", str(path))
    assert told.returncode == 0, told.stderr
    assert told.stdout.startswith(f"== {path}: Desert Island, 4 players") and "-- week 1" in told.stdout
    assert f"ended: {record.result['cause']}" in told.stdout
    pictures = run("replay", "--png", str(tmp_path / "png"), str(path))
    assert pictures.returncode == 2 and "Desert Island has no pictures" in pictures.stderr
    assert "Traceback" not in pictures.stderr
    logged = run("playtest", "summarize", str(path))  # a playtest log holds a table's win or loss
    assert logged.returncode == 2 and "Desert Island is competitive" in logged.stderr
    assert len(logged.stderr.strip().splitlines()) == 1, logged.stderr


def test_a_bad_record_is_refused_in_one_line_naming_where(tmp_path):
    record = DI.export(DI.rules(players=5), "random", 4, [2])[0]
    data = record.to_json()
    assert DI.records.result_json(DI.records.replay(DI.records.load_record(data)))["turns"] == record.result["turns"]
    illegal = json.loads(json.dumps(data))
    illegal["weeks"][0][0] = 9999
    late = json.loads(json.dumps(data))
    late["draws"].append(7)
    for bad, where in ((illegal, "week 1, entry 1 (9999)"), (late, "draws: 1 of the"),
                       ({**data, "deal": {"roles": [0]}}, "deal must be an object with roles"),
                       ({**data, "rules": {"players": 7}}, "rules: rules.players must be")):
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(bad))
        r = run("replay", str(path))
        assert r.returncode == 2 and where in r.stderr and "Traceback" not in r.stderr, r.stderr
