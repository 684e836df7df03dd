"""The plan runner: every batch-shaped call (simulate, matchups, sweep, tournament, balance)
plays its games through :func:`run_plan`.

A :class:`Plan` is a batch seed and a list of :class:`Cell` s. A cell is one configuration
(card data, decks, one bot spec per seat, parameter overrides, start seat) and a range of
game indices ``first_game .. first_game + games - 1``. The seeding scheme is the core's and
the same for every feature: game ``i`` of a plan with seed ``s`` is game ``i`` of
``simulate(decks, bots, seed=s, params=..., start_player=...)`` (each game's own seed is
derived from ``(s, i)``), a pure function of (card set, params, decks, bots, start seat,
``s``, ``i``). So how the games are grouped into cells and cut into shards never changes
them: :func:`run_plan` cuts every cell into :class:`Shard` s of at most ``shard_size``
games, plays each with the Rust batch (``first_game`` offsets), and concatenates the results
in plan order, equal for any shard size.

A shard is a small picklable description and :func:`run_shard` a module-level function, so
a ``concurrent.futures.Executor`` (``executor=``) can run shards elsewhere; without one they
run here, one after the other, each on the core's thread pool with the GIL released.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import json
import signal
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Optional, Union

import numpy as np
import polars as pl

from .. import _core
from ..game.agents import has_agents, validation_bots
from ..game.decks import deck_label
from ..game.driver import Block, BlockCounts, Played, provide
from ..game.validate import bot_label
from ..results.frames import (
    card_records_frame,
    games_frame,
    players_frame,
    plays_frame,
    seat_factions,
)
from . import live
from .agents import play_games
from .progress import Meter, Progress
from .reduce import CardCounts, Stats

__all__ = [
    "Cell",
    "Plan",
    "Shard",
    "Frames",
    "Outcomes",
    "run_plan",
    "run_shard",
    "shards",
    "card_ids",
    "OUTPUTS",
    "ShardError",
    "merge_shards",
    "describe_shard",
    "run_tasks",
]

#: What a cell's games are returned as: ``"frames"`` (the games, players and card-record
#: tables, and plays when recorded, as polars DataFrames), ``"games"`` (the games table only)
#: or ``"outcomes"`` (the core's raw per-game numpy columns: game, seed, winner (-1 none),
#: turns, rounds, end_reason, start_player, actions; no conversion), or ``"stats"`` (a
#: :class:`ketharmad.run.reduce.Stats` of integer counts, no rows: memory does not grow with the
#: games; a cell's shards merge exactly, in plan order), or ``"card_counts"`` (a
#: :class:`ketharmad.run.reduce.CardCounts`: the shard's card records, and plays when recorded,
#: counted per faction and card where the shard runs; only the counts travel back).
OUTPUTS = ("frames", "games", "outcomes", "stats", "card_counts")

ParamValue = Union[int, bool, str]


@functools.lru_cache(maxsize=4)
def card_ids(text: str) -> tuple[str, ...]:
    """The card ids of a card-data text in card-definition index order (bit k = row k)."""
    return tuple(_core.card_table(text)["id"])


@dataclass(frozen=True, eq=False)
class Cell:
    """One configuration and a range of game indices of a plan.

    ``bots`` holds one spec per seat; ``params`` the overrides as given to the core;
    ``start_player`` None (drawn per game from its seed) or a fixed seat; ``label`` names the
    cell in error messages."""

    card_text: str
    decks: tuple[str, ...]
    bots: tuple[Any, ...]
    params: Mapping[str, ParamValue]
    first_game: int
    games: int
    start_player: Optional[int] = None
    record_plays: bool = False
    output: str = "frames"
    label: str = ""

    def __post_init__(self) -> None:
        if self.output not in OUTPUTS:
            raise ValueError(
                f"cell output must be one of {', '.join(OUTPUTS)}, got {self.output!r}"
            )
        if self.output == "stats" and self.record_plays:
            raise ValueError("a cell with output='stats' keeps no rows: it cannot record plays")
        if len(self.bots) != len(self.decks):
            raise ValueError(
                f"a cell needs one bot per seat: {len(self.decks)} decks, {len(self.bots)} bots"
            )
        if self.games < 1 or self.first_game < 0:
            raise ValueError(
                f"a cell plays games first_game .. first_game + games - 1 with games >= 1 and "
                f"first_game >= 0, got first_game={self.first_game}, games={self.games}"
            )

    def describe(self) -> dict[str, Any]:
        """The cell without its card text: decks, bots, params, start player, game range."""
        return {
            "decks": list(self.decks),
            "bots": [bot_label(b) for b in self.bots],
            "params": dict(self.params),
            "start_player": self.start_player,
            "first_game": self.first_game,
            "games": self.games,
        }


@dataclass(eq=False)
class Plan:
    """A batch seed and the cells to play, in result order."""

    seed: int
    cells: list[Cell] = field(default_factory=list)

    @property
    def games(self) -> int:
        return sum(c.games for c in self.cells)

    def add(self, cell: Cell) -> int:
        """Append ``cell``; returns its index."""
        self.cells.append(cell)
        return len(self.cells) - 1

    def validate(self) -> None:
        """Check every distinct configuration with the core before any game runs; a
        ``ValueError`` names the cell (its ``label``) and the problem."""
        seen: set[str] = set()
        for c in self.cells:
            key = repr((id(c.card_text), c.decks, c.bots, sorted(c.params.items())))
            if key in seen:
                continue
            seen.add(key)
            try:
                _core.validate(c.card_text, list(c.decks), validation_bots(c.bots), dict(c.params))
            except ValueError as e:
                raise ValueError(f"{c.label}: {e}" if c.label else str(e)) from None

    def describe(self) -> list[dict[str, Any]]:
        """One dict per cell (see :meth:`Cell.describe`): the plan's provenance."""
        return [c.describe() for c in self.cells]


