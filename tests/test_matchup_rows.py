"""Reductions, not rows, for matchups (issue 11, item 2): the plan runner's ``"stats"`` cell
output, and ``matchups(rows=...)`` whose tables from per-cell reductions equal the tables from
the rows of the same games, bit for bit."""

from __future__ import annotations

import pickle
from concurrent.futures import ThreadPoolExecutor

import ketharmad
import polars as pl
import pytest
from conftest import packaged_card_text
from ketharmad.cli import main
from ketharmad.lab import matchups as mm
from ketharmad.run import memory as _memory
from ketharmad.run.plan import Plan, cell, run_plan
from ketharmad.run.reduce import TURN_BINS, Stats
from polars.testing import assert_frame_equal

TEXT = packaged_card_text()
TABLES = ("table", "start_player", "positions", "lengths")


def _plan(output: str, seed: int = 11) -> Plan:
    """2 and 4 seats, fixed and drawn start seats, an override, a mirror, ranges not at 0."""
    return Plan(seed, [
        cell(TEXT, ["ner", "tisza"], ["heuristic", "random"], {}, 0, 23, start_player=0, output=output),
        cell(TEXT, ["tisza", "ner"], ["random", "aggro"], {"rules.starting_support": 18}, 100, 17, output=output),
        cell(TEXT, ["ner", "ner"], ["random", "random"], {"rules.allow_mirror": True}, 5, 9, start_player=1,
             output=output),
        cell(TEXT, ["ner", "tisza", "osszefogas", "radikalisok"], ["random"] * 4, {}, 40, 15, output=output),
        cell(TEXT, ["radikalisok", "tisza"], ["random"] * 2, {"rules.max_rounds": 6}, 7, 30, output=output),
    ])  # fmt: skip


# ---------------------------------------------------------------- the plan's "stats" output


def test_stats_cells_equal_for_any_shard_size_and_equal_the_frames_reduced():
    plan = _plan("stats")
    whole = run_plan(plan)
    frames = run_plan(_plan("frames"))
    assert all(isinstance(s, Stats) for s in whole)
    for s, f, c in zip(whole, frames, plan.cells, strict=True):
        assert s == Stats.from_frames(f.games, f.players, c.decks), c.describe()
        assert s.games == c.games and s.decks == c.decks
    for size in (1, 7, None):
        assert run_plan(plan, shard_size=size, threads=1) == whole, size
    with ThreadPoolExecutor(2) as ex:
        assert run_plan(plan, shard_size=4, executor=ex) == whole
    assert pickle.loads(pickle.dumps(whole)) == whole  # shards' results travel to a client
    # the cases count something: wins in every cell, the capped cell has unfinished games
    assert all(sum(s.wins_seat) > 0 for s in whole[:4])
    assert whole[4].unfinished > 10 and whole[4].end_reasons[2] == whole[4].unfinished


def test_a_stats_cell_cannot_record_plays():
    with pytest.raises(ValueError, match="cannot record plays"):
        cell(TEXT, ["ner", "tisza"], ["random"] * 2, {}, 0, 5, record_plays=True, output="stats")
    with pytest.raises(ValueError, match="stats"):
        cell(TEXT, ["ner", "tisza"], ["random"] * 2, {}, 0, 5, output="nope")


# ---------------------------------------------------------------- matchups: rows vs reductions


def _equal_tables(a, b) -> None:
    for name in TABLES:
        assert_frame_equal(getattr(a, name), getattr(b, name), check_exact=True)
    assert a.n_games == b.n_games and a.plan == b.plan


