"""The progressive ``report.html`` of a long run: a :class:`LiveReport` watches the runners
(:mod:`ketharmad.run.live`) and, as shards finish, rewrites the report atomically at most
once every ``interval`` seconds with the share of games done and every cell's win rate and
Wilson interval so far (a two-seat run also as a heatmap, cells not started yet hatched as
"no data"). The page reloads itself; when the run ends the full report replaces it.

Ids (docs/reports.md): ``<body data-page="live-report">``, ``#live-status`` (``data-state``
running / interrupted / failed, ``data-done``, ``data-total``, ``data-stage``),
``<progress id="live-progress">``, ``#heatmap-live`` and ``#table-live-cells``.
"""

from __future__ import annotations

import datetime as _dt
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import numpy as np
import polars as pl

from .._version import __version__
from ..stats import wilson_interval
from .atomic import write_text_atomic
from .html_heatmap import HeatCell, Heatmap, heatmap_html
from .html_page import esc, page, section
from .html_table import frame_table

__all__ = ["LiveReport", "DEFAULT_INTERVAL"]

#: Seconds between two rewrites of a live report at most (and before the first).
DEFAULT_INTERVAL = 5.0


@dataclass
class _Cell:
    decks: list[str]
    start_player: Optional[int]
    planned: int
    done: int = 0
    counted: int = 0  # games whose winner is known (wins counted)
    wins: list[int] = field(default_factory=list)


def _wins(result: Any, seats: int) -> Optional[tuple[int, list[int]]]:
    """(games, wins per seat) of a shard's result, or None when it does not say."""
    if hasattr(result, "wins_seat") and hasattr(result, "games"):  # Stats
        return int(result.games), [int(w) for w in result.wins_seat][:seats]
    games = getattr(result, "games", None)
    if isinstance(games, pl.DataFrame) and "winner" in games.columns:  # frames
        counts = games["winner"].drop_nulls().value_counts()
        by = {int(w): int(n) for w, n in counts.iter_rows() if w is not None and w >= 0}
        return games.height, [by.get(s, 0) for s in range(seats)]
    if isinstance(result, dict) and "winner" in result:  # outcome columns
        w = np.asarray(result["winner"])
        won = np.bincount(w[w >= 0].astype(np.int64), minlength=seats)
        return int(w.shape[0]), [int(x) for x in won[:seats]]
    return None


