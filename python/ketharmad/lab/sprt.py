"""The statistics of an A/B test of two bots, as Fishtest decides between two chess engines:
a generalized sequential probability ratio test (GSPRT) over *pairs* of games on the same
seed with the seats swapped, counted as a pentanomial (the pair's points of bot A: 0, ½, 1,
1½ or 2).

The hypotheses are about A's expected score per game ``s`` (a win 1, a game without a
winner ½), written as a logistic Elo difference ``elo = -400 log10(1/s - 1)``: H0 ``elo =
elo0`` against H1 ``elo = elo1``. The log-likelihood ratio of the observed pair counts is
the generalized one of Van den Bergh (used by Fishtest): for each hypothesis the pair-score
distribution of largest likelihood among those whose mean is that hypothesis' score (an
exponential tilt of the observed frequencies, found by bisection), and the LLR the count-
weighted log ratio of the two. Zero cells are regularized to 1e-3 pairs (Fishtest's
choice), so the LLR is finite from the first batch. Wald's bounds: accept H1 at
``log((1 - beta) / alpha)``, H0 at ``log(beta / (1 - alpha))``.

Pairing is what makes the test cheap: a deal that favours one seat favours it for both bots,
so the pair's score varies less than two independent games (the pentanomial variance is
smaller than the trinomial's), and the test needs fewer games for the same error rates.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = [
    "PAIR_SCORES",
    "elo_of_score",
    "score_of_elo",
    "llr_pentanomial",
    "wald_bounds",
    "pair_estimate",
]

#: The mean score per game of a pair of games, by pentanomial cell (A's points 0 .. 2 / 2).
PAIR_SCORES: tuple[float, ...] = (0.0, 0.25, 0.5, 0.75, 1.0)

#: A cell with no pair counts as this many pairs (Fishtest's regularization).
REGULARIZE = 1e-3


def score_of_elo(elo: float) -> float:
    """The expected score per game of a logistic Elo difference."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_of_score(s: float) -> float:
    """The logistic Elo difference of an expected score (±inf at 1 and 0)."""
    if s <= 0.0:
        return -math.inf
    if s >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0)


def wald_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """The LLR bounds (lower: accept H0, upper: accept H1)."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _regularized(counts: Sequence[int]) -> tuple[list[float], float]:
    c = [float(n) if n > 0 else REGULARIZE for n in counts]
    return c, sum(c)


def _tilt(freq: Sequence[float], s: float) -> float:
    """The ``lam`` of the distribution ``freq_i / (1 + lam (x_i - s))`` whose mean is ``s``:
    the maximum-likelihood distribution with mean ``s`` (``freq`` sums to 1, every cell
    positive, ``0 < s < 1``). ``g(lam) = sum freq_i (x_i - s) / (1 + lam (x_i - s))`` falls
    from +inf to -inf on the interval where every denominator is positive; bisection finds
    its root."""
    lo = -1.0 / (1.0 - s)  # x = 1 makes 1 + lam (1 - s) = 0
    hi = 1.0 / s  # x = 0 makes 1 - lam s = 0
    eps = 1e-12 * (hi - lo)
    lo, hi = lo + eps, hi - eps
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        g = sum(f * (x - s) / (1.0 + mid * (x - s)) for f, x in zip(freq, PAIR_SCORES, strict=True))
        if g > 0:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-15:
            break
    return 0.5 * (lo + hi)


def llr_pentanomial(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """The generalized log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) for the
    pentanomial pair ``counts`` (5 cells: A's points 0, ½, 1, 1½, 2)."""
    if len(counts) != len(PAIR_SCORES):
        raise ValueError(f"pentanomial counts have 5 cells, got {len(counts)}")
    c, n = _regularized(counts)
    freq = [x / n for x in c]
    s0, s1 = score_of_elo(elo0), score_of_elo(elo1)
    lam0, lam1 = _tilt(freq, s0), _tilt(freq, s1)
    total = 0.0
    for f, x in zip(freq, PAIR_SCORES, strict=True):
        total += f * (math.log1p(lam0 * (x - s0)) - math.log1p(lam1 * (x - s1)))
    return n * total


def pair_estimate(
    counts: Sequence[int], z: float = 1.959963984540054
) -> tuple[float, float, float]:
    """A's mean score per game from the pair counts and its normal ``z`` interval (the
    variance is the pairs' own: the pentanomial variance), ``(score, low, high)``; NaN
    without pairs."""
    n = sum(counts)
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = sum(k * x for k, x in zip(counts, PAIR_SCORES, strict=True)) / n
    var = sum(k * (x - mean) ** 2 for k, x in zip(counts, PAIR_SCORES, strict=True)) / n
    half = z * math.sqrt(var / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)
