"""Results are never lost (issue 9, item 7): ``write_run`` and the reports write every file
under a temporary name that no ``*.parquet`` / ``*.png`` / ``report.md`` reader matches and
rename it into place, so a crash mid-write leaves no partial file behind; a repeated
``run_id`` is refused unless ``overwrite=True``."""

from __future__ import annotations

import os

import ketharmad
import polars as pl
import pytest
from conftest import TWO_P
from ketharmad.results import files as _files


@pytest.fixture(scope="module")
def small() -> ketharmad.SimResult:
    return ketharmad.simulate(TWO_P, games=30, seed=1)


@pytest.fixture(scope="module")
def other() -> ketharmad.SimResult:
    return ketharmad.simulate(TWO_P, games=40, seed=2, record_plays=True)


def _crash_on_write(monkeypatch, fail_at: int) -> list[str]:
    """Make the ``fail_at``-th ``DataFrame.write_parquet`` call (1-based) write half a file
    and then fail, as a killed process or a full disk would."""
    real = pl.DataFrame.write_parquet
    calls: list[str] = []

    def writer(df, file, *args, **kwargs):
        calls.append(os.fspath(file))
        real(df, file, *args, **kwargs)
        if len(calls) == fail_at:
            size = os.path.getsize(file)
            with open(file, "r+b") as f:
                f.truncate(size // 2)
            raise OSError(28, "No space left on device (simulated)")

    monkeypatch.setattr(pl.DataFrame, "write_parquet", writer)
    return calls


@pytest.mark.parametrize("fail_at", [1, 2, 4])
def test_crash_mid_write_leaves_no_partial_parquet(tmp_path, small, other, monkeypatch, fail_at):
    ketharmad.write_run(small, tmp_path, run_id="good")
    calls = _crash_on_write(monkeypatch, fail_at)
    with pytest.raises(OSError, match="simulated"):
        ketharmad.write_run(other, tmp_path, run_id="crashed")
    assert len(calls) == fail_at
    monkeypatch.undo()
    # every *.parquet file in the folder is complete: scanning each table works and sees the
    # good run only; no file of the crashed run (nor a temporary file) is left behind
    for table in ("games", "players", "summary", "card_records", "runs"):
        df = pl.scan_parquet(tmp_path / table / "*.parquet").collect()
        assert df["run_id"].unique().to_list() == ["good"], table
    assert pl.scan_parquet(tmp_path / "games" / "*.parquet").collect().height == 30
    leftovers = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*crashed*"))
    assert leftovers == []
    # the same run can be written once the disk is fine again
    ketharmad.write_run(other, tmp_path, run_id="crashed")
    assert pl.scan_parquet(tmp_path / "games" / "*.parquet").collect().height == 70


def test_runs_row_is_written_last(tmp_path, small, monkeypatch):
    """A run is complete when ``runs/<run_id>.parquet`` exists: it is renamed into place after
    every table of the run."""
    order: list[str] = []
    real = os.replace

    def spy(src, dst):
        if os.fspath(dst).endswith(".parquet"):  # report.html follows the complete run
            order.append(os.path.basename(os.path.dirname(os.fspath(dst))))
        real(src, dst)

    monkeypatch.setattr(_files.os, "replace", spy)
    written = ketharmad.write_run(small, tmp_path, run_id="r1")
    assert order[-1] == "runs"
    assert sorted(order) == sorted(written)


def test_repeated_run_id_is_refused(tmp_path, small, other):
    first = ketharmad.write_run(small, tmp_path, run_id="same")
    before = pl.read_parquet(first["games"])
    with pytest.raises(ValueError, match=r"run_id 'same' already exists.*overwrite=True"):
        ketharmad.write_run(other, tmp_path, run_id="same")
    with pytest.raises(ValueError, match="already exists"):
        small.write_parquet(tmp_path, run_id="same")
    assert pl.read_parquet(first["games"]).equals(before)  # the earlier run is untouched
    assert not (tmp_path / "plays").exists()


def test_overwrite_replaces_the_whole_run(tmp_path, small, other):
    ketharmad.write_run(other, tmp_path, run_id="same")  # has a plays table
    assert (tmp_path / "plays" / "same.parquet").exists()
    written = ketharmad.write_run(small, tmp_path, run_id="same", overwrite=True)
    assert pl.read_parquet(written["games"]).height == 30
    # the old run's tables that the new result does not have are gone too
    assert not (tmp_path / "plays" / "same.parquet").exists()
    runs = pl.scan_parquet(tmp_path / "runs" / "*.parquet").collect()
    assert runs["run_games"].to_list() == [30]


def test_write_run_folder_must_be_a_path(small):
    for bad in (None, 3, b"runs"):
        with pytest.raises(ValueError, match="folder"):
            ketharmad.write_run(small, bad)  # type: ignore[arg-type]  # the wrong type is the test


def test_report_crash_leaves_no_partial_png(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    m = ketharmad.matchups(games_per_side=2, bots="random", seed=1)
    first = ketharmad.write_report(m, tmp_path)
    text = first.read_text(encoding="utf-8")
    png = (tmp_path / "matchups_heatmap.png").read_bytes()
    real = Figure.savefig

    def savefig(self, fname, *args, **kwargs):
        real(self, fname, *args, **kwargs)
        with open(fname, "r+b") as f:
            f.truncate(10)
        raise OSError(28, "No space left on device (simulated)")

    monkeypatch.setattr(Figure, "savefig", savefig)
    with pytest.raises(OSError, match="simulated"):
        ketharmad.write_report(m, tmp_path)
    # the earlier report and its plot are whole, and no temporary file is left
    assert (tmp_path / "matchups_heatmap.png").read_bytes() == png
    assert first.read_text(encoding="utf-8") == text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["matchups_heatmap.png", "report.md"]


def test_write_parquet_methods_take_overwrite(tmp_path, small):
    small.write_parquet(tmp_path, run_id="m")
    with pytest.raises(ValueError, match="already exists"):
        small.write_parquet(tmp_path, run_id="m")
    assert small.write_parquet(tmp_path, run_id="m", overwrite=True)["games"].exists()
