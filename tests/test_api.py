"""Structural truths of simulate / play / cards / parameters results."""

from __future__ import annotations

import math

import ketharmad
import numpy as np
import polars as pl
import pytest
from conftest import FOUR_P, THREE_P, TWO_P, packaged_card_text
from ketharmad.stats import wilson_bounds, wilson_interval

# ---------------------------------------------------------------- module surface


def test_public_names():
    assert ketharmad.FACTIONS == ("ner", "osszefogas", "tisza", "radikalisok")
    assert "last_player_standing" in ketharmad.END_REASONS
    assert "random" in ketharmad.BOT_KINDS
    assert isinstance(ketharmad.__version__, str) and ketharmad.__version__


# ---------------------------------------------------------------- simulate: shape and types


def test_row_counts(any_batch):
    n_seats = len(any_batch.decks)
    assert any_batch.games.height == any_batch.n_games
    assert any_batch.players.height == any_batch.n_games * n_seats


def test_exact_game_count():
    for games in (1, 37):
        res = ketharmad.simulate(TWO_P, games=games, seed=1)
        assert res.games.height == games
        assert res.players.height == 2 * games


def test_game_columns_and_types(batch2):
    g = batch2.games
    for col in (
        "game",
        "seed",
        "winner",
        "turns",
        "rounds",
        "end_reason",
        "start_player",
        "actions",
    ):
        assert col in g.columns
    assert g.schema["winner"].is_integer()
    assert g.schema["end_reason"] == pl.Enum(list(ketharmad.END_REASONS))
    assert set(g["end_reason"].cast(pl.String).unique()) <= set(ketharmad.END_REASONS)
    assert g["winner"].drop_nulls().is_in([0, 1]).all()
    assert not (g["winner"] == -1).any()


def test_player_columns_and_types(batch2):
    p = batch2.players
    for col in (
        "game",
        "seat",
        "faction",
        "bot",
        "won",
        "support",
        "scandal",
        "eliminated",
        "eliminated_round",
        "cards_played",
        "attacks",
        "exposes",
        "mulligans",
    ):
        assert col in p.columns
    assert p.schema["faction"] == pl.String
    assert p.schema["bot"] == pl.String
    assert p.schema["won"] == pl.Boolean
    assert (p["bot"] == "random").all()


def test_game_major_seat_minor_order(any_batch):
    n, seats = any_batch.n_games, len(any_batch.decks)
    assert np.array_equal(any_batch.games["game"].to_numpy(), np.arange(n))
    p = any_batch.players
    assert np.array_equal(p["game"].to_numpy(), np.repeat(np.arange(n), seats))
    assert np.array_equal(p["seat"].to_numpy(), np.tile(np.arange(seats), n))


def test_faction_follows_decks(any_batch):
    expected = pl.Series(any_batch.decks * any_batch.n_games)
    assert any_batch.players["faction"].equals(expected, check_names=False)
    assert set(any_batch.players["faction"].unique()) <= set(ketharmad.FACTIONS)


def _per_game(batch) -> pl.DataFrame:
    """games joined with, per game, the number of won=True rows and the winning row's state."""
    won = pl.col("won")
    per_game = batch.players.group_by("game").agg(
        n_won=won.sum(),
        won_seat=pl.col("seat").filter(won).first().cast(pl.Int64),
        won_support=pl.col("support").filter(won).first(),
        won_eliminated=pl.col("eliminated").filter(won).first(),
    )
    return batch.games.join(per_game, on="game").with_columns(
        reason=pl.col("end_reason").cast(pl.String)
    )


def test_one_winner_per_decided_game(any_batch):
    """A game with a winner has exactly one won=True row, at the winner's seat; none otherwise."""
    g = _per_game(any_batch)
    decided = g.filter(pl.col("winner").is_not_null())
    assert decided.height > 0
    assert (decided["n_won"] == 1).all()
    assert (decided["won_seat"] == decided["winner"].cast(pl.Int64)).all()
    undecided = g.filter(pl.col("winner").is_null())
    assert (undecided["n_won"] == 0).all()


def test_last_player_standing_winner_is_alive(any_batch):
    """The last player standing has support > 0 and is not eliminated.

    (Not asserted for simultaneous_elimination: there everyone left drops to <= 0 support at
    once and the rules (R14.5.1) may still name a winner.)
    """
    standing = _per_game(any_batch).filter(pl.col("reason") == "last_player_standing")
    assert standing.height > 0
    assert standing["winner"].is_not_null().all()
    assert (standing["won_support"] > 0).all()
    assert not standing["won_eliminated"].any()


def test_unfinished_games_have_no_winner(any_batch):
    g = _per_game(any_batch)
    unfinished = g.filter(pl.col("reason").str.starts_with("unfinished"))
    assert unfinished["winner"].is_null().all()
    assert (unfinished["n_won"] == 0).all()


def test_start_player_is_the_initial_one(batch2):
    """``start_player`` is who started, not who holds the start at the end.

    If the column were read after the game (the engine moves the start to the next living
    player when the start player is eliminated), the start player of a decided 2-player game
    would always be the winner. With random bots both outcomes must occur.
    """
    decided = batch2.games.filter(pl.col("winner").is_not_null())
    start_won = (decided["winner"] == decided["start_player"]).mean()
    assert 0.0 < start_won < 1.0


