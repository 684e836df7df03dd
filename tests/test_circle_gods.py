"""The circle (V3) and war of the gods (V4) through the Python API (docs/formats.md):
``simulate(..., format="circle" | "gods")``, the ``points`` column, deck counts and their
errors. The rules themselves are tested in tests/circle.rs and tests/gods.rs."""

import math

import ketharmad as k
import polars as pl
import pytest

MIRROR = {"rules.allow_mirror": True}


@pytest.mark.parametrize(
    "decks", [["ner", "tisza", "radikalisok"], ["ner", "osszefogas", "tisza", "radikalisok"]]
)
def test_circle_points_and_winners(decks):
    n = len(decks)
    r = k.simulate(decks, bots="heuristic", games=150, seed=4, format="circle", run=dict(threads=2))
    assert r.params == {"rules.format": "circle"}
    p, g = r.players, r.games
    assert p["points"].dtype == pl.Float32
    finished = g.filter(pl.col("winner").is_not_null())
    assert finished.height >= 140
    per_game = (
        p.join(finished.select("game", "end_reason"), on="game")
        .group_by("game", "end_reason")
        .agg(
            pl.col("points").sum().alias("total"),
            pl.col("eliminated").sum().alias("out"),
            pl.col("points").max().alias("best"),
            pl.col("won").sum().alias("winners"),
        )
    )
    # V3: 1 point per eliminated seat to its right neighbour, 1.5 for the last standing
    for row in per_game.iter_rows(named=True):
        assert math.isclose(row["total"], row["out"] + 1.5, abs_tol=1e-5), row
        assert row["winners"] >= 1
    # the winners are the seats with the most points
    won = p.filter(pl.col("won")).join(per_game.select("game", "best"), on="game")
    assert (won["points"] == won["best"]).all()
    # every seat wins sometimes, and the winner column is a winner
    assert set(finished["winner"].to_list()) == set(range(n))
    assert (
        p.filter(pl.col("won")).group_by("game").agg(pl.col("seat").min())["seat"].sort().to_list()
        == finished.sort("game")["winner"].sort().to_list()
    )


def test_circle_is_reproducible_and_differs_from_ffa():
    decks = ["ner", "osszefogas", "tisza", "radikalisok"]
    a = k.simulate(decks, bots="heuristic", games=60, seed=9, format="circle", run=dict(threads=1))
    b = k.simulate(decks, bots="heuristic", games=60, seed=9, format="circle", run=dict(threads=2))
    assert a.games.equals(b.games) and a.players.equals(b.players)
    ffa = k.simulate(decks, bots="heuristic", games=60, seed=9, run=dict(threads=2))
    assert not ffa.games.equals(a.games)
    # formats without victory points: NaN
    assert ffa.players["points"].is_nan().all()
    log = k.play(decks, bots="heuristic", seed=9, index=3, format="circle")
    assert log.winner == a.games.row(3, named=True)["winner"]


@pytest.mark.parametrize(
    "decks",
    [
        ["ner", "osszefogas", "tisza", "radikalisok", "ner"],
        [
            "ner",
            "osszefogas",
            "tisza",
            "radikalisok",
            "ner+tisza",
            "osszefogas+radikalisok",
            "ner",
            "tisza",
            "radikalisok",
        ],
    ],
)
def test_gods_plays_five_to_nine_seats(decks):
    n = len(decks)
    r = k.simulate(
        decks, bots="heuristic", games=60, seed=2, format="gods", params=MIRROR, run=dict(threads=2)
    )
    assert r.players.height == 60 * n
    finished = r.games.filter(pl.col("winner").is_not_null())
    assert finished.height >= 55
    # last standing (R1.3): one winner, not eliminated
    won = r.players.filter(pl.col("won"))
    assert won.height == finished.height
    assert not won["eliminated"].any()
    assert r.players["points"].is_nan().all()
    assert r.players["deck"].head(n).to_list() == decks
    again = k.simulate(
        decks, bots="heuristic", games=60, seed=2, format="gods", params=MIRROR, run=dict(threads=1)
    )
    assert again.games.equals(r.games)


def test_wrong_deck_counts_are_errors():
    with pytest.raises(ValueError, match="circle format needs 3 to 4 decks, got 2"):
        k.simulate(["ner", "tisza"], games=1, format="circle")
    with pytest.raises(ValueError, match="circle format needs 3 to 4 decks, got 5"):
        k.simulate(
            ["ner", "tisza", "osszefogas", "radikalisok", "ner"],
            games=1,
            format="circle",
            params=MIRROR,
        )
    with pytest.raises(ValueError, match="gods format needs 5 to 9 decks, got 4"):
        k.simulate(["ner", "tisza", "osszefogas", "radikalisok"], games=1, format="gods")
    with pytest.raises(ValueError, match="ffa format needs 2 to 4 decks, got 5"):
        k.simulate(["ner", "tisza", "osszefogas", "radikalisok", "ner"], games=1, params=MIRROR)
    with pytest.raises(ValueError, match="2-9 decks"):
        k.simulate(["ner"] * 10, games=1, format="gods", params=MIRROR)
    with pytest.raises(ValueError, match="allow_mirror"):
        k.simulate(["ner", "tisza", "osszefogas", "radikalisok", "ner"], games=1, format="gods")


def test_game_with_more_seats_than_the_observation_holds():
    decks = ["ner", "osszefogas", "tisza", "radikalisok", "ner"]
    with pytest.raises(ValueError, match="ketharmad.Game plays 2 to 4 seats, got 5"):
        k.Game(decks, seed=1, format="gods", params=MIRROR)
    # the circle has 3-4 seats: it steps
    g = k.Game(["ner", "osszefogas", "tisza", "radikalisok"], seed=2, format="circle")
    g.advance(["heuristic"] * 4)
    assert g.is_over
