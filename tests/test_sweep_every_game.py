"""One sweep for every game (issue 23, item 5): the same ``ketharmad.sweep`` call on Kétharmad,
Schotten Totten 2 and Osztrakon gives one result class with the same table names and the same
common columns (``SWEEP_COLUMNS``), computed from one :class:`SweepStats`; the old harness
result class is a deprecated alias."""

from __future__ import annotations

import ketharmad
import polars as pl
import pytest
from ketharmad.lab.sweep import SWEEP_COLUMNS, SweepStats

#: one swept parameter of each game (two values; the baseline is the default where it is one)
GRIDS = {
    "ketharmad": {"rules.starting_support": [18, 20]},
    "schotten_totten_2": {"rules.damages_to_win": [3, 4]},
    "osztrakon": {"model.read_noise": [0.5, 2.5]},
}
#: the rows of the table that belong to one point: Kétharmad's matchup, a harness game's seats
ROW_COLUMNS = {
    "ketharmad": ["matchup", "faction", "opponent"],
    "schotten_totten_2": ["seat", "side", "bot"],
    "osztrakon": ["seat", "side", "bot"],
}


@pytest.fixture(scope="module")
def results():
    return {
        game: ketharmad.sweep(grid, bots="random", games=40, seed=1, game=game)
        for game, grid in GRIDS.items()
    }


@pytest.mark.parametrize("game", list(GRIDS))
def test_one_result_class_and_the_common_schema(results, game):
    r = results[game]
    (name,) = GRIDS[game]
    assert type(r) is ketharmad.SweepResult and r.game == game and r.kind == "sweep"
    assert set(r.tables()) == {"sweep", "sweep_summary", "sweep_points", "sweep_games"}
    assert r.parameters == [name] and r.games_per_point == 40 and isinstance(r.stats, SweepStats)
    cols = r.table.columns
    # point, the swept parameter, the game's row columns, then the common columns in order
    assert cols[:2] == ["point", name] and cols[2:5] == ROW_COLUMNS[game]
    common = [c for c in cols if c in SWEEP_COLUMNS]
    assert common == list(SWEEP_COLUMNS)
    assert r.points.columns == ["point", "params", name, "current"]
    assert r.summary.columns[:1] == ["point"] and {name, "baseline", "current", "games"} <= set(
        r.summary.columns
    )
    # the baseline is the point holding the default values; it differs from itself by 0
    base = r.table.filter(pl.col("baseline"))
    assert base["point"].unique().to_list() == [r.baseline] and (base["diff"] == 0).all()
    assert base["current"].all() and r.points["current"].to_list()[r.baseline]
    # every point plays the same number of games, and the rows hold them all
    assert (r.table["games"] == 40).all()
    assert r.games is not None and r.games.height == r.n_games


def test_the_common_columns_have_one_dtype_in_every_game(results):
    schemas = {game: r.table.select(SWEEP_COLUMNS).schema for game, r in results.items()}
    first = schemas["ketharmad"]
    for game, schema in schemas.items():
        assert schema == first, game


def _outcomes(r, game, frame, seat):
    """Per game of ``frame`` (rows of one point, in game order): whether ``seat`` won, whether
    no seat won, whether it is unfinished (Kétharmad: ``winner`` and ``end_reason``; a harness
    game: ``winners_mask`` and ``unfinished``)."""
    if game == "ketharmad":
        won = (frame["winner"] == seat).fill_null(False)
        return (
            won,
            frame["winner"].is_null(),
            frame["end_reason"].cast(pl.String).str.starts_with("unfinished"),
        )
    won = (frame["winners_mask"].cast(pl.Int64) // (1 << seat)) % 2 == 1
    return won, frame["winners_mask"] == 0, frame["unfinished"]


@pytest.mark.parametrize("game", list(GRIDS))
def test_the_common_columns_count_the_rows(results, game):
    """wins, games without a winner, unfinished games, mean turns and the paired difference
    against the per-game rows, for every game (Kétharmad: seat 0 of its one matchup; a
    harness game: every seat)."""
    r = results[game]
    g = r.games
    base = g.filter(pl.col("point") == r.baseline).sort("game")
    for row in r.table.iter_rows(named=True):
        mine = g.filter(pl.col("point") == row["point"]).sort("game")
        seat = row.get("seat", 0)
        won, none, unfinished = _outcomes(r, game, mine, seat)
        base_won, _, _ = _outcomes(r, game, base, seat)
        assert mine.height == row["games"] == 40
        assert row["wins"] == won.sum() and row["win_rate"] == won.sum() / 40
        assert row["no_winner"] == none.sum() and row["unfinished"] == unfinished.sum()
        assert row["mean_turns"] == pytest.approx(mine["turns"].mean(), rel=1e-15)
        d = won.cast(pl.Int8) - base_won.cast(pl.Int8)
        assert row["diff"] == pytest.approx(d.mean(), abs=1e-15)
        if not row["degenerate_ci"]:
            half = 1.959963984540054 * d.std() / 40**0.5
            assert row["paired_half_width"] == pytest.approx(half, rel=1e-12)
            assert row["diff_ci_low"] == pytest.approx(row["diff"] - half, abs=1e-12)


def test_a_harness_game_keeps_its_own_columns(results):
    t = results["osztrakon"].table
    assert t.columns[-1] == "significant" and "even_share" in t.columns
    assert (t["even_share"] == 0.2).all()
    s = results["osztrakon"].summary
    assert {"mean_turns", "turns_diff", "spread", "max_dev_even"} <= set(s.columns)
    for row in s.iter_rows(named=True):
        rows = t.filter(pl.col("point") == row["point"])
        assert (rows["mean_turns"] == row["mean_turns"]).all()
        assert (rows["no_winner"] == row["no_winner"]).all()
    k = results["ketharmad"].table
    assert "can_affect" in k.columns and "significant" not in k.columns


def test_game_sweep_result_is_a_deprecated_alias_of_sweep_result():
    with pytest.warns(
        DeprecationWarning, match="GameSweepResult is deprecated in 0.2.0.*SweepResult"
    ):
        alias = ketharmad.GameSweepResult
    assert alias is ketharmad.SweepResult


def test_the_harness_sweep_module_is_gone():
    with pytest.raises(ImportError):
        import ketharmad.lab.game_sweep  # noqa: F401


def test_both_drivers_play_points_into_one_kind_of_counts(results):
    """``GameDriver.play_points`` of each driver: the counts ``sweep`` built its table from."""
    from ketharmad.game.driver import Block, GameDriver, driver_for
    from polars.testing import assert_frame_equal

    st2 = driver_for("schotten_totten_2")
    points = [{"rules.damages_to_win": 3}, {"rules.damages_to_win": 4}]
    stats, rows, plan = st2.play_points(
        [Block(("random", "random"), 0, 40)], points, 1, {}, results["schotten_totten_2"].baseline
    )
    assert isinstance(st2, GameDriver) and plan is None
    assert stats == results["schotten_totten_2"].stats
    assert_frame_equal(rows, results["schotten_totten_2"].games)
    k = driver_for("ketharmad")
    r = results["ketharmad"]
    text = r._card_text
    block = Block(("random", "random"), 0, 40, ("ner", "tisza"))
    points = [{"rules.starting_support": 18}, {"rules.starting_support": 20}]
    for rows_ in (True, False):
        stats, games, plan = k.play_points([block], points, 1, {}, r.baseline, card_text=text,
                                           rows=rows_, chunk_size=None, progress=False)  # fmt: skip
        assert isinstance(k, GameDriver) and stats == r.stats and plan == r.plan
        assert (games is not None) == rows_
