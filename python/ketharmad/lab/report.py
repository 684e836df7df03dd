"""Balance-lab reports: ``report.md`` with Markdown tables plus PNG plots (matplotlib, Agg).

matplotlib is optional (``pip install 'ketharmad[report]'``); it is imported only when a plot
is drawn, and only through its object-oriented API with the Agg canvas, so the user's own
pyplot backend is never touched.
"""

from __future__ import annotations

import datetime as _dt
import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional, Union

import polars as pl

from .. import _core
from .._report import (
    ci_text,
    degenerate_note,
    hidden_note,
    matchup_matrix_rows,
    pct,
    signed_pct,
    sweep_parameters_line,
    sweep_rows,
    sweep_summary_rows,
)
from ..stats import wilson_bounds

__all__ = ["write_report", "MissingDependencyError", "require_matplotlib"]


class MissingDependencyError(ImportError):
    """An optional dependency (matplotlib for the report plots) is not installed."""


def require_matplotlib() -> Any:
    """Import matplotlib or raise :class:`MissingDependencyError` saying how to install it."""
    try:
        import matplotlib
        from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: F401
        from matplotlib.figure import Figure  # noqa: F401
    except ImportError:
        raise MissingDependencyError(
            "the report plots need matplotlib, which is not installed: "
            "pip install 'ketharmad[report]' (or pip install matplotlib), "
            "or skip the plots (plots=False / --no-plots)"
        ) from None
    return matplotlib


def _figure(width: float, height: float) -> Any:
    require_matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=110)
    FigureCanvasAgg(fig)
    return fig


def _save(fig: Any, path: Path) -> Path:
    from .._files import write_atomic

    # under a temporary name, then renamed: a crash never leaves a truncated PNG
    return write_atomic(path, lambda tmp: fig.savefig(tmp, format="png", bbox_inches="tight"))


# ---------------------------------------------------------------- plots


def plot_matchup_heatmap(result: Any, path: Path) -> Path:
    """4x4 heatmap of the row faction's win rate, each cell annotated with its interval."""
    t = result.table
    factions = [f for f in _core.FACTIONS if f in set(t["faction"].to_list())]
    cells = {(r["faction"], r["opponent"]): r for r in t.iter_rows(named=True)}
    k = len(factions)
    grid = [[cells[(f, o)]["win_rate"] if (f, o) in cells else math.nan for o in factions] for f in factions]
    spread = max([abs(v - 0.5) for row in grid for v in row if v == v] + [0.1])
    fig = _figure(1.9 * k + 2.2, 1.5 * k + 1.2)
    ax = fig.add_subplot(1, 1, 1)
    im = ax.imshow(grid, cmap="RdBu", vmin=0.5 - spread, vmax=0.5 + spread)
    for i, f in enumerate(factions):
        for j, o in enumerate(factions):
            c = cells.get((f, o))
            if c is None:
                continue
            label = f"{pct(c['win_rate'])}\n{ci_text(c['ci_low'], c['ci_high'])}"
            if f == o:
                label += "\n(mirror)"
            dark = abs(c["win_rate"] - 0.5) > 0.6 * spread
            ax.text(j, i, label, ha="center", va="center", fontsize=8,
                    color="white" if dark else "black")  # fmt: skip
    ax.set_xticks(range(k), factions)
    ax.set_yticks(range(k), factions)
    ax.set_xlabel("opponent")
    ax.set_ylabel("faction")
    ax.set_title(
        f"Win rate of row vs column ({2 * result.games_per_side:,} games per cell, "
        "start player balanced, Wilson 95% CI)",
        fontsize=9,
    )
    fig.colorbar(im, ax=ax, label="win rate", fraction=0.046, pad=0.04)
    return _save(fig, path)


