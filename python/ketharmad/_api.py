"""The public entry points: simulate, play, cards, parameters."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any, Optional, Union

import polars as pl

from . import _core
from ._data import CardDataSource, describe_card_data, load_card_data
from ._frames import card_frame, games_frame, parameter_frame, players_frame
from ._results import GameLog, SimResult
from ._validate import (
    bot_label,
    check_bots,
    check_decks,
    check_int,
    check_params,
    check_seed,
    check_threads,
)

__all__ = ["simulate", "play", "cards", "parameters"]

BotsArg = Union[str, Mapping[str, Any], Sequence[Union[str, Mapping[str, Any]]]]


def simulate(
    decks: Sequence[str] = ("ner", "tisza"),
    bots: BotsArg = "random",
    games: int = 1000,
    seed: int = 0,
    threads: Optional[int] = None,
    params: Optional[Mapping[str, Union[int, bool, str]]] = None,
    card_data: CardDataSource = None,
) -> SimResult:
    """Play ``games`` bot games in parallel and return the results as polars tables.

    Args:
        decks: one faction name per seat (2-4 seats), from ``ketharmad.FACTIONS``; seat 0
            plays ``decks[0]``. The same faction may appear twice (mirror match).
        bots: one bot spec for every seat (``"random"`` or ``{"kind": "random", ...}``) or a
            list with exactly one spec per seat.
        games: number of games, > 0.
        seed: batch seed, >= 0. Game ``i`` gets its own seed derived from it, so results do
            not depend on ``threads``; ``play(..., seed=seed, game=i)`` replays game ``i``.
        threads: worker threads; None = all cores.
        params: parameter overrides ``{name: value}``, see :func:`parameters`.
        card_data: None for the packaged card file, or the path of a card-data TOML file.

    Returns:
        A :class:`SimResult` with ``.games``, ``.players`` and ``.summary()``.

    Raises:
        ValueError: on any invalid argument, parameter or card data.
    """
    decks_ = check_decks(decks)
    bots_ = check_bots(bots, len(decks_))
    games_ = check_int("games", games, 1)
    seed_ = check_seed(seed)
    threads_ = check_threads(threads)
    params_ = check_params(params)
    text = load_card_data(card_data)

    start = time.perf_counter()
    raw = _core.simulate(text, decks_, bots_, games_, seed_, threads_, params_)
    games_df = games_frame(raw["games"])
    players_df = players_frame(raw["players"], [bot_label(b) for b in bots_])
    elapsed = time.perf_counter() - start

    return SimResult(
        games_df,
        players_df,
        decks=decks_,
        bots=bots_,
        seed=seed_,
        params=params_,
        threads=threads_,
        card_data=describe_card_data(card_data),
        elapsed=elapsed,
    )


def play(
    decks: Sequence[str],
    bots: BotsArg = "random",
    seed: int = 0,
    game: int = 0,
    params: Optional[Mapping[str, Union[int, bool, str]]] = None,
    card_data: CardDataSource = None,
) -> GameLog:
    """Replay one game with its full log.

    ``play(decks, bots, seed, game=k, params)`` replays exactly game ``k`` of
    ``simulate(decks, bots, seed=seed, params=params, ...)``: same winner, length and final
    state. Print the result (``print(log)``) to read the game.

    Raises:
        ValueError: on any invalid argument, parameter or card data.
    """
    decks_ = check_decks(decks)
    bots_ = check_bots(bots, len(decks_))
    seed_ = check_seed(seed)
    game_ = check_int("game", game, 0)
    params_ = check_params(params)
    text = load_card_data(card_data)
    raw = _core.play(text, decks_, bots_, seed_, game_, params_)
    return GameLog(raw, decks=decks_, bots=bots_, batch_seed=seed_, game=game_, params=params_)


def cards(card_data: CardDataSource = None) -> pl.DataFrame:
    """The card reference: one row per distinct card, in file order.

    Columns include ``id, name, faction, type, copies, cost, influence, credibility,
    keywords, text`` (``influence``/``credibility`` are null for cards without them).
    """
    return card_frame(_core.card_table(load_card_data(card_data)))


def parameters(card_data: CardDataSource = None) -> pl.DataFrame:
    """The tunable parameters accepted by ``params=``: name, default, kind, min, max, card,
    description (``default_str`` holds the default of ``cost`` parameters such as
    ``"{1}{M}"``)."""
    return parameter_frame(_core.parameter_table(load_card_data(card_data)))
