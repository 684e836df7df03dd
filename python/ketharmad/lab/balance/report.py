"""Text summary and ``report.md`` (with plots when matplotlib is installed) of a balance run."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Optional

import polars as pl

from ... import _core
from ...results.files import write_atomic
from ...results.lab_report import _figure, _save, harness_provenance_md, require_matplotlib
from ...results.report import format_table

__all__ = ["balance_text", "write_balance_report"]


def _pct(x: Optional[float]) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}%"


#: Metric kinds counted in turns (the others are rates, shown in per cent).
_TURN_KINDS = ("turns", "mean_turns", "length", "length_mean")


def _val(kind: str, x: Optional[float]) -> str:
    if x is None:
        return "-"
    return f"{x:.1f}" if kind in _TURN_KINDS else _pct(x)


def _signed(kind: str, x: float) -> str:
    return f"{x:+.1f}" if kind in _TURN_KINDS else f"{100 * x:+.1f} pts"


def _num(x: Any) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


def _harness_head(res: Any) -> list[str]:
    """The first lines of a harness game's summary: the game, the edits, the holdout block."""
    n = res.best.height
    out = [
        f"balance of {res.game}: {n} edit(s), {'confirmed' if res.best_confirmed else 'NOT confirmed'} on "
        f"{res.confirm_games:,} holdout games a lineup (games {res.confirm_first_game}.. of seed {res.seed}); "
        f"{res.games:,} games in all ({res.games_played:,} played now, budget {res.budget:,}), "
        f"{res.elapsed:.1f} s, {len(res.space)} parameters allowed"
    ]  # fmt: skip
    if not n:
        out.append("no edits: the starting point is the recommendation")
    for r in res.best.iter_rows(named=True):
        out.append(f"  {r['parameter']}: {_num(r['old'])} -> {_num(r['new'])}")
    return out


def _worst(table: pl.DataFrame) -> tuple[str, float]:
    """The metric furthest outside (or nearest the edge of) its band."""
    best = ("-", -math.inf)
    for r in table.iter_rows(named=True):
        half = (r["high"] - r["target"]) if r["value"] >= r["target"] else (r["target"] - r["low"])
        sc = abs(r["value"] - r["target"]) / half if half > 0 else math.inf
        if sc > best[1]:
            best = (r["metric"], sc)
    return best


def _compare_rows(res: Any) -> list[list[str]]:
    after = {r["metric"]: r for r in res.after.iter_rows(named=True)}
    rows = []
    for b in res.before.iter_rows(named=True):
        a = after[b["metric"]]
        k = b["kind"]
        rows.append(
            [
                b["metric"],
                f"{_val(k, b['low'])}..{_val(k, b['high'])}",
                f"{_val(k, b['value'])} [{_val(k, b['ci_low'])}, {_val(k, b['ci_high'])}]",
                f"{_val(k, a['value'])} [{_val(k, a['ci_low'])}, {_val(k, a['ci_high'])}]",
                "yes" if a["in_band"] else "NO",
            ]  # fmt: skip
        )
    return rows


def _edit_rows(res: Any) -> list[list[str]]:
    kinds = {r["metric"]: r["kind"] for r in res.before.iter_rows(named=True)}
    rows = []
    for r in res.edits.iter_rows(named=True):
        k = kinds.get(r["metric"], "2p")
        rows.append(
            [
                r["parameter"],
                _num(r["old"]),
                _num(r["new"]),
                r["metric"],
                f"{_signed(k, r['effect'])} [{_signed(k, r['effect_ci_low'])}, {_signed(k, r['effect_ci_high'])}]",
            ]  # fmt: skip
        )
    return rows


