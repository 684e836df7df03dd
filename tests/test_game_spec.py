"""A game is a value (issue 23 items 2 and 7): ``load_game`` gives a frozen, hashable,
picklable ``GameSpec`` checked once; every entry point takes it and plays the same games as
the name-based call with the same seed; the old forms warn, name their replacement and still
give the same results."""

from __future__ import annotations

import pickle

import ketharmad
import polars as pl
import pytest
from ketharmad import GameSpec, load_game
from ketharmad.game.spec import resolve

ST2 = "schotten_totten_2"
OSZ = "osztrakon"
FOUR = ["ner", "osszefogas", "tisza", "radikalisok"]


def _same(a: pl.DataFrame, b: pl.DataFrame) -> bool:
    return a.equals(b)


def _no_speed(t: pl.DataFrame) -> pl.DataFrame:
    return t.drop([c for c in t.columns if c.endswith("per_second")])


# ---------------------------------------------------------------- load_game


def test_load_game_ketharmad_default_and_setup():
    k = load_game()
    assert k == load_game("ketharmad") and k.name == "ketharmad" and k.is_ketharmad
    assert k.sides == tuple(ketharmad.FACTIONS) and (k.min_seats, k.max_seats) == (2, 4)
    assert "ismcts" in k.agents and k.params == {} and k.n_seats == 2
    s = load_game("ketharmad", decks=FOUR, format="coalition", start_player=1,
                  params={"rules.starting_support": 25})  # fmt: skip
    assert (
        s.decks == tuple(FOUR)
        and s.format == "coalition"
        and s.start_player == 1
        and s.n_seats == 4
    )
    assert s.params == {"rules.starting_support": 25} and s.param_items == (
        ("rules.starting_support", 25),
    )
    assert load_game(s.name, **s.setup) == s
    assert repr(s).startswith(
        "GameSpec('ketharmad', decks=['ner', 'osszefogas', 'tisza', 'radikalisok']"
    )
    p = s.params
    p["x"] = 1  # a new dict each time
    assert s.params == {"rules.starting_support": 25}
    assert load_game(card_data="balanced").card_data == "balanced"
    assert load_game(format={"name": "mine", "base": "coalition", "support": 25}).setup["format"] == {
        "base": "coalition", "name": "mine", "support": 25}  # fmt: skip


def test_load_game_schotten_totten_2_and_its_wall_parameters():
    s = load_game(ST2, params={"rules.hand_size": 5, "wall.gate.intact_cards": 3})
    assert not s.is_ketharmad and s.sides == ("attacker", "defender") and s.n_seats == 2
    assert s.info["name"] == ST2 and s.info["parameters"][0]["name"] == "rules.hand_size"
    assert s.params == {"rules.hand_size": 5, "wall.gate.intact_cards": 3}
    assert (
        repr(s)
        == "GameSpec('schotten_totten_2', params={'rules.hand_size': 5, 'wall.gate.intact_cards': 3})"
    )
    assert s.param_items == tuple(sorted(s.params.items()))


def test_load_game_osztrakon_seats():
    s = load_game(OSZ, seats=7)
    assert (
        s.seats == 7 and s.n_seats == 7 and (s.min_seats, s.max_seats) == (5, 12) and s.sides == ()
    )
    assert load_game(OSZ).n_seats == 5 and load_game(OSZ).seats is None
    assert "b1" in s.agents


def test_unknown_game_lists_the_known_ones():
    with pytest.raises(
        ValueError,
        match="unknown game 'chess' \\(known: ketharmad, schotten_totten_2, osztrakon\\)",
    ):
        load_game("chess")
    with pytest.raises(ValueError, match="game must be a game name"):
        load_game(3)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "name,setup,message",
    [
        (
            OSZ,
            {"decks": ["ner", "tisza"]},
            r"unknown setup key decks; osztrakon takes seats, params",
        ),
        (
            ST2,
            {"format": "quick", "card_data": "x"},
            r"unknown setup keys format, card_data; schotten_totten_2 takes",
        ),
        (
            "ketharmad",
            {"seats": 3},
            r"unknown setup key seats; ketharmad takes decks, card_data, format, start_player, params",
        ),
        ("ketharmad", {"deck": ["ner", "tisza"]}, r"unknown setup key deck;"),
    ],
)
def test_unknown_setup_key_is_named(name, setup, message):
    with pytest.raises(ValueError, match=message):
        load_game(name, **setup)