@dataclass(frozen=True, eq=False)
class Shard:
    """Games ``first_game .. first_game + games - 1`` of one cell, with the plan's seed:
    everything :func:`run_shard` needs (picklable)."""

    cell: Cell
    seed: int
    first_game: int
    games: int
    threads: Optional[int] = None
    index: int = 0  # the cell's index in its plan


@dataclass
class Frames:
    """The converted tables of one shard or cell (``players``/``card_records`` are None for
    ``output="games"``; ``plays`` is None unless plays were recorded)."""

    games: pl.DataFrame
    players: Optional[pl.DataFrame]
    card_records: Optional[pl.DataFrame]
    plays: Optional[pl.DataFrame]


#: The raw per-game numpy columns of a shard or cell (``output="outcomes"``).
Outcomes = dict[str, np.ndarray]


def shards(
    plan: Plan, shard_size: Optional[int] = None, threads: Optional[int] = None
) -> Iterator[Shard]:
    """The plan's shards in plan order: each cell cut into consecutive pieces of at most
    ``shard_size`` games (None: one shard per cell)."""
    if shard_size is not None and shard_size < 1:
        raise ValueError(f"shard_size must be >= 1, got {shard_size}")
    for k, c in enumerate(plan.cells):
        step = c.games if shard_size is None else shard_size
        offset, end = c.first_game, c.first_game + c.games
        while offset < end:
            n = min(step, end - offset)
            yield Shard(c, plan.seed, offset, n, threads, k)
            offset += n


def run_shard(shard: Shard) -> Union[Frames, Outcomes, Stats, CardCounts]:
    """Play one shard with the Rust batch (or, for a cell with Python agents, game by game:
    :func:`_run_agent_shard`) and return it as its cell's ``output`` asks."""
    c = shard.cell
    if has_agents(c.bots):
        return _run_agent_shard(shard)
    if c.output == "stats":
        raw_stats = _core.simulate_stats(
            c.card_text, list(c.decks), list(c.bots), shard.games, shard.seed, shard.threads,
            dict(c.params), start_player=c.start_player, first_game=shard.first_game,
        )  # fmt: skip
        return Stats.from_core(raw_stats, c.decks)
    raw = _core.simulate(
        c.card_text, list(c.decks), list(c.bots), shard.games, shard.seed, shard.threads,
        dict(c.params), start_player=c.start_player, record_plays=c.record_plays,
        first_game=shard.first_game,
    )  # fmt: skip
    return _converted(c, raw, shard.games)


