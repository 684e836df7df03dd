"""The lab and the entry points of the harness games (issue 14, items 1 and 4): matchups,
tournament, play, Game, env and card_stats with ``game=``, and their ``--game`` CLI.
Every count is checked against :func:`ketharmad.simulate_game` of the same seed."""

from __future__ import annotations

import math
import os
import re
import warnings

import ketharmad
import polars as pl
import pytest
from conftest import run_error
from ketharmad.cli import main
from ketharmad.games import (  # the harness engine behind simulate(game=...)
    game_matchups,
    game_state,
    simulate_game,
)
from ketharmad.lab.matchups import COMMON_COLUMNS
from ketharmad.lab.ratings import _bradley_terry, luce_ratings

ST2 = "schotten_totten_2"
OSZ = "osztrakon"


def wins_by_seat(r: ketharmad.SimResult) -> list[int]:
    return [int(r.players.filter(pl.col("seat") == s)["won"].sum()) for s in range(len(r.bots))]


# ---------------------------------------------------------------- matchups


def test_st2_matchups_cells_are_simulate_game_batches():
    m = ketharmad.matchups(
        game=ST2, bots=["random", "greedy"], games=60, seed=5, run=dict(threads=2)
    )
    assert isinstance(m, ketharmad.MatchupResult) and m.layout == "sided_pairs"
    assert m.seat_names == ["attacker", "defender"]
    assert m.sides == ["random", "greedy"]
    assert m.table.height == 4
    for row in m.table.iter_rows(named=True):  # bot: the attacker's, opponent: the defender's
        r = simulate_game(ST2, [row["bot"], row["opponent"]], games=60, seed=5)
        w0, w1 = wins_by_seat(r)
        assert (row["games"], row["wins"], row["opponent_wins"]) == (60, w0, w1)
        assert row["win_rate"] == pytest.approx(w0 / 60)
        assert row["ci_low"] <= row["win_rate"] <= row["ci_high"]
        assert row["turns_mean"] == pytest.approx(r.games["turns"].mean())
    # the same counts as game_matchups (the bench's table), seat 0 = attacker
    g = game_matchups(ST2, ["random", "greedy"], games=60, seed=5)
    assert m.table["wins"].to_list() == g["seat0_wins"].to_list()
    assert m.table["opponent_wins"].to_list() == g["seat1_wins"].to_list()
    # by_side: each bot's wins on each side summed over its opponents
    t = m.table
    for row in m.by_side.iter_rows(named=True):
        col, wins = ("bot", "wins") if row["side"] == "attacker" else ("opponent", "opponent_wins")
        assert row["wins"] == int(t.filter(pl.col(col) == row["bot"])[wins].sum())
        assert row["games"] == 120
    # the games rows are the batches' rows, labelled by cell
    assert m.games is not None and m.games.height == 240
    cell = m.games.filter((pl.col("seat0_bot") == "greedy") & (pl.col("seat1_bot") == "random"))
    r = simulate_game(ST2, ["greedy", "random"], games=60, seed=5)
    assert cell.select(r.games.columns).equals(r.games)
    assert m.matrix().shape == (2, 3)


def test_osztrakon_matchups_field_rotation_is_simulate_game_ranges():
    m = ketharmad.matchups(game=OSZ, bots=["b1", "random"], games=23, seed=3, seats=6)
    assert m.field_table and m.layout == "field" and m.seats == 6
    assert m.table["bot"].to_list() == ["b1", "random"]
    assert m.table["field"].to_list() == ["random", "b1"]
    # by hand: 23 games over 6 seats: shares 4,4,4,4,4,3 at first games 0,4,8,12,16,20
    wins = 0
    for s, (first, share) in enumerate([(0, 4), (4, 4), (8, 4), (12, 4), (16, 4), (20, 3)]):
        lineup = ["random"] * 6
        lineup[s] = "b1"
        r = simulate_game(OSZ, lineup, games=share, seed=3, first_game=first)
        w = wins_by_seat(r)[s]
        wins += w
        seat_row = m.by_side.filter((pl.col("bot") == "b1") & (pl.col("seat") == s)).row(
            0, named=True
        )
        assert (seat_row["games"], seat_row["wins"]) == (share, w)
    row = m.table.row(0, named=True)
    assert (row["games"], row["wins"]) == (23, wins)
    assert row["even_share"] == pytest.approx(1 / 6)
    assert row["wins"] + row["field_wins"] + row["no_winner"] == 23
    g = game_matchups(OSZ, ["b1", "random"], games=23, seed=3, seats=6)
    assert m.table["wins"].to_list() == g["wins"].to_list()


