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
from typing import Any

__all__ = ["is_agent", "agent_label", "has_agents", "validation_bots"]


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
        name = (
            getattr(agent, "__name__", None) if not callable(getattr(agent, "act", None)) else None
        )
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
