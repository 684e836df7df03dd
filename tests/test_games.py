"""The game-generic harness from Python (issue 14): ketharmad.games(), simulate_game()."""

from __future__ import annotations

import polars as pl
import pytest

import ketharmad


def test_games_lists_schotten_totten_2_with_sides_seats_and_parameters() -> None:
    gs = {g["name"]: g for g in ketharmad.games()}
    assert "ketharmad" in gs
    st2 = gs["schotten_totten_2"]
    assert st2["sides"] == ["attacker", "defender"]
    assert (st2["min_seats"], st2["max_seats"]) == (2, 2)
    assert {"random", "greedy", "search"} <= set(st2["agents"])
    params = {p["name"]: p for p in st2["parameters"]}
    assert params["rules.hand_size"]["default"] == 6
    assert params["rules.oil_target"]["default"] == "oldest"
    assert params["rules.oil_target"]["choices"] == ["oldest", "newest"]
    assert params["rules.restricted_keeps_colour_run"]["default"] is True
    assert params["wall.gate.intact_cards"]["default"] == 2
    assert params["wall.gate.damaged_condition"]["default"] == "minus"


def test_simulate_game_columns_and_summary() -> None:
    r = ketharmad.simulate_game("schotten_totten_2", bots=["greedy", "random"], games=300, seed=4, threads=2)
    assert r.games.height == 300
    assert r.players.height == 600
    assert set(r.games["end_reason"].unique()) <= {"fourth_damage", "damaged_twice", "deck_out"}
    assert not r.games["unfinished"].any()
    # the winner column and the per-seat rows agree
    wins0 = int((r.games["winner"] == 0).sum())
    assert wins0 == int(r.players.filter(pl.col("seat") == 0)["win"].sum())
    s = r.summary()
    assert s["side"].to_list() == ["attacker", "defender"]
    assert s["wins"].sum() == 300
    rate, lo, hi = r.attacker_win_rate()
    assert lo <= rate <= hi
    assert rate > 0.8  # greedy attacker against a random defender
    assert "damaged_gate" in r.games.columns
    assert "cards_played" in r.players.columns


def test_same_seed_same_games_any_threads() -> None:
    a = ketharmad.simulate_game("schotten_totten_2", bots=["random", "greedy"], games=200, seed=9, threads=1)
    b = ketharmad.simulate_game("schotten_totten_2", bots=["random", "greedy"], games=200, seed=9, threads=2)
    assert a.games.equals(b.games)
    assert a.players.equals(b.players)
    c = ketharmad.simulate_game("schotten_totten_2", bots=["random", "greedy"], games=200, seed=10, threads=2)
    assert not a.games.equals(c.games)


def test_parameters_change_games() -> None:
    base = ketharmad.simulate_game("schotten_totten_2", bots=["random", "random"], games=400, seed=2)
    more = ketharmad.simulate_game(
        "schotten_totten_2", bots=["random", "random"], games=400, seed=2, params={"rules.damages_to_win": 2}
    )
    assert more.attacker_win_rate()[0] > base.attacker_win_rate()[0]
    assert int((more.games["damaged_sections"] > 2).sum()) == 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"params": {"rules.hand_sise": 5}}, "rules.hand_sise"),
        ({"params": {"rules.oil_target": "middle"}}, "rules.oil_target"),
        ({"bots": ["random", "random", "random"]}, "2 to 2 seats"),
        ({"bots": ["random", "alphazero"]}, "unknown agent 'alphazero'"),
        ({"bots": ["search:iters=5", "random"]}, "unknown option 'iters'"),
        ({"games": 0}, "games must be a positive number"),
        ({"threads": 0}, "threads must be at least 1"),
    ],
)
def test_bad_input_is_a_value_error_naming_it(kwargs: dict, message: str) -> None:
    args = {"game": "schotten_totten_2", "bots": ["random", "random"], "games": 5, "seed": 1}
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        ketharmad.simulate_game(**args)


def test_osztrakon_from_python() -> None:
    """Osztrakon (osztrakon.md R2, R11) through the same generic entry: 5-12 seats, one winner
    per finished game, thread-independent, its parameters listed and checked."""
    gs = {g["name"]: g for g in ketharmad.games()}
    osz = gs["osztrakon"]
    assert (osz["min_seats"], osz["max_seats"]) == (5, 12)
    assert {"random", "b1", "greedy"} <= set(osz["agents"])
    names = {p["name"] for p in osz["parameters"]}
    assert any(n.startswith("model.") for n in names) and any(n.startswith("rules.") for n in names)
    a = ketharmad.simulate_game("osztrakon", bots=["b1"] * 6, games=300, seed=3, threads=1)
    b = ketharmad.simulate_game("osztrakon", bots=["b1"] * 6, games=300, seed=3, threads=2)
    assert a.games.equals(b.games) and a.players.equals(b.players)
    assert a.players.height == 300 * 6
    finished = a.games.filter(~pl.col("unfinished"))
    assert finished.height > 290
    wins = a.players.join(finished.select("game"), on="game").group_by("game").agg(pl.col("win").sum())
    assert wins.height == finished.height
    assert (wins["win"] == 1).all()  # R11: one winner per finished game (ties go by stack order)
    with pytest.raises(ValueError, match="5 to 12 seats"):
        ketharmad.simulate_game("osztrakon", bots=["b1"] * 4, games=10)
    with pytest.raises(ValueError, match="unknown parameter"):
        ketharmad.simulate_game("osztrakon", bots=["b1"] * 5, games=10, params={"model.nois": 1.0})