def plot_faction_bars(result: Any, path: Path) -> Path:
    """Free-for-all win rate per faction with Wilson error bars and the even share."""
    t = result.table
    fig = _figure(6.5, 4)
    ax = fig.add_subplot(1, 1, 1)
    x = list(range(t.height))
    rate = t["win_rate"].to_list()
    err = [[r - lo for r, lo in zip(rate, t["ci_low"].to_list())],
           [hi - r for r, hi in zip(rate, t["ci_high"].to_list())]]  # fmt: skip
    ax.bar(x, rate, yerr=err, capsize=4, color="#6a8fbf")
    ax.axhline(1.0 / result.n_players, color="grey", ls="--", lw=1, label="even share")
    ax.set_xticks(x, t["faction"].to_list())
    ax.set_ylabel("win rate")
    ax.set_title(f"{result.n_players}-player free-for-all ({result.n_games:,} games, Wilson 95% CI)", fontsize=9)
    ax.legend(fontsize=8)
    return _save(fig, path)


def _is_numeric(values: Sequence[Any]) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def sweep_differences(result: Any, name: str) -> pl.DataFrame:
    """The paired win-rate difference against the baseline for each value of ``name`` (the
    other swept parameters at their baseline values), one row per (line, value): ``line``
    is an unordered faction pair ("ner – tisza", the win rate of the first faction, both
    seatings pooled) for 2-player matchups, else the matchup (seat 0); only matchups a swept
    parameter can affect. Columns ``line, value, point, games, diff, lo, hi``."""
    from ..stats import Z95

    base = result.points.filter(pl.col("point") == result.baseline).row(0, named=True)
    keep = result.points
    for other in result.parameters:
        if other != name:
            keep = keep.filter(pl.col(other).eq_missing(base[other]))
    keep = keep.filter(pl.col(name).is_not_null()).select("point", value=pl.col(name))
    affected = result.table.filter(pl.col("can_affect")) if "can_affect" in result.table.columns else result.table
    matchups = affected["matchup"].unique().to_list()
    order = {f: i for i, f in enumerate(_core.FACTIONS)}
    lines, signs = {}, {}
    for m in matchups:
        decks = m.split(" vs ")
        if len(decks) == 2:
            a, b = sorted(decks, key=lambda f: order.get(f, 99))
            lines[m] = f"{a} – {b}"
            signs[m] = 1.0 if decks[0] == a else -1.0
        else:
            lines[m], signs[m] = m, 1.0
    g = result.games.filter(pl.col("matchup").is_in(matchups))
    ref = g.filter(pl.col("point") == result.baseline).select("matchup", "game", b=pl.col("seat0_won"))
    d = (
        g.join(keep, on="point", how="inner")
        .join(ref, on=["matchup", "game"], how="inner")
        .with_columns(
            line=pl.col("matchup").replace_strict(lines),
            d=(pl.col("seat0_won").cast(pl.Float64) - pl.col("b").cast(pl.Float64))
            * pl.col("matchup").replace_strict(signs),
        )
        .group_by("line", "value", "point")
        .agg(games=pl.len(), diff=pl.col("d").mean(), sd=pl.col("d").std(ddof=1))
        .with_columns(half=Z95 * pl.col("sd").fill_null(0.0) / pl.col("games").cast(pl.Float64).sqrt())
        .with_columns(lo=pl.col("diff") - pl.col("half"), hi=pl.col("diff") + pl.col("half"))
        .sort("line", "value")
    )
    return d.select("line", "value", "point", "games", "diff", "lo", "hi")


