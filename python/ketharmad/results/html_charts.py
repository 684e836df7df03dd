"""Interactive charts of the HTML reports: Vega-Lite specifications drawn by Vega-Embed,
whose JavaScript (Vega, Vega-Lite and Vega-Embed, about 0.9 MB) is embedded in the page from
``vl-convert-python`` (the ``report`` extra; docs/reports.md says why this library). Without
it, each chart's data is shown as a table with a note: the page still works, offline.

Ids (docs/reports.md): ``<div class="chart" id="chart-<name>" data-chart="<name>">``; after
drawing, the element gets ``data-rendered="1"`` (``data-error`` if drawing failed).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Optional

import polars as pl

from .html_page import esc, json_script, note, slug
from .html_table import frame_table

__all__ = [
    "Chart",
    "ChartAssets",
    "chart_library",
    "charts_html",
    "interval_bars",
    "interval_lines",
    "scatter",
    "steps",
]

#: Why a page has no drawn charts (shown in its note).
MISSING_NOTE = (
    "The interactive charts need the <code>report</code> extra "
    "(<code>pip install 'ketharmad[report]'</code>: vl-convert-python, which embeds Vega-Lite "
    "in the page); their data are shown as tables instead."
)


@dataclass
class Chart:
    """One chart: its name (id ``chart-<name>``), title, Vega-Lite ``spec`` (data inline)
    and the same data as a frame (shown when the chart library is missing)."""

    name: str
    title: str
    spec: dict[str, Any]
    data: pl.DataFrame
    caption: str = ""


#: The bundle's entry: Vega-Embed, Vega and Vega-Lite as globals of the page.
_GLOBALS = "window.vegaEmbed = vegaEmbed; window.vega = vega; window.vegaLite = vegaLite;"


@functools.lru_cache(maxsize=1)
def chart_library() -> Optional[str]:
    """The JavaScript of Vega, Vega-Lite and Vega-Embed (one bundle from vl-convert-python,
    built once per process), or None when the ``report`` extra is not installed."""
    try:
        import vl_convert
    except ImportError:
        return None
    return str(vl_convert.javascript_bundle(_GLOBALS))


_EMBED = """
(function(){
"use strict";
var specs=JSON.parse(document.getElementById("kh-chart-specs").textContent);
Object.keys(specs).forEach(function(id){
  var el=document.getElementById(id);if(!el){return;}
  if(typeof vegaEmbed!=="function"){el.setAttribute("data-error","no chart library");return;}
  vegaEmbed(el,specs[id],{actions:false,renderer:"svg",logLevel:0}).then(function(){
    el.setAttribute("data-rendered","1");
  }).catch(function(err){el.setAttribute("data-error",String(err));
    el.textContent="this chart could not be drawn: "+String(err);});
});
})();
"""


@dataclass
class ChartAssets:
    """What a page needs for its charts: each chart's HTML (by name), the library script
    (for the page's head), the specs element and the drawing script (for its end)."""

    html: dict[str, str]
    head_scripts: list[str]
    tail_html: str
    tail_scripts: list[str]


def charts_html(charts: Sequence[Chart]) -> ChartAssets:
    """The HTML and scripts of ``charts``. Without the library: each chart's data table
    and a note, no scripts."""
    library = chart_library() if charts else None
    out: dict[str, str] = {}
    if library is None:
        for c in charts:
            out[c.name] = (
                f'<h3 id="chart-{slug(c.name)}-title">{esc(c.title)}</h3>'
                + (f"<p>{esc(c.caption)}</p>" if c.caption else "")
                + note(MISSING_NOTE)
                + frame_table(c.data, f"chart-{c.name}", filter_box=False)
            )
        return ChartAssets(out, [], "", [])
    specs = {}
    for c in charts:
        cid = f"chart-{slug(c.name)}"
        specs[cid] = c.spec
        out[c.name] = (
            f'<h3 id="{cid}-title">{esc(c.title)}</h3>'
            + (f"<p>{esc(c.caption)}</p>" if c.caption else "")
            + f'<div class="chart" id="{cid}" data-chart="{esc(c.name)}"></div>'
        )
    # the specs as JSON data (never executed), then the script that draws them
    return ChartAssets(out, [library], json_script("kh-chart-specs", specs), [_EMBED])


def _records(df: pl.DataFrame) -> list[dict[str, Any]]:
    """The rows as JSON-ready dicts: a value that is not a finite number (NaN, an infinite
    Elo) becomes null, which Vega-Lite leaves out."""
    return [
        {k: (v if not isinstance(v, float) or math.isfinite(v) else None) for k, v in r.items()}
        for r in df.iter_rows(named=True)
    ]


def _base(title: str) -> dict[str, Any]:
    return {
        "title": {"text": title, "fontSize": 12},
        "config": {"view": {"stroke": None}, "axis": {"labelLimit": 260}},
    }


def interval_bars(
    name: str,
    title: str,
    data: pl.DataFrame,
    *,
    label: str,
    value: str,
    value_title: str,
    low: Optional[str] = None,
    high: Optional[str] = None,
    reference: Optional[float] = None,
    reference_label: str = "even share",
    percent: bool = True,
    colour: Optional[str] = None,
    caption: str = "",
) -> Chart:
    """Horizontal bars of ``value`` per ``label`` (one row each, so labels never overlap)
    with the interval [``low``, ``high``] as error bars (when given) and an optional
    reference line; ``colour``: a column to colour the bars by."""
    scale = 100.0 if percent else 1.0
    cols = [pl.col(label).cast(pl.String).alias("label"), (pl.col(value) * scale).alias("value")]
    if low is not None and high is not None:
        cols += [(pl.col(low) * scale).alias("low"), (pl.col(high) * scale).alias("high")]
    if colour:
        cols.append(pl.col(colour).cast(pl.String).alias("group"))
    d = data.select(cols)
    unit = " (%)" if percent else ""
    tooltip: list[dict[str, Any]] = [
        {"field": "label", "type": "nominal", "title": label},
        {"field": "value", "type": "quantitative", "title": value_title, "format": ".1f"},
    ]
    if low is not None:
        tooltip += [
            {"field": "low", "type": "quantitative", "title": "95% low", "format": ".1f"},
            {"field": "high", "type": "quantitative", "title": "95% high", "format": ".1f"},
        ]
    y = {"field": "label", "type": "nominal", "sort": None, "title": None}
    bar: dict[str, Any] = {
        "mark": {"type": "bar", "height": {"band": 0.7}},
        "encoding": {
            "y": y,
            "x": {"field": "value", "type": "quantitative", "title": value_title + unit},
            "tooltip": tooltip,
            "color": (
                {"field": "group", "type": "nominal", "title": colour}
                if colour
                else {"value": "#5b84b1"}
            ),
        },
    }
    layers: list[dict[str, Any]] = [bar]
    if low is not None:
        layers.append(
            {
                "mark": {"type": "rule", "color": "#222"},
                "encoding": {
                    "y": y,
                    "x": {"field": "low", "type": "quantitative"},
                    "x2": {"field": "high"},
                },
            }
        )
    if reference is not None:
        layers.append(
            {
                "data": {"values": [{"ref": reference * scale, "what": reference_label}]},
                "mark": {"type": "rule", "strokeDash": [4, 3], "color": "#888"},
                "encoding": {
                    "x": {"field": "ref", "type": "quantitative"},
                    "tooltip": [{"field": "what"}, {"field": "ref", "format": ".1f"}],
                },
            }
        )
    spec = _base(title)
    spec.update(
        {"data": {"values": _records(d)}, "width": 520, "height": {"step": 20}, "layer": layers}
    )
    return Chart(name, title, spec, d, caption)


def interval_lines(
    name: str,
    title: str,
    data: pl.DataFrame,
    *,
    x: str,
    value: str,
    low: str,
    high: str,
    series: str,
    x_title: str,
    value_title: str,
    percent: bool = True,
    integer_x: bool = False,
    nominal_x: bool = False,
    reference: Optional[float] = 0.0,
    caption: str = "",
) -> Chart:
    """``value`` against ``x``, one line per ``series`` with interval error bars; clicking
    a legend entry highlights its line; drag to pan, wheel to zoom. ``integer_x``: whole
    ticks only; ``nominal_x``: ``x`` holds names (a choice parameter's values);
    ``reference``: a horizontal line in the chart's units (per cent with ``percent``)."""
    scale = 100.0 if percent else 1.0
    d = data.select(
        pl.col(x).cast(pl.String).alias("x") if nominal_x else pl.col(x).alias("x"),
        (pl.col(value) * scale).alias("value"),
        (pl.col(low) * scale).alias("low"),
        (pl.col(high) * scale).alias("high"),
        pl.col(series).cast(pl.String).alias("series"),
    )
    unit = " (pp)" if percent else ""
    xenc: dict[str, Any] = {"field": "x", "type": "ordinal" if nominal_x else "quantitative",
                            "title": x_title}  # fmt: skip
    if integer_x and not nominal_x:
        xenc["axis"] = {"tickMinStep": 1, "format": "d"}
    opacity = {"condition": {"param": "pick", "value": 1}, "value": 0.15}
    tooltip = [
        {"field": "series", "title": series},
        {"field": "x", "title": x_title},
        {"field": "value", "format": ".2f", "title": value_title},
        {"field": "low", "format": ".2f", "title": "95% low"},
        {"field": "high", "format": ".2f", "title": "95% high"},
    ]
    colour = {"field": "series", "type": "nominal", "title": series}
    params: list[dict[str, Any]] = [
        {"name": "pick", "select": {"type": "point", "fields": ["series"]}, "bind": "legend"}
    ]
    if not nominal_x:  # pan and zoom need a continuous axis
        params.append({"name": "zoom", "select": "interval", "bind": "scales"})
    spec = _base(title)
    spec.update(
        {
            "data": {"values": _records(d)},
            "width": 560,
            "height": 320,
            "layer": [
                {
                    "params": params,
                    "mark": {"type": "line", "point": True},
                    "encoding": {
                        "x": xenc,
                        "y": {
                            "field": "value",
                            "type": "quantitative",
                            "title": value_title + unit,
                        },
                        "color": colour,
                        "opacity": opacity,
                        "tooltip": tooltip,
                    },
                },
                {
                    "mark": {"type": "rule"},
                    "encoding": {
                        "x": xenc,
                        "y": {"field": "low", "type": "quantitative"},
                        "y2": {"field": "high"},
                        "color": colour,
                        "opacity": opacity,
                    },
                },
            ],
        }
    )
    if reference is not None:
        spec["layer"].append(
            {
                "data": {"values": [{"ref": reference}]},
                "mark": {"type": "rule", "strokeDash": [4, 3], "color": "#888"},
                "encoding": {"y": {"field": "ref", "type": "quantitative"}},
            }
        )
    return Chart(name, title, spec, d, caption)


def scatter(
    name: str,
    title: str,
    data: pl.DataFrame,
    *,
    x: str,
    y: str,
    group: str,
    x_title: str,
    y_title: str,
    integer_x: bool = False,
    tooltip: Sequence[str] = (),
    colours: Optional[Mapping[str, str]] = None,
    caption: str = "",
) -> Chart:
    """Points of ``y`` against ``x`` coloured by ``group`` (``colours``: fixed colours by
    group value), with ``tooltip`` columns; integer ticks with ``integer_x``; pan and zoom."""
    cols = list(dict.fromkeys([x, y, group, *tooltip]))
    d = data.select(cols)
    xenc: dict[str, Any] = {"field": x, "type": "quantitative", "title": x_title}
    if integer_x:
        xenc["axis"] = {"tickMinStep": 1, "format": "d"}
        xenc["scale"] = {"nice": False, "padding": 12}
    colour: dict[str, Any] = {"field": group, "type": "nominal", "title": group}
    if colours:
        colour["scale"] = {"domain": list(colours), "range": list(colours.values())}
    spec = _base(title)
    spec.update(
        {
            "data": {"values": _records(d)},
            "width": 520,
            "height": 320,
            "params": [{"name": "zoom", "select": "interval", "bind": "scales"}],
            "mark": {"type": "point", "filled": True, "size": 60},
            "encoding": {
                "x": xenc,
                "y": {"field": y, "type": "quantitative", "title": y_title},
                "color": colour,
                "tooltip": [{"field": c} for c in cols],
            },
        }
    )
    return Chart(name, title, spec, d, caption)


def steps(
    name: str,
    title: str,
    data: pl.DataFrame,
    *,
    x: str,
    y: str,
    x_title: str,
    y_title: str,
    rules: Sequence[tuple[float, str]] = (),
    caption: str = "",
) -> Chart:
    """A line of ``y`` against ``x`` with points and horizontal reference ``rules``
    ((value, label) pairs), e.g. a sequential test's log-likelihood ratio and its bounds."""
    d = data.select(x, y)
    spec = _base(title)
    layers: list[dict[str, Any]] = [
        {
            "params": [{"name": "zoom", "select": "interval", "bind": "scales"}],
            "mark": {"type": "line", "point": True},
            "encoding": {
                "x": {"field": x, "type": "quantitative", "title": x_title},
                "y": {"field": y, "type": "quantitative", "title": y_title},
                "tooltip": [{"field": x}, {"field": y, "format": ".3f"}],
            },
        }
    ]
    if rules:
        layers.append(
            {
                "data": {"values": [{"ref": v, "what": w} for v, w in rules]},
                "mark": {"type": "rule", "strokeDash": [4, 3]},
                "encoding": {
                    "y": {"field": "ref", "type": "quantitative"},
                    "color": {"field": "what", "type": "nominal", "title": None},
                    "tooltip": [{"field": "what"}, {"field": "ref", "format": ".2f"}],
                },
            }
        )
    spec.update({"data": {"values": _records(d)}, "width": 520, "height": 280, "layer": layers})
    return Chart(name, title, spec, d, caption)
