"""One driver protocol for every game (issue 23 item 3), mirroring the Rust ``Rules``
(``rust/harness/mod.rs``): what an entry point or a lab feature asks of a game, asked of a
value instead of a name.

>>> from ketharmad.game.driver import driver_for
>>> d = driver_for("schotten_totten_2")
>>> d.sides(), d.seat_range()
(['attacker', 'defender'], (2, 2))
>>> d.check_bots("greedy")
['greedy', 'greedy']
>>> g = d.stepper(seed=1, index=3)          # game 3 of simulate(game=..., seed=1)
>>> d.play(["greedy", "random"], games=100)  # its SimResult

:func:`driver_for` takes a game name or a :class:`~ketharmad.game.spec.GameSpec` and gives a
:class:`KetharmadDriver` (Kétharmad: its fast batch path, card records, cards and formats) or a
:class:`HarnessDriver` (every other game of the core's game table). Entry points dispatch on
``driver.is_ketharmad`` or call a driver method; no code outside :mod:`ketharmad.game.spec`
compares a name with ``"ketharmad"``.

The drivers live in the game layer and import nothing above it. What only a higher layer can
do (Kétharmad's batch, its replay log, its card and parameter frames, the step object
:class:`ketharmad.Game`, the harness games' batch) is handed down by that layer when it is
imported (:func:`provide`, called by :mod:`ketharmad.api`, :mod:`ketharmad.step` and
:mod:`ketharmad.run.harness`): the arrows of the import graph still run one way.

:meth:`GameDriver.refuse` is the one refusal of the keywords a game does not take: each
driver words it for its game ("decks: Kétharmad only; play(game='osztrakon') takes ..." or
"seats: only for the games on the generic harness (...)").
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Optional, Protocol, Union, runtime_checkable

import numpy as np
import polars as pl

from .. import _core
from .data import CardDataSource, load_card_data
from .formats import ParamValue, _param_rows, _probe_decks, apply_format, format_info
from .harness import ParamValue as HarnessValue
from .harness import check_harness_bots, game_state, harness_parameters, no_card_table
from .harness_play import HarnessLog, play_game
from .spec import GameSpec, game_names, spec_of
from .validate import check_bots

__all__ = [
    "GameDriver",
    "Block",
    "BlockCounts",
    "Played",
    "SweepStats",
    "paired_counts",
    "PointOutcomes",
    "KetharmadDriver",
    "HarnessDriver",
    "driver_for",
    "provide",
    "format_table",
    "FORMATS_SCHEMA",
]

#: The columns of :meth:`GameDriver.formats` (``ketharmad.formats()``), in order.
FORMATS_SCHEMA = {"format": pl.String, "seats_min": pl.Int64, "seats_max": pl.Int64,
                  "scoring": pl.String, "pools": pl.String, "played": pl.Boolean, "reason": pl.String}  # fmt: skip

# -- what the layers above hand down (dependency inversion) --------------------------------

#: The implementations the layers above the game layer provide, by name (:func:`provide`).
_PROVIDED: dict[str, Callable[..., Any]] = {}

#: The names :func:`provide` takes, and who provides each.
PROVIDED_BY = {
    "ketharmad_simulate": "ketharmad.api (simulate(game=spec, ...))",
    "ketharmad_replay": "ketharmad.api (play(game=spec, ...))",
    "ketharmad_parameters": "ketharmad.api (the parameter frame of a card file)",
    "ketharmad_cards": "ketharmad.api (the card frame of a card file)",
    "ketharmad_columns": "ketharmad.api (the column names of SimResult's tables)",
    "ketharmad_stepper": "ketharmad.step (ketharmad.Game)",
    "harness_simulate": "ketharmad.run.harness (simulate_game)",
    "ketharmad_blocks": "ketharmad.run.plan (blocks of games reduced to counts, on the plan runner)",
    "ketharmad_cells": "ketharmad.run.plan (blocks of games as rows or reductions, on the plan runner)",
    "ketharmad_check_cells": "ketharmad.run.plan (the core's check of every distinct cell of a plan)",
    "ketharmad_points": "ketharmad.lab.sweep (every block at every point of a sweep, reduced to "
    "paired counts, on the plan runner)",
}


def provide(**impls: Callable[..., Any]) -> None:
    """Hand an implementation down to the drivers (called once by the module that owns it,
    when it is imported): a name of :data:`PROVIDED_BY` and a callable."""
    unknown = [k for k in impls if k not in PROVIDED_BY]
    if unknown:
        raise ValueError(
            f"provide: unknown name(s) {', '.join(unknown)} (known: {', '.join(PROVIDED_BY)})"
        )
    _PROVIDED.update(impls)


def _provided(name: str) -> Callable[..., Any]:
    try:
        return _PROVIDED[name]
    except KeyError:
        raise RuntimeError(
            f"{name} is provided by {PROVIDED_BY[name]} when it is imported; import ketharmad first"
        ) from None


# -- blocks of games (what a lab feature plays) ----------------------------------------------


@dataclass(frozen=True)
class Block:
    """One block of games a lab feature plays (a cell): one bot spec per seat, games
    ``first_game .. first_game + games - 1`` of the batch with the run's seed; ``decks``:
    Kétharmad's deck of every seat (None for the games on the generic harness);
    ``start_player``: Kétharmad's fixed start seat (None: drawn per game); ``params``: the
    block's own parameters instead of the run's (None: the run's); ``label``: the block's
    name in error messages."""

    bots: tuple[Any, ...]
    first_game: int
    games: int
    decks: Optional[tuple[str, ...]] = None
    start_player: Optional[int] = None
    params: Optional[Mapping[str, Any]] = None
    label: str = ""


@dataclass(frozen=True)
class BlockCounts:
    """A block's games reduced to counts: ``games``, ``wins`` (games won by each seat) and
    ``no_winner`` (games without a winner: Kétharmad's unfinished games)."""

    games: int
    wins: tuple[int, ...]
    no_winner: int


@dataclass
class Played:
    """What :meth:`GameDriver.play_cells` played: one result per block, in block order (with
    rows, Kétharmad a :class:`ketharmad.run.plan.Frames`, the harness games a
    :class:`ketharmad.SimResult`; without, their reductions: a
    :class:`ketharmad.run.reduce.Stats` or a :class:`ketharmad.GameStats`), ``seconds``: the
    wall time of each block when the driver plays them one by one (None: one plan for all),
    ``plan``: the plan the games ran as (Kétharmad, a list of cells) or None."""

    results: list[Any]
    seconds: Optional[list[float]] = None
    plan: Optional[list[dict[str, Any]]] = None


# -- a sweep's games: every block at every point, reduced to paired counts ---------------------


#: The fields of :attr:`SweepStats.turns`: the sum of the turns of a point's games, and the
#: sums of the per-game differences from the baseline point's turns and of their squares.
TURN_FIELDS = 3


@dataclass(frozen=True, eq=False)
class SweepStats:
    """The integer sufficient statistics of a sweep: everything its tables are computed from,
    for every game (:meth:`GameDriver.play_points`).

    ``counts[i, j]`` holds, for point ``i`` and block ``j`` (Kétharmad: a deck pairing, in
    ``.decks`` order; a harness game: its one lineup of bots), the int64 counts ``games,
    unfinished, no_winner``, then the games won by seat ``k`` for ``k < seats``, then for
    each seat ``k`` the *discordant* games: those where "seat ``k`` won" differs between
    point ``i`` and the baseline point (the same game index). With ``d = won - base_won`` in
    {-1, 0, 1} per game, the paired sums against the baseline are ``sum d = wins[i] -
    wins[baseline]`` and ``sum d² = discordant[i]`` (n = games), so the mean and the sample
    standard deviation of the per-game differences follow exactly. ``seats`` is the largest
    seat count of the run's blocks (a smaller one has zeros). ``turns[i, j]`` holds the sum
    of the games' turns and, against the baseline's turns of the same games, the sums of the
    differences and of their squares (the paired change of the game length).

    The statistics of a run equal the sum of those of its game ranges (:meth:`merge`), so
    they are merged exactly in any order and do not grow with the number of games."""

    seats: int
    counts: np.ndarray  # (points, blocks, 3 + 2 * seats) int64
    turns: Optional[np.ndarray] = None  # (points, blocks, TURN_FIELDS) int64; None: zeros

    def __post_init__(self) -> None:
        if self.turns is None:
            shape = (*self.counts.shape[:2], TURN_FIELDS)
            object.__setattr__(self, "turns", np.zeros(shape, dtype=np.int64))

    @classmethod
    def empty(cls, points: int, matchups: int, seats: int) -> SweepStats:
        return cls(seats, np.zeros((points, matchups, 3 + 2 * seats), dtype=np.int64))

    def merge(self, other: SweepStats) -> SweepStats:
        """The statistics of both sets of games (exact)."""
        if not isinstance(other, SweepStats) or other.counts.shape != self.counts.shape:
            raise ValueError("can only merge the SweepStats of the same points, matchups and seats")
        return SweepStats(self.seats, self.counts + other.counts, self.turn_sums + other.turn_sums)

    __add__ = merge

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, SweepStats) and other.seats == self.seats
                and np.array_equal(other.counts, self.counts)
                and np.array_equal(other.turn_sums, self.turn_sums))  # fmt: skip

    @property
    def turn_sums(self) -> np.ndarray:
        """:attr:`turns`, never None (typed)."""
        assert self.turns is not None  # set in __post_init__
        return self.turns

    def games(self, i: int, j: int) -> int:
        return int(self.counts[i, j, 0])

    def unfinished(self, i: int, j: int) -> int:
        return int(self.counts[i, j, 1])

    def no_winner(self, i: int, j: int) -> int:
        return int(self.counts[i, j, 2])

    def wins(self, i: int, j: int, seat: int = 0) -> int:
        return int(self.counts[i, j, 3 + seat])

    def discordant(self, i: int, j: int, seat: int = 0) -> int:
        return int(self.counts[i, j, 3 + self.seats + seat])

    def turns_total(self, i: int, j: int) -> int:
        """The sum of the turns of point ``i``'s games of block ``j``."""
        return int(self.turn_sums[i, j, 0])

    def turns_paired(self, i: int, j: int) -> tuple[int, int]:
        """``sum d`` and ``sum d²`` of the per-game turn differences from the baseline."""
        return int(self.turn_sums[i, j, 1]), int(self.turn_sums[i, j, 2])