def balance_text(res: Any) -> str:
    out = [
        f"balance: {res.games:,} games ({res.games_played:,} played now), {res.elapsed:.1f} s, "
        f"seed {res.seed}, bots {res.bots}, {len(res.space)} parameters allowed",
    ]
    if res.harness:
        out = _harness_head(res)
    if not res.best_confirmed:  # said first, everywhere (issue 24 item 3)
        out[0] = f"NOT CONFIRMED: {out[0]}"
    status = (
        "confirmed on holdout games" if res.best_confirmed else "NOT confirmed on holdout games"
    )
    n = res.best.height
    out.append(f"best: {n} edit{'s' if n != 1 else ''} ({status})")
    if n:
        out += format_table(
            ["parameter", "old", "new", "metric it moves most", "ablation effect [95% CI]"],
            _edit_rows(res),
            [False, True, True, False, False],
        )
    wb, sb = _worst(res.before)
    wa, sa = _worst(res.after)
    bv = res.before.filter(pl.col("metric") == wb).row(0, named=True)
    av = res.after.filter(pl.col("metric") == wa).row(0, named=True)
    out.append(
        f"worst metric before: {wb} {_val(bv['kind'], bv['value'])} (band {_val(bv['kind'], bv['low'])}..{_val(bv['kind'], bv['high'])}) "
        f"-> after: {wa} {_val(av['kind'], av['value'])} (band {_val(av['kind'], av['low'])}..{_val(av['kind'], av['high'])})"
    )
    out.append(f"holdout games per point: {res.holdout_games:,}")
    out += _ladder_lines(res)
    out += format_table(
        ["metric", "band", "before [95% CI]", "after [95% CI]", "in band"],
        _compare_rows(res),
        [False, False, False, False, False],
    )
    if res.proposals.height:
        p = res.proposals.filter(pl.col("pareto"))
        out.append(f"Pareto proposals ({p.height} of {res.proposals.height} measured):")
        out += format_table(
            ["edits", "total change", "worst deviation", "P(all in band)", "confirmed", "point"],
            [[str(r["edits"]), f"{r['total_change']:g}", _pct(r["worst_deviation"]), f"{r['p_all_in_band']:.2f}",
              "yes" if r["confirmed"] else "", r["point"][:70]] for r in p.head(10).iter_rows(named=True)],
            [True, True, True, True, False, False],
        )  # fmt: skip
    sus = _suspect_rows(res)
    if sus:
        out.append("suspects (the diagnosis; the repair tried the most suspect cards first):")
        out += format_table(SUSPECT_HEAD, sus, [False, True, False, True, False, False, False])
    for note in res.notes:
        out.append(f"note: {note}")
    return "\n".join(out)


SUSPECT_HEAD = ["faction", "rank", "card", "suspicion", "faction is", "changed recently", "edited"]

LADDER_HEAD = ["rung", "bots", "role", "search games", "confirm games", "games", "skill games",
               "in band before", "in band after"]  # fmt: skip
SKILL_HEAD = [
    "rung",
    "over the rung below",
    "point",
    "games",
    "win rate [95% CI]",
    "needed",
    "holds",
]


def _ladder_rows(res: Any) -> list[list[str]]:
    return [[r["rung"], r["bots"], r["role"], f"{r['search_games']:,}", f"{r['confirm_games']:,}",
             f"{r['games']:,}", f"{r['skill_games']:,}", "yes" if r["in_band_before"] else "NO",
             "yes" if r["in_band_after"] else "NO"] for r in res.ladder.iter_rows(named=True)]  # fmt: skip


def _skill_rows(res: Any) -> list[list[str]]:
    return [[r["upper"], r["lower"], r["point"] + ("" if r["measured"] else " (= start)"), f"{r['games']:,}",
             f"{_pct(r['win_rate'])} [{_pct(r['ci_low'])}, {_pct(r['ci_high'])}]", f">= {_pct(r['needed'])}",
             "yes" if r["holds"] else "NO"] for r in res.skill.iter_rows(named=True)]  # fmt: skip


def _games_per_rung(res: Any) -> str:
    """One line: the games each rung played (search + confirmation)."""
    parts = [f"{r['rung']} ({r['role']}) {r['games']:,} ({r['search_games']:,} search + "
             f"{r['confirm_games']:,} confirmation)" for r in res.ladder.iter_rows(named=True)]  # fmt: skip
    return "games per rung: " + "; ".join(parts)


