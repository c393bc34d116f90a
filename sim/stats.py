"""Statistics of game results that both the players' tables and the commands use."""

from __future__ import annotations

import math

# z of a two-sided 95% interval: the standard normal's 97.5% quantile (scipy.special.ndtri(0.975)).
_Z95 = 1.959963984540054


def wilson_interval(wins: int, n: int) -> tuple[float, float]:
    """95% Wilson score interval for a win rate.

    The formula of Newcombe (1998), as scipy's `binomtest(...).proportion_ci(method="wilson")`
    computes it (tests/test_runner.py checks they agree to the last bit); written out here so
    that a summary does not import scipy.stats (about a second of start-up).
    """
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    z = _Z95
    denom = 2 * (n + z**2)
    centre = (2 * n * p + z**2) / denom
    delta = z / denom * math.sqrt(4 * n * p * (1 - p) + z**2)
    lo = 0.0 if wins == 0 else centre - delta
    hi = 1.0 if wins == n else centre + delta
    return (float(lo), float(hi))