@pytest.mark.parametrize("seed", [0, 3, 17])
def test_two_player_tables_from_reductions_equal_the_tables_from_rows(seed):
    kw = dict(games_per_side=40, bots="random", seed=seed)
    rows = ketharmad.matchups(**kw, run=dict(threads=2, rows=True))
    red = ketharmad.matchups(**kw, run=dict(threads=2, rows=False))
    _equal_tables(rows, red)
    assert (
        rows.table.height == 16
        and rows.table.filter(pl.col("faction") == pl.col("opponent")).height == 4
    )
    assert rows.rows and rows.games is not None and rows.stats is None
    assert not red.rows and red.games is None and red.players is None
    assert len(red.stats) == 20 and sum(s.games for s in red.stats) == red.n_games == 800
    # shards of any size give the same statistics
    assert (
        ketharmad.matchups(**kw, run=dict(threads=2, rows=False, chunk_size=7)).stats == red.stats
    )


def test_two_player_unfinished_and_heuristic_games_also_match():
    kw = dict(games_per_side=25, bots="heuristic", seed=5, params={"rules.max_rounds": 9})
    rows, red = (
        ketharmad.matchups(**kw, run=dict(rows=True)),
        ketharmad.matchups(**kw, run=dict(rows=False)),
    )
    _equal_tables(rows, red)
    assert (
        red.table["unfinished"].sum() > 0
        and (red.table["no_winner"] >= red.table["unfinished"]).all()
    )


@pytest.mark.parametrize("players,seed", [(4, 1), (4, 9), (3, 2)])
def test_free_for_all_tables_from_reductions_equal_the_tables_from_rows(players, seed):
    kw = dict(players=players, games=24 * 12, bots="random", seed=seed)
    rows, red = (
        ketharmad.matchups(**kw, run=dict(rows=True)),
        ketharmad.matchups(**kw, run=dict(rows=False)),
    )
    _equal_tables(rows, red)
    assert red.games is None and len(red.stats) == 24
    # every game has one winner or none (no_winner counts each seat of such a game)
    assert red.table["wins"].sum() + red.table["no_winner"].sum() // players == red.n_games
    assert red.positions.height == 4 * players


def test_length_quantiles_in_the_overflow_bin_are_null_and_the_rest_exact():
    # 10 games: 3 of 5 turns, 6 of 300 turns (overflow), 1 of 1000
    hist = [0] * (TURN_BINS + 1)
    hist[5], hist[TURN_BINS] = 3, 7
    s = Stats(("ner", "tisza"), 10, (4, 6), (0,) * 4, (0,) * 4, 0, 15 + 6 * 300 + 1000, 0, tuple(hist),
              (10, 0, 0, 0), 1000, 20, tuple(hist), 10)  # fmt: skip
    got = mm._stats_lengths(s)
    assert got["turns_p10"] == 5.0 and got["turns_p25"] == 5.0  # ranks 1 and 2 (of 0..9)
    assert got["turns_p50"] is None and got["turns_p90"] is None  # ranks 5 and 8: overflow
    assert got["turns_mean"] == (15 + 1800 + 1000) / 10 and got["turns_max"] == 1000
    table = mm._lengths_frame([got], [])
    assert table.schema == pl.Schema(mm._LENGTH_SCHEMA) and table["turns_p50"].null_count() == 1
    headers, rows = mm._length_rows(table, [])
    assert rows[0][1:3] == ["281.5", f"5.0->={TURN_BINS}->={TURN_BINS}"]


def test_rows_default_keeps_rows_for_small_runs_only(monkeypatch):
    small = ketharmad.matchups(games_per_side=5, bots="random", seed=2)
    assert small.rows and small.games.height == 100
    monkeypatch.setattr(mm, "ROWS_AUTO_LIMIT", 99)
    big = ketharmad.matchups(games_per_side=5, bots="random", seed=2)
    assert not big.rows and big.games is None
    _equal_tables(small, big)
    ffa = ketharmad.matchups(players=4, games=240, bots="random", seed=2)
    assert not ffa.rows
    monkeypatch.setattr(mm, "ROWS_AUTO_LIMIT", 240)
    assert ketharmad.matchups(players=4, games=240, bots="random", seed=2).rows
    with pytest.raises(ValueError, match="rows must be True or False"):
        ketharmad.matchups(games_per_side=5, run=dict(rows="yes"))


