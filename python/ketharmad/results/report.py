"""Plain-text reports of simulation results (used by ``SimResult.__repr__`` and the CLI).

All numbers are computed with polars expressions over whole columns; Python only loops over
the few rows of the aggregated tables when printing them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import polars as pl

from .. import _core

__all__ = ["format_table", "game_stats"]


def pct(x: float | None) -> str:
    """Format a fraction as a percentage with one decimal."""
    return "-" if x is None or x != x else f"{100.0 * x:.1f}%"


def format_table(
    headers: Sequence[str], rows: Sequence[Sequence[Any]], right: Sequence[bool]
) -> list[str]:
    """Align ``rows`` (already small: aggregated tables) under ``headers``."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = []
    for row in cells:
        parts = [
            c.rjust(w) if r else c.ljust(w) for c, w, r in zip(row, widths, right, strict=False)
        ]
        lines.append("  ".join(parts).rstrip())
    return lines


def _summary_lines(summary: pl.DataFrame, keys: Sequence[str]) -> list[str]:
    headers = [*keys, "games", "wins", "win rate", "95% CI"]
    rows = [
        [*(r[k] for k in keys), f"{r['games']:,}", f"{r['wins']:,}", pct(r["win_rate"]),
         f"[{pct(r['ci_low'])}, {pct(r['ci_high'])}]"]
        for r in summary.iter_rows(named=True)
    ]  # fmt: skip
    right = [k == "seat" for k in keys] + [True, True, True, False]
    return format_table(headers, rows, right)


def _unfinished_expr() -> pl.Expr:
    return pl.col("end_reason").cast(pl.String).str.starts_with("unfinished")


def game_stats(games: pl.DataFrame) -> dict[str, Any]:
    """Scalar statistics of a games table: counts, start-player wins, length, end reasons."""
    row = games.select(
        n=pl.len(),
        decided=pl.col("winner").is_not_null().sum(),
        unfinished=_unfinished_expr().sum(),
        start_wins=(pl.col("winner") == pl.col("start_player")).sum(),
        turns_mean=pl.col("turns").mean(),
        turns_median=pl.col("turns").median(),
        rounds_mean=pl.col("rounds").mean(),
        rounds_median=pl.col("rounds").median(),
    ).row(0, named=True)
    counts = games.group_by("end_reason").agg(n=pl.len())
    by_reason = dict(
        zip(counts["end_reason"].cast(pl.String).to_list(), counts["n"].to_list(), strict=False)
    )
    row["end_reasons"] = {r: int(by_reason.get(r, 0)) for r in _core.END_REASONS}
    return row


def _threads_label(threads: int | None) -> str:
    return f"all ({os.cpu_count()})" if threads is None else str(threads)


def _params_label(params: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in params.items()) if params else "defaults"


# ---------------------------------------------------------------- balance-lab text reports


def ci_text(low: float | None, high: float | None) -> str:
    """``[48.2%, 53.9%]`` (or ``-`` when undefined)."""
    if low is None or high is None or low != low or high != high:
        return "-"
    return f"[{pct(low)}, {pct(high)}]"


def signed_pct(x: float | None) -> str:
    """A difference of rates in percentage points: ``+1.3 pp``."""
    return "-" if x is None or x != x else f"{100.0 * x:+.1f} pp"


def _cell_text(rate: float | None, low: float | None, high: float | None) -> str:
    if rate is None:
        return "-"
    return f"{pct(rate)} {ci_text(low, high)}"


def _lab_params_label(params: dict[str, Any]) -> str:
    return _params_label(params)
