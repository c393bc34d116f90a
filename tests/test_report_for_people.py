"""The difficulty report on a tiny study: it leads with the levels anchored on Forbidden Island's
playtested ladder, its anchored rows follow from its own tables, and the card and the rulebook
sentences say what a table lays out."""

from __future__ import annotations

import json
import re

import matplotlib.image as mpimg
import numpy as np
import pandas as pd
import pytest

from experiments.calibrate import (
    ANCHOR_SEARCH,
    LIKE_WITHIN,
    AnchoredRung,
    likeness_bands,
)
from policies.island_escape.levels import ANCHOR_LEVELS, changed_sentences
from policies.island_escape.levels import adjustment_key as gauge_key
from sim.island_escape.rules import FULL_GAUGE, Rules, floods_per_turn

FIELDS = {"players", "level", "band", "policy", "rules", "win_rate", "ci95", "games"}
ANCHORED_FIELDS = {"players", "level", "anchor", "rules", "largest_gap", "signed_gap", "gap_at", "win_range",
                   "like_bands", "leaves_band_at", "win_rates", "anchor_win_rates"}


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
                     '[anchor]\ngame = "forbidden-island"\ngames = 40\nsearch_games = 10\n')
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


def test_anchored_rows_are_recomputed_from_the_reports_tables(tiny):
    """Every anchored row follows from the rates the search measured (out/.../anchored-candidates):
    its gauge and level rule are the smallest largest gap, its gap, range and band verdict are its
    rates', and the Markdown shows exactly those numbers."""
    rows, cand = tiny["anchored"], tiny["candidates"]
    assert [(r["level"], r["players"]) for r in rows] == [(lv, p) for lv in ANCHOR_LEVELS for p in (1, 2, 3)]
    skills = sorted({w for w in cand.player if w != ANCHOR_SEARCH})
    sims = sorted({max(2, r["players"]) for r in rows})
    easier = {}  # the level before's rates on the skill grid, per player group
    previous = (None, {})  # the level before's rule and gauges
    for level in ANCHOR_LEVELS:
        part = cand[cand.level == level]
        picks = {}
        for (cards, divers), by_rule in part.groupby(["cards_per_treasure", "divers"]):
            chosen = {}
            for sim, by_sim in by_rule.groupby("players"):
                table = by_sim.pivot_table(index="gauge", columns="player", values="win_rate", aggfunc="first")
                anchor = by_sim.pivot_table(index="gauge", columns="player", values="anchor_win_rate",
                                            aggfunc="first")
                gap = (table - anchor).abs()
                if easier:  # no more often than the level before, but within noise where both are rare
                    before = pd.Series(easier[sim])[skills]
                    rate = table[skills]
                    margin = 1.96 * np.sqrt((rate * (1 - rate) + before * (1 - before)) / 40)
                    rare = (rate < LIKE_WITHIN) & (before < LIKE_WITHIN) & (rate <= before + margin)
                    no_easier = ((rate <= before) | rare).all(axis=1)
                    if (cards, divers) == previous[0]:  # never the level before's own setting
                        no_easier[previous[1][sim]] = False
                else:
                    no_easier = pd.Series(True, index=table.index)
                flags = by_sim.groupby("gauge").no_easier.first()
                assert (flags == no_easier.loc[flags.index]).all()  # the table's flag is the rates' verdict
                # the search played exactly the three such gauges closest on the skill grid alone
                on_skill = gap[skills].max(axis=1)
                order = sorted(table.index[no_easier], key=lambda g: (on_skill[g], gauge_key(g.split())))
                searched = set(table.index[table[ANCHOR_SEARCH].notna()]) if ANCHOR_SEARCH in table else set()
                assert searched == set(order[:3])
                if not searched:
                    break
                full = gap.loc[sorted(searched)].max(axis=1)
                g = min(searched, key=lambda g: (full[g], gauge_key(g.split())))
                chosen[sim] = (g, full[g], table.loc[g, skills].to_dict())
            if len(chosen) == len(sims):
                picks[(cards, divers)] = ((round(max(v for _, v, _ in chosen.values()), 3),
                                           abs(cards - 2) + int(divers)), chosen)
        (cards, divers), (_, chosen) = min(picks.items(), key=lambda kv: kv[1][0])
        for r in (r for r in rows if r["level"] == level):
            sim = max(2, r["players"])  # R5: solo plays the two-player games
            gauge, gap, _ = chosen[sim]
            assert r["rules"]["gauge"] == gauge.split() and r["rules"]["cards_per_treasure"] == cards
            assert (r["rules"]["swim_cost"] == 1) == divers
            assert r["largest_gap"] == pytest.approx(gap)
            for w in skills:  # a harder level never wins more often for any player of the grid
                before = easier.get(sim, {}).get(w, 1.0)
                assert r["win_rates"][w] <= before or max(r["win_rates"][w], before) < LIKE_WITHIN
        easier = {sim: rates for sim, (_, _, rates) in chosen.items()}
        previous = ((cards, divers), {sim: g for sim, (g, _, _) in chosen.items()})
    md = tiny["md"]
    for r in rows:
        gaps = {w: r["win_rates"][w] - r["anchor_win_rates"][w] for w in r["win_rates"]}
        at = max(gaps, key=lambda w: abs(gaps[w]))
        assert r["signed_gap"] == pytest.approx(gaps[at]) and r["largest_gap"] == pytest.approx(abs(gaps[at]))
        skilled = [v for w, v in r["win_rates"].items() if "@" in w]
        assert r["win_range"] == [min(skilled), max(skilled)]
        rung = AnchoredRung(r["players"], tuple(r["rules"]["gauge"]), r["win_rates"], r["anchor_win_rates"],
                            {w: 10 if w == ANCHOR_SEARCH else 40 for w in r["win_rates"]},
                            {w: tuple(b) for w, b in r["like_bands"].items()})
        assert rung.leaves_band() == r["leaves_band_at"]
        if r["players"] == 1:
            continue  # shown once, as 1-2
        label = "1-2" if r["players"] == 2 else str(r["players"])
        line = next(line for line in md.splitlines()
                    if line.startswith(f"| {r['level'].capitalize()} ({r['anchor'].capitalize()}) | {label} |"))
        cells = [f"{100 * r['win_rates'][w]:.0f}% / {100 * r['anchor_win_rates'][w]:.0f}%" for w in r["win_rates"]]
        assert " | ".join(cells) in line and f"{100 * r['signed_gap']:+.1f} points" in line
        lo, hi = r["win_range"]
        assert f"wins {100 * lo:.0f}-{100 * hi:.0f}%" in md