def test_losers_eliminated_in_two_player_games(batch2):
    losers = batch2.players.join(batch2.games.select("game", "winner"), on="game").filter(
        pl.col("winner").is_not_null()
        & (pl.col("seat").cast(pl.Int64) != pl.col("winner").cast(pl.Int64))
    )
    assert losers.height == batch2.games["winner"].is_not_null().sum()
    assert (losers["support"] <= 0).all()
    assert losers["eliminated"].all()


def test_losers_eliminated_when_last_player_standing(any_batch):
    rows = any_batch.players.join(any_batch.games.select("game", "winner", "end_reason"), on="game")
    losers = rows.filter(
        (pl.col("end_reason").cast(pl.String) == "last_player_standing")
        & (pl.col("seat").cast(pl.Int64) != pl.col("winner").cast(pl.Int64))
    )
    assert losers["eliminated"].all()


def test_eliminated_round_null_iff_not_eliminated(any_batch):
    p = any_batch.players
    assert (p["eliminated_round"].is_null() == ~p["eliminated"]).all()
    assert (p["eliminated_round"].drop_nulls() >= 0).all()


def test_game_lengths(any_batch):
    g = any_batch.games
    assert (g["turns"] >= g["rounds"]).all()
    assert (g["rounds"] >= 0).all()
    assert (g["actions"] >= 0).all()
    assert g["start_player"].is_between(0, len(any_batch.decks) - 1).all()


def test_counters_non_negative(any_batch):
    p = any_batch.players
    for col in ("scandal", "cards_played", "attacks", "exposes", "mulligans"):
        assert (p[col] >= 0).all(), col


def test_game_seeds_differ(any_batch):
    assert any_batch.games["seed"].n_unique() == any_batch.n_games


def test_three_and_four_players(batch3, batch4):
    assert batch3.players["seat"].n_unique() == 3
    assert batch4.players["seat"].n_unique() == 4
    assert batch4.players["faction"].n_unique() == 4
    assert batch4.games["winner"].drop_nulls().is_between(0, 3).all()


def test_mirror_match_allowed_or_rejected_cleanly():
    try:
        res = ketharmad.simulate(["ner", "ner"], games=20, seed=1)
    except ValueError:
        return  # the core may forbid mirror matches; it must then say so with a ValueError
    assert res.summary(by="faction").height == 1
    assert res.summary(by="faction")["games"][0] == 40


# ---------------------------------------------------------------- summary, attributes, repr


def test_summary(any_batch):
    s = any_batch.summary()
    assert s.columns == ["seat", "faction", "bot", "games", "wins", "win_rate", "ci_low", "ci_high"]
    assert s.height == len(any_batch.decks)
    assert s["seat"].to_list() == list(range(len(any_batch.decks)))
    assert s["faction"].to_list() == any_batch.decks
    assert (s["games"] == any_batch.n_games).all()
    assert s["wins"].sum() == any_batch.games["winner"].is_not_null().sum()
    winners = any_batch.games["winner"].drop_nulls().value_counts()
    for seat, wins in zip(s["seat"], s["wins"], strict=True):
        expected = winners.filter(pl.col("winner") == seat)["count"].sum()
        assert wins == expected
    assert ((s["ci_low"] <= s["win_rate"]) & (s["win_rate"] <= s["ci_high"])).all()
    assert ((s["ci_low"] >= 0) & (s["ci_high"] <= 1)).all()


def test_attributes_and_repr(batch2):
    assert batch2.decks == TWO_P
    assert batch2.bots == ["random", "random"]
    assert batch2.seed == 7
    assert batch2.params == {}
    assert batch2.elapsed > 0
    text = repr(batch2)
    assert "ner" in text and "tisza" in text and "win rate" in text


def test_bot_specs_per_seat():
    res = ketharmad.simulate(TWO_P, bots=["random", {"kind": "random"}], games=10, seed=2)
    assert res.players["bot"].to_list() == ["random", "random"] * 10
    same = ketharmad.simulate(TWO_P, bots="random", games=10, seed=2)
    assert res.games.equals(same.games)


def test_joined_table(batch2):
    j = batch2.joined()
    assert j.height == batch2.players.height
    assert {"winner", "turns", "end_reason", "faction", "won"} <= set(j.columns)
    assert j["won"].equals(
        j["winner"].cast(pl.Int64).eq(j["seat"].cast(pl.Int64)).fill_null(False), check_names=False
    )


# ---------------------------------------------------------------- parameters change play


def test_low_starting_support_shortens_games(batch2):
    short = ketharmad.simulate(TWO_P, games=2000, seed=7, params={"rules.starting_support": 1})
    assert short.params == {"rules.starting_support": 1}
    assert short.games["turns"].mean() < 0.75 * batch2.games["turns"].mean()


def test_default_override_is_a_no_op(batch2):
    same = ketharmad.simulate(TWO_P, games=2000, seed=7, params={"rules.starting_support": 20})
    assert same.games.equals(batch2.games)
    assert same.players.equals(batch2.players)


