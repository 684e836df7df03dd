"""Reductions, not rows, for card_stats (issue 11, item 2: card-record counts): the plan
runner's ``"card_counts"`` cell output, and ``card_stats(decks=..., games=...)`` that plays its
own games and whose table from merged counts equals ``card_stats(simulate(...))`` of the same
games, bit for bit, for any shard size and on an executor."""

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
from conftest import FOUR_P, TWO_P, packaged_card_text
from ketharmad.cli import main
from ketharmad.lab import card_stats as cs_mod
from ketharmad.run.plan import Plan, card_ids, cell, run_plan, run_shard, shards
from ketharmad.run.reduce import CARD_SETS, CardCounts
from polars.testing import assert_frame_equal

TEXT = packaged_card_text()
IDS = card_ids(TEXT)


def _same_result(run: ketharmad.CardStatsResult, ref: ketharmad.CardStatsResult) -> None:
    """Equal tables bit for bit, equal counts and the same provenance (but the plan)."""
    assert_frame_equal(run.table, ref.table, check_exact=True)
    assert run.counts == ref.counts
    pr, pb = run.provenance(), ref.provenance()
    assert run.plan is not None and pb["plan"] is None
    pr.pop("plan"), pb.pop("plan")
    assert pr == pb
    assert run._provenance() == ref._provenance()


# ---------------------------------------------------------------- the run form equals the batch form


@pytest.mark.parametrize(
    "decks, bots, games, params",
    [
        (TWO_P, "heuristic", 900, {}),
        (FOUR_P, "random", 600, {"rules.starting_support": 18}),
    ],
)
def test_run_form_equals_batch_form(decks, bots, games, params) -> None:
    kw = dict(bots=bots, games=games, seed=7, params=params)
    ref = ketharmad.card_stats(ketharmad.simulate(decks, record_plays=True, **kw))
    assert ref.table.height > 20 and ref.table["play_count"].sum() > 0
    # one shard, uneven shards, shards of 250 on a thread pool, and the rows kept
    runs = [
        ketharmad.card_stats(decks=decks, **kw, run=dict(rows=False)),
        ketharmad.card_stats(decks=decks, **kw, run=dict(rows=False, chunk_size=173)),
    ]
    with ThreadPoolExecutor(2) as ex:
        runs.append(
            ketharmad.card_stats(
                decks=decks, **kw, run=dict(rows=False, chunk_size=250, executor=ex)
            )
        )
    rows = ketharmad.card_stats(decks=decks, **kw, run=dict(rows=True, chunk_size=250))
    for run in runs:
        _same_result(run, ref)
        assert run.batch is None and not run.rows and run.n_games == games
        assert run.plan == [{"decks": decks, "bots": [bots] * len(decks), "params": params,
                             "start_player": None, "first_game": 0, "games": games}]  # fmt: skip
    _same_result(rows, ref)
    assert rows.rows and rows.batch.games.equals(ref.batch.games)
    assert rows.batch.plays.equals(ref.batch.plays)


def test_run_form_defaults_and_start_player() -> None:
    # the defaults are simulate's batch of heuristic games with seed 0 (a few games here)
    a = ketharmad.card_stats(decks=TWO_P, games=40, start_player=1, run=dict(rows=False))
    b = ketharmad.card_stats(ketharmad.simulate(TWO_P, "heuristic", games=40, seed=0, start_player=1,
                                                record_plays=True))  # fmt: skip
    assert_frame_equal(a.table, b.table, check_exact=True)
    assert a.bots == ["heuristic", "heuristic"] and a.seed == 0
    c = ketharmad.card_stats(
        decks=TWO_P, games=40, run=dict(rows=False)
    )  # start seat drawn per game
    assert not c.table.equals(a.table)


def test_rows_auto_limit(monkeypatch) -> None:
    # rows=None keeps rows up to ROWS_AUTO_LIMIT games, counts above
    monkeypatch.setattr(cs_mod, "ROWS_AUTO_LIMIT", 30)
    kept = ketharmad.card_stats(decks=TWO_P, bots="random", games=30, seed=2)
    counted = ketharmad.card_stats(decks=TWO_P, bots="random", games=31, seed=2)
    assert kept.rows and kept.batch.n_games == 30
    assert not counted.rows and counted.batch is None and counted.counts.games == 31


# ---------------------------------------------------------------- the counts


def _counts_plan(ranges, decks=TWO_P, plays=True) -> Plan:
    return Plan(5, [cell(TEXT, decks, ["random"] * len(decks), {}, first, n, record_plays=plays,
                         output="card_counts") for first, n in ranges])  # fmt: skip


