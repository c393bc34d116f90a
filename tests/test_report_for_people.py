"""The difficulty report on a tiny study: it leads with the levels anchored on Forbidden Island's
playtested ladder, its anchored rows follow from its own tables, and the card and the rulebook
sentences say what a table lays out."""

from __future__ import annotations

import json
import re

import matplotlib.image as mpimg
import pandas as pd
import pytest

from experiments.calibrate import CONFIRM_SEED_OFFSET, FIRST_GAME_POINT, AnchoredRung, Span, no_easier
from policies.island_escape.levels import ANCHOR_LEVELS, changed_sentences
from policies.island_escape.levels import adjustment_key as gauge_key
from sim.island_escape.rules import FULL_GAUGE, Rules, floods_per_turn

FIELDS = {"players", "level", "band", "policy", "rules", "win_rate", "ci95", "games"}
ANCHORED_FIELDS = {"players", "level", "anchor", "rules", "largest_gap", "signed_gap", "gap_ci95", "gap_at",
                   "win_range", "span", "first_game_rate", "anchor_first_game_rate", "keeps_to_anchor", "win_rates",
                   "anchor_win_rates", "games", "seed", "anchor_seed"}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    from experiments.report import build_report

    tmp = tmp_path_factory.mktemp("report")
    sweep = tmp / "sweep.toml"
    sweep.write_text('games = 100\nseed = 1\n[grid]\nplayers = [2, 3]\ngauge_length = [8, 9]\n'
                     'cards_per_treasure = [1, 2]\npolicy = "greedy"\n')
    study = tmp / "study.toml"
    study.write_text(f'sweep = "{sweep}"\npolicy = "greedy"\nseed = 5\n'
                     '[calibrate]\nplayers = [1, 2, 3]\nscreen_games = 100\nconfirm_games = 300\nmax_changes = 1\n'
                     'other_games = 100\nvalidate_games = 300\nknobs = "gauge"\n'
                     '[rulebook]\ngames = 300\npolicies = ["greedy"]\n'
                     '[anchor]\ngame = "forbidden-island"\ngames = 60\nscreen_games = 40\n'
                     'search_screen_games = 10\n')
    recs = build_report(str(study), tmp / "reports", out_dir=tmp / "out", echo=lambda s: None)
    return {"recs": recs, "reports": tmp / "reports", "out": tmp / "out",
            "md": (tmp / "reports" / "difficulty.md").read_text(),
            "anchored": json.loads((tmp / "reports" / "difficulty-anchored.json").read_text()),
            "candidates": pd.read_parquet(tmp / "out" / "anchored-candidates.parquet")}


def test_the_report_leads_with_the_levels_to_print(tiny):
    md = tiny["md"]
    assert md.startswith("# Island Escape")
    order = ["## The levels to print", "### What the rulebook says at each level", "### Levels for your own table",
             "## The printed rules", "## For one near-perfect player", "### The rulebook-ready ladder for the expert",
             "### Fewest changes", "## The rulebook's numbers"]
    assert [md.index(h) for h in order] == sorted(md.index(h) for h in order)
    lead = md[:md.index("## The printed rules")]
    assert "Print these levels" in lead and "not for print" in lead  # which ladder to use, and why
    assert "![the difficulty card](difficulty-card.png)" in lead
    assert json.loads((tiny["reports"] / "difficulty.json").read_text()) == tiny["recs"]
    for r in tiny["recs"]:
        assert FIELDS <= set(r)
    for png in (tiny["reports"] / "figures").glob("*.png"):
        assert png.stat().st_size > 5_000


def test_the_printed_rules_headline_matches_its_table(tiny):
    md = tiny["md"]
    head = re.findall(r"- \*\*(1 or 2 players|3 players|4 players)\*\*: the printed rules win ([\d.]+%) of games "
                      r"for `greedy` \(([\d.]+-[\d.]+%)\)", md)
    table = dict(re.findall(r"^\| (1-2|3|4) \| ([\d.]+% \([\d.]+-[\d.]+%\)) \| 300 \|", md, re.M))
    assert [h[0] for h in head] == ["1 or 2 players", "3 players", "4 players"]
    for count, rate, ci in head:
        assert table[{"1 or 2 players": "1-2", "3 players": "3", "4 players": "4"}[count]] == f"{rate} ({ci})"
    from experiments.rulebook import check

    direct = check(["greedy"], games=300, seed=5)["players"]["greedy"]
    assert head[1][1] == f"{100 * direct[3]['win_rate']:.1f}%"
    assert not re.search(r"^\| 1 \|", md, re.M) and "| 1-2 |" in md


