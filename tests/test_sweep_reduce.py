"""Reductions, not rows, for sweeps (issue 11, item 2): ``sweep(rows=False)`` plays the plan
range by range and keeps integer counts and paired sums per (point, matchup)
(:class:`ketharmad.lab.sweep.SweepStats`); its ``.table``, ``.summary`` and plot lines equal
those of ``rows=True`` bit for bit, for any range size and on an executor, and its memory does
not grow with the games."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import ketharmad
import numpy as np
import polars as pl
import pytest
from conftest import packaged_card_text
from ketharmad.cli import main
from ketharmad.lab import sweep as sw
from ketharmad.run import memory as _memory
from ketharmad.run.plan import Shard, ShardError, cell, run_tasks
from polars.testing import assert_frame_equal

TEXT = packaged_card_text()

#: 2- and 3-player pairings, two swept parameters, the baseline in the middle of the grid
MIXED = dict(grid={"rules.starting_support": [18, 20, 22], "rules.hand_limit": [6, 7]},
             decks=[["ner", "tisza"], ["tisza", "radikalisok", "ner"]], bots="random", games=90, seed=9,
             baseline=3)  # fmt: skip
#: heuristic bots and a round cap: unfinished games at some points, none at others
CAPPED = dict(grid={"rules.max_rounds": [6, 9, 40]}, decks=[["ner", "tisza"], ["osszefogas", "ner"]],
              bots="heuristic", games=40, seed=2, baseline={"rules.max_rounds": 40})  # fmt: skip
#: four players, a faction card (only its faction's seat is the summary's perspective)
FOUR = dict(grid={"tis_magyar_peter.influence": [1, 3, 5]},
            decks=[["ner", "tisza", "osszefogas", "radikalisok"], ["tisza", "radikalisok", "ner", "osszefogas"]],
            bots="random", games=60, seed=4, start_player=1, baseline=2)  # fmt: skip
#: every ordered pair; a Ner card: half the matchups cannot be affected
ALL = dict(
    grid={"ner_orban_viktor.influence": [3, 5, 8]}, decks="all", bots="random", games=24, seed=3
)


def _same(a, b) -> None:
    assert_frame_equal(a.table, b.table, check_exact=True)
    assert_frame_equal(a.summary, b.summary, check_exact=True)
    assert_frame_equal(a.points, b.points, check_exact=True)
    assert a.stats == b.stats and a.n_games == b.n_games and a.plan == b.plan
    for name in a.parameters:
        assert_frame_equal(
            sw.sweep_differences(a, name), sw.sweep_differences(b, name), check_exact=True
        )


@pytest.mark.parametrize("kw", [MIXED, CAPPED, FOUR, ALL], ids=["mixed", "capped", "four", "all"])
def test_reductions_equal_rows_for_any_range_size(kw):
    rows = ketharmad.sweep(**kw, run=dict(rows=True))
    assert rows.rows and rows.games is not None and rows.games.height == rows.n_games
    for size in (None, 1, 7, kw["games"] - 1, 10 * kw["games"]):
        red = ketharmad.sweep(**kw, run=dict(rows=False, chunk_size=size))
        assert not red.rows and red.games is None
        _same(rows, red)
    # the row run's shards do not matter either
    _same(rows, ketharmad.sweep(**kw, run=dict(rows=True, chunk_size=13)))


def test_the_cases_count_something():
    """The equalities above compare numbers that vary: wins, unfinished games, non-zero
    differences with intervals, a baseline that is not point 0."""
    m = ketharmad.sweep(**MIXED, run=dict(rows=False))
    assert m.baseline == 3 and m.table.filter(pl.col("baseline"))["point"].unique().to_list() == [3]
    assert (m.table["wins"] > 0).all() and m.table.filter(~pl.col("baseline"))[
        "diff"
    ].abs().sum() > 0
    others = m.table.filter(~pl.col("baseline"))
    assert (others["diff_ci_low"].is_null() == others["degenerate_ci"]).all()
    assert 0 < others["degenerate_ci"].sum() < others.height // 2  # both kinds of interval occur
    c = ketharmad.sweep(**CAPPED, run=dict(rows=False))
    assert c.baseline == 2
    unfinished = c.table["unfinished"].to_list()  # point major: 6 rounds, 9 rounds, 40 rounds
    assert min(unfinished[:4]) > 0 and unfinished[4:] == [0, 0]
    assert (c.table["no_winner"] >= c.table["unfinished"]).all()
    f = ketharmad.sweep(**FOUR, run=dict(rows=False))
    assert (
        f.summary["perspective"].to_list() == ["tisza"] * 3 and (f.summary["matchups"] == 2).all()
    )
    assert (f.summary["games"] == 120).all()


def test_statistics_equal_the_counts_of_the_rows():
    """Each count of SweepStats, and the table's paired sd, against an independent count
    from the per-game rows (polars joins, the way the tables were once computed)."""
    r = ketharmad.sweep(**MIXED, run=dict(rows=True))
    g, st = r.games, r.stats
    labels = [sw.matchup_label(d) for d in r.decks]
    ref = g.filter(pl.col("point") == r.baseline).select("matchup", "game", base_winner="winner")
    j = g.join(ref, on=["matchup", "game"])
    for seat in range(3):
        per = j.group_by("point", "matchup").agg(
            games=pl.len(),
            wins=(pl.col("winner") == seat).fill_null(False).sum(),
            disc=(
                (pl.col("winner") == seat).fill_null(False)
                != (pl.col("base_winner") == seat).fill_null(False)
            ).sum(),
            unfinished=pl.col("end_reason").cast(pl.String).str.starts_with("unfinished").sum(),
            no_winner=pl.col("winner").is_null().sum(),
        )
        for row in per.iter_rows(named=True):
            i, m = row["point"], labels.index(row["matchup"])
            assert st.games(i, m) == row["games"] == 90
            assert st.wins(i, m, seat) == row["wins"] and st.discordant(i, m, seat) == row["disc"]
            assert (
                st.unfinished(i, m) == row["unfinished"] and st.no_winner(i, m) == row["no_winner"]
            )
    # seat 2 of a 2-player matchup never wins: zeros
    assert st.counts[:, 0, 3 + 2].sum() == 0 and st.counts[:, 1, 3 + 2].sum() > 0
    # the sd from the sums is the sd of the per-game differences (up to the last bits)
    d = (
        j.with_columns(
            d=pl.col("seat0_won").cast(pl.Float64)
            - (pl.col("base_winner") == 0).fill_null(False).cast(pl.Float64)
        )
        .group_by("point", "matchup")
        .agg(mean=pl.col("d").mean(), sd=pl.col("d").std(ddof=1), n=pl.len())
    )
    t = r.table.join(d, on=["point", "matchup"])
    assert (t["diff"] == t["mean"]).all()  # the means are exact: integer sums over n
    other = t.filter(~pl.col("baseline"))
    half = 1.959963984540054 * other["sd"] / other["n"].cast(pl.Float64).sqrt()
    assert ((other["paired_half_width"] - half).abs() < 1e-12).all()


def test_statistics_merge_exactly_and_travel():
    a, b = sw.SweepStats.empty(2, 3, 2), sw.SweepStats.empty(2, 3, 2)
    a.counts[:] = np.arange(2 * 3 * 7).reshape(2, 3, 7)
    b.counts[1, 2, 0] = 5
    m = a.merge(b)
    assert m.games(1, 2) == a.games(1, 2) + 5 and (a + b) == m and m != a
    assert pickle.loads(pickle.dumps(m)) == m
    with pytest.raises(ValueError, match="same points"):
        a.merge(sw.SweepStats.empty(2, 3, 4))


def test_mean_and_sd_from_sums():
    assert sw._mean_sd(0, 0, 0) == (None, None)
    assert sw._mean_sd(1, 1, 1) == (1.0, None)
    assert sw._mean_sd(4, 0, 0) == (0.0, 0.0)  # all equal: exactly 0 (degenerate)
    assert sw._mean_sd(5, 5, 5) == (1.0, 0.0)
    # d = [1, -1, 0, 0]: mean 0, var = 2 / 3
    mean, sd = sw._mean_sd(4, 0, 2)
    assert mean == 0.0 and sd == pytest.approx((2 / 3) ** 0.5, rel=1e-15)
    # huge n: the exact fraction, no cancellation (10^12 games, 10^6 discordant)
    n, s1, s2 = 10**12, 10**6 - 2, 10**6
    assert sw._mean_sd(n, s1, s2)[1] == pytest.approx(
        ((s2 - s1 * s1 / n) / (n - 1)) ** 0.5, rel=1e-12
    )


def test_executor_gives_the_same_tables():
    rows = ketharmad.sweep(**MIXED, run=dict(rows=True))
    with ThreadPoolExecutor(2) as ex:
        _same(rows, ketharmad.sweep(**MIXED, run=dict(rows=False, chunk_size=17, executor=ex)))
        _same(rows, ketharmad.sweep(**MIXED, run=dict(rows=False, executor=ex)))
        _same(rows, ketharmad.sweep(**MIXED, run=dict(rows=True, chunk_size=17, executor=ex)))
    with ThreadPoolExecutor(4) as ex:
        _same(
            ketharmad.sweep(**FOUR, run=dict(rows=True)),
            ketharmad.sweep(**FOUR, run=dict(rows=False, chunk_size=11, executor=ex)),
        )


def test_ranges_run_every_point_of_a_matchup_and_report_progress(monkeypatch):
    seen = []
    real = sw._reduce_range

    def spy(r):
        seen.append((r.matchup, [s.first_game for s in r.shards], [s.games for s in r.shards],
                     [s.index for s in r.shards]))  # fmt: skip
        return real(r)

    monkeypatch.setattr(sw, "_reduce_range", spy)
    ketharmad.sweep(**MIXED, run=dict(rows=False, chunk_size=40))
    # 2 matchups x ranges 0..39, 40..79, 80..89; 6 points each, cells point major
    assert [(m, f[0], n[0]) for m, f, n, _ in seen] == [(0, 0, 40), (0, 40, 40), (0, 80, 10),
                                                         (1, 0, 40), (1, 40, 40), (1, 80, 10)]  # fmt: skip
    assert all(len(set(f)) == 1 and len(f) == 6 for _, f, _, _ in seen)
    assert seen[0][3] == [0, 2, 4, 6, 8, 10] and seen[3][3] == [1, 3, 5, 7, 9, 11]


def test_a_failing_range_names_its_games_and_seed():
    good = cell(TEXT, ["ner", "tisza"], ["random"] * 2, {}, 0, 20, output="outcomes", label="good")
    bad = cell(TEXT, ["ner", "tisza"], ["random"] * 2, {"rules.no_such_rule": 1}, 0, 20, output="outcomes",
               label="bad point")  # fmt: skip
    task = sw._Range((Shard(good, 5, 10, 4, 1, 0), Shard(bad, 5, 10, 4, 1, 1)), 0, 2, 0)
    kept = []
    with ThreadPoolExecutor(2) as ex, pytest.raises(ShardError, match=r"sweep range: games 10\.\.13 of the batch "
                                                                      r"with seed 5, decks ner vs tisza.*no_such_rule"):  # fmt: skip
        run_tasks(
            sw._reduce_range,
            [task],
            lambda k, r: kept.append(r),
            executor=ex,
            describe=sw._describe_range,
        )
    with pytest.raises(ValueError, match="no_such_rule") as here:
        run_tasks(
            sw._reduce_range, [task], lambda k, r: kept.append(r), describe=sw._describe_range
        )
    notes = "".join(here.value.__notes__)
    assert "bad point (ner vs tisza" in notes and "sweep range: games 10..13" in notes
    assert kept == []


def test_rows_default_keeps_rows_for_small_sweeps_only(monkeypatch):
    small = ketharmad.sweep(**MIXED)  # 6 points x 2 matchups x 90 games
    assert small.rows and small.games.height == 1080
    monkeypatch.setattr(sw, "ROWS_AUTO_LIMIT", 1079)
    big = ketharmad.sweep(**MIXED)
    assert not big.rows and big.games is None
    _same(small, big)
    monkeypatch.setattr(sw, "ROWS_AUTO_LIMIT", 1080)
    assert ketharmad.sweep(**MIXED).rows
    with pytest.raises(ValueError, match="rows must be True or False"):
        ketharmad.sweep(**MIXED, run=dict(rows="yes"))


def test_reductions_are_not_refused_for_memory_rows_are(monkeypatch):
    monkeypatch.setattr(_memory, "available_memory", lambda: 16 * 1024)  # 16 KiB "free"
    with pytest.raises(ValueError, match="would need about"):
        ketharmad.sweep(**MIXED, run=dict(rows=True))
    assert ketharmad.sweep(**MIXED, run=dict(rows=False)).n_games == 1080


def test_a_reduction_result_writes_its_tables_report_and_plots(tmp_path):
    red = ketharmad.sweep(**ALL, run=dict(rows=False))
    rows = ketharmad.sweep(**ALL, run=dict(rows=True))
    assert set(red.tables()) == {"sweep", "sweep_summary", "sweep_points"}
    assert set(rows.tables()) == {"sweep", "sweep_summary", "sweep_points", "sweep_games"}
    written = red.write_parquet(tmp_path / "pq")
    assert "sweep_games" not in written
    back = pl.read_parquet(written["sweep"]).select(red.table.columns)
    assert_frame_equal(back, red.table, check_exact=True)
    assert red.provenance()["games"] == rows.provenance()["games"] == 3 * 12 * 24
    text = str(red)
    assert "reductions: no per-game rows kept (864 games counted)" in text
    assert "no per-game rows" not in str(rows)
    assert text.replace(f"{red.elapsed:.2f} s", "").split("\nreductions:")[0] == \
        str(rows).replace(f"{rows.elapsed:.2f} s", "")  # fmt: skip
    pytest.importorskip("matplotlib")
    report = red.write_report(tmp_path / "rep")
    md = report.read_text(encoding="utf-8")
    assert "## Summary per point" in md and "no per-game rows kept" in md
    assert (tmp_path / "rep" / "sweep_ner_orban_viktor_influence.png").stat().st_size > 10_000


def test_cli_rows_flags(tmp_path, capsys):
    grid = tmp_path / "grid.toml"
    grid.write_text(
        'decks = ["ner", "tisza"]\nbots = "random"\n[grid]\n"rules.starting_support" = [18, 22]\n'
    )
    args = ["sweep", str(grid), "--games", "30", "--seed", "3", "--no-plots"]
    assert main([*args, "--no-rows", "--out", str(tmp_path / "red")]) == 0
    assert main([*args, "--rows", "--out", str(tmp_path / "rows")]) == 0
    assert not (tmp_path / "red" / "sweep_games").exists()
    assert (tmp_path / "rows" / "sweep_games").exists()
    cols = ketharmad.sweep(
        {"rules.starting_support": [18, 22]}, games=1, bots="random"
    ).table.columns
    for name in ("sweep", "sweep_summary"):
        a = pl.read_parquet(next((tmp_path / "red" / name).glob("*.parquet")))
        b = pl.read_parquet(next((tmp_path / "rows" / name).glob("*.parquet")))
        keep = [c for c in (cols if name == "sweep" else a.columns) if not c.startswith("run_")]
        assert_frame_equal(a.select(keep), b.select(keep), check_exact=True)
    assert "no per-game rows kept" in capsys.readouterr().out


_LIMITED = r"""
import json, resource
import ketharmad

