"""The replay pages a run's report.html links to replay exactly the games the report lists
(issue 28 items 1-2): the run's decks, start player, card data, bots, seed and index reach
``write_replay`` (a writer taking ``**setup`` used to get none of them, and every page showed
a default NER-Tisza game)."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
from ketharmad.cli import main

OUTCOME = re.compile(r'"outcome":\s*"winner: P(\d) (\w+) after (\d+) turns')


def _outcome(page: Path) -> tuple[int, str, int]:
    m = OUTCOME.search(page.read_text(encoding="utf-8"))
    assert m, f"no outcome in {page}"
    return int(m.group(1)), m.group(2), int(m.group(3))


def test_matchup_report_replays_are_the_listed_games(tmp_path, capsys):
    out = tmp_path / "m"
    main(["matchups", "--games-per-side", "20", "--seed", "4", "--card-data", "balanced",
          "--out", str(out)])  # fmt: skip
    capsys.readouterr()
    games = pl.read_parquet(out / "matchup_games" / "*.parquet")
    pages = sorted((out / "replays").glob("ketharmad-*.html"))
    # the first game of every cell: 10 pairs (mirrors included), each side starting once
    assert len(pages) == 20
    factions = set()
    for page in pages:
        index = int(re.search(r"-(\d+)\.html$", page.name).group(1))
        row = games.filter(pl.col("game") == index).row(0, named=True)
        seat, faction, turns = _outcome(page)
        assert (seat, turns) == (row["winner"], row["turns"]), page.name
        assert faction == row[f"faction_{seat}"]
        factions.add((row["faction_0"], row["faction_1"]))
    assert len(factions) == 10
    html = (out / "report.html").read_text(encoding="utf-8")
    assert 'href="replays/ketharmad-0.html"' in html


def test_simulate_report_replays_are_the_batch_games(tmp_path, capsys):
    out = tmp_path / "g.parquet"
    main(["simulate", "--decks", "radikalisok", "osszefogas", "--bots", "heuristic", "--games", "30",
          "--seed", "9", "--out", str(out)])  # fmt: skip
    capsys.readouterr()
    rows = pl.read_parquet(out)
    pages = sorted((tmp_path / "g.report.replays").glob("ketharmad-*.html"))
    assert pages, list(tmp_path.iterdir())
    for page in pages:
        index = int(re.search(r"-(\d+)\.html$", page.name).group(1))
        seat, faction, turns = _outcome(page)
        game = rows.filter(pl.col("game") == index)
        assert game["turns"][0] == turns
        won = game.filter(pl.col("won"))
        assert won["seat"][0] == seat and won["deck"][0] == faction


def test_replay_command_of_a_balanced_run_names_the_card_set(tmp_path, capsys):
    out = tmp_path / "m"
    main(["matchups", "--games-per-side", "4", "--seed", "1", "--card-data", "balanced",
          "--out", str(out)])  # fmt: skip
    capsys.readouterr()
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "--card-data balanced" in html
    assert "--card-data packaged" not in html