# ---------------------------------------------------------------- play


@pytest.mark.parametrize("k", [0, 1, 17, 499])
def test_play_reproduces_simulate_row(batch3, k):
    log = ketharmad.play(THREE_P, seed=batch3.seed, index=k)
    row = batch3.games.row(k, named=True)
    assert log.winner == row["winner"]
    assert log.turns == row["turns"]
    assert log.rounds == row["rounds"]
    assert log.end_reason == row["end_reason"]
    assert log.seed == row["seed"]
    players = batch3.players.filter(pl.col("game") == k).sort("seat")
    assert log.support == players["support"].to_list()
    assert log.scandal == players["scandal"].to_list()


@pytest.mark.parametrize("k", [0, 5, 1999])
def test_play_reproduces_two_player_row(batch2, k):
    log = ketharmad.play(TWO_P, seed=7, index=k)
    row = batch2.games.row(k, named=True)
    assert (log.winner, log.turns, log.rounds) == (row["winner"], row["turns"], row["rounds"])
    assert log.support == batch2.players.filter(pl.col("game") == k)["support"].to_list()


def test_play_reproduces_with_params():
    params = {"rules.starting_support": 5}
    res = ketharmad.simulate(FOUR_P, games=50, seed=3, params=params)
    log = ketharmad.play(FOUR_P, seed=3, index=42, params=params)
    assert (log.winner, log.turns, log.rounds) == tuple(
        res.games.row(42, named=True)[c] for c in ("winner", "turns", "rounds")
    )


def test_game_log_contents():
    log = ketharmad.play(TWO_P, seed=0, index=0)
    assert isinstance(log.log, list) and log.log
    assert all(isinstance(line, str) for line in log.log)
    assert log.winner is None or log.winner in (0, 1)
    assert log.end_reason in ketharmad.END_REASONS
    assert len(log.support) == len(log.scandal) == 2
    text = str(log)
    assert text.startswith(log.log[0])
    assert f"{log.turns} turns" in text.splitlines()[-1]
    assert "GameLog" in repr(log)


# ---------------------------------------------------------------- cards and parameters


def test_cards_table():
    c = ketharmad.cards()
    assert c.height == 113
    assert c["copies"].sum() == 162
    for col in (
        "id",
        "name",
        "faction",
        "type",
        "copies",
        "influence",
        "credibility",
        "keywords",
        "text",
    ):
        assert col in c.columns
    assert c["id"].n_unique() == c.height
    # besides the four deck factions the file has shared non-deck cards
    assert set(c["faction"].unique()) <= set(ketharmad.FACTIONS) | {"event", "newsfeed", "token"}
    assert set(ketharmad.FACTIONS) <= set(c["faction"].unique())
    orban = c.filter(pl.col("id") == "ner_orban_viktor").row(0, named=True)
    assert orban["faction"] == "ner"
    assert orban["influence"] == 5
    assert orban["credibility"] == 6
    assert (c["copies"] >= 1).all()


def test_cards_from_path_matches_packaged(tmp_path):
    path = tmp_path / "cards.toml"
    path.write_text(packaged_card_text(), encoding="utf-8")
    assert ketharmad.cards(card_data=path).equals(ketharmad.cards())
    assert ketharmad.cards(card_data=str(path)).equals(ketharmad.cards())


def test_simulate_with_card_data_path(tmp_path, batch2):
    path = tmp_path / "cards.toml"
    path.write_text(packaged_card_text(), encoding="utf-8")
    res = ketharmad.simulate(TWO_P, games=2000, seed=7, card_data=path)
    assert res.games.equals(batch2.games)
    assert res.card_data == str(path)


def test_parameters_table():
    p = ketharmad.parameters()
    for col in ("name", "default", "kind", "min", "max", "card", "description"):
        assert col in p.columns
    assert p["name"].n_unique() == p.height
    defaults = dict(zip(p["name"], p["default"], strict=True))
    assert defaults["ner_orban_viktor.influence"] == 5
    assert defaults["rules.starting_support"] == 20
    assert set(p["kind"].unique()) <= {"int", "bool", "cost", "choice"}
    ints = p.filter(pl.col("kind") == "int")
    assert ((ints["min"] <= ints["default"]) & (ints["default"] <= ints["max"])).all()


# ---------------------------------------------------------------- stats


def test_wilson_interval_known_values():
    lo, hi = wilson_interval(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson_interval(10, 10)
    assert hi == 1.0 and lo == pytest.approx(0.7225, abs=1e-4)
    assert all(math.isnan(x) for x in wilson_interval(0, 0))
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_wilson_expression_matches_scalar():
    df = pl.DataFrame({"k": [0, 3, 50, 999, 0, 10], "n": [10, 7, 100, 1000, 0, 10]})
    low, high = wilson_bounds("k", "n")
    out = df.with_columns(lo=low, hi=high)
    for k, n, lo, hi in out.select("k", "n", "lo", "hi").iter_rows():
        if n == 0:
            assert lo is None and hi is None
        else:
            assert (lo, hi) == pytest.approx(wilson_interval(k, n))
