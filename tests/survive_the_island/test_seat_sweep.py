"""A sweep of Survive the Island: a grid of settings, each cell's seats' win shares and how far its
furthest seat lies from fair, checked against the seats' results computed directly."""

from __future__ import annotations

import numpy as np
import pytest

from experiments.sweep import Adaptive, Cell, parse_config, play_cell, run_sweep, summary_display
from policies.game import game as game_named
from policies.runner import raw_of_frame

STI = game_named("survive-the-island")


def test_a_competitive_game_sweeps_its_seats(tmp_path):
    cfg = parse_config({"game": "survive-the-island", "games": 300, "seed": 4,
                        "grid": {"players": [2, 3], "sharks": [2, 6], "policy": "random"}}, "seats.toml")
    result = run_sweep(cfg, tmp_path / "out", progress=False, threads=1)
    s = result.summary
    assert len(s) == 4 and set(s["players"]) == {2, 3} and set(s["sharks"]) == {2, 6}
    for _, row in s.iterrows():
        rules = STI.rules(players=int(row["players"]), sharks=int(row["sharks"]))
        share = STI.seat_results(STI.run_games(rules, "random", 300, 4), rules)[0]
        for k in range(rules.players):
            assert row[f"seat{k + 1}_share"] == pytest.approx(share[:, k].mean())
        assert row["furthest_from_fair"] == pytest.approx(np.abs(share.mean(axis=0) - 1 / rules.players).max())
        assert row["ended_volcano"] + row["ended_cleared"] == pytest.approx(1)
    assert np.isnan(s[s["players"] == 2]["seat3_share"]).all()  # a seat a setting lacks is left empty
    shown = summary_display(STI, s)
    assert {"seat1_share", "seat3_share", "furthest_from_fair", "sharks"} <= set(shown.columns)
    figures = tmp_path / "out" / "figures"
    assert (figures / "seat_shares.png").stat().st_size > 0 and (figures / "furthest_from_fair.png").stat().st_size > 0


def test_an_adaptive_cell_stops_when_every_seat_share_is_pinned_down():
    rules = STI.rules(players=2)  # the expert's seats win or lose outright: a share's interval is wide
    df = play_cell(Cell(rules, "expert"), 200, 1, Adaptive(half_width=0.04, max_games=5000, batch=200))

    def widest(frame) -> float:
        tally = STI.tally(rules, "expert")
        tally.add(raw_of_frame(frame, rules))
        return tally.half_width()

    assert len(df) > 200 and widest(df) <= 0.04 < widest(df.iloc[:-200])
