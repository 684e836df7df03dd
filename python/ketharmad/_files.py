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
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Optional, Protocol, Union

import polars as pl

from . import _core

__all__ = ["PROVENANCE_COLUMNS", "write_run", "provenance", "new_run_id"]

#: Columns added to every written table (same names and types in every file).
PROVENANCE_COLUMNS = (
    "run_id",  # str: <kind>-<UTC time>-<8 hex digits>, the file's stem
    "run_kind",  # str: simulate | matchups | card_stats | sweep
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
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


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
    from . import __version__

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
    now = _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%dT%H%M%S")
    return f"{kind}-{now}-{uuid.uuid4().hex[:8]}"


def _provenance_exprs(values: Mapping[str, Any]) -> list[pl.Expr]:
    types: dict[str, pl.DataType] = {
        "run_seed": pl.UInt64(),
        "run_games": pl.Int64(),
        "run_created": pl.Datetime("us", "UTC"),
    }
    return [pl.lit(values[c], dtype=types.get(c, pl.String())).alias(c) for c in PROVENANCE_COLUMNS]


def _check_run_id(run_id: str) -> str:
    if not isinstance(run_id, str) or not run_id or os.sep in run_id or "/" in run_id:
        raise ValueError(f"run_id must be a non-empty file name without '/', got {run_id!r}")
    return run_id


def write_run(
    result: Any, folder: Union[str, "os.PathLike[str]"], run_id: Optional[str] = None
) -> dict[str, Path]:
    """Write every table of a result as Parquet with provenance columns.

    ``result`` is what :func:`ketharmad.simulate`, :func:`ketharmad.matchups`,
    :func:`ketharmad.card_stats` or :func:`ketharmad.sweep` returned. Each table goes to
    ``folder/<table>/<run_id>.parquet`` and a one-row description of the run to
    ``folder/runs/<run_id>.parquet``; folders are created as needed and existing runs are
    left alone, so one folder can collect many runs (read them back with
    ``pl.scan_parquet(folder / "<table>" / "*.parquet")``).

    Every file has the columns of :data:`PROVENANCE_COLUMNS` (``run_id``, ``run_kind``,
    ``run_version``, ``run_card_data_hash``, ``run_params``, ``run_bots``, ``run_decks``,
    ``run_seed``, ``run_games``, ``run_created``) after the table's own columns.

    Returns ``{table: path}`` of the files written (``runs`` included).
    """
    if not (hasattr(result, "_parquet_tables") and hasattr(result, "_provenance")):
        raise ValueError(
            "write_run needs the result of simulate, matchups, card_stats or sweep, "
            f"got {type(result).__name__}"
        )
    res: _Writable = result
    tables = res._parquet_tables()
    values = dict(res._provenance())
    values["run_id"] = _check_run_id(run_id) if run_id is not None else new_run_id(values["run_kind"])
    values["run_created"] = _dt.datetime.now(_dt.timezone.utc)
    root = Path(folder)
    exprs = _provenance_exprs(values)
    written: dict[str, Path] = {}
    for name, df in tables.items():
        sub = root / name
        sub.mkdir(parents=True, exist_ok=True)
        path = sub / f"{values['run_id']}.parquet"
        df.with_columns(exprs).write_parquet(path)
        written[name] = path
    run_row = pl.DataFrame(
        {
            "tables": [sorted(tables)],
            "elapsed_s": [float(getattr(result, "elapsed", float("nan")))],
            "card_data": [str(getattr(result, "card_data", ""))],
        }
    ).with_columns(exprs)
    sub = root / "runs"
    sub.mkdir(parents=True, exist_ok=True)
    written["runs"] = sub / f"{values['run_id']}.parquet"
    run_row.write_parquet(written["runs"])
    return written


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
    from ._data import load_card_data

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
