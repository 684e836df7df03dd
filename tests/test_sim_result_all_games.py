"""One batch result class for every game (issue 23 item 4): ``simulate`` returns a
:class:`ketharmad.SimResult` for Kétharmad and for the harness games, with the same
``summary()`` columns, and ``ketharmad.GameResult`` is a deprecated alias."""

from __future__ import annotations

import ketharmad
import polars as pl
import pytest
from ketharmad.games import GameStats, simulate_game  # the harness engine behind simulate

SUMMARY = ["seat", "bot", "games", "wins", "win_rate", "ci_low", "ci_high"]


@pytest.mark.parametrize(
    ("game", "bots", "sides"),
    [
        ("ketharmad", "heuristic", ["ner", "tisza"]),
        ("schotten_totten_2", ["greedy", "random"], ["attacker", "defender"]),
        ("osztrakon", "greedy", None),
    ],
)
def test_simulate_returns_one_result_class_with_one_summary_schema(game, bots, sides):
    r = ketharmad.simulate(bots=bots, games=60, seed=3, game=game)
    assert type(r) is ketharmad.SimResult
    assert r.game == game
    s = r.summary()
    side = "faction" if game == "ketharmad" else "side"
    assert s.columns == ["seat", side, "bot", *SUMMARY[2:]]
    n_seats = len(r.players["seat"].unique())
    assert s.height == n_seats
    assert s["games"].to_list() == [60] * n_seats
    # the summary counts the per-seat rows: wins are the seat's `won` rows
    for seat in range(n_seats):
        won = int(r.players.filter(pl.col("seat") == seat)["won"].cast(pl.Int64).sum())
        assert s.filter(pl.col("seat") == seat)["wins"].item() == won
    if sides is not None:
        assert r.sides == sides
    assert r.n_games == 60 and r.elapsed >= 0
    assert f"{r.n_games:,} games" in repr(r)


def test_harness_result_summary_matches_its_stats_reduction():
    rows = ketharmad.simulate(
        bots=["greedy", "random"], games=200, seed=5, game="schotten_totten_2"
    )
    stats = simulate_game(
        "schotten_totten_2", bots=["greedy", "random"], games=200, seed=5, output="stats"
    )
    assert rows.summary().equals(stats.summary())
    assert GameStats.from_result(rows).wins == stats.wins
    assert stats.wins == rows.summary()["wins"].to_list()


def test_harness_result_writes_parquet_with_the_game_as_provenance(tmp_path):
    r = ketharmad.simulate(bots=["greedy", "random"], games=20, seed=1, game="schotten_totten_2")
    paths = r.write_parquet(tmp_path, run_id="st2")
    g = pl.read_parquet(paths["games"])
    assert g.height == 20
    assert g["run_card_data_hash"].unique().to_list() == ["game:schotten_totten_2"]
    assert set(paths) >= {"games", "players", "summary", "runs"}


def test_game_result_is_a_deprecated_alias_of_sim_result():
    with pytest.warns(DeprecationWarning, match="GameResult is deprecated in 0.2.0.*SimResult"):
        alias = ketharmad.GameResult
    assert alias is ketharmad.SimResult