def _skill_verdict(res: Any) -> str:
    return (f"skill band (each rung beats the rung below with at least {_pct(res.skill_margin)}): "
            + ("holds" if res.skill_holds else "does NOT hold") + " for the proposal")  # fmt: skip


def _ladder_lines(res: Any) -> list[str]:
    """A ladder run's games per rung, per-rung verdict and skill band (nothing without one)."""
    if getattr(res, "ladder", None) is None:
        return []
    out = [_games_per_rung(res)]
    out += format_table(
        LADDER_HEAD, _ladder_rows(res), [False, False, False] + [True] * 4 + [False, False]
    )
    if res.skill is not None:
        out.append(_skill_verdict(res) + ":")
        out += format_table(
            SKILL_HEAD, _skill_rows(res), [False, False, False, True, False, True, False]
        )
    return out


def _suspect_rows(res: Any, per_faction: int = 5) -> list[list[str]]:
    """The top suspects of each diagnosed faction, and whether ``best`` edits the card."""
    t = getattr(res, "suspects", None)
    if t is None or not t.height:
        return []
    edited = {n.rsplit(".", 1)[0] for n in res.best_point}
    t = t.filter(pl.col("rank") <= per_faction)
    return [[r["faction"], str(r["rank"]), r["card"], f"{r['suspicion']:.1f}" if r["suspicion"] is not None else "",
             r["direction"], "yes" if r.get("changed_recently") else "", "yes" if r["card"] in edited else ""]
            for r in t.iter_rows(named=True)]  # fmt: skip


def _md_table(headers: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    out += ["| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |" for r in rows]
    return out


def _heatmap(res: Any, table: pl.DataFrame, title: str, path: Path) -> Optional[Path]:
    """The targeted two-player pairs' win rates (row faction against column faction), each
    cell with its 95 % interval; a pair that was not measured is hatched grey and says "no
    data" (a blank cell would read as an even 50 %)."""
    t = table.filter(pl.col("kind") == "2p")
    if "rung" in t.columns and t.height:  # a ladder: the first rung's pairs
        rung = t["rung"][0]
        t = t.filter(pl.col("rung") == rung)
        title = f"{title} ({rung})"
    if not t.height:
        return None
    fac = list(_core.FACTIONS)
    grid = [[math.nan] * 4 for _ in range(4)]
    ci: dict[tuple[int, int], tuple[float, float]] = {}
    for r in t.iter_rows(named=True):
        i, j = fac.index(r["faction"]), fac.index(r["opponent"])
        grid[i][j] = r["value"]
        grid[j][i] = 1 - r["value"]
        if r["ci_low"] is not None and r["ci_high"] is not None:
            ci[(i, j)] = (r["ci_low"], r["ci_high"])
            ci[(j, i)] = (1 - r["ci_high"], 1 - r["ci_low"])
    require_matplotlib()
    from matplotlib.patches import Rectangle

    fig = _figure(6.4, 5.0)
    ax = fig.add_subplot(1, 1, 1)
    masked = [[v if v == v else math.nan for v in row] for row in grid]
    im = ax.imshow(masked, cmap="RdBu", vmin=0.2, vmax=0.8)
    for i in range(4):
        for j in range(4):
            v = grid[i][j]
            if v == v:
                lo, hi = ci.get((i, j), (math.nan, math.nan))
                label = f"{100 * v:.0f}%" + (
                    f"\n[{100 * lo:.0f}, {100 * hi:.0f}]" if lo == lo else ""
                )
                ax.text(j, i, label, ha="center", va="center", fontsize=8,
                        color="white" if abs(v - 0.5) > 0.18 else "black")  # fmt: skip
            else:
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, facecolor="#d9d9d9", edgecolor="#9a9a9a",
                                       hatch="///", lw=0))  # fmt: skip
                ax.text(
                    j,
                    i,
                    "no data",
                    ha="center",
                    va="center",
                    fontsize=8,
                    color="#444",
                    style="italic",
                )
    ax.set_xticks(range(4), fac, rotation=30)
    ax.set_yticks(range(4), fac)
    ax.set_title(title + "\n(only the targeted pairs are measured; grey: no data)", fontsize=9)
    fig.colorbar(im, ax=ax, label="win rate of the row faction")
    return _save(fig, path)


