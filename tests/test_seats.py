"""A competitive game's summaries (policies/outcomes.py SeatTally, experiments/seats.py), on rows
made up here: the counting itself, apart from any game's kernel."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from experiments.seats import line_up
from policies.outcomes import SeatTally, mean_interval, seats_summary


class ThreeSeats:
    """A stand-in competitive game: rows of (ending, turns, winners mask, score0..2)."""

    name = "three-seats"
    causes = ("cleared", "volcano")
    result_fields = ("ending", "turns", "winners", "score0", "score1", "score2")

    def seat_players(self, policy, rules):
        specs = policy.split(",")
        if len(specs) not in (1, 3):
            raise ValueError("one player a seat")
        return specs * 3 if len(specs) == 1 else specs

    def seat_results(self, raw, rules):
        won = ((raw[:, 2:3] >> np.arange(3)) & 1).astype(float)
        return won / won.sum(axis=1, keepdims=True), raw[:, 3:6].astype(float)


def _rows(n: int, seed: int = 1) -> np.ndarray:
    gen = np.random.default_rng(seed)
    score = gen.integers(0, 12, size=(n, 3))
    top = score.max(axis=1, keepdims=True)
    winners = ((score == top) * (1 << np.arange(3))).sum(axis=1)
    return np.column_stack([gen.integers(0, 2, n), gen.integers(20, 60, n), winners, score]).astype(np.int32)


def test_a_mean_and_its_interval_are_the_t_free_normal_ones():
    values = np.random.default_rng(4).random(500)
    mean, lo, hi = mean_interval(values.sum(), (values ** 2).sum(), len(values))
    assert mean == pytest.approx(values.mean())
    half = stats.norm.ppf(0.975) * values.std(ddof=1) / np.sqrt(len(values))
    assert (lo, hi) == pytest.approx((values.mean() - half, values.mean() + half))
    assert mean_interval(0.0, 0.0, 0) == (0.0, 0.0, 0.0)


def test_seat_shares_sum_to_one_and_ties_are_shared():
    raw = _rows(4000)
    summary = seats_summary(ThreeSeats(), None, "expert,random,random", raw)
    assert [s["policy"] for s in summary["seats"]] == ["expert", "random", "random"]
    assert sum(s["win_share"] for s in summary["seats"]) == pytest.approx(1.0)
    share, _ = ThreeSeats().seat_results(raw, None)
    tied = (raw[:, 2] == 0b111)
    assert tied.any() and np.allclose(share[tied], 1 / 3)
    assert sum(summary["endings"].values()) == pytest.approx(1.0)
    assert summary["mean_turns"] == pytest.approx(raw[:, 1].mean())
    ranked = np.sort(raw[:, 3:6], axis=1)
    assert summary["mean_margin"] == pytest.approx((ranked[:, -1] - ranked[:, -2]).mean())
    for seat, column in zip(summary["seats"], raw[:, 3:6].T, strict=True):
        assert seat["mean_score"] == pytest.approx(column.mean())
        lo, hi = seat["win_share_ci95"]
        assert lo < seat["win_share"] < hi


def test_a_run_counted_batch_by_batch_is_the_run_counted_at_once():
    raw = _rows(3000, seed=2)
    tally = SeatTally(ThreeSeats(), None, "expert")
    for start in range(0, 3000, 700):
        tally.add(raw[start:start + 700])
    whole = seats_summary(ThreeSeats(), None, "expert", raw)
    counted = tally.result()
    assert counted["games"] == whole["games"] == 3000
    for key in ("mean_turns", "mean_margin"):
        assert counted[key] == pytest.approx(whole[key])
    assert counted["endings"] == pytest.approx(whole["endings"])
    for a, b in zip(counted["seats"], whole["seats"], strict=True):
        for key in ("win_share", "mean_score"):
            assert a[key] == pytest.approx(b[key])
        assert a["win_share_ci95"] == pytest.approx(b["win_share_ci95"])


def test_a_seat_count_the_setting_has_not_is_refused():
    with pytest.raises(ValueError, match="one player a seat"):
        SeatTally(ThreeSeats(), None, "expert,random")


def test_a_line_up_puts_one_player_at_one_seat():
    assert line_up(4, 2, "expert", "random") == "random,random,expert,random"
    assert line_up(2, 0, "lookahead", "expert") == "lookahead,expert"