def _run_agent_shard(shard: Shard) -> Union[Frames, Outcomes, Stats, CardCounts]:
    """A shard of a cell with Python agents (:mod:`ketharmad.game.agents`): played game by game
    with :class:`ketharmad.Game` (built-in seats in Rust between the agents' calls); its
    columns are those the Rust batch builds (``_core.columns_of``), converted by the same
    code; ``"stats"`` are reduced from the frames (:meth:`Stats.from_frames`)."""
    c = shard.cell
    raw = play_games(c.card_text, c.decks, c.bots, c.params, shard.seed, shard.first_game, shard.games,
                     start_player=c.start_player, record_plays=c.record_plays)  # fmt: skip
    if c.output == "stats":
        games = games_frame(raw["games"])
        players = players_frame(
            raw["players"], [bot_label(b) for b in c.bots], [deck_label(d) for d in c.decks]
        )
        return Stats.from_frames(games, players, c.decks)
    return _converted(c, raw, shard.games)


def _converted(c: Cell, raw: dict[str, Any], n_games: int) -> Union[Frames, Outcomes, CardCounts]:
    """A shard's raw core columns (``_core.simulate``'s dict) as its cell's ``output`` asks
    (any but ``"stats"``)."""
    if c.output == "outcomes":
        return dict(raw["games"])
    if c.output == "card_counts":
        # counted here, from this shard's frames only: memory is bounded by the shard
        records = card_records_frame(raw["players"])
        plays = (
            plays_frame(raw["plays"], seat_factions(raw["players"], c.decks), card_ids(c.card_text))
            if c.record_plays
            else None
        )
        raw.clear()
        return CardCounts.from_frames(records, plays, c.decks, card_ids(c.card_text), games=n_games)
    games = games_frame(raw["games"])
    if c.output == "games":
        return Frames(games, None, None, None)
    players = players_frame(
        raw["players"], [bot_label(b) for b in c.bots], [deck_label(d) for d in c.decks]
    )
    return Frames(
        games=games,
        players=players,
        card_records=card_records_frame(raw["players"], players["faction"]),
        plays=plays_frame(
            raw["plays"], seat_factions(raw["players"], c.decks), card_ids(c.card_text)
        )
        if c.record_plays
        else None,
    )


#: At most this many games in one core call of :func:`run_shards_together` (its columns,
#: about 100-350 bytes a game with the per-seat ones, are held at once).
TOGETHER_GAMES = 100_000


def _together_key(s: Shard) -> Any:
    c = s.cell
    if c.output != "outcomes" or c.record_plays or has_agents(c.bots):
        return None
    return (len(c.decks), s.seed, s.threads, json.dumps(sorted(dict(c.params).items())))


def _outcome_group(work: Sequence[Shard], k: int) -> list[Shard]:
    """``work[k]`` and the shards right after it that one core call can play with it
    (:func:`run_shards_together`): ``"outcomes"`` cells of the same card data, parameters,
    number of seats, seed and threads."""
    key = _together_key(work[k])
    group = [work[k]]
    if key is None:
        return group
    text = work[k].cell.card_text
    games = work[k].games
    for s in work[k + 1 :]:
        if _together_key(s) != key or (s.cell.card_text is not text and s.cell.card_text != text):
            break
        games += s.games
        if games > TOGETHER_GAMES:  # the core call's columns are held at once: bound them
            break
        group.append(s)
    return group


def run_shards_together(group: Sequence[Shard]) -> list[Outcomes]:
    """Play several ``"outcomes"`` shards of one card set, parameters, seat count, seed and
    threads in one core call (``_core.simulate_cells``) and return each shard's outcomes, the
    same arrays :func:`run_shard` gives for it: a balance evaluation is dozens of cells of a
    few dozen games, and one call pays the per-call cost (thread wake-up, the tail of the
    parallel loop, the conversion) once instead of per cell."""
    s0 = group[0]
    c0 = s0.cell
    raw = _core.simulate_cells(
        c0.card_text,
        [(list(s.cell.decks), list(s.cell.bots), s.first_game, s.games, s.cell.start_player) for s in group],
        s0.seed, s0.threads, dict(c0.params),
    )  # fmt: skip
    games = raw["games"]
    out: list[Outcomes] = []
    at = 0
    for s in group:
        out.append({k: v[at : at + s.games] for k, v in games.items()})
        at += s.games
    return out


