"""Pairs play (V2, TF 169.2) and diplomacy (V1, TF 169.1) through the Python API:
``simulate(..., format="pairs" | "diplomacy")``, ``play`` and ``Game``; the rules themselves are
tested in tests/pairs.rs and tests/diplomacy.rs (docs/formats.md)."""

import ketharmad as k
import polars as pl
import pytest

DECKS = ["ner", "osszefogas", "tisza", "radikalisok"]


@pytest.fixture(scope="module")
def pairs():
    return k.simulate(
        DECKS, bots="heuristic", games=200, seed=3, format="pairs", run=dict(threads=2)
    )


def test_pairs_teams_win_together_with_a_shared_40(pairs):
    g, p = pairs.games, pairs.players
    finished = g.filter(pl.col("winner").is_not_null())
    assert finished.height > 180
    assert set(finished["winner"].to_list()) == {0, 1}
    won = p.filter(pl.col("won")).group_by("game").agg(pl.col("seat").sort())
    assert won.height == finished.height
    assert all(s in ([0, 2], [1, 3]) for s in won["seat"].to_list())
    wide = p.pivot(on="seat", index="game", values="support")
    assert wide["0"].equals(wide["2"], check_names=False)
    assert wide["1"].equals(wide["3"], check_names=False)
    # the loser's pool is at 0 or less, the winner's above 0 (TF 169.2.7: checked at the end of
    # a turn, so it may have been at 0 during one)
    losers = p.filter(~pl.col("won") & pl.col("game").is_in(finished["game"].implode()))
    assert (losers["support"] <= 0).all()
    assert (p["pacts_broken"] == 0).all()


def test_pairs_is_reproducible_replayable_and_not_coalition(pairs):
    again = k.simulate(
        DECKS, bots="heuristic", games=200, seed=3, format="pairs", run=dict(threads=1)
    )
    assert again.games.equals(pairs.games)
    assert pairs.params == {"rules.format": "pairs"}
    row = pairs.games.row(5, named=True)
    assert k.play(DECKS, bots="heuristic", seed=3, index=5, format="pairs").winner == row["winner"]
    co = k.simulate(
        DECKS, bots="heuristic", games=200, seed=3, format="coalition", run=dict(threads=2)
    )
    assert not co.games.equals(pairs.games)
    # longer games: 40 Support instead of 30
    assert pairs.games["turns"].mean() > co.games["turns"].mean()


def test_pairs_mechanisms_are_parameters():
    # Pairs with Coalition's values of its five keys plays Coalition's games
    back = {
        "format.pairs.support": 30,
        "format.pairs.elimination": "immediate",
        "format.pairs.priority": "player",
        "format.pairs.one_opponent_per_campaign": False,
        "format.pairs.decline_to_start": False,
    }
    a = k.simulate(DECKS, bots="heuristic", games=30, seed=8, format="pairs", params=back)
    b = k.simulate(DECKS, bots="heuristic", games=30, seed=8, format="coalition")
    assert a.games.equals(b.games)
    assert a.players.drop("faction", "bot").equals(b.players.drop("faction", "bot"))


def test_decline_to_start_through_game():
    g = k.Game(DECKS, seed=4, format="pairs", start_player=1)
    while g.decision_kind == "mulligan":
        keep = [i for i, label in g.legal_actions() if label == "keep the hand"]
        g.step(keep[0])
    assert g.decision_kind == "decline_start" and g.current_player == 1
    labels = dict((label, i) for i, label in g.legal_actions())
    assert set(labels) == {"start the game", "decline to start"}
    g.step(labels["decline to start"])
    obs = g.observation(0)
    assert obs["start_player"] == 2 and obs["active"] == 2
    # the next player cannot decline: no decline_start decision comes again
    kinds = set()
    while not g.is_over:
        kinds.add(g.decision_kind)
        g.step_index(0)
    assert "decline_start" not in kinds
    # keeping the start
    h = k.Game(DECKS, seed=4, format="pairs", start_player=1)
    while h.decision_kind == "mulligan":
        h.step_index(0)
    h.step(dict((label, i) for i, label in h.legal_actions())["start the game"])
    assert h.observation(1)["start_player"] == 1


def test_game_stepping_in_pairs():
    g = k.Game(DECKS, seed=2, format="pairs")
    g.advance(["heuristic"] * 4)
    assert g.is_over
    r, w = g.returns(), g.winner
    assert w in (0, 1)
    assert r[w] == r[w + 2] == 1.0 and r[1 - w] == r[3 - w] == -1.0


@pytest.fixture(scope="module")
def diplomacy():
    return k.simulate(
        DECKS, bots="heuristic", games=200, seed=5, format="diplomacy", run=dict(threads=2)
    )


def test_diplomacy_bots_honour_the_pact(diplomacy):
    p = diplomacy.players
    assert "pacts_broken" in p.columns
    assert (p["pacts_broken"] == 0).all()
    assert diplomacy.params == {"rules.format": "diplomacy"}
    # the free-for-all's games have the column too (always 0)
    ffa = k.simulate(DECKS, bots="random", games=10, seed=5)
    assert (ffa.players["pacts_broken"] == 0).all()
    # random bots in 3-seat games, a sanction set: still no breaks
    r = k.simulate(
        DECKS[:3],
        bots="random",
        games=100,
        seed=6,
        format="diplomacy",
        params={"format.diplomacy.pact_sanction": 4},
    )
    assert (r.players["pacts_broken"] == 0).all()
    assert r.games["winner"].null_count() < 5


def test_diplomacy_pact_partners_win_more(diplomacy):
    # the two seats that never fight each other until two players remain win more than the rest
    finished = diplomacy.games.filter(pl.col("winner").is_not_null())
    share = finished.filter(pl.col("winner") <= 1).height / finished.height
    assert share > 0.5, share
    again = k.simulate(
        DECKS, bots="heuristic", games=200, seed=5, format="diplomacy", run=dict(threads=1)
    )
    assert again.games.equals(diplomacy.games)
    ffa = k.simulate(DECKS, bots="heuristic", games=200, seed=5, run=dict(threads=2))
    assert not ffa.games.equals(diplomacy.games)


def test_diplomacy_through_game_and_play():
    g = k.Game(DECKS[:3], seed=1, format="diplomacy")
    g.advance(["heuristic", "random", "aggro"])
    assert g.is_over and g.winner in (0, 1, 2)
    log = k.play(DECKS, bots="heuristic", seed=5, index=3, format="diplomacy")
    assert log.winner is not None


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(decks=["ner", "tisza"], format="diplomacy"), "3 to 4 decks"),
        (dict(decks=DECKS[:3], format="pairs"), "exactly 4 decks"),
    ],
)
def test_bad_formats_are_value_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        k.simulate(bots="random", games=2, **kwargs)