@pytest.mark.parametrize(
    "name,setup,message",
    [
        ("ketharmad", {"decks": ["ner", "nope"]}, "unknown faction 'nope'"),
        ("ketharmad", {"decks": "ner"}, "decks must be a list"),
        ("ketharmad", {"decks": ["ner", "tisza"], "start_player": 2}, "start_player"),
        ("ketharmad", {"params": {"rules.starting_support": 0}}, "rules.starting_support"),
        ("ketharmad", {"params": {"rules.nope": 1}}, "rules.nope"),
        ("ketharmad", {"format": "nonexistent_format"}, "nonexistent_format"),
        ("ketharmad", {"card_data": "/no/such/file.toml"}, "card data file not found"),
        (OSZ, {"seats": 4}, "osztrakon takes 5 to 12 seats, got seats=4"),
        (OSZ, {"seats": 13}, "5 to 12 seats"),
        (ST2, {"seats": 3}, "2 to 2 seats"),
        (ST2, {"params": {"rules.hand_size": 100}}, "out of range 1..=10"),
        (ST2, {"params": {"wall.gate.intact_condition": "bogus"}}, "'bogus' is not one of"),
        (OSZ, {"params": {"model.nois": 1.0}}, "unknown parameter 'model.nois'"),
    ],
)
def test_bad_values_are_refused_at_load_time(name, setup, message):
    with pytest.raises(ValueError, match=message):
        load_game(name, **setup)


def test_a_spec_is_frozen_hashable_and_picklable():
    specs = [load_game(), load_game(decks=FOUR, format="coalition", params={"rules.starting_support": 25}),
             load_game(ST2, params={"rules.hand_size": 5}), load_game(OSZ, seats=7),
             load_game(format={"name": "mine", "base": "coalition", "support": 25})]  # fmt: skip
    for s in specs:
        back = pickle.loads(pickle.dumps(s))
        assert back == s and hash(back) == hash(s) and repr(back) == repr(s)
    assert len(set(specs)) == len(specs)
    assert {load_game(OSZ, seats=7): 1}[load_game(OSZ, seats=7)] == 1
    assert load_game(ST2, params={"rules.hand_size": 5, "rules.colours": 4}) == load_game(
        ST2, params={"rules.colours": 4, "rules.hand_size": 5})  # fmt: skip
    with pytest.raises(AttributeError):
        specs[0].name = "osztrakon"  # type: ignore[misc]


# ---------------------------------------------------------------- games()


def test_games_is_a_polars_table_one_row_per_game():
    t = ketharmad.games()
    assert isinstance(t, pl.DataFrame) and t.height == 3
    assert t.columns == ["name", "sides", "min_seats", "max_seats", "agents", "action_space", "observation_len",
                         "n_parameters"]  # fmt: skip
    assert t.schema["sides"] == pl.List(pl.String) and t.schema["agents"] == pl.List(pl.String)
    assert t["name"].to_list() == ["ketharmad", ST2, OSZ]
    for row in t.iter_rows(named=True):
        spec = load_game(row["name"])
        assert row["n_parameters"] == ketharmad.parameters(game=row["name"]).height
        assert row["sides"] == list(spec.sides) and row["agents"] == list(spec.agents)
        assert (row["min_seats"], row["max_seats"]) == (spec.min_seats, spec.max_seats)
        assert row["action_space"] == spec.info["action_space"]


# ---------------------------------------------------------------- the entry points


