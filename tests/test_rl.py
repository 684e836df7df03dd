"""RL environments (issue 12 item 5): the PettingZoo AEC environment passes PettingZoo's
api_test and seed_test, the Gymnasium single-seat environment passes check_env, and both
play the batch's games (replay equivalence with simulate)."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings

import ketharmad
import numpy as np
import pytest
from conftest import FOUR_P, THREE_P, TWO_P
from ketharmad.games import (  # the harness engine behind simulate(game=...)
    game_state,
    simulate_game,
)

if os.environ.get("KH_REQUIRE_RL"):  # scripts/test.sh (CI) installs the rl extra: never skip there
    import gymnasium
    import pettingzoo
else:
    gymnasium = pytest.importorskip("gymnasium")
    pettingzoo = pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env
from ketharmad import rl
from pettingzoo.test import api_test, seed_test

# PettingZoo's api_test warns about every Dict observation with an action mask (the convention
# its own classic games use, which it exempts by name): these two warnings only; any other
# warning fails the test (pytest turns warnings into errors).
DICT_OBS_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
)


def _api_test(env, cycles):
    with warnings.catch_warnings():
        for msg in DICT_OBS_WARNINGS:
            warnings.filterwarnings("ignore", message=msg)
        api_test(env, num_cycles=cycles)


@pytest.mark.parametrize("decks", [TWO_P, THREE_P, FOUR_P])
def test_pettingzoo_api_test(decks):
    env = ketharmad.env(decks, render_mode="ansi")
    _api_test(env, 1000)
    assert env.possible_agents == [f"seat_{i}" for i in range(len(decks))]


@pytest.mark.parametrize("decks", [TWO_P, THREE_P])
def test_pettingzoo_seed_test(decks):
    seed_test(lambda: ketharmad.env(decks), num_cycles=200)


def _play_aec(env, choose, seed=None):
    """Play one episode of the AEC env; returns (final rewards per agent, steps, the game)."""
    env.reset(seed=seed)
    total = {a: 0.0 for a in env.agents}
    steps = 0
    game = env.unwrapped.game
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        seat = int(agent.split("_")[1])
        assert game.current_player == seat
        assert np.array_equal(obs["action_mask"].astype(bool), game.action_mask())
        env.step(choose(env, agent, obs))
        steps += 1
    return total, steps, game


def test_aec_episode_rewards_are_the_returns():
    env = ketharmad.env(THREE_P)
    rng = np.random.default_rng(0)

    def masked_random(env, agent, obs):
        return int(rng.choice(np.flatnonzero(obs["action_mask"])))

    total, steps, game = _play_aec(env, masked_random, seed=4)
    assert game.is_over and steps > 0
    assert env.agents == []  # every agent took its dead step
    assert [total[f"seat_{s}"] for s in range(3)] == list(game.returns())
    if game.winner is not None:
        assert total[f"seat_{game.winner}"] == 1.0
        assert sum(total.values()) == 1.0 - 2.0


@pytest.mark.parametrize(
    "decks,spec", [(TWO_P, "heuristic"), (THREE_P, "random"), (FOUR_P, "aggro")]
)
def test_aec_episodes_are_the_batch_games(decks, spec):
    """reset(seed=s) plays game 0 of batch s, each reset() the next: answered with
    bot_action, the episodes are simulate's rows 0, 1."""
    env = ketharmad.env(decks, log=True)
    ref = ketharmad.simulate(decks, bots=spec, games=2, seed=17)

    def bot(env, agent, obs):
        return env.unwrapped.game.bot_action(spec)

    for i, seed in enumerate([17, None]):
        total, steps, game = _play_aec(env, bot, seed=seed)
        row = ref.games.row(i, named=True)
        assert (game.winner, game.turn, game.round) == (row["winner"], row["turns"], row["rounds"])
        assert [total[f"seat_{s}"] for s in range(len(decks))] == list(game.returns())
        assert game.log == ketharmad.play(decks, bots=spec, seed=17, index=i).log