def test_matchups_games_for_caps_and_field_argument():
    m = ketharmad.matchups(
        game=OSZ, bots=["b1", "greedy"], field="random", games=40, games_for={"greedy": 10}, seed=1
    )
    assert m.table.select("bot", "field", "games").rows() == [
        ("b1", "random", 40),
        ("greedy", "random", 10),
    ]


def test_matchups_report_and_parquet(tmp_path):
    m = ketharmad.matchups(game=ST2, bots=["random"], games=30, seed=2)
    written = ketharmad.write_run(m, tmp_path)
    assert set(written) == {"matchups_schotten_totten_2", "matchup_by_side_schotten_totten_2",
                            "matchup_games_schotten_totten_2", "runs"}  # fmt: skip
    back = pl.read_parquet(written["matchups_schotten_totten_2"])
    assert back["wins"].to_list() == m.table["wins"].to_list()
    assert back["run_kind"].to_list() == ["matchups"] and back["run_seed"].to_list() == [2]
    report = ketharmad.write_report(m, tmp_path, plots=False)
    text = report.read_text()
    assert "# Matchups: schotten_totten_2" in text
    row = m.table.row(0, named=True)
    assert f"| random | random | 30 | {row['no_winner']} |" in text


def test_game_matchup_result_is_a_deprecated_alias_of_matchup_result():
    with pytest.warns(
        DeprecationWarning, match="GameMatchupResult is deprecated in 0.2.0.*MatchupResult"
    ):
        alias = ketharmad.GameMatchupResult
    assert alias is ketharmad.MatchupResult
    assert "GameMatchupResult" not in ketharmad.__all__  # import * does not warn


@pytest.mark.parametrize(
    ("game", "layout", "keys"),
    [
        ("ketharmad", "pairs", ["faction", "opponent"]),
        (ST2, "sided_pairs", ["bot", "opponent"]),
        (OSZ, "field", ["bot", "field"]),
    ],
)
def test_one_matchups_call_gives_one_schema_on_every_game(game, layout, keys, tmp_path):
    # the same call on every game: each game's default sides (factions, or its bots)
    spec = ketharmad.load_game(game)
    m = ketharmad.matchups(game=spec, games=10, seed=4)
    assert type(m) is ketharmad.MatchupResult
    assert (m.game, m.layout, m.keys, m.seed) == (game, layout, keys, 4)
    assert m.table.columns[: len(keys)] == keys
    for col, dtype in COMMON_COLUMNS.items():
        assert m.table.schema[col] == dtype, col
    assert (m.table["wins"] <= m.table["games"]).all()
    assert m.table.select(pl.col("win_rate") == pl.col("wins") / pl.col("games")).to_series().all()
    assert (
        (m.table["ci_low"] <= m.table["win_rate"]) & (m.table["win_rate"] <= m.table["ci_high"])
    ).all()
    assert (m.table["no_winner"] >= m.table["unfinished"]).all()
    # the sides are the matrix's rows, each cell one of the table's win rates
    sq = m.matrix()
    assert sq.columns[0] == keys[0] and set(sq[keys[0]]) <= set(m.sides)
    assert m.n_games > 0 and m.games is not None and m.rows
    suffix = "" if game == "ketharmad" else f"_{game}"
    assert f"matchups{suffix}" in m.tables() and f"matchup_games{suffix}" in m.tables()
    assert m.text().startswith("MatchupResult(")
    assert m.to_markdown().startswith("# Matchups: ")
    written = ketharmad.write_run(m, tmp_path)
    back = pl.read_parquet(written[f"matchups{suffix}"])
    assert back["run_kind"].to_list()[0] == "matchups" and back["run_seed"].to_list()[0] == 4
    assert back.select(m.table.columns).equals(m.table)
    assert [p.name for p in m.plots(tmp_path)] == [f"matchups{suffix}_heatmap.png"]


# ---------------------------------------------------------------- tournament


def test_game_tournament_result_is_a_deprecated_alias_of_tournament_result():
    with pytest.warns(
        DeprecationWarning, match="GameTournamentResult is deprecated in 0.2.0.*TournamentResult"
    ):
        alias = ketharmad.GameTournamentResult
    assert alias is ketharmad.TournamentResult


