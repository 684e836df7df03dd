"""Reinforcement-learning environments over :class:`ketharmad.Game` (the ``rl`` extra).

* :func:`env`: a PettingZoo AEC environment, one agent per seat (``"seat_0"`` ..
  ``"seat_{n-1}"``), every decision of the game a step of the seat that decides.
* :func:`gym_env`: a Gymnasium environment that plays one seat; the other seats are
  answered by built-in bots (in Rust, through :meth:`ketharmad.Game.advance`).

Both observe ``{"observation": float32 vector (Game.observation_tensor), "action_mask": int8
0/1 vector over the fixed action space}`` and act with an action id in
``Discrete(Game.num_actions)``. Rewards come from :meth:`ketharmad.Game.returns` when the
game ends (winner +1, the others -1, all 0 without a winner) and are 0 before.

Seeding: ``reset(seed=s)`` plays game 0 of the batch with seed ``s`` (the game of
``ketharmad.simulate(decks, seed=s)`` row 0, whatever the agents then do); every later
``reset()`` without a seed plays the next game index of that batch (1, 2, ...), so a run of
episodes is reproducible from its first seed. A first ``reset()`` without any seed draws the
batch seed from fresh entropy. See docs/rl.md.

* :func:`game_env`: the PettingZoo AEC environment of the other games on the generic harness
  (``"schotten_totten_2"``, ``"osztrakon"``) over :func:`ketharmad.games.game_state`, with the same
  observation, action, reward and seeding conventions; ``env(game="schotten_totten_2" |
  "osztrakon", seats=...)`` returns it too; :func:`gym_env` with ``game=`` their Gymnasium
  environment (:class:`HarnessGymEnv`: one learning seat, the others played by the game's
  bots through ``HarnessGame.bot_action``).

Install with ``pip install 'ketharmad[rl]'`` (pettingzoo and gymnasium); ``import
ketharmad`` does not need them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Optional, Union, cast

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as _e:  # pragma: no cover - exercised without the extra only
    raise ImportError(
        "ketharmad's RL environments need pettingzoo and gymnasium: pip install 'ketharmad[rl]'"
    ) from _e

from ._deprecation import deprecate_function
from .game.driver import driver_for
from .game.harness import game_state, harness_info
from .game.spec import GameSpec, setup_of
from .game.validate import _check_bot_spec, check_decks, check_int, check_seed
from .step import Game

__all__ = [
    "env",
    "gym_env",
    "game_env",
    "KetharmadAECEnv",
    "KetharmadGymEnv",
    "HarnessAECEnv",
    "HarnessGymEnv",
    "GYM_ID",
    "HARNESS_GYM_IDS",
]

#: The id :func:`gym_env` is registered under: ``gymnasium.make(GYM_ID, decks=[...])``.
GYM_ID = "ketharmad/Ketharmad-v0"

_RENDER_MODES = ["human", "ansi"]


def _game_class() -> Any:
    return Game


def _agent_name(seat: int) -> str:
    return f"seat_{seat}"


class _Episodes:
    """The batch seed and game index of the next episode (see the module docstring)."""

    def __init__(self) -> None:
        self.seed: Optional[int] = None
        self.game = -1

    def next(self, seed: Optional[int], fresh: Any) -> tuple[int, int]:
        if seed is not None:
            self.seed, self.game = check_seed(seed), 0
        elif self.seed is None:
            self.seed, self.game = int(fresh()), 0
        else:
            self.game += 1
        return self.seed, self.game


def _observation_space(game: Any) -> spaces.Dict:
    low, high = _tensor_bounds(game)
    return spaces.Dict(
        {
            "observation": spaces.Box(low, high, (game.observation_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
        }
    )


def _tensor_bounds(game: Any) -> tuple[Any, Any]:
    """Per-entry bounds of the observation tensor: the Game's own when it declares them,
    else the whole float32 range."""
    bounds = getattr(game, "observation_bounds", None)
    if callable(bounds):
        low, high = bounds()
        return np.asarray(low, np.float32), np.asarray(high, np.float32)
    info = np.finfo(np.float32)
    return float(info.min), float(info.max)


def _observe(game: Any, seat: int) -> dict[str, np.ndarray]:
    """The seat's observation dict (fresh arrays): its tensor and, when it is the seat to
    decide, the legal-action mask (else all zeros)."""
    tensor = np.array(game.observation_tensor(seat), dtype=np.float32, copy=True)
    if not game.is_over and game.current_player == seat:
        mask = np.asarray(game.action_mask()).astype(np.int8)
    else:
        mask = np.zeros(game.num_actions, dtype=np.int8)
    return {"observation": tensor, "action_mask": mask}


def _action_id(action: Any) -> int:
    """An action id from an int, a numpy integer, a 0-d/1-element array or an Action."""
    if hasattr(action, "id") and not isinstance(action, np.ndarray):
        action = action.id
    arr = np.asarray(action)
    if arr.size != 1 or arr.dtype.kind not in "iu":
        raise ValueError(f"an action must be an integer action id, got {action!r}")
    return int(arr.reshape(()))


class _Render:
    """Text rendering shared by both environments: the log lines since the last call and the
    decision now pending."""

    def __init__(self) -> None:
        self.shown = 0

    def text(self, game: Any) -> str:
        if game is None:
            return ""
        log = list(game.log)
        lines = log[self.shown :]
        self.shown = len(log)
        if game.is_over:
            lines.append(f"game over: winner {game.winner}, returns {list(game.returns())}")
        else:
            labels = ", ".join(f"{a.id}: {a.label}" for a in game.legal_actions())
            lines.append(f"seat {game.current_player} decides ({game.decision_kind}): {labels}")
        return "\n".join(lines)


class _SeatAECEnv(AECEnv):
    """What both AEC environments share: agents ``seat_i``, spaces from a probe game, one game
    per episode (``_new_game``), rewards = the game's returns at the end."""

    def _spaces_from(self, probe: Any) -> None:
        self.possible_agents = [_agent_name(s) for s in range(probe.num_players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: _observation_space(probe) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(probe.num_actions) for a in self.possible_agents}
        self.game: Any = None
        self._episodes = _Episodes()
        self._render = self._new_render()
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]

    def _new_game(self, batch_seed: int, index: int) -> Any:
        raise NotImplementedError

    def _new_render(self) -> Any:
        raise NotImplementedError

    def _play(self, agent: str, action: int) -> None:
        self.game.step(action)  # ValueError naming the legal ids if illegal

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        batch_seed, index = self._episodes.next(
            seed, lambda: cast(int, np.random.SeedSequence().entropy) % 2**63
        )  # drawn: an int
        self.game = self._new_game(batch_seed, index)
        self._render = self._new_render()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        if self.game.is_over:  # no decision at all (not seen in practice): end at once
            self._finish()
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = _agent_name(self.game.current_player)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return _observe(self.game, self._seat[agent])

    def _finish(self) -> None:
        returns = self.game.returns()
        for a in self.agents:
            self.rewards[a] = float(returns[self._seat[a]])
            self.terminations[a] = True

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act (an action id), got None: the game is not over")
        self._play(agent, _action_id(action))
        self._cumulative_rewards[agent] = 0.0
        if self.game.is_over:
            self._finish()
        else:
            for a in self.agents:
                self.rewards[a] = 0.0
            self.agent_selection = _agent_name(self.game.current_player)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        return _render(self)

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return self.metadata["name"]


