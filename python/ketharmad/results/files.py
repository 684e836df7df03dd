"""Writing results as Parquet with provenance, one file per table and run.

Layout: ``folder/<table>/<run_id>.parquet`` (e.g. ``runs/games/simulate-20260101T120000-3f2a9c1d.parquet``)
plus one row per run in ``folder/runs/<run_id>.parquet``. Every file carries the same
provenance columns, so a folder that collects many runs is read as one table per kind::

    pl.scan_parquet("out/matchups/*.parquet").filter(pl.col("run_bots") == '["heuristic"]')
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import tempfile
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Optional, Protocol, Union

import polars as pl

from .. import _core
from .._version import __version__
from ..game.agents import agent_label, is_agent
from ..game.data import load_card_data
from .atomic import discard as _discard
from .atomic import temp_name, write_atomic
from .html_report import command_line, write_html_report

__all__ = [
    "PROVENANCE_COLUMNS",
    "write_run",
    "provenance",
    "new_run_id",
    "write_atomic",
    "check_folder",
    "check_out_folder",
    "check_out_file",
    "check_new_run",
]

#: Columns added to every written table (same names and types in every file).
PROVENANCE_COLUMNS = (
    "run_id",  # str: <kind>-<UTC time>-<8 hex digits>, the file's stem
    "run_kind",  # str: simulate | matchups | card_stats | sweep | tournament | balance
    "run_version",  # str: ketharmad version
    "run_card_data_hash",  # str: _core.card_data_hash of the card-data text (16 hex digits)
    "run_params",  # str: the parameter overrides as JSON (sorted keys)
    "run_bots",  # str: the bot specs as JSON
    "run_decks",  # str: the decks / deck pairings as JSON
    "run_seed",  # u64: the batch seed
    "run_games",  # i64: games played in the run
    "run_created",  # datetime[us, UTC]: when the files were written
)


class _Writable(Protocol):
    def _parquet_tables(self) -> dict[str, pl.DataFrame]: ...
    def _provenance(self) -> dict[str, Any]: ...


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=_json_default)


def _json_default(value: Any) -> str:
    """A Python agent among the bots is written as its label (``"python:<name>"``)."""
    return agent_label(value) if is_agent(value) else str(value)


def provenance(
    kind: str,
    card_text: str,
    params: Mapping[str, Any],
    bots: Any,
    decks: Any,
    seed: int,
    games: int,
) -> dict[str, Any]:
    """The provenance values of a run (without ``run_id`` and ``run_created``)."""
    return {
        "run_kind": kind,
        "run_version": __version__,
        "run_card_data_hash": _core.card_data_hash(card_text),
        "run_params": _json(dict(params)),
        "run_bots": _json(bots),
        "run_decks": _json(decks),
        "run_seed": int(seed),
        "run_games": int(games),
    }


def new_run_id(kind: str) -> str:
    """``<kind>-<UTC yyyymmddThhmmss>-<8 random hex digits>``: unique, sortable by time."""
    now = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%S")
    return f"{kind}-{now}-{uuid.uuid4().hex[:8]}"


def _provenance_exprs(values: Mapping[str, Any]) -> list[pl.Expr]:
    types: dict[str, pl.DataType] = {
        "run_seed": pl.UInt64(),
        "run_games": pl.Int64(),
        "run_created": pl.Datetime("us", "UTC"),
    }
    return [pl.lit(values[c], dtype=types.get(c, pl.String())).alias(c) for c in PROVENANCE_COLUMNS]


def _check_run_id(run_id: str) -> str:
    if (
        not isinstance(run_id, str)
        or not run_id
        or os.sep in run_id
        or "/" in run_id
        or run_id.startswith(".")
    ):
        raise ValueError(
            f"run_id must be a non-empty file name without '/' that does not start with '.', "
            f"got {run_id!r}"
        )
    return run_id


def check_folder(folder: object, name: str = "folder") -> Path:
    """``folder`` as a Path; a ``ValueError`` naming ``name`` unless it is a str or PathLike."""
    if isinstance(folder, bytes) or not isinstance(folder, (str, os.PathLike)):
        raise ValueError(
            f"{name} must be a path (str or os.PathLike) of a folder, got {type(folder).__name__}"
        )
    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise ValueError(f"{name} must be a folder, {os.fspath(path)!r} is a file")
    return path


def write_run(
    result: Any,
    folder: Union[str, os.PathLike[str]],
    run_id: Optional[str] = None,
    overwrite: bool = False,
    report: bool = True,
) -> dict[str, Path]:
    """Write every table of a result as Parquet with provenance columns, and its HTML report.

    ``result`` is what :func:`ketharmad.simulate`, :func:`ketharmad.matchups`,
    :func:`ketharmad.card_stats` or :func:`ketharmad.sweep` returned. Each table goes to
    ``folder/<table>/<run_id>.parquet`` and a one-row description of the run to
    ``folder/runs/<run_id>.parquet``; folders are created as needed and existing runs are
    left alone, so one folder can collect many runs (read them back with
    ``pl.scan_parquet(folder / "<table>" / "*.parquet")``).

    Every file is written under a temporary name (``.<name>.<random>.tmp``, which no
    ``*.parquet`` glob matches) and renamed into place once complete; the ``runs`` row is
    renamed last, so a run is complete exactly when ``runs/<run_id>.parquet`` exists. A
    crash or kill mid-write never leaves a partial Parquet file under a final name (at
    most a ``.tmp`` file, removed on an ordinary error).

    A ``run_id`` that already has files in ``folder`` is refused with ``ValueError`` unless
    ``overwrite=True``, which replaces that run (its old tables that the new result lacks
    are removed).

    Every file has the columns of :data:`PROVENANCE_COLUMNS` (``run_id``, ``run_kind``,
    ``run_version``, ``run_card_data_hash``, ``run_params``, ``run_bots``, ``run_decks``,
    ``run_seed``, ``run_games``, ``run_created``) after the table's own columns.

    With ``report`` (the default), ``folder/report.html`` is written last: the run's
    self-contained HTML report (:func:`ketharmad.results.html_report.write_html_report`;
    docs/reports.md), atomically, replacing the report of an earlier run in the folder.

    Returns ``{table: path}`` of the Parquet files written (``runs`` included).
    """
    if not (hasattr(result, "_parquet_tables") and hasattr(result, "_provenance")):
        raise ValueError(
            "write_run needs the result of simulate, matchups, card_stats, sweep, tournament or balance, "
            f"got {type(result).__name__}"
        )
    root = check_folder(folder)
    if not isinstance(overwrite, bool):
        raise ValueError(f"overwrite must be True or False, got {overwrite!r}")
    if not isinstance(report, bool):
        raise ValueError(f"report must be True or False, got {report!r}")
    res: _Writable = result
    tables = res._parquet_tables()
    values = dict(res._provenance())
    values["run_id"] = (
        _check_run_id(run_id) if run_id is not None else new_run_id(values["run_kind"])
    )
    rid = values["run_id"]
    existing = _run_files(root, rid)
    if existing and not overwrite:
        shown = ", ".join(p.relative_to(root).as_posix() for p in existing[:3])
        more = f" and {len(existing) - 3} more" if len(existing) > 3 else ""
        raise ValueError(
            f"run_id {rid!r} already exists in {os.fspath(root)!r} ({shown}{more}); "
            "choose another run_id or pass overwrite=True (CLI: --overwrite) to replace it"
        )
    values["run_created"] = _dt.datetime.now(_dt.UTC)
    exprs = _provenance_exprs(values)
    run_row = pl.DataFrame(
        {
            "tables": [sorted(tables)],
            "elapsed_s": [float(getattr(result, "elapsed", float("nan")))],
            "card_data": [str(getattr(result, "card_data", ""))],
        }
    ).with_columns(exprs)
    frames = {name: df.with_columns(exprs) for name, df in tables.items()}
    frames["runs"] = run_row  # last: its file marks the run complete
    # every file is written in full under its temporary name before any is renamed, so an
    # error or a kill while writing leaves no file of this run under a final name
    pending: list[tuple[Path, Path]] = []
    try:
        for name, df in frames.items():
            sub = root / name
            sub.mkdir(parents=True, exist_ok=True)
            final = sub / f"{rid}.parquet"
            pending.append((temp_name(final), final))
            df.write_parquet(pending[-1][0])
        if existing:
            # the old run stops being complete first, then its files are replaced
            _discard(root / "runs" / f"{rid}.parquet")
        for tmp, final in pending:
            os.replace(tmp, final)
    except BaseException:
        for tmp, _ in pending:
            _discard(tmp)
        raise
    written = {name: final for name, (_, final) in zip(frames, pending, strict=True)}
    for stale in existing:
        if stale not in written.values():
            _discard(stale)
    if report:
        write_html_report(result, root, run_id=rid, command=command_line())
    return written


def _run_files(root: Path, run_id: str) -> list[Path]:
    """The files ``root/<table>/<run_id>.parquet`` that already exist."""
    if not root.is_dir():
        return []
    name = f"{run_id}.parquet"
    return sorted(p / name for p in root.iterdir() if p.is_dir() and (p / name).exists())


def _probe_writable(folder: Path, name: str) -> None:
    """Create and remove a temporary file in ``folder``: the only test that also holds for
    root, read-only mounts and full quotas."""
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".ketharmad-probe-", suffix=".tmp")
    except OSError as e:
        raise ValueError(
            f"{name}: folder {os.fspath(folder)!r} is not writable ({e.strerror or e})"
        ) from None
    os.close(fd)
    os.unlink(probe)


def _check_can_make(folder: Path, name: str) -> None:
    """``folder`` exists as a writable folder or can be made: its nearest existing ancestor
    is a writable folder. Nothing is created."""
    folder = Path(os.path.abspath(folder))
    probe = folder
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if not probe.is_dir():
        raise ValueError(
            f"{name}: cannot make folder {os.fspath(folder)!r}: {os.fspath(probe)!r} is not a folder"
        )
    _probe_writable(probe, name)


def check_out_folder(folder: object, name: str = "--out") -> Path:
    """Check before a run that ``folder`` can receive its results: a path that is not a
    file, inside a folder that exists or can be made, writable. Raises ``ValueError``."""
    path = check_folder(folder, name)
    _check_can_make(path, name)
    return path


def check_out_file(
    path: object, suffixes: tuple[str, ...], overwrite: bool = False, name: str = "--out"
) -> Path:
    """Check before a run that a results file can be written to ``path``: one of
    ``suffixes``, not a folder, not an existing file unless ``overwrite``, its folder
    existing or makeable and writable. Raises ``ValueError``."""
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise ValueError(f"{name} must be a file path, got {type(path).__name__}")
    out = Path(path)
    if out.suffix.lower() not in suffixes:
        raise ValueError(f"{name} must end in {' or '.join(suffixes)}, got {os.fspath(path)!r}")
    if out.is_dir():
        raise ValueError(f"{name} {os.fspath(out)!r} is a folder; give a file name")
    if out.exists() and not overwrite:
        raise ValueError(
            f"{name} {os.fspath(out)!r} already exists; remove it, choose another name or "
            "pass --overwrite"
        )
    _check_can_make(out.parent, name)
    return out


def check_new_run(folder: Path, run_id: Optional[str], overwrite: bool = False) -> None:
    """Refuse (``ValueError``) a ``run_id`` that already has files in ``folder``."""
    if run_id is None or overwrite:
        return
    existing = _run_files(Path(folder), _check_run_id(run_id))
    if existing:
        raise ValueError(
            f"run_id {run_id!r} already exists in {os.fspath(folder)!r}; choose another "
            "--run-id or pass --overwrite to replace it"
        )


def sim_tables(result: Any, prefix: str = "") -> dict[str, pl.DataFrame]:
    """The Parquet tables of a SimResult: games, players, card_records, plays (if recorded)
    and the seat summary."""
    tables = {
        f"{prefix}games": result.games,
        f"{prefix}players": result.players,
        f"{prefix}summary": result.summary(),
    }
    if result.card_records is not None:
        tables[f"{prefix}card_records"] = result.card_records
    if result.plays is not None:
        tables[f"{prefix}plays"] = result.plays
    return tables


def sim_card_text(result: Any) -> str:
    """The card-data text a SimResult was played with (the packaged file if unknown)."""
    text = getattr(result, "_card_text", None)
    if text is not None:
        return text
    return load_card_data(None if result.card_data == "packaged" else result.card_data)


def sim_provenance(result: Any, kind: str = "simulate") -> dict[str, Any]:
    return provenance(
        kind,
        sim_card_text(result),
        result.params,
        result.bots,
        result.decks,
        result.seed,
        result.n_games,
    )


def harness_provenance(result: Any, kind: str) -> dict[str, Any]:
    """The provenance columns of a run of a game on the generic harness: its card-data hash
    column holds ``game:<name>``, ``run_decks`` the game and its sides."""
    return {
        "run_kind": kind,
        "run_version": __version__,
        "run_card_data_hash": f"game:{result.game}",
        "run_params": _json(dict(result.params)),
        "run_bots": _json(result.bots),
        "run_decks": _json({"game": result.game, "sides": result.sides}),
        "run_seed": int(result.seed),
        "run_games": int(result.n_games),
    }