def test_aec_illegal_action_and_dead_step_errors():
    env = ketharmad.env(TWO_P)
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="legal"):
        env.step(illegal)
    with pytest.raises(ValueError, match="must act"):
        env.step(None)
    # finish the game, then a dead agent may only pass None
    _play_aec(env, lambda e, a, o: int(np.flatnonzero(o["action_mask"])[0]), seed=1)
    env.reset(seed=1)
    game = env.unwrapped.game
    while not game.is_over:
        env.step(int(game.legal_action_ids()[0]))
    with pytest.raises(ValueError, match="None"):
        env.step(0)


def test_aec_observation_mask_is_zero_for_waiting_seats():
    env = ketharmad.env(THREE_P)
    env.reset(seed=3)
    for agent in env.agents:
        obs = env.observe(agent)
        assert obs["observation"].dtype == np.float32
        assert obs["action_mask"].dtype == np.int8
        assert obs in env.observation_space(agent)
        assert obs["action_mask"].any() == (agent == env.agent_selection)


def test_aec_render_ansi_shows_the_log_and_the_decision():
    env = ketharmad.env(TWO_P, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    game = env.unwrapped.game
    assert f"seat {game.current_player} decides ({game.decision_kind})" in text
    assert all(f"{a.id}: {a.label}" in text for a in game.legal_actions())


def test_gymnasium_check_env():
    made = gymnasium.make(rl.GYM_ID, decks=TWO_P)
    check_env(made.unwrapped)  # warnings are errors here: none may be raised
    check_env(
        ketharmad.gym_env(THREE_P, seat=2, opponents=["random", "heuristic", None]),
        skip_render_check=True,
    )


def test_gym_episode_against_heuristic_bots():
    env = ketharmad.gym_env(THREE_P, seat=1, opponents="heuristic")
    rng = np.random.default_rng(1)
    obs, info = env.reset(seed=8)
    assert np.array_equal(obs["action_mask"], info["action_mask"])
    steps, terminated, reward = 0, False, 0.0
    while not terminated:
        assert env.game.current_player == 1
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(a)
        assert not truncated and info["illegal_action"] is False
        steps += 1
    assert steps > 0
    assert reward == env.game.returns()[1]
    assert info["winner"] == env.game.winner
    assert not obs["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_gym_illegal_actions():
    env = ketharmad.gym_env(TWO_P, seat=0, log=True)
    obs, info = env.reset(seed=5)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    log_len = len(env.game.log)
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert info2["illegal_action"] is True and reward == 0.0 and not terminated
    assert np.array_equal(obs["observation"], obs2["observation"])
    assert len(env.game.log) == log_len  # nothing happened
    strict = ketharmad.gym_env(TWO_P, seat=0, illegal_action="raise")
    strict.reset(seed=5)
    with pytest.raises(ValueError, match="legal"):
        strict.step(illegal)


@pytest.mark.parametrize("decks,spec,seat", [(TWO_P, "heuristic", 0), (THREE_P, "random", 2)])
def test_gym_episodes_are_the_batch_games(decks, spec, seat):
    """The agent's seat answered with bot_action(spec): the episodes are the games of
    simulate(decks, bots=spec) (the opponents' built-in decisions use their own streams)."""
    env = ketharmad.gym_env(decks, seat=seat, opponents=spec, log=True)
    ref = ketharmad.simulate(decks, bots=spec, games=3, seed=40)
    for i, seed in enumerate([40, None, None]):
        obs, info = env.reset(seed=seed)
        assert (info["batch_seed"], info["game"]) == (40, i)
        terminated = env.game.is_over
        while not terminated:
            obs, reward, terminated, truncated, info = env.step(env.game.bot_action(spec))
        row = ref.games.row(i, named=True)
        assert (env.game.winner, env.game.turn) == (row["winner"], row["turns"])
        assert env.game.log == ketharmad.play(decks, bots=spec, seed=40, index=i).log


def test_bad_arguments():
    with pytest.raises(ValueError, match="render_mode"):
        ketharmad.env(TWO_P, render_mode="rgb_array")
    with pytest.raises(ValueError, match="faction"):
        ketharmad.env(["ner", "nope"])
    with pytest.raises(ValueError, match=r"opponents\[0\] must be None"):
        ketharmad.gym_env(TWO_P, seat=0, opponents=["random", "random"])
    with pytest.raises(ValueError, match="seat"):
        ketharmad.gym_env(TWO_P, seat=2)
    with pytest.raises(ValueError, match="unknown bot kind"):
        ketharmad.gym_env(TWO_P, opponents="nope")


def test_import_without_the_extra():
    code = (
        "import sys\n"
        "import ketharmad\n"
        "assert 'pettingzoo' not in sys.modules and 'gymnasium' not in sys.modules\n"
        "sys.modules['pettingzoo'] = None\n"
        "try:\n"
        "    ketharmad.env(['ner', 'tisza'])\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert "pip install 'ketharmad[rl]'" in out


# ---- the harness games (issue 14): ketharmad.game_env ----------------------------------------


@pytest.mark.parametrize(
    ("game", "seats"), [("schotten_totten_2", None), ("osztrakon", 5), ("osztrakon", 8)]
)
def test_game_env_pettingzoo_api_test(game, seats):
    env = ketharmad.env(game=game, seats=seats, render_mode="ansi")
    _api_test(env, 1000)
    n = 2 if seats is None else seats
    assert env.possible_agents == [f"seat_{i}" for i in range(n)]
    assert env.action_space("seat_0").n == env.unwrapped.game.num_actions


def test_game_env_seed_test():
    seed_test(lambda: ketharmad.env(game="schotten_totten_2"), num_cycles=200)


@pytest.mark.parametrize(
    ("game", "bots"), [("schotten_totten_2", ["greedy", "random"]), ("osztrakon", ["b1"] * 6)]
)
def test_game_env_episodes_are_the_batch_rows_and_rewards_the_returns(game, bots):
    """reset(seed=s) then reset() play games 0, 1, ... of batch s: answered with the batch's
    bots, each episode ends as that simulate_game row, and the rewards are its returns."""
    r = simulate_game(game, bots=bots, games=3, seed=21)
    env = ketharmad.env(game=game, seats=len(bots))
    for i in range(3):
        env.reset(seed=21 if i == 0 else None)
        game_obj = env.unwrapped.game
        assert game_obj.game_index == i
        total = {a: 0.0 for a in env.agents}
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            total[agent] += reward
            if term or trunc:
                env.step(None)
                continue
            seat = int(agent.split("_")[1])
            assert np.array_equal(obs["action_mask"].astype(bool), game_obj.action_mask())
            assert obs["observation"].dtype == np.float32
            env.step(game_obj.bot_action(bots[seat]))
        row = r.games.row(i, named=True)
        assert game_obj.winner == (None if row["winner"] < 0 else row["winner"])
        assert game_obj.turns == row["turns"]
        ret = r.players.filter(r.players["game"] == i).sort("seat")["return"].to_list()
        assert [total[f"seat_{s}"] for s in range(len(bots))] == ret


def test_game_env_bad_input_is_a_value_error():
    env = ketharmad.env(game="schotten_totten_2")
    env.reset(seed=1)
    legal = env.unwrapped.game.legal_action_ids()
    bad = next(a for a in range(env.action_space("seat_0").n) if a not in legal)
    with pytest.raises(ValueError, match=f"action {bad} is not legal"):
        env.step(bad)
    with pytest.raises(ValueError, match="5 to 12 seats"):
        ketharmad.env(game="osztrakon", seats=13)
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        ketharmad.env(game="chess")


# --- gym_env(game=...) for the harness games (issue 14 item 4) ---


@pytest.mark.parametrize(
    ("game", "kwargs"),
    [("schotten_totten_2", {}), ("schotten_totten_2", {"seat": 1, "opponents": "random"}),
     ("osztrakon", {}), ("osztrakon", {"seats": 7, "seat": 4, "opponents": "greedy"})],
)  # fmt: skip
def test_harness_gym_check_env(game, kwargs):
    env = ketharmad.gym_env(game=game, **kwargs)
    check_env(env, skip_render_check=True)
    probe = game_state(game, seats=env.unwrapped.seats)
    assert env.action_space.n == probe.num_actions
    assert env.observation_space["observation"].shape == (probe.observation_size,)
    assert env.unwrapped.seats == kwargs.get("seats", 2 if game == "schotten_totten_2" else 5)
    made = gymnasium.make(rl.HARNESS_GYM_IDS[game], **kwargs)
    check_env(made.unwrapped, skip_render_check=True)


def _play_gym(env, choose, seed=None):
    """One episode: (observations, actions, rewards, final info); ``choose(env, obs, info)``."""
    obs, info = env.reset(seed=seed)
    observations, actions, rewards = [obs["observation"]], [], []
    while True:
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        assert np.array_equal(obs["action_mask"].astype(bool), env.unwrapped.game.action_mask())
        assert env.unwrapped.game.current_player == env.unwrapped.seat
        a = choose(env, obs, info)
        obs, reward, term, trunc, info = env.step(a)
        assert not trunc
        actions.append(a)
        rewards.append(reward)
        observations.append(obs["observation"])
        if term:
            return observations, actions, rewards, info


def _masked_random(rng):
    return lambda env, obs, info: int(rng.choice(np.flatnonzero(info["action_mask"])))


@pytest.mark.parametrize(
    ("game", "kwargs"), [("schotten_totten_2", {"seat": 1}), ("osztrakon", {"seats": 6, "seat": 2})]
)
def test_harness_gym_same_seed_same_episode(game, kwargs):
    runs = []
    for _ in range(2):
        env = ketharmad.gym_env(game=game, **kwargs)
        eps = [
            _play_gym(env, _masked_random(np.random.default_rng(3)), seed=11 if i == 0 else None)
            for i in range(2)
        ]
        runs.append(eps)
    for (o1, a1, r1, i1), (o2, a2, r2, i2) in zip(*runs, strict=True):
        assert a1 == a2 and r1 == r2 and i1["winners"] == i2["winners"]
        assert all(np.array_equal(x, y) for x, y in zip(o1, o2, strict=True))
    # the second episode is the batch's next game, not a repeat of the first
    assert runs[0][0][1] != runs[0][1][1]


@pytest.mark.parametrize(
    ("game", "bots", "seat"),
    [("schotten_totten_2", ["greedy", "random"], 0), ("schotten_totten_2", ["random", "greedy"], 1),
     ("osztrakon", ["b1", "random", "b1", "greedy", "b1"], 3)],
)  # fmt: skip
def test_harness_gym_episodes_are_the_batch_rows(game, bots, seat):
    """reset(seed=s) then reset() play games 0, 1, 2 of batch s: the learner choosing with
    game.bot_action(bots[seat]) reproduces that simulate_game row (winner, turns, end reason)
    and the last reward is the seat's return."""
    r = simulate_game(game, bots=bots, games=3, seed=33)
    opponents = [None if s == seat else b for s, b in enumerate(bots)]
    env = ketharmad.gym_env(game=game, seat=seat, opponents=opponents)
    for i in range(3):
        _, _, rewards, info = _play_gym(env, lambda e, o, inf: e.unwrapped.game.bot_action(bots[seat]),
                                        seed=33 if i == 0 else None)  # fmt: skip
        g = env.unwrapped.game
        assert (g.seed, g.game_index) == (33, i)
        row = r.games.row(i, named=True)
        assert info["winner"] == (None if row["winner"] < 0 else row["winner"])
        assert g.turns == row["turns"]
        assert info["end_reason"] == row["end_reason"]
        ret = r.players.filter((r.players["game"] == i) & (r.players["seat"] == seat))[
            "return"
        ].item()
        assert rewards[-1] == ret and all(x == 0.0 for x in rewards[:-1])


def test_harness_gym_illegal_actions():
    env = ketharmad.gym_env(game="schotten_totten_2", seat=0, illegal_reward=-0.5)
    obs, info = env.reset(seed=2)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = obs["observation"].copy()
    obs2, reward, term, trunc, info2 = env.step(bad)
    assert (reward, term, trunc, info2["illegal_action"]) == (-0.5, False, False, True)
    assert np.array_equal(obs2["observation"], before) and np.array_equal(
        info2["action_mask"], info["action_mask"]
    )
    for out_of_space in (-1, env.action_space.n):
        assert env.step(out_of_space)[4]["illegal_action"] is True
    good = int(np.flatnonzero(info["action_mask"])[0])
    assert env.step(good)[4]["illegal_action"] is False
    strict = ketharmad.gym_env(game="osztrakon", illegal_action="raise")
    obs, info = strict.reset(seed=2)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=f"action {bad} is not legal"):
        strict.step(bad)
    assert np.array_equal(
        strict.unwrapped.game.action_mask().astype(np.int8), info["action_mask"]
    )  # unchanged
    with pytest.raises(RuntimeError, match="reset"):
        ketharmad.gym_env(game="osztrakon").step(0)


def test_harness_gym_render_ansi_shows_the_bots_moves():
    env = ketharmad.gym_env(game="schotten_totten_2", seat=1, render_mode="ansi")
    _, info = env.reset(seed=4)
    text = env.render()
    assert text.startswith("seat 0: ") and "seat 1 decides" in text
    a = int(np.flatnonzero(info["action_mask"])[0])
    label = env.unwrapped.game.describe_action(a)
    env.step(a)
    text = env.render()
    assert (
        text.startswith(f"seat 1: {label}\n") and "\nseat 1 decides: " in text
    )  # a preparation step may keep seat 1


def test_harness_gym_bad_arguments_are_named():
    with pytest.raises(ValueError, match="decks, card_data: Kétharmad only; gym_env"):
        ketharmad.gym_env(["ner", "tisza"], game="schotten_totten_2", card_data="x")
    with pytest.raises(ValueError, match="log: Kétharmad only"):
        ketharmad.gym_env(game="osztrakon", log=True)
    with pytest.raises(ValueError, match="seats is for the games on the generic harness"):
        ketharmad.gym_env(TWO_P, seats=3)
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        ketharmad.gym_env(game="chess")
    with pytest.raises(ValueError, match="seat must be"):
        ketharmad.gym_env(game="schotten_totten_2", seat=2)
    with pytest.raises(ValueError, match="5 to 12 seats"):
        ketharmad.gym_env(game="osztrakon", seats=4)
    with pytest.raises(
        ValueError,
        match=r"opponents: unknown bot 'heuristic' for schotten_totten_2 \(its bots: random, greedy",
    ):
        ketharmad.gym_env(game="schotten_totten_2", opponents="heuristic")
    with pytest.raises(ValueError, match=r"opponents\[0\] must be None"):
        ketharmad.gym_env(game="schotten_totten_2", opponents=["greedy", "greedy"])
    with pytest.raises(ValueError, match=r"opponents\[2\]: unknown bot 'nope'"):
        ketharmad.gym_env(game="osztrakon", opponents=[None, "b1", "nope", "b1", "b1"])
    with pytest.raises(ValueError, match=r"opponents \(seat 1, 'search:bogus=1'\)"):
        ketharmad.gym_env(game="schotten_totten_2", opponents="search:bogus=1")
    with pytest.raises(ValueError, match="illegal_action must be"):
        ketharmad.gym_env(game="schotten_totten_2", illegal_action="penalize")
    with pytest.raises(ValueError, match="render_mode must be"):
        ketharmad.gym_env(game="osztrakon", render_mode="rgb_array")
    with pytest.raises(ValueError, match="unknown parameter|rules.nope"):
        ketharmad.gym_env(game="osztrakon", params={"rules.nope": 1})
