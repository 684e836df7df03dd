"""Bots written in Python (issue 12 item 4): Python agents in simulate / tournament / matchups,
played game by game with ketharmad.Game, with the same tables as the Rust batch."""

from __future__ import annotations

import ketharmad
import numpy as np
import polars as pl
import pytest
from conftest import FOUR_P, THREE_P, TWO_P, packaged_card_text
from ketharmad.run import agents as _agents
from ketharmad.run.plan import Shard, cell, run_shard
from polars.testing import assert_frame_equal


def random_agent(observation, legal_actions, rng):
    return legal_actions[int(rng.integers(len(legal_actions)))].id


def first_legal(observation, legal_actions, rng):
    return legal_actions[0].id


class Counting:
    """An object agent: picks with its ``rng`` attribute, counts its reset calls."""

    name = "counting"

    def __init__(self) -> None:
        self.resets: list[int] = []
        self.calls = 0

    def reset(self, seat, rng):
        self.resets.append(seat)

    def act(self, observation, legal_actions):
        self.calls += 1
        return legal_actions[int(self.rng.integers(len(legal_actions)))]


def test_random_agent_is_deterministic_per_seed():
    a = ketharmad.simulate(TWO_P, bots=[random_agent, "heuristic"], games=12, seed=5)
    b = ketharmad.simulate(TWO_P, bots=[random_agent, "heuristic"], games=12, seed=5)
    c = ketharmad.simulate(TWO_P, bots=[random_agent, "heuristic"], games=12, seed=6)
    assert_frame_equal(a.games, b.games)
    assert_frame_equal(a.players, b.players)
    assert_frame_equal(a.card_records, b.card_records)
    assert not a.games.drop("game").equals(c.games.drop("game"))
    # a chunked run (several shards) plays the same games: the rng is per (seed, game, seat)
    d = ketharmad.simulate(
        TWO_P, bots=[random_agent, "heuristic"], games=12, seed=5, run=dict(chunk_size=5)
    )
    assert_frame_equal(a.games, d.games.rechunk())
    assert_frame_equal(a.players, d.players.rechunk())


def test_first_legal_agent_against_builtin_bots():
    res = ketharmad.simulate(THREE_P, bots=[first_legal, "heuristic", "random"], games=10, seed=2)
    rust = ketharmad.simulate(THREE_P, bots="random", games=10, seed=2)
    assert isinstance(res, ketharmad.SimResult)
    assert res.games.schema == rust.games.schema
    assert res.players.schema == rust.players.schema
    assert res.card_records.schema == rust.card_records.schema
    assert res.games["game"].to_list() == list(range(10))
    assert res.games["seed"].to_list() == rust.games["seed"].to_list()  # the batch's game seeds
    assert (res.games["turns"] > 0).all()
    winners = res.games["winner"].drop_nulls()
    assert ((winners >= 0) & (winners < 3)).all()
    assert res.players.height == 30
    assert res.players.filter(pl.col("seat") == 0)["bot"].unique().to_list() == [
        "python:first_legal"
    ]
    assert res.python_agents == [0]
    assert res.games_per_second > 0
    # the seat's decisions were made by the agent: the players table counts them
    assert int(res.players.filter(pl.col("seat") == 0)["main_decisions"].sum()) > 0


def test_object_agent_gets_rng_and_reset_hook():
    agent = Counting()
    res = ketharmad.simulate(TWO_P, bots=agent, games=4, seed=9)  # one object, both seats
    assert agent.resets == [0, 1] * 4
    assert agent.calls > 0
    assert res.players["bot"].unique().to_list() == ["python:counting"]
    again = ketharmad.simulate(TWO_P, bots=Counting(), games=4, seed=9)
    assert_frame_equal(res.players, again.players)


def _python_path_frames(decks, bots, seed, first, games, start_player=None, record_plays=False):
    """Built-in bots played through the Python-game path (Game.advance) for one shard."""
    text = packaged_card_text()
    c = cell(
        text, decks, bots, {}, first, games, start_player=start_player, record_plays=record_plays
    )
    raw = _agents.play_games(text, decks, bots, {}, seed, first, games, start_player=start_player,
                             record_plays=record_plays)  # fmt: skip
    from ketharmad.run.plan import _converted

    return _converted(c, raw, games), run_shard(Shard(c, seed, first, games))


@pytest.mark.parametrize(
    "decks,bots",
    [
        (TWO_P, ["random", "heuristic"]),
        (TWO_P, ["aggro", "control"]),
        (THREE_P, ["heuristic", "random", "heuristic"]),
        (FOUR_P, "heuristic"),
    ],
)
def test_builtin_bots_through_python_path_equal_simulate(decks, bots):
    specs = bots if isinstance(bots, list) else [bots] * len(decks)
    py, rust = _python_path_frames(decks, specs, seed=21, first=3, games=8, record_plays=True)
    assert_frame_equal(py.games, rust.games)
    assert_frame_equal(py.players, rust.players)
    assert_frame_equal(py.card_records, rust.card_records)
    assert_frame_equal(py.plays, rust.plays)


