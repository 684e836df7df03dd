"""Kétharmad on the generic harness from Python (issue 14 item 1): ``games()`` lists it from
the Rust table with its parameters, and ``simulate_game("ketharmad", ...)`` plays the games
of ``simulate`` (built-in bots) through the stepper adapter (rust/games/ketharmad.rs)."""

import ketharmad
import polars as pl
import pytest
from ketharmad import _core
from ketharmad.games import simulate_game  # the harness engine behind simulate(game=...)


def _same_games(h, s, n_seats):
    """The harness batch ``h`` has the winner, turns, won and final Support of every game of
    the fast batch ``s``."""
    assert h.games.height == s.games.height
    assert h.games["winner"].to_list() == s.games["winner"].fill_null(-1).to_list()
    assert h.games["turns"].to_list() == s.games["turns"].to_list()
    hp = h.players.sort(["game", "seat"])
    sp = s.players.sort(["game", "seat"])
    assert hp["won"].to_list() == sp["won"].to_list()
    assert [int(x) for x in hp["support"].to_list()] == sp["support"].to_list()
    assert hp.height == s.games.height * n_seats


def test_games_lists_ketharmad_from_the_rust_table():
    gs = [ketharmad.load_game(n).info for n in ketharmad.games()["name"]]
    assert [g["name"] for g in gs][:1] == ["ketharmad"]
    k = gs[0]
    assert k["sides"] == list(_core.FACTIONS)
    assert (k["min_seats"], k["max_seats"]) == (2, 4)
    assert {"random", "heuristic", "aggro", "control", "search", "ismcts"} <= set(k["agents"])
    by_name = {p["name"]: p for p in k["parameters"]}
    assert by_name["rules.starting_support"]["default"] == 20
    assert by_name["rules.starting_support"]["kind"] == "int"
    assert any(n.endswith(".copies") for n in by_name)
    # the table of other parameter values lists them as the defaults
    t = _core.game_table(params={"rules.starting_support": 25})
    assert {p["name"]: p for p in t[0]["parameters"]}["rules.starting_support"]["default"] == 25


@pytest.mark.parametrize(
    "decks,bots",
    [
        (["ner", "tisza"], ["heuristic", "random"]),
        (
            ["ner", "osszefogas", "tisza", "radikalisok"],
            ["aggro", "random", "heuristic", "control"],
        ),
    ],
)
def test_simulate_game_ketharmad_plays_the_games_of_simulate(decks, bots):
    h = simulate_game("ketharmad", bots=bots, decks=decks, games=200, seed=17, threads=2)
    s = ketharmad.simulate(decks=decks, bots=bots, games=200, seed=17, run=dict(threads=2))
    _same_games(h, s, len(decks))
    assert h.sides == decks
    assert h.games["winner"].n_unique() > 1


def test_simulate_game_ketharmad_params_and_first_game():
    p = {"rules.starting_support": 12}
    h = simulate_game(
        "ketharmad", bots=["random", "random"], games=100, seed=4, params=p, first_game=50
    )
    s = ketharmad.simulate(bots="random", games=100, seed=4, params=p, first_game=50)
    _same_games(h, s, 2)
    assert h.games["game"].to_list() == list(range(50, 150))
    base = simulate_game("ketharmad", bots=["random", "random"], games=100, seed=4, first_game=50)
    assert base.games["turns"].to_list() != h.games["turns"].to_list()


def test_simulate_game_ketharmad_with_the_generic_search():
    r = simulate_game(
        "ketharmad",
        bots=["heuristic", "ismcts:iterations=10"],
        decks=["ner", "tisza"],
        games=4,
        seed=2,
    )
    assert r.games.height == 4
    assert not r.games["unfinished"].any()
    assert set(r.games["winner"].to_list()) <= {0, 1}
    assert r.players.group_by("game").agg(pl.col("won").sum())["won"].to_list() == [1] * 4


def test_simulate_game_ketharmad_bad_input_names_it():
    with pytest.raises(ValueError, match="unknown agent 'greedy'"):
        simulate_game("ketharmad", bots=["greedy", "random"], games=2)
    with pytest.raises(ValueError, match="3 bot specs for 2 decks"):
        simulate_game("ketharmad", bots=["random"] * 3, games=2)
    with pytest.raises(ValueError, match="rules.nope"):
        simulate_game("ketharmad", bots=["random", "random"], games=2, params={"rules.nope": 1})
    with pytest.raises(ValueError, match="bogus"):
        simulate_game("ketharmad", bots=["heuristic:bogus=1", "random"], games=2)
    with pytest.raises(ValueError, match="decks: Kétharmad only"):
        simulate_game(
            "schotten_totten_2", bots=["random", "random"], games=2, decks=["ner", "tisza"]
        )