class ShardError(RuntimeError):
    """A shard failed on an executor: the message names its cell, game range and seed (so
    ``play(decks, bots, seed=seed, index=i, ...)`` can replay a game of it); the worker's
    exception is the ``__cause__``."""


def describe_shard(s: Shard) -> str:
    """The cell (label or index, decks, bots, params), game range and seed of a shard."""
    c = s.cell
    name = c.label or f"cell {s.index}"
    params = f", params {dict(c.params)}" if c.params else ""
    start = "" if c.start_player is None else f", start_player {c.start_player}"
    return (
        f"{name} ({' vs '.join(c.decks)}, bots {[bot_label(b) for b in c.bots]}{params}{start}): "
        f"games {s.first_game}..{s.first_game + s.games - 1} of the batch with seed {s.seed}"
    )


def _join(parts: list[Any], output: str) -> Any:
    if len(parts) == 1:
        return parts[0]
    if output == "stats" or (parts and callable(getattr(parts[0], "merge", None))):
        # a mergeable statistics object (integer sums): merged exactly, in plan order
        return functools.reduce(lambda a, b: a.merge(b), parts)
    if output == "outcomes":
        if not parts:
            return {}
        return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}

    # no rechunk: the pieces stay as they are (one memory chunk each), so the peak is the
    # result plus one shard, not twice the result
    def cat(name: str) -> Optional[pl.DataFrame]:
        got = [getattr(p, name) for p in parts]
        return None if got[0] is None else pl.concat(got, rechunk=False)

    return Frames(cat("games"), cat("players"), cat("card_records"), cat("plays"))  # type: ignore[arg-type]  # games: never None


def merge_shards(plan: Plan, work: Sequence[Shard], results: Sequence[Any]) -> list[Any]:
    """One result per cell of ``plan``, in plan order, from the shard results (``results[k]``
    is what ``work[k]`` returned; ``work`` in plan order as :func:`shards` yields it): frames
    and outcome columns are concatenated, a result with a ``merge`` method (a statistics
    object) is merged with the next one. :func:`run_plan` gives the same: it merges such
    results as they come in, in this order, instead of keeping them all first."""
    per_cell: list[list[Any]] = [[] for _ in plan.cells]
    for s, r in zip(work, results, strict=True):
        per_cell[s.index].append(r)
    return [_join(parts, c.output) for parts, c in zip(per_cell, plan.cells, strict=True)]


def _mergeable(result: Any) -> bool:
    return callable(getattr(result, "merge", None))


class _Collected:
    """The shard results of a run as they come in (in any order): a result with a ``merge``
    method (a statistics object) is merged into its cell's total as soon as every earlier
    shard of the cell is in (in plan order, as :func:`merge_shards` merges; one that comes
    early waits), and dropped; other results are kept for :func:`merge_shards`. So a run
    of reductions holds one total per cell and the few results that came early, however
    many shards it has."""

    def __init__(self, plan: Plan, work: Sequence[Shard]) -> None:
        self.plan = plan
        self.work = work
        self.kept: list[Any] = [None] * len(work)
        self.total: dict[int, Any] = {}  # cell -> the merge of its shards up to next[cell]
        self.early: dict[int, Any] = {}  # shard position -> a result waiting for earlier ones
        self.next: dict[int, int] = {}  # cell -> position of its next shard to merge
        for k, s in enumerate(work):
            self.next.setdefault(s.index, k)

    def put(self, k: int, result: Any) -> None:
        if not _mergeable(result):
            self.kept[k] = result
            return
        self.early[k] = result
        cell = self.work[k].index
        while self.next[cell] in self.early:
            j = self.next[cell]
            r = self.early.pop(j)
            self.total[cell] = r if cell not in self.total else self.total[cell].merge(r)
            self.next[cell] = j + 1  # a cell's shards are consecutive in ``work``

    def results(self) -> list[Any]:
        """One result per cell, in plan order (as :func:`merge_shards` gives them)."""
        assert not self.early, "every shard's result is in"
        per_cell: list[list[Any]] = [[] for _ in self.plan.cells]
        for s, r in zip(self.work, self.kept, strict=True):
            if s.index not in self.total:
                per_cell[s.index].append(r)
        return [self.total[k] if k in self.total else _join(parts, c.output)
                for k, (parts, c) in enumerate(zip(per_cell, self.plan.cells, strict=True))]  # fmt: skip