class _KetharmadGames:
    """The Kétharmad side of an environment (AEC or Gymnasium): its game settings, a probe
    game that checks them, each episode's new game and the log renderer."""

    def _set_games(self, decks: Sequence[str], params: Optional[Mapping[str, Any]], card_data: Any, format: Any,
                   start_player: Optional[int], log: bool, render_mode: Optional[str]) -> Any:  # fmt: skip
        """Keep the settings; return a probe game (game 0 of seed 0), which checks decks,
        params and card data now and sizes the spaces."""
        self.decks = check_decks(decks)
        self.params = params
        self.card_data = card_data
        self.format = format
        self.start_player = start_player
        self.log = bool(log) or render_mode is not None
        return _game_class()(self.decks, seed=0, index=0, params=params, card_data=card_data,
                             start_player=start_player, format=format)  # fmt: skip

    def _new_game(self, batch_seed: int, index: int) -> Any:
        return _game_class()(
            self.decks, seed=batch_seed, index=index, params=self.params, card_data=self.card_data, format=self.format,
            start_player=self.start_player, log=self.log,
        )  # fmt: skip

    def _new_render(self) -> Any:
        return _Render()


class KetharmadAECEnv(_KetharmadGames, _SeatAECEnv):
    """The PettingZoo AEC environment of :func:`env` (see there)."""

    metadata = {"render_modes": _RENDER_MODES, "name": "ketharmad_v0", "is_parallelizable": False}

    def __init__(
        self,
        decks: Sequence[str],
        *,
        params: Optional[Mapping[str, Any]] = None,
        card_data: Any = None,
        format: Any = None,
        start_player: Optional[int] = None,
        render_mode: Optional[str] = None,
        log: bool = False,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in _RENDER_MODES:
            raise ValueError(
                f"render_mode must be None or one of {_RENDER_MODES}, got {render_mode!r}"
            )
        self.render_mode = render_mode
        self._spaces_from(
            self._set_games(decks, params, card_data, format, start_player, log, render_mode)
        )


#: env's default decks (identity tells "not given" apart for the other games).
_DEFAULT_DECKS: tuple[str, ...] = ("ner", "tisza")


def env(
    decks: Sequence[str] = _DEFAULT_DECKS,
    *,
    params: Optional[Mapping[str, Any]] = None,
    card_data: Any = None,
    format: Any = None,
    start_player: Optional[int] = None,
    render_mode: Optional[str] = None,
    log: bool = False,
    game: Union[str, GameSpec] = "ketharmad",
    seats: Optional[int] = None,
) -> KetharmadAECEnv | HarnessAECEnv:  # HarnessAECEnv for another game
    """A PettingZoo AEC environment of one Kétharmad game per episode.

    ``game``: ``"ketharmad"`` (default) or another game of :func:`ketharmad.games`
    (``"schotten_totten_2"``, ``"osztrakon"``): then this is :func:`game_env` (``seats``,
    ``params``, ``render_mode``); the Kétharmad-only arguments (``decks``, ``card_data``,
    ``format``, ``start_player``, ``log``) are refused with a ValueError naming them, and
    ``seats`` with Kétharmad.

    Agents ``"seat_0"`` .. ``"seat_{n-1}"`` (one per deck); ``agent_selection`` is the seat
    whose decision is pending (seats do not simply alternate: a response or a block is
    asked of another seat). Action space ``Discrete(Game.num_actions)``, the fixed action
    space (the same id means the same thing in every game); observation ``{"observation":
    Box(float32, observation_size), "action_mask": Box(int8 0/1, num_actions)}`` — the mask
    is all zeros for a seat that is not deciding. An action outside the mask raises
    ``ValueError`` naming the legal ids. Rewards: :meth:`ketharmad.Game.returns` when the
    game ends, 0 before; then every agent is terminated (a game cut by the round or action
    cap ends without winner, returns all 0, also as a termination) and takes its dead step
    (``step(None)``). ``reset(seed=s)``: game 0 of batch ``s``; ``reset()``: the next game of
    the batch. ``render_mode``: None, ``"ansi"`` (``render()`` returns the log lines since the
    last call and the pending decision) or ``"human"`` (prints them after every step). ``log``: keep the game's readable log
    (``env.unwrapped.game.log``; on whenever ``render_mode`` is set; costs a string per action).
    ``format``: the game format (docs/formats.md), as in :func:`ketharmad.simulate`
    (``"coalition"``: each partner's reward is its team's).
    """
    if isinstance(game, GameSpec):  # a game value: its setup, with this call's explicit keywords
        spec, decks_given, card_data, format, start_player, params, seats = setup_of(
            game, "env", decks=None if decks is _DEFAULT_DECKS else decks, card_data=card_data, format=format,
            start_player=start_player, params=params, seats=seats)  # fmt: skip
        game, decks = spec.name, _DEFAULT_DECKS if decks_given is None else decks_given
    driver = driver_for(game)
    if not driver.is_ketharmad:
        driver.refuse("env", {"decks": decks is not _DEFAULT_DECKS, "card_data": card_data is not None,
                             "format": format is not None, "start_player": start_player is not None,
                             "log": log is not False}, "seats, params and render_mode (it is game_env)")  # fmt: skip
        return _game_env(game, seats, params=params, render_mode=render_mode)
    if seats is not None:
        raise ValueError(
            "seats is for the games on the generic harness (env(game='osztrakon', seats=7)); "
            "a Kétharmad game has one seat per deck"
        )
    return KetharmadAECEnv(decks, params=params, card_data=card_data, format=format, start_player=start_player,
                           render_mode=render_mode, log=log)  # fmt: skip


class _SeatGymEnv(gymnasium.Env):
    """What both Gymnasium environments share: one learning seat, the other seats answered by
    bots between its steps (``_advance``), one game per episode (``_new_game``), the
    observation dict and ``info["action_mask"]``, the illegal-action handling and the
    terminal reward from the game's returns."""

    metadata = {"render_modes": _RENDER_MODES, "render_fps": 4}
    seat: int  # the learning seat (set by the subclass)

    def _setup(self, render_mode: Optional[str], illegal_action: str, illegal_reward: Any) -> None:
        if render_mode is not None and render_mode not in _RENDER_MODES:
            raise ValueError(
                f"render_mode must be None or one of {_RENDER_MODES}, got {render_mode!r}"
            )
        if illegal_action not in ("ignore", "raise"):
            raise ValueError(f"illegal_action must be 'ignore' or 'raise', got {illegal_action!r}")
        try:
            self.illegal_reward = float(illegal_reward)
        except (TypeError, ValueError):
            raise ValueError(f"illegal_reward must be a number, got {illegal_reward!r}") from None
        self.render_mode = render_mode
        self.illegal_action = illegal_action

    def _spaces_from(self, probe: Any) -> None:
        self.observation_space = _observation_space(probe)
        self.action_space = spaces.Discrete(probe.num_actions)
        self.game: Any = None
        self._episodes = _Episodes()
        self._render = self._new_render()

    def _new_game(self, batch_seed: int, index: int) -> Any:
        raise NotImplementedError

    def _new_render(self) -> Any:
        raise NotImplementedError

    def _advance(self) -> None:
        """Play the other seats' bots until the learning seat decides or the game ends."""
        raise NotImplementedError

    def _play(self, action: int) -> None:
        self.game.step(action)

    def _decision_kind(self) -> Optional[str]:
        return None

    def _end_info(self) -> dict[str, Any]:
        return {"winner": self.game.winner}

    def _obs_info(self, **extra: Any) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        obs = _observe(self.game, self.seat)
        info: dict[str, Any] = {
            "action_mask": obs["action_mask"].copy(),
            "decision_kind": None if self.game.is_over else self._decision_kind(),
            **extra,
        }
        return obs, info

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        batch_seed, index = self._episodes.next(seed, lambda: self.np_random.integers(0, 2**63 - 1))
        self.game = self._new_game(batch_seed, index)
        self._render = self._new_render()
        self._advance()
        if self.render_mode == "human":
            self.render()
        obs, info = self._obs_info(batch_seed=batch_seed, game=index)
        if (
            self.game.is_over
        ):  # the bots ended the game before the seat decided (not seen in practice)
            info.update(self._end_info())
        return obs, info

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        if self.game.is_over:
            raise RuntimeError("the game is over: call reset() to start the next one")
        a = _action_id(action)
        if not (0 <= a < self.game.num_actions and bool(self.game.action_mask()[a])):
            if self.illegal_action == "raise":
                self.game.step(a)  # raises ValueError naming the legal ids
            obs, info = self._obs_info(illegal_action=True)
            return obs, self.illegal_reward, False, False, info
        self._play(a)
        self._advance()
        terminated = bool(self.game.is_over)
        reward = float(self.game.returns()[self.seat]) if terminated else 0.0
        if self.render_mode == "human":
            self.render()
        obs, info = self._obs_info(illegal_action=False)
        if terminated:
            info.update(self._end_info())
        return obs, reward, terminated, False, info

    def render(self) -> Optional[str]:
        return _render(self)

    def close(self) -> None:
        pass


class KetharmadGymEnv(_KetharmadGames, _SeatGymEnv):
    """The Gymnasium environment of :func:`gym_env` (see there)."""

    def __init__(
        self,
        decks: Sequence[str] = ("ner", "tisza"),
        *,
        seat: int = 0,
        opponents: Any = "heuristic",
        params: Optional[Mapping[str, Any]] = None,
        card_data: Any = None,
        format: Any = None,
        start_player: Optional[int] = None,
        render_mode: Optional[str] = None,
        illegal_action: str = "ignore",
        illegal_reward: float = 0.0,
        log: bool = False,
    ) -> None:
        self._setup(render_mode, illegal_action, illegal_reward)
        n = len(check_decks(decks))
        self.seat = check_int("seat", seat, 0, n - 1)
        self.bots = _opponent_bots(opponents, n, self.seat)
        probe = self._set_games(decks, params, card_data, format, start_player, log, render_mode)
        probe.advance(self.bots)  # checks the opponents' specs now
        self._spaces_from(probe)

    def _advance(self) -> None:
        self.game.advance(self.bots)

    def _decision_kind(self) -> Optional[str]:
        return self.game.decision_kind


def _render(env: Any) -> Optional[str]:
    """The log lines since the last render: returned ("ansi") or printed ("human")."""
    if env.render_mode is None:
        gymnasium.logger.warn(
            "render() called without a render_mode (use render_mode='ansi' or 'human')"
        )
        return None
    text = env._render.text(env.game)
    if env.render_mode == "ansi":
        return text
    if text:
        print(text)
    return None


def _opponent_bots(opponents: Any, n: int, seat: int) -> list[Any]:
    """One built-in bot spec per seat and None at ``seat``: ``opponents`` is one spec for
    every other seat or a list with one entry per seat (the entry at ``seat`` must be None)."""
    if isinstance(opponents, (str, Mapping)):
        spec = _check_bot_spec(opponents, "opponents")
        return [
            None if s == seat else (dict(spec) if isinstance(spec, Mapping) else spec)
            for s in range(n)
        ]
    if isinstance(opponents, (list, tuple)):
        if len(opponents) != n:
            raise ValueError(
                f"opponents must be one bot spec for every other seat or a list with one entry per "
                f"seat ({n}, None at seat {seat}), got a list of {len(opponents)}"
            )
        out: list[Any] = []
        for s, spec in enumerate(opponents):
            if s == seat:
                if spec is not None:
                    raise ValueError(
                        f"opponents[{seat}] must be None: seat {seat} is the environment's agent"
                    )
                out.append(None)
            else:
                out.append(_check_bot_spec(spec, f"opponents[{s}]"))
        return out
    raise ValueError(
        f"opponents must be a bot spec or a list of them, got {type(opponents).__name__}"
    )


def gym_env(
    decks: Sequence[str] = _DEFAULT_DECKS,
    *,
    seat: int = 0,
    opponents: Any = None,
    params: Optional[Mapping[str, Any]] = None,
    card_data: Any = None,
    format: Any = None,
    start_player: Optional[int] = None,
    render_mode: Optional[str] = None,
    illegal_action: str = "ignore",
    illegal_reward: float = 0.0,
    log: bool = False,
    game: Union[str, GameSpec] = "ketharmad",
    seats: Optional[int] = None,
) -> KetharmadGymEnv | HarnessGymEnv:  # HarnessGymEnv for another game
    """A Gymnasium environment that plays seat ``seat`` of one game per episode; the other
    seats are played by built-in bots (``opponents``: one spec such as ``"heuristic"`` or
    ``{"kind": "search", "iterations": 50}`` for every other seat, or a list with one spec per
    seat and None at ``seat``; default ``"heuristic"``), in Rust between the agent's steps,
    each with its own seeded stream as in :func:`ketharmad.simulate`.

    Observation ``{"observation": float32 vector, "action_mask": int8 0/1 vector}`` (as
    :func:`env`), also ``info["action_mask"]`` (for maskable-policy libraries) and
    ``info["decision_kind"]``. Action ``Discrete(Game.num_actions)``. Reward: the seat's
    :meth:`ketharmad.Game.returns` entry when the game ends (+1 won, -1 lost, 0 no winner), 0
    before; ``terminated`` then (a capped game is a termination too, never a truncation).

    An action outside the mask (``illegal_action="ignore"``, the default, so that unmasked
    samplers and ``gymnasium.utils.env_checker.check_env`` work): the game does not change,
    the reward is ``illegal_reward`` (default 0.0) and ``info["illegal_action"]`` is True;
    ``illegal_action="raise"`` raises ``ValueError`` naming the legal ids instead. Seeding as
    :func:`env`: ``reset(seed=s)`` plays game 0 of batch ``s``, later ``reset()`` the next
    games. ``log``: keep the game's readable log (``env.game.log``; on with a
    ``render_mode``). Also registered as ``gymnasium.make("ketharmad/Ketharmad-v0", decks=...)``.

    ``game="schotten_totten_2" | "osztrakon"``: a :class:`HarnessGymEnv` over
    :func:`ketharmad.games.game_state`. ``seat`` is the learning seat (Schotten Totten 2: 0 the
    Attacker, 1 the Defender); ``seats`` the seat count (Osztrakon 5..12, default 5, or the
    length of an ``opponents`` list); ``opponents`` a bot spec string of that game for every
    other seat (default ``"greedy"`` for Schotten Totten 2, ``"b1"`` for Osztrakon; options as
    ``"search:iterations=200"``) or a list with one per seat and None at ``seat`` — every
    spec is checked when the environment is made (by a probe game, see docs/rl.md). ``params``, ``render_mode``,
    ``illegal_action`` and ``illegal_reward`` as above; observation, ``info["action_mask"]``,
    action space (the game's fixed action ids) and rewards (the game's ``returns()``) follow
    the same conventions; ``info["decision_kind"]`` is None (the harness games have one kind
    of decision) and the terminal step's info also holds ``winners`` and ``end_reason``.
    ``reset(seed=s)`` plays game 0 of batch ``s`` and each later ``reset()`` the next game
    index (``info["batch_seed"]``, ``info["game"]``): the deal of that row of
    ``simulate_game(game, bots, seed=s)``, and the opponents draw from the stream the batch
    gives their seat, so choosing the learner's actions with
    ``env.unwrapped.game.bot_action(spec)`` plays exactly that row with ``spec`` at ``seat``.
    The Kétharmad-only arguments (``decks``, ``card_data``, ``format``, ``start_player``,
    ``log``) are refused with a ValueError naming them, and ``seats`` with Kétharmad. Also
    registered as ``gymnasium.make("ketharmad/SchottenTotten2-v0" | "ketharmad/Osztrakon-v0",
    seat=..., opponents=...)``.
    """
    if isinstance(game, GameSpec):  # a game value: its setup, with this call's explicit keywords
        spec, decks_given, card_data, format, start_player, params, seats = setup_of(
            game, "gym_env", decks=None if decks is _DEFAULT_DECKS else decks, card_data=card_data, format=format,
            start_player=start_player, params=params, seats=seats)  # fmt: skip
        game, decks = spec.name, _DEFAULT_DECKS if decks_given is None else decks_given
    driver = driver_for(game)
    if not driver.is_ketharmad:
        driver.refuse("gym_env", {"decks": decks is not _DEFAULT_DECKS, "card_data": card_data is not None,
                                 "format": format is not None, "start_player": start_player is not None,
                                 "log": log is not False},
               "seat, opponents, seats, params, render_mode, illegal_action and illegal_reward")  # fmt: skip
        return HarnessGymEnv(game, seat=seat, opponents=opponents, seats=seats, params=params, render_mode=render_mode,
                             illegal_action=illegal_action, illegal_reward=illegal_reward)  # fmt: skip
    if seats is not None:
        raise ValueError(
            "seats is for the games on the generic harness (gym_env(game='osztrakon', seats=7)); "
            "a Kétharmad game has one seat per deck"
        )
    return KetharmadGymEnv(decks, seat=seat, opponents="heuristic" if opponents is None else opponents, params=params,
                           card_data=card_data, format=format, start_player=start_player, render_mode=render_mode,
                           illegal_action=illegal_action, illegal_reward=illegal_reward, log=log)  # fmt: skip


if GYM_ID not in gymnasium.registry:
    gymnasium.register(GYM_ID, entry_point=KetharmadGymEnv, disable_env_checker=True)  # type: ignore[arg-type]  # EnvCreator is (**kwargs) -> Env: no named keywords


class _HarnessRender:
    """Text rendering of a harness game: the action played since the last call (the games keep
    no log) and the decision now pending."""

    def __init__(self) -> None:
        self.played: list[str] = []

    def text(self, game: Any) -> str:
        if game is None:
            return ""
        lines, self.played = self.played, []
        if game.is_over:
            lines.append(
                f"game over ({game.end_reason}): winners {game.winners}, returns {list(game.returns())}"
            )
        else:
            labels = ", ".join(f"{i}: {label}" for i, label in game.legal_actions())
            lines.append(f"seat {game.current_player} decides: {labels}")
        return "\n".join(lines)


class _HarnessGames:
    """The harness side of an environment (AEC or Gymnasium): the game and its params, a
    probe game that checks them, each episode's new game, and steps the renderer hears of
    (the harness games keep no log)."""

    # the environment's own (AEC or Gymnasium) attributes this side uses
    game: Any
    render_mode: Optional[str]
    _render: Any

    def _set_games(
        self, game: str, seats: Optional[int], params: Optional[Mapping[str, Any]]
    ) -> Any:
        """Keep the settings; return a probe game (game 0 of seed 0), which checks the game,
        seats and params now and sizes the spaces."""
        self._make = game_state
        self.game_name = game
        self.params = dict(params) if params is not None else None
        probe = game_state(game, seats=seats, seed=0, game_index=0, params=self.params)
        self.seats = probe.num_players
        return probe

    def _new_game(self, batch_seed: int, index: int) -> Any:
        return self._make(
            self.game_name, seats=self.seats, seed=batch_seed, game_index=index, params=self.params
        )

    def _new_render(self) -> Any:
        return _HarnessRender()

    def _step_seat(self, seat: int, action: int) -> None:
        """Play ``action`` for ``seat`` (a ValueError naming the legal ids if illegal)."""
        game = self.game
        label = (
            game.describe_action(action)
            if self.render_mode is not None and 0 <= action < game.num_actions
            else ""
        )
        game.step(action)
        if self.render_mode is not None:
            self._render.played.append(f"seat {seat}: {label}")


class HarnessAECEnv(_HarnessGames, _SeatAECEnv):
    """The PettingZoo AEC environment of :func:`game_env` (see there)."""

    metadata = {
        "render_modes": _RENDER_MODES,
        "name": "ketharmad_harness_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str = "schotten_totten_2",
        seats: Optional[int] = None,
        *,
        params: Optional[Mapping[str, Any]] = None,
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in _RENDER_MODES:
            raise ValueError(
                f"render_mode must be None or one of {_RENDER_MODES}, got {render_mode!r}"
            )
        self.render_mode = render_mode
        probe = self._set_games(game, seats, params)
        self.metadata = dict(self.metadata, name=f"{game}_v0")
        self._spaces_from(probe)

    def _play(self, agent: str, action: int) -> None:
        self._step_seat(self._seat[agent], action)


def _game_env(
    game: str = "schotten_totten_2",
    seats: Optional[int] = None,
    *,
    params: Optional[Mapping[str, Any]] = None,
    render_mode: Optional[str] = None,
) -> HarnessAECEnv:
    """A PettingZoo AEC environment of one game of ``game`` (``"schotten_totten_2"``: seat 0
    the Attacker, seat 1 the Defender; ``"osztrakon"``: ``seats`` 5..12, default 5) per
    episode, over :func:`ketharmad.games.game_state`.

    Agents ``"seat_0"`` .. ``"seat_{n-1}"``; ``agent_selection`` is the seat to move. Action
    space ``Discrete(num_actions)`` (the game's fixed action space); observation
    ``{"observation": Box(float32, observation_size), "action_mask": Box(int8 0/1,
    num_actions)}`` — the mask is all zeros for a seat that is not deciding. An action outside
    the mask raises ``ValueError`` naming the legal ids. Rewards: the game's ``returns()`` when
    it ends (Schotten Totten 2: +1 / -1; Osztrakon: +1 the winner, -1 the others), 0 before;
    then every agent is terminated and takes its dead step (``step(None)``). ``reset(seed=s)``
    plays game 0 of batch ``s`` (row 0 of ``simulate_game(game, seed=s)``), ``reset()`` the
    next game index. ``render_mode``: None, ``"ansi"`` or ``"human"`` (the actions since the
    last render and the pending decision)."""
    return HarnessAECEnv(game, seats, params=params, render_mode=render_mode)


#: Deprecated in 0.2.0, removed in 0.3.0: ``env(game=...)``.
game_env = deprecate_function("env(game=...)", name="game_env")(_game_env)


#: The bot every other seat of :func:`gym_env` plays by default, per harness game.
HARNESS_DEFAULT_OPPONENT = {"schotten_totten_2": "greedy", "osztrakon": "b1"}

#: The ids the harness games' Gymnasium environments are registered under
#: (``gymnasium.make(id, seat=..., opponents=...)``).
HARNESS_GYM_IDS = {
    "schotten_totten_2": "ketharmad/SchottenTotten2-v0",
    "osztrakon": "ketharmad/Osztrakon-v0",
}


def _harness_opponents(
    game: str, opponents: Any, n: int, seat: int, agents: Sequence[str]
) -> list[Optional[str]]:
    """One bot spec string per seat and None at ``seat`` (as :func:`_opponent_bots`, strings
    only: a harness bot is a spec such as ``"greedy"`` or ``"search:iterations=200"``)."""
    if opponents is None:
        opponents = HARNESS_DEFAULT_OPPONENT.get(game, "random")
    if isinstance(opponents, str):
        specs: list[Optional[str]] = [None if s == seat else opponents for s in range(n)]
    elif isinstance(opponents, (list, tuple)):
        if len(opponents) != n:
            raise ValueError(
                f"opponents must be one bot spec for every other seat or a list with one entry per "
                f"seat ({n}, None at seat {seat}), got a list of {len(opponents)}"
            )
        specs = list(opponents)
        if specs[seat] is not None:
            raise ValueError(
                f"opponents[{seat}] must be None: seat {seat} is the environment's agent"
            )
    else:
        raise ValueError(f"opponents must be a bot spec string (such as {agents[0]!r}) or a list of them, "
                         f"got {type(opponents).__name__}")  # fmt: skip
    for s, spec in enumerate(specs):
        if s == seat:
            continue
        where = "opponents" if isinstance(opponents, str) else f"opponents[{s}]"
        if not isinstance(spec, str):
            raise ValueError(
                f"{where} must be a bot spec string of {game} ({', '.join(agents)}), got {spec!r}"
            )
        if spec.split(":", 1)[0] not in agents:
            raise ValueError(
                f"{where}: unknown bot {spec!r} for {game} (its bots: {', '.join(agents)})"
            )
    return specs


class HarnessGymEnv(_HarnessGames, _SeatGymEnv):
    """The Gymnasium environment of :func:`gym_env` for a game on the generic harness
    (``game="schotten_totten_2" | "osztrakon"``; see :func:`gym_env`)."""

    def __init__(
        self,
        game: str = "schotten_totten_2",
        *,
        seat: int = 0,
        opponents: Any = None,
        seats: Optional[int] = None,
        params: Optional[Mapping[str, Any]] = None,
        render_mode: Optional[str] = None,
        illegal_action: str = "ignore",
        illegal_reward: float = 0.0,
    ) -> None:
        info = harness_info(game)
        self._setup(render_mode, illegal_action, illegal_reward)
        if seats is None and isinstance(opponents, (list, tuple)):
            seats = len(opponents)  # a list of opponents gives the seat count
        probe = self._set_games(game, seats, params)
        self.seat = check_int("seat", seat, 0, self.seats - 1)
        self.bots = _harness_opponents(game, opponents, self.seats, self.seat, list(info["agents"]))
        self._check_bots(probe)
        self._spaces_from(probe)

    def _check_bots(self, probe: Any) -> None:
        """Each opponent's spec (options too) is checked now: the probe game is played until
        every bot has answered once (the learning seat plays its first legal action)."""
        unchecked = {s for s, b in enumerate(self.bots) if b is not None}
        for _ in range(64 * self.seats):
            if probe.is_over or not unchecked:
                return
            cp = probe.current_player
            if cp in unchecked:
                try:
                    action = probe.bot_action(self.bots[cp])
                except ValueError as e:
                    raise ValueError(f"opponents (seat {cp}, {self.bots[cp]!r}): {e}") from None
                unchecked.discard(cp)
            else:
                action = probe.legal_action_ids()[0]
            probe.step(action)

    def _play(self, action: int) -> None:
        self._step_seat(self.seat, action)

    def _advance(self) -> None:
        game = self.game
        while not game.is_over and game.current_player != self.seat:
            seat = game.current_player
            self._step_seat(seat, game.bot_action(self.bots[seat]))

    def _end_info(self) -> dict[str, Any]:
        return {
            "winner": self.game.winner,
            "winners": list(self.game.winners),
            "end_reason": self.game.end_reason,
        }


for _game, _id in HARNESS_GYM_IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(
            _id,
            entry_point=HarnessGymEnv,  # type: ignore[arg-type]  # as above
            kwargs={"game": _game},
            disable_env_checker=True,
        )