def test_simulate_with_a_spec_is_the_name_based_call():
    st2 = load_game(ST2, params={"rules.hand_size": 5})
    a = ketharmad.simulate(bots="greedy", games=80, seed=3, game=st2)
    b = ketharmad.simulate(bots="greedy", games=80, seed=3, game=ST2, params={"rules.hand_size": 5})
    assert _same(a.games, b.games) and _same(a.players, b.players)
    osz = load_game(OSZ, seats=6)
    a = ketharmad.simulate(bots="b1", games=40, seed=2, game=osz)
    b = ketharmad.simulate(bots=["b1"] * 6, games=40, seed=2, game=OSZ)
    assert _same(a.games, b.games) and a.players.height == 40 * 6
    with pytest.raises(ValueError, match="got 5 bot specs for a GameSpec of 6 seats"):
        ketharmad.simulate(bots=["b1"] * 5, games=4, game=osz)
    k = load_game(
        decks=["ner", "osszefogas"], start_player=1, params={"rules.starting_support": 25}
    )
    a = ketharmad.simulate(bots="heuristic", games=150, seed=4, game=k)
    b = ketharmad.simulate(["ner", "osszefogas"], "heuristic", games=150, seed=4, start_player=1,
                           params={"rules.starting_support": 25})  # fmt: skip
    assert _same(a.games, b.games) and _same(a.players, b.players) and a.params == b.params
    c = ketharmad.simulate(games=50, seed=1, game=load_game())
    assert _same(c.games, ketharmad.simulate(games=50, seed=1).games)


def test_play_and_game_with_a_spec_replay_the_same_game():
    k = load_game(decks=FOUR, format="coalition")
    a = ketharmad.play(bots="heuristic", seed=3, index=5, game=k)
    b = ketharmad.play(FOUR, bots="heuristic", seed=3, index=5, format="coalition")
    assert a.log == b.log and a.winner == b.winner
    g = ketharmad.Game(game=k, seed=3, index=5)
    h = ketharmad.Game(FOUR, seed=3, index=5, format="coalition")
    assert g.num_players == h.num_players == 4
    while not g.is_over:
        assert g.legal_action_ids() == h.legal_action_ids()
        a_ = g.bot_action("heuristic")
        assert a_ == h.bot_action("heuristic")
        g.step(a_)
        h.step(a_)
    assert g.winner == h.winner
    osz = load_game(OSZ, seats=7)
    log = ketharmad.play(bots="b1", seed=6, index=2, game=osz)
    assert log.actions.equals(ketharmad.play(bots=["b1"] * 7, seed=6, index=2, game=OSZ).actions)
    hg = ketharmad.Game(game=osz, seed=6, index=2)
    assert isinstance(hg, ketharmad.HarnessGame) and hg.num_players == 7


def test_matchups_and_tournament_with_a_spec_are_the_name_based_call():
    st2 = load_game(ST2, params={"rules.hand_size": 5})
    a = ketharmad.matchups(game=st2, bots=["random", "greedy"], games=40, seed=1)
    b = ketharmad.matchups(
        game=ST2, bots=["random", "greedy"], games=40, seed=1, params={"rules.hand_size": 5}
    )
    assert _same(_no_speed(a.table), _no_speed(b.table)) and _same(a.games, b.games)
    k = load_game(params={"rules.starting_support": 25})
    a = ketharmad.matchups(game=k, games_per_side=10, seed=2)
    b = ketharmad.matchups(games_per_side=10, seed=2, params={"rules.starting_support": 25})
    assert _same(a.table, b.table)
    t1 = ketharmad.tournament(["random", "greedy"], game=st2, games=20, seed=1)
    t2 = ketharmad.tournament(
        ["random", "greedy"], game=ST2, games=20, seed=1, params={"rules.hand_size": 5}
    )
    assert _same(t1.pairs, t2.pairs)
    assert _same(ketharmad.bots(game=st2), ketharmad.bots(game=ST2))
    assert _same(ketharmad.parameters(game=st2), ketharmad.parameters(game=ST2))
    assert _same(ketharmad.formats(game=load_game()), ketharmad.formats())
    assert _same(ketharmad.cards(game=load_game(card_data="balanced")), ketharmad.cards("balanced"))
    with pytest.raises(
        ValueError, match=r"matchups\(game=GameSpec\(...\)\) does not take the spec's start_player"
    ):
        ketharmad.matchups(game=load_game(start_player=1), games_per_side=2)


