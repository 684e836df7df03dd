"""``ketharmad compare RUN_A RUN_B`` / :func:`compare_runs`: the cells whose results changed
beyond noise between two written runs of the same kind.

Every table the two runs share (per-game tables aside) is matched row by row on its key
columns (:mod:`ketharmad.results.keys`), and each measured value with an interval is
compared: a win rate with its counts (``wins``/``games``, ``<x>_wins``/``<x>_games``), or
any value with a 95 % interval (``ci_low``/``ci_high``, ``<x>_ci_low``/``<x>_ci_high``,
``<x>_low``/``<x>_high``). A cell has changed when the interval of B minus A excludes 0; the
intervals of all the comparisons hold together at 95 % (Bonferroni over every value
compared), so two runs of the same setup list any changed cell at most about 1 time in 20.

Paired when the runs share their seed and game indices and kept per-game rows (a players
table with ``game, seat, won``): then a win rate is compared game by game (the same deal
played under both runs), a much narrower interval when the change is small. Otherwise
unpaired (Newcombe's interval for two win rates, or the two values' own intervals); the
result says which and why, per table.
"""

from __future__ import annotations

import datetime as _dt
import functools
import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Union

import polars as pl

from .._version import __version__
from .atomic import write_text_atomic
from .compare_stats import family_z, interval_diff, newcombe_diff, paired_diff
from .html_heatmap import HeatCell, Heatmap, heatmap_html
from .html_page import esc, note, page, section
from .html_table import frame_table
from .keys import is_per_game, key_columns
from .report import format_table
from .run_folder import RunData, read_run

__all__ = ["compare_runs", "CompareResult", "measures_of"]

RunArg = Union[str, os.PathLike[str]]


@dataclass(frozen=True)
class Measure:
    """A compared value of a table: its column, its interval's columns and, for a win rate,
    its counts."""

    name: str
    low: str
    high: str
    wins: Optional[str] = None
    games: Optional[str] = None


def measures_of(columns: list[str]) -> list[Measure]:
    """The values of a table that come with an interval (see the module docstring)."""
    cols = set(columns)
    out: list[Measure] = []
    seen: set[str] = set()

    def add(m: Measure) -> None:
        if m.name in cols and m.name not in seen:
            seen.add(m.name)
            out.append(m)

    if {"ci_low", "ci_high"} <= cols:
        for value, wins in (
            ("win_rate", ("wins", "start_wins")),
            ("win_rate_a", ("wins_a",)),
            ("value", ()),
        ):
            if value in cols:
                w = next((x for x in wins if x in cols), None) if "games" in cols else None
                add(Measure(value, "ci_low", "ci_high", w, "games" if w else None))
                break
    for c in columns:
        if c.endswith("_ci_low") and f"{c[:-7]}_ci_high" in cols:
            p = c[: -len("_ci_low")]
            for value in (f"{p}_win_rate", p, f"{p}_rate"):
                if value in cols:
                    counted = f"{p}_wins" in cols and f"{p}_games" in cols
                    add(Measure(value, c, f"{p}_ci_high", f"{p}_wins" if counted else None,
                                f"{p}_games" if counted else None))  # fmt: skip
                    break
        elif c.endswith("_low") and not c.endswith("_ci_low") and f"{c[:-4]}_high" in cols:
            add(Measure(c[:-4], c, f"{c[:-4]}_high"))
    return out


def _players_table(name: str, candidates: list[str]) -> Optional[str]:
    """The per-game players table that goes with table ``name`` (the same name suffix)."""
    if len(candidates) == 1:
        return candidates[0]
    for c in candidates:
        tail = c[c.index("players") + len("players") :]
        if tail and name.endswith(tail):
            return c
    plain = [c for c in candidates if c.endswith("players")]
    return plain[0] if plain else None