def _cancel(executor: Any, futures: Sequence[Any]) -> None:
    cancel_all = getattr(executor, "cancel_all", None)
    if callable(cancel_all):
        cancel_all()  # one request for every task (a Dask client)
        return
    for f in futures:
        if f is not None:
            f.cancel()


@contextlib.contextmanager
def _sigint_flag() -> Iterator[threading.Event]:
    """While the body runs on the main thread with Python's default SIGINT handler, Ctrl-C
    only sets the yielded flag: the waiting loop raises ``KeyboardInterrupt`` itself. (A
    handler that raised could fire inside a garbage-collection callback of the cluster
    client, where Python reports the exception as unraisable and drops it.)"""
    flag = threading.Event()
    installed = False
    if threading.current_thread() is threading.main_thread():
        try:
            if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
                signal.signal(signal.SIGINT, lambda signum, frame: flag.set())
                installed = True
        except ValueError:  # not the main interpreter
            installed = False
    try:
        yield flag
    finally:
        if installed:
            signal.signal(signal.SIGINT, signal.default_int_handler)


#: Shards in flight on an executor at once, when it does not say (``shard_window``): the rest
#: are submitted as these finish, so neither the client nor the scheduler holds every shard
#: (each carries its card text) of a long run.
SHARD_WINDOW = 256


def _run_on(
    executor: Any,
    work: Sequence[Any],
    meter: Optional[Meter],
    keep: Callable[[int, Any], None],
    fn: Optional[Callable[[Any], Any]] = None,
    describe: Optional[Callable[[Any], str]] = None,
) -> None:
    """Submit ``fn(w)`` (default :func:`run_shard`) for the items of ``work``, at most
    ``executor.shard_window`` (else :data:`SHARD_WINDOW`) in flight at once and the next as
    one finishes; advance ``meter`` as each finishes (in completion order) and hand its
    result to ``keep(k, result)`` (the future is dropped then, so finished results do not
    pile up); on the first failure (or Ctrl-C) cancel the rest and raise (a failed item as
    :class:`ShardError`, named by ``describe``, default :func:`describe_shard`). The wait
    wakes every 100 ms, so Ctrl-C is seen within that."""
    run = run_shard if fn is None else fn
    name = describe_shard if describe is None else describe
    window = getattr(executor, "shard_window", None) or SHARD_WINDOW
    where: dict[Any, int] = {}  # the futures not taken yet -> item position
    nxt = 0
    with _sigint_flag() as interrupted:
        try:
            pending: set[Any] = set()
            while nxt < len(work) or pending:
                while nxt < len(work) and len(pending) < window:
                    if interrupted.is_set():
                        raise KeyboardInterrupt
                    f = executor.submit(run, work[nxt])
                    where[f] = nxt
                    pending.add(f)
                    nxt += 1
                done, pending = concurrent.futures.wait(
                    pending, timeout=0.1, return_when=concurrent.futures.FIRST_COMPLETED
                )
                if interrupted.is_set():
                    raise KeyboardInterrupt
                for f in sorted(done, key=lambda f: where[f]):
                    k = where[f]
                    try:
                        got = f.result()
                    except concurrent.futures.CancelledError:
                        raise ShardError(f"shard cancelled: {name(work[k])}") from None
                    except Exception as e:
                        raise ShardError(
                            f"shard failed: {name(work[k])}: {type(e).__name__}: {e}"
                        ) from e
                    del where[f]
                    keep(k, got)
                    if meter is not None:
                        meter.advance(work[k].games)
                del done
        except BaseException:
            _cancel(executor, list(where))
            raise


