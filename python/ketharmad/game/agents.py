"""Bots written in Python: seats of a batch answered by a Python agent instead of a built-in bot.

An agent is either

* a callable ``agent(observation, legal_actions, rng) -> action_id``, or
* an object with ``act(observation, legal_actions) -> action_id``; before every call the
  runner sets its attribute ``rng`` to the deciding seat's generator (so one object may play
  several seats), and calls its optional ``reset(seat, rng)`` hook once per game and seat it
  plays, before the game's first decision.

``observation`` is :meth:`ketharmad.Game.observation` of the deciding seat (a dict of what
it may see; an agent with the attribute ``observes = "tensor"`` gets
:meth:`ketharmad.Game.observation_tensor` instead, much cheaper), ``legal_actions`` the list of :class:`ketharmad.Action` ``(id, label)`` of
:meth:`ketharmad.Game.legal_actions`, ``rng`` a ``numpy.random.Generator`` seeded with
``(batch seed, game index, seat)`` — the same stream for the same game and seat however the
batch is cut, so results are reproducible. The answer is an action id (an int, numpy integer
or an ``Action``); anything else, or an id that is not legal, raises ``ValueError`` naming the
seat, the game and the legal ids.

A batch with any agent is played game by game here: ``Game.advance(bots)`` plays the
built-in seats in Rust until an agent's seat must decide, the agent is called, its answer
applied with ``Game.step``. The finished games go through ``_core.columns_of``, the columns
the Rust batch builds, so the tables are the same kind (and, with built-in bots in every
seat, the same rows) as :func:`ketharmad.simulate`'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Optional

import numpy as np

from .. import _core

__all__ = ["is_agent", "agent_label", "has_agents", "validation_bots", "play_games", "call_agent"]

#: Finished games converted to columns at once (their core states are held until then).
COLUMNS_BLOCK = 512


def is_agent(spec: Any) -> bool:
    """True for a Python agent (a callable or an object with ``act``), False for a built-in
    bot spec (a str or a mapping)."""
    if isinstance(spec, (str, bytes, Mapping)):
        return False
    return callable(getattr(spec, "act", None)) or callable(spec)


def has_agents(bots: Sequence[Any]) -> bool:
    return any(is_agent(b) for b in bots)


def agent_label(agent: Any) -> str:
    """The ``bot`` column label of an agent: ``"python:<name>"``, ``<name>`` its ``name``
    attribute, else the function's or the class's name."""
    name = getattr(agent, "name", None)
    if not isinstance(name, str) or not name:
        name = getattr(agent, "__name__", None) if not callable(getattr(agent, "act", None)) else None
        if not isinstance(name, str) or not name:
            name = type(agent).__name__
    return f"python:{name}"


def observes(agent: Any) -> str:
    """What the agent is given as ``observation``: its ``observes`` attribute, ``"dict"``
    (default: :meth:`ketharmad.Game.observation`) or ``"tensor"``
    (:meth:`ketharmad.Game.observation_tensor`, the float32 vector of the RL environments;
    about 35 times cheaper to build than the dict)."""
    kind = getattr(agent, "observes", "dict")
    if kind not in ("dict", "tensor"):
        raise ValueError(f"{agent_label(agent)}: observes must be 'dict' or 'tensor', got {kind!r}")
    return kind


def validation_bots(bots: Sequence[Any]) -> list[Any]:
    """The bots with every agent replaced by ``"random"``, for the core's configuration check."""
    return ["random" if is_agent(b) else b for b in bots]


def _answer_id(answer: Any) -> Optional[int]:
    if hasattr(answer, "id") and not isinstance(answer, np.ndarray):
        answer = answer.id
    if isinstance(answer, bool) or isinstance(answer, np.bool_):
        return None
    if isinstance(answer, (int, np.integer)):
        return int(answer)
    return None