def test_merged_counts_equal_the_sum_over_ranges() -> None:
    batch = ketharmad.simulate(TWO_P, "random", games=700, seed=5, record_plays=True)
    whole = CardCounts.from_frames(batch.card_records, batch.plays, TWO_P, IDS)
    # the counts of the rows themselves: every seat-game, play and turn is counted once
    assert whole.games == 700 and whole.deck[:, 0].sum() == 1400
    assert whole.deck[:, 1].sum() == batch.players["won"].sum()
    assert whole.play_count.sum() == batch.plays.height
    assert whole.turn_sum.sum() == batch.plays["turn"].cast(pl.Int64).sum()
    # in hand = opening or drawn: never fewer than either, never more than both
    opening, drawn, in_hand = (
        whole.sets[:, CARD_SETS.index(s), 0] for s in ("opening", "drawn", "in_hand")
    )
    assert (in_hand >= np.maximum(opening, drawn)).all() and (in_hand <= opening + drawn).all()

    (one,) = run_plan(_counts_plan([(0, 700)]), shard_size=None)
    (sharded,) = run_plan(_counts_plan([(0, 700)]), shard_size=97)
    parts = run_plan(_counts_plan([(0, 250), (250, 1), (251, 449)]), shard_size=100)
    assert one == whole and sharded == whole
    assert [p.games for p in parts] == [250, 1, 449]
    assert parts[0].merge(parts[1]).merge(parts[2]) == whole
    assert parts[2] + parts[0] + parts[1] == whole  # integer sums: any order
    assert parts[0] != whole
    empty = CardCounts.empty(TWO_P)
    assert empty.merge(whole) == whole

    # a shard is a picklable description; its counts come back the same through pickle
    s = next(shards(_counts_plan([(300, 120)]), 60))
    assert pickle.loads(pickle.dumps(run_shard(pickle.loads(pickle.dumps(s))))) == run_shard(s)

    # without plays: the set counts are the same, the play columns null in the table
    (no_plays,) = run_plan(_counts_plan([(0, 700)], plays=False), shard_size=300)
    assert not no_plays.plays_recorded and no_plays.play_count.sum() == 0
    assert np.array_equal(no_plays.sets, whole.sets) and np.array_equal(no_plays.deck, whole.deck)
    t = cs_mod.card_table(no_plays, TEXT, {})
    assert t["play_count"].is_null().all() and t["mean_turn_played"].is_null().all()


def test_counts_frame_has_card_set_counts_columns() -> None:
    batch = ketharmad.simulate(FOUR_P, "random", games=60, seed=1, record_plays=True)
    counts = CardCounts.from_frames(batch.card_records, batch.plays, FOUR_P, IDS)
    frame = counts.frame()
    old = cs_mod.card_set_counts(batch.card_records)
    order = pl.col("faction").replace_strict(list(ketharmad.FACTIONS), list(range(4)))
    assert_frame_equal(
        frame.drop("play_count", "turn_sum"), old.sort(order, "card_index"), check_exact=True
    )
    assert frame["play_count"].sum() == batch.plays.height


def test_merging_other_counts_is_a_value_error() -> None:
    (a,) = run_plan(_counts_plan([(0, 5)]))
    (b,) = run_plan(_counts_plan([(0, 5)], decks=["tisza", "ner"]))
    (c,) = run_plan(_counts_plan([(0, 5)], plays=False))
    with pytest.raises(ValueError, match="decks"):
        a.merge(b)
    with pytest.raises(ValueError, match="plays"):
        a.merge(c)
    with pytest.raises(ValueError, match="CardCounts"):
        a.merge(ketharmad.run.reduce.Stats.empty(TWO_P))


# ---------------------------------------------------------------- bad arguments


@pytest.fixture(scope="module")
def small_batch() -> ketharmad.SimResult:
    return ketharmad.simulate(TWO_P, "random", games=5, seed=1, record_plays=True)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda b: ketharmad.card_stats(b, decks=TWO_P), r"not both; got a batch and decks="),
        (lambda b: ketharmad.card_stats(b, games=100, seed=3), r"a batch and games=, seed="),
        (lambda b: ketharmad.card_stats(b, run=dict(progress=True)), r"a batch and progress="),
        (lambda b: ketharmad.card_stats(), r"needs a SimResult .* or decks="),
        (lambda b: ketharmad.card_stats(games=10), r"games= but no decks="),
        (lambda b: ketharmad.card_stats(TWO_P), r"decks=\['ner', 'tisza'\]"),
        (lambda b: ketharmad.card_stats(b.games), r"needs a SimResult"),
        (lambda b: ketharmad.card_stats(decks=["ner", "fidesz"], games=5), r"fidesz"),
        (lambda b: ketharmad.card_stats(decks=TWO_P, games=0), r"games"),
        (lambda b: ketharmad.card_stats(decks=TWO_P, games=5, run=dict(rows="yes")), r"rows"),
        (
            lambda b: ketharmad.card_stats(decks=TWO_P, games=5, run=dict(chunk_size=0)),
            r"chunk_size",
        ),
        (lambda b: ketharmad.card_stats(decks=TWO_P, games=5, seed=-1), r"seed"),
        (lambda b: ketharmad.card_stats(decks=TWO_P, games=5, bots=["random"]), r"bot"),
        (
            lambda b: ketharmad.card_stats(
                decks=TWO_P, games=5, params={"nope.x": 1}, run=dict(rows=False)
            ),
            r"nope",
        ),
        (lambda b: ketharmad.card_stats(decks=TWO_P, games=5, start_player=2), r"start_player"),
        (
            lambda b: ketharmad.card_stats(
                decks=TWO_P,
                games=5,
                run=dict(executor=ThreadPoolExecutor(1), cluster="local"),
            ),
            r"executor= or cluster=, not both",
        ),
    ],
)
def test_bad_arguments_are_value_errors(call, match, small_batch) -> None:
    with pytest.raises(ValueError, match=match):
        call(small_batch)