def run_plan(
    plan: Plan,
    *,
    threads: Optional[int] = None,
    shard_size: Optional[int] = None,
    progress: Union[None, bool, Meter] = None,
    executor: Any = None,
    label: str = "",
) -> list[Any]:
    """Play every cell of ``plan`` and return one result per cell, in plan order: a
    :class:`Frames` (``output="frames"``/``"games"``) or :data:`Outcomes` (``"outcomes"``),
    the concatenation of its shards', or a :class:`~ketharmad.run.reduce.Stats` (``"stats"``)
    or :class:`~ketharmad.run.reduce.CardCounts` (``"card_counts"``), the merge of its shards'
    (as :func:`merge_shards` gives them). A reduction is merged into its cell's total as soon
    as the cell's earlier shards are in, so memory holds one total per cell, not one result
    per shard.

    ``shard_size``: games per shard (None: one shard per cell, or the executor's
    ``shard_games`` when it has one, as a cluster's does); results do not depend on it.
    ``threads``: core threads per shard (None: all cores, or the executor's
    ``shard_threads``). ``progress``: a :class:`~ketharmad.run.progress.Progress` advanced
    after every shard (the caller closes it), or True for a progress line of its own.
    ``executor``: None plays the shards here one by one; a ``concurrent.futures.Executor``
    gets every shard submitted as ``run_shard(shard)``, the meter advances as they finish
    and the results are merged in plan order. A shard that fails raises here with its cell,
    game range and seed (:class:`ShardError` from an executor; a note on the exception
    here). Ctrl-C raises ``KeyboardInterrupt`` within about a second (the core stops
    between games; with an executor the pending shards are cancelled).
    """
    meter: Optional[Meter]
    own = progress is True
    if isinstance(progress, bool) or progress is None:
        meter = Progress(plan.games, label, enabled=True) if progress else None
    else:
        meter = progress
    if executor is not None:
        if shard_size is None:
            shard_size = getattr(executor, "shard_games", None)
        if threads is None:
            threads = getattr(executor, "shard_threads", None)
    work = list(shards(plan, shard_size, threads))
    collected = _Collected(plan, work)
    live.plan_started(plan.describe, plan.games)

    def keep(k: int, result: Any) -> None:
        live.shard_done(work[k].index, work[k].games, result)  # before a reduction is merged
        collected.put(k, result)

    try:
        if executor is None:
            k = 0
            while k < len(work):
                group = _outcome_group(work, k)
                try:
                    results = run_shards_together(group) if len(group) > 1 else [run_shard(work[k])]
                except Exception as e:
                    e.add_note(
                        f"in shard {describe_shard(work[k])}"
                        + (
                            f" (and the {len(group) - 1} shard(s) after it, played together)"
                            if len(group) > 1
                            else ""
                        )
                    )
                    raise
                for j, r in enumerate(results):
                    keep(k + j, r)
                if meter is not None:
                    meter.advance(sum(w.games for w in group))
                k += len(group)
        else:
            _run_on(executor, work, meter, keep)
    except KeyboardInterrupt:
        if meter is not None:
            meter.interrupt()  # end the progress line
        raise
    if own and isinstance(meter, Progress):
        meter.close()
    return collected.results()


def run_tasks(
    fn: Callable[[Any], Any],
    tasks: Sequence[Any],
    keep: Callable[[int, Any], None],
    *,
    executor: Any = None,
    progress: Optional[Meter] = None,
    describe: Callable[[Any], str] = str,
) -> None:
    """Run ``fn(task)`` for every task and hand each result to ``keep(k, result)`` (``k`` the
    task's index) instead of keeping it: for reductions, whose results are small and merge
    exactly in any order (integer sums), so memory does not grow with the number of tasks.
    ``fn`` is a module-level function and the tasks picklable (an executor may run them
    elsewhere, like :func:`run_shard` and its shards); each task has ``games`` (the meter
    advances by it) and ``describe(task)`` names it in errors.

    Without ``executor`` the tasks run here in order and ``keep`` sees them in order; with
    one, tasks are submitted a window at a time and ``keep`` sees them as they finish (completion
    order). Failures, Ctrl-C and the meter behave as in :func:`run_plan`."""
    live.plan_started(None, sum(int(getattr(t, "games", 0)) for t in tasks))

    def kept(k: int, got: Any) -> None:
        live.shard_done(None, int(getattr(tasks[k], "games", 0)), got)
        keep(k, got)

    try:
        if executor is None:
            for k, t in enumerate(tasks):
                try:
                    got = fn(t)
                except Exception as e:
                    e.add_note(f"in {describe(t)}")
                    raise
                kept(k, got)
                if progress is not None:
                    progress.advance(t.games)
        else:
            _run_on(executor, tasks, progress, fn=fn, describe=describe, keep=kept)
    except KeyboardInterrupt:
        if progress is not None:
            progress.interrupt()
        raise


