"""The strength scale a table places itself on (experiments/scale.py): the same players at the same
points in every game, a table placed above the expert without clipping, a table beyond the strongest
player said to be so, and a player placed at the same point by either game's games."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from experiments import scale
from experiments.cli import cli
from experiments.playtest import LabWinRate, LoggedGame, estimate_skill, table_skill
from policies.game import game, with_win_rates

IE, FI = game("island-escape"), game("forbidden-island")


def test_a_point_is_the_same_kind_of_player_in_every_game():
    for g in with_win_rates() + [game("survive-the-island")]:
        if g.skill_policy:  # a game without a skilled player has the search's points alone
            assert scale.player_at(g, 0.6) == g.player(None, 0.6) == "skilled@0.6"
            assert scale.player_at(g, 1.0) == "skilled@1"  # the expert, game for game
        assert [scale.player_at(g, x) for x in (2.0, 3.0, 4.0, 5.0)] == [
            "lookahead@1", "lookahead@2", "lookahead@4", "lookahead@8"]
        assert g.registry.rollout["lookahead"] == "expert"  # every search rolls out with its game's expert
        with pytest.raises(ValueError):
            scale.player_at(g, 2.5)  # between two budgets there is no player
    assert list(scale.grid(4)[-4:]) == [1.0, 2.0, 3.0, 4.0]
    assert scale.budgets(8) == [1, 2, 4, 8]
    with pytest.raises(ValueError):
        scale.budgets(3)
    assert scale.name_at(0.7) == "skill 0.70" and scale.name_at(1.0) == "the expert"
    assert scale.name_at(3.0) == "lookahead@2"
    assert scale.name_at(1.5) == "50% of the way from the expert to lookahead@1"


# --- the estimate on a known curve over the whole scale --------------------------------------------------


class KnownScale:
    """A made-up lab over the scale up to lookahead@4: the rate rises with the point, steeply up to the
    expert and by a few points a doubling above it; it records the points it is asked for."""

    grid = scale.grid(4)

    def __init__(self):
        self.asked: set[float] = set()

    def __call__(self, rules, x: float) -> float:
        self.asked.add(round(x, 4))
        base = 0.1 * (rules.players - 2)
        if x <= 1:
            return 0.35 / (1 + math.exp(-9 * (x - 0.75))) - base / 2
        return 0.34 - base / 2 + 0.1 * math.log2(2 * 2 ** (x - 2))


SETTINGS = (IE.rules(players=2), IE.rules(players=3))


def table_at(curve, x: float, games: int) -> list[tuple]:
    """Counts that win exactly what the curve says at `x` (interpolated as the estimate does)."""
    out = []
    for rules in SETTINGS:
        p = float(np.interp(x, curve.grid, [curve(rules, g) for g in curve.grid]))
        out.append((rules, games, round(games * p)))
    return out


def test_the_strongest_players_table_lands_at_the_top_and_the_experts_below_it():
    lab = KnownScale()
    top = scale.top_position(4)
    skill, (lo, hi), curves = estimate_skill(table_at(lab, top, 300), lab)
    assert skill == pytest.approx(top, abs=0.01) and hi == top and lo < top  # at the top, no narrow edge
    skill, (lo, hi), _ = estimate_skill(table_at(lab, 1.0, 300), lab)
    assert abs(skill - 1.0) < 0.05 and hi < top and lo < 1.0 < hi
    skill, (lo, hi), _ = estimate_skill(table_at(lab, 2.5, 400), lab)
    assert abs(skill - 2.5) < 0.05 and lo < 2.5 < hi


def test_search_points_are_measured_only_for_a_table_that_reaches_the_expert():
    lab = KnownScale()
    low, high = table_at(lab, 0.5, 300), table_at(lab, 0.99, 300)
    lab.asked.clear()
    skill, (lo, hi), curves = estimate_skill(low, lab)
    assert hi < 1.0 and max(lab.asked) <= 1.0
    assert all(len(c) == len(scale.SKILL_GRID) for c in curves.values())
    estimate_skill(high, lab)
    assert max(lab.asked) == scale.top_position(4)


def logged(counts) -> list[LoggedGame]:
    games = []
    for rules, n, w in counts:
        games += [LoggedGame("t", rules, "win" if i < w else "flood", f"row {i}") for i in range(n)]
    return games


def test_a_table_beyond_the_strongest_player_is_said_to_be_so():
    lab = KnownScale()
    beyond = logged([(rules, 200, 190) for rules in SETTINGS])  # 95%: far above lookahead@4's 54% and 44%
    est = table_skill(beyond, lab)
    assert est.beyond_strongest and est.skill == scale.top_position(4)
    assert est.place() == "beyond lookahead@4, the strongest player measured"
    at_top = logged(table_at(lab, scale.top_position(4), 200))
    est = table_skill(at_top, lab)
    assert not est.beyond_strongest and est.place() == "lookahead@4"
    # the skilled player's points alone (no search on the scale): the expert is the strongest
    alone = type("Alone", (), {"grid": scale.SKILL_GRID, "__call__": lambda self, r, x: lab(r, x)})()
    est = table_skill(beyond, alone)
    assert est.beyond_strongest and est.place() == "beyond the expert, the strongest player measured"


# --- real games: the lab's own players as tables -----------------------------------------------------------

HARD = IE.rules(players=3, cards_per_treasure=3)  # where the search's budgets tell apart (reports/strength.md)
LOG_GAMES = 300


def real_log(g, rules, player: str, seed: int) -> list[LoggedGame]:
    raw = g.run_games(rules, player, LOG_GAMES, seed)
    return [LoggedGame("t", rules, g.causes[r[0]], f"row {i}") for i, r in enumerate(raw)]


def test_logs_of_the_strongest_player_and_of_the_expert_are_placed_apart():
    """Real games on a scale reaching lookahead@2: the search's log lands at the top with an interval
    reaching it; the expert's below, its interval short of the top; a cheat's beyond."""
    lab = LabWinRate(1000, 7100, top=2, search_games=300)
    top = scale.top_position(2)
    est = table_skill(real_log(IE, HARD, "lookahead@2", 900), lab)
    assert est.ci[1] == top and est.skill > 2.0 and not est.beyond_strongest, (est.skill, est.ci)
    est = table_skill(real_log(IE, HARD, "expert", 901), lab)
    assert est.ci[1] < 2.0 and 0.9 < est.skill < 1.6, (est.skill, est.ci)
    est = table_skill(real_log(IE, HARD, "clairvoyant", 902), lab)
    assert est.beyond_strongest and est.skill == top


def test_calibrate_table_json_says_where_a_table_stands_and_when_beyond(tmp_path):
    log = tmp_path / "cheat.csv"
    raw = IE.run_games(HARD, "clairvoyant", LOG_GAMES, 903)
    log.write_text("players,cards_per_treasure,outcome\n" + "".join(f"3,3,{IE.causes[r[0]]}\n" for r in raw))
    args = ["calibrate", "--table", str(log), "--lab-games", "500", "--lab-budget", "1", "--lab-search-games", "200",
            "--screen-games", "100", "--confirm-games", "300", "--max-changes", "0", "--players", "2"]
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code == 0, result.output
    levels = json.loads(result.stdout)
    b = levels[0]["beyond_strongest"]
    assert b["player"] == "lookahead@1" and b["wins"] > b["expected_wins"] and b["games"] == LOG_GAMES
    assert levels[0]["skill"] == 2.0 and levels[0]["skill_ci"][1] == 2.0 and levels[0]["calibrated_above_expert"]
    assert all(lv["policy"] == "skilled@1" for lv in levels)  # the strongest player calibrate affords
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    said = [line for line in result.stdout.splitlines() if line.startswith("beyond the strongest player")]
    assert len(said) == 1 and "lookahead@1" in said[0], result.stdout


def test_a_player_is_placed_at_the_same_point_by_either_games_games():
    """The scales are matched by the players (docs/RULES-FI.md): a player's Island Escape games alone
    and its Forbidden Island games alone place it within 0.1 of each other below the expert."""
    lab = LabWinRate(1000, 7100, top=0)
    for skill in (0.85, 0.95):
        ie = table_skill(real_log(IE, IE.rules(players=2, cards_per_treasure=3), f"skilled@{skill}", 910)
                         + real_log(IE, HARD, f"skilled@{skill}", 911), lab)
        fi = table_skill(real_log(FI, FI.rules(players=2, difficulty="novice"), f"skilled@{skill}", 912)
                         + real_log(FI, FI.rules(players=3, difficulty="novice"), f"skilled@{skill}", 913), lab)
        assert abs(ie.skill - fi.skill) <= 0.1, (skill, ie.skill, fi.skill)
        assert ie.ci[0] <= fi.ci[1] and fi.ci[0] <= ie.ci[1], (skill, ie.ci, fi.ci)  # the intervals overlap


@pytest.mark.slow
def test_a_search_is_placed_within_one_doubling_by_either_games_games():
    """Above the expert the same search at the same budget is the same point in both games: its Island
    Escape games alone and its Forbidden Island games alone place lookahead@1 within one point (one
    doubling) of each other, their intervals overlapping."""
    lab = LabWinRate(1000, 7100, top=2, search_games=300)
    ie = table_skill(real_log(IE, HARD, "lookahead@1", 920), lab)
    fi = table_skill(real_log(FI, FI.rules(players=4, difficulty="normal"), "lookahead@1", 921)
                     + real_log(FI, FI.rules(players=2, difficulty="normal"), "lookahead@1", 922), lab)
    assert abs(ie.skill - fi.skill) <= 1.0, (ie.skill, fi.skill)
    assert ie.ci[0] <= fi.ci[1] and fi.ci[0] <= ie.ci[1], (ie.ci, fi.ci)



def test_the_scale_report_gives_every_points_rates_on_the_printed_levels(tmp_path):
    rows = scale.scale_rates(FI, players=[2, 4], levels=["novice", "elite"], games=200, search_games=10, top=2,
                             skills=(0.9, 1.0))
    assert [r["player"] for r in rows[::4]] == ["skilled@0.9", "skilled@1", "lookahead@1", "lookahead@2",
                                                "clairvoyant"]
    assert [r["position"] for r in rows[::4]] == [0.9, 1.0, 2.0, 3.0, None]  # the cheat is no point
    expert = scale.rates_at(rows, 1.0)
    assert expert[(2, "novice")] > expert[(2, "elite")] and expert[(2, "novice")] > expert[(4, "novice")]
    scale.write_report(FI, rows, 0, tmp_path)
    text = (tmp_path / "scale.md").read_text()
    assert text.count("| `skilled@1` (the expert) |") == 2 and "**4 players**" in text
    assert "2, 3 are the search at budget 1, 2" in text
    section = scale.report_section(tmp_path)
    assert section[0].startswith("## Where a table stands") and "| 3 | `lookahead@2` |" in "\n".join(section)
    assert "Not measured yet" in scale.report_section(tmp_path / "nothing")[2]


def test_a_first_game_is_the_point_that_wins_novice_about_40_percent():
    def row(x, players, rate):
        return {"position": x, "player": "p", "players": players, "level": "novice", "rate": rate}

    rows = [row(0.9, 2, 0.10), row(1.0, 2, 0.50), row(2.0, 2, 0.70), row(1.0, 4, 0.20), row(2.0, 4, 0.70),
            row(3.0, 4, 0.65), row(1.0, 3, 0.10), row(2.0, 3, 0.30), row(None, 2, 1.0)]
    assert scale.point_winning(rows, 2, "novice", 0.40) == pytest.approx(0.975)
    assert scale.point_winning(rows, 4, "novice", 0.40) == pytest.approx(1.4)  # the first crossing
    assert scale.point_winning(rows, 3, "novice", 0.40) is None
    lines = scale.first_game_lines(rows)
    assert "- with 2 players: skill 0.97" in lines and "- with 3 players: beyond lookahead@2" in lines
    assert "- with 4 players: 1.40 on the scale, 40% of the way from the expert to lookahead@1" in lines