def status(key):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024

# short games (a 4-round cap, little support): ~100,000 random games a second
kw = dict(grid={"rules.starting_support": [3, 4]}, params={"rules.max_rounds": 4}, bots="random", seed=1,
          chunk_size=10_000)
ketharmad.sweep(games=20_000, rows=False, **kw)  # start the thread pools and allocators first
ketharmad.sweep(games=2_000, rows=True, **kw)
limit = status("VmSize") + 12 * 1024**2
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
out = {}
try:
    ketharmad.sweep(games=200_000, rows=True, **kw)
    out["rows"] = "no error"
except ValueError as e:
    out["rows"] = "ValueError: " + str(e)
try:  # reset the peak resident set size (VmHWM) to the current one
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    rss = status("VmRSS")
except OSError:
    rss = None
red = ketharmad.sweep(games=200_000, rows=False, **kw)
out["peak_growth"] = None if rss is None else status("VmHWM") - rss
t = red.table
out["reductions"] = [red.n_games, t["games"].to_list(), t["wins"].to_list(), t["unfinished"].to_list(),
                     t["diff"].to_list(), red.stats.counts.tolist()]
print(json.dumps(out))
"""


def test_reductions_run_where_rows_do_not_fit_under_an_address_space_limit():
    """A 400,000-game sweep (rows: 40 bytes a game, 16 MB kept) under an address-space limit
    of 12 MiB above what the warmed-up process maps: refused with rows, played on reductions
    (10,000 games of a range at a time), and its peak resident memory grows by less than
    8 MB (measured: under 1 MB; ranges of 200,000 games instead: about 50 MB, so the bound
    catches a run that holds a whole cell's outcomes)."""
    if sys.platform != "linux":
        pytest.skip("RLIMIT_AS and /proc")
    proc = subprocess.run(
        [sys.executable, "-c", _LIMITED], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["rows"].startswith("ValueError: ") and "would need about" in out["rows"], out["rows"]
    if out["peak_growth"] is not None:
        assert out["peak_growth"] < 8 * 1024**2, out["peak_growth"]
    n, games, wins, unfinished, diff, counts = out["reductions"]
    assert n == 400_000 and games == [200_000, 200_000]
    assert 0 < wins[1] < wins[0] and 0 < unfinished[0] < unfinished[1] < 200_000 and diff[1] < 0
    # every game has one winner or none: wins of seat 0 and 1 plus no_winner = games
    c = np.array(counts, dtype=np.int64)
    assert c.shape == (2, 1, 3 + 2 * 2)
    assert (c[:, 0, 3] + c[:, 0, 4] + c[:, 0, 2] == 200_000).all() and (
        c[:, 0, 1] == unfinished
    ).all()


def test_sweep_file_rows_key(tmp_path):
    """A sweep file may say rows = true / false; --rows / --no-rows on the command line win;
    anything else is refused naming the key."""
    from ketharmad.lab.sweep import load_sweep_file

    grid = tmp_path / "grid.toml"
    grid.write_text(
        'decks = ["ner", "tisza"]\nbots = "random"\nrows = false\n[grid]\n"rules.starting_support" = [18, 22]\n'
    )
    assert load_sweep_file(str(grid))["rows"] is False
    args = ["sweep", str(grid), "--games", "30", "--seed", "3", "--no-plots"]
    assert main([*args, "--out", str(tmp_path / "file")]) == 0
    assert not (tmp_path / "file" / "sweep_games").exists()  # the file's rows = false
    assert main([*args, "--rows", "--out", str(tmp_path / "flag")]) == 0
    assert (tmp_path / "flag" / "sweep_games").exists()  # the flag wins
    grid.write_text('rows = "no"\n[grid]\n"rules.starting_support" = [18, 22]\n')
    with pytest.raises(ValueError, match="rows must be true or false"):
        load_sweep_file(str(grid))
