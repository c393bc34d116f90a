"""`island-escape playtest summarize`: reading real-table logs, win rates by setting and the table's
skill by maximum likelihood (checked on a known win-rate curve). Its levels, the same search as
`calibrate --table`, are tested in test_table_levels.py."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pytest

from experiments.playtest import (
    LoggedGame,
    by_setting,
    estimate_skill,
    read_logs,
    summarize,
)
from sim.island_escape.records import write_record
from sim.island_escape.rules import FULL_GAUGE, Rules


def known_curve(rules: Rules, skill: float) -> float:
    """A made-up lab: harder rules shift the curve right; more skill always wins more."""
    hardness = 0.25 * (rules.cards_per_treasure - 2) - 0.06 * (len(rules.gauge) - 9) + 0.1 * (rules.players - 2)
    hardness -= 0.15 * (rules.swim_cost == 1)
    return 1 / (1 + math.exp(-7 * (skill - 0.45 - hardness)))


SETTINGS = (Rules(players=2), Rules(players=2, cards_per_treasure=3))


def synthetic_table(skill: float, games: int, rng: np.random.Generator, name: str = "t") -> list[LoggedGame]:
    out = []
    for rules in SETTINGS:
        wins = rng.binomial(games, known_curve(rules, skill))
        out += [LoggedGame(name, rules, "win" if i < wins else "water", f"row {i}") for i in range(games)]
    return out


# --- reading logs ----------------------------------------------------------------------------------


def test_bad_rows_get_one_line_each_and_good_rows_are_used(tmp_path):
    log = tmp_path / "LOG.csv"
    log.write_text(
        "players,cards_per_treasure,gauge,swim_cost,outcome,turns,table\n"
        "3,2,AD 2C 2D 3C 3D 4C 4D 5C,2,win,12,kitchen\n"
        ",,,,treasure,,\n"  # every rule missing: the rulebook's values; table from the file name
        "2,two,,,win,,\n"
        "2,2,AC QQ,,win,,\n"
        "2,2,,,lost,,\n"
        "2,2,,,win,-3,\n"
        "\n"
        "9,2,,,win,,\n", encoding="utf-8")
    games, problems = read_logs([log])
    assert problems == [
        f"{log}, row 4: column cards_per_treasure: 'two' is not a whole number",
        f"{log}, row 5: column gauge: rules.gauge: 'QQ' is not a gauge card (A-5 of clubs or diamonds, R3)",
        f"{log}, row 6: column outcome: 'lost' is not win, loss or a loss cause of Island Escape "
        "(treasure, helicopter, drowned, water, cut_off, cards)",
        f"{log}, row 7: column turns: '-3' is negative",
        f"{log}, row 9: column players: rules.players must be a whole number from 1 to 4, not 9",
    ]
    assert [(g.table, g.outcome) for g in games] == [("kitchen", "win"), ("LOG", "treasure")]
    assert games[0].rules == Rules(players=3, gauge=FULL_GAUGE[1:]) and games[0].turns == 12
    assert games[1].rules == Rules()


def test_records_of_play_count_as_a_table(tmp_path):
    from policies.runner import export_records

    folder = tmp_path / "playtests"
    folder.mkdir()
    rules = Rules(players=2)
    records = export_records(rules, "greedy", 5, [0, 1, 2])
    for i, record in enumerate(records):
        write_record(folder / f"game-{i}.json", record)
    causes = [r.result["cause"] for r in records]
    unfinished = records[0]
    unfinished.turns = unfinished.turns[:2]
    unfinished.result = None
    write_record(folder / "unfinished.json", unfinished)
    games, problems = read_logs([folder])
    assert problems == [f"{folder / 'unfinished.json'}: the game is not finished"]
    assert [g.outcome for g in games] == causes
    assert {g.table for g in games} == {"playtests"}


def test_a_log_that_cannot_be_read_is_one_line_with_exit_2(tmp_path):
    (tmp_path / "nohead.csv").write_text("", encoding="utf-8")
    (tmp_path / "noout.csv").write_text("players,gauge\n2,AC\n", encoding="utf-8")
    for name, message in [("missing.csv", "cannot read it"), ("nohead.csv", "empty, expected a header row"),
                          ("noout.csv", "no outcome column")]:
        out = subprocess.run([sys.executable, "-m", "experiments.cli", "playtest", "summarize",
                              str(tmp_path / name)], capture_output=True, text=True)
        assert out.returncode == 2 and message in out.stderr, out.stderr
        assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr


# --- the skill estimate on a known curve -------------------------------------------------------------


def test_the_estimate_is_the_skill_that_explains_the_wins_best():
    # wins exactly as expected at skill 0.6 on both settings: the maximum is at 0.6
    counts = []
    for rules in SETTINGS:
        n = 10_000
        counts.append((rules, n, round(n * known_curve(rules, 0.6))))
    skill, (lo, hi), _ = estimate_skill(counts, known_curve)
    assert abs(skill - 0.6) <= 0.0051 and lo < 0.6 < hi and hi - lo < 0.05


def test_the_interval_narrows_with_games_and_covers_the_truth_about_95_percent():
    rng = np.random.default_rng(11)
    for true_skill in (0.3, 0.75):
        covered, widths, estimates = 0, [], []
        for _ in range(200):
            counts = by_setting(synthetic_table(true_skill, 40, rng))
            skill, (lo, hi), _ = estimate_skill(counts, known_curve)
            covered += lo <= true_skill <= hi
            widths.append(hi - lo)
            estimates.append(skill)
        assert 0.88 <= covered / 200 <= 0.995, (true_skill, covered)
        assert abs(np.mean(estimates) - true_skill) < 0.03
        big = by_setting(synthetic_table(true_skill, 1000, rng))
        _, (lo, hi), _ = estimate_skill(big, known_curve)
        assert hi - lo < np.mean(widths) / 3  # 25 times the games: about 5 times narrower


def test_summaries_per_table_and_for_all_tables():
    rng = np.random.default_rng(3)
    games = synthetic_table(0.3, 60, rng, "novices") + synthetic_table(0.8, 60, rng, "club")
    out = summarize(games, known_curve)
    assert [s["table"] for s in out] == ["novices", "club", "all tables"]
    novices, club, everyone = out
    assert novices["skill_ci"][0] <= 0.3 <= novices["skill_ci"][1]
    assert club["skill_ci"][0] <= 0.8 <= club["skill_ci"][1]
    assert novices["skill_ci"][1] < club["skill_ci"][0]
    assert everyone["games"] == 240 and everyone["wins"] == novices["wins"] + club["wins"]
    for s in out:
        assert {"table", "games", "wins", "win_rate", "ci95", "skill", "skill_ci", "levels"} <= set(s)
        assert s["ci95"][0] <= s["win_rate"] <= s["ci95"][1]
        assert sum(st["games"] for st in s["settings"]) == s["games"]
        assert s["levels"] is None  # no search asked for
        for st in s["settings"]:  # the evidence: the curve at the table's skill
            assert st["lab_win_rate"] == pytest.approx(known_curve(Rules(**st["rules"]), s["skill"]), abs=0.02)


def test_summarize_command_text_and_json(tmp_path):
    log = tmp_path / "club.csv"
    rows = ["players,cards_per_treasure,outcome"] + ["2,2,win"] * 7 + ["2,2,water"] * 3 + ["2,3,cut_off"] * 2
    log.write_text("\n".join(rows) + "\n", encoding="utf-8")
    small = ["--lab-games", "200", "--screen-games", "100", "--confirm-games", "300", "--max-changes", "1"]
    out = subprocess.run([sys.executable, "-m", "experiments.cli", "playtest", "summarize", str(log), "--json",
                          *small], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    obj, = [json.loads(line) for line in out.stdout.splitlines()]
    assert obj["table"] == "club" and obj["games"] == 12 and obj["wins"] == 7
    assert obj["ci95"][0] < 7 / 12 < obj["ci95"][1]
    assert [(lv["players"], lv["level"]) for lv in obj["levels"]] == [(2, "easy"), (2, "normal"), (2, "hard")]
    text = subprocess.run([sys.executable, "-m", "experiments.cli", "playtest", "summarize", str(log), *small],
                          capture_output=True, text=True)
    assert "club: 12 games, 7 won, win rate 58%" in text.stdout
    assert "2p easy" in text.stdout and "2p hard" in text.stdout


@pytest.mark.skipif("not __import__('experiments.playtest').playtest.LabWinRate.available()",
                    reason="the lab's skilled policy is not in this version yet")
def test_logs_of_skilled_players_give_back_their_skills():
    """Tables of the lab's own skilled players (other seeds than the lab's curve) at two skills,
    each on two settings: the 95% skill intervals contain the true skills."""
    from experiments.playtest import LabWinRate
    from policies.island_escape import skilled
    from policies.runner import run_games

    settings = (Rules(players=2), Rules(players=3, cards_per_treasure=3))
    lab = LabWinRate(games=1000, seed=7100)
    for skill in (0.25, 0.85):
        counts = []
        for k, rules in enumerate(settings):
            raw = run_games(rules, "skilled", 400, 900 + k, policy_params=skilled.skill_params(skill))
            counts.append((rules, 400, int((raw[:, 0] == 0).sum())))
        estimate, (lo, hi), _ = estimate_skill(counts, lab, floor=lab.floor)
        assert lo <= skill <= hi, (skill, estimate, lo, hi)
        assert hi - lo < 0.6, (skill, lo, hi)  # the logs say something


# --- malformed logs: one line each, exit 2, no traceback ---------------------------------------------


def summarize_cli(*paths) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "experiments.cli", "playtest", "summarize", *map(str, paths)],
                          capture_output=True, text=True, timeout=120)


def finished_record_json() -> dict:
    from policies.runner import export_records

    (record,) = export_records(Rules(players=2), "greedy", 5, [0])
    return record.to_json()


MALFORMED = {
    "binary.csv": (bytes(range(256)) * 8, "binary.csv, line 2: not UTF-8 text (byte 0x80)"),  # 0x0a ends line 1
    "latin1.csv": (b"players,outcome,table\n2,win,caf\xe9\n", "latin1.csv, line 2: not UTF-8 text (byte 0xe9)"),
    "nul.csv": (b"players,outcome\n2,w\x00in\n", "nul.csv, line 2: a NUL byte - a binary file"),
    "huge-field.csv": (b"players,outcome,table\n2,win," + b"x" * 200_000 + b"\n",
                       "huge-field.csv, line 2: not a CSV log (field larger than field limit"),
    "open-quote.csv": (b'players,outcome\n2,"win\n', "open-quote.csv, line 2: not a CSV log (unexpected end of data)"),
    "stray-quote.csv": (b'players,outcome\n2,"win"x\n', "stray-quote.csv, line 2: not a CSV log (',' expected"),
    "huge-number.csv": (b"players,outcome\n" + b"9" * 5000 + b",win\n",
                        "huge-number.csv, row 2: column players: '9999"),
    "huge-number-said.csv": (b"players,outcome\n" + b"9" * 5000 + b",win\n",
                             "9... (5002 characters) is not a whole number"),
    "deep.json": (b"[" * 100_000, "deep.json: nested more than 8 deep"),
    "binary.json": (bytes(range(128, 256)), "binary.json: line 1: not UTF-8 text (byte 0x80)"),
    "huge-number.json": (b'{"format": "x", "seed": ' + b"9" * 5000 + b"}",
                         "huge-number.json: not usable JSON: Exceeds the limit (4300 digits)"),
    "list.json": (b"[1, 2]", "list.json: a record is a JSON object, not list"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_a_malformed_log_is_one_line_naming_it_with_exit_2(tmp_path, name):
    content, message = MALFORMED[name]
    (tmp_path / name).write_bytes(content)
    out = summarize_cli(tmp_path / name)
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr[-2000:]
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and len(lines[0]) < 400, lines[:3]
    assert lines[0].startswith(f"island-escape playtest: {tmp_path / name}") and message in lines[0], lines[0]


def test_a_malformed_record_in_a_folder_does_not_stop_the_good_ones(tmp_path):
    folder = tmp_path / "table"
    folder.mkdir()
    (folder / "good.json").write_text(json.dumps(finished_record_json()), encoding="utf-8")
    (folder / "deep.json").write_bytes(b"[" * 100_000)
    games, problems = read_logs([folder])
    assert len(games) == 1 and problems == [f"{folder / 'deep.json'}: nested more than 8 deep"]


def test_at_most_20_bad_rows_are_listed_then_how_many_more(tmp_path):
    log = tmp_path / "junk.csv"
    log.write_text("players,outcome\n" + "zz,zz\n" * 300_000 + "2,win\n", encoding="utf-8")
    games, problems = read_logs([log])
    assert len(games) == 1 and len(problems) == 21
    assert problems[0] == f"{log}, row 2: column players: 'zz' is not a whole number"
    assert problems[19].startswith(f"{log}, row 21: ")
    assert problems[20] == f"{log}: 299980 more bad rows or records not listed"
