"""The levels to print, anchored on Forbidden Island's playtested levels over the span of tables
from a first game to the search (experiments/calibrate.py `anchored_ladder`): the span, the rates
and gaps it reports, a player count's own rule, the study's resume and `calibrate --anchor`."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from click.testing import CliRunner

from experiments.cli import cli


def test_levels_anchored_on_forbidden_island_track_its_levels_over_the_span():
    """`calibrate --anchor forbidden-island`: the span starts where Forbidden Island's Novice is won
    40% of the time; per level, the rates are the chosen rule's on fresh games and the anchor's on
    the screening's, the gap over the span is what they say, and no other allowed rule came closer
    on the screened rates."""
    from experiments.calibrate import CONFIRM_SEED_OFFSET, FIRST_GAME_POINT, anchored_ladder, no_easier
    from experiments.scale import FIRST_GAME
    from policies.game import game
    from policies.island_escape.levels import ANCHOR_LEVELS

    fi, ie = game("forbidden-island"), game("island-escape")
    lad = anchored_ladder(fi, players=[2], games=300, screen_games=200, search_screen_games=20, knobs=("cards",),
                          seed=4)
    rows = lad.to_json()
    assert [r["level"] for r in rows] == ["easy", "normal", "hard"]
    span = lad.spans[2]
    novice = fi.rules(players=2, difficulty=FIRST_GAME[0])
    first = sum(w * float((fi.run_games(novice, p, 300, 4)[:, 0] == 0).mean()) for p, w in span.weights.items())
    assert span.reached and first == pytest.approx(FIRST_GAME[1])  # a first game wins Novice 40%
    assert span.who[-1] == "lookahead@1" and span.positions == sorted(span.positions)
    for row in rows:
        assert row["anchor"] == ANCHOR_LEVELS[row["level"]] and row["players"] == 2
        assert list(row["win_rates"]) == span.who  # weakest to strongest
        rules = ie.rules(**row["rules"])
        want = fi.rules(players=2, difficulty=row["anchor"])
        for player, rate in row["win_rates"].items():
            assert rate == float((ie.run_games(rules, player, 300, 4 + CONFIRM_SEED_OFFSET)[:, 0] == 0).mean())
            assert row["anchor_win_rates"][player] == float((fi.run_games(want, player, 300, 4)[:, 0] == 0).mean())
        gaps = {name: sum(w * (row["win_rates"][p] - row["anchor_win_rates"][p]) for p, w in weights.items())
                for name, weights in span.points()}
        assert list(gaps)[0] == FIRST_GAME_POINT and set(gaps) - {FIRST_GAME_POINT} <= set(span.who)
        assert row["largest_gap"] == pytest.approx(max(abs(g) for g in gaps.values()))
        assert abs(gaps[row["gap_at"]]) == pytest.approx(row["largest_gap"])
        lo, hi = row["gap_ci95"]
        assert lo < row["signed_gap"] < hi
        assert row["win_range"] == pytest.approx([sum(w * row["win_rates"][p] for p, w in span.weights.items()),
                                                  row["win_rates"][span.who[-1]]])
    cand = pd.DataFrame(lad.candidates)
    for level in lad.levels:  # no other allowed rule came closer on what the screening measured
        screened = cand[(cand.level == level.level) & (cand.stage != "confirm")]
        if level.harder_than_before:
            screened = screened[screened.no_easier]
        best = {}
        for cards, by_rule in screened.groupby("cards_per_treasure"):
            table = by_rule.pivot_table(index="gauge", columns="player", values="win_rate", aggfunc="first")
            table = table.dropna()
            for _, rates in table.iterrows():
                rung_rates = rates[span.who]
                anchor = level.rungs[2].anchor_rates
                gap = max(abs(sum(w * (rung_rates[p] - anchor[p]) for p, w in weights.items()))
                          for _, weights in span.points())
                best[cards] = min(best.get(cards, 1.0), gap)
        assert min(best.values()) == pytest.approx(best[level.rule.cards_per_treasure])
    for before, level in zip(lad.levels, lad.levels[1:], strict=False):  # never easier than the level before
        if level.harder_than_before:
            assert level.rule_of(2).cards_per_treasure != before.rule_of(2).cards_per_treasure
    assert [r["harder_than_before"] for r in rows] == [lv.harder_than_before for lv in lad.levels]
    assert no_easier(0.012, 0.01, 1000) and not no_easier(0.3, 0.2, 1000)  # noise only where both are rare


def test_a_study_interrupted_resumes_from_the_measures_it_kept(tmp_path, monkeypatch):
    """`keep_measures`: every win rate is written as it is measured; a later run of the same code
    reads it back instead of playing the games again, a cut-short last line is skipped, and another
    code's measures are not taken."""
    import experiments.calibrate as cal
    from policies.game import game

    ie = game("island-escape")
    rules = ie.rules(players=3)
    path = tmp_path / "measured.jsonl"
    monkeypatch.setattr(cal, "_measured", {})
    try:
        assert cal.keep_measures(path) == 0
        first = cal.measure(rules, "greedy", 200, 3)
        path.write_text(path.read_text() + '{"code": "')  # an interruption in the middle of a line
        monkeypatch.setattr(cal, "_measured", {})
        assert cal.keep_measures(path) == 1
        monkeypatch.setattr(type(ie), "run_games", lambda *a, **k: pytest.fail("played again"))
        assert cal.measure(rules, "greedy", 200, 3) == first
        monkeypatch.setattr("sim.source_digest", lambda: "another code")
        assert cal.keep_measures(path) == 0
    finally:
        cal.keep_measures(None)