def plot_sweep_parameter(result: Any, name: str, path: Path) -> Path:
    """Paired win-rate difference against the baseline for each value of one swept
    parameter, one line per unordered faction pair (distinct colours) with its 95%
    interval; the baseline value is marked."""
    d = sweep_differences(result, name)
    base = result.points.filter(pl.col("point") == result.baseline).row(0, named=True)
    values = sorted(d["value"].unique().to_list(), key=lambda v: (str(type(v)), v))
    numeric = _is_numeric(values)
    pos = {v: (float(v) if numeric else float(i)) for i, v in enumerate(values)}
    line_names = d["line"].unique(maintain_order=True).to_list()
    span = (max(pos.values()) - min(pos.values())) if pos else 1.0
    dodge = 0.012 * (span or 1.0)
    fig = _figure(7.5, 4.5)
    ax = fig.add_subplot(1, 1, 1)
    require_matplotlib()
    from matplotlib import colormaps

    cmap = colormaps["tab10" if len(line_names) <= 10 else "tab20"]
    for k, line in enumerate(line_names):
        part = d.filter(pl.col("line") == line)
        xs = [pos[v] + (k - (len(line_names) - 1) / 2) * dodge for v in part["value"].to_list()]
        diff = [100 * x for x in part["diff"].to_list()]
        err = [[100 * (x - lo) for x, lo in zip(part["diff"].to_list(), part["lo"].to_list())],
               [100 * (hi - x) for x, hi in zip(part["diff"].to_list(), part["hi"].to_list())]]  # fmt: skip
        ax.errorbar(xs, diff, yerr=err, marker="o", ms=4, capsize=3, lw=1.2, label=line,
                    color=cmap(k % cmap.N))  # fmt: skip
    ax.axhline(0.0, color="grey", ls="--", lw=1)
    if base.get(name) in pos:
        tag = "baseline = current value" if base.get("current") else "baseline"
        ax.axvline(pos[base[name]], color="black", ls=":", lw=1.2, label=f"{tag} ({base[name]})")
    if not numeric or all(isinstance(v, int) for v in values):
        ax.set_xticks([pos[v] for v in values], [str(v) for v in values])
    ax.set_xlabel(name)
    ax.set_ylabel("win-rate change vs baseline (pp)")
    others = [p for p in result.parameters if p != name]
    held = f"; {', '.join(others)} at the baseline" if others else ""
    ax.set_title(f"Paired difference vs {name} (first faction of each pair, 95% CI{held})", fontsize=9)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    return _save(fig, path)


def plot_card_iwd(result: Any, path: Path) -> Path:
    """Horizontal IWD bars with 95% intervals, one panel per faction, sorted by IWD."""
    t = result.table.filter(
        (pl.col("card_faction") == pl.col("faction")) & pl.col("iwd").is_not_null()
    )
    factions = t["faction"].unique(maintain_order=True).to_list()
    if not factions:
        fig = _figure(6, 2)
        fig.text(0.5, 0.5, "no card with both in-hand and not-seen games", ha="center")
        return _save(fig, path)
    most = max(t.filter(pl.col("faction") == f).height for f in factions)
    cols = 2 if len(factions) > 1 else 1
    rows = math.ceil(len(factions) / cols)
    fig = _figure(7.0 * cols, max(3.0, 0.24 * most + 1.2) * rows)
    for i, f in enumerate(factions):
        ax = fig.add_subplot(rows, cols, i + 1)
        part = t.filter(pl.col("faction") == f).sort("iwd")
        iwd = [100 * v for v in part["iwd"].to_list()]
        err = [[100 * (v - lo) for v, lo in zip(part["iwd"].to_list(), part["iwd_ci_low"].to_list())],
               [100 * (hi - v) for v, hi in zip(part["iwd"].to_list(), part["iwd_ci_high"].to_list())]]  # fmt: skip
        colors = ["#3b7dd8" if v >= 0 else "#d8573b" for v in iwd]
        ax.barh(range(part.height), iwd, xerr=err, color=colors, capsize=2, height=0.7)
        ax.set_yticks(range(part.height), part["name"].to_list(), fontsize=7)
        ax.axvline(0, color="black", lw=0.8)
        ax.set_xlabel("IWD (percentage points)")
        ax.set_title(f"{f}: in-hand minus not-seen win rate (95% CI)", fontsize=9)
    fig.tight_layout()
    return _save(fig, path)


# ---------------------------------------------------------------- markdown


