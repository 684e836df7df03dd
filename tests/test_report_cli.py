"""Every command with --out writes report.html (issue 28 item 1), for Kétharmad and the
harness games; an --out folder that holds an earlier run is refused unless --overwrite,
which replaces that run (item 4)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from conftest import run_error
from html_doc import heat_cells, parse
from ketharmad.cli import main

ST2 = "schotten_totten_2"
SMALL_TARGETS = str(Path(__file__).with_name("test_balance_small.toml"))

#: (command, kind, arguments before --out): the smallest run of each command
COMMANDS = [
    ("matchups", "matchups", ["matchups", "--games-per-side", "4", "--bots", "random", "--no-plots"]),
    ("card-stats", "card_stats", ["card-stats", "--games", "40", "--bots", "random", "--no-plots"]),
    ("diagnose", "diagnose", ["diagnose", "--decks", "ner", "--games", "24", "--restricted", "0",
                              "--bots", "random", "--no-plots"]),
    ("sweep", "sweep", ["sweep", "GRID", "--games", "10", "--bots", "random", "--no-plots"]),
    ("ab", "ab_test", ["ab", "heuristic", "random", "--max-games", "480", "--seed", "1", "--no-plots"]),
    ("ladder", "ladder", ["ladder", "random", "heuristic", "--games", "24", "--bootstrap", "5", "--no-plots"]),
    ("bots", "tournament", ["bots", "random", "heuristic", "--games", "24"]),
    ("balance", "balance", ["balance", SMALL_TARGETS, "--bots", "random", "--budget", "4000", "--no-plots"]),
    ("matchups-st2", "matchups", ["matchups", "--game", ST2, "--bots", "random", "greedy", "--games", "20",
                                  "--no-plots"]),
    ("sweep-st2", "sweep", ["sweep", "--game", ST2, "--grid", "rules.damages_to_win=3,4", "--bots", "random",
                            "random", "--games", "20", "--no-plots"]),
    ("bots-st2", "tournament", ["bots", "--game", ST2, "random", "greedy", "--games", "20"]),
    ("balance-st2", "balance", ["balance", "--game", ST2, "--bots", "random", "random", "--target",
                                "attacker=0.3:0.7", "--allow", "rules.damages_to_win", "--budget", "800", "--games-per-block", "20", "--no-plots"]),
]  # fmt: skip


@pytest.mark.parametrize("name,kind,argv", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_out_writes_report_html(name, kind, argv, tmp_path, capsys):
    grid = tmp_path / "grid.toml"
    grid.write_text('decks = ["ner", "tisza"]\n[grid]\n"rules.starting_support" = [18, 20]\n')
    argv = [str(grid) if a == "GRID" else a for a in argv]
    out = tmp_path / "run"
    assert main([*argv, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"HTML report {out / 'report.html'}" in printed
    doc = parse(out / "report.html")
    body = doc.find("body")
    assert body.get("data-page") == "report" and body.get("data-kind") == kind
    run_id = next((out / "runs").glob("*.parquet")).stem
    assert body.get("data-run-id") == run_id
    command = doc.by_id("prov-command").text
    assert command.startswith(f"ketharmad {argv[0]}") and str(out) in command
    # every table of the run is in the page, its row count said
    tables = pl.read_parquet(out / "runs" / f"{run_id}.parquet")["tables"][0].to_list()
    for t in tables:
        el = doc.by_id(f"table-{t}")
        assert el is not None, t
        assert (
            int(el.get("data-total-rows")) == pl.read_parquet(out / t / f"{run_id}.parquet").height
        )


def test_harness_matchup_heatmap(tmp_path, capsys):
    out = tmp_path / "st2"
    assert main(["matchups", "--game", ST2, "--bots", "random", "greedy", "--games", "30", "--out", str(out),
                 "--no-plots"]) == 0  # fmt: skip
    capsys.readouterr()
    table = pl.read_parquet(next((out / f"matchups_{ST2}").glob("*.parquet")))
    cells = heat_cells(parse(out / "report.html"), f"matchups-{ST2}")
    assert len(cells) == table.height == 4
    for r in table.iter_rows(named=True):
        assert float(cells[f"{r['bot']}-{r['opponent']}"].get("data-value")) == r["win_rate"]


def test_tournament_pairs_heatmap_has_no_data_on_its_diagonal(tmp_path, capsys):
    out = tmp_path / "t"
    assert main(["bots", "random", "heuristic", "--games", "24", "--out", str(out)]) == 0
    capsys.readouterr()
    pairs = pl.read_parquet(next((out / "tournament_pairs").glob("*.parquet"))).row(0, named=True)
    cells = heat_cells(parse(out / "report.html"), "pairs")
    a, b = pairs["bot_a"], pairs["bot_b"]
    assert float(cells[f"{a}-{b}"].get("data-value")) == pairs["win_rate_a"]
    assert float(cells[f"{b}-{a}"].get("data-value")) == pytest.approx(1 - pairs["win_rate_a"])
    assert cells[f"{a}-{a}"].text == "no data" and cells[f"{b}-{b}"].text == "no data"


def test_simulate_report_next_to_the_file(tmp_path, capsys):
    out = tmp_path / "games.parquet"
    assert main(["simulate", "--games", "30", "--out", str(out)]) == 0
    capsys.readouterr()
    html = tmp_path / "games.report.html"
    doc = parse(html)
    assert doc.find("body").get("data-kind") == "simulate"
    assert doc.by_id("table-summary") is not None
    # an existing report is refused before any game, like the file
    (tmp_path / "other.report.html").write_text("mine")
    err = run_error(["simulate", "--games", "30", "--out", str(tmp_path / "other.parquet")], capsys)
    assert "other.report.html" in err and "already exists" in err
    assert (tmp_path / "other.report.html").read_text() == "mine"
    assert not (tmp_path / "other.parquet").exists()
    assert main(["simulate", "--game", ST2, "--bots", "random", "greedy", "--games", "20", "--out",
                 str(tmp_path / "st.csv")]) == 0  # fmt: skip
    assert parse(tmp_path / "st.report.html").find("body").get("data-kind") == "simulate"


def test_out_folder_reuse_refused_unless_overwrite(tmp_path, capsys):
    out = tmp_path / "m"
    argv = [
        "matchups",
        "--games-per-side",
        "2",
        "--decks",
        "ner",
        "tisza",
        "--bots",
        "random",
        "--out",
        str(out),
    ]
    assert main(argv) == 0
    first = next((out / "runs").glob("*.parquet")).stem
    (out / "mine.txt").write_text("the designer's own notes")
    err = run_error([*argv, "--no-plots"], capsys)
    assert "already holds a run" in err and first in err and "--overwrite" in err
    assert main([*argv, "--overwrite"]) == 0
    capsys.readouterr()
    runs = [p.stem for p in (out / "runs").glob("*.parquet")]
    assert len(runs) == 1 and runs[0] != first
    assert not list(out.rglob(f"{first}.parquet")), "the earlier run's tables are gone"
    assert (out / "mine.txt").read_text() == "the designer's own notes", "nothing else is touched"
    assert parse(out / "report.html").find("body").get("data-run-id") == runs[0]
    assert (out / "matchups_heatmap.png").exists()  # written by the new run
    # a new run without plots: the earlier PNG (named by the earlier report.md) is removed
    assert main([*argv, "--overwrite", "--no-plots"]) == 0
    assert not (out / "matchups_heatmap.png").exists()
