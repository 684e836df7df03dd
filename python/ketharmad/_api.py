"""The public entry points: simulate, play, cards, parameters."""

from __future__ import annotations

import functools
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Optional, Union

import polars as pl

from . import _core
from ._data import CardDataSource, describe_card_data, load_card_data
from ._frames import (
    card_frame,
    card_records_frame,
    games_frame,
    parameter_frame,
    players_frame,
    plays_frame,
)
from ._progress import Progress, auto_chunk_size
from ._results import GameLog, SimResult
from ._validate import (
    bot_label,
    check_bots,
    check_decks,
    check_flag,
    check_int,
    check_params,
    check_seed,
    check_threads,
)

__all__ = ["simulate", "play", "cards", "parameters"]

BotsArg = Union[str, Mapping[str, Any], Sequence[Union[str, Mapping[str, Any]]]]


@functools.lru_cache(maxsize=4)
def card_ids(text: str) -> tuple[str, ...]:
    """The card ids of a card-data text in card-definition index order (bit k = row k)."""
    return tuple(_core.card_table(text)["id"])


def check_start_player(start_player: object, n_seats: int) -> Optional[int]:
    """None (random start seat per game) or a seat index in ``0..n_seats-1``."""
    if start_player is None:
        return None
    return check_int("start_player", start_player, 0, n_seats - 1)


def check_chunk_size(chunk_size: object) -> Optional[int]:
    """None (one call) or a chunk size >= 1."""
    if chunk_size is None:
        return None
    return check_int("chunk_size", chunk_size, 1)


@dataclass
class Frames:
    """The converted tables of one batch (or of several chunks, concatenated)."""

    games: pl.DataFrame
    players: pl.DataFrame
    card_records: pl.DataFrame
    plays: Optional[pl.DataFrame]


def run_batch(
    text: str,
    decks: list[str],
    bots: list[Any],
    games: int,
    seed: int,
    threads: Optional[int],
    params: dict[str, Union[int, bool, str]],
    *,
    start_player: Optional[int] = None,
    record_plays: bool = False,
    first_game: int = 0,
    chunk_size: Optional[int] = None,
    progress: Optional[Progress] = None,
) -> Frames:
    """Play games ``first_game .. first_game + games - 1`` of a batch (already validated
    arguments), in chunks of ``chunk_size`` games, and convert each chunk's raw numpy columns
    right away (the card-record bitsets stay six uint64 columns per seat)."""
    labels = [bot_label(b) for b in bots]
    ids = card_ids(text) if record_plays else ()
    step = games if chunk_size is None else min(chunk_size, games)
    parts: list[Frames] = []
    offset = first_game
    end = first_game + games
    while offset < end:
        n = min(step, end - offset)
        raw = _core.simulate(
            text, decks, bots, n, seed, threads, params,
            start_player=start_player, record_plays=record_plays, first_game=offset,
        )  # fmt: skip
        parts.append(
            Frames(
                games=games_frame(raw["games"]),
                players=players_frame(raw["players"], labels),
                card_records=card_records_frame(raw["players"]),
                plays=plays_frame(raw["plays"], decks, ids) if record_plays else None,
            )
        )
        del raw
        offset += n
        if progress is not None:
            progress.advance(n)
    if len(parts) == 1:
        return parts[0]
    return Frames(
        games=pl.concat([p.games for p in parts], rechunk=True),
        players=pl.concat([p.players for p in parts], rechunk=True),
        card_records=pl.concat([p.card_records for p in parts], rechunk=True),
        plays=pl.concat([p.plays for p in parts], rechunk=True) if record_plays else None,  # type: ignore[misc]
    )


def simulate(
    decks: Sequence[str] = ("ner", "tisza"),
    bots: BotsArg = "random",
    games: int = 1000,
    seed: int = 0,
    threads: Optional[int] = None,
    params: Optional[Mapping[str, Union[int, bool, str]]] = None,
    card_data: CardDataSource = None,
    start_player: Optional[int] = None,
    record_plays: bool = False,
    chunk_size: Optional[int] = None,
    progress: bool = False,
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
        start_player: None (default) = the start seat is drawn per game from the game's seed;
            a seat index fixes the start seat of every game.
        record_plays: also record every card played or recruited (``.plays``: game, seat,
            faction, card id, turn); costs memory (about 30 rows per game).
        chunk_size: play the batch in chunks of this many games (``first_game`` offsets) and
            concatenate; the result is exactly that of one call, but the core's raw arrays
            only ever hold one chunk. None = one call.
        progress: write a progress line (games done, games/s, time left) to stderr after
            every chunk; without ``chunk_size`` a chunk size of about 1/50 of the batch
            (at least 2,000 games) is used.

    Returns:
        A :class:`SimResult` with ``.games``, ``.players``, ``.card_records`` (the opening /
        drawn / played card sets per game and seat), ``.plays`` (None unless
        ``record_plays``) and ``.summary()``.

    Raises:
        ValueError: on any invalid argument, parameter or card data.
    """
    decks_ = check_decks(decks)
    bots_ = check_bots(bots, len(decks_))
    games_ = check_int("games", games, 1)
    seed_ = check_seed(seed)
    threads_ = check_threads(threads)
    params_ = check_params(params)
    start_ = check_start_player(start_player, len(decks_))
    chunk_ = check_chunk_size(chunk_size)
    if not isinstance(record_plays, bool):
        raise ValueError(f"record_plays must be True or False, got {record_plays!r}")
    progress = check_flag("progress", progress)
    text = load_card_data(card_data)
    if progress and chunk_ is None:
        chunk_ = auto_chunk_size(games_)
    if chunk_ is not None and chunk_ < games_:
        # fail on bad decks / bots / params before the first chunk prints anything
        _core.validate(text, decks_, bots_, params_)
    meter = Progress(games_, "simulate", enabled=bool(progress)) if progress else None

    start = time.perf_counter()
    frames = run_batch(
        text, decks_, bots_, games_, seed_, threads_, params_,
        start_player=start_, record_plays=record_plays, chunk_size=chunk_, progress=meter,
    )  # fmt: skip
    elapsed = time.perf_counter() - start
    if meter is not None:
        meter.close()

    return SimResult(
        frames.games,
        frames.players,
        card_records=frames.card_records,
        plays=frames.plays,
        start_player=start_,
        card_text=text,
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
    start_player: Optional[int] = None,
) -> GameLog:
    """Replay one game with its full log.

    ``play(decks, bots, seed, game=k, params)`` replays exactly game ``k`` of
    ``simulate(decks, bots, seed=seed, params=params, ...)``: same winner, length and final
    state. Print the result (``print(log)``) to read the game. Pass the same ``start_player``
    as the batch (e.g. to replay a game of :func:`ketharmad.matchups`, whose ``games`` rows
    carry ``batch_seed``, ``game`` and ``start_player``).

    Raises:
        ValueError: on any invalid argument, parameter or card data.
    """
    decks_ = check_decks(decks)
    bots_ = check_bots(bots, len(decks_))
    seed_ = check_seed(seed)
    game_ = check_int("game", game, 0)
    params_ = check_params(params)
    start_ = check_start_player(start_player, len(decks_))
    text = load_card_data(card_data)
    raw = _core.play(text, decks_, bots_, seed_, game_, params_, start_player=start_)
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
