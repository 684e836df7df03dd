"""Heatmaps as HTML tables: each cell shows its value and interval (and games), coloured on
a diverging scale centred on the even share; a cell without data is hatched grey and says
"no data", so it never looks like an even 50 %.

Ids and attributes (docs/reports.md): ``<table class="heat" id="heatmap-<name>"
data-heatmap="<name>" data-centre=... data-spread=...>``; each cell
``<td data-cell="<row>-<col>" data-row=... data-col=... data-value=... data-ci-low=...
data-ci-high=... data-games=...>`` or, without data, ``<td class="nodata"
data-cell=... data-value="">no data</td>``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Optional

from .html_page import attr, esc, slug

__all__ = ["HeatCell", "Heatmap", "heatmap_html", "colour"]


@dataclass(frozen=True)
class HeatCell:
    """One cell: its value (a rate), interval and games (None: not known)."""

    value: float
    ci_low: Optional[float] = None
    ci_high: Optional[float] = None
    games: Optional[int] = None
    note: str = ""


@dataclass
class Heatmap:
    """A square (or rectangle) of cells: ``cells[(row, col)]``; a pair without a cell is
    drawn as "no data". ``centre``: the even share the colours diverge from; ``spread``: the
    smallest half-range of the colour scale (widened to the largest deviation)."""

    name: str
    title: str
    rows: Sequence[str]
    cols: Sequence[str]
    cells: Mapping[tuple[str, str], HeatCell]
    centre: float = 0.5
    spread: float = 0.1
    row_label: str = ""
    col_label: str = ""
    caption: str = ""
    percent: bool = True
    centre_label: str = "the even share"
    extra: dict[str, str] = field(default_factory=dict)

    def scale(self) -> float:
        devs = [abs(c.value - self.centre) for c in self.cells.values() if _finite(c.value)]
        return max([self.spread, *devs])


def _finite(x: Optional[float]) -> bool:
    return x is not None and isinstance(x, (int, float)) and math.isfinite(x)


_LOW = (178, 24, 43)  # below the even share: red
_MID = (247, 247, 247)
_HIGH = (33, 102, 172)  # above: blue


def colour(value: float, centre: float, spread: float) -> tuple[str, bool]:
    """The background of a cell (CSS ``rgb(...)``) and whether its text should be light."""
    t = 0.0 if spread <= 0 else max(-1.0, min(1.0, (value - centre) / spread))
    end = _HIGH if t > 0 else _LOW
    a = abs(t)
    rgb = tuple(round(m + (e - m) * a) for m, e in zip(_MID, end, strict=True))
    return f"rgb({rgb[0]},{rgb[1]},{rgb[2]})", a > 0.6


def _pct(x: float, percent: bool) -> str:
    return f"{100 * x:.1f}%" if percent else f"{x:.3g}"


def _ci(lo: Optional[float], hi: Optional[float], percent: bool) -> str:
    if not (_finite(lo) and _finite(hi)):
        return ""
    assert lo is not None and hi is not None
    return f"[{100 * lo:.1f}, {100 * hi:.1f}]" if percent else f"[{lo:.3g}, {hi:.3g}]"


def _num(x: Optional[float]) -> Optional[str]:
    return repr(float(x)) if x is not None and _finite(x) else None


def heatmap_html(h: Heatmap) -> str:
    """The heatmap as an HTML table with its colour legend."""
    spread = h.scale()
    hid = f"heatmap-{slug(h.name)}"
    head = "".join(f'<th scope="col" data-col="{esc(c)}">{esc(c)}</th>' for c in h.cols)
    corner = esc(f"{h.row_label} \\ {h.col_label}" if h.row_label or h.col_label else "")
    body = []
    for r in h.rows:
        tds = []
        for c in h.cols:
            cid = f"{r}-{c}"
            cell = h.cells.get((r, c))
            if cell is None or not _finite(cell.value):
                tds.append(
                    f'<td class="nodata" data-cell="{esc(cid)}" data-row="{esc(r)}" '
                    f'data-col="{esc(c)}" data-value="" title="{esc(r)} against {esc(c)}: no data">'
                    "no data</td>"
                )
                continue
            bg, light = colour(cell.value, h.centre, spread)
            ci = _ci(cell.ci_low, cell.ci_high, h.percent)
            games = f"{cell.games:,} games" if cell.games is not None else ""
            tip = f"{r} against {c}: {_pct(cell.value, h.percent)} {ci} {games} {cell.note}".strip()
            inner = f'<span class="v">{_pct(cell.value, h.percent)}</span>'
            inner += f'<span class="ci">{esc(ci)}</span>' if ci else ""
            inner += f'<span class="n">{esc(games)}</span>' if games else ""
            inner += f'<span class="n">{esc(cell.note)}</span>' if cell.note else ""
            style = f"background:{bg};color:{'#fff' if light else '#111'}"
            tds.append(
                f'<td data-cell="{esc(cid)}" data-row="{esc(r)}" data-col="{esc(c)}" '
                f'data-value="{_num(cell.value)}"{attr("data-ci-low", _num(cell.ci_low))}'
                f"{attr('data-ci-high', _num(cell.ci_high))}"
                f'{attr("data-games", cell.games)} style="{style}" title="{esc(tip)}">{inner}</td>'
            )
        body.append(
            f'<tr><th scope="row" class="r" data-row="{esc(r)}">{esc(r)}</th>{"".join(tds)}</tr>'
        )
    lo_c, _ = colour(h.centre - spread, h.centre, spread)
    hi_c, _ = colour(h.centre + spread, h.centre, spread)
    mid_c, _ = colour(h.centre, h.centre, spread)
    legend = (
        f'<div class="legend" id="{hid}-legend"><span>{_pct(h.centre - spread, h.percent)}</span>'
        f'<span class="bar" style="background:linear-gradient(90deg,{lo_c},{mid_c},{hi_c})"></span>'
        f"<span>{_pct(h.centre + spread, h.percent)}</span><span>(centre {_pct(h.centre, h.percent)}: "
        f'{esc(h.centre_label)})</span><span class="swatch nodata-swatch" style="background:'
        'repeating-linear-gradient(45deg,#c9cdd2 0 5px,#eceef0 5px 10px)"></span><span>no data</span></div>'
    )
    extra = "".join(attr(f"data-{k}", v) for k, v in h.extra.items())
    cap = f"<p>{esc(h.caption)}</p>" if h.caption else ""
    return (
        f'<h3 id="{hid}-title">{esc(h.title)}</h3>{cap}'
        f'<table class="heat" id="{hid}" data-heatmap="{esc(h.name)}" data-centre="{h.centre!r}" '
        f'data-spread="{spread!r}"{extra}><thead><tr><th>{corner}</th>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>{legend}"
    )