def test_st2_tournament_pairs_are_both_seatings_on_the_same_games():
    t = ketharmad.tournament(
        ["random", "greedy", "search:iterations=5"], game=ST2, games=16, seed=7
    )
    assert isinstance(t, ketharmad.TournamentResult)  # one result class for every game
    assert t.game == ST2 and t.decks is None and t.plan is None
    assert set(t.tables()) == {"tournament_pairs", "tournament_ratings"}
    assert t.pairs.height == 3
    for row in t.pairs.iter_rows(named=True):
        a, b = row["bot_a"], row["bot_b"]
        x = wins_by_seat(simulate_game(ST2, [a, b], games=8, seed=7))
        y = wins_by_seat(simulate_game(ST2, [b, a], games=8, seed=7))
        assert (row["wins_a"], row["wins_b"]) == (x[0] + y[1], x[1] + y[0])
        assert row["a_attacker_win_rate"] == pytest.approx(x[0] / 8)
        assert row["b_attacker_win_rate"] == pytest.approx(y[0] / 8)
    for row in t.ratings.iter_rows(named=True):
        mine = t.pairs.filter((pl.col("bot_a") == row["bot"]) | (pl.col("bot_b") == row["bot"]))
        wins = sum(
            r["wins_a"] if r["bot_a"] == row["bot"] else r["wins_b"]
            for r in mine.iter_rows(named=True)
        )
        assert (row["games"], row["wins"]) == (32, wins)
    assert t.ratings["rating"].is_sorted(descending=True)
    assert t.ratings["bot"][0] == "greedy"
    # the ratings are the Kétharmad tournament's Bradley–Terry fit of the same wins
    names = ["random", "greedy", "search:iterations=5"]
    wins = {}
    for r in t.pairs.iter_rows(named=True):
        i, j = names.index(r["bot_a"]), names.index(r["bot_b"])
        wins[(i, j)] = r["wins_a"] + 0.5 * r["no_winner"]
        wins[(j, i)] = r["wins_b"] + 0.5 * r["no_winner"]
    bt = _bradley_terry(names, wins)
    got = dict(t.ratings.select("bot", "rating").rows())
    for name, s in zip(names, bt, strict=True):
        assert got[name] == pytest.approx(1500 + 400 * math.log10(s))


@pytest.mark.parametrize(("game", "bots", "games", "seats"),
                         [(ST2, ["random", "search:iterations=3"], 40, None), (OSZ, ["b1", "random", "safe"], 30, 6)])  # fmt: skip
def test_tournament_same_on_one_and_two_threads(game, bots, games, seats):
    a = ketharmad.tournament(
        bots, game=game, games=games, seed=11, seats=seats, run=dict(threads=1)
    )
    b = ketharmad.tournament(
        bots, game=game, games=games, seed=11, seats=seats, run=dict(threads=2)
    )
    assert a.pairs.equals(b.pairs)
    assert a.ratings.equals(b.ratings)
    c = ketharmad.tournament(
        bots, game=game, games=games, seed=12, seats=seats, run=dict(threads=2)
    )
    assert not a.pairs.equals(c.pairs)


def test_osztrakon_tournament_is_the_field_table_of_every_pair():
    t = ketharmad.tournament(["b1", "random"], game=OSZ, games=20, seed=4)
    assert t.seats == 5
    m = ketharmad.matchups(game=OSZ, bots=["b1", "random"], games=20, seed=4)
    assert t.pairs.select("bot", "field", "games", "wins").equals(
        m.table.select("bot", "field", "games", "wins")
    )
    got = {r["bot"]: (r["games"], r["wins"]) for r in t.ratings.iter_rows(named=True)}
    assert got == {r["bot"]: (20, r["wins"]) for r in m.table.iter_rows(named=True)}
    assert t.ratings["bot"].to_list() == ["b1", "random"]  # b1 wins far more than its share