def _outcomes(players: pl.DataFrame, keys: list[str]) -> Optional[pl.DataFrame]:
    """Per (game, seat): the table's key columns and ``won``; None when a key cannot be
    derived. ``faction`` is the seat's deck label; ``opponent`` the other seat's (2 seats);
    a mirror (faction = opponent) counts seat 0 only."""
    p = players
    side = "deck" if "deck" in p.columns else "faction"
    cols = {"game", "seat", "won"}
    if not cols <= set(p.columns):
        return None
    exprs = [pl.col("game"), pl.col("seat"), pl.col("won").cast(pl.Boolean)]
    for k in keys:
        if k == "faction" and side in p.columns:
            exprs.append(pl.col(side).cast(pl.String).alias("faction"))
        elif k == "deck" and "deck" in p.columns:
            exprs.append(pl.col("deck").cast(pl.String))
        elif k == "seat":
            continue  # always there
        elif k == "position" and k in p.columns:
            exprs.append(pl.col(k))
        elif k != "opponent":
            return None
    out = p.select(exprs)
    if "opponent" in keys:
        if side not in p.columns or p["seat"].max() != 1:
            return None
        other = p.select("game", (1 - pl.col("seat")).cast(p.schema["seat"]).alias("seat"),
                         pl.col(side).cast(pl.String).alias("opponent"))  # fmt: skip
        out = out.join(other, on=["game", "seat"], how="left")
        if "faction" in keys:
            out = out.filter((pl.col("faction") != pl.col("opponent")) | (pl.col("seat") == 0))
    return out


@dataclass
class _Pairing:
    """Per key: paired games and the discordant counts (or why there is none)."""

    counts: Optional[pl.DataFrame]
    why: str


def _pair(a: RunData, b: RunData, name: str, keys: list[str], ta: pl.DataFrame, tb: pl.DataFrame,
          measure: Measure) -> _Pairing:  # fmt: skip
    if a.seed != b.seed:
        return _Pairing(None, f"different seeds ({a.seed} and {b.seed})")
    if measure.wins is None or measure.name not in ("win_rate",):
        return _Pairing(None, "same seed, but this value has no per-game outcome")
    cands = sorted(t for t in set(a.tables) & set(b.tables) if "players" in t)
    pname = _players_table(name, cands)
    if pname is None:
        return _Pairing(None, "same seed, but no per-game rows kept (rows=False or a large run)")
    oa, ob = _outcomes(a.table(pname), keys), _outcomes(b.table(pname), keys)
    if oa is None or ob is None:
        return _Pairing(None, f"same seed, but {pname} does not give this table's keys per game")
    on = list(dict.fromkeys(["game", "seat", *keys]))
    joined = oa.join(ob, on=on, how="inner", suffix="_b")
    if joined.height != oa.height or joined.height != ob.height:
        return _Pairing(None, "same seed, but the runs' games differ (other game indices or cells)")
    counts = joined.group_by(keys).agg(
        pl.len().alias("n"),
        pl.col("won").sum().alias("wins_a"),
        pl.col("won_b").sum().alias("wins_b"),
        (pl.col("won") & ~pl.col("won_b")).sum().alias("a_only"),
        (~pl.col("won") & pl.col("won_b")).sum().alias("b_only"),
    )
    for t, w in ((ta, "wins_a"), (tb, "wins_b")):  # the per-game rows must give the table's counts
        check = t.select(*keys, pl.col(measure.wins).alias("w"), pl.col("games").alias("g")).join(
            counts.select(*keys, w, "n"), on=keys, how="left"
        )
        if check.height != t.height or not (
            (check["w"] == check[w]).all() and (check["g"] == check["n"]).all()
        ):
            return _Pairing(None, f"same seed, but {pname} does not reproduce this table's counts")
    return _Pairing(counts, f"paired game by game ({pname}, seed {a.seed})")


def _key_text(row: dict[str, Any], keys: list[str]) -> str:
    return "-".join(str(row[k]) for k in keys)