def test_calibrate_anchor_prints_the_span_interface():
    """`calibrate --anchor forbidden-island --json`: per level, rates keyed by the span's players
    weakest first, the games behind them, the largest gap and where; the text form names a level
    that another rule brings closer at one player count."""
    args = ["calibrate", "--anchor", "forbidden-island", "--players", "2", "--knobs", "cards",
            "--screen-games", "60", "--confirm-games", "100", "--seed", "3"]
    out = CliRunner().invoke(cli, [*args, "--json"])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.stdout.strip().splitlines()[-1])
    assert [r["level"] for r in rows] == ["easy", "normal", "hard"]
    for r in rows:
        who = r["span"]["players_measured"]
        assert list(r["win_rates"]) == who == list(r["anchor_win_rates"]) and who[-1] == "lookahead@1"
        assert r["games"] == 100 and r["gap_at"] in ("a first game", *who)
        assert r["largest_gap"] == pytest.approx(abs(r["signed_gap"]))
    text = CliRunner().invoke(cli, args)
    assert text.exit_code == 0 and "wins over the span" in text.stdout
    for r in rows:
        assert f"{100 * r['signed_gap']:>+10.1f}%" in text.stdout
        if r["own_rule"]:
            assert f"{r['level']} for 2 players has a rule of its own" in text.stdout


def test_a_player_count_takes_its_own_rule_only_where_it_is_clearly_closer():
    """Where the level's rule misses its anchor at one player count and another rule comes closer
    there by more than the goal on the same fresh games, that count plays the other rule: its
    rates are that rule's on those games, the level rule's own gap there is what they say, and it
    stays no easier than the level before for every player of the span."""
    from experiments.calibrate import ANCHOR_GOAL, CONFIRM_SEED_OFFSET, anchored_ladder, no_easier
    from policies.game import game

    fi, ie = game("forbidden-island"), game("island-escape")
    lad = anchored_ladder(fi, players=[2, 3, 4], games=100, screen_games=60, search_screen_games=10,
                          knobs=("cards",), seed=1)
    own = [(i, p) for i, lv in enumerate(lad.levels) for p, r in lv.rungs.items() if r.rule is not None]
    assert own  # this setting has such counts
    for i, p in own:
        lv = lad.levels[i]
        r = lv.rungs[p]
        assert r.rule != lv.rule
        for rule, rates in ((r.rule, r.rates), (lv.rule, None)):
            played = {w: float((ie.run_games(rule.setting(r.gauge).rules(p), w, 100, 1 + CONFIRM_SEED_OFFSET)[:, 0]
                                == 0).mean()) for w in r.span.who}
            if rates is not None:
                assert played == rates
            else:  # the level's own rule there: further from the anchor by more than the goal
                shared = max(abs(sum(k * (played[w] - r.anchor_rates[w]) for w, k in weights.items()))
                             for _, weights in r.span.points())
                assert shared == pytest.approx(abs(r.shared_gap[0]))
                assert abs(r.largest_gap[0]) < shared - ANCHOR_GOAL
        if i and lv.harder_than_before:
            before = lad.levels[i - 1].rungs[p].rates
            assert all(no_easier(r.rates[w], before[w], 100) for w in r.rates)


def test_an_own_rule_must_be_clearly_closer_and_stay_harder_than_the_level_before():
    from experiments.calibrate import ANCHOR_GOAL, AnchoredRung, Span, takes_own_rule

    span = Span(3, 1.5, [1.0, 2.0], ["skilled@1", "lookahead@1"])
    anchor = {"skilled@1": 0.2, "lookahead@1": 0.6}

    def own(expert, search):
        return AnchoredRung(3, ("AC",), span, {"skilled@1": expert, "lookahead@1": search}, anchor)

    close = own(0.2, 0.58)  # largest gap 2 points
    assert takes_own_rule(close, -0.30, None, 2000)
    assert not takes_own_rule(close, -(0.015 + ANCHOR_GOAL), None, 2000)  # closer, but not by more than the goal
    assert takes_own_rule(close, -(0.03 + ANCHOR_GOAL), {"skilled@1": 0.5, "lookahead@1": 0.9}, 2000)
    assert not takes_own_rule(close, -0.30, {"skilled@1": 0.5, "lookahead@1": 0.5}, 2000)  # easier than before


def test_calibrate_anchor_takes_the_span_end_from_lab_budget():
    base = ["calibrate", "--anchor", "forbidden-island", "--players", "2", "--knobs", "cards",
            "--screen-games", "60", "--confirm-games", "100", "--seed", "3", "--json"]
    out = CliRunner().invoke(cli, [*base, "--lab-budget", "2"])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.stdout.strip().splitlines()[-1])
    assert all(r["span"]["players_measured"][-1] == "lookahead@2" for r in rows)
    refused = CliRunner().invoke(cli, [*base, "--lab-budget", "0"])
    assert refused.exit_code == 2 and "--lab-budget: with --anchor the span ends at a search" in refused.output
    other = CliRunner().invoke(cli, [*base, "--lab-games", "500"])
    assert other.exit_code == 2 and "--lab-games goes with --table only" in other.output
