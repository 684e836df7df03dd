"""ketharmad compare / compare_runs (issue 28): a planted card-number change is listed (paired
game by game when the runs share their seed), identical runs list nothing, different seeds
are compared unpaired and say so, and everything that is not two comparable runs is refused
by name."""

from __future__ import annotations

import shutil
from pathlib import Path

import ketharmad
import polars as pl
import pytest
from conftest import run_error
from html_doc import heat_cells, parse
from ketharmad.cli import main

DECKS3 = ["ner", "tisza", "osszefogas"]
PLANTED = {"ner_orban_viktor.cost_generic": 1}  # a cheap Orbán: NER's matchups move


def _run(folder: Path, **kw) -> Path:
    args = dict(games_per_side=150, seed=5, decks=DECKS3)
    args.update(kw)
    ketharmad.write_run(ketharmad.matchups(**args), folder, report=False)
    return folder


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("runs")
    return {
        "a": _run(root / "a"),
        "same": _run(root / "same"),
        "planted": _run(root / "planted", params=PLANTED),
        "seed6": _run(root / "seed6", seed=6),
        "norows": _run(root / "norows", run={"rows": False}),
        "norows_planted": _run(root / "norows_planted", params=PLANTED, run={"rows": False}),
    }


def test_planted_difference_is_listed_paired(runs):
    res = ketharmad.compare_runs(runs["a"], runs["planted"])
    ch = res.changed.filter(pl.col("table") == "matchups")
    assert ch.height > 0
    assert all("ner" in c for c in ch["cell"].to_list()), "only NER's matchups changed"
    assert set(ch["method"].to_list()) == {"paired"}
    t = res.table.filter(pl.col("table") == "matchups", pl.col("measure") == "win_rate")
    a = ketharmad.matchups(games_per_side=150, seed=5, decks=DECKS3)
    b = ketharmad.matchups(games_per_side=150, seed=5, decks=DECKS3, params=PLANTED)
    for r in t.iter_rows(named=True):
        f, o = r["cell"].split("-")
        ra = a.table.filter(pl.col("faction") == f, pl.col("opponent") == o).row(0, named=True)
        rb = b.table.filter(pl.col("faction") == f, pl.col("opponent") == o).row(0, named=True)
        assert r["a"] == ra["win_rate"] and r["b"] == rb["win_rate"]
        assert r["diff"] == pytest.approx(rb["win_rate"] - ra["win_rate"])
        if "ner" not in (f, o):  # the same deals, untouched cards: exactly the same games
            assert (
                r["diff"] == 0 and r["diff_low"] == 0 and r["diff_high"] == 0 and not r["changed"]
            )
    assert "ner-tisza" in res.text() or "ner-osszefogas" in res.text()


def test_identical_runs_list_nothing(runs):
    res = ketharmad.compare_runs(runs["a"], runs["same"])
    assert res.changed.height == 0
    assert res.table.height > 20
    assert (res.table["diff"] == 0).all()
    assert "no cell changed beyond noise" in res.text()
    rates = res.table.filter(pl.col("measure") == "win_rate")
    # every table with per-game keys is paired; start_player (one row, no keys) is not
    assert set(rates.filter(pl.col("table") != "start_player")["method"].to_list()) == {"paired"}
    assert rates.filter(pl.col("table") == "start_player")["method"].to_list() == ["unpaired"]


def test_different_seeds_are_unpaired_and_say_so(runs):
    res = ketharmad.compare_runs(runs["a"], runs["seed6"])
    assert res.paired is False
    assert "paired" not in set(res.table["method"].to_list())
    assert "different seeds (5 and 6)" in res.mode()
    assert any("different seeds" in n for n in res.notes)


def test_without_rows_unpaired_but_the_planted_change_is_still_found(runs):
    same = ketharmad.compare_runs(runs["norows"], runs["a"])
    assert same.changed.height == 0 and same.paired is False
    assert any("no per-game rows" in n for n in same.notes)
    res = ketharmad.compare_runs(runs["norows"], runs["norows_planted"])
    assert set(res.table["method"].to_list()) <= {"unpaired", "intervals"}
    paired = ketharmad.compare_runs(runs["a"], runs["planted"])
    # the paired intervals are narrower for the same cells
    key = ["table", "cell", "measure"]
    j = res.table.join(paired.table, on=key, suffix="_p").filter(pl.col("method_p") == "paired")
    assert j.height > 0
    width = (pl.col("diff_high") - pl.col("diff_low")).mean()
    assert (
        j.select(width).item()
        > j.select((pl.col("diff_high_p") - pl.col("diff_low_p")).mean()).item()
    )