def _num(x: Any) -> Optional[float]:
    if x is None:
        return None
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def _compare_table(a: RunData, b: RunData, name: str) -> tuple[list[dict[str, Any]], list[str]]:
    """The table's comparisons (each with its difference's standard error or paired /
    Newcombe counts, the interval made once the number of comparisons is known) and notes."""
    ta, tb = a.table(name), b.table(name)
    notes: list[str] = []
    keys = [k for k in key_columns(ta.columns) if k in tb.columns]
    ms = [m for m in measures_of(ta.columns) if m in measures_of(tb.columns)]
    if not ms:
        return [], notes
    if not keys:
        if ta.height != 1 or tb.height != 1:
            notes.append(f"{name}: no key columns to match its rows: not compared")
            return [], notes
        ta, tb = (
            ta.with_columns(pl.lit("").alias("_row")),
            tb.with_columns(pl.lit("").alias("_row")),
        )
        keys = ["_row"]
    dup = ta.select(keys).is_duplicated().any() or tb.select(keys).is_duplicated().any()
    if dup:
        notes.append(
            f"{name}: its key columns {', '.join(keys)} do not name one row each: not compared"
        )
        return [], notes
    joined = ta.join(tb, on=keys, how="inner", suffix="__b")
    only_a = ta.join(tb, on=keys, how="anti").height
    only_b = tb.join(ta, on=keys, how="anti").height
    if only_a or only_b:
        notes.append(f"{name}: {only_a} row(s) only in A, {only_b} only in B (not compared)")
    rows: list[dict[str, Any]] = []
    pairings = {m.name: _pair(a, b, name, keys, ta, tb, m) for m in ms if keys != ["_row"]}
    for r in joined.iter_rows(named=True):
        for m in ms:
            if _num(r[m.name]) is None or _num(r[m.name + "__b"]) is None:
                continue
            va, vb = float(r[m.name]), float(r[m.name + "__b"])
            pairing = pairings.get(m.name)
            counts = pairing.counts if pairing is not None else None
            interval: Callable[[float], tuple[float, float, float]]
            if counts is not None:
                c = counts.filter(pl.all_horizontal(pl.col(k) == r[k] for k in keys)).row(
                    0, named=True
                )
                interval = functools.partial(paired_diff, c["n"], c["a_only"], c["b_only"])
                method, n_a, n_b = "paired", int(c["n"]), int(c["n"])
            elif (
                m.wins is not None
                and _num(r[m.wins]) is not None
                and _num(r[m.wins + "__b"]) is not None
            ):
                n_a, n_b = int(r[m.games or "games"]), int(r[(m.games or "games") + "__b"])
                interval = functools.partial(
                    newcombe_diff, int(r[m.wins]), n_a, int(r[m.wins + "__b"]), n_b
                )
                method = "unpaired"
            else:
                bounds = (
                    _num(r[m.low]),
                    _num(r[m.high]),
                    _num(r[m.low + "__b"]),
                    _num(r[m.high + "__b"]),
                )
                la, ha, lb, hb = bounds
                if la is None or ha is None or lb is None or hb is None:
                    continue
                interval = functools.partial(interval_diff, va, la, ha, vb, lb, hb)
                method, n_a, n_b = "intervals", None, None
            rows.append({"table": name, "cell": "" if keys == ["_row"] else _key_text(r, keys),
                         "where": "" if keys == ["_row"] else ", ".join(f"{k}={r[k]}" for k in keys),
                         "measure": m.name, "a": va, "b": vb, "games_a": n_a, "games_b": n_b, "method": method,
                         "_interval": interval})  # fmt: skip
    for mname, p in pairings.items():
        if p.counts is None and any(x["measure"] == mname for x in rows):
            notes.append(f"{name}.{mname}: unpaired: {p.why}")
    return rows, notes


_SCHEMA = {"table": pl.String, "cell": pl.String, "where": pl.String, "measure": pl.String, "a": pl.Float64,
           "b": pl.Float64, "diff": pl.Float64, "diff_low": pl.Float64, "diff_high": pl.Float64,
           "games_a": pl.Int64, "games_b": pl.Int64, "method": pl.String, "changed": pl.Boolean}  # fmt: skip