class LiveReport:
    """A :class:`ketharmad.run.live.Watcher` that keeps ``path`` (a ``report.html``) up to
    date while a run goes: ``title`` heads the page, ``command`` is shown,
    ``interval`` seconds at least between rewrites (0: after every shard, for tests)."""

    def __init__(
        self,
        path: Path,
        title: str = "run",
        command: Optional[str] = None,
        interval: float = DEFAULT_INTERVAL,
    ) -> None:
        self.path = Path(path)
        self.title = title
        self.command = command
        self.interval = float(interval)
        self.started = time.monotonic()
        self.started_at = _dt.datetime.now(_dt.UTC)
        self.last_write = self.started
        self.writes = 0
        self.stage = 0
        self.total = 0  # games planned in this stage
        self.done = 0  # games done in this stage
        self.done_all = 0  # games done in every stage
        self.cells: list[_Cell] = []
        self.problem = ""  # why the page stopped being written (an OSError), or ""

    # -- the watcher -----------------------------------------------------------------------

    def plan_started(self, cells: Optional[Sequence[dict[str, Any]]], games: int) -> None:
        self.stage += 1
        self.total, self.done = int(games), 0
        self.cells = [
            _Cell([str(d) for d in c.get("decks", [])], c.get("start_player"), int(c.get("games", 0)),
                  wins=[0] * len(c.get("decks", [])))
            for c in cells or []
        ]  # fmt: skip

    def shard_done(self, cell: Optional[int], games: int, result: Any) -> None:
        self.done += games
        self.done_all += games
        if cell is not None and 0 <= cell < len(self.cells):
            c = self.cells[cell]
            c.done += games
            got = _wins(result, len(c.wins))
            if got is not None:
                c.counted += got[0]
                c.wins = [a + b for a, b in zip(c.wins, got[1] + [0] * len(c.wins), strict=False)]
        now = time.monotonic()
        if now - self.last_write >= self.interval:
            self.write()

    # -- the page --------------------------------------------------------------------------

    def write(self, state: str = "running", message: str = "") -> Optional[Path]:
        """Rewrite the page now (atomically; its folder is made). A page that cannot be
        written (a full disk, a folder removed, any error) stops the live report, never the
        run: the error is kept in ``problem`` and None returned."""
        self.last_write = time.monotonic()
        if self.problem:
            return None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            out = write_text_atomic(self.path, self.html(state, message))
        except Exception as e:  # noqa: BLE001 - the live page must never stop the run it watches
            self.problem = (
                f"the live report {self.path} could not be written: {type(e).__name__}: {e}"
            )
            return None
        self.writes += 1
        return out

    def close(self, state: str, message: str = "") -> None:
        """The run stopped (``interrupted`` / ``failed``): if a live page was written, say so
        on it (no more reloads)."""
        if self.writes:
            self.write(state, message)

    def _heatmap(self) -> Optional[Heatmap]:
        pairs: dict[tuple[str, str], list[int]] = {}
        sides: list[str] = []
        for c in self.cells:
            if len(c.decks) != 2:
                return None
            a, b = c.decks
            sides += [a, b]
            for (r, k), seat in (((a, b), 0), ((b, a), 1)):
                if a == b and seat == 1:
                    continue
                acc = pairs.setdefault((r, k), [0, 0])
                acc[0] += c.wins[seat]
                acc[1] += c.counted
        if not pairs:
            return None
        cells = {}
        for key, (won, n) in pairs.items():
            if n:
                lo, hi = wilson_interval(won, n)
                cells[key] = HeatCell(won / n, lo, hi, n)
        order = list(dict.fromkeys(sides))
        return Heatmap("live", "Win rate of the row side against the column side, so far", order, order,
                       cells, 0.5, 0.1, "side", "opponent",
                       "Every game played so far, both start players pooled; Wilson 95% intervals. "
                       "Cells not started yet have no data.")  # fmt: skip

    def _cells_table(self) -> str:
        rows = []
        for i, c in enumerate(self.cells):
            n, w = c.counted, (c.wins[0] if c.wins else 0)
            lo, hi = wilson_interval(w, n) if n else (math.nan, math.nan)
            rows.append({"cell": i, "decks": " vs ".join(c.decks), "start_player": c.start_player,
                         "games": c.done, "planned": c.planned, "share_done": c.done / c.planned if c.planned else 0.0,
                         "seat0_wins": w, "win_rate": w / n if n else None, "ci_low": lo if n else None,
                         "ci_high": hi if n else None})  # fmt: skip
        if not rows:
            return "<p>This stage's shards report no cells (a game on the harness): games are counted only.</p>"
        df = pl.DataFrame(rows, infer_schema_length=None)
        return frame_table(df, "live-cells", max_rows=500, keys=["cell"])

    def html(self, state: str = "running", message: str = "") -> str:
        elapsed = time.monotonic() - self.started
        rate = self.done_all / elapsed if elapsed > 0 else 0.0
        share = self.done / self.total if self.total else 0.0
        now = _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
        what = {"running": "Run in progress", "interrupted": "Run interrupted",
                "failed": "Run failed"}.get(state, state)  # fmt: skip
        reload = (
            f" This page reloads itself every {self._refresh()} s; the full report replaces it "
            "when the run ends."
            if state == "running"
            else ""
        )
        status = (
            f'<p class="live" id="live-status" data-state="{esc(state)}" data-done="{self.done}" '
            f'data-total="{self.total}" data-stage="{self.stage}"><strong>{esc(what)}</strong>: '
            f"{100 * share:.1f}% of this stage's {self.total:,} games done (stage {self.stage}; "
            f"{self.done_all:,} games in all, {rate:,.0f} games/s, {elapsed:,.0f} s since the start). "
            f"{esc(message)}{reload}</p>"
            f'<progress id="live-progress" value="{self.done}" max="{max(1, self.total)}"></progress>'
        )
        body = [status]
        h = self._heatmap()
        if h is not None:
            body.append(section("live-views", "So far", heatmap_html(h)))
        body.append(section("live-cells", "Cells of this stage", self._cells_table()))
        prov = (
            f'<dl class="prov"><dt>command line</dt><dd id="prov-command">{esc(self.command or "(Python)")}</dd>'
            f"<dt>ketharmad version</dt><dd>{esc(__version__)}</dd><dt>started</dt>"
            f"<dd>{esc(self.started_at.strftime('%Y-%m-%d %H:%M:%S UTC'))}</dd><dt>this page</dt>"
            f"<dd>{esc(now)}</dd></dl>"
        )
        body.append(section("provenance", "Provenance", prov))
        header = (
            f'<header><h1 id="title">{esc(self.title)}</h1><p class="sub">live report · ketharmad '
            f"{esc(__version__)} · updated {esc(now)}</p></header>"
        )
        return page(
            f"{self.title} ({100 * share:.0f}%)",
            header + "\n".join(body),
            page_kind="live-report",
            refresh=self._refresh() if state == "running" else None,
        )

    def _refresh(self) -> int:
        return max(2, int(round(self.interval)) or 2)
