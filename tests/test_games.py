"""The game-generic harness from Python (issue 14): ketharmad.games(), simulate_game()."""

from __future__ import annotations

import ketharmad
import numpy as np
import polars as pl
import pytest
from ketharmad.games import (  # the harness engine behind simulate(game=...)
    game_matchups,
    game_state,
    simulate_game,
)


def test_games_lists_schotten_totten_2_with_sides_seats_and_parameters() -> None:
    gs = {n: ketharmad.load_game(n).info for n in ketharmad.games()["name"]}
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
    r = simulate_game("schotten_totten_2", bots=["greedy", "random"], games=300, seed=4, threads=2)
    assert r.games.height == 300
    assert r.players.height == 600
    assert set(r.games["end_reason"].unique()) <= {"fourth_damage", "damaged_twice", "deck_out"}
    assert not r.games["unfinished"].any()
    # the winner column and the per-seat rows agree
    wins0 = int((r.games["winner"] == 0).sum())
    assert wins0 == int(r.players.filter(pl.col("seat") == 0)["won"].sum())
    s = r.summary()
    assert s["side"].to_list() == ["attacker", "defender"]
    assert s["wins"].sum() == 300
    rate, lo, hi = r.attacker_win_rate()
    assert lo <= rate <= hi
    assert rate > 0.8  # greedy attacker against a random defender
    assert "damaged_gate" in r.games.columns
    assert "cards_played" in r.players.columns


def test_same_seed_same_games_any_threads() -> None:
    a = simulate_game("schotten_totten_2", bots=["random", "greedy"], games=200, seed=9, threads=1)
    b = simulate_game("schotten_totten_2", bots=["random", "greedy"], games=200, seed=9, threads=2)
    assert a.games.equals(b.games)
    assert a.players.equals(b.players)
    c = simulate_game("schotten_totten_2", bots=["random", "greedy"], games=200, seed=10, threads=2)
    assert not a.games.equals(c.games)