def paired_counts(won: np.ndarray, no_winner: np.ndarray, unfinished: np.ndarray, turns: np.ndarray,
                  base_won: np.ndarray, base_turns: np.ndarray, seats: int) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """One :class:`SweepStats` count vector and turn vector from a point's games of a range
    (``won``: games x seats bool, a seat of a smaller game absent; ``no_winner``,
    ``unfinished`` bool masks; ``turns``) and the baseline point's ``won`` and ``turns`` of
    the same games."""
    w = np.asarray(won, dtype=bool)
    b = np.asarray(base_won, dtype=bool)
    if w.shape[0] != b.shape[0]:
        raise RuntimeError(
            f"sweep: a point played {w.shape[0]} games where the baseline played {b.shape[0]}"
        )
    out = np.zeros(3 + 2 * seats, dtype=np.int64)
    out[0] = w.shape[0]
    out[1] = np.count_nonzero(unfinished)
    out[2] = np.count_nonzero(no_winner)
    for k in range(min(seats, w.shape[1])):
        out[3 + k] = np.count_nonzero(w[:, k])
        out[3 + seats + k] = np.count_nonzero(w[:, k] != b[:, k])
    t = np.asarray(turns).astype(np.int64)
    d = t - np.asarray(base_turns).astype(np.int64)
    return out, np.array([t.sum(), d.sum(), (d * d).sum()], dtype=np.int64)