def _span(row: dict) -> Span:
    s = row["span"]
    return Span(s["players"], s["first_game"], s["positions"], s["players_measured"], s["reached"])


def _gap_over_span(span: Span, rates: dict, anchor: dict) -> float:
    return max(abs(sum(w * (rates[p] - anchor[p]) for p, w in weights.items())) for _, weights in span.points())


def test_anchored_rows_are_recomputed_from_the_reports_tables(tiny):
    """Every anchored row follows from the rates the search measured (out/.../anchored-candidates):
    its level rule and gauges are the smallest largest gap over the span on the screened rates, its
    rates are the confirmation's, its gap, interval and range are those rates', and the Markdown
    shows exactly those numbers."""
    rows, cand = tiny["anchored"], tiny["candidates"]
    assert [(r["level"], r["players"]) for r in rows] == [(lv, p) for lv in ANCHOR_LEVELS for p in (1, 2, 3)]
    spans = {max(2, r["players"]): _span(r) for r in rows}
    for r in rows:
        assert ANCHORED_FIELDS <= set(r) and list(r["win_rates"]) == spans[max(2, r["players"])].who
        assert r["seed"] == r["anchor_seed"] + CONFIRM_SEED_OFFSET and r["games"] == 60
    before = {}  # the level before's confirmed rates and setting, per player group
    for level in ANCHOR_LEVELS:
        part = cand[(cand.level == level) & (cand.stage != "confirm")]
        mine = [r for r in rows if r["level"] == level]
        for (sim, gauge, cards, divers), by_gauge in part[part.stage == "screen"].groupby(
                ["players", "gauge", "cards_per_treasure", "divers"]):
            if sim in before and by_gauge.no_easier.all():  # allowed: harder than the level before for all
                rates, setting = before[sim]
                assert setting != (gauge, cards, divers)
                assert all(no_easier(x.win_rate, rates[x.player], 40) for x in by_gauge.itertuples()
                           if x.player in rates)
        anchor = {max(2, r["players"]): r["anchor_win_rates"] for r in mine}
        picks = {}
        for (cards, divers), by_rule in part.groupby(["cards_per_treasure", "divers"]):
            chosen = {}
            for sim, by_sim in by_rule.groupby("players"):
                allowed = by_sim[by_sim.no_easier] if mine[0]["harder_than_before"] else by_sim
                table = allowed.pivot_table(index="gauge", columns="player", values="win_rate", aggfunc="first")
                table = table[spans[sim].who].dropna()  # the gauges every player of the span played
                if table.empty:
                    continue
                gaps = {g: _gap_over_span(spans[sim], table.loc[g].to_dict(), anchor[sim]) for g in table.index}
                chosen[sim] = min(gaps, key=lambda g: (gaps[g], gauge_key(g.split())))
                chosen[sim] = (chosen[sim], gaps[chosen[sim]])
            if len(chosen) == len(spans):
                picks[(cards, divers)] = ((round(max(v for _, v in chosen.values()), 3),
                                           abs(cards - 2) + int(divers)), chosen)
        (cards, divers), (_, chosen) = min(picks.items(), key=lambda kv: kv[1][0])
        for r in mine:
            sim = max(2, r["players"])  # R5: solo plays the two-player games
            confirmed = cand[(cand.level == level) & (cand.stage == "confirm") & (cand.players == sim)]
            assert set(confirmed.gauge) == {chosen[sim][0]}  # the level's rule, replayed on fresh games
            shared = confirmed.set_index("player").win_rate.to_dict()
            if not r["own_rule"]:
                assert r["rules"]["gauge"] == chosen[sim][0].split() and r["rules"]["cards_per_treasure"] == cards
                assert (r["rules"]["swim_cost"] == 1) == divers
                assert shared == r["win_rates"] and r["shared_rule_gap"] is None
                continue
            # a rule of this count's own: played on the same fresh games, closer by more than the goal
            own = cand[(cand.level == level) & (cand.stage == "own rule") & (cand.players == sim)]
            assert own.set_index("player").win_rate.to_dict() == r["win_rates"]
            assert (own.cards_per_treasure.iloc[0], own.divers.iloc[0]) != (cards, divers)
            assert r["rules"]["gauge"] == own.gauge.iloc[0].split()
            assert abs(r["shared_rule_gap"]) == pytest.approx(_gap_over_span(spans[sim], shared, r["anchor_win_rates"]))
            assert r["largest_gap"] < abs(r["shared_rule_gap"]) - 0.05
        before = {max(2, r["players"]): (r["win_rates"], (" ".join(r["rules"]["gauge"]),
                                                          r["rules"]["cards_per_treasure"],
                                                          r["rules"]["swim_cost"] == 1)) for r in mine}
    md = tiny["md"]
    for r in rows:
        span = _span(r)
        rung = AnchoredRung(r["players"], tuple(r["rules"]["gauge"]), span, r["win_rates"], r["anchor_win_rates"],
                            dict.fromkeys(r["win_rates"], 60), dict.fromkeys(r["win_rates"], 60))
        gap, at = rung.largest_gap
        assert r["signed_gap"] == pytest.approx(gap) and r["gap_at"] == at
        assert r["largest_gap"] == pytest.approx(_gap_over_span(span, r["win_rates"], r["anchor_win_rates"]))
        assert r["gap_ci95"] == pytest.approx(list(rung.gap_interval(at)))
        assert r["win_range"] == pytest.approx(list(rung.win_range))
        assert r["keeps_to_anchor"] == (r["largest_gap"] <= 0.05)
        if r["players"] == 1:
            continue  # shown once, as 1-2
        label = "1-2" if r["players"] == 2 else str(r["players"])
        line = next(line for line in md.splitlines()
                    if line.startswith(f"| {r['level'].capitalize()} ({r['anchor'].capitalize()}) | {label} |"))
        first = f"{100 * r['first_game_rate']:.0f}% / {100 * r['anchor_first_game_rate']:.0f}%"
        assert first in line and f"{100 * r['signed_gap']:+.1f} points" in line
        lo, hi = r["win_range"]
        assert f"wins {100 * lo:.0f}-{100 * hi:.0f}%" in md
    names = [FIRST_GAME_POINT, *spans[2].who]
    assert all(r["gap_at"] in names for r in rows)


