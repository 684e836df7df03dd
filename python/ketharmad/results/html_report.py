"""``report.html``: the self-contained HTML report of a run (any lab result or a batch),
written by :func:`ketharmad.write_run` and every CLI command with ``--out``.

One file, no network: its summary, its views (heatmaps as HTML tables, each cell with its
value and interval; interactive charts, :mod:`ketharmad.results.html_charts`), the run's
Markdown report as HTML (its tables sortable and filterable), the games to replay with their
commands (and replay pages when available), the run's tables (the first rows of each) and
its provenance. The ids and data attributes a test or a script can rely on are listed in
docs/reports.md.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional, Union

import polars as pl

from .._version import __version__
from .atomic import write_text_atomic
from .html_charts import Chart, charts_html
from .html_heatmap import Heatmap, heatmap_html
from .html_markdown import markdown_html
from .html_page import command_block, esc, note, page, section, slug
from .html_table import MAX_ROWS, frame_table
from .keys import is_per_game, key_columns
from .replay_links import GameRef, listed_games, replay_command, replays_folder, write_replays

__all__ = ["report_html", "write_html_report", "command_line", "View"]

#: Rows shown of a per-game table (games, players, card records, plays): a sample; the Parquet
#: files hold them all.
PER_GAME_ROWS = 50

#: What a result's ``html_views()`` returns: heatmaps and charts, in page order.
View = Union[Heatmap, Chart]


def command_line(argv: Optional[Sequence[str]] = None) -> str:
    """The command line of this process (or ``argv``) as one shell-quoted string."""
    args = list(sys.argv if argv is None else argv)
    if args and args[0].endswith(("__main__.py", "ketharmad")):
        args[0] = "ketharmad"
    return shlex.join(args)


def _title(result: Any, md: Optional[list[str]]) -> str:
    if md:
        for line in md:
            if line.startswith("# "):
                return line[2:].strip()
    kind = getattr(result, "kind", "run")
    return f"{kind} run"


def _provenance(result: Any, run_id: Optional[str], command: Optional[str], created: str) -> str:
    prov = dict(result._provenance())
    rows: list[tuple[str, str, str]] = [
        ("run id", "run-id", run_id or "(not written as a run)"),
        ("kind", "kind", prov.get("run_kind", "")),
        ("ketharmad version", "version", prov.get("run_version", __version__)),
        ("card data", "card-data", str(getattr(result, "card_data", "") or "")),
        ("card-data hash", "card-data-hash", prov.get("run_card_data_hash", "")),
        ("seed", "seed", str(prov.get("run_seed", ""))),
        ("games", "games", f"{int(prov.get('run_games', 0)):,}"),
        ("bots", "bots", prov.get("run_bots", "")),
        ("decks", "decks", prov.get("run_decks", "")),
        ("parameter overrides", "params", prov.get("run_params", "")),
        ("command line", "command", command or "(Python)"),
        ("created", "created", created),
        ("wall time", "elapsed", f"{float(getattr(result, 'elapsed', float('nan'))):.2f} s"),
        ("python", "python", f"{platform.python_version()} on {platform.system()} {platform.machine()}"),
    ]  # fmt: skip
    items = "".join(
        f'<dt>{esc(label)}</dt><dd id="prov-{key}" data-prov="{key}">{esc(value)}</dd>'
        for label, key, value in rows
    )
    plan = getattr(result, "plan", None)
    extra = ""
    if plan:
        text = json.dumps(plan, ensure_ascii=False, default=str, indent=1)
        extra = (
            f"<details><summary>the plan: {len(plan):,} cells (decks, bots, parameters, start "
            f"player, game range)</summary><pre>{esc(text)}</pre></details>"
        )
    return f'<dl class="prov" id="provenance-list">{items}</dl>{extra}'


def _games_html(games: list[GameRef], why_no_pages: Optional[str]) -> str:
    if not games:
        return note("This run lists no games to replay (it keeps no per-game cells or rows).")
    rows = []
    for g in games:
        link = (
            f'<a href="{esc(g.file)}" data-replay-link="{esc(g.file)}">{esc(g.file)}</a>'
            if g.written
            else '<span class="muted">(no page)</span>'
        )
        problem = f"<br><small>{esc(g.problem)}</small>" if g.problem else ""
        rows.append(
            f'<tr data-game="{esc(g.game)}-{g.index}"><td class="t">{esc(g.label)}</td>'
            f'<td data-value="{g.index}">{g.index:,}</td><td data-value="{g.seed}">{g.seed}</td>'
            f'<td class="t">{command_block(replay_command(g))}{problem}</td><td class="t">{link}</td></tr>'
        )
    head = "".join(
        f'<th data-col="{c}"{" class=t" if c not in ("index", "seed") else ""}>{c}</th>'
        for c in ("game", "index", "seed", "replay command", "replay page")
    )
    intro = note(esc(why_no_pages)) if why_no_pages else ""
    return (
        f'{intro}<div class="wrap"><table class="kh" id="table-games-to-replay" '
        f'data-table="games-to-replay" data-rows="{len(games)}"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _tables_html(tables: dict[str, pl.DataFrame], max_rows: int) -> str:
    parts = []
    for i, (name, df) in enumerate(tables.items()):
        keys = key_columns(df.columns)
        rows = min(max_rows, PER_GAME_ROWS) if is_per_game(df.columns) else max_rows
        body = frame_table(df, name, max_rows=rows, keys=keys)
        opened = " open" if i == 0 else ""
        parts.append(
            f'<details id="data-{slug(name)}"{opened}><summary>{esc(name)}: {df.height:,} rows, '
            f"{df.width} columns</summary>{body}</details>"
        )
    return "\n".join(parts)


def _views_html(views: Sequence[View]) -> tuple[str, list[str], str, list[str]]:
    charts = [v for v in views if isinstance(v, Chart)]
    assets = charts_html(charts)
    parts = []
    for v in views:
        if isinstance(v, Heatmap):
            parts.append(heatmap_html(v))
        else:
            parts.append(assets.html[v.name])
    return "\n".join(parts), assets.head_scripts, assets.tail_html, assets.tail_scripts


def report_html(
    result: Any,
    *,
    run_id: Optional[str] = None,
    command: Optional[str] = None,
    created: Optional[_dt.datetime] = None,
    games: Optional[list[GameRef]] = None,
    why_no_pages: Optional[str] = None,
    max_rows: int = MAX_ROWS,
) -> str:
    """The HTML text of ``result``'s report (see the module's docstring)."""
    when = (created or _dt.datetime.now(_dt.UTC)).strftime("%Y-%m-%d %H:%M:%S UTC")
    md = result._markdown(None, False) if hasattr(result, "_markdown") else None
    title = _title(result, md)
    kind = getattr(result, "kind", "run")
    text = result.text() if hasattr(result, "text") else repr(result)
    views: list[View] = list(result.html_views()) if hasattr(result, "html_views") else []
    games = listed_games(result) if games is None else games
    views_html, head_scripts, tail_html, tail_scripts = _views_html(views)
    tables = result._parquet_tables()
    nav = [("summary", "Summary")]
    body = [section("summary", "Summary", f'<pre id="summary-text">{esc(text)}</pre>')]
    if views:
        nav.append(("views", "Heatmaps and charts"))
        body.append(section("views", "Heatmaps and charts", views_html))
    if md:
        nav.append(("report", "Report"))
        lines = [x for x in "\n".join(md).splitlines() if not x.startswith("# ")]
        body.append(section("report", "Report", markdown_html(lines, "report")))
    nav.append(("games", "Games to replay"))
    body.append(section("games", "Games to replay", _games_html(games, why_no_pages)))
    nav.append(("tables", "Tables"))
    body.append(
        section(
            "tables",
            "Tables",
            "<p>Each table of the run (the Parquet files hold every row).</p>"
            + _tables_html(tables, max_rows),
        )
    )
    nav.append(("provenance", "Provenance"))
    body.append(section("provenance", "Provenance", _provenance(result, run_id, command, when)))
    header = (
        f'<header><h1 id="title">{esc(title)}</h1><p class="sub" id="subtitle">'
        f"{esc(kind)} · ketharmad {esc(__version__)} · "
        f"{'run ' + esc(run_id) + ' · ' if run_id else ''}written {esc(when)}</p><nav>"
        + "".join(f'<a href="#{sid}">{esc(label)}</a>' for sid, label in nav)
        + "</nav></header>"
    )
    return page(
        title,
        header + "\n" + "\n".join(body) + tail_html,
        page_kind="report",
        head_scripts=head_scripts,
        tail_scripts=tail_scripts,
        body_attrs={"data-kind": kind, "data-run-id": run_id},
    )


def write_html_report(
    result: Any,
    target: Union[str, os.PathLike[str]],
    *,
    run_id: Optional[str] = None,
    command: Optional[str] = None,
    replays: bool = True,
    max_rows: int = MAX_ROWS,
) -> Path:
    """Write ``result``'s report: ``target`` a folder (``target/report.html``) or a file
    ending in ``.html``; with ``replays``, the replay pages of the listed games into
    ``replays/`` next to a ``report.html`` (``<name>.replays/`` next to another page:
    :func:`~ketharmad.results.replay_links.replays_folder`; when the replay writer exists). Written atomically (a temporary
    file renamed into place). Returns the report's path."""
    if isinstance(target, bytes) or not isinstance(target, (str, os.PathLike)):
        raise ValueError(
            f"the report's target must be a folder or an .html file path, got {type(target).__name__}"
        )
    path = Path(target)
    if path.is_dir() and path.suffix.lower() == ".html":
        raise ValueError(
            f"{os.fspath(path)!r} is a folder; give an .html file path or the folder to write into"
        )
    if path.suffix.lower() != ".html" and path.is_file():
        raise ValueError(f"{os.fspath(path)!r} is a file; give a folder or a path ending in .html")
    if path.suffix.lower() != ".html":
        path.mkdir(parents=True, exist_ok=True)
        path = path / "report.html"
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
    games = listed_games(result, replays_folder(path))
    why = write_replays(games, path.parent) if replays and games else None
    text = report_html(result, run_id=run_id, command=command, games=games, why_no_pages=why,
                       max_rows=max_rows)  # fmt: skip
    return write_text_atomic(path, text)