@dataclass
class CompareResult:
    """What :func:`ketharmad.compare_runs` found.

    Attributes:
        a, b: the two runs (:class:`ketharmad.results.run_folder.RunData`: folder, run id,
            kind, provenance, tables).
        table: every comparison, one row per (table, cell, measure): ``table, cell`` (the
            row's key values joined by ``-``), ``where`` (``key=value, ...``), ``measure``,
            ``a``, ``b``, ``diff`` (B - A), ``diff_low``, ``diff_high`` (the
            family-wise 95 % interval), ``games_a``, ``games_b``, ``method`` (``paired``,
            ``unpaired``: two win rates, ``intervals``: the values' own intervals) and
            ``changed`` (the interval excludes 0).
        changed: the rows of ``table`` that changed, largest |diff| first.
        paired: True when every comparison was paired, False when none was.
        notes: why a table or value was unpaired or not compared, rows only in one run.
        alpha: the family-wise error rate of the intervals (all of them together).
    """

    a: RunData
    b: RunData
    table: pl.DataFrame
    notes: list[str] = field(default_factory=list)
    alpha: float = 0.05

    @property
    def changed(self) -> pl.DataFrame:
        return self.table.filter(pl.col("changed")).sort(pl.col("diff").abs(), descending=True)

    @property
    def paired(self) -> Optional[bool]:
        methods = set(self.table["method"].to_list())
        if methods == {"paired"}:
            return True
        return False if "paired" not in methods else None

    def mode(self) -> str:
        """``paired``, ``unpaired`` or ``partly paired``, and why."""
        p = self.paired
        if p:
            return f"paired game by game (same seed {self.a.seed} and game indices)"
        if p is None:
            return "partly paired (see the notes for what was unpaired and why)"
        why = (
            f"different seeds ({self.a.seed} and {self.b.seed})"
            if self.a.seed != self.b.seed
            else "same seed, but no per-game outcome to pair (see the notes)"
        )
        return f"unpaired: {why}"

    def text(self) -> str:
        head = [
            f"compare {self.a.kind} runs: A = {self.a.label()}, B = {self.b.label()}",
            f"{self.table.height:,} values compared in {self.table['table'].n_unique()} table(s); {self.mode()}; "
            f"the intervals hold at {100 * (1 - self.alpha):.0f}% together (Bonferroni)",
        ]  # fmt: skip
        ch = self.changed
        if not ch.height:
            head.append("no cell changed beyond noise")
        else:
            head.append(f"{ch.height} changed beyond noise (B - A, largest first):")
            rows = [[r["table"], r["cell"] or "-", r["measure"], _fmt(r["measure"], r["a"]), _fmt(r["measure"], r["b"]),
                     f"{_fmt_d(r['measure'], r['diff'])} [{_fmt_d(r['measure'], r['diff_low'])}, "
                     f"{_fmt_d(r['measure'], r['diff_high'])}]", r["method"]] for r in ch.iter_rows(named=True)]  # fmt: skip
            head += ["  " + s for s in format_table(["table", "cell", "value", "A", "B", "B - A [interval]", "method"],
                                                   rows, [False, False, False, True, True, False, False])]  # fmt: skip
        head += [f"note: {n}" for n in self.notes]
        return "\n".join(head)

    def __repr__(self) -> str:
        return self.text()

    __str__ = __repr__

    def html(self) -> str:
        """The comparison as a self-contained HTML page (docs/reports.md)."""
        ch = self.changed
        when = _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
        summary = (
            f'<p id="compare-summary" data-changed="{ch.height}" data-compared="{self.table.height}" '
            f'data-paired="{esc(str(self.paired).lower())}"><strong>{ch.height}</strong> of '
            f"{self.table.height:,} values changed beyond noise; {esc(self.mode())}. The intervals "
            f"hold at {100 * (1 - self.alpha):.0f}% together (Bonferroni).</p>"
        )
        body = [summary]
        heat = self._heatmap()
        if heat is not None:
            body.append(heatmap_html(heat))
        changed = (
            frame_table(
                ch.with_columns(pl.col("changed")),
                "compare-changed",
                keys=["table", "cell", "measure"],
            )
            if ch.height
            else note("No cell changed beyond noise.")
        )
        body.append(section("changed", "Changed beyond noise", changed))
        body.append(section("all", "Every comparison", frame_table(
            self.table, "compare-all", keys=["table", "cell", "measure"], max_rows=5000)))  # fmt: skip
        if self.notes:
            body.append(
                section(
                    "notes",
                    "Notes",
                    "<ul>" + "".join(f"<li>{esc(n)}</li>" for n in self.notes) + "</ul>",
                )
            )
        prov = []
        for tag, run in (("a", self.a), ("b", self.b)):
            items = "".join(
                f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in run.provenance.items()
            )
            prov.append(f'<h3>Run {tag.upper()}: {esc(run.run_id)}</h3><dl class="prov" id="run-{tag}">'
                        f"<dt>folder</dt><dd>{esc(os.fspath(run.folder))}</dd>{items}</dl>")  # fmt: skip
        body.append(section("provenance", "The two runs", "".join(prov)))
        header = (
            f'<header><h1 id="title">Compare {esc(self.a.kind)} runs: {esc(self.a.run_id)} → {esc(self.b.run_id)}</h1>'
            f'<p class="sub">ketharmad {esc(__version__)} · written {esc(when)}</p></header>'
        )
        return page(f"compare {self.a.run_id} {self.b.run_id}", header + "\n".join(body), page_kind="compare",
                    body_attrs={"data-kind": self.a.kind})  # fmt: skip

    def _heatmap(self) -> Optional[Heatmap]:
        """A two-seat matchup table's change (B - A) per cell, coloured around 0."""
        t = self.table.filter(pl.col("measure") == "win_rate")
        t = t.filter(pl.col("where").str.contains("^faction=.*, opponent=") | pl.col("where").str.contains(
            "^bot=.*, opponent="))  # fmt: skip
        if not t.height:
            return None
        name = t["table"][0]
        t = t.filter(pl.col("table") == name)
        cells = {}
        names: list[str] = []
        for r in t.iter_rows(named=True):
            row, col = (x.split("=", 1)[1] for x in r["where"].split(", ", 1))
            names += [row, col]
            mark = "changed" if r["changed"] else ""
            cells[(row, col)] = HeatCell(
                r["diff"], r["diff_low"], r["diff_high"], r["games_b"], mark
            )
        order = list(dict.fromkeys(names))
        return Heatmap("compare", f"{name}: change of the row side's win rate (B - A)", order, order, cells, 0.0,
                       0.05, "faction", "opponent",
                       "Each cell: B - A with its family-wise interval; 'changed' when it excludes 0.",
                       centre_label="no change")  # fmt: skip

    def write_html(self, path: RunArg, overwrite: bool = False) -> Path:
        """Write :meth:`html` to ``path`` (a ``.html`` file; an existing one only with
        ``overwrite``), atomically."""
        out = Path(path)
        if out.suffix.lower() != ".html":
            raise ValueError(
                f"the comparison's HTML file must end in .html, got {os.fspath(out)!r}"
            )
        if out.is_dir():
            raise ValueError(f"{os.fspath(out)!r} is a folder; give a file name ending in .html")
        if out.exists() and not overwrite:
            raise ValueError(
                f"{os.fspath(out)!r} already exists; choose another name or pass --overwrite"
            )
        out.parent.mkdir(parents=True, exist_ok=True)
        return write_text_atomic(out, self.html())


