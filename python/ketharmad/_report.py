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
        parts = [c.rjust(w) if r else c.ljust(w) for c, w, r in zip(row, widths, right)]
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
    by_reason = dict(zip(counts["end_reason"].cast(pl.String).to_list(), counts["n"].to_list()))
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
        f"Ketharmad simulation: {n:,} games, {' vs '.join(result.decks)}, seed {result.seed}",
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
    lo, hi = wilson_interval(st["start_wins"], n)
    seats = len(result.decks)
    lines += [
        "",
        f"start player wins: {st['start_wins']:,} of {n:,} ({pct(st['start_wins'] / n)}, "
        f"95% CI [{pct(lo)}, {pct(hi)}]; even share would be {pct(1 / seats)})",
        f"game length: turns mean {st['turns_mean']:.1f}, median {st['turns_median']:g}; "
        f"rounds mean {st['rounds_mean']:.1f}, median {st['rounds_median']:g}",
        f"no winner: {n - st['decided']:,}; unfinished (hit a cap): {st['unfinished']:,} "
        f"({pct(st['unfinished'] / n)})",
        "end reasons: " + ", ".join(f"{r} {c:,}" for r, c in st["end_reasons"].items()),
    ]
    return "\n".join(lines)


def sim_result_repr(result: SimResult) -> str:
    """Compact multi-line repr of a SimResult: the run's arguments and the seat summary."""
    st = game_stats(result.games)
    head = (
        f"SimResult({st['n']:,} games, {' vs '.join(result.decks)}, seed={result.seed}, "
        f"params: {_params_label(result.params)}, {result.elapsed:.2f} s)"
    )
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