def test_sweep_card_stats_and_balance_with_a_spec_are_the_name_based_call():
    st2 = load_game(ST2, params={"rules.colours": 4})
    a = ketharmad.sweep(
        {"rules.hand_size": [5, 6]}, bots=["random", "random"], games=40, seed=2, game=st2
    )
    b = ketharmad.sweep({"rules.hand_size": [5, 6]}, bots=["random", "random"], games=40, seed=2, game=ST2,
                        params={"rules.colours": 4})  # fmt: skip
    assert _same(a.table, b.table)
    k = load_game(decks=["ner", "tisza"], params={"rules.starting_support": 25})
    a = ketharmad.sweep({"rules.opening_hand": [6, 7]}, bots="random", games=60, seed=2, game=k)
    b = ketharmad.sweep({"rules.opening_hand": [6, 7]}, ["ner", "tisza"], "random", games=60, seed=2,
                        params={"rules.starting_support": 25})  # fmt: skip
    assert _same(a.table, b.table)
    c = ketharmad.card_stats(game=k, bots="random", games=100, seed=1)
    d = ketharmad.card_stats(
        decks=["ner", "tisza"],
        bots="random",
        games=100,
        seed=1,
        params={"rules.starting_support": 25},
    )
    assert _same(c.table, d.table)
    targets = {"metrics": [{"bots": ["random", "random"], "seat": "attacker", "low": 0.50, "high": 0.56}],
               "change": {"allow": ["rules.*"]}}  # fmt: skip
    st5 = load_game(ST2, params={"rules.colours": 5})
    x = ketharmad.balance(targets, game=st5, budget=4000, settings={"games_per_block": 200}, seed=2)
    y = ketharmad.balance(
        targets,
        game=ST2,
        params={"rules.colours": 5},
        budget=4000,
        settings={"games_per_block": 200},
        seed=2,
    )
    assert x.best_point == y.best_point and _same(x.before, y.before) and _same(x.after, y.after)


def test_explicit_setup_conflicting_with_the_spec_is_an_error_params_merge():
    k = load_game(
        decks=["ner", "tisza"], params={"rules.starting_support": 25, "rules.opening_hand": 6}
    )
    with pytest.raises(
        ValueError, match=r"^decks given twice: in the GameSpec \(decks=\['ner', 'tisza'\]\)"
    ):
        ketharmad.simulate(["ner", "osszefogas"], games=5, game=k)
    with pytest.raises(ValueError, match="seats given twice"):
        ketharmad.Game(game=load_game(OSZ, seats=7), seats=6)
    merged = resolve(k, params={"rules.starting_support": 30})
    assert merged.params == {"rules.starting_support": 30, "rules.opening_hand": 6}
    assert resolve(k) is k and resolve("ketharmad") == load_game()
    a = ketharmad.simulate(games=60, seed=5, game=k, params={"rules.starting_support": 30})
    b = ketharmad.simulate(
        ["ner", "tisza"],
        games=60,
        seed=5,
        params={"rules.starting_support": 30, "rules.opening_hand": 6},
    )
    assert _same(a.games, b.games) and a.params == b.params
    st2 = load_game(ST2, params={"rules.hand_size": 5})
    a = ketharmad.simulate(
        bots="random", games=30, seed=1, game=st2, params={"rules.hand_size": 4, "rules.colours": 4}
    )
    b = ketharmad.simulate(
        bots="random", games=30, seed=1, game=ST2, params={"rules.hand_size": 4, "rules.colours": 4}
    )
    assert _same(a.games, b.games)
    with pytest.raises(ValueError, match="decks: Kétharmad only"):
        ketharmad.simulate(["ner", "tisza"], game=st2)


# ---------------------------------------------------------------- deprecations (item 7)


def test_simulate_game_warns_and_is_simulate_with_game():
    with pytest.deprecated_call(
        match=r"simulate_game is deprecated in 0\.2\.0, removed in 0\.3\.0: use simulate\(game=\.\.\.\)"
    ):
        old = ketharmad.simulate_game(ST2, ["greedy", "random"], games=60, seed=3)
    new = ketharmad.simulate(game=ST2, bots=["greedy", "random"], games=60, seed=3)
    assert _same(old.games, new.games) and _same(old.players, new.players)
    assert "Deprecated in 0.2.0" in (ketharmad.simulate_game.__doc__ or "")