def test_the_report_names_first_what_the_designer_must_know(tiny):
    md = tiny["md"]
    head = md[:md.index("## The levels to print")]
    assert "**Before you print:**" in head
    missing = [r for r in tiny["anchored"] if not r["keeps_to_anchor"] and r["players"] != 1]
    for r in missing:  # every cell that leaves its anchor is named there, with its gap
        assert f"{100 * r['signed_gap']:+.1f} points" in head
    if not missing:
        assert "Every level keeps within" in head


def test_the_card_is_drawn_from_the_anchored_levels(tiny):
    png = tiny["reports"] / "difficulty-card.png"
    img = mpimg.imread(png)
    assert img.shape[0] > 600 and img.shape[1] > 600 and img[..., :3].std() > 0.05
    assert (tiny["reports"] / "difficulty-card.pdf").stat().st_size > 5_000


def test_the_card_speaks_to_players(tmp_path, monkeypatch):
    """The card's words: its audience, marks that match what is drawn, no lab words, a star
    only on a level that leaves its anchor, ranges from a first game to a seasoned group."""
    import matplotlib.axes

    from experiments.calibrate import AnchoredLadder, AnchoredLevel
    from experiments.card import difficulty_card
    from policies.island_escape.levels import LevelRule

    texts = []
    original = matplotlib.axes.Axes.text
    monkeypatch.setattr(matplotlib.axes.Axes, "text",
                        lambda self, x, y, s, *a, **k: texts.append(str(s)) or original(self, x, y, s, *a, **k))
    span = Span(2, 1.5, [1.0, 2.0], ["skilled@1", "lookahead@1"])
    rates = {"skilled@1": 0.05, "lookahead@1": 0.6}
    games = dict.fromkeys(rates, 2000)

    def rung(p, gauge, anchor):
        return AnchoredRung(p, gauge, span, rates, anchor, games, games)
    near, far = dict(rates), {"skilled@1": 0.05, "lookahead@1": 0.8}
    levels = [AnchoredLevel("easy", "novice", LevelRule(2, True), {2: rung(2, FULL_GAUGE + ("5D",), near),
                                                                     3: rung(3, FULL_GAUGE, near)}),
              AnchoredLevel("hard", "elite", LevelRule(3), {2: rung(2, FULL_GAUGE[1:], far),
                                                              3: rung(3, FULL_GAUGE[2:], near)})]
    levels[1].rungs[3].rule = LevelRule(2)  # a player count with a rule of its own
    import policies.island_escape.levels as design

    difficulty_card(AnchoredLadder("forbidden-island", levels, 2000, 1000, 300, 1, {2: span}, design=design),
                    tmp_path / "card.png")
    words = "\n".join(texts)
    assert "For every table" in words and "Forbidden Island" in words
    assert "triangle" in words and "dot" in words and "cross" in words  # the three marks drawn
    for lab in ("R5", "judge", "policy", "expert", "lookahead", "skill"):
        assert lab not in words, lab
    assert "first game" in words and "seasoned group" in words
    assert "With 3 players: the printed rules instead." in " ".join(words.split())  # however it wraps
    # the first game reads halfway between the two points: (0.05 + 0.6) / 2; only the far level is starred
    assert texts.count("32-60%*") == 1 and texts.count("32-60%") == 3
    assert "5♦" in words and "sinks" in words  # a gauge with 5♦ says when the island sinks


