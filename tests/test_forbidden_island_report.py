"""Forbidden Island's ladder report and Island Escape placed against it: the game-free ladder code
(experiments/anchor.py) with Forbidden Island's printed-ladder facts (its levels module)."""

from __future__ import annotations

import itertools

import pandas as pd
import pytest

from experiments import anchor as fir
from experiments.report import load_study
from experiments.sweep import SweepError
from policies.game import game

FI = game("forbidden-island")
IE = game("island-escape")
LEVELS = tuple(FI.levels)


def _ladder(policy_rates: dict[str, dict[str, float]], games: int = 1000) -> pd.DataFrame:
    """A synthetic measured ladder: the same rates at every player count."""
    rows = []
    for policy, rates in policy_rates.items():
        for players, level in itertools.product(FI.players, LEVELS):
            r = rates[level]
            rows.append({"policy": policy, "players": players, "level": level, "games": games,
                         "wins": int(r * games), "win_rate": r, "ci_low": r - 0.01, "ci_high": r + 0.01,
                         "treasures": 2.0, "games_per_s": 1000.0, "cause_win": r, "cause_water": 1 - r,
                         "cause_drowned": 0.0, "cause_treasure": 0.0, "cause_fools_landing": 0.0})
    return pd.DataFrame(rows)


EXPERT = {"novice": 0.45, "normal": 0.25, "elite": 0.10, "legendary": 0.04}


def test_plays_like_places_a_rate_on_the_ladder():
    ladder = dict(EXPERT)
    assert fir.plays_like(0.80, ladder) == "easier than Novice"
    assert fir.plays_like(0.46, ladder) == "like Novice"
    assert fir.plays_like(0.35, ladder) == "between Novice and Normal"
    assert fir.plays_like(0.09, ladder) == "like Elite"
    assert fir.plays_like(0.005, ladder) == "harder than Legendary"


def test_the_markdown_shows_published_and_lab_rates_side_by_side():
    md = fir.ladder_markdown(FI, _ladder({"random": dict.fromkeys(LEVELS, 0.0), "expert": EXPERT}),
                                       seed=5, study_path="study.toml")
    assert "| 2 | Novice | 20.19% | 0.0% (" in md  # published beside random
    assert "45.0% (44.0%–46.0%), 2.2×" in md  # expert at 2p Novice: 0.45 / 0.2019
    assert "Targets" not in md and "at least 2×" not in md  # a rate is reported, not a target met
    assert "| Fools' Landing sank | Novice | 20.1% |" in md
    assert "![" not in md
    shown = fir.ladder_markdown(FI, _ladder({"expert": EXPERT}), seed=5, study_path="s", figure="figures/f.png")
    assert "![win rate by level](figures/f.png)" in shown


def test_the_speed_table_says_the_load_it_was_measured_under():
    ladder = _ladder({"random": dict.fromkeys(LEVELS, 0.0), "expert": EXPERT})
    ladder["load"] = [0.5 + 0.25 * i for i in range(len(ladder))]
    md = fir.ladder_markdown(FI, ladder, seed=5, study_path="s")
    assert "| `random` | 1,000 | 0.5–3.2 |" in md  # the random cells' lowest and highest
    assert "| `expert` | 1,000 | 3.5–6.2 |" in md
    ladder["load"] = 2.0
    assert "| `expert` | 1,000 | 2.0 |" in fir.ladder_markdown(FI, ladder, seed=5, study_path="s")
    # cells kept from a run before the load was recorded
    old = fir.ladder_markdown(FI, _ladder({"expert": EXPERT}), seed=5, study_path="s")
    assert "| `expert` | 1,000 | not recorded |" in old


def test_the_markdown_names_lookaheads_one_budget_read_from_the_search(monkeypatch):
    from policies.forbidden_island import lookahead as LA

    played = _ladder({"expert": EXPERT, "lookahead": EXPERT})
    md = fir.ladder_markdown(FI, played, seed=5, study_path="s")
    assert "one budget at every level and player count (1 screening world, 2 turns ahead" in md
    monkeypatch.setattr(LA, "SCREEN", 5.0)
    assert "(5 screening worlds," in fir.ladder_markdown(FI, played, seed=5, study_path="s")
    assert "one budget" not in fir.ladder_markdown(FI, _ladder({"expert": EXPERT}), seed=5, study_path="s")


@pytest.mark.parametrize(("section", "message"), [
    ("games = 100\nrounds = 3", "ladder.rounds: unknown key"),
    ("games = 0", "ladder.games"),
    ('policies = ["sage"]', "unknown policy 'sage'"),
    ('search_levels = ["easy"]', "ladder.search_levels"),
    ('search_levels = []', "ladder.search_levels"),
    ('game = "island-escape"', "ladder.game: 'island-escape' is not a game with printed levels"),
])
def test_a_bad_ladder_section_is_refused(tmp_path, section, message):
    bad = tmp_path / "study.toml"
    game_line = "" if section.startswith("game =") else 'game = "forbidden-island"\n'
    bad.write_text(f"[ladder]\n{game_line}{section}\n")
    with pytest.raises(SweepError, match=message):
        load_study(bad)