def md_table(headers: Sequence[str], rows: Sequence[Sequence[Any]], right: Optional[Sequence[bool]] = None) -> str:
    """A GitHub-flavoured Markdown table."""
    right = right or [False] * len(headers)
    esc = lambda s: str(s).replace("|", "\\|")  # noqa: E731
    lines = ["| " + " | ".join(esc(h) for h in headers) + " |",
             "| " + " | ".join("---:" if r else "---" for r in right) + " |"]  # fmt: skip
    lines += ["| " + " | ".join(esc(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _provenance_md(result: Any, run_id: Optional[str]) -> list[str]:
    prov = result._provenance()
    lines = [
        f"* created: {_dt.datetime.now(_dt.timezone.utc).strftime('%Y-%m-%d %H:%M:%S UTC')}",
        f"* ketharmad {prov['run_version']}, card data `{getattr(result, 'card_data', '')}` "
        f"(hash `{prov['run_card_data_hash']}`)",
        f"* bots: `{prov['run_bots']}`; seed {prov['run_seed']}; games {prov['run_games']:,}",
        f"* parameter overrides: `{prov['run_params']}`",
        f"* wall time: {getattr(result, 'elapsed', float('nan')):.1f} s",
    ]
    if run_id:
        lines.append(f"* run id: `{run_id}` (Parquet tables in the sub-folders, one file per run)")
    return lines


def _length_rows(lengths: pl.DataFrame, keys: Sequence[str]) -> tuple[list[str], list[list[str]]]:
    headers = [*keys, "games", "turns mean", "turns p10-p50-p90", "rounds mean", "rounds p10-p50-p90"]
    rows = [
        [*(r[k] for k in keys), f"{r['games']:,}", f"{r['turns_mean']:.1f}",
         f"{r['turns_p10']}-{r['turns_p50']}-{r['turns_p90']}", f"{r['rounds_mean']:.1f}",
         f"{r['rounds_p10']}-{r['rounds_p50']}-{r['rounds_p90']}"]
        for r in lengths.iter_rows(named=True)
    ]  # fmt: skip
    return headers, rows


def _matchups_md(result: Any, folder: Path, plots: bool) -> list[str]:
    from .._validate import bot_label

    sp = result.start_player.row(0, named=True)
    out = [f"# Matchups: {result.n_players} players, bots {bot_label(result.bots)}", ""]
    out += _provenance_md(result, None)
    out.append("")
    if result.n_players == 2:
        out += [
            "## Win-rate matrix",
            "",
            f"Win rate of the row faction against the column faction; {2 * result.games_per_side:,} "
            "games per cell, each faction the start player in half of them; Wilson 95% intervals. "
            "A mirror cell is seen from seat 0 (it should be near 50% of the decided games).",
            "",
        ]
        if plots:
            plot_matchup_heatmap(result, folder / "matchups_heatmap.png")
            out += ["![matchup heatmap](matchups_heatmap.png)", ""]
        headers, rows = matchup_matrix_rows(result)
        out += [md_table(headers, rows, [False] + [True] * (len(headers) - 1)), "", "## Cells", ""]
        rows = [
            [r["faction"], r["opponent"], f"{r['games']:,}", f"{r['wins']:,}", pct(r["win_rate"]),
             ci_text(r["ci_low"], r["ci_high"]), f"{r['unfinished']:,}", pct(r["start_win_rate"]),
             pct(r["on_play_win_rate"]), pct(r["on_draw_win_rate"])]
            for r in result.table.iter_rows(named=True)
        ]  # fmt: skip
        out.append(md_table(
            ["faction", "opponent", "games", "wins", "win rate", "95% CI", "unfinished",
             "start player wins", "on the play", "on the draw"],
            rows, [False, False, True, True, True, False, True, True, True, True],
        ))  # fmt: skip
        keys = ["faction", "opponent"]
    else:
        out += [
            "## Win rate per faction",
            "",
            f"Free-for-all over all {24} seatings, {result.games_per_seating} games each, seat 0 "
            f"starting (every faction starts equally often); even share {pct(1 / result.n_players)}.",
            "",
        ]
        if plots:
            plot_faction_bars(result, folder / f"matchups_{result.n_players}p_bars.png")
            out += [f"![faction win rates](matchups_{result.n_players}p_bars.png)", ""]
        rows = [
            [r["faction"], f"{r['games']:,}", f"{r['wins']:,}", pct(r["win_rate"]),
             ci_text(r["ci_low"], r["ci_high"]), f"{r['unfinished']:,}", pct(r["on_play_win_rate"])]
            for r in result.table.iter_rows(named=True)
        ]  # fmt: skip
        out.append(md_table(
            ["faction", "games", "wins", "win rate", "95% CI", "unfinished", "as start player"],
            rows, [False, True, True, True, False, True, True],
        ))  # fmt: skip
        keys = []
    pos_rows = [
        [r["faction"], str(r["position"]), f"{r['games']:,}", pct(r["win_rate"]), ci_text(r["ci_low"], r["ci_high"])]
        for r in result.positions.iter_rows(named=True)
    ]  # fmt: skip
    out += [
        "",
        "## Start player",
        "",
        f"The start player won {pct(sp['win_rate'])} {ci_text(sp['ci_low'], sp['ci_high'])} of "
        f"{sp['games']:,} games (even share {pct(sp['even_share'])}).",
        "",
        md_table(["faction", "turn-order position", "games", "win rate", "95% CI"], pos_rows,
                 [False, True, True, True, False]),
        "",
        "## Game length",
        "",
    ]  # fmt: skip
    headers, rows = _length_rows(result.lengths, keys)
    out.append(md_table(headers, rows, [False] * len(keys) + [True] * 5))
    return out


def _card_stats_md(result: Any, folder: Path, plots: bool) -> list[str]:
    b = result.batch
    out = [f"# Card statistics: {' vs '.join(b.decks)}, {b.n_games:,} games", ""]
    out += _provenance_md(result, None)
    out += [
        "",
        "Rates are per seat-game. GIH = card in hand (opening hand or drawn), OH = in the kept "
        "opening hand, GD = drawn later, GNS = in the deck but never in hand, "
        "IWD = GIH − GNS (percentage points, 95% interval), played = played from hand or "
        "recruited at least once.",
        "",
    ]
    if plots:
        plot_card_iwd(result, folder / "card_iwd.png")
        out += ["![card IWD](card_iwd.png)", ""]
    t = result.table
    for faction in t["faction"].unique(maintain_order=True).to_list():
        part = t.filter(pl.col("faction") == faction)
        own = part.filter(pl.col("card_faction") == faction).sort("iwd", descending=True, nulls_last=True)
        rows = [
            [r["name"], f"`{r['card']}`", str(r["copies"]), f"{r['in_hand_games']:,}", pct(r["in_hand_win_rate"]),
             pct(r["opening_win_rate"]), pct(r["drawn_win_rate"]), pct(r["not_seen_win_rate"]),
             signed_pct(r["iwd"]), f"[{signed_pct(r['iwd_ci_low'])}, {signed_pct(r['iwd_ci_high'])}]",
             f"{r['played_games']:,}", pct(r["played_win_rate"]),
             "-" if r["mean_turn_played"] is None else f"{r['mean_turn_played']:.1f}"]
            for r in own.iter_rows(named=True)
        ]  # fmt: skip
        fr = part.row(0, named=True)
        out += [
            f"## {faction} ({fr['deck_games']:,} seat-games, win rate {pct(fr['faction_win_rate'])})",
            "",
            md_table(
                ["card", "id", "copies", "in hand", "GIH WR", "OH WR", "GD WR", "GNS WR", "IWD",
                 "IWD 95% CI", "played", "played WR", "mean turn"],
                rows, [False, False] + [True] * 7 + [False, True, True, True],
            ),  # fmt: skip
            "",
        ]
        news = part.filter(pl.col("card_faction") == "newsfeed").sort("played_games", descending=True)
        if news.height:
            rows = [
                [r["name"], f"`{r['card']}`", f"{r['played_games']:,}", pct(r["played_win_rate"]),
                 ci_text(r["played_ci_low"], r["played_ci_high"])]
                for r in news.iter_rows(named=True)
            ]  # fmt: skip
            out += [f"Newsfeed cards recruited by {faction}:", "",
                    md_table(["card", "id", "recruited in", "win rate", "95% CI"], rows,
                             [False, False, True, True, False]), ""]  # fmt: skip
    return out


def _sweep_md(result: Any, folder: Path, plots: bool) -> list[str]:
    out = [f"# Parameter sweep: {', '.join(result.parameters) or 'explicit points'}", ""]
    out += _provenance_md(result, None)
    out += [
        "",
        f"{result.points.height} points × {len(result.decks)} matchup(s) × "
        f"{result.games_per_point:,} games. Every point plays the same game seeds (common random "
        f"numbers); differences are against point {result.baseline} game by game (paired 95% "
        "interval: mean ± 1.96·sd/√n of the per-game differences); the unpaired half-width is "
        "what independent samples would give.",
        "",
    ]
    out += [sweep_parameters_line(result).replace("swept:", "Swept:"), ""]
    out += ["## Summary per point", "",
            "Change of win rate against the baseline over the games of the matchups the point "
            "can affect, from the side of the faction whose cards it changes (else seat 0); "
            "paired 95% interval.", ""]  # fmt: skip
    headers, rows, right = sweep_summary_rows(result)
    out += [md_table(headers, rows, right), ""]
    if plots:
        for name in result.parameters:
            fname = f"sweep_{_slug(name)}.png"
            plot_sweep_parameter(result, name, folder / fname)
            out += [f"![paired difference vs {name}]({fname})", ""]
    prow = [[str(r["point"]), r["params"], "yes" if r["current"] else ""]
            for r in result.points.iter_rows(named=True)]  # fmt: skip
    out += ["## Points", "", md_table(["point", "overrides", "current values"], prow, [True, False, False]),
            "", "## Results per matchup", ""]  # fmt: skip
    headers, rows, right = sweep_rows(result)
    out.append(md_table(headers, rows, right))
    for note in (hidden_note(result), degenerate_note(result)):
        if note:
            out += ["", note]
    return out


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)


def write_report(
    result: Any,
    folder: Union[str, "os.PathLike[str]"],
    plots: bool = True,
    run_id: Optional[str] = None,
) -> Path:
    """Write ``report.md`` (Markdown tables) and its PNG plots into ``folder``.

    ``result``: a :class:`ketharmad.MatchupResult` (win-rate heatmap or faction bars),
    :class:`ketharmad.CardStatsResult` (IWD bar chart) or :class:`ketharmad.SweepResult`
    (win rate against each swept parameter with error bars). ``plots=False`` writes the
    Markdown only (no matplotlib needed). Returns the path of ``report.md``.
    """
    from .card_stats import CardStatsResult
    from .matchups import MatchupResult
    from .sweep import SweepResult

    if plots:
        require_matplotlib()
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    if isinstance(result, MatchupResult):
        lines = _matchups_md(result, root, plots)
    elif isinstance(result, CardStatsResult):
        lines = _card_stats_md(result, root, plots)
    elif isinstance(result, SweepResult):
        lines = _sweep_md(result, root, plots)
    else:
        raise ValueError(
            "write_report needs the result of matchups, card_stats or sweep, "
            f"got {type(result).__name__}"
        )
    if run_id:
        lines += ["", f"Parquet tables of this run: `*/{run_id}.parquet` in this folder "
                      "(read with `pl.scan_parquet(folder / '<table>' / '*.parquet')`)."]  # fmt: skip
    from .._files import write_atomic

    text = "\n".join(lines) + "\n"
    return write_atomic(root / "report.md", lambda tmp: tmp.write_text(text, encoding="utf-8"))
