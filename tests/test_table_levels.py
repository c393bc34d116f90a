"""Levels for a given table: logs of both games, one skill from all of a table's games, one search
(`calibrate --table` and `playtest summarize` give the same levels), and bad logs refused in one
line. The tables are the lab's own skilled players, so the true skill is known."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from experiments.cli import cli
from experiments.playtest import LabWinRate, Search, read_logs, table_skill
from policies.game import game

IE, FI = game("island-escape"), game("forbidden-island")
# A few settings of each game, where the skilled player's win rate moves with its skill (Forbidden
# Island's only near the top: its skilled player at 0.55 wins 1-2% of Novice games, at 0.87 12%).
IE_SETTINGS = (IE.rules(players=2), IE.rules(players=3, cards_per_treasure=1),
               IE.rules(players=2, cards_per_treasure=3))
FI_SETTINGS = tuple(FI.rules(players=p, difficulty=d) for p in (2, 3) for d in ("novice", "normal"))
LOG_GAMES = 300  # a setting's games in a log
LAB = ["--lab-games", "1000"]  # the lab's curve: seed 7100, other games than the logs' (seeds 900+)
SEARCH = ["--screen-games", "200", "--confirm-games", "1500", "--max-changes", "2", "--players", "2"]
CHECK_GAMES, CHECK_SEED = 3000, 5151  # the levels played again at the true skill, on games of neither


def write_log(path, skill: float, settings, seed: int, table: str = "t") -> None:
    """A CSV log of the lab's skilled player at `skill`: LOG_GAMES games of each setting."""
    rows = ["game,players,cards_per_treasure,difficulty,outcome,table"]
    for k, rules in enumerate(settings):
        g = IE if IE.owns_rules(rules) else FI
        raw = g.run_games(rules, g.player(None, skill), LOG_GAMES, seed + k)
        name = "" if g is IE else g.name
        cpt = rules.cards_per_treasure if g is IE else ""
        difficulty = "" if g is IE else rules.difficulty
        rows += [f"{name},{rules.players},{cpt},{difficulty},{g.causes[r[0]]},{table}" for r in raw]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


def run(*args) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(map(str, args)))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout


@pytest.mark.parametrize("true_skill", [0.55, 0.87])
def test_calibrate_table_finds_the_skill_of_both_games_and_levels_that_hold_at_it(tmp_path, true_skill):
    log = tmp_path / "table.csv"
    write_log(log, true_skill, IE_SETTINGS + FI_SETTINGS, 900)
    code, out = run("calibrate", "--table", log, *LAB, *SEARCH, "--json")
    assert code == 0
    levels = json.loads(out)
    assert [(lv["players"], lv["level"]) for lv in levels] == [(2, "easy"), (2, "normal"), (2, "hard")]
    lo, hi = levels[0]["skill_ci"]
    assert lo <= true_skill <= hi, (true_skill, levels[0]["skill"], lo, hi)
    assert all(lv["table"] == "t" and lv["skill_ci"] == [lo, hi] for lv in levels)

    # Each game's games alone place the table too: Forbidden Island's count in the estimate.
    games, _ = read_logs([log])
    lab = LabWinRate(1000, 7100)
    alone = {g.name: table_skill([x for x in games if x.game is g], lab) for g in (IE, FI)}
    for g, est in alone.items():
        assert est.ci[0] <= true_skill <= est.ci[1], (g, est.skill, est.ci)
        assert est.ci[1] - est.ci[0] < 0.6, (g, est.ci)  # games the estimate ignored would leave 0-1

    found = [lv for lv in levels if lv["rules"] is not None]
    assert found, levels  # the budget confirms at least one level at either skill
    for lv in levels:
        if lv["rules"] is None:
            assert lv["nearest"] and lv["across_skill_ci"] is None
    for lv in found:
        band, across = lv["band"], lv["across_skill_ci"]
        assert lv["policy"] == IE.player(None, round(lv["skill"], 2))
        assert band[0] <= lv["ci95"][0] and lv["ci95"][1] <= band[1]
        assert across["skills"] == [round(lo, 2), round(hi, 2)] and across["games"] == 1500
        # At the true skill, on fresh games: the true skill lies inside the interval and the win
        # rate rises with skill, so the rate lies within the interval's ends, which lie within
        # `outside_by` of the band. The tolerance is the sampling error of those measurements:
        # 3 standard errors of the ends' 1,500 games and of the check's 3,000.
        rules = IE.rules(**lv["rules"])
        raw = IE.run_games(rules, IE.player(None, true_skill), CHECK_GAMES, CHECK_SEED)
        rate = float((raw[:, 0] == 0).mean())
        tolerance = across["outside_by"] + 3 * math.sqrt(0.25 / 1500) + 3 * math.sqrt(rate * (1 - rate) / CHECK_GAMES)
        assert band[0] - tolerance <= rate <= band[1] + tolerance, (lv["level"], rate, band, tolerance)