def test_reductions_are_not_refused_for_memory_rows_are(monkeypatch):
    monkeypatch.setattr(_memory, "available_memory", lambda: 64 * 1024)  # 64 KiB "free"
    with pytest.raises(ValueError, match="would need about"):
        ketharmad.matchups(games_per_side=50, bots="random", run=dict(rows=True))
    with pytest.raises(ValueError, match="would need about"):
        ketharmad.matchups(players=4, games=240, bots="random", run=dict(rows=True))
    red = ketharmad.matchups(games_per_side=50, bots="random", run=dict(rows=False))
    assert red.n_games == 1000 and red.table["games"].sum() == 16 * 100  # 16 cells of 2 * 50 games
    assert (
        ketharmad.matchups(players=4, games=240, bots="random", run=dict(rows=False)).n_games == 240
    )


def test_a_reduction_result_writes_its_tables_report_and_plots(tmp_path):
    red = ketharmad.matchups(games_per_side=10, bots="random", seed=4, run=dict(rows=False))
    assert set(red.tables()) == {
        "matchups",
        "matchup_lengths",
        "matchup_positions",
        "start_player",
        "matchup_by_seat",
        "matchup_by_deck",
    }
    assert (
        red._decks()
        == ketharmad.matchups(
            games_per_side=10, bots="random", seed=4, run=dict(rows=True)
        )._decks()
    )
    written = red.write_parquet(tmp_path / "pq")
    assert "matchup_games" not in written
    back = pl.read_parquet(written["matchups"]).select(red.table.columns)
    assert_frame_equal(back, red.table, check_exact=True)
    report = red.write_report(tmp_path / "rep")
    assert (tmp_path / "rep" / "matchups_heatmap.png").exists()
    assert "## Game length" in report.read_text()
    assert "no per-game rows kept" in str(red)


def test_cli_rows_flags(tmp_path, capsys):
    args = ["matchups", "--games-per-side", "6", "--seed", "3", "--bots", "random", "--no-plots"]
    assert main([*args, "--no-rows", "--out", str(tmp_path / "red")]) == 0
    assert main([*args, "--rows", "--out", str(tmp_path / "rows")]) == 0
    assert not (tmp_path / "red" / "matchup_games").exists()
    assert (tmp_path / "rows" / "matchup_games").exists()
    a = pl.read_parquet(next((tmp_path / "red" / "matchups").glob("*.parquet")))
    b = pl.read_parquet(next((tmp_path / "rows" / "matchups").glob("*.parquet")))
    cols = ketharmad.matchups(games_per_side=1, bots="random").table.columns
    assert_frame_equal(a.select(cols), b.select(cols), check_exact=True)
    out = capsys.readouterr().out
    assert "no per-game rows kept" in out and ".lengths, .games" in out


_LIMITED = r"""
import json, resource
import ketharmad

def vm_size():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024

ketharmad.matchups(games_per_side=1, bots="random", rows=False)  # start the thread pools first
limit = vm_size() + 256 * 1024**2
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
out = {}
try:
    ketharmad.matchups(games_per_side=10**7, bots="random", rows=True)
    out["rows"] = "no error"
except ValueError as e:
    out["rows"] = "ValueError: " + str(e)
m = ketharmad.matchups(games_per_side=2000, bots="random", seed=1, rows=False)
out["reductions"] = [m.n_games, int(m.table["games"].sum())]
print(json.dumps(out))
"""


def test_reductions_run_where_rows_are_refused_under_an_address_space_limit():
    import json
    import subprocess
    import sys

    if sys.platform != "linux":
        pytest.skip("RLIMIT_AS and /proc")
    proc = subprocess.run(
        [sys.executable, "-c", _LIMITED], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["rows"].startswith("ValueError: ") and "would need about" in out["rows"], out["rows"]
    assert out["reductions"] == [40_000, 16 * 4000]