def test_the_rulebook_sentences_each_level_changes():
    assert changed_sentences(Rules(players=3)) == []
    longer = " ".join(changed_sentences(Rules(gauge=FULL_GAUGE + ("5D",))))
    assert "5♦ at the bottom" in longer and "A♣ on top" in longer
    assert "last card, 5♦ (not 5♣)" in longer
    turns = len(floods_per_turn(FULL_GAUGE + ("5D",)))
    assert f"50 floods, which is {turns} turns and {4 * turns} actions" in longer
    cut = " ".join(changed_sentences(Rules(gauge=FULL_GAUGE[2:])))
    assert "starts at level 2" in cut and "(not" not in cut  # the same last card: the end is unchanged
    assert f"take off by turn {len(floods_per_turn(FULL_GAUGE[2:]))}" in cut
    raise3 = " ".join(changed_sentences(Rules(cards_per_treasure=3, swim_cost=1)))
    assert "discard 3 salvaged cards" in raise3 and "any 4 salvaged cards" in raise3
    assert "costs 1 action (the Divers variant)" in raise3 and "Set-up" not in raise3


def test_the_play_page_offers_the_levels_to_print(tiny):
    from experiments.play.server import load_levels

    levels = load_levels(tiny["reports"] / "difficulty-anchored.json")
    for r in tiny["anchored"]:
        shown = levels[r["players"]][r["level"]]
        assert shown["rules"] == r["rules"] and shown["win_rate"] == r["win_rates"]["skilled@1"]
        assert r["gauge_change"] in shown["change"] or r["gauge_change"] == "the printed gauge"


def test_the_committed_levels_each_have_their_own_range():
    """The committed report's levels for people: at each player count no two levels share a range
    on the card, a harder level wins less at both ends of the span, and the report's first lines
    name every cell that leaves its anchor."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "reports"
    rows = json.loads((root / "difficulty-anchored.json").read_text())
    by_players: dict[int, list[dict]] = {}
    for r in rows:
        by_players.setdefault(r["players"], []).append(r)
    for levels in by_players.values():
        assert [r["level"] for r in levels] == list(ANCHOR_LEVELS)
        shown = [f"{100 * r['win_range'][0]:.0f}-{100 * r['win_range'][1]:.0f}%" for r in levels]
        assert len(set(shown)) == len(shown), shown
        for easier, harder in zip(levels, levels[1:], strict=False):
            assert harder["win_range"][0] < easier["win_range"][0] and harder["win_range"][1] < easier["win_range"][1]
    md = (root / "difficulty.md").read_text()
    head = md[:md.index("## The levels to print")]
    for r in rows:
        if not r["keeps_to_anchor"] and r["players"] != 1:
            assert f"{100 * r['signed_gap']:+.1f} points" in head
        if r["own_rule"]:  # a count's own rule: clearly closer than the level's, and said first
            assert r["level_rule"] != r["shared_rule"] and r["largest_gap"] < abs(r["shared_rule_gap"]) - 0.05
            assert f"{100 * r['shared_rule_gap']:+.1f} points there" in head


def test_stronger_tables_are_read_from_the_strength_curves(tmp_path):
    """Beyond the span's end: each game's gain over lookahead@1 at the largest budget every curve
    reaches, and the difference of the means, which way it moves the levels."""
    from experiments.report import strength_shift

    def curve(*rates):
        names = ["expert", "lookahead@1", "lookahead@2", "lookahead@4"]
        return {"points": [{"player": n, "rate": r} for n, r in zip(names, rates, strict=False)]}

    (tmp_path / "strength.json").write_text(json.dumps({
        "Island Escape": {"a": curve(0.5, 0.6, 0.7, 0.75), "b": curve(0.2, 0.3, 0.34)},
        "Forbidden Island": {"c": curve(0.3, 0.5, 0.52, 0.6)}}))
    text = " ".join(strength_shift(tmp_path, "Island Escape", "Forbidden Island", "lookahead@1"))
    assert "At `lookahead@2`" in text and "+10.0 (a), +4.0 (b)" in text and "+2.0 (c)" in text
    assert "about 5 points more" in text  # (10 + 4) / 2 - 2
    assert "`lookahead@4` +15.0 (a)" in text
    assert "not measured yet" in " ".join(strength_shift(tmp_path / "none", "Island Escape", "Forbidden Island",
                                                         "lookahead@1"))
