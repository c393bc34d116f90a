"""The one search's budget (`lookahead@N`, policies/search.py) in every game: a player spec that
names it, a search that spends it, and strength that rises with it on the same games.

The fast checks play Island Escape, whose search is cheap; every game's rise is `slow`.
"""

from __future__ import annotations

import numpy as np
import pytest

from experiments.strength import budget_curve, curve_sentence, report_section, write_report
from experiments.sweep import paired_difference
from policies import search as S
from policies.game import every_game, game
from policies.registry import UnknownPolicy

NAMES = [g.name for g in every_game() if g.search_policies()]  # the games with a search to budget
# per game: a setting where the search has room to gain, and how a result row says "won" for the
# searching seat (a cooperative game's team win; Survive the Island: seat 0's share of the win)
HARD = {"island-escape": {"players": 3, "cards_per_treasure": 3},
        "forbidden-island": {"players": 2, "difficulty": "normal"},
        "survive-the-island": {"players": 2}}


def _won(name: str, player: str, games: int, seed: int) -> np.ndarray:
    g = game(name)
    rules = g.rules(**HARD[name])
    if g.registry.seat_table:  # one searching seat among experts
        player = ",".join([player] + ["expert"] * (rules.players - 1))
    return g.seat_outcome(g.run_games(rules, player, games, seed=seed), rules, 0)


@pytest.mark.parametrize("name", NAMES)
def test_a_budget_names_the_search_at_that_budget(name):
    reg = game(name).registry
    assert reg.takes_budget("lookahead") and not reg.takes_budget("expert")
    pp = reg.default_params("lookahead@3")
    assert pp[S.K_SCALE] == 3.0
    base = reg.default_params("lookahead")
    assert base[S.K_SCALE] == 0.0 and np.array_equal(np.delete(pp, S.K_SCALE), np.delete(base, S.K_SCALE))
    assert reg.with_budget("lookahead", 8) == "lookahead@8"
    for bad in ("lookahead@0", "lookahead@1.5", "lookahead@x", "expert@2"):
        with pytest.raises(UnknownPolicy):
            reg.default_params(bad)


def test_budget_one_is_the_search_itself_and_a_larger_one_plays_differently():
    g = game("island-escape")
    rules = g.rules(**HARD["island-escape"])
    one, plain, four = (g.run_games(rules, p, 40, seed=3) for p in ("lookahead@1", "lookahead", "lookahead@4"))
    assert np.array_equal(one, plain)
    assert not np.array_equal(four, plain)


def test_island_escapes_search_gains_with_budget_on_the_same_games():
    """Budget 4 against budget 1 on the hard setting, paired: a clear gain (measured about 14
    points on 2,000 games)."""
    d = paired_difference(_won("island-escape", "lookahead@4", 300, 21), _won("island-escape", "lookahead", 300, 21))
    assert d["ci95"][0] > 0.0, d


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_every_games_search_is_not_weaker_at_a_larger_budget(name):
    """Budget 4 against budget 1, paired on the same deals: never significantly worse, and at
    least as good on average."""
    d = paired_difference(_won(name, "lookahead@4", 400, 22), _won(name, "lookahead", 400, 22))
    assert d["ci95"][1] >= 0.0 and d["difference"] >= -0.01, d


# --- the strength command ------------------------------------------------------------------------


def test_a_budget_curve_is_paired_and_says_where_it_stands():
    g = game("island-escape")
    rules = g.rules(**HARD["island-escape"])
    seen = []
    curve = budget_curve(g, rules, games=80, seed=5, max_budget=2, stop_gain=-1.0, on_point=seen.append)
    points = curve["points"]
    assert [p["player"] for p in points] == ["expert", "lookahead@1", "lookahead@2"] == [p.player for p in seen]
    won = [g.seat_outcome(g.run_games(rules, p["player"], 80, seed=5), rules, 0) for p in points]
    for before, after, point in zip(won, won[1:], points[1:], strict=False):
        assert point["gain"] == pytest.approx(after.mean() - before.mean())
        assert point["gain_ci95"] == pytest.approx(paired_difference(after, before)["ci95"])
    assert curve["verdict"] == "budget cap"  # no gain is under -100 points
    assert curve_sentence(curve).startswith("has not flattened at budget 2 (the largest budget asked for)")
    flat = budget_curve(g, rules, games=80, seed=5, max_budget=8, stop_gain=1.0)  # every gain is under 100
    assert flat["verdict"] == "flattened" and len(flat["points"]) == 3
    assert curve_sentence(flat).startswith("flattens by budget 2")


def test_the_strength_command_writes_its_report_and_refuses_a_bad_folder(tmp_path):
    import subprocess
    import sys

    def run(*args):
        return subprocess.run([sys.executable, "-m", "experiments.cli", "strength", *args], capture_output=True,
                              text=True)

    out = tmp_path / "reports"
    r = run("--game", "island-escape", "--games", "20", "--max-budget", "1", "--out", str(out))
    assert r.returncode == 0, r.stderr
    text = (out / "strength.md").read_text()
    assert "## Island Escape" in text and "| `lookahead@1` |" in text and "| `expert` |" in text
    assert text.count("### ") == 2  # two settings
    blocker = tmp_path / "file"
    blocker.write_text("")
    bad = run("--game", "island-escape", "--out", str(blocker / "x"))
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


def test_the_report_quotes_the_curves_or_says_how_to_measure_them(tmp_path):
    assert "make strength" in "\n".join(report_section(tmp_path))
    curve = {"points": [
        {"player": "expert", "budget": 0, "games": 10, "rate": 0.2, "ci95": [0.1, 0.3], "gain": None,
         "gain_ci95": None, "games_per_second": 900.0, "seconds": 0.01},
        {"player": "lookahead@1", "budget": 1, "games": 10, "rate": 0.5, "ci95": [0.4, 0.6], "gain": 0.3,
         "gain_ci95": [0.1, 0.5], "games_per_second": 90.0, "seconds": 0.1}],
        "verdict": "time cap", "last_gain": 0.3, "last_gain_ci95": [0.1, 0.5], "stop_gain": 0.02}
    write_report({"Island Escape": {"2 players": curve}}, tmp_path)
    text = "\n".join(report_section(tmp_path))
    assert ("- Island Escape, 2 players: `expert` 20.0%, best `lookahead@1` 50.0% at 90.0 games/s; the search "
            "has not flattened at budget 1 (the time cap): that doubling still gained +30.0 points (95% +10.0 "
            "to +50.0).") in text