def _pareto_plot(res: Any, path: Path) -> Optional[Path]:
    p = res.proposals
    if not p.height:
        return None
    fig = _figure(6.0, 4.0)
    ax = fig.add_subplot(1, 1, 1)
    for flag, colour, label in ((False, "#bbbbbb", "measured"), (True, "#d62728", "Pareto")):
        q = p.filter(pl.col("pareto") == flag)
        ax.scatter(
            q["edits"].to_list(),
            [100 * v for v in q["worst_deviation"].to_list()],
            c=colour,
            label=label,
            s=18,
        )
    ax.set_xlabel("edits")
    ax.set_ylabel("worst deviation outside the band (points)")
    # edits are whole numbers: one tick per count (matplotlib's own ticks are fractional
    # when the counts span less than a few units)
    lo, hi = int(p["edits"].min() or 0), int(p["edits"].max() or 0)
    ax.set_xticks(range(lo, hi + 1))
    ax.set_xlim(lo - 0.5, hi + 0.5)
    ax.legend()
    return _save(fig, path)


def _sensitivity_plot(res: Any, path: Path, top: int = 12) -> Optional[Path]:
    s = res.screen
    if not s.height:
        return None
    tol = {
        r["metric"]: max(r["target"] - r["low"], r["high"] - r["target"])
        for r in res.before.iter_rows(named=True)
    }
    s = s.with_columns(
        scaled=(
            pl.col("effect").abs() / pl.col("metric").replace_strict(tol, return_dtype=pl.Float64)
        )
    )
    ranked = (
        s.group_by("parameter")
        .agg(pl.col("scaled").max())
        .sort("scaled", "parameter", descending=[True, False])
        .head(top)
    )
    names = ranked["parameter"].to_list()[::-1]
    fig = _figure(7.0, 0.35 * len(names) + 1.2)
    ax = fig.add_subplot(1, 1, 1)
    ax.barh(names, ranked["scaled"].to_list()[::-1], color="#1f77b4")
    ax.set_xlabel("largest one-step effect on a metric (band half-widths)")
    ax.tick_params(axis="y", labelsize=7)
    return _save(fig, path)


def write_balance_report(
    res: Any, folder: Any, plots: Optional[bool] = None, run_id: Optional[str] = None
) -> Path:
    """Write ``folder/report.md`` (with PNG plots: True, False, or None = when matplotlib is
    installed) and the card file with the edits applied (``folder/cards_balanced.toml``)."""
    if plots is None:  # auto: plots when matplotlib is installed
        try:
            require_matplotlib()
            plots = True
        except ImportError:
            plots = False
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    md = balance_markdown(res, root, plots, run_id)
    path = root / "report.md"
    write_atomic(path, lambda tmp: tmp.write_text("\n".join(md) + "\n", encoding="utf-8"))
    return path


