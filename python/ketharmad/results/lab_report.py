"""What the lab's reports share: ``report.md`` (:func:`write_report`, for any
:class:`~ketharmad.results.lab.LabResult`), Markdown tables, the provenance lines and the PNG
plot helpers (matplotlib, Agg). Each feature's own report and plots live in its module.

matplotlib is optional (``pip install 'ketharmad[report]'``); it is imported only when a plot
is drawn, and only through its object-oriented API with the Agg canvas, so the user's own
pyplot backend is never touched.
"""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional

from .._version import __version__
from .files import write_atomic

__all__ = ["MissingDependencyError", "require_matplotlib"]


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

    # under a temporary name, then renamed: a crash never leaves a truncated PNG
    return write_atomic(path, lambda tmp: fig.savefig(tmp, format="png", bbox_inches="tight"))


# ---------------------------------------------------------------- plots


# ---------------------------------------------------------------- markdown


def md_table(
    headers: Sequence[str], rows: Sequence[Sequence[Any]], right: Optional[Sequence[bool]] = None
) -> str:
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
        f"* created: {_dt.datetime.now(_dt.UTC).strftime('%Y-%m-%d %H:%M:%S UTC')}",
        f"* ketharmad {prov['run_version']}, card data `{getattr(result, 'card_data', '')}` "
        f"(hash `{prov['run_card_data_hash']}`)",
        f"* bots: `{prov['run_bots']}`; seed {prov['run_seed']}; games {prov['run_games']:,}",
        f"* parameter overrides: `{prov['run_params']}`",
        f"* wall time: {getattr(result, 'elapsed', float('nan')):.1f} s",
    ]
    if run_id:
        lines.append(f"* run id: `{run_id}` (Parquet tables in the sub-folders, one file per run)")
    return lines


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)


def harness_provenance_md(result: Any, run_id: Optional[str] = None) -> list[str]:
    """The provenance lines of the Markdown report of a harness-game run (its game, no card data)."""
    lines = [
        f"* created: {_dt.datetime.now(_dt.UTC).strftime('%Y-%m-%d %H:%M:%S UTC')}",
        f"* ketharmad {__version__}, game `{result.game}`",
        f"* bots: `{result.bots}`; seed {result.seed}; games {result._games_played():,}",
        f"* parameter overrides: `{json.dumps(dict(result.params), sort_keys=True)}`",
        f"* wall time: {result.elapsed:.1f} s",
    ]
    if run_id:
        lines.append(f"* run id: `{run_id}`")
    return lines
