"""Batches with Python agents in some seats (see :mod:`ketharmad.game.agents`), played game by
game: ``Game.advance(bots)`` plays the built-in seats until an agent must decide."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Optional

import numpy as np

from .. import _core
from ..game.agents import agent_label, is_agent, observes
from ..step import Game

__all__ = ["play_games", "call_agent"]


#: Finished games converted to columns at once (their core states are held until then).
COLUMNS_BLOCK = 512


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


def _new_game(
    card_text: str,
    decks: Sequence[str],
    params: Mapping[str, Any],
    seed: int,
    game_index: int,
    start_player: Optional[int],
    record_plays: bool,
) -> Any:
    """``ketharmad.Game`` from the card-data *text* of a plan cell (the public constructor
    takes a card set name or path): the core constructor the class itself calls."""
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
            out[table] = {
                k: np.concatenate([np.asarray(p[table][k]) for p in parts]) for k in first
            }
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