def seat_bots(spec: Any, n: int) -> tuple[Any, ...]:
    """One copy of a single bot spec per seat."""
    return tuple(dict(spec) if isinstance(spec, Mapping) else spec for _ in range(n))


def cell(
    card_text: str,
    decks: Sequence[str],
    bots: Sequence[Any],
    params: Mapping[str, ParamValue],
    first_game: int,
    games: int,
    **kw: Any,
) -> Cell:
    """A :class:`Cell` from lists (a convenience for callers)."""
    return Cell(card_text, tuple(decks), tuple(bots), dict(params), first_game, games, **kw)


def play_blocks(
    blocks: Sequence[Block],
    seed: int,
    *,
    card_text: str,
    params: Mapping[str, ParamValue],
    threads: Optional[int] = None,
    executor: Any = None,
) -> tuple[list[BlockCounts], list[dict[str, Any]]]:
    """Kétharmad's :meth:`~ketharmad.game.driver.GameDriver.play_blocks`: one plan with seed
    ``seed``, one cell per block reduced to :class:`~ketharmad.run.reduce.Stats` in its shards
    (memory does not grow with the games), the counts and the plan's description."""
    played = play_cells(blocks, seed, card_text=card_text, params=params, threads=threads,
                        executor=executor)  # fmt: skip
    counts = [BlockCounts(st.games, tuple(st.wins_seat), st.unfinished) for st in played.results]
    assert played.plan is not None
    return counts, played.plan


def play_cells(
    blocks: Sequence[Block],
    seed: int,
    *,
    card_text: str,
    params: Mapping[str, ParamValue],
    rows: bool = False,
    threads: Optional[int] = None,
    executor: Any = None,
    progress: Union[None, bool, Meter] = None,
    shard_size: Optional[int] = None,
) -> Played:
    """Kétharmad's :meth:`~ketharmad.game.driver.GameDriver.play_cells`: one plan with seed
    ``seed``, one cell per block (its decks, bots, start player, parameters, label;
    ``output="frames"`` with ``rows``, else ``"stats"``: reduced in its shards, memory flat
    in the games), every cell validated before any game runs; the results (:class:`Frames`
    or :class:`~ketharmad.run.reduce.Stats`) and the plan's description."""
    plan = _plan_of(blocks, seed, card_text, params, rows)
    plan.validate()
    results = run_plan(
        plan, threads=threads, shard_size=shard_size, progress=progress, executor=executor
    )
    return Played(results, None, plan.describe())


def check_cells(
    blocks: Sequence[Block], seed: int, *, card_text: str, params: Mapping[str, ParamValue]
) -> None:
    """Kétharmad's :meth:`~ketharmad.game.driver.GameDriver.check_cells`: the core validates
    every distinct cell of the blocks' plan (:meth:`Plan.validate`); no game runs."""
    _plan_of(blocks, seed, card_text, params, False).validate()


def _plan_of(
    blocks: Sequence[Block], seed: int, card_text: str, params: Mapping[str, ParamValue], rows: bool
) -> Plan:
    plan = Plan(seed)
    for b in blocks:
        assert b.decks is not None, "a Kétharmad block names its decks"
        plan.add(cell(card_text, b.decks, b.bots, params if b.params is None else b.params, b.first_game,
                      b.games, start_player=b.start_player, output="frames" if rows else "stats",
                      label=b.label))  # fmt: skip
    return plan


provide(ketharmad_blocks=play_blocks, ketharmad_cells=play_cells, ketharmad_check_cells=check_cells)