def matchup_matrix_rows(result: Any) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of the 2-player win-rate matrix (row faction vs column opponent)."""
    factions = [f for f in _core.FACTIONS if f in set(result.table["faction"].to_list())]
    cells = {(r["faction"], r["opponent"]): r for r in result.table.iter_rows(named=True)}
    rows = []
    for f in factions:
        row = [f]
        for o in factions:
            c = cells.get((f, o))
            row.append("-" if c is None else _cell_text(c["win_rate"], c["ci_low"], c["ci_high"]))
        rows.append(row)
    return ["faction \\ opponent", *factions], rows


def _lab_params_label(params: dict[str, Any]) -> str:
    return _params_label(params)


def matchups_text(result: Any) -> str:
    """Plain-text summary of a MatchupResult (its repr and the CLI output)."""
    from ._validate import bot_label

    sp = result.start_player.row(0, named=True)
    head = (
        f"MatchupResult({result.n_players} players, {result.n_games:,} games, "
        f"bots {bot_label(result.bots)}, seed {result.seed}, params: "
        f"{_lab_params_label(result.params)}, {result.elapsed:.2f} s)"
    )
    lines = [head]
    if result.n_players == 2:
        lines.append(
            f"win rate of the row faction against the column faction, {2 * result.games_per_side:,} "
            "games per cell (each side starts half), Wilson 95% CI; mirror cells from seat 0:"
        )
        headers, rows = matchup_matrix_rows(result)
        lines += ["  " + s for s in format_table(headers, rows, [False] + [True] * (len(headers) - 1))]
    else:
        rows = [
            [r["faction"], f"{r['games']:,}", f"{r['wins']:,}", pct(r["win_rate"]),
             ci_text(r["ci_low"], r["ci_high"]), pct(r["on_play_win_rate"])]
            for r in result.table.iter_rows(named=True)
        ]  # fmt: skip
        lines.append(
            f"free-for-all over all seatings, {result.games_per_seating} games per seating, "
            f"seat 0 starts (even share {pct(1 / result.n_players)}):"
        )
        lines += [
            "  " + s
            for s in format_table(
                ["faction", "games", "wins", "win rate", "95% CI", "as start player"],
                rows,
                [False, True, True, True, False, True],
            )
        ]
    lines.append(
        f"start player wins {pct(sp['win_rate'])} {ci_text(sp['ci_low'], sp['ci_high'])} of "
        f"{sp['games']:,} games (even share {pct(sp['even_share'])}); "
        "see .table, .start_player, .positions, .lengths, .games"
    )
    return "\n".join(lines)


def card_stats_text(result: Any, per_faction: int = 5) -> str:
    """Plain-text summary of a CardStatsResult: the best and worst cards by IWD per faction."""
    t = result.table
    lines = [
        f"CardStatsResult({t.height} rows, {result.batch.n_games:,} games, "
        f"{' vs '.join(result.batch.decks)}); IWD = in-hand win rate - not-seen win rate"
    ]
    for faction in t["faction"].unique(maintain_order=True).to_list():
        part = t.filter((pl.col("faction") == faction) & pl.col("iwd").is_not_null()).sort(
            "iwd", descending=True
        )
        if part.height == 0:
            continue
        shown = part.head(per_faction)
        if part.height > per_faction:
            shown = pl.concat([shown, part.tail(min(per_faction, part.height - per_faction))])
        rows = [
            [r["name"], r["card"], f"{r['in_hand_games']:,}", pct(r["in_hand_win_rate"]),
             pct(r["not_seen_win_rate"]), signed_pct(r["iwd"]),
             f"[{signed_pct(r['iwd_ci_low'])}, {signed_pct(r['iwd_ci_high'])}]"]
            for r in shown.iter_rows(named=True)
        ]  # fmt: skip
        lines.append(f"{faction} (best and worst by IWD):")
        lines += [
            "  " + s
            for s in format_table(
                ["card", "id", "in hand", "GIH WR", "GNS WR", "IWD", "95% CI"],
                rows,
                [False, False, True, True, True, True, False],
            )
        ]
    lines.append("see .table (all rates with intervals), .top(faction, by, n)")
    return "\n".join(lines)


def param_card_names(result: Any) -> dict[str, str]:
    """Swept parameter -> the name of its card (``"Orbán Viktor"``), for parameters of a card."""
    from ._frames import card_frame, parameter_frame

    text = getattr(result, "_card_text", None)
    if text is None:
        return {}
    cards = card_frame(_core.card_table(text))
    names = dict(zip(cards["id"].to_list(), cards["name"].to_list()))
    info = parameter_frame(_core.parameter_table(text))
    card = dict(zip(info["name"].to_list(), info["card"].to_list()))
    return {p: names[card[p]] for p in result.parameters if card.get(p) in names}


def sweep_parameters_line(result: Any) -> str:
    """``swept: ner_orban_viktor.influence (Orbán Viktor), rules.hand_limit``."""
    names = param_card_names(result)
    return "swept: " + ", ".join(
        f"{p} ({names[p]})" if p in names else p for p in result.parameters
    )


def _point_label(r: dict[str, Any]) -> str:
    tags = [t for t, on in (("baseline", r.get("baseline")), ("current", r.get("current"))) if on]
    return f"{r['point']} ({', '.join(tags)})" if tags else str(r["point"])


def sweep_summary_rows(result: Any) -> tuple[list[str], list[list[str]], list[bool]]:
    """One row per point: the win-rate change over the matchups it can affect."""
    headers = ["point", *result.parameters, "whose win rate", "matchups", "games",
               "win rate", "change vs baseline", "paired 95% CI"]  # fmt: skip
    rows = []
    for r in result.summary.iter_rows(named=True):
        if r["baseline"]:
            change, ci = "baseline", "-"
        else:
            change = signed_pct(r["diff"])
            ci = ("degenerate" if r["diff_ci_low"] is None
                  else f"[{signed_pct(r['diff_ci_low'])}, {signed_pct(r['diff_ci_high'])}]")  # fmt: skip
        rows.append([
            _point_label(r), *[str(r[p]) for p in result.parameters], r["perspective"],
            str(r["matchups"]), f"{r['games'] or 0:,}", pct(r["win_rate"]), change, ci,
        ])  # fmt: skip
    right = [False] + [True] * len(result.parameters) + [False, True, True, True, True, False]
    return headers, rows, right


def hidden_note(result: Any) -> str:
    """Which matchups the reports leave out (no swept parameter can change their games)."""
    t = result.table
    if "can_affect" not in t.columns:
        return ""
    hidden = t.filter(~pl.col("can_affect"))["matchup"].unique(maintain_order=True).to_list()
    if not hidden:
        return ""
    return (
        f"hidden: {len(hidden)} matchup(s) no swept parameter can change ({', '.join(hidden)}): "
        "their cards never meet, so every point plays the baseline's games; they stay in "
        ".table with can_affect = False."
    )


def sweep_rows(result: Any) -> tuple[list[str], list[list[str]], list[bool]]:
    """Headers, rows and alignment of the sweep table as text (rows a swept parameter can
    affect; see :func:`hidden_note`)."""
    headers = ["point", *result.parameters, "matchup", "games", "seat-0 win rate", "95% CI",
               "unfinished", "diff vs base", "paired 95% CI", "unpaired ±"]  # fmt: skip
    rows = []
    table = result.table
    if "can_affect" in table.columns:
        table = table.filter(pl.col("can_affect"))
    for r in table.iter_rows(named=True):
        diff = "baseline" if r["baseline"] else signed_pct(r["diff"])
        if r.get("degenerate_ci"):
            paired = "degenerate"
        elif r["baseline"] or r["diff_ci_low"] is None:
            paired = "-"
        else:
            paired = f"[{signed_pct(r['diff_ci_low'])}, {signed_pct(r['diff_ci_high'])}]"
        unpaired = "-" if r["baseline"] else f"±{100 * (r['unpaired_half_width'] or 0):.1f} pp"
        rows.append([
            _point_label(r), *[str(r[p]) for p in result.parameters], r["matchup"],
            f"{r['games']:,}", pct(r["win_rate"]), ci_text(r["ci_low"], r["ci_high"]),
            f"{r['unfinished']:,}", diff, paired, unpaired,
        ])  # fmt: skip
    right = [False] + [True] * len(result.parameters) + [False, True, True, False, True, True, False, True]
    return headers, rows, right


def sweep_text(result: Any) -> str:
    """Plain-text summary of a SweepResult: the per-point summary, then the matchups."""
    head = (
        f"SweepResult({result.points.height} points x {len(result.decks)} matchup(s) x "
        f"{result.games_per_point:,} games, seed {result.seed}, baseline point "
        f"{result.baseline}, {result.elapsed:.2f} s; every point plays the same game seeds)"
    )
    lines = [head, sweep_parameters_line(result)]
    if getattr(result, "summary", None) is not None:
        headers, rows, right = sweep_summary_rows(result)
        lines.append("per point: change of win rate against the baseline over the games of the "
                     "matchups it can affect (paired 95% CI):")  # fmt: skip
        lines += ["  " + s for s in format_table(headers, rows, right)]
        lines.append("per matchup:")
    headers, rows, right = sweep_rows(result)
    lines += ["  " + s for s in format_table(headers, rows, right)]
    notes = [n for n in (hidden_note(result), degenerate_note(result)) if n]
    return "\n".join(lines + notes)


def degenerate_note(result: Any) -> str:
    """A footnote when some paired interval of a sweep is degenerate, else ``""``."""
    if "degenerate_ci" not in result.table.columns or not result.table["degenerate_ci"].any():
        return ""
    return (
        "degenerate: every per-game difference from the baseline is the same (e.g. all 0 on "
        "a small sample), so no paired interval is given; play more games or read the "
        "unpaired half-width."
    )
