"""Reading a run back from the folder :func:`ketharmad.write_run` (or a command's ``--out``)
wrote it to: its ``runs/<run_id>.parquet`` row (kind, seed, games, provenance, the names of
its tables) and each table without its provenance columns. Everything that is not such a
run is refused by name: a folder (or path) that holds no run, several runs when none is
chosen, a file that is not Parquet, a Parquet file without ketharmad's provenance columns,
a table the run lists but that is missing or belongs to another run."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Union

import polars as pl

from .files import PROVENANCE_COLUMNS

__all__ = ["RunData", "read_run"]

#: The columns of a ``runs/<run_id>.parquet`` row besides the provenance columns.
RUN_ROW_COLUMNS = ("tables",)


def _read(path: Path, what: str) -> pl.DataFrame:
    try:
        return pl.read_parquet(path)
    except pl.exceptions.PolarsError as e:
        raise ValueError(
            f"{what} {os.fspath(path)!r} is not a readable Parquet file written by ketharmad "
            f"(corrupted or foreign: {str(e).splitlines()[0]})"
        ) from None
    except OSError as e:
        raise ValueError(f"{what} {os.fspath(path)!r} cannot be read: {e.strerror or e}") from None


def _check_provenance(df: pl.DataFrame, path: Path, what: str) -> None:
    missing = [c for c in PROVENANCE_COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(
            f"{what} {os.fspath(path)!r} is not a table written by ketharmad: it lacks the "
            f"provenance column(s) {', '.join(missing)}"
        )


@dataclass
class RunData:
    """One written run: where it is, its id, kind, provenance (the ``run_*`` values of its
    ``runs`` row) and the names of its tables."""

    folder: Path
    run_id: str
    kind: str
    provenance: dict[str, Any]
    tables: list[str]
    _cache: dict[str, pl.DataFrame] = field(default_factory=dict, repr=False)

    @property
    def seed(self) -> int:
        return int(self.provenance["run_seed"])

    @property
    def games(self) -> int:
        return int(self.provenance["run_games"])

    @property
    def game(self) -> str:
        """``ketharmad`` or the harness game the run played (its card-data hash says)."""
        h = str(self.provenance.get("run_card_data_hash", ""))
        return h[len("game:") :] if h.startswith("game:") else "ketharmad"

    def label(self) -> str:
        return f"{self.run_id} in {os.fspath(self.folder)}"

    def table(self, name: str) -> pl.DataFrame:
        """Table ``name`` of the run, without its provenance columns."""
        if name in self._cache:
            return self._cache[name]
        if name not in self.tables:
            raise ValueError(
                f"run {self.run_id!r} has no table {name!r} (it has {', '.join(self.tables)})"
            )
        path = self.folder / name / f"{self.run_id}.parquet"
        if not path.is_file():
            raise ValueError(
                f"run {self.run_id!r} lists the table {name!r}, but {os.fspath(path)!r} is missing "
                "(a run folder that was changed by hand?)"
            )
        df = _read(path, f"table {name!r} of run {self.run_id!r}")
        _check_provenance(df, path, f"table {name!r}")
        ids = df["run_id"].unique().to_list()
        if ids != [self.run_id]:
            raise ValueError(
                f"{os.fspath(path)!r} holds run(s) {', '.join(map(str, ids))}, not {self.run_id!r}"
            )
        out = df.drop(PROVENANCE_COLUMNS)
        self._cache[name] = out
        return out


def _runs_in(folder: Path) -> list[Path]:
    runs = folder / "runs"
    if not runs.is_dir():
        return []
    return sorted(p for p in runs.glob("*.parquet") if not p.name.startswith("."))


def read_run(path: Union[str, os.PathLike[str]], run_id: Optional[str] = None) -> RunData:
    """The run in ``path``: a run folder (the one run in it, or ``run_id``), or a run's
    ``runs/<run_id>.parquet`` file. Raises ``ValueError`` naming what is wrong."""
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise ValueError(f"a run is a folder path, got {type(path).__name__}")
    p = Path(path)
    if not p.exists():
        raise ValueError(f"{os.fspath(p)!r} does not exist")
    if p.is_file():
        if p.suffix != ".parquet" or p.parent.name != "runs":
            raise ValueError(
                f"{os.fspath(p)!r} is a file, not a run folder (give the folder written by --out or "
                "write_run, or its runs/<run_id>.parquet)"
            )
        if run_id is not None and run_id != p.stem:
            raise ValueError(f"{os.fspath(p)!r} is run {p.stem!r}, not {run_id!r}")
        row_path, folder = p, p.parent.parent
    else:
        folder = p
        found = _runs_in(folder)
        if not found:
            raise ValueError(
                f"{os.fspath(folder)!r} holds no run (no runs/<run_id>.parquet): give a folder written "
                "by a command's --out or by ketharmad.write_run"
            )
        if run_id is not None:
            row_path = folder / "runs" / f"{run_id}.parquet"
            if not row_path.is_file():
                raise ValueError(
                    f"{os.fspath(folder)!r} has no run {run_id!r}; it holds {', '.join(f.stem for f in found)}"
                )
        elif len(found) > 1:
            raise ValueError(
                f"{os.fspath(folder)!r} holds {len(found)} runs ({', '.join(f.stem for f in found)}): "
                "choose one (--run-a/--run-b ID, run_a=/run_b=, or the path of its runs/<run_id>.parquet)"
            )
        else:
            row_path = found[0]
    row = _read(row_path, "run file")
    _check_provenance(row, row_path, "run file")
    if "tables" not in row.columns or row.height != 1:
        raise ValueError(
            f"run file {os.fspath(row_path)!r} is not a ketharmad run row (one row with its tables)"
        )
    r = row.row(0, named=True)
    if r["run_id"] != row_path.stem:
        raise ValueError(
            f"run file {os.fspath(row_path)!r} holds run {r['run_id']!r}, not {row_path.stem!r}"
        )
    prov = {c: r[c] for c in PROVENANCE_COLUMNS}
    return RunData(
        folder, str(r["run_id"]), str(r["run_kind"]), prov, [str(t) for t in r["tables"] or []]
    )
