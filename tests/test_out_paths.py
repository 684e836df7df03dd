"""Every output path of the CLI is checked before the first game (issue 9, item 8): a wrong
suffix, a folder that cannot be made, a read-only folder or an existing result all fail at
once with ``error: ...`` and exit status 2, and no game is played."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import polars as pl
import pytest
from ketharmad import _core
from ketharmad.cli import main

BIG = "10000000"  # games: minutes of play if the check came after the games


@pytest.fixture
def no_games(monkeypatch):
    """Fail the test if any game is played."""
    played: list[int] = []

    def simulate(*args, **kwargs):
        played.append(1)
        raise AssertionError("a game was played before the output path was checked")

    monkeypatch.setattr(_core, "simulate", simulate)
    return played


def _writable(folder: Path) -> bool:
    try:
        fd, name = tempfile.mkstemp(dir=folder)
    except OSError:
        return False
    os.close(fd)
    os.unlink(name)
    return True


@pytest.fixture
def read_only(tmp_path) -> Path:
    """A folder this process cannot create files in (chmod 555; as root, which ignores file
    modes, the read-only /sys)."""
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    if _writable(folder):
        folder.chmod(0o755)
        folder = Path("/sys")
        if not folder.is_dir() or _writable(folder):
            pytest.skip("no read-only folder available")
    yield folder
    if folder != Path("/sys"):
        folder.chmod(0o755)


def _fails_fast(argv: list[str], capsys, no_games) -> str:
    start = time.perf_counter()
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    assert no_games == []
    assert time.perf_counter() - start < 5
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err
    return err


def _lab(command: str, out: Path, *extra: str) -> list[str]:
    games = {"matchups": ["--games-per-side", BIG], "card-stats": ["--games", BIG]}
    return [command, *games[command], "--no-plots", "--out", str(out), *extra]


def test_simulate_wrong_suffix(capsys, no_games):
    err = _fails_fast(["simulate", "--games", BIG, "--out", "results.txt"], capsys, no_games)
    assert "--out" in err and ".parquet or .csv" in err


def test_simulate_out_is_a_folder(tmp_path, capsys, no_games):
    folder = tmp_path / "x.parquet"
    folder.mkdir()
    err = _fails_fast(["simulate", "--games", BIG, "--out", str(folder)], capsys, no_games)
    assert "folder" in err


def test_simulate_read_only_folder(read_only, capsys, no_games):
    out = read_only / "r.parquet"
    err = _fails_fast(["simulate", "--games", BIG, "--out", str(out)], capsys, no_games)
    assert "not writable" in err and str(read_only) in err


def test_simulate_folder_under_a_file(tmp_path, capsys, no_games):
    (tmp_path / "file").write_text("x")
    out = tmp_path / "file" / "sub" / "r.csv"
    err = _fails_fast(["simulate", "--games", BIG, "--out", str(out)], capsys, no_games)
    assert "not a folder" in err


def test_simulate_existing_file_needs_overwrite(tmp_path, capsys, no_games):
    out = tmp_path / "r.csv"
    out.write_text("earlier results\n")
    err = _fails_fast(["simulate", "--games", BIG, "--out", str(out)], capsys, no_games)
    assert "already exists" in err and "--overwrite" in err
    assert out.read_text() == "earlier results\n"


def test_simulate_makes_a_missing_folder_and_overwrites_when_asked(tmp_path, capsys):
    out = tmp_path / "new" / "deeper" / "r.parquet"
    assert main(["simulate", "--games", "20", "--out", str(out)]) == 0
    assert pl.read_parquet(out).height == 40
    assert main(["simulate", "--games", "10", "--out", str(out), "--overwrite"]) == 0
    assert pl.read_parquet(out).height == 20
    # no temporary file left; the run's HTML report and its replay pages next to it
    assert sorted(p.name for p in out.parent.iterdir()) == [
        "r.parquet",
        "r.report.html",
        "r.report.replays",
    ]
    assert (
        sorted(p.name for p in (out.parent / "r.report.replays").iterdir())[0] == "ketharmad-0.html"
    )
    capsys.readouterr()


@pytest.mark.parametrize("command", ["matchups", "card-stats"])
def test_lab_read_only_folder(command, read_only, capsys, no_games):
    err = _fails_fast(_lab(command, read_only / "runs"), capsys, no_games)
    assert "not writable" in err


@pytest.mark.parametrize("command", ["matchups", "card-stats"])
def test_lab_out_is_a_file_or_under_one(command, tmp_path, capsys, no_games):
    (tmp_path / "file").write_text("x")
    assert "is a file" in _fails_fast(_lab(command, tmp_path / "file"), capsys, no_games)
    err = _fails_fast(_lab(command, tmp_path / "file" / "runs"), capsys, no_games)
    assert "not a folder" in err


def test_sweep_read_only_folder(tmp_path, read_only, capsys, no_games):
    grid = tmp_path / "grid.toml"
    grid.write_text(f'games = {BIG}\n[grid]\n"rules.starting_support" = [18, 20]\n')
    argv = ["sweep", str(grid), "--no-plots", "--out", str(read_only / "s")]
    assert "not writable" in _fails_fast(argv, capsys, no_games)


def test_lab_repeated_run_id_refused_before_games(tmp_path, capsys, no_games, monkeypatch):
    out = tmp_path / "runs"
    (out / "runs").mkdir(parents=True)
    (out / "runs" / "mine.parquet").write_bytes(b"an earlier run")
    err = _fails_fast(_lab("matchups", out, "--run-id", "mine"), capsys, no_games)
    assert "already exists" in err and "--overwrite" in err
    assert (out / "runs" / "mine.parquet").read_bytes() == b"an earlier run"


def test_lab_run_id_and_overwrite(tmp_path, capsys):
    out = tmp_path / "runs"
    argv = ["matchups", "--games-per-side", "1", "--bots", "random", "--no-plots",
            "--out", str(out), "--run-id", "mine"]  # fmt: skip
    assert main(argv) == 0
    assert (out / "matchups" / "mine.parquet").exists()
    with pytest.raises(SystemExit):
        main(argv)
    assert main([*argv, "--overwrite"]) == 0
    assert pl.scan_parquet(out / "runs" / "*.parquet").collect()["run_id"].to_list() == ["mine"]
    capsys.readouterr()
