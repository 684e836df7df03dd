"""What every command with ``--out`` does with it: checks before any game runs (a folder that
can be written, no earlier run in it unless ``--overwrite``, a new ``--run-id``), the live
``report.html`` while the run goes, and at the end the run's Parquet tables, ``report.md``
(with PNG plots) and ``report.html`` (docs/reports.md)."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Optional

from ..results.files import check_new_run, check_out_file, check_out_folder, write_run
from ..results.html_report import write_html_report
from ..results.lab import write_report
from ..results.lab_report import require_matplotlib
from ..results.live_report import DEFAULT_INTERVAL, LiveReport
from ..results.out_folder import check_reuse, clear_earlier_runs
from ..run.live import watching

__all__ = ["check_out", "finish", "write_out", "live_for", "sim_report_path", "check_sim_report"]


def _command(args: argparse.Namespace) -> Optional[str]:
    return getattr(args, "command_line", None)


def check_out(args: argparse.Namespace, plots_required: bool = True) -> None:
    """Fail before any game runs when the plots cannot be drawn (``plots_required`` and no
    ``--no-plots``), --out is not a folder that exists or can be made and is writable, it
    already holds a run (unless --overwrite) or --run-id names a run already in it."""
    run_id = getattr(args, "run_id", None)
    overwrite = bool(getattr(args, "overwrite", False))
    if not args.out:
        if run_id is not None or overwrite:
            raise ValueError("--run-id and --overwrite need --out FOLDER")
        return
    folder = check_out_folder(args.out)
    check_reuse(folder, overwrite)
    check_new_run(folder, run_id, overwrite)
    if plots_required and getattr(args, "no_plots", True) is False:
        require_matplotlib()


def write_out(
    result: Any,
    args: argparse.Namespace,
    markdown: Optional[Callable[[str], Path]] = None,
) -> tuple[str, Path, Path]:
    """Write the run into ``args.out``: with ``--overwrite`` the earlier runs' files are
    removed first; then the Parquet tables, ``report.md`` (``markdown(run_id)``, default
    :func:`ketharmad.write_report`) and ``report.html``. Returns the run id and the two
    reports' paths."""
    out = Path(args.out)
    overwrite = bool(getattr(args, "overwrite", False))
    if overwrite:
        clear_earlier_runs(out)
    written = write_run(result, out, run_id=getattr(args, "run_id", None), overwrite=overwrite,
                        report=False)  # fmt: skip
    run_id = written["runs"].stem
    if markdown is None:
        md = write_report(result, out, plots=not getattr(args, "no_plots", True), run_id=run_id)
    else:
        md = markdown(run_id)
    html = write_html_report(result, out, run_id=run_id, command=_command(args))
    return run_id, md, html


def finish(result: Any, args: argparse.Namespace) -> None:
    """Print the result; with ``--out``, write it (:func:`write_out`) and say where."""
    print(result)
    if not args.out:
        return
    run_id, md, html = write_out(result, args)
    tables = sorted(
        p.name
        for p in Path(args.out).iterdir()
        if p.is_dir() and (p / f"{run_id}.parquet").exists()
    )
    tables = [t for t in tables if t != "runs"]
    print(f"wrote run {run_id} to {args.out}: Parquet tables {', '.join(tables)}; report {md}; "
          f"HTML report {html}")  # fmt: skip


@contextlib.contextmanager
def live_for(args: argparse.Namespace, title: str) -> Iterator[Optional[LiveReport]]:
    """With ``--out``, a live ``report.html`` in it while the block runs (rewritten at most
    every few seconds as shards finish; :class:`ketharmad.results.live_report.LiveReport`);
    on an error or Ctrl-C a page already written says the run stopped."""
    if not getattr(args, "out", None):
        yield None
        return
    path = sim_report_path(args.out) if _is_file(args.out) else Path(args.out) / "report.html"
    live = LiveReport(path, title, _command(args), getattr(args, "live_interval", DEFAULT_INTERVAL))
    try:
        with watching(live):
            yield live
    except KeyboardInterrupt:
        live.close("interrupted", "The run was interrupted (Ctrl-C); nothing more will be written.")
        raise
    except BaseException as e:
        live.close("failed", f"{type(e).__name__}: {e}")
        raise


def _is_file(out: str) -> bool:
    return Path(out).suffix.lower() in (".parquet", ".csv")


def sim_report_path(out: Any) -> Path:
    """The HTML report of ``simulate --out FILE``: ``FILE`` with ``.report.html`` for its
    suffix (``games.parquet`` -> ``games.report.html``), next to it."""
    return Path(out).with_suffix(".report.html")


def check_sim_report(out: Any, overwrite: bool) -> Path:
    """Refuse (``ValueError``) an existing report of ``simulate --out FILE`` unless
    ``--overwrite``; returns its path."""
    return check_out_file(sim_report_path(out), (".html",), overwrite=overwrite)
