"""Plain-text reports of simulation results (used by ``SimResult.__repr__`` and the CLI).

All numbers are computed with polars expressions over whole columns; Python only loops over
the few rows of the aggregated tables when printing them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import polars as pl

from . import _core
from ._decks import deck_label
from .stats import wilson_interval

if TYPE_CHECKING:
    from ._results import SimResult

__all__ = ["format_table", "game_stats", "sim_report", "sim_result_repr"]


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
        parts = [c.rjust(w) if r else c.ljust(w) for c, w, r in zip(row, widths, right, strict=True)]
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
    by_reason = dict(zip(counts["end_reason"].cast(pl.String).to_list(), counts["n"].to_list(), strict=True))
    row["end_reasons"] = {r: int(by_reason.get(r, 0)) for r in _core.END_REASONS}
    return row


def _threads_label(threads: int | None) -> str:
    return f"all ({os.cpu_count()})" if threads is None else str(threads)


def _params_label(params: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in params.items()) if params else "defaults"


def sim_report(result: SimResult) -> str:
    """The full human-readable report printed by ``ketharmad simulate``."""
    st = game_stats(result.games)
    n = st["n"]
    rate = n / result.elapsed if result.elapsed > 0 else float("inf")
    bots = sorted(set(result.players["bot"].unique().to_list()))
    lines = [
        f"Ketharmad simulation: {n:,} games, {' vs '.join(deck_label(d) for d in result.decks)}, seed {result.seed}",
        f"bots: {', '.join(bots)}   threads: {_threads_label(result.threads)}   "
        f"card data: {result.card_data}   params: {_params_label(result.params)}",
        f"time: {result.elapsed:.2f} s ({rate:,.0f} games/s)",
        "",
        *_summary_lines(result.summary(), ["seat", "faction", "bot"]),
    ]
    if len(set(result.decks)) < len(result.decks):
        lines += [
            "",
            "pooled by faction:",
            *_summary_lines(result.summary(by="faction"), ["faction"]),
        ]
    teams = _teams(result)
    if teams:
        # a team format: the start player's team won (its `won`: both partners win, E87),
        # against a team's even share (50 % for two teams), not a seat's
        start = result.players.join(result.games.select("game", "start_player"), on="game")
        start_wins = int(start.filter(pl.col("seat") == pl.col("start_player"))["won"].sum())
        who, share = "start player's team wins", 1 / len(teams)
    else:
        start_wins, who, share = st["start_wins"], "start player wins", 1 / len(result.decks)
    lo, hi = wilson_interval(start_wins, n)
    lines += [
        "",
        f"{who}: {start_wins:,} of {n:,} ({pct(start_wins / n)}, "
        f"95% CI [{pct(lo)}, {pct(hi)}]; even share would be {pct(share)})",
        f"game length: turns mean {st['turns_mean']:.1f}, median {st['turns_median']:g}; "
        f"rounds mean {st['rounds_mean']:.1f}, median {st['rounds_median']:g}",
        f"no winner: {n - st['decided']:,}; unfinished (hit a cap): {st['unfinished']:,} "
        f"({pct(st['unfinished'] / n)})",
        "end reasons: " + ", ".join(f"{r} {c:,}" for r, c in st["end_reasons"].items()),
    ]
    return "\n".join(lines)


def _teams(result: Any) -> tuple[tuple[int, ...], ...]:
    """The teams of the result's format (``()`` without teams), as the core seats them."""
    fmt = (result.params or {}).get("rules.format")
    text = getattr(result, "_card_text", None)
    if fmt is None or text is None:
        return ()
    from ._formats import format_info

    try:
        return format_info(text, result.params).teams
    except ValueError:
        return ()


def sim_result_repr(result: SimResult) -> str:
    """Compact multi-line repr of a SimResult: the run's arguments and the seat summary."""
    st = game_stats(result.games)
    head = (
        f"SimResult({st['n']:,} games, {' vs '.join(deck_label(d) for d in result.decks)}, seed={result.seed}, "
        f"params: {_params_label(result.params)}, {result.elapsed:.2f} s, "
        f"{result.games_per_second:,.0f} games/s)"
    )
    if result.python_agents:
        head += f"; Python agents in seats {result.python_agents}, played game by game in Python"
    lines = [
        head,
        *("  " + line for line in _summary_lines(result.summary(), ["seat", "faction", "bot"])),
    ]
    lines.append(
        f"  unfinished: {st['unfinished']:,}; turns mean {st['turns_mean']:.1f}; "
        f"see .games, .players, .summary()"
    )
    return "\n".join(lines)


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