def _pct_like(measure: str) -> bool:
    return (
        "rate" in measure
        or measure in ("value", "iwd", "diff", "score")
        or measure.endswith("_delta")
    )


def _fmt(measure: str, v: Optional[float]) -> str:
    if v is None or not math.isfinite(v):
        return "-"
    return f"{100 * v:.1f}%" if _pct_like(measure) else f"{v:.4g}"


def _fmt_d(measure: str, v: Optional[float]) -> str:
    if v is None or not math.isfinite(v):
        return "-"
    return f"{100 * v:+.1f} pts" if _pct_like(measure) else f"{v:+.4g}"


def compare_runs(
    a: RunArg,
    b: RunArg,
    *,
    run_a: Optional[str] = None,
    run_b: Optional[str] = None,
    alpha: float = 0.05,
) -> CompareResult:
    """Compare two runs written by :func:`ketharmad.write_run` or a command's ``--out``:
    every cell whose result changed beyond noise (see :class:`CompareResult`;
    docs/reports.md). ``a``, ``b``: run folders (``run_a`` / ``run_b`` choose a run in a
    folder that holds several) or runs' ``runs/<run_id>.parquet`` files; ``alpha``: the
    family-wise error rate of all the intervals together.

    Raises ``ValueError`` naming the problem: a folder that holds no run, a corrupted or
    foreign file, runs of different kinds or games, runs without a table in common."""
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
        raise ValueError(f"alpha must be a number between 0 and 1, got {alpha!r}")
    ra, rb = read_run(a, run_a), read_run(b, run_b)
    if ra.kind != rb.kind:
        raise ValueError(
            f"run A ({ra.run_id}) is a {ra.kind} run and run B ({rb.run_id}) a {rb.kind} run: only runs of "
            "the same kind can be compared"
        )
    if ra.game != rb.game:
        raise ValueError(
            f"run A plays {ra.game} and run B {rb.game}: runs of different games cannot be compared"
        )
    common = [t for t in ra.tables if t in rb.tables and t != "runs"]
    if not common:
        raise ValueError(
            f"runs {ra.run_id} and {rb.run_id} have no table in common ({', '.join(ra.tables)} against "
            f"{', '.join(rb.tables)}): they cannot be compared"
        )
    rows: list[dict[str, Any]] = []
    notes: list[str] = []
    for name in common:
        if is_per_game(ra.table(name).columns):
            continue
        r, n = _compare_table(ra, rb, name)
        rows += r
        notes += n
    z = family_z(len(rows), float(alpha))  # every value of the two runs, together
    for row in rows:
        d, lo, hi = row.pop("_interval")(z)
        row.update(
            diff=d,
            diff_low=lo,
            diff_high=hi,
            changed=bool((lo > 0 or hi < 0) and not math.isnan(d)),
        )
    only = sorted(set(ra.tables) ^ set(rb.tables))
    if only:
        notes.append(f"tables in one run only (not compared): {', '.join(only)}")
    if not rows:
        raise ValueError(
            f"runs {ra.run_id} and {rb.run_id} share no value with an interval to compare "
            f"(tables {', '.join(common)})"
        )
    return CompareResult(ra, rb, pl.DataFrame(rows, schema=_SCHEMA), notes, float(alpha))