class PointOutcomes:
    """The per-game outcomes of one batch of a harness game (a :class:`SimResult`): ``won``
    (games x seats bool), ``turns``, ``no_winner``, ``unfinished`` and its ``games`` table,
    in game order."""

    def __init__(self, result: Any) -> None:
        g = result.games.sort("game")
        p = result.players.sort("game", "seat")
        seats = len(result.bots)
        self.n = g.height
        self.seats = seats
        self.won = p["won"].to_numpy().reshape(self.n, seats).astype(bool)
        self.turns = g["turns"].to_numpy().astype(np.float64)
        self.no_winner = (g["winners_mask"] == 0).to_numpy()
        self.unfinished = g["unfinished"].to_numpy().astype(bool)
        self.games = g


# -- the protocol ----------------------------------------------------------------------------


@runtime_checkable
class GameDriver(Protocol):
    """What every game answers (the Rust ``Rules``: name, seat range, sides, parameters,
    agents, new game; plus the batch and the tables of the Python package)."""

    spec: GameSpec

    @property
    def name(self) -> str:
        """The game's API name (``Rules::name``)."""
        ...

    @property
    def is_ketharmad(self) -> bool:
        """True for Kétharmad's driver (its fast batch path, card records, formats)."""
        ...

    def seat_range(self) -> tuple[int, int]:
        """The seat counts the game allows, inclusive (``Rules::seat_range``)."""
        ...

    def sides(self, seats: Optional[int] = None) -> list[str]:
        """The side names (``Rules::sides``) of a game of ``seats`` seats (None: the spec's
        :attr:`~GameSpec.n_seats`); a seat count outside :meth:`seat_range` is a ValueError."""
        ...

    def check_bots(self, bots: Any, seats: Optional[int] = None) -> list[Any]:
        """``bots`` as one checked spec per seat (one spec: every seat); a ValueError naming
        the bad spec or count."""
        ...

    def param_table(self, match: Optional[str] = None) -> pl.DataFrame:
        """The parameter table (``ketharmad.parameters(game=...)``; ``Rules::registry``)."""
        ...

    def cards(self) -> pl.DataFrame:
        """The card table (``ketharmad.cards``); a ValueError naming why for a game without one."""
        ...

    def formats(self, format: object = None) -> pl.DataFrame:
        """The format table (``ketharmad.formats``); a ValueError naming why for a game without."""
        ...

    @property
    def columns(self) -> dict[str, list[str]]:
        """The column names of the batch tables :meth:`play` returns, per table."""
        ...

    def stepper(self, seed: int = 0, index: int = 0, **options: Any) -> Any:
        """Game ``index`` of the batch with ``seed``, stopped at its first decision (the step
        object; ``Rules::new_game``)."""
        ...

    def play(self, bots: Any, games: int = 1000, seed: int = 0, first_game: int = 0,
             threads: Optional[int] = None, **run: Any) -> Any:  # fmt: skip
        """Games ``first_game ..`` of the batch with ``seed``: the game's batch result."""
        ...

    def replay(self, bots: Any, seed: int = 0, index: int = 0) -> Any:
        """Game ``index`` of the batch with ``seed``, with its log."""
        ...

    def play_blocks(self, blocks: Sequence[Block], seed: int, params: Mapping[str, Any],
                    threads: Optional[int] = None, executor: Any = None,
                    **setup: Any) -> tuple[list[BlockCounts], Optional[list[dict[str, Any]]]]:  # fmt: skip
        """Play ``blocks`` of the batch with ``seed`` reduced to counts (no rows), in order,
        the same for any ``threads`` or ``executor``; with the plan the games ran as (a list of
        cells, Kétharmad) or None. ``setup``: Kétharmad's ``card_text``."""
        ...

    def play_cells(self, blocks: Sequence[Block], seed: int, params: Mapping[str, Any], rows: bool = False,
                   threads: Optional[int] = None, executor: Any = None, progress: Any = None,
                   **setup: Any) -> Played:  # fmt: skip
        """Play ``blocks`` of the batch with ``seed``, in order, each as rows (``rows``) or
        reduced to the game's statistics, the same for any ``threads``, ``executor`` or
        ``setup["chunk_size"]``. ``progress``: a meter the games advance (Kétharmad).
        ``setup``: Kétharmad's ``card_text``; ``chunk_size`` (games per shard)."""
        ...

    def check_cells(self, blocks: Sequence[Block], seed: int, params: Mapping[str, Any],
                    **setup: Any) -> None:  # fmt: skip
        """A ValueError naming the problem when a block cannot be played, before any of
        :meth:`play_cells` runs (a bad deck, bot spec or parameter)."""

    def play_points(self, blocks: Sequence[Block], points: Sequence[Mapping[str, Any]], seed: int,
                    params: Mapping[str, Any], baseline: int, threads: Optional[int] = None,
                    executor: Any = None, **setup: Any
                    ) -> tuple[SweepStats, Optional[pl.DataFrame], Optional[list[dict[str, Any]]]]:  # fmt: skip
        """A sweep's games: every block at every point (``params`` with the point's overrides),
        the same games at every point (common random numbers), reduced to :class:`SweepStats`
        against point ``baseline``; with the per-game rows (``setup["rows"]``, or always for
        the harness games) or None, and the plan (Kétharmad) or None. The same for any
        ``threads``, ``executor`` or shard size. ``setup``: Kétharmad's ``card_text``,
        ``rows``, ``chunk_size``, ``progress``; a harness game's ``chunk_size``."""
        ...

    def refuse(self, call: str, given: Mapping[str, bool], takes: str = "") -> None:
        """A ValueError naming every keyword of ``given`` that is True (given by the caller)
        when the game does not take it; ``call`` is the entry point (``"play"``, or a command
        such as ``"ketharmad play"``), ``takes`` what it does take with this game."""
        ...