def test_the_card_is_drawn_from_the_anchored_levels(tiny):
    png = tiny["reports"] / "difficulty-card.png"
    img = mpimg.imread(png)
    assert img.shape[0] > 600 and img.shape[1] > 600 and img[..., :3].std() > 0.05
    assert (tiny["reports"] / "difficulty-card.pdf").stat().st_size > 5_000


def test_the_card_speaks_to_players(tmp_path, monkeypatch):
    """The card's words: its audience, marks that match what is drawn, no lab words, a star
    only on a level whose interval leaves its band."""
    import matplotlib.axes

    from experiments.calibrate import AnchoredLadder, AnchoredLevel
    from experiments.card import difficulty_card
    from policies.island_escape.levels import LevelRule

    texts = []
    original = matplotlib.axes.Axes.text
    monkeypatch.setattr(matplotlib.axes.Axes, "text",
                        lambda self, x, y, s, *a, **k: texts.append(str(s)) or original(self, x, y, s, *a, **k))
    skills = {"skilled@0.5": 0.05, "skilled@1": 0.6, "lookahead": 0.8}
    games = {"skilled@0.5": 1000, "skilled@1": 1000, "lookahead": 100}
    wide = {k: (0.0, 1.0) for k in skills}
    narrow = {"skilled@0.5": (0.0, 0.02), "skilled@1": (0.5, 0.7), "lookahead": (0.6, 0.95)}
    def rung(p, gauge, bands):
        return AnchoredRung(p, gauge, skills, skills, games, bands)
    levels = [AnchoredLevel("easy", "novice", LevelRule(2, True), {2: rung(2, FULL_GAUGE + ("5D",), wide),
                                                                     3: rung(3, FULL_GAUGE, wide)}),
              AnchoredLevel("hard", "elite", LevelRule(3), {2: rung(2, FULL_GAUGE[1:], narrow),
                                                              3: rung(3, FULL_GAUGE[2:], wide)})]
    import policies.island_escape.levels as design

    difficulty_card(AnchoredLadder("forbidden-island", levels, 1000, 100, 1, design=design), tmp_path / "card.png")
    words = "\n".join(texts)
    assert "For every table" in words and "Forbidden Island" in words
    assert "triangle" in words and "dot" in words and "cross" in words  # the three marks drawn
    for lab in ("R5", "judge", "policy", "expert", "lookahead", "skill"):
        assert lab not in words, lab
    assert texts.count("5-60%*") == 1 and texts.count("5-60%") == 3  # only the narrow band's level is starred
    assert "5♦" in words and "sinks" in words  # a gauge with 5♦ says when the island sinks


def test_likeness_bands_lie_halfway_between_levels():
    bands = likeness_bands({"novice": 0.6, "normal": 0.4, "elite": 0.2, "legendary": 0.1})
    assert bands["novice"] == pytest.approx((0.5, 0.7))
    assert bands["normal"] == pytest.approx((0.3, 0.5))
    assert bands["elite"] == pytest.approx((0.15, 0.3))
    assert bands["legendary"] == pytest.approx((0.05, 0.15))
    never = likeness_bands({"novice": 0.0, "normal": 0.0, "elite": 0.0})
    assert all(b == pytest.approx((0.0, LIKE_WITHIN)) for b in never.values())  # no level told apart


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
