"""Summaries of a cooperative game's games: the win rate with its 95% Wilson interval, the loss
causes in the game's order and the mean turns, from raw kernel rows or from a per-game table (batch
by batch: each game's `tally`, policies/outcomes.py); and the object `simulate --json` prints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from policies.outcomes import summary_of
from sim.stats import wilson_interval

if TYPE_CHECKING:
    import pandas as pd


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


def half_width(wins: int, n: int) -> float:
    """Half the width of a win rate's 95% Wilson interval: how well `n` games pin it down."""
    lo, hi = wilson_interval(wins, n)
    return (hi - lo) / 2