def _given(given: Mapping[str, bool]) -> list[str]:
    return [k for k, v in given.items() if v]


# -- Kétharmad -------------------------------------------------------------------------------


#: The fields of :class:`ketharmad.RunOptions` that ``play`` passes on as ``run=``.
_RUN_FIELDS = ("chunk_size", "progress", "executor", "cluster")


class KetharmadDriver:
    """Kétharmad: its own fast batch (``ketharmad.simulate``, the plan runner), its card
    records, cards and formats; setup from the spec (decks, card data, format, start player,
    parameters)."""

    def __init__(self, spec: GameSpec) -> None:
        if not spec.is_ketharmad:
            raise ValueError(f"KetharmadDriver is Kétharmad's; {spec.name} has a HarnessDriver")
        self.spec = spec

    def __repr__(self) -> str:
        return f"KetharmadDriver({self.spec!r})"

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def is_ketharmad(self) -> bool:
        return True

    def seat_range(self) -> tuple[int, int]:
        return self.spec.min_seats, self.spec.max_seats

    def sides(self, seats: Optional[int] = None) -> list[str]:
        """Kétharmad's sides are its factions (any faction on any seat), whatever ``seats``."""
        if seats is not None:
            _check_seat_count(self, seats)
        return list(self.spec.sides)

    def check_bots(self, bots: Any, seats: Optional[int] = None) -> list[Any]:
        """Built-in bot specs (str or dict) or Python agents, one per seat."""
        return check_bots(bots, self.spec.n_seats if seats is None else seats, agents=True)

    def param_table(self, match: Optional[str] = None) -> pl.DataFrame:
        """The parameters of the spec's card data (``ketharmad.parameters``)."""
        table: pl.DataFrame = _provided("ketharmad_parameters")(self.spec.card_data, match)
        return table

    def cards(self) -> pl.DataFrame:
        table: pl.DataFrame = _provided("ketharmad_cards")(self.spec.card_data)
        return table

    def formats(self, format: object = None) -> pl.DataFrame:
        """Every format of the spec's card data (``ketharmad.formats``): :func:`format_table`."""
        return format_table(self.spec.card_data, format)

    @property
    def columns(self) -> dict[str, list[str]]:
        """``games``, ``players``, ``card_records`` and ``plays`` (with ``record_plays``) of a
        :class:`ketharmad.SimResult`."""
        cols: dict[str, list[str]] = _provided("ketharmad_columns")()
        return cols

    def stepper(self, seed: int = 0, index: int = 0, **options: Any) -> Any:
        """A :class:`ketharmad.Game` of the spec (``options``: ``log``, ``record_plays``)."""
        return _provided("ketharmad_stepper")(game=self.spec, seed=seed, index=index, **options)

    def play(self, bots: Any, games: int = 1000, seed: int = 0, first_game: int = 0,
             threads: Optional[int] = None, **run: Any) -> Any:  # fmt: skip
        """``ketharmad.simulate(game=spec, ...)`` (its fast batch): a :class:`SimResult`.
        ``run``: ``record_plays``, ``chunk_size``, ``progress``, ``executor``, ``cluster``."""
        opts = {"threads": threads, **{k: run.pop(k) for k in _RUN_FIELDS if k in run}}
        return _provided("ketharmad_simulate")(game=self.spec, bots=bots, games=games, seed=seed,
                                               first_game=first_game, run=opts, **run)  # fmt: skip

    def replay(self, bots: Any, seed: int = 0, index: int = 0) -> Any:
        """``ketharmad.play(game=spec, ...)``: a :class:`ketharmad.GameLog`."""
        return _provided("ketharmad_replay")(game=self.spec, bots=bots, seed=seed, index=index)

    def play_blocks(self, blocks: Sequence[Block], seed: int, params: Mapping[str, Any],
                    threads: Optional[int] = None, executor: Any = None,
                    **setup: Any) -> tuple[list[BlockCounts], Optional[list[dict[str, Any]]]]:  # fmt: skip
        """One plan of the blocks (one cell each, ``output="stats"``) on the plan runner;
        ``setup["card_text"]``: the card data the games use (its format applied)."""
        played: tuple[list[BlockCounts], Optional[list[dict[str, Any]]]] = _provided(
            "ketharmad_blocks"
        )(blocks, seed, card_text=setup["card_text"], params=params, threads=threads,
          executor=executor)  # fmt: skip
        return played

    def play_cells(self, blocks: Sequence[Block], seed: int, params: Mapping[str, Any], rows: bool = False,
                   threads: Optional[int] = None, executor: Any = None, progress: Any = None,
                   **setup: Any) -> Played:  # fmt: skip
        """One plan of the blocks (one cell each: its decks, bots, start player and
        parameters; ``output="frames"`` with rows, else ``"stats"``) on the plan runner, every
        cell checked before any game runs; ``setup``: ``card_text`` (the card data, its format
        applied) and ``chunk_size`` (games per shard)."""
        played: Played = _provided("ketharmad_cells")(
            blocks, seed, card_text=setup["card_text"], params=params, rows=rows, threads=threads,
            executor=executor, progress=progress, shard_size=setup.get("chunk_size"))  # fmt: skip
        return played

    def check_cells(self, blocks: Sequence[Block], seed: int, params: Mapping[str, Any],
                    **setup: Any) -> None:  # fmt: skip
        """The core validates every distinct cell of the plan of the blocks (no game runs)."""
        _provided("ketharmad_check_cells")(
            blocks, seed, card_text=setup["card_text"], params=params
        )

    def play_points(self, blocks: Sequence[Block], points: Sequence[Mapping[str, Any]], seed: int,
                    params: Mapping[str, Any], baseline: int, threads: Optional[int] = None,
                    executor: Any = None, **setup: Any
                    ) -> tuple[SweepStats, Optional[pl.DataFrame], Optional[list[dict[str, Any]]]]:  # fmt: skip
        """One plan of a cell per point and block (point major) on the plan runner: with rows
        (``setup["rows"]``) every cell's games table, else range by range, each range of a
        block's games at every point reduced to counts where it runs (its fast reduced path);
        ``setup``: ``card_text``, ``rows``, ``chunk_size``, ``progress``."""
        played: tuple[SweepStats, Optional[pl.DataFrame], Optional[list[dict[str, Any]]]] = (
            _provided("ketharmad_points")(
                blocks, points, seed, params, baseline, threads=threads, executor=executor, **setup
            )  # fmt: skip
        )
        return played

    def refuse(self, call: str, given: Mapping[str, bool], takes: str = "") -> None:
        names = _given(given)
        if names:
            where = (f"`{call} --game schotten_totten_2 | osztrakon`" if call.startswith("ketharmad ")
                     else f"{call}(game='schotten_totten_2' | 'osztrakon', ...)")  # fmt: skip
            raise ValueError(
                f"{', '.join(names)}: only for the games on the generic harness ({where}); "
                "Kétharmad does not take "
                + ("it" if len(names) == 1 else "them")
                + (f" ({takes})" if takes else "")
            )


