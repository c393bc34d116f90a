"""`island-escape compare`: two settings on the same games, checked against the paired interval
computed directly with experiments.sweep.paired_difference."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from experiments.compare import parse_rules_text
from experiments.sweep import paired_difference
from policies.runner import run_games
from sim.island_escape.rules import FULL_GAUGE, RuleError, Rules


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "experiments.cli", *args], capture_output=True, text=True)


def test_rules_text_words_options_and_variants():
    assert parse_rules_text("") == Rules()
    assert parse_rules_text("players=3 cards=3 divers") == Rules(players=3, cards_per_treasure=3, swim_cost=1)
    assert parse_rules_text("--players 3 --cards-per-treasure 3 --variant divers") == parse_rules_text(
        "players=3 cards=3 divers")
    spaced = parse_rules_text("players=4 gauge=AD 2C 2D, 3C; swim=1")
    assert spaced.gauge == ("AD", "2C", "2D", "3C") and spaced.swim_cost == 1 and spaced.players == 4
    assert parse_rules_text("gauge_length=8").gauge == FULL_GAUGE[1:]
    # an explicit word overrides the variant, whatever the order (as in simulate)
    assert parse_rules_text("cards=2 short").cards_per_treasure == 2
    assert parse_rules_text("short").cards_per_treasure == 1 and "AC" not in parse_rules_text("short").gauge


@pytest.mark.parametrize("text, message", [
    ("player=3", "'player' is not a rule"),
    ("players=3 4", "'4': expected key=value"),
    ("players=many", "players must be a whole number"),
    ("players=3 players=4", "given twice"),
    ("gauge=AC 6C", "'6C' is not a gauge card"),
    ("gauge=AC gauge_length=3", "not both"),
    ("cards=", "has no value"),
])
def test_rules_text_errors_name_the_word(text, message):
    with pytest.raises(RuleError, match=message):
        parse_rules_text(text)


def test_compare_equals_the_paired_interval_computed_directly():
    a = Rules(players=3, cards_per_treasure=3, swim_cost=1)
    b = Rules(players=3, cards_per_treasure=3)
    r = run("compare", "--a", "players=3 cards=3 divers", "--b", "players=3 cards=3", "--games", "1500",
            "--seed", "8", "--policy", "greedy", "--json")
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    won_a = run_games(a, "greedy", 1500, 8)[:, 0] == 0
    won_b = run_games(b, "greedy", 1500, 8)[:, 0] == 0
    direct = paired_difference(won_a, won_b)
    assert got["policy"] == "greedy" and got["rate_unit"] == "fraction of games"
    assert got["a"]["rules"] == a.as_record() and got["b"]["rules"] == b.as_record()
    assert got["a"]["wins"] == int(won_a.sum()) and got["b"]["wins"] == int(won_b.sum())
    assert got["difference"]["a_minus_b"] == pytest.approx(direct["difference"])
    assert got["difference"]["ci95"] == pytest.approx(list(direct["ci95"]))
    assert got["difference"]["unpaired_ci95"] == pytest.approx(list(direct["unpaired_ci95"]))
    # every rate is a fraction; losses and wins add up to all games
    for side in ("a", "b"):
        s = got[side]
        assert 0 <= s["win_rate"] <= 1 and s["win_rate"] + sum(s["loss_rates"].values()) == pytest.approx(1)


def test_compare_text_names_the_policy_and_sides():
    r = run("compare", "--a", "players=2", "--b", "players=2 gauge_length=7", "--games", "600",
            "--policy", "greedy")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("policy      greedy, seed 0, 600 games each")
    assert "paired 95% interval" in r.stdout and "lost: water" in r.stdout
    assert "verdict     A wins more often" in r.stdout


@pytest.mark.parametrize("args, message", [
    (["--a", "players=9", "--b", "players=2"], "--a 'players=9': rules.players must be"),
    (["--a", "players=2", "--b", "swim=fast"], "--b 'swim=fast': swim_cost must be a whole number"),
    (["--a", "", "--b", "", "--policy", "nobody"], "policy 'nobody'"),
])
def test_compare_bad_input_is_one_line(args, message):
    r = run("compare", *args)
    assert r.returncode == 2 and message in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert r.stdout == ""


def test_a_game_reads_its_own_words_and_refuses_another_games():
    from policies.game import game

    fi = game("forbidden-island")
    assert parse_rules_text("players=3 difficulty=elite", fi) == fi.rules(players=3, difficulty="elite")
    assert parse_rules_text("--players 4", fi) == fi.rules(players=4, difficulty="novice")
    with pytest.raises(fi.rule_error, match="'cards' is not a rule of Forbidden Island"):
        parse_rules_text("players=3 cards=3", fi)
    with pytest.raises(RuleError, match="'difficulty' is not a rule of Island Escape"):
        parse_rules_text("difficulty=elite")


def test_compare_plays_another_game_through_its_game_object():
    r = run("compare", "--game", "forbidden-island", "--a", "players=2 difficulty=novice", "--b",
            "players=2 difficulty=elite", "--games", "300", "--json")
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["game"] == "forbidden-island" and set(got["a"]["loss_rates"]) == {"water", "drowned", "treasure",
                                                                                  "fools_landing"}
    assert got["a"]["win_rate"] >= got["b"]["win_rate"]  # Elite starts the water higher (F4)
    bad = run("compare", "--game", "forbidden-island", "--a", "players=2 swim=1", "--b", "players=2")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Forbidden Island" in bad.stderr


def test_compare_gives_each_seat_of_a_competitive_game_its_paired_difference():
    """Survive the Island through the same command: each seat's win share in both settings, and
    seat by seat the paired difference computed directly from the seats' results."""
    from policies.game import game

    sti = game("survive-the-island")
    r = run("compare", "--game", "survive-the-island", "--a", "players=3", "--b", "players=3 sharks=2",
            "--games", "400", "--policy", "random", "--json")
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    shares = []
    for rules in (sti.rules(players=3), sti.rules(players=3, sharks=2)):
        shares.append(sti.seat_results(sti.run_games(rules, "random", 400, 0), rules)[0])
    assert [d["side"] for d in got["differences"]] == ["seat 1", "seat 2", "seat 3"] and "difference" not in got
    for k, d in enumerate(got["differences"]):
        direct = paired_difference(shares[0][:, k], shares[1][:, k])
        assert d["a_minus_b"] == pytest.approx(direct["difference"])
        assert d["ci95"] == pytest.approx(list(direct["ci95"]))
        assert got["a"]["seats"][k]["win_share"] == pytest.approx(shares[0][:, k].mean())
    assert sum(s["win_share"] for s in got["b"]["seats"]) == pytest.approx(1)
    text = run("compare", "--game", "survive-the-island", "--a", "players=3", "--b", "players=4", "--games", "200",
               "--policy", "random")
    assert text.returncode == 0, text.stderr
    assert "seat 4 win share" in text.stdout and "furthest from fair" in text.stdout and "ended: volcano" in text.stdout
    assert "different seats: no seat is compared game by game" in text.stdout
