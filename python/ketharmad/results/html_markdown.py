"""The Markdown of a report (``report.md``: headings, paragraphs, bullet lists, tables,
```code```, **bold**; what :mod:`ketharmad.results.lab_report` and the features write) as
HTML, its tables sortable and filterable. Images are left out: the HTML report draws its own
charts (a PNG next to ``report.md`` is not part of a self-contained page)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .html_page import slug
from .html_table import inline_markdown, text_table

__all__ = ["markdown_html"]

_IMAGE = re.compile(r"^!\[[^\]]*\]\([^)]*\)\s*$")


def _cells(line: str) -> list[str]:
    """The cells of a Markdown table row (``\\|`` is a literal bar)."""
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    parts = re.split(r"(?<!\\)\|", body)
    return [p.strip().replace("\\|", "|") for p in parts]


def _is_rule(line: str) -> bool:
    return bool(re.fullmatch(r"\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*", line))


def markdown_html(lines: Sequence[str], name: str = "report") -> str:
    """``lines`` of Markdown (an entry may hold several lines) as HTML; the n-th table gets the id ``table-<name>-<n>``, a
    heading the id ``<name>-<heading slug>``."""
    out: list[str] = []
    para: list[str] = []
    items: list[str] = []
    tables = 0
    i = 0

    def flush() -> None:
        if para:
            out.append(f"<p>{inline_markdown(' '.join(para))}</p>")
            para.clear()
        if items:
            out.append("<ul>" + "".join(f"<li>{inline_markdown(x)}</li>" for x in items) + "</ul>")
            items.clear()

    rows = "\n".join(lines).splitlines()  # an entry may hold several lines (a table)
    while i < len(rows):
        line = rows[i]
        s = line.strip()
        if not s or _IMAGE.match(s):
            flush()
            i += 1
            continue
        m = re.match(r"^(#{1,6})\s+(.*)$", s)
        if m:
            flush()
            level = min(len(m.group(1)) + 1, 6)  # the page's own title is the <h1>
            text = m.group(2)
            out.append(f'<h{level} id="{name}-{slug(text)}">{inline_markdown(text)}</h{level}>')
            i += 1
            continue
        if s.startswith("|") and i + 1 < len(rows) and _is_rule(rows[i + 1]):
            flush()
            headers = _cells(s)
            body = []
            i += 2
            while i < len(rows) and rows[i].strip().startswith("|"):
                body.append(_cells(rows[i]))
                i += 1
            tables += 1
            out.append(text_table(headers, body, f"{name}-{tables}"))
            continue
        if s.startswith(("* ", "- ")):
            if para:
                flush()
            items.append(s[2:])
            i += 1
            continue
        if items and line.startswith("  "):  # a list item's continuation
            items[-1] += " " + s
            i += 1
            continue
        if items:
            flush()
        para.append(s)
        i += 1
    flush()
    return "\n".join(out)
