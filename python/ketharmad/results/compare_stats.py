"""The intervals of a difference between two runs (:func:`ketharmad.compare_runs`): paired
game by game, unpaired for two win rates (Newcombe's hybrid score interval), or from two
values' own 95 % intervals; and the family-wise normal quantile (Bonferroni) of a table of
such comparisons."""

from __future__ import annotations

import math
from statistics import NormalDist

from ..stats import Z95, wilson_interval

__all__ = ["family_z", "paired_diff", "newcombe_diff", "interval_diff"]


def family_z(comparisons: int, alpha: float = 0.05) -> float:
    """The two-sided normal quantile that keeps the chance of any false change among
    ``comparisons`` intervals at ``alpha`` (Bonferroni: ``alpha / comparisons`` each)."""
    m = max(1, int(comparisons))
    return NormalDist().inv_cdf(1 - alpha / (2 * m))


def paired_diff(n: int, a_only: int, b_only: int, z: float) -> tuple[float, float, float]:
    """B's rate minus A's over ``n`` paired games (the same games played under both runs):
    ``a_only`` games won in A only, ``b_only`` in B only. Returns (difference, low, high),
    the Wald interval of the mean per-game difference (its variance from the discordant
    games: none discordant, no uncertainty)."""
    if n <= 0:
        return math.nan, math.nan, math.nan
    d = (b_only - a_only) / n
    var = (b_only + a_only - n * d * d) / (n * (n - 1)) if n > 1 else 0.0
    half = z * math.sqrt(max(0.0, var))
    return d, d - half, d + half


def newcombe_diff(
    wins_a: int, n_a: int, wins_b: int, n_b: int, z: float
) -> tuple[float, float, float]:
    """B's win rate minus A's from independent samples: Newcombe's hybrid score interval
    (method 10), built from the two Wilson intervals at ``z``; it stays inside [-1, 1] and
    behaves at rates near 0 and 1."""
    if n_a <= 0 or n_b <= 0:
        return math.nan, math.nan, math.nan
    pa, pb = wins_a / n_a, wins_b / n_b
    la, ua = wilson_interval(wins_a, n_a, z)
    lb, ub = wilson_interval(wins_b, n_b, z)
    d = pb - pa
    return (
        d,
        d - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2),
        d + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2),
    )


def interval_diff(
    a: float, a_low: float, a_high: float, b: float, b_low: float, b_high: float, z: float
) -> tuple[float, float, float]:
    """B minus A for values given with their own 95 % intervals (a rating, an IWD, a
    balance metric): each interval's half-width read as 1.96 standard errors, the two
    independent."""
    se_a = max(0.0, a_high - a_low) / (2 * Z95)
    se_b = max(0.0, b_high - b_low) / (2 * Z95)
    d = b - a
    half = z * math.sqrt(se_a * se_a + se_b * se_b)
    return d, d - half, d + half
