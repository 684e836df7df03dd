"""The CLI's ``--out FOLDER`` holds one run: a folder that already holds an earlier run is
refused unless ``--overwrite``, which replaces it (its Parquet files, reports, plots and
replay pages are removed once the new run has finished, just before the new files are
written). The Python :func:`ketharmad.write_run` keeps its own rule: one folder may collect
many runs, each under its ``run_id`` (docs/reports.md)."""

from __future__ import annotations

import os
import re
from pathlib import Path

__all__ = ["earlier_runs", "check_reuse", "clear_earlier_runs", "REPORT_FILES"]

#: The files a run's reports write at the top of its folder (besides the PNGs report.md names).
REPORT_FILES = ("report.md", "report.html", "cards_balanced.toml")


def earlier_runs(folder: Path) -> list[str]:
    """The run ids of the complete runs in ``folder`` (``runs/<run_id>.parquet``), sorted."""
    runs = Path(folder) / "runs"
    if not runs.is_dir():
        return []
    return sorted(p.stem for p in runs.glob("*.parquet") if not p.name.startswith("."))


def check_reuse(folder: Path, overwrite: bool, name: str = "--out") -> None:
    """Refuse (``ValueError``) a ``folder`` that already holds a run, unless ``overwrite``."""
    if overwrite:
        return
    ids = earlier_runs(folder)
    if ids:
        shown = ", ".join(ids[:3]) + (f" and {len(ids) - 3} more" if len(ids) > 3 else "")
        raise ValueError(
            f"{name} {os.fspath(folder)!r} already holds a run ({shown}: runs/<run_id>.parquet "
            "already exists); choose another folder or pass --overwrite to replace it"
        )


_IMAGE = re.compile(r"!\[[^\]]*\]\(([^)/\\]+\.png)\)")


def clear_earlier_runs(folder: Path) -> list[Path]:
    """Remove what the earlier runs of ``folder`` wrote: each run's Parquet files
    (``<table>/<run_id>.parquet``, the ``runs`` row last), ``report.md`` and the PNGs it
    names, ``report.html``, ``cards_balanced.toml`` and the replay pages (``replays/*.html``);
    table folders left empty are removed. Nothing else is touched. Returns the removed files."""
    root = Path(folder)
    removed: list[Path] = []
    if not root.is_dir():
        return removed

    def rm(p: Path) -> None:
        try:
            p.unlink()
            removed.append(p)
        except FileNotFoundError:
            pass

    ids = earlier_runs(root)
    for rid in ids:  # the runs row first: the run stops being complete before its tables go
        rm(root / "runs" / f"{rid}.parquet")
    subs = [p for p in root.iterdir() if p.is_dir() and p.name not in ("replays",)]
    for sub in subs:
        for rid in ids:
            rm(sub / f"{rid}.parquet")
        try:
            if not any(sub.iterdir()):
                sub.rmdir()
        except OSError:
            pass
    md = root / "report.md"
    if md.is_file():
        for name in _IMAGE.findall(md.read_text(encoding="utf-8", errors="replace")):
            rm(root / name)
    for name in REPORT_FILES:
        rm(root / name)
    replays = root / "replays"
    if replays.is_dir():
        for p in replays.glob("*.html"):
            rm(p)
        try:
            replays.rmdir()
        except OSError:
            pass
    return removed
