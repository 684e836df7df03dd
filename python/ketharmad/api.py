"""The public entry points: simulate, play, cards, parameters."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Union, Unpack

import polars as pl

from . import _core
from ._deprecation import issue_deprecation_warning
from .game.agents import validation_bots
from .game.data import CardDataSource, describe_card_data, load_card_data
from .game.driver import driver_for, format_table, provide
from .game.formats import apply_format
from .game.harness_play import HarnessLog, play_game
from .game.spec import GameSpec, SetupKeywords, setup_of, spec_of, take_setup
from .game.validate import (
    check_bots,
    check_chunk_size,
    check_decks,
    check_flag,
    check_int,
    check_params,
    check_seed,
    check_start_player,
    check_threads,
)
from .results.export import match_parameters
from .results.frames import (
    CARD_RECORD_COLUMNS,
    GAME_COLUMNS,
    PLAYER_COLUMNS,
    card_frame,
    parameter_frame,
)
from .results.replay_html import write_replay
from .results.sim import GameLog, SimResult
from .run.cluster import check_cluster_arg, executor_for
from .run.harness import simulate_game
from .run.memory import available_memory, check_memory, memory_needed  # noqa: F401 (available_memory, memory_needed: re-exported)
from .run.options import RunArg, RunOptions, fold_run_options
from .run.plan import Frames, Plan, card_ids, cell, run_plan  # noqa: F401 (card_ids, Frames: re-exported)
from .run.progress import Progress, auto_chunk_size

if TYPE_CHECKING:
    from polars._typing import PolarsDataType  # a DataType instance or class

__all__ = ["simulate", "play", "cards", "parameters", "replay_html"]

BotsArg = Union[str, Mapping[str, Any], Sequence[Union[str, Mapping[str, Any]]]]


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
    executor: Any = None,
) -> Frames:
    """Play games ``first_game .. first_game + games - 1`` of a batch (already validated
    arguments) through the plan runner: one cell, in shards of ``chunk_size`` games, each
    shard's raw numpy columns converted right away (the card-record bitsets stay six uint64
    columns per seat)."""
    plan = Plan(seed, [cell(text, decks, bots, params, first_game, games,
                            start_player=start_player, record_plays=record_plays)])  # fmt: skip
    (frames,) = run_plan(
        plan, threads=threads, shard_size=chunk_size, progress=progress, executor=executor
    )
    return frames


def _simulate_other_game(
    game: Any,
    decks: Any,
    bots: Any,
    games: int,
    seed: int,
    threads: Optional[int],
    params: Any,
    first_game: int,
    **ketharmad_only: Any,
) -> SimResult:
    """``simulate(..., game=...)`` for a game on the generic harness: refuse what only
    Kétharmad takes, then run :func:`ketharmad.games.simulate_game`."""
    driver = driver_for(game)  # unknown game: ValueError listing the known ones
    defaults = {"card_data": None, "start_player": None, "record_plays": False, "progress": False,
                "format": None}  # fmt: skip
    run = {k: ketharmad_only.pop(k) for k in ("chunk_size", "executor", "cluster")}
    refused = {"decks": decks is not _DEFAULT_DECKS}
    refused |= {k: v is not defaults[k] and v != defaults[k] for k, v in ketharmad_only.items()}
    driver.refuse("simulate", refused, "bots (one spec per seat), games, seed, threads, params, first_game, "
                  "chunk_size, executor and cluster")  # fmt: skip
    if isinstance(bots, str):
        bots = [bots] * driver.spec.min_seats
    result = simulate_game(game, bots=bots, games=games, seed=seed, threads=threads,
                           params=dict(params) if params is not None else None, first_game=first_game,
                           **run)  # fmt: skip
    assert isinstance(result, SimResult)  # output="rows"
    return result


#: simulate's default decks (identity tells "not given" apart for the other games).
_DEFAULT_DECKS: tuple[str, ...] = ("ner", "tisza")


@fold_run_options("threads", "chunk_size", "progress", "executor", "cluster")
def simulate(
    decks: Sequence[str] = _DEFAULT_DECKS,
    bots: BotsArg = "random",
    games: int = 1000,
    seed: int = 0,
    *,
    params: Optional[Mapping[str, Union[int, float, bool, str]]] = None,
    record_plays: bool = False,
    first_game: int = 0,
    game: Union[str, GameSpec] = "ketharmad",
    run: RunArg = None,
    **setup: Unpack[SetupKeywords],
) -> SimResult:
    """Play ``games`` bot games in parallel and return the results as polars tables.

    Args:
        decks: one deck per seat (2-4 seats; 3-4 in the circle, 5-9 in war of the gods,
            docs/formats.md); seat 0 plays ``decks[0]``. A deck is a faction name from
            ``ketharmad.FACTIONS``, a Mixed deck ``"a+b"`` (R16.4, E90: 9 non-Base cards and
            6 Bases from each faction, dealt per game), a custom list
            ``{"name": ..., "cards": {card_id: copies}}`` or a deck file path (docs/decks.md);
            ``players["deck"]`` carries its label. Two decks taking cards from one faction deck
            (a mirror match) need ``params={"rules.allow_mirror": True}``.
        bots: one bot spec for every seat (``"random"`` or ``{"kind": "random", ...}``) or a
            list with exactly one spec per seat. A seat may be played by a Python agent
            instead: a callable ``agent(observation, legal_actions, rng) -> action_id`` or
            an object with ``act(observation, legal_actions) -> action_id`` (its ``rng``
            attribute is set before every call; optional ``reset(seat, rng)`` hook at the
            start of every game). ``rng`` is a ``numpy.random.Generator`` seeded with
            ``(seed, game index, seat)``, so the batch is reproducible. A batch with any
            agent is played game by game with :class:`ketharmad.Game` (built-in seats still
            decide in Rust; ``threads`` is not used) and is much slower: see
            ``SimResult.games_per_second`` and docs/python_agents.md. An answer that is not
            a legal action id raises ``ValueError`` naming the seat and the legal ids.
        games: number of games, > 0.
        seed: batch seed, >= 0. Game ``i`` gets its own seed derived from it, so results do
            not depend on ``run.threads``; ``play(..., seed=seed, index=i)`` replays game ``i``.
        run: how the games run, none of it changing the rows: a :class:`ketharmad.RunOptions`
            or a dict of its fields ``threads``, ``chunk_size``, ``progress``, ``executor``,
            ``cluster`` (below; ``rows`` is not used here: a ValueError). The older keywords
            ``threads=``, ``chunk_size=``, ... work until 0.3.0, with a DeprecationWarning.
        run.threads: worker threads, 1 to 1024 (``ValueError`` above); None = all cores. More
            threads than the machine has cores are not started (results never depend on the
            thread count); pools are built once per size and reused.
        params: parameter overrides ``{name: value}``, see :func:`parameters`.
        card_data: None for the packaged card file, or the path of a card-data TOML file (a
            setup keyword, as ``format`` and ``start_player``: SetupKeywords).
        start_player: None (default) = the start seat is drawn per game from the game's seed;
            a seat index fixes the start seat of every game.
        record_plays: also record every card played or recruited (``.plays``: game, seat,
            faction, card id, turn); costs memory (about 30 rows per game).
        run.chunk_size: play the batch as consecutive core calls of this many games
            (``first_game`` offsets) and append each chunk's tables as it is converted,
            without copying them together at the end (the returned DataFrames hold one
            memory chunk per call; ``df.rechunk()`` makes one, at the cost of a copy). The
            rows are exactly those of one call. It bounds the *working* memory: peak memory
            is about the result tables plus one chunk's raw columns and their conversion,
            instead of the result plus the working memory of the whole batch. It does not
            shrink the result itself (about 300 bytes per 2-seat game). None = one call.
        run.progress: write a progress line (games done, games/s, time left) to stderr after
            every chunk; without ``chunk_size`` a chunk size of about 1/50 of the batch
            (at least 2,000 games) is used (on a cluster: as the shards finish).
        run.executor: None, or a ``concurrent.futures.Executor`` the plan runner
            (:mod:`ketharmad.run.plan`) submits its shards (``chunk_size`` games each, one
            shard without it) to; the rows are the same.
        run.cluster: run on Dask (the ``dask`` extra, docs/scale_out.md): ``"local"`` (a
            LocalCluster of one single-threaded worker process per core, closed at the end),
            a scheduler address or a ``dask.distributed.Client``. Shards of ``chunk_size``
            games (default ``CLUSTER_SHARD_GAMES``, 10,000) on ``threads`` core threads each
            (default 1); the rows are the same. Not together with ``executor``.
        first_game: play games ``first_game .. first_game + games - 1`` of the batch with
            this seed (default 0): the same rows as those of one bigger call, so a run can
            be cut into ranges by hand (one per machine, say) and the pieces concatenated;
            the ``game`` column holds the absolute index.
        format: the game format (docs/formats.md): None or ``"ffa"`` (the free-for-all,
            R15), ``"quick"`` (R16.1), ``"coalition"`` (2 against 2, R16.2-R16.3: exactly 4
            decks, seats 0 + 2 against 1 + 3, a shared 30 Support per team,
            ``format.coalition.support``; both partners of the winning team have ``won``,
            the ``winner`` column holds the lower seat), ``"pairs"`` (pairs play, V2:
            Coalition with 40 Support, the loss checked at the end of a turn, priority by
            team, one attacked opponent per Campaign, the right to decline the start),
            ``"diplomacy"`` (V1: 3 or 4 decks, a non-aggression pact between seats 0 and 1
            that the built-in bots honour; the ``pacts_broken`` column counts breaks),
            another shipped format, a format of
            the card data, or a user format given as a dict (``{"name": "mine", "base":
            "coalition", "support": 25}``) or the path of a TOML file with one
            ``[formats.NAME]`` table. It is the parameter ``rules.format``, so the result's
            ``params`` carry it.
        game: ``"ketharmad"`` (default) or another game of :func:`ketharmad.games`
            (``"schotten_totten_2"``, ``"osztrakon"``), or a :class:`ketharmad.GameSpec`
            (:func:`ketharmad.load_game`: the game with its setup; keywords given here add to
            it, ``params`` merged over the spec's, any other key set in both a ValueError).
            Another game plays the harness batch (``ketharmad.games.simulate_game``) (``bots``: one spec string for every seat at the
            game's smallest seat count, or one per seat; ``games``, ``seed``, ``threads``,
            ``params``, ``first_game``) and returns its :class:`SimResult` (harness columns); the
            Kétharmad-only arguments (``decks``, ``card_data``, ``start_player``,
            ``record_plays``, ``chunk_size``, ``progress``, ``executor``, ``cluster``,
            ``format``) are refused with a ValueError naming them.

    Returns:
        A :class:`SimResult` with ``.games``, ``.players``, ``.card_records`` (the opening /
        drawn / played card sets per game and seat), ``.plays`` (None unless
        ``record_plays``) and ``.summary()``.

    Raises:
        ValueError: on any invalid argument, parameter or card data, and before any game
            runs when the results would not fit in the memory available (the message says
            how much is needed and what would fit).
        KeyboardInterrupt: on Ctrl-C, within about a second (the games stop between games).
    """
    card_data, format, start_player = take_setup(
        "simulate", setup, ("card_data", "format", "start_player")
    )
    run = RunOptions.of(run)
    threads, chunk_size, progress, executor, cluster = (run.threads, run.chunk_size, run.progress,
                                                        run.executor, run.cluster)  # fmt: skip
    if isinstance(game, GameSpec):  # a game value: its setup, with this call's explicit keywords
        spec, decks_given, card_data, format, start_player, params = setup_of(
            game, "simulate", ("seats",), decks=None if decks is _DEFAULT_DECKS else decks, card_data=card_data,
            format=format, start_player=start_player, params=params)  # fmt: skip
        game, decks, bots = (
            spec.name,
            _DEFAULT_DECKS if decks_given is None else decks_given,
            spec.seat_bots(bots),
        )
    if not spec_of(game).is_ketharmad:
        return _simulate_other_game(
            game, decks, bots, games, seed, threads, params, first_game,
            card_data=card_data, start_player=start_player, record_plays=record_plays, chunk_size=chunk_size,
            progress=progress, executor=executor, cluster=cluster, format=format,
        )  # fmt: skip
    decks_ = check_decks(decks)
    bots_ = check_bots(bots, len(decks_), agents=True)
    games_ = check_int("games", games, 1)
    seed_ = check_seed(seed)
    threads_ = check_threads(threads)
    text, params_ = apply_format(load_card_data(card_data), check_params(params), format)
    start_ = check_start_player(start_player, len(decks_))
    chunk_ = check_chunk_size(chunk_size)
    first_ = check_int("first_game", first_game, 0)
    if first_ + games_ > 2**63 - 1:
        raise ValueError(f"first_game + games must be below 2^63, got {first_} + {games_}")
    if not isinstance(record_plays, bool):
        raise ValueError(f"record_plays must be True or False, got {record_plays!r}")
    progress = check_flag("progress", progress)
    check_cluster_arg(cluster, executor)
    if progress and chunk_ is None and cluster is None:
        chunk_ = auto_chunk_size(games_)
    check_memory(
        f"simulate(games={games_:,})", games_, len(decks_), chunk_ or games_,
        record_plays=record_plays, chunked=chunk_ is not None,
    )  # fmt: skip
    if chunk_ is not None and chunk_ < games_:
        # fail on bad decks / bots / params before the first chunk prints anything
        _core.validate(text, decks_, validation_bots(bots_), params_)
    meter = Progress(games_, "simulate", enabled=bool(progress)) if progress else None

    if cluster is not None or executor is not None:
        _core.validate(
            text, decks_, validation_bots(bots_), params_
        )  # here, before any shard is sent
    start = time.perf_counter()
    with executor_for(executor, cluster) as ex:
        frames = run_batch(
            text, decks_, bots_, games_, seed_, threads_, params_, start_player=start_,
            record_plays=record_plays, chunk_size=chunk_, progress=meter, executor=ex,
            first_game=first_,
        )  # fmt: skip
    elapsed = time.perf_counter() - start
    if meter is not None:
        meter.close()
    assert frames.players is not None  # run_batch converts every table

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
        first_game=first_,
    )


def play(
    decks: Sequence[str] = _DEFAULT_DECKS,
    bots: BotsArg = "random",
    seed: int = 0,
    game: Union[str, GameSpec, int] = "ketharmad",
    params: Optional[Mapping[str, Union[int, bool, str]]] = None,
    card_data: CardDataSource = None,
    start_player: Optional[int] = None,
    format: Optional[str] = None,
    index: Optional[int] = None,
) -> GameLog | HarnessLog:  # HarnessLog for another game
    """Replay one game with its full log.

    ``play(decks, bots, seed, index=k, params)`` replays exactly game ``k`` of
    ``simulate(decks, bots, seed=seed, params=params, ...)``: same winner, length and final
    state. Print the result (``print(log)``) to read the game. Pass the same ``start_player``
    as the batch (e.g. to replay a game of :func:`ketharmad.matchups`, whose ``games`` rows
    carry ``batch_seed``, ``game`` and ``start_player``). ``format`` as in :func:`simulate`.

    ``game``: a game name (``"ketharmad"``, the default, ``"schotten_totten_2"`` or
    ``"osztrakon"``) or a :class:`ketharmad.GameSpec` (:func:`ketharmad.load_game`: its setup
    is used, explicit keywords add to it). An int ``game`` is the older form of ``index``
    (``play(decks, bots, seed, game=k)`` still replays game ``k``, with a DeprecationWarning:
    deprecated in 0.2.0, removed in 0.3.0; giving both an int ``game`` and ``index`` is an
    error). Another game (docs/games.md): ``bots`` one spec
    string for every seat at the game's smallest seat count or one per seat (Schotten Totten
    2: ``[attacker, defender]``; Osztrakon: 5-12), ``seed``, ``index`` and ``params`` (the
    game's); it replays game ``index`` of :func:`ketharmad.games.simulate_game` with the same
    arguments and returns a :class:`ketharmad.game.harness_play.HarnessLog` (``.actions``: one row
    per decision with its ``describe_action`` label; ``.winner``, ``.turns``,
    ``.end_reason``); ``decks``, ``card_data``, ``start_player`` and ``format`` are refused
    with a ValueError naming them.

    Raises:
        ValueError: on any invalid argument, parameter or card data, and before any game
            runs when the results would not fit in the memory available (the message says
            how much is needed and what would fit).
        KeyboardInterrupt: on Ctrl-C, within about a second (the games stop between games).
    """
    if isinstance(game, GameSpec):  # a game value: its setup, with this call's explicit keywords
        spec, decks_given, card_data, format, start_player, params = setup_of(
            game, "play", ("seats",), decks=None if decks is _DEFAULT_DECKS else decks, card_data=card_data,
            format=format, start_player=start_player, params=params)  # fmt: skip
        game, decks, bots = (
            spec.name,
            _DEFAULT_DECKS if decks_given is None else decks_given,
            spec.seat_bots(bots),
        )
    if isinstance(game, str):
        name, game_ = game, (0 if index is None else index)
    else:
        if index is not None:
            raise ValueError(
                f"give the game's index once: index={index!r} or (the older form) game={game!r}; "
                "game= otherwise names the game ('ketharmad', 'schotten_totten_2', 'osztrakon')"
            )
        issue_deprecation_warning("play(game=<int>) as the game's index", "play(index=...)")
        name, game_ = "ketharmad", game
    driver = driver_for(name)
    if not driver.is_ketharmad:
        driver.refuse("play", {"decks": decks is not _DEFAULT_DECKS, "card_data": card_data is not None,
                               "start_player": start_player is not None, "format": format is not None},
                      "bots (one spec per seat), seed, index and params")  # fmt: skip
        return play_game(name, bots, seed=check_seed(seed), index=check_int("index", game_, 0),
                         params=dict(params) if params is not None else None)  # fmt: skip
    decks_ = check_decks(decks)
    bots_ = check_bots(bots, len(decks_))
    seed_ = check_seed(seed)
    game_ = check_int("game" if index is None else "index", game_, 0)
    text, params_ = apply_format(load_card_data(card_data), check_params(params), format)
    start_ = check_start_player(start_player, len(decks_))
    raw = _core.play(text, decks_, bots_, seed_, game_, params_, start_player=start_)
    return GameLog(raw, decks=decks_, bots=bots_, batch_seed=seed_, game=game_, params=params_)


def replay_html(
    path: Union[str, os.PathLike[str]],
    game: Union[str, GameSpec] = "ketharmad",
    bots: Any = "random",
    seed: int = 0,
    index: int = 0,
    *,
    overwrite: bool = False,
    **setup: Any,
) -> Path:
    """Write the replay viewer of one game to ``path``: game ``index`` of the batch with
    ``seed``, exactly the game :func:`simulate` and :func:`play` give for the same arguments,
    as one self-contained offline HTML file (docs/replay.md). Returns the path.

    The page steps through the game decision by decision (arrow keys, Home/End): each seat's
    scores as a chart (Kétharmad: Support and Scandal), the zones on the table, every decision
    with its legal options, the chosen one and, for a search bot, each option's visits and
    mean reward at the root; hidden cards behind a switch (off by default).

    ``game``: ``"ketharmad"``, ``"schotten_totten_2"``, ``"osztrakon"`` or a
    :class:`GameSpec`; ``bots``: one spec for every seat or one per seat; ``setup``: what
    :func:`play` takes (``decks``, ``params``, ``card_data``, ``format``, ``start_player``;
    the other games ``params`` and ``seats``). The file is written atomically (never half a
    file); an existing one is refused unless ``overwrite``. Bad input is a ValueError
    naming it, before anything is written. The same as
    :func:`ketharmad.results.replay_html.write_replay`."""
    return write_replay(path, game, bots, seed, index, overwrite=overwrite, **setup)


def cards(
    card_data: CardDataSource = None, *, game: Union[str, GameSpec] = "ketharmad"
) -> pl.DataFrame:
    """The card reference: one row per distinct card, in file order.

    Columns include ``id, name, faction, type, copies, cost, influence, credibility,
    keywords, text`` (``influence``/``credibility`` are null for cards without them).

    ``game``: Kétharmad's (the default). The games on the generic harness have no card table
    (their cards are fixed components, not a card file): ``game="schotten_totten_2" |
    "osztrakon"`` is a ValueError saying so and naming the doc that describes the components
    (docs/schotten_totten2.md, docs/osztrakon.md); so is ``card_data`` with such a game.
    """
    if isinstance(game, GameSpec):
        spec, card_data = setup_of(game, card_data=card_data)
        game = spec.name
    driver = driver_for(game)
    if not driver.is_ketharmad:
        return driver.cards()  # a ValueError: no card table
    return _card_table(card_data)


def _card_table(card_data: CardDataSource) -> pl.DataFrame:
    """Kétharmad's card frame of ``card_data`` (:meth:`KetharmadDriver.cards`)."""
    return card_frame(_core.card_table(load_card_data(card_data)))


def parameters(
    card_data: CardDataSource = None,
    match: Optional[str] = None,
    *,
    game: Union[str, GameSpec] = "ketharmad",
) -> pl.DataFrame:
    """The tunable parameters accepted by ``params=``: name, default, kind, min, max, card,
    description (``default_str`` holds the default of ``cost`` parameters such as
    ``"{1}{M}"``). ``match``: only parameters whose name, card id or card name contains it,
    ignoring case and accents (``"orban"`` finds Orbán Viktor's); adds ``card_name``.

    ``game="schotten_totten_2" | "osztrakon"``: that game's parameter table from
    :func:`ketharmad.games` (:func:`ketharmad.games.harness_parameters`): ``name, kind,
    default, default_str, min, max, choices, description``; ``match`` then looks in the name
    and the description. ``card_data`` is Kétharmad's: a ValueError naming it with another
    game."""
    if isinstance(game, GameSpec):
        spec, card_data = setup_of(game, card_data=card_data)
        game = spec.name
    driver = driver_for(game)
    if not driver.is_ketharmad:
        driver.refuse("parameters", {"card_data": card_data is not None}, "match")
        return driver.param_table(match)
    return _parameter_table(card_data, match)


def _parameter_table(card_data: CardDataSource, match: Optional[str]) -> pl.DataFrame:
    """Kétharmad's parameter frame of ``card_data`` (:meth:`KetharmadDriver.param_table`)."""
    table = parameter_frame(_core.parameter_table(load_card_data(card_data)))
    if match is None:
        return table

    return match_parameters(table, _card_table(card_data), match)


#: The columns of :func:`games`, in order.
GAMES_SCHEMA: dict[str, PolarsDataType] = {
    "name": pl.String, "sides": pl.List(pl.String), "min_seats": pl.Int64, "max_seats": pl.Int64,
    "agents": pl.List(pl.String), "action_space": pl.Int64, "observation_len": pl.Int64, "n_parameters": pl.Int64,
}  # fmt: skip


def games() -> pl.DataFrame:
    """Every game the package simulates, one row each (Kétharmad first): ``name``, ``sides``
    (side names of an asymmetric game; Kétharmad's factions), ``min_seats``, ``max_seats``,
    ``agents`` (bot names), ``action_space``, ``observation_len`` and ``n_parameters`` (the
    rows of ``ketharmad.parameters(game=name)``, where each parameter's name, kind, default,
    range, choices and description are). All come from the Rust table
    (``_core.game_table``); Kétharmad's parameters are those of the packaged card file (every
    number, switch and choice, and the cost parameters), its agents the built-in bots plus
    ``"ismcts"``, the generic search of the harness. ``ketharmad.load_game(name)`` gives a
    game's :class:`ketharmad.GameSpec` (``.info``: its full row)."""
    rows = []
    for g in _core.game_table():
        n = parameters().height if GameSpec(g["name"]).is_ketharmad else len(g["parameters"])
        rows.append({k: g[k] for k in GAMES_SCHEMA if k != "n_parameters"} | {"n_parameters": n})
    return pl.DataFrame(rows, schema=GAMES_SCHEMA)


def formats(
    card_data: CardDataSource = None,
    format: object = None,
    *,
    game: Union[str, GameSpec] = "ketharmad",
) -> pl.DataFrame:
    """Every format of the card data (the shipped ``formats.toml`` and the card data's own
    ``[formats.NAME]`` tables; with ``format=`` a user format too), one row each, ``ffa``
    first, then by name: ``format, seats_min, seats_max, scoring, pools, played`` (whether
    the engine plays it: the core accepts a game of ``seats_min`` seats) and ``reason`` (the
    core's message when it does not, e.g. "format 'pairs' is not built yet: ...").

    The list comes from the core (the ``format.NAME.*`` parameters), so a format the engine
    learns to play shows ``played = True`` without a change here.

    Formats are Kétharmad's: ``game="schotten_totten_2" | "osztrakon"`` is a ValueError
    (those games have fixed seatings: Schotten Totten 2 Attacker vs Defender, Osztrakon 5-12
    seats, ``seats=``)."""
    if isinstance(game, GameSpec):  # a game value: its card data and format, with this call's
        spec, card_data, format = setup_of(game, card_data=card_data, format=format)
        game = spec.name
    driver = driver_for(game)
    if not driver.is_ketharmad:
        return driver.formats()  # a ValueError: no formats
    return format_table(card_data, format)


def _ketharmad_columns() -> dict[str, list[str]]:
    """The column names of a :class:`SimResult`'s tables (:attr:`KetharmadDriver.columns`)."""
    return {"games": list(GAME_COLUMNS), "players": list(PLAYER_COLUMNS),
            "card_records": list(CARD_RECORD_COLUMNS), "plays": ["game", "seat", "faction", "card", "turn"]}  # fmt: skip


provide(ketharmad_simulate=simulate, ketharmad_replay=play, ketharmad_parameters=_parameter_table,
        ketharmad_cards=_card_table, ketharmad_columns=_ketharmad_columns)  # fmt: skip