def balance_markdown(
    res: Any, root: Optional[Path], plots: bool, run_id: Optional[str] = None
) -> list[str]:
    """The lines of a balance run's ``report.md``; with a folder, the card file with the edits
    applied is written there (``cards_balanced.toml``) and, with ``plots``, the PNGs."""
    if plots and root is None:
        raise ValueError("the balance report's plots need a folder")
    if res.harness:
        md = [f"# Balance of {res.game}", ""] + harness_provenance_md(res, run_id)
        md += ["", f"{res.games:,} games, {len(res.space)} parameters allowed "
               f"({', '.join(f'`{n}`' for n in res.space)}); holdout: {res.confirm_games:,} games a "
               f"lineup from game {res.confirm_first_game} of seed {res.seed}."]  # fmt: skip
    else:
        if root is not None:
            res.write_card_data(root / "cards_balanced.toml")
        md = [f"# Balance run {run_id or ''}".rstrip(), ""]
    if not res.best_confirmed:  # said first, everywhere (issue 24 item 3)
        md[0] += " (NOT CONFIRMED)"
        md[1:1] = ["", "**Not confirmed:** no candidate met every band on the holdout games; the edits "
                   "below (none when no candidate was better than the start on every metric) are the "
                   "most likely candidate, not a result."]  # fmt: skip
    if not res.harness:
        md.append(
            f"{res.games:,} games, {res.elapsed:.1f} s, seed {res.seed}, bots `{res.bots}`, card data "
            f"`{res.card_data}`, {len(res.space)} parameters allowed, holdout games per point "
            f"{res.holdout_games:,}."
        )
    md += [
        "",
        f"## Edits ({'confirmed' if res.best_confirmed else 'NOT confirmed'} on holdout games)",
        "",
    ]
    if res.edits.height:
        md += _md_table(
            ["parameter", "old", "new", "metric it moves most", "ablation effect [95% CI]"],
            _edit_rows(res),
        )
    else:
        md.append("No edit.")
    if not res.harness:
        md += ["", "Card file with the edits applied: `cards_balanced.toml`."]
    md += ["", "## Before and after (holdout games, 95 % intervals)", ""]
    md += _md_table(["metric", "band", "before", "after", "in band"], _compare_rows(res))
    if getattr(res, "ladder", None) is not None:
        md += ["", "## Ladder (games per rung)", "", _games_per_rung(res) + ".", ""]
        md += _md_table(LADDER_HEAD, _ladder_rows(res))
        if res.skill is not None:
            md += ["", "## Skill band", "", _skill_verdict(res) + ".", ""]
            md += _md_table(SKILL_HEAD, _skill_rows(res))
    if plots:
        assert root is not None  # plots need the folder (checked above)
        for name, table in (("before", res.before), ("after", res.after)):
            p = _heatmap(res, table, f"2-player win rate, {name}", root / f"balance_{name}.png")
            if p:
                md += ["", f"![{name}]({p.name})"]
    md += ["", "## Proposals (Pareto: edits, total change, worst deviation)", ""]
    md += _md_table(
        ["edits", "total change", "worst deviation", "P(all in band)", "pareto", "confirmed", "point"],
        [[str(r["edits"]), f"{r['total_change']:g}", _pct(r["worst_deviation"]), f"{r['p_all_in_band']:.2f}",
          "yes" if r["pareto"] else "", "yes" if r["confirmed"] else "", f"`{r['point']}`"]
         for r in res.proposals.head(30).iter_rows(named=True)],
    )  # fmt: skip
    if plots:
        assert root is not None
        p = _pareto_plot(res, root / "balance_pareto.png")
        if p:
            md += ["", f"![pareto]({p.name})"]
        p = _sensitivity_plot(res, root / "balance_sensitivity.png")
        if p:
            md += ["", "## Sensitivity (screen)", "", f"![sensitivity]({p.name})"]
    if res.robustness is not None:
        kinds = {r["metric"]: r["kind"] for r in res.before.iter_rows(named=True)}
        md += ["", "## Robustness", ""]
        md += _md_table(
            ["parameter", "bots", "metric", "effect (main bots)", "effect (second profile)", "sign changed"],
            [[r["parameter"], r["bots"], r["metric"], _signed(kinds.get(r["metric"], "2p"), r["effect_main"]),
              _signed(kinds.get(r["metric"], "2p"), r["effect_alt"]), "YES" if r["sign_changed"] else ""]
             for r in res.robustness.iter_rows(named=True)],
        )  # fmt: skip
    sus = _suspect_rows(res)
    if sus:
        md += ["", "## Suspects (the diagnosis; the repair tried the most suspect cards first)", ""]
        md += _md_table(SUSPECT_HEAD, sus)
    if res.notes:
        md += ["", "## Notes", ""] + [f"* {n}" for n in res.notes]
    return md