def test_summarize_and_calibrate_table_give_the_same_levels(tmp_path):
    log = tmp_path / "club.csv"
    write_log(log, 0.8, IE_SETTINGS[:1] + FI_SETTINGS[:2], 1900, table="club")
    other = tmp_path / "kitchen.csv"
    write_log(other, 0.6, IE_SETTINGS[1:2], 1950, table="kitchen")
    options = ["--lab-games", "300", "--screen-games", "150", "--confirm-games", "600", "--max-changes", "1",
               "--players", "2,3"]
    code, out = run("playtest", "summarize", log, other, *options, "--json")
    assert code == 0
    summaries = [json.loads(line) for line in out.splitlines()]
    assert [s["table"] for s in summaries] == ["club", "kitchen", "all tables"]
    assert summaries[0]["levels"] is None and summaries[1]["levels"] is None  # one search, for all tables
    assert {st["game"] for st in summaries[0]["settings"]} == {"island-escape", "forbidden-island"}
    code, out = run("calibrate", "--table", log, other, *options, "--json")
    assert code == 0
    table = json.loads(out)

    def rules_of(levels):
        return {(lv["players"], lv["level"]): lv["rules"] for lv in levels}

    assert rules_of(summaries[-1]["levels"]) == rules_of(table)
    assert len(table) == 6 and any(lv["rules"] for lv in table)
    assert summaries[-1]["levels"] == table  # the same records: the same search, the same games


def test_both_commands_take_the_same_search_options_with_the_same_defaults():
    commands = {"calibrate": cli.commands["calibrate"], "summarize": cli.commands["playtest"].commands["summarize"]}
    shared = ("bands", "players", "seed", "screen_games", "confirm_games", "max_changes", "knobs", "threads",
              "lab_games", "lab_seed")
    defaults = {name: {p.name: p.default for p in c.params if p.name in shared} for name, c in commands.items()}
    assert defaults["calibrate"] == defaults["summarize"] and len(defaults["calibrate"]) == len(shared)
    search = Search()
    for field in ("seed", "screen_games", "confirm_games", "max_changes"):
        assert defaults["calibrate"][field] == getattr(search, field), field
    assert defaults["calibrate"]["knobs"] in (None, getattr(click.core, "UNSET", None)) and search.knobs is None
    assert (defaults["calibrate"]["lab_games"], defaults["calibrate"]["lab_seed"]) == (LabWinRate().games,
                                                                                       LabWinRate().seed)


# --- bad input: one line each, exit 2, before any long work ------------------------------------------


def cli_process(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "experiments.cli", *map(str, args)], capture_output=True,
                          text=True, timeout=120)


