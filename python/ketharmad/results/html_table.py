"""Sortable, filterable HTML tables: from a Polars DataFrame (each cell's exact value in
``data-value``) or from rows of text (a Markdown table of a report; a cell that starts with
a number sorts by it).

Ids and attributes (docs/reports.md): ``<table class="kh" id="table-<name>"
data-table="<name>" data-rows="<rows in the table>" data-total-rows="<rows of the frame>">``,
``<th data-col="<column>">``, ``<tr data-row="<key values joined by ->">`` when the frame
has key columns, ``<td data-col="<column>" data-value="<value>">``; the filter box
``<input data-filter-for="table-<name>">`` and its count ``<span data-count-for=...>``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any, Optional

import polars as pl

from .html_page import attr, esc, slug
from .keys import key_columns

__all__ = ["frame_table", "text_table", "format_value", "number_of"]

#: Rows of a frame shown in a report by default (the rest are in the Parquet files).
MAX_ROWS = 200

_RATE_WORDS = ("rate", "ci_low", "ci_high", "share", "_low", "_high")


def _is_rate_column(name: str) -> bool:
    n = name.lower()
    if any(w in n for w in ("elo", "rating", "llr", "turn", "point", "suspicion", "z_")):
        return False
    return n == "value" or any(w in n for w in _RATE_WORDS) or n in ("iwd", "diff", "score")


def format_value(name: str, value: Any) -> str:
    """How a frame's value is shown: rates in per cent, other floats to 4 significant
    digits, integers with thousands separators, None as an empty cell."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}" if abs(value) < 10**15 else str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        if _is_rate_column(name) and -1.5 <= value <= 1.5:
            return f"{100 * value:.1f}%"
        return f"{value:.4g}"
    if isinstance(value, (list, tuple)):
        return ", ".join(format_value(name, v) for v in value)
    return str(value)


def _data_value(value: Any) -> Optional[str]:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (int, float)):
        return repr(value) if isinstance(value, float) else str(value)
    return None  # text: the cell's text is its sort key


def frame_table(
    df: pl.DataFrame,
    name: str,
    *,
    caption: Optional[str] = None,
    max_rows: int = MAX_ROWS,
    keys: Optional[Sequence[str]] = None,
    filter_box: bool = True,
) -> str:
    """``df`` as a sortable, filterable table (its first ``max_rows`` rows, with a note of how
    many there are); ``keys`` (default: :func:`ketharmad.results.keys.key_columns`) name each
    row in ``data-row``."""
    table_id = f"table-{slug(name)}"
    shown = df.head(max_rows)
    keys = list(key_columns(df.columns) if keys is None else keys)
    head = "".join(
        f'<th data-col="{esc(c)}"{" class=t" if not _numeric(df.schema[c]) else ""}>{esc(c)}</th>'
        for c in df.columns
    )
    numeric = {c: _numeric(df.schema[c]) for c in df.columns}
    body: list[str] = []
    for row in shown.iter_rows(named=True):
        rid = "-".join(str(row[k]) for k in keys) if keys else None
        cells = []
        for c in df.columns:
            v = row[c]
            dv = _data_value(v)
            cls = "" if numeric[c] else ' class="t"'
            cells.append(
                f'<td data-col="{esc(c)}"{attr("data-value", dv)}{cls}>{esc(format_value(c, v))}</td>'
            )
        body.append(f"<tr{attr('data-row', rid)}>{''.join(cells)}</tr>")
    more = (
        f" (the first {shown.height:,} of {df.height:,} rows; all of them are in the Parquet files)"
        if df.height > shown.height
        else ""
    )
    tools = ""
    if filter_box:
        tools = (
            f'<div class="tools">filter: <input type="search" data-filter-for="{table_id}" '
            f'aria-label="filter {esc(name)}"> <span data-count-for="{table_id}">{shown.height}</span> '
            f"rows shown{esc(more)}</div>"
        )
    cap = f"<caption>{esc(caption)}</caption>" if caption else ""
    return (
        f'{tools}<div class="wrap"><table class="kh" id="{table_id}" data-table="{esc(name)}" '
        f'data-rows="{shown.height}" data-total-rows="{df.height}">{cap}<thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def _numeric(dtype: pl.DataType) -> bool:
    return dtype.is_numeric() or dtype == pl.Boolean


_NUMBER = re.compile(r"^\s*([-+−]?\d[\d,]*(?:\.\d+)?)")


def number_of(text: str) -> Optional[float]:
    """The number a text cell starts with (``"52.3% [50.1, 54.4]"`` -> 52.3, ``"1,234"`` ->
    1234), or None."""
    m = _NUMBER.match(text)
    if not m:
        return None
    try:
        return float(m.group(1).replace(",", "").replace("−", "-"))
    except ValueError:
        return None


def text_table(
    headers: Sequence[str], rows: Sequence[Sequence[str]], name: str, *, filter_box: bool = True
) -> str:
    """Rows of text (already formatted, e.g. a report's Markdown table) as a sortable table: a
    cell that starts with a number sorts by that number (``data-value``)."""
    table_id = f"table-{slug(name)}"
    numeric_col = [
        all(number_of(r[i]) is not None or not r[i].strip() for r in rows if i < len(r))
        and any(i < len(r) and r[i].strip() for r in rows)
        for i in range(len(headers))
    ]
    head = "".join(
        f'<th data-col="{esc(h)}"{"" if numeric_col[i] else " class=t"}>{inline_markdown(h)}</th>'
        for i, h in enumerate(headers)
    )
    body = []
    for r in rows:
        cells = []
        for i, text in enumerate(list(r) + [""] * (len(headers) - len(r))):
            n = number_of(text) if numeric_col[i] else None
            cls = "" if numeric_col[i] else ' class="t"'
            dv = attr("data-value", repr(n)) if n is not None else ""
            cells.append(f"<td{dv}{cls}>{inline_markdown(text)}</td>")
        body.append(f"<tr>{''.join(cells)}</tr>")
    tools = ""
    if filter_box and len(rows) > 8:
        tools = (
            f'<div class="tools">filter: <input type="search" data-filter-for="{table_id}" '
            f'aria-label="filter"> <span data-count-for="{table_id}">{len(rows)}</span> rows shown</div>'
        )
    return (
        f'{tools}<div class="wrap"><table class="kh" id="{table_id}" data-table="{esc(name)}" '
        f'data-rows="{len(rows)}"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'
    )


_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*([^*]+)\*\*")


def inline_markdown(text: str) -> str:
    """Markdown inline markup (`code`, **bold**) of escaped text."""
    out = esc(text)
    out = _CODE.sub(lambda m: f"<code>{m.group(1)}</code>", out)
    return _BOLD.sub(lambda m: f"<strong>{m.group(1)}</strong>", out)