# -- the games on the generic harness --------------------------------------------------------


class HarnessDriver:
    """A game of the core's game table on the generic harness (Schotten Totten 2, Osztrakon):
    setup from the spec (seats, parameters)."""

    def __init__(self, spec: GameSpec) -> None:
        if spec.is_ketharmad:
            raise ValueError(
                "HarnessDriver is for the games on the generic harness; Kétharmad has a KetharmadDriver"
            )
        self.spec = spec

    def __repr__(self) -> str:
        return f"HarnessDriver({self.spec!r})"

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def is_ketharmad(self) -> bool:
        return False

    @property
    def _params(self) -> Optional[dict[str, HarnessValue]]:
        return self.spec.params or None

    def seat_range(self) -> tuple[int, int]:
        return self.spec.min_seats, self.spec.max_seats

    def sides(self, seats: Optional[int] = None) -> list[str]:
        """Schotten Totten 2: ``["attacker", "defender"]``; Osztrakon: ``[]`` (symmetric
        seats), for any seat count in :meth:`seat_range`."""
        _check_seat_count(self, self.spec.n_seats if seats is None else seats)
        return list(self.spec.sides)

    def check_bots(self, bots: Any, seats: Optional[int] = None) -> list[Any]:
        """Spec strings, one per seat; one spec: every seat of ``seats`` (None: the spec's
        :attr:`~GameSpec.n_seats`); each checked by the game's agent factory."""
        n = self.spec.n_seats if seats is None else seats
        if isinstance(bots, str):
            bots = [bots] * _check_seat_count(self, n)
        return check_harness_bots(self.name, bots)

    def param_table(self, match: Optional[str] = None) -> pl.DataFrame:
        """The game's registry (``Rules::registry``) as :func:`ketharmad.parameters` gives it."""
        return harness_parameters(self.name, match)

    def cards(self) -> pl.DataFrame:
        raise no_card_table(self.name, "cards")

    def formats(self, format: object = None) -> pl.DataFrame:
        raise ValueError(
            f"formats(game={self.name!r}): formats are Kétharmad's (its seatings and scorings); {self.name} has none "
            "(choose its seat count with seats=, see docs/games.md)"
        )

    @property
    def columns(self) -> dict[str, list[str]]:
        """``games`` and ``players`` of a :class:`ketharmad.SimResult` of the spec's seats
        (read from one game played by the core)."""
        cols = _harness_columns(
            self.name, self.spec.n_seats, tuple(sorted((self._params or {}).items()))
        )
        return {table: list(names) for table, names in cols.items()}  # a copy: the cache stays

    def stepper(self, seed: int = 0, index: int = 0, **options: Any) -> _core.HarnessGame:
        """A :class:`ketharmad.HarnessGame` (``ketharmad.games.game_state``) of the spec's
        seats and parameters; ``options``: ``seats`` (instead of the spec's)."""
        self.refuse("stepper", {k: True for k in options if k != "seats"}, "seed, index and seats")
        seats = options.get("seats", self.spec.seats)
        return game_state(self.name, seats=seats, seed=seed, game_index=index, params=self._params)

    def play(self, bots: Any, games: int = 1000, seed: int = 0, first_game: int = 0,
             threads: Optional[int] = None, **run: Any) -> Any:  # fmt: skip
        """``ketharmad.games.simulate_game`` of the spec: a :class:`ketharmad.SimResult` (a
        :class:`GameStats` with ``output="stats"``). ``bots``: one spec string per seat, or
        one for every seat of the spec's :attr:`~GameSpec.n_seats`. ``run``: ``output``,
        ``chunk_size``, ``executor``, ``cluster``."""
        if isinstance(bots, str):
            bots = [bots] * self.spec.n_seats
        return _provided("harness_simulate")(self.name, bots=bots, games=games, seed=seed, threads=threads,
                                             params=self._params, first_game=first_game, **run)  # fmt: skip

    def replay(self, bots: Any, seed: int = 0, index: int = 0) -> HarnessLog:
        """Game ``index`` with its log (:class:`ketharmad.game.harness_play.HarnessLog`)."""
        if isinstance(bots, str) and self.spec.seats is not None:
            bots = [bots] * self.spec.seats
        return play_game(self.name, bots, seed=seed, index=index, params=self._params)

    def play_blocks(self, blocks: Sequence[Block], seed: int, params: Mapping[str, Any],
                    threads: Optional[int] = None, executor: Any = None,
                    **setup: Any) -> tuple[list[BlockCounts], Optional[list[dict[str, Any]]]]:  # fmt: skip
        """Every block through ``simulate_game`` (``output="stats"``), one after the other
        (:meth:`play_cells` reduced to counts); ``setup``: ``chunk_size``. No plan (None)."""
        played = self.play_cells(blocks, seed, params, threads=threads, executor=executor, **setup)
        counts = [BlockCounts(int(r.games), tuple(int(w) for w in r.wins), int(r.no_winner))
                  for r in played.results]  # fmt: skip
        return counts, None

    def play_cells(self, blocks: Sequence[Block], seed: int, params: Mapping[str, Any], rows: bool = False,
                   threads: Optional[int] = None, executor: Any = None, progress: Any = None,
                   **setup: Any) -> Played:  # fmt: skip
        """Every block through ``simulate_game`` (``output="rows"`` with rows, else
        ``"stats"``), one after the other, each timed; ``setup``: ``chunk_size``. No plan;
        ``progress`` is Kétharmad's (ignored)."""
        simulate = _provided("harness_simulate")
        results, seconds = [], []
        for b in blocks:
            p = params if b.params is None else b.params
            t = time.perf_counter()
            results.append(simulate(self.name, bots=list(b.bots), games=b.games, seed=seed, threads=threads,
                                    params=dict(p) or None, first_game=b.first_game,
                                    output="rows" if rows else "stats", chunk_size=setup.get("chunk_size"),
                                    executor=executor))  # fmt: skip
            seconds.append(time.perf_counter() - t)
        return Played(results, seconds, None)

    def check_cells(self, blocks: Sequence[Block], seed: int, params: Mapping[str, Any],
                    **setup: Any) -> None:  # fmt: skip
        """One game (game 0 of the batch with ``seed``, one thread) of every bot spec of the
        blocks, in order of appearance, on every seat (the search bot, slow to play, against
        the random bot): an error names the bad spec, option or parameter."""
        for spec in dict.fromkeys(b for block in blocks for b in block.bots):
            k = len(blocks[0].bots)
            lineup = [spec] + ["random"] * (k - 1) if spec.startswith("search") else [spec] * k
            self.play_cells([Block(tuple(lineup), 0, 1)], seed, params, threads=1)

    def play_points(self, blocks: Sequence[Block], points: Sequence[Mapping[str, Any]], seed: int,
                    params: Mapping[str, Any], baseline: int, threads: Optional[int] = None,
                    executor: Any = None, **setup: Any
                    ) -> tuple[SweepStats, Optional[pl.DataFrame], Optional[list[dict[str, Any]]]]:  # fmt: skip
        """Every block at every point through ``simulate_game`` (rows), the points one after
        the other, counted against the baseline's games; the per-game rows (``point, game,
        seed, winner, winners_mask, turns, end_reason, unfinished``; one block) and no plan.
        ``setup``: ``chunk_size``."""
        simulate = _provided("harness_simulate")
        seats = max(len(b.bots) for b in blocks)
        outs = [[PointOutcomes(simulate(self.name, bots=list(b.bots), games=b.games, seed=seed, threads=threads,
                                        params={**params, **p}, first_game=b.first_game,
                                        chunk_size=setup.get("chunk_size"), executor=executor))
                 for b in blocks] for p in points]  # fmt: skip
        stats = SweepStats.empty(len(points), len(blocks), seats)
        for i, row in enumerate(outs):
            for j, o in enumerate(row):
                b = outs[baseline][j]
                stats.counts[i, j], stats.turn_sums[i, j] = paired_counts(
                    o.won, o.no_winner, o.unfinished, o.turns, b.won, b.turns, seats
                )
        rows = pl.concat([o.games.select("game", "seed", "winner", "winners_mask", "turns", "end_reason",
                                         "unfinished").with_columns(point=pl.lit(i, dtype=pl.Int32))
                          for i, row in enumerate(outs) for o in row])  # fmt: skip
        return stats, rows.select("point", pl.exclude("point")), None

    def refuse(self, call: str, given: Mapping[str, bool], takes: str = "") -> None:
        names = _given(given)
        if names:
            where = (
                f"`{call} --game {self.name}`"
                if call.startswith("ketharmad ")
                else f"{call}(game={self.name!r})"
            )
            raise ValueError(f"{', '.join(names)}: Kétharmad only; {where} takes {takes}")