def test_game_matchups_warns_and_is_matchups_with_game():
    with pytest.deprecated_call(
        match=r"game_matchups is deprecated .*: use matchups\(game=\.\.\.\)"
    ):
        old = ketharmad.game_matchups(ST2, ["random", "greedy"], games=40, seed=5)
    new = ketharmad.matchups(game=ST2, bots=["random", "greedy"], games=40, seed=5).table
    assert old["seat0_wins"].to_list() == new["wins"].to_list()  # the attacker's
    assert old["seat1_wins"].to_list() == new["opponent_wins"].to_list()
    assert old["seat0_bot"].to_list() == new["bot"].to_list()


def test_game_state_warns_and_is_game_with_game():
    with pytest.deprecated_call(
        match=r"game_state is deprecated .*: use Game\(game=\.\.\., index=\.\.\.\)"
    ):
        old = ketharmad.game_state(OSZ, seats=6, seed=4, game_index=2)
    new = ketharmad.Game(game=OSZ, seats=6, seed=4, index=2)
    while not old.is_over:
        a = old.bot_action("b1")
        assert a == new.bot_action("b1")
        old.step(a)
        new.step(a)
    assert (old.winner, old.turns) == (new.winner, new.turns) and new.is_over


def test_game_env_warns_and_is_env_with_game():
    with pytest.deprecated_call(match=r"game_env is deprecated .*: use env\(game=\.\.\.\)"):
        old = ketharmad.game_env(OSZ, 6)
    from ketharmad import rl

    with pytest.deprecated_call(match=r"use env\(game=\.\.\.\)"):
        rl.game_env(ST2)
    new = ketharmad.env(game=OSZ, seats=6)
    assert type(old) is type(new) and old.possible_agents == new.possible_agents
    old.reset(seed=3)
    new.reset(seed=3)
    assert (old.observe("seat_0")["observation"] == new.observe("seat_0")["observation"]).all()


def test_integer_game_is_the_deprecated_index():
    with pytest.deprecated_call(
        match=r"play\(game=<int>\) as the game's index is deprecated in 0\.2\.0, removed in 0\.3\.0: use play\(index=\.\.\.\)"
    ):
        old = ketharmad.play(["ner", "tisza"], seed=2, game=7)
    assert old.log == ketharmad.play(["ner", "tisza"], seed=2, index=7).log
    with pytest.deprecated_call(match=r"Game\(game=<int>\).*use Game\(index=\.\.\.\)"):
        g = ketharmad.Game(["ner", "tisza"], seed=2, game=7)
    assert (
        g.game == 7
        and g.legal_action_ids()
        == ketharmad.Game(["ner", "tisza"], seed=2, index=7).legal_action_ids()
    )


def test_deprecation_helpers():
    from ketharmad._deprecation import deprecate_renamed_parameter

    @deprecate_renamed_parameter("old", "new")
    def f(new: int = 0) -> int:
        return new

    with pytest.deprecated_call(
        match=r"the old= keyword of f\(\) is deprecated in 0\.2\.0, removed in 0\.3\.0: use new= instead"
    ):
        assert f(old=3) == 3
    assert f(new=4) == 4
    with pytest.raises(TypeError, match="both old="):
        f(old=1, new=2)


def test_spec_type_is_exported():
    assert ketharmad.GameSpec is GameSpec and ketharmad.load_game is load_game
    assert "GameSpec" in ketharmad.__all__ and "load_game" in ketharmad.__all__


def test_a_spec_merged_with_a_user_format_or_custom_deck_stays_hashable() -> None:
    """resolve() keeps what load_game keeps: deck strings and a frozen user format."""
    from ketharmad.game.spec import resolve

    four = ["ner", "tisza", "osszefogas", "radikalisok"]
    s = resolve(ketharmad.load_game(decks=four), format={"name": "mine", "base": "coalition"})
    assert hash(s) == hash(
        resolve(ketharmad.load_game(decks=four), format={"base": "coalition", "name": "mine"})
    )
    assert s.setup["format"] == {"base": "coalition", "name": "mine"}
    d = resolve(ketharmad.load_game(), decks=["ner+tisza", "tisza"])
    assert hash(d) is not None and all(isinstance(x, str) for x in d.decks or ())
