"""Coalition, 2 against 2 (rules.md R16.2-R16.3, E81-E89; docs/formats.md) through the Python
API: ``simulate(..., format="coalition")``, ``play`` and ``Game``; the rules themselves are
tested in tests/coalition.rs."""

import ketharmad as k
import polars as pl
import pytest

DECKS = ["ner", "osszefogas", "tisza", "radikalisok"]


@pytest.fixture(scope="module")
def batch():
    return k.simulate(
        DECKS, bots="heuristic", games=200, seed=3, format="coalition", run=dict(threads=2)
    )


def test_e87_partners_win_together_and_winner_is_the_lower_seat(batch):
    g, p = batch.games, batch.players
    finished = g.filter(pl.col("winner").is_not_null())
    assert finished.height > 180
    # E81: teams {0, 2} and {1, 3}; the winner column holds the team's lower seat
    assert set(finished["winner"].to_list()) == {0, 1}
    won = p.filter(pl.col("won")).group_by("game").agg(pl.col("seat").sort())
    assert won.height == finished.height
    assert all(s in ([0, 2], [1, 3]) for s in won["seat"].to_list())
    # E82: one Support pool per team, so partners show the same final Support
    wide = p.pivot(on="seat", index="game", values="support")
    assert wide["0"].equals(wide["2"], check_names=False)
    assert wide["1"].equals(wide["3"], check_names=False)


def test_coalition_is_reproducible_and_replayable(batch):
    again = k.simulate(
        DECKS, bots="heuristic", games=200, seed=3, format="coalition", run=dict(threads=1)
    )
    assert again.games.equals(batch.games)
    assert batch.params == {"rules.format": "coalition"}
    row = batch.games.row(5, named=True)
    log = k.play(DECKS, bots="heuristic", seed=3, index=5, format="coalition")
    assert log.winner == row["winner"]


def test_coalition_differs_from_the_free_for_all(batch):
    ffa = k.simulate(DECKS, bots="heuristic", games=200, seed=3, run=dict(threads=2))
    assert not ffa.games.equals(batch.games)
    # the free-for-all has one winner per game
    assert (
        ffa.players.filter(pl.col("won")).height
        == ffa.games.filter(pl.col("winner").is_not_null()).height
    )


def test_coalition_support_is_a_parameter():
    r = k.simulate(
        DECKS,
        bots="random",
        games=30,
        seed=1,
        format="coalition",
        params={"format.coalition.support": 1},
    )
    short = k.simulate(DECKS, bots="random", games=30, seed=1, format="coalition")
    assert r.games["turns"].mean() < short.games["turns"].mean()


def test_game_stepping_in_coalition():
    g = k.Game(DECKS, seed=2, format="coalition")
    g.advance(["heuristic"] * 4)
    assert g.is_over
    r = g.returns()
    w = g.winner
    assert w in (0, 1)
    assert r[w] == r[w + 2] == 1.0 and r[1 - w] == r[3 - w] == -1.0


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(decks=["ner", "tisza"], format="coalition"), "exactly 4 decks"),
        (dict(decks=DECKS, format={"name": "solo_priority", "priority": "team"}), "needs teams"),
        (dict(decks=DECKS, format="teams"), "unknown format"),
        (dict(decks=DECKS, format=3), "format must be a format name"),
        (dict(decks=DECKS, format="ffa", params={"rules.format": "coalition"}), "disagrees"),
        (
            dict(decks=["ner", "tisza", "osszefogas"], params={"rules.format": "coalition"}),
            "exactly 4 decks",
        ),
    ],
)
def test_bad_formats_are_value_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        k.simulate(bots="random", games=2, **kwargs)
    with pytest.raises(ValueError, match=message):
        k.Game(kwargs["decks"], format=kwargs.get("format"), params=kwargs.get("params"))