def call_agent(agent: Any, seat: int, game_index: int, g: Any, rng: np.random.Generator) -> int:
    """Ask ``agent`` (playing ``seat`` in game ``game_index``) for its answer to ``g``'s
    pending decision; return the checked action id."""
    legal = g.legal_actions()
    obs = g.observation_tensor(seat) if observes(agent) == "tensor" else g.observation(seat)
    act = getattr(agent, "act", None)
    if callable(act):
        agent.rng = rng
        answer = act(obs, legal)
    else:
        answer = agent(obs, legal, rng)
    a = _answer_id(answer)
    if a is None or all(a != x.id for x in legal):
        shown = ", ".join(f"{x.id} ({x.label})" for x in legal)
        raise ValueError(
            f"seat {seat} ({agent_label(agent)}) answered {answer!r} at a {g.decision_kind!r} decision "
            f"of game {game_index}: not a legal action id; legal ids: {shown}"
        )
    return a


def _new_game(card_text: str, decks: Sequence[str], params: Mapping[str, Any], seed: int, game_index: int,
              start_player: Optional[int], record_plays: bool) -> Any:
    """``ketharmad.Game`` from the card-data *text* of a plan cell (the public constructor
    takes a card set name or path): the core constructor the class itself calls."""
    from ..step import Game

    return _core.Game.__new__(Game, card_text, list(decks), int(seed), int(game_index), dict(params) or None,
                              start_player, False, bool(record_plays))  # fmt: skip


def play_one(
    card_text: str,
    decks: Sequence[str],
    bots: Sequence[Any],
    params: Mapping[str, Any],
    seed: int,
    game_index: int,
    start_player: Optional[int] = None,
    record_plays: bool = False,
) -> Any:
    """Play game ``game_index`` of the batch with seed ``seed``: built-in seats in Rust
    (``Game.advance``), agent seats called here. Returns the finished :class:`Game`."""
    builtin = [None if is_agent(b) else b for b in bots]
    for b in bots:
        if is_agent(b):
            observes(b)  # a bad ``observes`` fails before the game
    g = _new_game(card_text, decks, params, seed, game_index, start_player, record_plays)
    rngs: dict[int, np.random.Generator] = {}
    for s, b in enumerate(bots):
        if is_agent(b):
            rngs[s] = np.random.default_rng([seed, game_index, s])
            reset = getattr(b, "reset", None)
            if callable(getattr(b, "act", None)) and callable(reset):
                reset(s, rngs[s])
    while True:
        g.advance(builtin)
        if g.is_over:
            return g
        s = g.current_player
        g.step(call_agent(bots[s], s, game_index, g, rngs[s]))


def _concat(parts: list[dict[str, Any]]) -> dict[str, Any]:
    if len(parts) == 1:
        return parts[0]
    out: dict[str, Any] = {}
    for table in parts[0]:
        first = parts[0][table]
        if isinstance(first, Mapping):
            out[table] = {k: np.concatenate([np.asarray(p[table][k]) for p in parts]) for k in first}
        else:
            out[table] = first
    return out


def play_games(
    card_text: str,
    decks: Sequence[str],
    bots: Sequence[Any],
    params: Mapping[str, Any],
    seed: int,
    first_game: int,
    games: int,
    start_player: Optional[int] = None,
    record_plays: bool = False,
) -> dict[str, Any]:
    """Play games ``first_game .. first_game + games - 1`` game by game (see the module
    docstring) and return the raw columns ``_core.simulate`` returns for them (``games``,
    ``players`` and ``plays`` dicts of numpy arrays)."""
    parts: list[dict[str, Any]] = []
    block: list[Any] = []
    for i in range(first_game, first_game + games):
        block.append(play_one(card_text, decks, bots, params, seed, i, start_player, record_plays))
        if len(block) == COLUMNS_BLOCK:
            parts.append(_core.columns_of(block))
            block = []
    if block:
        parts.append(_core.columns_of(block))
    return _concat(parts)