def test_luce_ratings_prior_and_symmetry():
    # a perfect record stays finite (the virtual half-won game against a reference)
    p = luce_ratings(2, [({0: 1, 1: 1}, {0: 200.0, 1: 0.0}, 200)])
    ratings = [1500 + 400 * math.log10(x) for x in p]
    assert 1500 < ratings[0] < 2200 and 800 < ratings[1] < 1500
    assert ratings[0] + ratings[1] == pytest.approx(3000)
    # a lone bot winning exactly its share against a field of the other, both ways: equal
    even = [({0: 1, 1: 4}, {0: 20.0, 1: 80.0}, 100), ({1: 1, 0: 4}, {1: 20.0, 0: 80.0}, 100)]
    assert luce_ratings(2, even) == pytest.approx([1.0, 1.0])
    # winning half of 5-seat games alone against 4 equals: about 4 times as strong
    # (p0 = 4 p1: alone, bot 0 wins 4 / (4 + 4) = 1/2; bot 1 wins 1 / (1 + 16) = 1/17)
    strong = [
        ({0: 1, 1: 4}, {0: 5000.0, 1: 5000.0}, 10000),
        ({1: 1, 0: 4}, {1: 1000.0, 0: 16000.0}, 17000),
    ]
    p = luce_ratings(2, strong)
    assert p[0] / p[1] == pytest.approx(4.0, rel=0.01)


# ---------------------------------------------------------------- play, Game, env, card_stats


@pytest.mark.parametrize(
    ("game", "bots"),
    [(ST2, ["greedy", "random"]), (OSZ, ["b1", "random", "safe", "race", "b1", "greedy"])],
)
def test_play_replays_the_simulate_game_row(game, bots):
    r = simulate_game(game, bots, games=4, seed=9)
    for i in range(4):
        log = ketharmad.play(game=game, bots=bots, seed=9, index=i)
        assert isinstance(log, ketharmad.HarnessLog)
        row = r.games.row(i, named=True)
        assert log.winner == (None if row["winners_mask"] == 0 else int(row["winner"]))
        assert log.turns == row["turns"]
        assert log.end_reason == row["end_reason"]
        assert log.returns == r.players.filter(pl.col("game") == i).sort("seat")["return"].to_list()
        # the log's actions, stepped again, end the same game
        g = game_state(game, seats=len(bots), seed=9, game_index=i)
        for a in log.actions["action"]:
            g.step(a)
        assert g.is_over and g.winner == log.winner
        assert len(log.log) == log.actions.height and str(log).endswith(log.outcome())
        assert all(d for d in log.actions["description"])


def test_play_index_and_old_integer_game_are_the_same_game():
    with pytest.deprecated_call(
        match=r"play\(game=<int>\).*0\.2\.0.*0\.3\.0.*play\(index=\.\.\.\)"
    ):
        a = ketharmad.play(["ner", "tisza"], seed=2, game=5)
    b = ketharmad.play(["ner", "tisza"], seed=2, index=5)
    with pytest.deprecated_call(match=r"play\(index=\.\.\.\)"):
        c = ketharmad.play(["ner", "tisza"], "random", 2, 5)
    assert a.log == b.log == c.log and a.game == 5
    with pytest.raises(ValueError, match="index=1 or"):
        ketharmad.play(["ner", "tisza"], game=5, index=1)
    with pytest.raises(ValueError, match="decks"):
        ketharmad.play(["ner", "tisza"], game=ST2)


def test_game_with_a_game_name_is_the_harness_step_object():
    g = ketharmad.Game(game=ST2, seed=4, index=1)
    assert isinstance(g, ketharmad.HarnessGame) and g.game_index == 1
    h = game_state(ST2, seed=4, game_index=1)
    while not g.is_over:
        a = g.bot_action("greedy" if g.current_player == 0 else "random")
        assert a == h.bot_action("greedy" if h.current_player == 0 else "random")
        g.step(a)
        h.step(a)
    assert (g.winner, g.turns) == (h.winner, h.turns)
    assert ketharmad.Game(game=OSZ, seats=7).num_players == 7
    with pytest.deprecated_call(match=r"Game\(index=\.\.\.\)"):
        old = ketharmad.Game(["ner", "tisza"], seed=1, game=3)
    assert old.game == 3 and ketharmad.Game(["ner", "tisza"], seed=1, index=3).game == 3
    with pytest.raises(ValueError, match="record_plays"):
        ketharmad.Game(game=OSZ, record_plays=True)
    with pytest.raises(ValueError, match="seats"):
        ketharmad.Game(["ner", "tisza"], seats=2)


