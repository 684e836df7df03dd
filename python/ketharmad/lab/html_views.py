"""The views of each lab feature's HTML report (``report.html``,
:mod:`ketharmad.results.html_report`): heatmaps (HTML tables, every cell with its value and
interval, "no data" hatched) and interactive charts (:mod:`ketharmad.results.html_charts`).
Each result class's ``html_views()`` calls its function here with what it has; nothing here
imports a feature module."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Optional

import polars as pl

from .. import _core
from ..results.html_charts import interval_bars, interval_lines, scatter, steps
from ..results.html_heatmap import HeatCell, Heatmap

__all__ = [
    "matchup_views",
    "tournament_views",
    "card_views",
    "sweep_views",
    "harness_sweep_views",
    "ab_views",
    "balance_views",
]

View = Any  # Heatmap | Chart


def _cells(
    table: pl.DataFrame, row: str, col: str, value: str = "win_rate", lo: str = "ci_low",
    hi: str = "ci_high", games: Optional[str] = "games",
) -> dict[tuple[str, str], HeatCell]:  # fmt: skip
    out = {}
    for r in table.iter_rows(named=True):
        v = r.get(value)
        if v is None:
            continue
        out[(str(r[row]), str(r[col]))] = HeatCell(
            float(v), r.get(lo), r.get(hi), None if games is None else r.get(games)
        )
    return out


def _order(values: Sequence[Any], preferred: Sequence[str] = ()) -> list[str]:
    seen = [str(v) for v in dict.fromkeys(values)]
    first = [p for p in preferred if p in seen]
    return first + [v for v in seen if v not in first]


def matchup_views(r: Any) -> list[View]:
    """Two seats: the win-rate heatmap (row side against column side) and the win rate per
    deck / side; 3-4 players: faction bars and the faction x turn-order heatmap; teams: the
    team-pair bars (one row each: labels never overlap)."""
    t = r.table
    views: list[View] = []
    if r.layout == "pairs":
        sides = _order(t["faction"].to_list(), r.sides)
        cells = _cells(t, "faction", "opponent")
        for s in sides:
            if (s, s) in cells:
                c = cells[(s, s)]
                cells[(s, s)] = HeatCell(c.value, c.ci_low, c.ci_high, c.games, "mirror, seat 0")
        games = 2 * (r.games_per_side or 0)
        views.append(Heatmap("matchups", "Win rate of the row faction against the column faction",
                             sides, sides, cells, 0.5, 0.1, "faction", "opponent",
                             f"{games:,} games per cell, each side starting half; Wilson 95% intervals. "
                             "A mirror cell is seen from seat 0."))  # fmt: skip
        if r.by_deck is not None:
            views.append(interval_bars("by-deck", "Win rate per deck (all its games)", r.by_deck,
                                       label="deck", value="win_rate", low="ci_low", high="ci_high",
                                       value_title="win rate", reference=0.5))  # fmt: skip
    elif r.layout in ("sided_pairs", "field"):
        rk, ck = r.keys
        rows, cols = _order(t[rk].to_list()), _order(t[ck].to_list())
        even = 1 / r.seats if r.layout == "field" else 0.5
        s0, s1 = (list(r.seat_names) + ["", ""])[:2]
        title = (f"Win rate of the lone bot (rows) against the field (columns), {r.seats} seats"
                 if r.layout == "field" else f"{s0} win rate: {s0} bot (rows) against {s1} bot (columns)")  # fmt: skip
        views.append(Heatmap(f"matchups-{r.game}", title, rows, cols, _cells(t, rk, ck), even, 0.05,
                             "bot", ck, f"{r.games_per_cell:,} games per cell; Wilson 95% intervals."))  # fmt: skip
        if r.by_side is not None:
            key = "seat" if r.layout == "field" else "side"
            d = r.by_side.with_columns(
                (pl.col("bot") + pl.lit(" · ") + pl.col(key).cast(pl.String)).alias(
                    "bot and " + key
                )
            )
            views.append(interval_bars("by-side", f"Win rate per bot and {key}", d, label="bot and " + key,
                                       value="win_rate", low="ci_low", high="ci_high", value_title="win rate",
                                       reference=even))  # fmt: skip
    elif r.layout == "teams":
        d = t.with_columns((pl.col("team") + pl.lit(" vs ") + pl.col("against")).alias("pairing"))
        views.append(interval_bars("teams", f"{r.format}: team win rate per pairing", d, label="pairing",
                                   value="win_rate", low="ci_low", high="ci_high", value_title="win rate",
                                   reference=0.5))  # fmt: skip
    else:  # seatings: a free-for-all of 3-4 factions
        even = 1 / r.n_players
        views.append(interval_bars("factions", f"{r.n_players}-player free-for-all: win rate per faction", t,
                                   label="faction", value="win_rate", low="ci_low", high="ci_high",
                                   value_title="win rate", reference=even))  # fmt: skip
    if r.positions is not None and r.layout in ("seatings", "teams") and r.positions.height:
        p = r.positions.with_columns(pl.col("position").cast(pl.String))
        positions = _order(sorted(r.positions["position"].unique().to_list()))
        views.append(Heatmap("positions", "Win rate by turn-order position (0 = the start player)",
                             _order(p["faction"].to_list(), r.sides), positions, _cells(p, "faction", "position"),
                             0.5 if r.teams else 1 / r.n_players, 0.05, "faction", "position"))  # fmt: skip
    return views


def tournament_views(r: Any) -> list[View]:
    """The pairs as a heatmap (row bot's win rate against the column bot, both directions)
    and, with intervals (a ladder), the ratings."""
    p = r.pairs
    views: list[View] = []
    if p.height:
        bots = _order([*p["bot_a"].to_list(), *p["bot_b"].to_list()])
        cells: dict[tuple[str, str], HeatCell] = {}
        for row in p.iter_rows(named=True):
            a, b, w = str(row["bot_a"]), str(row["bot_b"]), row["win_rate_a"]
            if w is None:
                continue
            lo, hi = row.get("ci_low"), row.get("ci_high")
            cells[(a, b)] = HeatCell(float(w), lo, hi, row["games"])
            cells[(b, a)] = HeatCell(1 - float(w), None if hi is None else 1 - hi,
                                     None if lo is None else 1 - lo, row["games"])  # fmt: skip
        views.append(Heatmap("pairs", "Win rate of the row bot against the column bot", bots, bots, cells,
                             0.5, 0.1, "bot", "opponent",
                             "Seats swapped, common seeds per pairing; Wilson 95% intervals. The diagonal "
                             "has no data (a bot does not play itself)."))  # fmt: skip
    rt = r.ratings
    if {"rating_low", "rating_high"} <= set(rt.columns) and rt.height:
        d = rt.sort("rung") if "rung" in rt.columns else rt
        views.append(interval_bars("ratings", "Ratings (Elo scale, 95% bootstrap intervals)", d, label="bot",
                                   value="rating", low="rating_low", high="rating_high", value_title="rating",
                                   percent=False))  # fmt: skip
    return views


def card_views(table: pl.DataFrame) -> list[View]:
    """IWD (in-hand minus not-seen win rate) per card with its interval, one chart per
    faction, sorted."""
    need = {"faction", "card_faction", "iwd", "iwd_ci_low", "iwd_ci_high", "name"}
    if not need <= set(table.columns):
        return []
    t = table.filter((pl.col("card_faction") == pl.col("faction")) & pl.col("iwd").is_not_null())
    views: list[View] = []
    for f in t["faction"].unique(maintain_order=True).to_list():
        part = t.filter(pl.col("faction") == f).sort("iwd", descending=True)
        views.append(interval_bars(f"iwd-{f}", f"{f}: IWD per card (in hand minus not seen, 95% CI)", part,
                                   label="name", value="iwd", low="iwd_ci_low", high="iwd_ci_high",
                                   value_title="IWD (points)", reference=0.0, reference_label="no effect"))  # fmt: skip
    return views


def _numeric(values: Sequence[Any]) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def sweep_views(r: Any, differences: Mapping[str, pl.DataFrame]) -> list[View]:
    """Kétharmad: per swept parameter, the paired win-rate difference against the baseline
    (``differences[name]``: line, value, diff, lo, hi), one line per faction pair."""
    views: list[View] = []
    for name, d in differences.items():
        if not d.height:
            continue
        values = d["value"].to_list()
        numeric = _numeric(values)
        views.append(interval_lines(f"sweep-{name}", f"Paired win-rate change against the baseline: {name}", d,
                                    x="value", value="diff", low="lo", high="hi", series="line", x_title=name,
                                    value_title="change vs baseline", integer_x=numeric and all(isinstance(v, int) for v in values),
                                    nominal_x=not numeric,
                                    caption="First faction of each pair; paired 95% intervals over common seeds; "
                                            "click a legend entry to highlight its line."))  # fmt: skip
    return views


def harness_sweep_views(r: Any) -> list[View]:
    """A harness game: each seat's win rate (Wilson 95 %) against each swept parameter, the
    other parameters at their baseline."""
    views: list[View] = []
    base = r.points.filter(pl.col("point") == r.baseline).row(0, named=True)
    for name in r.parameters:
        keep = r.points
        for other in r.parameters:
            if other != name:
                keep = keep.filter(pl.col(other).eq_missing(base[other]))
        t = r.table.filter(
            pl.col("point").is_in(keep["point"].to_list()) & pl.col(name).is_not_null()
        )
        if not t.height or "seat" not in t.columns:
            continue
        names = {i: s for i, s in enumerate(r.sides)}
        d = t.with_columns(
            pl.col("seat").replace_strict(names, default=pl.col("seat").cast(pl.String), return_dtype=pl.String)
            .alias("side")
        )  # fmt: skip
        values = d[name].to_list()
        numeric = _numeric(values)
        views.append(interval_lines(f"sweep-{name}", f"Win rate per side against {name}", d, x=name,
                                    value="win_rate", low="ci_low", high="ci_high", series="side", x_title=name,
                                    value_title="win rate", integer_x=numeric and all(isinstance(v, int) for v in values),
                                    nominal_x=not numeric, reference=100 / max(1, len(r.bots))))  # fmt: skip
    return views


def ab_views(r: Any) -> list[View]:
    """The log-likelihood ratio after each batch, with the two bounds of the test."""
    if not r.trace.height:
        return []
    lo, hi = r.bounds
    d = pl.concat([pl.DataFrame({"games": [0], "llr": [0.0]}),
                   r.trace.select(pl.col("games").cast(pl.Int64), pl.col("llr").cast(pl.Float64))])  # fmt: skip
    return [steps("llr", f"{r.a} against {r.b}: the sequential test ({r.decision})", d, x="games", y="llr",
                  x_title="games", y_title="log-likelihood ratio",
                  rules=[(hi, f"accept H1 ({hi:.2f})"), (lo, f"accept H0 ({lo:.2f})")])]  # fmt: skip


def _balance_heatmap(table: pl.DataFrame, name: str, title: str) -> Optional[Heatmap]:
    t = table.filter(pl.col("kind") == "2p")
    if "rung" in t.columns and t.height:  # a ladder: the first rung's pairs
        rung = t["rung"][0]
        t = t.filter(pl.col("rung") == rung)
        title = f"{title} ({rung})"
    if not t.height:
        return None
    fac = list(_core.FACTIONS)
    cells: dict[tuple[str, str], HeatCell] = {}
    for r in t.iter_rows(named=True):
        a, b, v = r["faction"], r["opponent"], r["value"]
        if v is None or (isinstance(v, float) and math.isnan(v)):
            continue
        band = f"band {100 * r['low']:.0f}–{100 * r['high']:.0f}%, {'in' if r['in_band'] else 'OUT of'} band"
        lo, hi = r.get("ci_low"), r.get("ci_high")
        cells[(a, b)] = HeatCell(v, lo, hi, r.get("games"), band)
        if a != b:  # the same games from the other side
            cells[(b, a)] = HeatCell(1 - v, None if hi is None else 1 - hi, None if lo is None else 1 - lo,
                                     r.get("games"), "mirror of " + f"{a}-{b}")  # fmt: skip
    return Heatmap(name, title, fac, fac, cells, 0.5, 0.1, "faction", "opponent",
                   "Only the targeted pairs are measured: the other cells have no data (hatched), they are "
                   "not even.")  # fmt: skip


def balance_views(res: Any) -> list[View]:
    """Before/after heatmaps of the targeted two-player pairs (holdout games, 95 %
    intervals, "no data" where no pair was targeted), the Pareto plot (whole edit counts on
    its axis) and the sensitivity of the screened parameters."""
    views: list[View] = []
    for name, table in (("before", res.before), ("after", res.after)):
        h = _balance_heatmap(table, f"balance-{name}", f"Two-player win rate {name} the edits")
        if h is not None:
            views.append(h)
    p = res.proposals
    if p.height:
        d = p.with_columns(
            (pl.col("worst_deviation") * 100).alias("worst deviation (points)"),
            pl.when(pl.col("pareto")).then(pl.lit("Pareto")).otherwise(pl.lit("measured")).alias("proposal"),
        )  # fmt: skip
        views.append(scatter("pareto", "Proposals: edits against the worst deviation outside its band", d,
                             x="edits", y="worst deviation (points)", group="proposal", x_title="edits",
                             y_title="worst deviation outside the band (points)", integer_x=True,
                             tooltip=["total_change", "p_all_in_band", "confirmed", "point"],
                             colours={"measured": "#9a9a9a", "Pareto": "#d62728"}))  # fmt: skip
    s = res.screen
    if s.height:
        tol = {
            r["metric"]: max(r["target"] - r["low"], r["high"] - r["target"])
            for r in res.before.iter_rows(named=True)
        }
        ranked = (
            s.with_columns(
                scaled=pl.col("effect").abs()
                / pl.col("metric").replace_strict(tol, default=None, return_dtype=pl.Float64)
            )
            .group_by("parameter")
            .agg(pl.col("scaled").max())
            .drop_nulls("scaled")
            .sort("scaled", "parameter", descending=[True, False])
            .head(20)
        )
        if ranked.height:
            views.append(interval_bars("sensitivity", "Sensitivity: the largest one-step effect on a metric",
                                       ranked, label="parameter", value="scaled",
                                       value_title="effect (band half-widths)", percent=False))  # fmt: skip
    return views
