"""Summaries of either game's games: the win rate with its 95% Wilson interval, the loss causes in
the game's order and the mean turns, from raw kernel rows or from a per-game table, at once or
batch by batch in constant memory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from sim.stats import wilson_interval

if TYPE_CHECKING:
    import pandas as pd

def summary_of(n: int, wins: int, cause_counts, turn_sum: int, causes: tuple[str, ...],
               seconds: float | None = None) -> dict:
    """The `simulate` summary from counts: win rate with a 95% Wilson interval, loss causes
    (in the game's order: R18 for Island Escape, F14 for Forbidden Island), mean turns, speed.
    `cause_counts[i]` counts cause i of `causes`, whose first is the win.

    Every rate is a fraction of the games played (`win_rate`, `ci95`, `loss_rates`), never a
    percentage, and the dict says so in `rate_unit`."""
    lo, hi = wilson_interval(wins, n)
    losses = {c: int(cause_counts[i]) / n if n else 0.0 for i, c in enumerate(causes) if i > 0}
    return {
        "games": n, "wins": wins, "rate_unit": "fraction of games", "win_rate": wins / n if n else 0.0,
        "ci95": [lo, hi], "loss_rates": losses, "mean_turns": turn_sum / n if n else 0.0,
        "games_per_second": (n / seconds) if seconds else None,
    }


def summarize_raw(raw: np.ndarray, causes: tuple[str, ...], seconds: float | None = None) -> dict:
    """The summary of raw kernel results (either game's: column 0 the cause, 0 the win, column 1
    the turns), without building a table."""
    counts = np.bincount(raw[:, 0], minlength=len(causes))
    return summary_of(len(raw), int(counts[0]), counts, int(raw[:, 1].sum(dtype=np.int64)), causes, seconds)


def summarize(df: pd.DataFrame, seconds: float | None = None) -> dict:
    """The summary of a per-game table (`results_frame`, either game's); the same as `summarize_raw`."""
    causes = tuple(df["cause"].cat.categories)
    codes = df["cause"].cat.codes.to_numpy()
    counts = np.bincount(codes, minlength=len(causes))
    return summary_of(len(df), int(counts[0]), counts, int(df["turns"].sum()), causes, seconds)


def summary_object(game, rules, policy: str, seed: int, summary: dict) -> dict:
    """`simulate --json`'s object: the game (unless it is the default game), the player, the
    seed and the rules, then the summary's keys. `GET /api/estimate` of the explore page answers
    the same object, so a script gets the same JSON from either."""
    from policies.game import DEFAULT_GAME

    game_key = {"game": game.name} if game.name != DEFAULT_GAME else {}
    return {**game_key, "policy": policy, "seed": seed, "rules": rules.as_record(), **summary}


class RunningSummary:
    """The `summarize_raw` dict of a run seen batch by batch of raw rows, in constant memory:
    counts only, so a run of any length can be summarized (and an interrupted one summarizes
    the games it finished)."""

    def __init__(self, causes: tuple[str, ...]) -> None:
        self.causes = causes
        self.games = self.turns = 0
        self.counts = np.zeros(len(causes), dtype=np.int64)

    def add(self, raw: np.ndarray) -> None:
        self.games += len(raw)
        self.counts += np.bincount(raw[:, 0], minlength=len(self.causes))
        self.turns += int(raw[:, 1].sum(dtype=np.int64))

    def result(self, seconds: float | None = None) -> dict:
        return summary_of(self.games, int(self.counts[0]), self.counts, self.turns, self.causes, seconds)




def half_width(wins: int, n: int) -> float:
    """Half the width of a win rate's 95% Wilson interval: how well `n` games pin it down."""
    lo, hi = wilson_interval(wins, n)
    return (hi - lo) / 2