def format_table(card_data: CardDataSource, format: object = None) -> pl.DataFrame:
    """Every format of Kétharmad's card data (the shipped and the card data's own; ``format``,
    a user format, too), ``ffa`` first, then by name, and whether the engine plays each (the
    core accepts a game of its smallest seat count), in :data:`FORMATS_SCHEMA`."""
    text, _ = apply_format(load_card_data(card_data), {}, format)
    rows = _param_rows(text)
    names = sorted(dict.fromkeys(n.split(".")[1] for n in rows), key=lambda n: (n != "ffa", n))
    out = []
    for name in names:
        info = format_info(text, {"rules.format": name})
        played, reason = True, None
        n = info.seats_min
        decks = _probe_decks(n)
        params: dict[str, ParamValue] = {"rules.format": name}
        if n > len(_core.FACTIONS):
            params["rules.allow_mirror"] = True
        try:
            _core.validate(text, decks, ["random"] * n, params)
        except ValueError as e:
            played, reason = False, str(e)
        out.append(dict(format=name, seats_min=info.seats_min, seats_max=info.seats_max, scoring=info.scoring,
                        pools=info.pools, played=played, reason=reason))  # fmt: skip
    return pl.DataFrame(out, schema=FORMATS_SCHEMA)


def _check_seat_count(driver: Union[KetharmadDriver, HarnessDriver], seats: object) -> int:
    lo, hi = driver.seat_range()
    if isinstance(seats, bool) or not isinstance(seats, int) or not lo <= seats <= hi:
        raise ValueError(f"{driver.name} takes {lo} to {hi} seats, got seats={seats!r}")
    return seats


@functools.lru_cache(maxsize=64)
def _harness_columns(
    name: str, seats: int, params: tuple[tuple[str, HarnessValue], ...]
) -> dict[str, list[str]]:
    raw = _core.generic_simulate(name, ["random"] * seats, 1, 0, 1, dict(params) or None, 0)
    return {"games": list(raw["games"]), "players": list(raw["players"])}


def driver_for(game: Union[str, GameSpec]) -> Union[KetharmadDriver, HarnessDriver]:
    """The driver of ``game`` (a name or a :class:`GameSpec`; a name: its spec with no
    setup, :func:`~ketharmad.game.spec.spec_of`). A name that is not a game is a ValueError
    listing the known games."""
    spec = spec_of(game)
    return KetharmadDriver(spec) if spec.is_ketharmad else HarnessDriver(spec)


def drivers() -> list[Union[KetharmadDriver, HarnessDriver]]:
    """The driver of every game, in the core's order (Kétharmad first)."""
    return [driver_for(n) for n in game_names()]