def test_compare_html_and_cli(runs, tmp_path, capsys):
    res = ketharmad.compare_runs(runs["a"], runs["planted"])
    out = tmp_path / "cmp.html"
    assert main(["compare", str(runs["a"]), str(runs["planted"]), "--html", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"{res.changed.height} changed beyond noise" in printed
    doc = parse(out)
    assert doc.find("body").get("data-page") == "compare"
    summary = doc.by_id("compare-summary")
    assert int(summary.get("data-changed")) == res.changed.height
    assert int(summary.get("data-compared")) == res.table.height
    cells = heat_cells(doc, "compare")
    t = res.table.filter(pl.col("table") == "matchups", pl.col("measure") == "win_rate")
    for r in t.iter_rows(named=True):
        assert float(cells[r["cell"]].get("data-value")) == r["diff"]
    changed = doc.by_id("table-compare-changed")
    assert int(changed.get("data-rows")) == res.changed.height
    # an existing page is refused, --overwrite replaces it
    err = run_error(["compare", str(runs["a"]), str(runs["planted"]), "--html", str(out)], capsys)
    assert "already exists" in err and "--overwrite" in err
    assert (
        main(["compare", str(runs["a"]), str(runs["planted"]), "--out", str(tmp_path / "o")]) == 0
    )
    assert pl.read_parquet(tmp_path / "o" / "compare.parquet").height == res.table.height
    assert (tmp_path / "o" / "compare.html").exists()


def test_refusals_by_name(runs, tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ValueError, match="holds no run"):
        ketharmad.compare_runs(empty, runs["a"])
    # two runs in one folder: choose one
    two = tmp_path / "two"
    shutil.copytree(runs["a"], two)
    ketharmad.write_run(
        ketharmad.matchups(games_per_side=10, seed=1, decks=DECKS3), two, report=False
    )
    ids = sorted(p.stem for p in (two / "runs").glob("*.parquet"))
    with pytest.raises(ValueError, match="holds 2 runs") as e:
        ketharmad.compare_runs(two, runs["a"])
    assert ids[0] in str(e.value) and ids[1] in str(e.value)
    first = next((runs["a"] / "runs").glob("*.parquet")).stem
    assert ketharmad.compare_runs(two, runs["a"], run_a=first).changed.height == 0
    # a corrupted run row, a foreign Parquet file, a missing table
    bad = tmp_path / "bad"
    shutil.copytree(runs["a"], bad)
    row = next((bad / "runs").glob("*.parquet"))
    row.write_bytes(b"not parquet at all")
    with pytest.raises(ValueError, match="not a readable Parquet file"):
        ketharmad.compare_runs(bad, runs["a"])
    pl.DataFrame({"x": [1]}).write_parquet(row)
    with pytest.raises(ValueError, match="lacks the provenance column"):
        ketharmad.compare_runs(bad, runs["a"])
    gone = tmp_path / "gone"
    shutil.copytree(runs["a"], gone)
    next((gone / "matchups").glob("*.parquet")).unlink()
    with pytest.raises(ValueError, match="lists the table 'matchups'.*missing"):
        ketharmad.compare_runs(gone, runs["a"])
    # another kind
    other = tmp_path / "tour"
    ketharmad.write_run(
        ketharmad.tournament(["random", "heuristic"], games=48, seed=1), other, report=False
    )
    with pytest.raises(ValueError, match="matchups run.*tournament run"):
        ketharmad.compare_runs(runs["a"], other)
    # the command line: one error line, status 2
    assert "holds no run" in run_error(["compare", str(empty), str(runs["a"])], capsys)
    assert "only runs of the same kind" in run_error(
        ["compare", str(runs["a"]), str(other)], capsys
    )
    loose = tmp_path / "loose.parquet"
    pl.DataFrame({"x": [1]}).write_parquet(loose)
    assert "not a run folder" in run_error(["compare", str(loose), str(runs["a"])], capsys)
    assert "lacks the provenance column" in run_error(["compare", str(row), str(runs["a"])], capsys)
    with pytest.raises(ValueError, match="alpha"):
        ketharmad.compare_runs(runs["a"], runs["same"], alpha=2)


def test_card_stats_runs_compare(tmp_path):
    kw = dict(decks=["ner", "tisza"], games=300, seed=4)
    for name in ("a", "b"):
        ketharmad.write_run(ketharmad.card_stats(**kw), tmp_path / name, report=False)
    res = ketharmad.compare_runs(tmp_path / "a", tmp_path / "b")
    assert res.changed.height == 0
    measures = set(res.table["measure"].to_list())
    assert {"in_hand_win_rate", "iwd", "win_rate"} <= measures