def test_env_with_a_game_name_passes_the_pettingzoo_api_test():
    if not os.environ.get("KH_REQUIRE_RL"):
        pytest.importorskip("pettingzoo")
    from ketharmad import rl
    from pettingzoo.test import api_test

    for game, seats in ((ST2, None), (OSZ, 6)):
        env = ketharmad.env(game=game, seats=seats)
        assert isinstance(env, rl.HarnessAECEnv) and env.game_name == game
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
            warnings.filterwarnings("ignore", message="Observation space for each agent probably")
            api_test(env, num_cycles=300)
        assert len(env.possible_agents) == (2 if seats is None else seats)
    with pytest.raises(ValueError, match="start_player"):
        rl.env(game=OSZ, start_player=1)
    gym = rl.gym_env(game=OSZ, seats=6)  # the Gymnasium env of one seat (tests/test_rl.py)
    assert isinstance(gym, rl.HarnessGymEnv) and (gym.game_name, gym.seats, gym.bots[1]) == (
        OSZ,
        6,
        "b1",
    )
    with pytest.raises(
        ValueError, match=r"start_player: Kétharmad only; gym_env\(game='osztrakon'\)"
    ):
        rl.gym_env(game=OSZ, start_player=1)


@pytest.mark.parametrize(("game", "why"), [(ST2, "numbered colour cards"), (OSZ, "not a deck")])
def test_card_stats_refuses_games_without_card_records(game, why):
    with pytest.raises(ValueError, match=f"game='{game}' has none: .*{why}"):
        ketharmad.card_stats(game=game)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: ketharmad.matchups(game=OSZ, bots=["b1", "random"], decks=["ner", "tisza"]),
            "^decks: Kétharmad only",
        ),
        (
            lambda: ketharmad.matchups(game=ST2, bots=["random"], format="quick", players=2),
            "^players, format: Kétharmad only",
        ),
        (lambda: ketharmad.matchups(game=ST2, bots="random"), "list of bot specs"),
        (lambda: ketharmad.matchups(game=ST2, bots=["random", "random"]), "random more than once"),
        (
            lambda: ketharmad.matchups(game=ST2, bots=["random"], field="random"),
            "field is for games of more than two",
        ),
        (lambda: ketharmad.matchups(game=OSZ, bots=["b1"]), "name the field"),
        (lambda: ketharmad.matchups(game=OSZ, bots=["b1", "random"], seats=4), "seats=4"),
        (
            lambda: ketharmad.matchups(game=ST2, bots=["random", "alphazero"], games=2),
            "unknown agent 'alphazero'",
        ),
        (
            lambda: ketharmad.matchups(game=ST2, bots=["random"], params={"rules.hand_sise": 3}),
            "rules.hand_sise",
        ),
        (lambda: ketharmad.matchups(game="chess"), "unknown game 'chess'"),
        (lambda: ketharmad.matchups(seats=5), "^seats: only for the games on the generic harness"),
        (
            lambda: ketharmad.tournament(["b1", "random"], game=OSZ, games=7),
            "multiple of 5 .* e.g. 5 or 10",
        ),
        (lambda: ketharmad.tournament(["random", "greedy"], game=ST2, games=9), "multiple of 2"),
        (
            lambda: ketharmad.tournament(["random", "greedy"], game=ST2, card_data="balanced"),
            "^card_data: Kétharmad only",
        ),
        (lambda: ketharmad.tournament(["random"], game=ST2), "at least two bot specs"),
        (lambda: ketharmad.tournament(["random", "heuristic"], seats=5), "^seats: only"),
        (lambda: ketharmad.play(game=OSZ, bots=["b1"] * 4), "5 to 12 seats, got 4 bots"),
        (lambda: ketharmad.play(game=ST2, format="quick"), "^format: Kétharmad only"),
    ],
)
def test_errors_name_the_bad_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# ---------------------------------------------------------------- command line