def test_builtin_bots_through_python_path_with_search_bot():
    py, rust = _python_path_frames(TWO_P, [{"kind": "search", "iterations": 8}, "heuristic"], seed=4, first=0,
                                   games=3, start_player=1)  # fmt: skip
    assert_frame_equal(py.games, rust.games)
    assert_frame_equal(py.players, rust.players)  # rollout counters included
    assert int(rust.players["rollouts"].sum()) > 0


def test_illegal_answer_names_seat_and_legal_ids():
    def bad(observation, legal_actions, rng):
        return max(a.id for a in legal_actions) + 10_000

    with pytest.raises(ValueError, match=r"seat 1 \(python:bad\) answered \d+ .*legal ids: \d+"):
        ketharmad.simulate(TWO_P, bots=["heuristic", bad], games=2, seed=1)

    def not_an_id(observation, legal_actions, rng):
        return "pass"

    with pytest.raises(ValueError, match=r"seat 0 \(python:not_an_id\) answered 'pass'.*legal ids"):
        ketharmad.simulate(TWO_P, bots=[not_an_id, "random"], games=1, seed=1)


def test_play_still_refuses_agents():
    with pytest.raises(ValueError, match="a bot must be a str"):
        ketharmad.play(TWO_P, bots=[random_agent, "random"])


def test_tournament_with_python_agent():
    res = ketharmad.tournament([random_agent, "heuristic"], decks=TWO_P, games=8, seed=3)
    row = res.pairs.row(0, named=True)
    assert (row["bot_a"], row["bot_b"]) == ("python:random_agent", "heuristic")
    assert row["games"] == 8
    assert row["wins_a"] + row["wins_b"] + row["unfinished"] == 8
    assert sorted(res.ratings["bot"].to_list()) == ["heuristic", "python:random_agent"]
    again = ketharmad.tournament([random_agent, "heuristic"], decks=TWO_P, games=8, seed=3)
    assert_frame_equal(res.pairs, again.pairs)


def test_matchups_with_python_agent_rows_and_stats_agree():
    rows = ketharmad.matchups(games_per_side=1, bots=random_agent, seed=2, run=dict(rows=True))
    stats = ketharmad.matchups(games_per_side=1, bots=random_agent, seed=2, run=dict(rows=False))
    assert rows.games.height == 20
    assert_frame_equal(rows.table, stats.table)
    assert set(rows.players["bot"].unique().to_list()) == {"python:random_agent"}


def test_python_path_keeps_game_seeds_of_the_batch():
    # the agent path plays the batch's games: row i's seed is simulate's row i seed
    res = ketharmad.simulate(TWO_P, bots=[first_legal, "random"], games=3, seed=77, first_game=10)
    ref = ketharmad.simulate(TWO_P, bots="random", games=3, seed=77, first_game=10)
    assert res.games["game"].to_list() == [10, 11, 12]
    assert res.games["seed"].to_list() == ref.games["seed"].to_list()
    fixed = ketharmad.simulate(
        TWO_P, bots=[first_legal, "random"], games=3, seed=77, start_player=1
    )
    assert fixed.games["start_player"].to_list() == [1, 1, 1]


def test_agent_rng_is_seeded_by_seed_game_and_seat():
    seen: dict[tuple[int, int], float] = {}

    class Probe:
        def reset(self, seat, rng):
            seen[(len(seen), seat)] = float(rng.random())

        def act(self, observation, legal_actions):
            return legal_actions[0]

    ketharmad.simulate(TWO_P, bots=[Probe(), "random"], games=2, seed=31)
    firsts = list(seen.values())
    want = [float(np.random.default_rng([31, g, 0]).random()) for g in range(2)]
    assert firsts == want


def test_tensor_observing_agent():
    seen = []

    def tensor_agent(observation, legal_actions, rng):
        seen.append(observation)
        return legal_actions[0].id

    tensor_agent.observes = "tensor"
    ketharmad.simulate(TWO_P, bots=[tensor_agent, "heuristic"], games=2, seed=1)
    g = ketharmad.Game(TWO_P)
    assert seen and all(isinstance(o, np.ndarray) and o.dtype == np.float32 and o.shape == (g.observation_size,)
                        for o in seen)  # fmt: skip

    def dict_agent(observation, legal_actions, rng):
        assert observation["seat"] == 0 and isinstance(observation["hand"], list)
        return legal_actions[0].id

    ketharmad.simulate(TWO_P, bots=[dict_agent, "heuristic"], games=1, seed=1)

    def bad(observation, legal_actions, rng):
        return legal_actions[0].id

    bad.observes = "pixels"
    with pytest.raises(ValueError, match="observes must be 'dict' or 'tensor'"):
        ketharmad.simulate(TWO_P, bots=[bad, "heuristic"], games=1, seed=1)


def test_write_run_names_agents_by_label(tmp_path):
    res = ketharmad.simulate(TWO_P, bots=[random_agent, "heuristic"], games=2, seed=1)
    paths = res.write_parquet(tmp_path, run_id="r1")
    games = pl.read_parquet(paths["games"])
    assert games["run_bots"][0] == '["python:random_agent", "heuristic"]'
    assert games.height == 2
