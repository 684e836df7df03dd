"""A balance candidate (a proposed edit set) and the two statistics every search stage
uses: the normal quantile of a two-sided level and an effect shrunk by its noise."""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

from .evaluate import point_key
from .metrics import MetricStats

__all__ = ["Candidate", "z_of", "shrunk"]

_N = NormalDist()


@dataclass
class Candidate:
    """A proposed edit set: ``{parameter: new value}``, and the stage that proposed it."""

    point: dict[str, int]
    stage: str

    @property
    def key(self) -> str:
        return point_key(self.point)


def z_of(two_sided_alpha: float) -> float:
    """The normal quantile of a two-sided level (``z_of(0.05)`` = 1.96)."""
    return _N.inv_cdf(1 - two_sided_alpha / 2)


def shrunk(e: MetricStats) -> float:
    """An effect shrunk towards 0 by its noise: ``e * max(0, 1 - (se / e)^2)``."""
    if e.value == 0 or not math.isfinite(e.se):
        return 0.0
    return e.value * max(0.0, 1.0 - (e.se / e.value) ** 2)