def test_cli_matchups_prints_the_api_counts(capsys):
    assert (
        main(
            [
                "matchups",
                "--game",
                ST2,
                "--bots",
                "random",
                "greedy",
                "--games",
                "40",
                "--seed",
                "3",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    m = ketharmad.matchups(game=ST2, bots=["random", "greedy"], games=40, seed=3)
    for r in m.table.iter_rows(named=True):
        line = rf"\n\s+{r['bot']}\s+{r['opponent']}\s+40\s+{r['wins']}\s+{r['opponent_wins']}\s+{r['no_winner']}\s"
        assert re.search(line, out), (line, out)


def test_cli_osztrakon_matchups_and_out(capsys, tmp_path):
    argv = ["matchups", "--game", OSZ, "--bots", "b1", "random", "--games", "14", "--seats", "7", "--seed", "2",
            "--out", str(tmp_path), "--no-plots"]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    m = ketharmad.matchups(game=OSZ, bots=["b1", "random"], games=14, seats=7, seed=2)
    for r in m.table.iter_rows(named=True):
        assert re.search(rf"\n\s+{r['bot']}\s+{r['field']}\s+14\s+{r['wins']}\s", out)
    saved = pl.read_parquet(tmp_path / "matchups_osztrakon" / "*.parquet")
    assert saved["wins"].to_list() == m.table["wins"].to_list()
    assert (tmp_path / "report.md").exists()


def test_cli_tournament_prints_the_api_ratings(capsys):
    assert main(["bots", "--game", ST2, "random", "greedy", "--games", "20", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    t = ketharmad.tournament(["random", "greedy"], game=ST2, games=20, seed=1)
    for r in t.ratings.iter_rows(named=True):
        assert re.search(
            rf"\n\s+{r['bot']}\s+{r['rating']:.0f}\s+{r['games']}\s+{r['wins']}\s", out
        )
    assert main(["bots", "--game", OSZ]) == 0
    assert "b1, greedy, safe, race" in capsys.readouterr().out


def test_bots_of_a_game_and_the_search_options_it_lists_are_accepted():
    for game in (ST2, OSZ):
        t = ketharmad.bots(game=game)
        assert t.filter(pl.col("entry") == "bot")["name"].to_list() == list(
            ketharmad.load_game(game).agents
        )
        seats = 2 if game == ST2 else 5
        # every listed option, at its listed default, is one the search bot accepts
        knobs = t.filter(pl.col("entry") == "knob")
        opts = ",".join(f"{n}={'random' if n in ('rollout', 'prior') else f'{d:g}'}" for n, d in knobs.select("name", "default").rows()
                        if n != "iterations")  # fmt: skip
        # the game's evaluation weights (Schotten Totten 2 has one, Osztrakon not yet) sit
        # between the search's own options and the bot names
        evaluation = ["eval_scale", "eval_pace"] if game == ST2 else []
        assert knobs["name"].to_list() == ["iterations", "c", "horizon", "epsilon", "widen", "widen_power",
                                           "key_only", "own_only", "halving", "width", "prior_tree", "prior_bonus", "value_seats",
                                           "max_rollout_actions",
                                           *evaluation, "rollout", "prior"]  # fmt: skip
        r = simulate_game(
            game, [f"search:iterations=3,{opts}"] + ["random"] * (seats - 1), games=1, seed=1
        )
        assert r.games.height == 1
    with pytest.raises(ValueError, match="unknown game 'go'"):
        ketharmad.bots(game="go")


def test_cli_play_with_a_game_name_and_the_old_integer(capsys):
    assert main(["play", "--game", OSZ, "--bots", "b1", "--seed", "6", "--index", "2"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    log = ketharmad.play(game=OSZ, bots="b1", seed=6, index=2)
    assert out[-1] == log.outcome()
    assert len(out) == 2 + log.actions.height
    assert main(["play", "--game", "4", "--seed", "1"]) == 0
    old, err = capsys.readouterr()
    assert (
        "--game 4 (the game's index) is deprecated in 0.2.0, removed in 0.3.0: use --index 4" in err
    )
    assert main(["play", "--index", "4", "--seed", "1"]) == 0
    assert capsys.readouterr().out == old
    assert (
        old.strip().splitlines()[-1] == ketharmad.play(["ner", "tisza"], seed=1, index=4).outcome()
    )
    assert "--game 4 is the game's index" in run_error(
        ["play", "--game", "4", "--index", "1"], capsys
    )
    assert "--decks: Kétharmad only" in run_error(
        ["play", "--game", ST2, "--decks", "ner", "tisza"], capsys
    )


def test_cli_games_params_and_card_stats(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    for g in ketharmad.games().iter_rows(named=True):
        n = ketharmad.parameters(game=g["name"]).height
        assert n == g["n_parameters"]
        assert re.search(rf"\n{g['name']}\s.*\s{n}\n", out), g["name"]
    assert main(["params", "--game", ST2]) == 0
    out = capsys.readouterr().out
    assert f"({ketharmad.parameters(game=ST2).height} parameters of {ST2};" in out
    assert re.search(r"\nrules\.oil_target\s+choice\s+oldest\s+oldest \| newest", out)
    err = run_error(["card-stats", "--game", OSZ], capsys)
    assert "game='osztrakon' has none" in err
    assert "--format: Kétharmad only" in run_error(
        ["matchups", "--game", OSZ, "--format", "quick"], capsys
    )
    assert "--seats is for the games" in run_error(
        ["bots", "random", "heuristic", "--seats", "5"], capsys
    )