def test_measure_ladder_plays_every_level_and_player_count_with_random():
    df = fir.measure_ladder(FI, ["random"], games=40, search_games=4, seed=3)
    assert len(df) == len(FI.players) * len(LEVELS)
    assert (df.games == 40).all()
    shares = df[[c for c in df.columns if c.startswith("cause_")]].sum(axis=1)
    assert shares.round(9).eq(1.0).all()  # every game ends with exactly one outcome (F14)
    assert (df.win_rate == 0.0).all()  # random play never escapes (the published random player: 0%)
    assert (df.load >= 0).all()  # the load each cell's speed was measured under


def test_measured_cells_are_kept_and_a_rerun_plays_only_what_changed(tmp_path, monkeypatch):
    cache = tmp_path / "cells"
    first = fir.measure_ladder(FI, ["random", "lookahead"], games=30, search_games=2, seed=3, cache_dir=cache,
                               search_levels=("novice",))
    assert len(first) == 12 + 3  # a search plays only its levels: Novice at 2, 3 and 4 players
    assert set(first[first.policy == "lookahead"].level) == {"novice"}
    assert len(list(cache.glob("*.json"))) == 15 and not list(cache.glob("*.tmp"))
    runner = FI.runner
    played = []
    real = runner.run_games
    monkeypatch.setattr(runner, "run_games", lambda rules, policy, n, *a, **kw: played.append(policy) or
                        real(rules, policy, n, *a, **kw))
    again = fir.measure_ladder(FI, ["random", "lookahead"], games=30, search_games=2, seed=3, cache_dir=cache,
                               search_levels=("novice",))
    assert played == []  # every cell taken from the cache
    pd.testing.assert_frame_equal(first, again)
    fir.measure_ladder(FI, ["random"], games=31, search_games=2, seed=3, cache_dir=cache)
    assert played.count("random") == 2 * 12  # other games: every cell again (a compile call and the cell)
    (cache / "random-p2-novice.json").write_text("{ cut short")  # a damaged row is played again
    played.clear()
    fir.measure_ladder(FI, ["random"], games=31, search_games=2, seed=3, cache_dir=cache)
    assert played == ["random", "random"]
    md = fir.ladder_markdown(FI, first, seed=3, study_path="s")
    assert md.count("not played") == 9 and "`lookahead` searches with one budget" in md


def test_island_escape_is_placed_on_the_ladder():
    fi = _ladder({"expert": EXPERT, "lookahead": {"novice": 0.7, "normal": 0.5, "elite": 0.3, "legendary": 0.1}})
    fi = fi[(fi.policy == "expert") | fi.level.isin(["novice", "normal"])]  # a search played at two levels
    recs = [{"players": 1, "level": "normal", "win_rate": 0.30,
             "other_policies": {"lookahead": {"win_rate": 0.52}}}]
    text = "\n".join(fir.against_ladder(IE, FI, recs, fi, "expert"))
    assert ("| Normal | 1 | 30.0%: between Novice and Normal (Nov 45%, Nor 25%, Eli 10%, Leg 4%) | "
            "52.0%: like Normal (Nov 70%, Nor 50%) |") in text
    assert "not one fixed player" not in text and "### Levels anchored" not in text  # one budget; one ladder


def test_the_study_names_its_games():
    """The committed study names the game it designs for and the game whose ladder it measures;
    the ladder's game defaults to the anchor's, and a study's game must have a design space."""
    study = load_study("experiments/studies/difficulty.toml")
    assert study.game == "island-escape" and study.ladder_game == "forbidden-island"
    assert study.anchor["game"] == "forbidden-island"


def test_a_study_for_a_game_without_a_design_space_is_refused(tmp_path):
    bad = tmp_path / "study.toml"
    bad.write_text('game = "forbidden-island"\n')
    with pytest.raises(SweepError, match="game: 'forbidden-island' is not a game with a design space"):
        load_study(bad)
    anchored = tmp_path / "anchored.toml"
    anchored.write_text('[anchor]\ngame = "forbidden-island"\n[ladder]\ngames = 10\n')
    assert load_study(anchored).ladder_game == "forbidden-island"


def test_the_ladders_facts_are_one_copy():
    """The published bot's rates live in Forbidden Island's levels module, read through its game;
    its levels and players are the game's own."""
    facts = fir.printed_ladder(FI)
    assert set(facts.PUBLISHED_WIN) == set(FI.players)
    assert all(tuple(rates) == LEVELS for rates in facts.PUBLISHED_WIN.values())
    assert set(facts.PUBLISHED_CAUSES) == set(FI.causes) == set(facts.CAUSE_TEXT)
    from policies.forbidden_island.published import PUBLISHED

    assert PUBLISHED is facts.PUBLISHED_WIN  # the measuring tool prints the one copy