def test_bad_rows_of_either_game_are_one_line_naming_row_and_column(tmp_path):
    log = tmp_path / "mixed.csv"
    log.write_text(
        "game,players,gauge,difficulty,outcome\n"
        "forbidden-island,2,,normal,win\n"
        "forbidden-island,2,AC AD,normal,win\n"  # a gauge on a Forbidden Island row
        ",3,,,loss\n"  # a loss of unknown cause: a good row
        "island-escape,2,,elite,win\n"  # a difficulty on an Island Escape row
        "forbidden-island,3,,novice,cut_off\n"  # Island Escape's cause on a Forbidden Island row
        "chess,2,,,win\n"
        "forbidden-island,1,,novice,water\n", encoding="utf-8")
    games, problems = read_logs([log])
    assert [(g.game.name, g.outcome) for g in games] == [("forbidden-island", "win"), ("island-escape", "loss")]
    assert problems == [
        f"{log}, row 3: column gauge: Forbidden Island has no gauge (a rule of island-escape; column game "
        "names a row's game, island-escape when empty)",
        f"{log}, row 5: column difficulty: Island Escape has no difficulty (a rule of forbidden-island; column "
        "game names a row's game, island-escape when empty)",
        f"{log}, row 6: column outcome: 'cut_off' is not win, loss or a loss cause of Forbidden Island "
        "(water, drowned, treasure, fools_landing)",
        f"{log}, row 7: column game: 'chess' is not a game of the lab (island-escape, forbidden-island)",
        f"{log}, row 8: column players: rules.players must be a whole number from 2 to 4, not 1",
    ]
    out = cli_process("calibrate", "--table", log)
    assert out.returncode == 2 and "Traceback" not in out.stderr and out.stdout == ""
    assert out.stderr.splitlines() == [f"island-escape calibrate: {line}" for line in problems]


@pytest.mark.parametrize("args, message", [
    (["--skill", "0.5"], "--skill does not go with --table"),
    (["--policy", "expert"], "--policy does not go with --table"),
    (["--same-rule"], "--same-rule does not go with --table"),
    (["--anchor", "forbidden-island"], "--anchor does not go with --table"),
    (["--game", "forbidden-island"], "--game does not go with --table"),
    (["--knobs", "gauge,dice"], "--knobs: 'dice' is not a knob"),
    (["--players", "7"], "--players: '7': Island Escape is played by 1-4"),
])
def test_table_options_that_cannot_be_are_refused_in_one_line(tmp_path, args, message):
    log = tmp_path / "t.csv"
    log.write_text("players,outcome\n2,win\n2,water\n", encoding="utf-8")
    out = cli_process("calibrate", "--table", log, *args)
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], lines


def test_logs_need_table_and_table_needs_logs(tmp_path):
    log = tmp_path / "t.csv"
    log.write_text("players,outcome\n2,win\n", encoding="utf-8")
    for args, message in ([[log], "go with --table only"], [["--table"], "--table needs the LOG files"],
                          [["--lab-games", "300"], "--lab-games goes with --table only"]):
        out = cli_process("calibrate", *args)
        assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1, out.stderr
        assert message in out.stderr and "Traceback" not in out.stderr


def test_a_strong_tables_interval_holds_its_skill():
    """Near the expert both games' win rates climb steeply: the lab's curve is measured densely
    there, so that a log of strong players' games is not placed below its skill (linear between
    0.95 and 1 it was, every time)."""
    from experiments.playtest import estimate_skill

    lab = LabWinRate(1000, 7100)
    held, errors = 0, []
    for k in range(5):
        counts = []
        for j, rules in enumerate(IE_SETTINGS + FI_SETTINGS):
            g = IE if IE.owns_rules(rules) else FI
            raw = g.run_games(rules, g.player(None, 0.97), LOG_GAMES, 30_000 + 100 * k + j)
            counts.append((rules, LOG_GAMES, int((raw[:, 0] == 0).sum())))
        skill, (lo, hi), _ = estimate_skill(counts, lab, lab.floor)
        held += lo <= 0.97 <= hi
        errors.append(skill - 0.97)
    assert held >= 4 and abs(sum(errors) / len(errors)) < 0.012, (held, errors)