def test_parameters_change_games() -> None:
    base = simulate_game("schotten_totten_2", bots=["random", "random"], games=400, seed=2)
    more = simulate_game(
        "schotten_totten_2",
        bots=["random", "random"],
        games=400,
        seed=2,
        params={"rules.damages_to_win": 2},
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
        simulate_game(**args)


def test_osztrakon_from_python() -> None:
    """Osztrakon (osztrakon.md R2, R11) through the same generic entry: 5-12 seats, one winner
    per finished game, thread-independent, its parameters listed and checked."""
    gs = {n: ketharmad.load_game(n).info for n in ketharmad.games()["name"]}
    osz = gs["osztrakon"]
    assert (osz["min_seats"], osz["max_seats"]) == (5, 12)
    assert {"random", "b1", "greedy"} <= set(osz["agents"])
    names = {p["name"] for p in osz["parameters"]}
    assert any(n.startswith("model.") for n in names) and any(n.startswith("rules.") for n in names)
    a = simulate_game("osztrakon", bots=["b1"] * 6, games=300, seed=3, threads=1)
    b = simulate_game("osztrakon", bots=["b1"] * 6, games=300, seed=3, threads=2)
    assert a.games.equals(b.games) and a.players.equals(b.players)
    assert a.players.height == 300 * 6
    finished = a.games.filter(~pl.col("unfinished"))
    assert finished.height > 290
    wins = (
        a.players.join(finished.select("game"), on="game").group_by("game").agg(pl.col("won").sum())
    )
    assert wins.height == finished.height
    assert (wins["won"] == 1).all()  # R11: one winner per finished game (ties go by stack order)
    with pytest.raises(ValueError, match="5 to 12 seats"):
        simulate_game("osztrakon", bots=["b1"] * 4, games=10)
    with pytest.raises(ValueError, match="unknown parameter"):
        simulate_game("osztrakon", bots=["b1"] * 5, games=10, params={"model.nois": 1.0})


# ---- the step API of the harness games: ketharmad.game_state ------------------------------

CASES = [
    ("schotten_totten_2", ["greedy", "random"]),
    ("schotten_totten_2", ["random", "search:iterations=30"]),
    ("osztrakon", ["b1", "random", "greedy", "b1", "safe", "race"]),
]


def _play(g: ketharmad.HarnessGame, bots: list[str]) -> int:
    n = 0
    while not g.is_over:
        p = g.current_player
        a = g.bot_action(bots[p])
        assert g.action_mask()[a]
        g.step(a)
        n += 1
    assert g.current_player is None
    return n


@pytest.mark.parametrize(("game", "bots"), CASES)
def test_bot_action_replays_the_simulate_game_rows(game: str, bots: list[str]) -> None:
    """Stepping bot_action(bots[current_player]) plays exactly row i of simulate_game with the
    same seed: same winner(s), turns, end reason and returns."""
    n = 6 if bots[1].startswith("search") else 12
    r = simulate_game(game, bots=bots, games=n, seed=7, first_game=3)
    for row in r.games.iter_rows(named=True):
        g = game_state(game, seats=len(bots), seed=7, game_index=row["game"])
        _play(g, bots)
        assert g.winner == (None if row["winner"] < 0 else row["winner"])
        assert sum(1 << w for w in g.winners) == row["winners_mask"]
        assert g.turns == row["turns"]
        assert g.end_reason == row["end_reason"]
        ret = r.players.filter(pl.col("game") == row["game"]).sort("seat")["return"].to_list()
        assert g.returns() == ret


@pytest.mark.parametrize(("game", "bots"), [CASES[0], CASES[2]])
def test_clone_continues_identically_and_is_independent(game: str, bots: list[str]) -> None:
    g = game_state(game, seats=len(bots), seed=5, game_index=1)
    for _ in range(10):
        g.step(g.bot_action(bots[g.current_player]))
    c = g.clone()
    assert np.array_equal(c.observation_tensor(0), g.observation_tensor(0))
    # both continue with the same bot streams: the same actions and end
    while not g.is_over:
        a = g.bot_action(bots[g.current_player])
        assert c.bot_action(bots[c.current_player]) == a
        g.step(a)
        c.step(a)
        assert np.array_equal(c.observation_tensor(1), g.observation_tensor(1))
    assert c.is_over and (c.winners, c.turns, c.returns()) == (g.winners, g.turns, g.returns())
    # a copy taken earlier does not move with the original
    h = game_state(game, seats=len(bots), seed=5, game_index=1)
    k = h.clone()
    before = (h.current_player, h.legal_action_ids(), h.observation_tensor(h.current_player))
    h.step(h.bot_action(bots[h.current_player]))
    assert (k.current_player, k.legal_action_ids()) == before[:2]
    assert np.array_equal(k.observation_tensor(before[0]), before[2])
    assert not np.array_equal(h.observation_tensor(before[0]), before[2])


@pytest.mark.parametrize(("game", "bots"), [CASES[0], CASES[2]])
def test_determinize_keeps_what_the_seat_sees(game: str, bots: list[str]) -> None:
    g = game_state(game, seats=len(bots), seed=11, game_index=0)
    for _ in range(8):
        g.step(g.bot_action(bots[g.current_player]))
    seat = g.current_player
    changed_other = 0
    for s in range(6):
        d = g.determinize(seat, s)
        assert np.array_equal(d.observation_tensor(seat), g.observation_tensor(seat))
        assert d.current_player == g.current_player
        assert d.legal_action_ids() == g.legal_action_ids()
        other = (seat + 1) % len(bots)
        changed_other += not np.array_equal(
            d.observation_tensor(other), g.observation_tensor(other)
        )
        _play(d, bots)  # a re-dealt copy plays to an end
    if game == "schotten_totten_2":
        # the opponent's hand is re-dealt: its own view changes in some copies
        assert changed_other > 0


def test_step_api_bad_input_is_a_value_error() -> None:
    g = game_state("schotten_totten_2", seed=1)
    legal = g.legal_action_ids()
    assert g.num_actions == len(g.action_mask()) and g.action_mask().dtype == np.bool_
    assert sorted(np.flatnonzero(g.action_mask()).tolist()) == sorted(legal)
    assert g.observation_tensor(0).dtype == np.float32 and g.observation_tensor(0).shape == (
        g.observation_size,
    )
    bad = next(a for a in range(g.num_actions) if a not in legal)
    with pytest.raises(
        ValueError, match=rf"action {bad} is not legal; legal actions for seat 0: {legal[0]} \("
    ):
        g.step(bad)
    with pytest.raises(ValueError, match="not an action id"):
        g.step(-1)
    assert g.legal_action_ids() == legal  # unchanged
    with pytest.raises(ValueError, match="seat 2 does not exist"):
        g.observation_tensor(2)
    with pytest.raises(ValueError, match="unknown agent 'alphazero'"):
        g.bot_action("alphazero")
    with pytest.raises(ValueError, match="outside the action space"):
        g.describe_action(g.num_actions)
    assert "play" in g.describe_action(legal[0])
    with pytest.raises(ValueError, match="5 to 12 seats"):
        game_state("osztrakon", seats=4)
    with pytest.raises(ValueError, match="unknown parameter"):
        game_state("osztrakon", params={"model.nois": 1.0})
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        game_state("chess")
    with pytest.raises(ValueError, match="ketharmad.Game"):
        game_state("ketharmad")
    o = game_state("osztrakon", seats=7, seed=2)
    assert o.num_players == 7 and o.current_player is not None
    _play(o, ["b1"] * 7)
    with pytest.raises(ValueError, match="the game is over"):
        o.bot_action("b1")
    with pytest.raises(ValueError, match="the game is over"):
        o.step(0)


def test_simulate_with_game_is_simulate_game() -> None:
    """ketharmad.simulate(game=...) dispatches to simulate_game; Kétharmad-only arguments are
    refused by name; without game= it is Kétharmad's simulate."""
    a = ketharmad.simulate(
        game="schotten_totten_2", bots=["greedy", "random"], games=200, seed=3, run=dict(threads=1)
    )
    b = simulate_game("schotten_totten_2", bots=["greedy", "random"], games=200, seed=3)
    assert isinstance(a, ketharmad.SimResult)
    assert a.games.equals(b.games) and a.players.equals(b.players)
    c = ketharmad.simulate(
        game="osztrakon",
        bots="b1",
        games=50,
        seed=1,
        params={"model.read_noise": 0.25},
        first_game=5,
    )
    d = simulate_game(
        "osztrakon",
        bots=["b1"] * 5,
        games=50,
        seed=1,
        params={"model.read_noise": 0.25},
        first_game=5,
    )
    assert c.games.equals(d.games) and c.games["game"][0] == 5
    with pytest.raises(ValueError, match="decks: Kétharmad only"):
        ketharmad.simulate(["ner", "tisza"], game="schotten_totten_2")
    with pytest.raises(ValueError, match="card_data, format: Kétharmad only"):
        ketharmad.simulate(game="osztrakon", bots="b1", card_data="balanced", format="quick")
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        ketharmad.simulate(game="chess")
    k = ketharmad.simulate(games=20, seed=1)
    assert k.players["deck"].unique().sort().to_list() == ["ner", "tisza"]


def test_game_matchups_two_seats_equals_simulate_game() -> None:
    """The bot-pairing table (issue 14, matchups with bots as sides): every ordered pair; each
    row counts the games of simulate_game with the same seed; games_for lowers a cell."""
    t = game_matchups(
        "schotten_totten_2", ["random", "greedy"], games=300, seed=5, games_for={"greedy": 200}
    )
    assert t.height == 4
    assert t.select("seat0_bot", "seat1_bot").rows() == [
        ("random", "random"),
        ("random", "greedy"),
        ("greedy", "random"),
        ("greedy", "greedy"),
    ]
    assert t["games"].to_list() == [300, 200, 200, 200]
    for row in t.iter_rows(named=True):
        r = simulate_game(
            "schotten_totten_2", [row["seat0_bot"], row["seat1_bot"]], games=row["games"], seed=5
        )
        assert row["seat0_wins"] == int((r.games["winner"] == 0).sum())
        assert row["seat0_wins"] + row["seat1_wins"] + row["no_winner"] == row["games"]
        assert row["ci_low"] <= row["seat0_win_rate"] <= row["ci_high"]
    g = t.filter((pl.col("seat0_bot") == "greedy") & (pl.col("seat1_bot") == "random"))
    assert g["seat0_win_rate"][0] > 0.9  # the greedy attacker beats a random defender (R13.2)


def test_game_matchups_many_seats_rotates_the_bot() -> None:
    """Osztrakon: one seat plays the bot, the field the others, the bot's seat rotating; the
    wins equal those counted from simulate_game with the same game ranges."""
    t = game_matchups("osztrakon", ["b1"], games=100, seed=2, field="random", seats=5)
    row = t.row(0, named=True)
    assert (row["bot"], row["field"], row["seats"], row["games"]) == ("b1", "random", 5, 100)
    wins = 0
    for s in range(5):
        lineup = ["random"] * 5
        lineup[s] = "b1"
        r = simulate_game("osztrakon", lineup, games=20, seed=2, first_game=20 * s)
        wins += int(r.players.filter(pl.col("seat") == s)["won"].sum())
    assert row["wins"] == wins and row["even_share"] == 0.2
    with pytest.raises(ValueError, match="name the field"):
        game_matchups("osztrakon", ["b1"], games=10)
    with pytest.raises(ValueError, match="5 to 12 seats"):
        game_matchups("osztrakon", ["b1", "random"], games=10, seats=3)
