"""The metric kinds of ``ketharmad.balance`` as plug-ins.

An evaluator (Kétharmad's :class:`~ketharmad.lab.balance.evaluate.Evaluator` or the harness
games' :class:`~ketharmad.lab.balance.games.HarnessEvaluator`) turns a point's games into one
per-game array per metric, in a fixed game order, so two points' arrays pair game by game. A
metric *kind* says how such an array becomes an estimate with a standard error
(:meth:`MetricKind.stats`) and how two paired arrays become a difference with its paired
standard error (:meth:`MetricKind.paired`). The staged search sees nothing else of a metric
than its band and these two numbers.

Kinds: a *rate* (``2p``, ``4p``, ``start``, ``win_rate``: the mean of a 0/1 indicator), the
*median* of turns per player (``turns``) or of a game's turns (``length``), a *mean*
(``mean_turns``, ``length_mean``) and the *seat spread*
(``seat_spread``: the largest ``|win rate - 1/n|`` over the seats; its array is games x
seats). :func:`register_kind` adds one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

__all__ = ["MetricStats", "MetricKind", "KINDS", "register_kind", "stats", "paired", "moves_most"]


@dataclass
class MetricStats:
    """A metric's estimate at a point, with its standard error and game count."""

    value: float
    se: float
    n: int


class MetricKind(Protocol):
    """How a per-game array of one metric becomes an estimate and a paired difference."""

    def stats(self, v: np.ndarray) -> MetricStats: ...

    def paired(self, v: np.ndarray, base: np.ndarray) -> MetricStats: ...


class Rate:
    """The mean of a per-game 0/1 indicator (a win rate or share)."""

    def stats(self, v: np.ndarray) -> MetricStats:
        n = len(v)
        p = float(v.mean()) if n else float("nan")
        # a rate's binomial standard error, never 0 (a +-0.5/n floor keeps 0/n and n/n honest)
        pp = min(max(p, 0.5 / n), 1 - 0.5 / n) if n else p
        return MetricStats(p, float(np.sqrt(pp * (1 - pp) / n)) if n else float("inf"), n)

    def paired(self, v: np.ndarray, base: np.ndarray) -> MetricStats:
        return _paired_mean(v, base)


class Median:
    """The median of a per-game number (turns per player), order-statistic standard error."""

    def stats(self, v: np.ndarray) -> MetricStats:
        return MetricStats(float(np.median(v)), _median_se(v), len(v))

    def paired(self, v: np.ndarray, base: np.ndarray) -> MetricStats:
        d = float(np.median(v) - np.median(base))
        return MetricStats(d, float(np.hypot(_median_se(v), _median_se(base))), len(v))


class Mean:
    """The mean of a per-game number (mean turns), standard error ``sd / sqrt(n)``."""

    def stats(self, v: np.ndarray) -> MetricStats:
        n = len(v)
        if n == 0:
            return MetricStats(float("nan"), float("inf"), 0)
        sd = float(v.std(ddof=1)) if n > 1 else float("inf")
        return MetricStats(float(v.mean()), float(max(sd, 1.0 / n) / np.sqrt(n)), n)

    def paired(self, v: np.ndarray, base: np.ndarray) -> MetricStats:
        return _paired_mean(v, base)


class SeatSpread:
    """The largest ``|win rate - 1/n|`` over the seats; the array is games x seats (0/1).

    Its standard error is the delta method's: the per-game indicator of the seat furthest
    from an even share, signed by the side it is on (one seat decides the maximum); a paired
    difference linearises both points the same way, game by game."""

    @staticmethod
    def _lin(v: np.ndarray) -> tuple[float, np.ndarray]:
        n, seats = v.shape
        even = 1.0 / seats
        rates = v.mean(axis=0) if n else np.full(seats, np.nan)
        dev = np.abs(rates - even)
        s = int(np.argmax(dev))
        sign = 1.0 if rates[s] >= even else -1.0
        return float(dev[s]), sign * v[:, s]

    def stats(self, v: np.ndarray) -> MetricStats:
        n = v.shape[0]
        if n == 0:
            return MetricStats(float("nan"), float("inf"), 0)
        value, x = self._lin(v)
        p = float(abs(x.mean()))
        pp = min(max(p, 0.5 / n), 1 - 0.5 / n)
        return MetricStats(value, float(np.sqrt(pp * (1 - pp) / n)), n)

    def paired(self, v: np.ndarray, base: np.ndarray) -> MetricStats:
        a, xa = self._lin(v)
        b, xb = self._lin(base)
        d = _paired_mean(xa, xb)
        return MetricStats(a - b, float(d.se), d.n)


def _paired_mean(v: np.ndarray, base: np.ndarray) -> MetricStats:
    """The difference ``v - base`` (same games) with its paired standard error."""
    diff = v - base
    n = len(diff)
    sd = float(diff.std(ddof=1)) if n > 1 else float("inf")
    # all differences equal (e.g. all 0): use a floor of one discordant game in n
    sd = max(sd, 1.0 / n)
    return MetricStats(float(diff.mean()), sd / np.sqrt(n), n)


def _median_se(v: np.ndarray) -> float:
    n = len(v)
    if n < 4:
        return float("inf")
    s = np.sort(v)
    h = max(1, int(np.ceil(np.sqrt(n) / 2)))
    lo, hi = s[max(0, n // 2 - h)], s[min(n - 1, n // 2 + h)]
    return max(float(hi - lo) / 2.0, 0.5 / np.sqrt(n))


#: Metric kind name -> plug-in. Kétharmad: 2p, 4p, start, turns, length (the median game
#: length in turns) and length_mean; the harness games:
#: win_rate, seat_spread, mean_turns.
KINDS: dict[str, MetricKind] = {
    "2p": Rate(),
    "4p": Rate(),
    "start": Rate(),
    "turns": Median(),
    "length": Median(),
    "length_mean": Mean(),
    "win_rate": Rate(),
    "mean_turns": Mean(),
    "seat_spread": SeatSpread(),
}


def register_kind(name: str, kind: MetricKind) -> None:
    """Add (or replace) a metric kind; an evaluator gives its metrics' per-game arrays."""
    KINDS[name] = kind


def _kind(metric: Any) -> MetricKind:
    try:
        return KINDS[metric.kind]
    except KeyError:
        raise ValueError(
            f"unknown metric kind {metric.kind!r}; valid: {', '.join(KINDS)}"
        ) from None


def stats(metric: Any, v: np.ndarray) -> MetricStats:
    """Estimate and standard error of one metric from its per-game array."""
    return _kind(metric).stats(v)


def paired(metric: Any, v: np.ndarray, base: np.ndarray) -> MetricStats:
    """The difference of two paired per-game arrays of one metric, with its standard error."""
    return _kind(metric).paired(v, base)


def moves_most(
    metrics: Sequence[Any], effects: Mapping[str, MetricStats]
) -> tuple[Any, MetricStats]:
    """The metric an edit moves most, its effect measured against the metric's band
    (``effects``: the edit's paired effect on each metric), and that effect."""
    top = max(metrics, key=lambda m: (abs(effects[m.name].value) / max(m.tolerance, 1e-9), m.name))
    return top, effects[top.name]
