"""Small statistics helpers for reading simulation results.

The Wilson score interval is used for win rates: unlike the normal approximation it stays
inside [0, 1] and behaves sensibly for rates near 0 or 1 and for small samples.
"""

from __future__ import annotations

import math
from typing import Union

import polars as pl

__all__ = ["Z95", "wilson_interval", "wilson_bounds", "rate"]

#: Two-sided 95 % standard-normal quantile.
Z95 = 1.959963984540054

IntoExpr = Union[str, pl.Expr]


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for ``successes`` out of ``n`` trials.

    Returns ``(low, high)``; ``(nan, nan)`` when ``n == 0``. ``z`` is the normal quantile
    (default: 95 % two-sided).
    """
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"need 0 <= successes <= n, got successes={successes}, n={n}")
    if n == 0:
        return (math.nan, math.nan)
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2.0 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return (low, high)


def wilson_bounds(successes: IntoExpr, n: IntoExpr, z: float = Z95) -> tuple[pl.Expr, pl.Expr]:
    """Vectorised Wilson score interval as two polars expressions ``(low, high)``.

    ``successes`` and ``n`` are column names or expressions. Rows with ``n == 0`` give null.

    Example::

        low, high = wilson_bounds("wins", "games")
        df.with_columns(ci_low=low, ci_high=high)
    """
    k = (pl.col(successes) if isinstance(successes, str) else successes).cast(pl.Float64)
    n_ = (pl.col(n) if isinstance(n, str) else n).cast(pl.Float64)
    p = k / n_
    z2 = z * z
    denom = 1.0 + z2 / n_
    centre = (p + z2 / (2.0 * n_)) / denom
    half = z * (p * (1.0 - p) / n_ + z2 / (4.0 * n_ * n_)).sqrt() / denom
    valid = n_ > 0
    low = (
        pl.when(~valid).then(None)
        .when(k == 0).then(0.0)
        .otherwise(pl.max_horizontal(centre - half, pl.lit(0.0)))
    )  # fmt: skip
    high = (
        pl.when(~valid).then(None)
        .when(k == n_).then(1.0)
        .otherwise(pl.min_horizontal(centre + half, pl.lit(1.0)))
    )  # fmt: skip
    return low, high


def rate(successes: IntoExpr, n: IntoExpr) -> pl.Expr:
    """``successes / n`` as a polars expression, null (not NaN) where ``n == 0``, like the
    Wilson bounds beside it."""
    k = pl.col(successes) if isinstance(successes, str) else successes
    n_ = pl.col(n) if isinstance(n, str) else n
    return pl.when(n_ > 0).then(k.cast(pl.Float64) / n_.cast(pl.Float64))