# ---------------------------------------------------------------- the result and the CLI


def test_a_counts_result_writes_its_tables_and_report(tmp_path) -> None:
    res = ketharmad.card_stats(decks=TWO_P, bots="random", games=50, seed=3, run=dict(rows=False))
    assert set(res.tables()) == {"card_stats"}
    written = res.write_parquet(tmp_path / "pq")
    back = pl.read_parquet(written["card_stats"]).select(res.table.columns)
    assert_frame_equal(back, res.table, check_exact=True)
    report = res.write_report(tmp_path / "rep", plots=False).read_text()
    assert "# Card statistics: ner vs tisza, 50 games" in report and "seed 3" in report
    assert "50 games, ner vs tisza" in str(res) and "no per-game rows kept" in str(res)


def test_cli_rows_flags(tmp_path, capsys) -> None:
    args = ["card-stats", "--games", "60", "--seed", "4", "--bots", "random", "--no-plots"]
    assert main([*args, "--no-rows", "--out", str(tmp_path / "red")]) == 0
    red_out = capsys.readouterr().out
    assert main([*args, "--out", str(tmp_path / "rows")]) == 0  # default: rows for a small run
    rows_out = capsys.readouterr().out
    # the card-stats table, the run's row and the replay pages of its report: no row tables
    assert sorted(p.name for p in (tmp_path / "red").iterdir() if p.is_dir()) == [
        "card_stats",
        "replays",
        "runs",
    ]
    assert (tmp_path / "rows" / "card_records").exists() and (tmp_path / "rows" / "plays").exists()
    a = pl.read_parquet(next((tmp_path / "red" / "card_stats").glob("*.parquet")))
    b = pl.read_parquet(next((tmp_path / "rows" / "card_stats").glob("*.parquet")))
    ref = ketharmad.card_stats(
        ketharmad.simulate(TWO_P, "random", games=60, seed=4, record_plays=True)
    )
    assert_frame_equal(a.select(ref.table.columns), ref.table, check_exact=True)
    assert_frame_equal(b.select(ref.table.columns), ref.table, check_exact=True)
    # the same summary either way (but the closing line)
    assert red_out.splitlines()[:-2] == rows_out.splitlines()[:-2]
    assert "no per-game rows kept" in red_out and "no per-game rows kept" not in rows_out


# ---------------------------------------------------------------- memory


_LIMITED = r"""
import json, resource
import ketharmad

def vm_size():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024

# start the thread pools (core and polars) first
ketharmad.card_stats(decks=["ner", "tisza"], bots="random", games=300, rows=False, chunk_size=100)
limit = vm_size() + 192 * 1024**2
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
out = {}
try:
    ketharmad.card_stats(decks=["ner", "tisza"], bots="random", games=GAMES, rows=True)
    out["rows"] = "no error"
except ValueError as e:
    out["rows"] = "ValueError: " + str(e)
r = ketharmad.card_stats(decks=["ner", "tisza"], bots="random", games=GAMES, seed=1, rows=False)
out["counts"] = [r.n_games, r.counts.games, int(r.counts.deck[:, 0].sum()), int(r.table["deck_games"].max())]
print(json.dumps(out))
"""


def test_counts_run_where_rows_are_refused_under_an_address_space_limit() -> None:
    if sys.platform != "linux":
        pytest.skip("RLIMIT_AS and /proc")
    games = 100_000  # rows: about 2.3 kB per game kept (233 MB), more than the 192 MB allowed
    proc = subprocess.run([sys.executable, "-c", _LIMITED.replace("GAMES", str(games))],
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["rows"].startswith("ValueError: ") and "would need about" in out["rows"], out["rows"]
    assert out["counts"] == [games, games, 2 * games, games]


def test_run_plan_merges_reductions_as_they_come_in_in_plan_order() -> None:
    from ketharmad.run.plan import _Collected, merge_shards

    plan = _counts_plan([(0, 90), (90, 40)])
    work = list(shards(plan, 20))
    got = [run_shard(s) for s in work]
    col = _Collected(plan, work)
    for k in reversed(range(len(work))):  # the last shard first: every one waits for the first
        col.put(k, got[k])
    assert not col.early and all(r is None for r in col.kept)  # nothing kept per shard
    assert col.results() == merge_shards(plan, work, got)
    assert [c.games for c in col.results()] == [90, 40]
    # rows are kept and concatenated as before
    rows_plan = Plan(5, [cell(TEXT, TWO_P, ["random"] * 2, {}, 0, 30, output="games")])
    rows_work = list(shards(rows_plan, 7))
    col = _Collected(rows_plan, rows_work)
    for k in (2, 0, 4, 1, 3):
        col.put(k, run_shard(rows_work[k]))
    assert col.results()[0].games["game"].to_list() == list(range(30))
