"""Parameter sweeps over common random numbers, once for every game: every point of a grid
plays the same games (same batch seed, same game indices), and each point is compared with a
baseline point game by game (paired differences).

The game's side of :func:`sweep` decides the blocks of games every point plays (Kétharmad: one
per deck pairing; a harness game: its lineup of bots) and which rows the table reports (a
pairing's seat 0; every seat of the lineup); the driver plays them
(:meth:`~ketharmad.game.driver.GameDriver.play_points`: Kétharmad on the plan runner with its
fast reduced path, the others through ``simulate_game``) into one :class:`SweepStats`, and one
function computes the table's common columns (:data:`SWEEP_COLUMNS`) from it."""

from __future__ import annotations

import itertools
import json
import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Union, Unpack

import numpy as np
import polars as pl

from .. import _core
from ..game.data import MAX_TOML_DEPTH as MAX_SWEEP_DEPTH
from ..game.data import MAX_TOML_FILE_BYTES as MAX_SWEEP_FILE_BYTES
from ..game.data import (
    describe_card_data,
    flatten_table,
    load_card_data,
    read_toml_file,
    toml_depth,
)
from ..game.decks import deck_factions
from ..game.driver import Block, SweepStats, driver_for, paired_counts, provide
from ..game.formats import apply_format
from ..game.harness import (
    check_harness_bots,
    check_harness_params,
    harness_info,
    harness_seat_names,
    shape_harness_params,
)
from ..game.spec import GameSpec, SetupKeywords, setup_of, take_setup
from ..game.validate import (
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
from ..results.frames import card_frame, parameter_frame
from ..results.lab import LabResult, harness_parquet_provenance, harness_provenance
from ..results.lab_report import (
    _figure,
    _provenance_md,
    _save,
    _slug,
    harness_provenance_md,
    md_table,
    require_matplotlib,
)
from ..results.report import ci_text, format_table, pct, signed_pct
from ..run.cluster import check_cluster_arg, executor_for
from ..run.memory import check_memory
from ..run.options import RunArg, RunOptions, fold_run_options
from ..run.plan import Plan, Shard, cell, describe_shard, run_plan, run_shard, run_tasks
from ..run.progress import Progress
from ..stats import Z95, wilson_bounds
from .grid import grid_points
from .html_views import harness_sweep_views, sweep_views

__all__ = ["sweep", "SweepResult", "SweepStats", "SWEEP_COLUMNS", "grid_points", "deck_pairings", "load_sweep_file",
           "MAX_SWEEP_FILE_BYTES", "MAX_SWEEP_DEPTH", "ROWS_AUTO_LIMIT", "RANGE_GAMES"]  # fmt: skip

ParamValue = Union[int, float, bool, str]  # float: the harness games' parameters

#: The columns of :attr:`SweepResult.table` in every game, in order, after ``point`` and the
#: swept parameters (each game adds its own: Kétharmad the matchup, ``faction``, ``opponent``
#: and ``can_affect``; a harness game the ``seat``, ``side``, ``bot``, ``even_share`` and
#: ``significant``).
SWEEP_COLUMNS = ("games", "wins", "win_rate", "ci_low", "ci_high", "unfinished", "no_winner", "mean_turns",
                 "baseline", "current", "diff", "diff_ci_low", "diff_ci_high", "degenerate_ci", "paired_half_width",
                 "unpaired_half_width")  # fmt: skip

#: ``rows=None``: keep the per-game rows of a sweep of at most this many games (every point
#: and matchup counted), reductions (integer sums, memory flat in the number of games) above.
ROWS_AUTO_LIMIT = 1_000_000
#: Games per range of a sweep on reductions when neither ``chunk_size`` nor the executor
#: (a cluster's ``shard_games``) gives one: a range holds the outcomes of one point's games
#: (a few hundred bytes each, for a moment) and the baseline's (31 bytes each).
RANGE_GAMES = 50_000
#: ``end_reason`` codes of the unfinished games (a round or action cap).
_UNFINISHED = np.array(
    [i for i, r in enumerate(_core.END_REASONS) if r.startswith("unfinished")], dtype=np.uint8
)


def deck_pairings(decks: object) -> list[list[str]]:
    """``"all"`` (the 12 ordered pairs of different factions), one deck list such as
    ``["ner", "tisza"]``, or a list of deck lists."""
    if isinstance(decks, str):
        if decks != "all":
            raise ValueError(
                f"decks must be 'all', a deck list or a list of deck lists, got {decks!r}"
            )
        return [[a, b] for a, b in itertools.permutations(_core.FACTIONS, 2)]
    if (
        isinstance(decks, (list, tuple))
        and decks
        and all(not isinstance(d, (list, tuple)) for d in decks)
    ):
        return [check_decks(list(decks))]
    if isinstance(decks, (list, tuple)) and decks:
        out = [check_decks(list(d) if isinstance(d, (list, tuple)) else d) for d in decks]
        keys = [tuple(d) for d in out]
        if len(set(keys)) != len(keys):
            raise ValueError(f"decks: a pairing is listed twice in {out}")
        return out
    raise ValueError(
        f"decks must be 'all', a deck list or a non-empty list of deck lists, got {decks!r}"
    )


def matchup_label(decks: Sequence[str]) -> str:
    return " vs ".join(decks)


def _param_column(values: list[Any]) -> pl.Series:
    present = [v for v in values if v is not None]
    if present and all(isinstance(v, bool) for v in present):
        return pl.Series(values, dtype=pl.Boolean)
    if present and all(isinstance(v, int) and not isinstance(v, bool) for v in present):
        return pl.Series(values, dtype=pl.Int64)
    if present and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        return pl.Series([None if v is None else float(v) for v in values], dtype=pl.Float64)
    return pl.Series([None if v is None else str(v) for v in values], dtype=pl.String)


def _cell_counts(winner: np.ndarray, unfinished: np.ndarray, turns: np.ndarray, base_winner: np.ndarray,
                 base_turns: np.ndarray, seats: int) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """One :class:`SweepStats` count vector and turn vector from a Kétharmad point's games of a
    range (``winner`` -1 for none, ``unfinished`` a bool mask, ``turns``) and the baseline
    point's winners and turns of the same games."""
    w = np.asarray(winner)
    b = np.asarray(base_winner)
    if w.shape != b.shape:
        raise RuntimeError(
            f"sweep: a point played {w.shape[0]} games where the baseline played {b.shape[0]}"
        )
    seat = np.arange(seats)
    return paired_counts(
        w[:, None] == seat, w < 0, unfinished, turns, b[:, None] == seat, base_turns, seats
    )


@dataclass(frozen=True, eq=False)
class _Range:
    """Games ``first_game .. first_game + games - 1`` of one matchup at every point: a task
    of a reduced sweep (picklable; :func:`_reduce_range` runs it, here or on a worker)."""

    shards: tuple[Shard, ...]  # one per point, in point order, the same games
    base: int  # the baseline point
    seats: int
    matchup: int  # the matchup's index in the run

    @property
    def games(self) -> int:
        return sum(s.games for s in self.shards)


def _describe_range(r: _Range) -> str:
    s = r.shards[0]
    return (
        f"sweep range: games {s.first_game}..{s.first_game + s.games - 1} of the batch with seed {s.seed}, "
        f"decks {' vs '.join(s.cell.decks)}, every point ({len(r.shards)})"
    )


def _reduce_range(r: _Range) -> tuple[np.ndarray, np.ndarray]:
    """The counts (points x fields) and turn sums (points x 3) of one range: the baseline
    point's games first (their winners and turns kept for the range), then every other
    point's, each reduced and dropped."""

    def play(s: Shard) -> dict[str, np.ndarray]:
        try:
            return run_shard(s)  # type: ignore[return-value]  # an "outcomes" shard: numpy columns
        except Exception as e:
            e.add_note(f"in shard {describe_shard(s)}")
            raise

    base = play(r.shards[r.base])
    out = np.zeros((len(r.shards), 3 + 2 * r.seats), dtype=np.int64)
    turns = np.zeros((len(r.shards), 3), dtype=np.int64)
    for i, s in enumerate(r.shards):
        raw = base if i == r.base else play(s)
        out[i], turns[i] = _cell_counts(raw["winner"], np.isin(raw["end_reason"], _UNFINISHED), raw["turns"],
                                        base["winner"], base["turns"], r.seats)  # fmt: skip
    return out, turns


def _mean_sd(n: int, s1: int, s2: int) -> tuple[Optional[float], Optional[float]]:
    """Mean and sample standard deviation (ddof 1) of ``n`` values from their sum ``s1`` and
    sum of squares ``s2`` (integers): ``var = (s2 - s1²/n) / (n - 1)`` evaluated as the exact
    fraction ``(n·s2 - s1²) / (n·(n - 1))``, rounded once. None for what ``n`` cannot give."""
    if n < 1:
        return None, None
    mean = s1 / n
    if n < 2:
        return mean, None
    return mean, math.sqrt((n * s2 - s1 * s1) / (n * (n - 1)))


class SweepResult(LabResult):
    """The result of :func:`ketharmad.sweep`, for every game.

    Attributes:
        game: the game's name.
        table: one row per point and reported seat of a block: Kétharmad, each deck pairing's
            seat 0 (one row per point and matchup); a harness game, every seat of its lineup.
            ``point``, one column per swept parameter, the game's row columns, then the
            columns of every game (:data:`SWEEP_COLUMNS`), and the game's own (see
            :func:`ketharmad.sweep`).
        summary: one row per point. Kétharmad: its change of win rate against the baseline,
            averaged over the games of the matchups it can affect; a harness game: its games,
            unfinished games, mean turns and their paired change, and the spread of the
            seats' win rates (see :func:`ketharmad.sweep`).
        points: one row per point: ``point``, ``params`` (the point's overrides as JSON), one
            column per swept parameter and ``current`` (the point holds the current values).
        games: the per-game rows (the ``seed`` column is the same at every point: common random
            numbers). Kétharmad: ``point, matchup, game, seed, start_player, winner,
            seat0_won, turns, rounds, end_reason``, None when the run kept reductions instead
            of rows (``rows``, see :func:`ketharmad.sweep`); a harness game: ``point, game,
            seed, winner, winners_mask, turns, end_reason, unfinished``.
        stats: the :class:`SweepStats` (integer counts per point and block, and the paired
            sums against the baseline) that ``table``, ``summary`` and the plots are computed
            from, with rows or without; the same numbers either way.
        rows: whether the per-game rows were kept.
        baseline: the index of the baseline point.
        parameters: the swept parameter names.
        decks: Kétharmad's deck pairings (None for the other games).
        sides: a harness game's seat names (Kétharmad: none).
        bots, seed, params, games_per_point, start_player, card_data, elapsed, plan: the run
            (``start_player`` and ``plan``: Kétharmad's; None for the other games).
    """

    def __init__(self, **kw: Any) -> None:
        self.game: str = kw.get("game", "ketharmad")
        self._harness: bool = kw.get("harness", False)
        self.table: pl.DataFrame = kw["table"]
        self.summary: pl.DataFrame = kw["summary"]
        self.points: pl.DataFrame = kw["points"]
        self.games: Optional[pl.DataFrame] = kw["games"]
        self.stats: SweepStats = kw["stats"]
        self.rows: bool = self.games is not None
        self._n_games: int = int(self.stats.counts[:, :, 0].sum())
        self.baseline: int = kw["baseline"]
        self.parameters: list[str] = kw["parameters"]
        self.decks: Optional[list[list[str]]] = kw.get("decks")
        self.sides: list[str] = kw.get("sides", [])
        self.bots: Any = kw["bots"]
        self.seed: int = kw["seed"]
        self.params: dict[str, ParamValue] = kw["params"]
        self.games_per_point: int = kw["games_per_point"]
        self.start_player: Optional[int] = kw.get("start_player")
        self.card_data: str = kw.get("card_data", self.game)
        self.elapsed: float = kw["elapsed"]
        self._card_text: str = kw.get("card_text", "")
        self.plan = kw.get("plan")

    kind = "sweep"

    @property
    def n_games(self) -> int:
        return self._n_games

    def tables(self) -> dict[str, pl.DataFrame]:
        """The tables by name; ``sweep_games`` only when rows were kept."""
        out = {"sweep": self.table, "sweep_summary": self.summary, "sweep_points": self.points,
               "sweep_games": self.games}  # fmt: skip
        return {k: v for k, v in out.items() if v is not None}

    # a harness game's provenance: the game instead of card data
    def provenance(self) -> dict[str, Any]:
        return harness_provenance(self, self.kind) if self._harness else super().provenance()

    def _provenance(self) -> dict[str, Any]:
        return (
            harness_parquet_provenance(self, self.kind) if self._harness else super()._provenance()
        )

    def text(self) -> str:
        return "\n".join(_harness_text_lines(self)) if self._harness else sweep_text(self)

    def _markdown(self, folder: Optional[Path], plots: bool) -> list[str]:
        return (
            _harness_markdown(self, folder, plots)
            if self._harness
            else _sweep_md(self, folder, plots)
        )

    def html_views(self) -> list[Any]:
        """The report's charts, one per swept parameter (as :meth:`plots`)."""
        if self._harness:
            return harness_sweep_views(self)
        return sweep_views(self, {n: sweep_differences(self, n) for n in self.parameters})

    def plots(self, folder: Union[str, os.PathLike[str]]) -> list[Path]:
        """One plot per swept parameter: Kétharmad, the paired difference against the
        baseline; a harness game, each seat's win rate (Wilson 95 %) against its values."""
        root = Path(folder)
        root.mkdir(parents=True, exist_ok=True)
        plot = plot_harness_sweep if self._harness else plot_sweep_parameter
        return [plot(self, n, root / f"sweep_{_slug(n)}.png") for n in self.parameters]


def _current_values(text: str, base: Mapping[str, ParamValue]) -> dict[str, Any]:
    """Every parameter's value without the grid: the card data's default, or ``params``."""
    info = parameter_frame(_core.parameter_table(text))
    out: dict[str, Any] = {}
    for r in info.iter_rows(named=True):
        if r["kind"] in ("cost", "choice"):
            out[r["name"]] = r["default_str"]
        elif r["kind"] == "bool":
            out[r["name"]] = bool(r["default"])
        else:
            out[r["name"]] = r["default"]
    out.update(base)
    return out


def _is_current(point: Mapping[str, ParamValue], current: Mapping[str, Any]) -> bool:
    return all(
        n in current and current[n] == v and type(current[n]) is type(v) for n, v in point.items()
    )


def _deck_touches(deck: str, factions: Any) -> bool:
    """Whether a deck string may hold cards of one of ``factions`` (a Mixed deck: either of
    its two; a custom list: any, docs/decks.md)."""
    mine = deck_factions(deck)
    return mine is None or bool(mine & set(factions))


def _owners(text: str) -> dict[str, Optional[str]]:
    """Parameter name -> the faction whose deck holds its card, or None when it can reach
    every game (rules.*, keyword.*, Newsfeed, Event and token cards)."""
    cards = card_frame(_core.card_table(text))
    faction = dict(zip(cards["id"].to_list(), cards["faction"].to_list(), strict=True))
    info = parameter_frame(_core.parameter_table(text))
    decks = set(_core.FACTIONS)
    return {
        n: (faction.get(c) if faction.get(c) in decks else None)
        for n, c in zip(info["name"].to_list(), info["card"].to_list(), strict=True)
    }


def _baseline_index(baseline: object, points: list[dict[str, ParamValue]], current: Sequence[bool],
                    check_point: Callable[[Any], dict[str, Any]]) -> int:  # fmt: skip
    """The baseline point: an index, a point dict (``check_point`` gives its checked form),
    or None (the first point holding the current values, else the first point)."""
    if baseline is None:
        return list(current).index(True) if any(current) else 0
    if isinstance(baseline, Mapping):
        want = check_point(baseline)
        for i, p in enumerate(points):
            if p == want:
                return i
        raise ValueError(f"baseline {want} is not one of the grid's points")
    return check_int("baseline", baseline, 0, len(points) - 1)


@dataclass
class _Layout:
    """What the game's side of :func:`sweep` decided: the points and the blocks each plays,
    the rows the table reports (``report``: block, seat and the row's own columns) and what
    the driver and the result need."""

    points: list[dict[str, ParamValue]]
    blocks: list[Block]
    seed: int
    params: dict[str, Any]
    baseline: int
    current: list[bool]
    threads: Optional[int]
    report: list[tuple[int, int, dict[str, Any]]]
    row_columns: list[str]  # the columns of a reported row, before the common ones
    extra_columns: list[str]  # the game's own columns, after ``current``
    significant: bool = False  # a last column ``significant`` (the harness games)
    setup: dict[str, Any] = field(default_factory=dict)  # the driver's play_points setup
    result: dict[str, Any] = field(default_factory=dict)  # what only the game's result has


def _ketharmad_layout(grid: Any, decks: Any, bots: Any, games: int, seed: int, params: Any, card_data: Any,
                      baseline: Any, start_player: Any, format: Any, run: RunOptions) -> _Layout:  # fmt: skip
    """Kétharmad: one block per deck pairing (games ``0 .. games-1`` of the batch at every
    point), seat 0's row of each; rows or reductions (``run.rows``)."""
    if decks is None:
        decks = ("ner", "tisza")
    if bots is None:
        bots = "heuristic"
    points = grid_points(grid)
    pairings = deck_pairings(decks)
    games_ = check_int("games", games, 1)
    seed_ = check_seed(seed)
    threads_ = check_threads(run.threads)
    text, base = apply_format(load_card_data(card_data), check_params(params), format)
    chunk_ = check_chunk_size(run.chunk_size)
    progress = check_flag("progress", run.progress)
    check_cluster_arg(run.cluster, run.executor)
    rows = None if run.rows is None else check_flag("rows", run.rows)
    current_values = _current_values(text, base)
    current = [_is_current(p, current_values) for p in points]
    base_index = _baseline_index(baseline, points, current, check_params)
    seat_bots = [check_bots(bots, len(d)) for d in pairings]
    starts = [check_start_player(start_player, len(d)) for d in pairings]
    total = len(points) * len(pairings) * games_
    keep_rows = rows if rows is not None else total <= ROWS_AUTO_LIMIT
    blocks = [
        Block(tuple(seat_bots[j]), 0, games_, tuple(d), starts[j]) for j, d in enumerate(pairings)
    ]
    # which matchups a swept parameter can change: a card of a faction that plays in it
    owners = _owners(text)
    names = _names(points)
    swept_owners = {owners.get(n) for n in names}
    report = [(j, 0, {"matchup": matchup_label(d), "faction": d[0], "opponent": "+".join(d[1:]),
                      "can_affect": None in swept_owners or any(_deck_touches(x, swept_owners) for x in d)})
              for j, d in enumerate(pairings)]  # fmt: skip
    return _Layout(points, blocks, seed_, base, base_index, current, threads_, report,
                   ["matchup", "faction", "opponent"], ["can_affect"],
                   setup={"card_text": text, "rows": keep_rows, "chunk_size": chunk_, "progress": progress},
                   result={"decks": pairings, "bots": bots if isinstance(bots, (str, Mapping)) else list(bots),
                           "start_player": start_player, "card_data": describe_card_data(card_data),
                           "card_text": text, "owners": owners})  # fmt: skip


def _harness_layout(driver: Any, grid: Any, bots: Any, games: int, seed: int, params: Any, baseline: Any,
                    run: RunOptions) -> _Layout:  # fmt: skip
    """A game on the generic harness: one block (the lineup of bots, games ``0 .. games-1``
    at every point), a row per seat; every point checked against the game's registry
    before any game runs."""
    game = driver.name
    info = harness_info(game)
    bots_ = check_harness_bots(game, bots)
    seats = len(bots_)
    games_ = check_int("games", games, 1)
    seed_ = check_seed(seed)
    threads_ = check_threads(run.threads)
    base = check_harness_params(game, seats, params, "params")
    points = grid_points(grid, check=lambda p: shape_harness_params(p, info, "grid"))
    for i, p in enumerate(points):  # every point checked before any game runs
        check_harness_params(game, seats, {**base, **p}, f"grid point {i} {p}")
    defaults = {p["name"]: p["default"] for p in info["parameters"]}
    values = {**defaults, **base}
    current = [all(values.get(k) == v for k, v in p.items()) for p in points]
    base_index = _baseline_index(
        baseline, points, current, lambda b: shape_harness_params(b, info, "baseline")
    )
    if run.chunk_size is not None:
        check_int("chunk_size", run.chunk_size, 1)
    check_cluster_arg(run.cluster, run.executor)
    sides = harness_seat_names(info, seats)
    report = [(0, s, {"seat": s, "side": sides[s], "bot": bots_[s]}) for s in range(seats)]
    return _Layout(points, [Block(tuple(bots_), 0, games_)], seed_, base, base_index, current, threads_, report,
                   ["seat", "side", "bot"], ["even_share"], True, setup={"chunk_size": run.chunk_size},
                   result={"bots": bots_, "sides": sides, "harness": True})  # fmt: skip


def _names(points: Sequence[Mapping[str, Any]]) -> list[str]:
    """The swept parameter names, in the order the points first name them."""
    names: list[str] = []
    for p in points:
        names += [n for n in p if n not in names]
    return names


@fold_run_options("threads", "chunk_size", "progress", "executor", "cluster", "rows")
def sweep(
    grid: Union[Mapping[str, Any], Sequence[Mapping[str, Any]]],
    decks: Any = None,
    bots: Any = None,
    games: int = 1000,
    seed: int = 0,
    *,
    params: Optional[Mapping[str, ParamValue]] = None,
    baseline: Union[None, int, Mapping[str, ParamValue]] = None,
    game: Union[str, GameSpec] = "ketharmad",
    run: RunArg = None,
    **setup: Unpack[SetupKeywords],
) -> SweepResult:
    """Play the same games at every point of a parameter grid and compare with a baseline.

    One sweep for every game. ``game="schotten_totten_2"`` or ``"osztrakon"`` sweeps a game on
    the generic harness (docs/balance_lab.md): ``grid`` and ``params`` name that game's
    parameters (:func:`ketharmad.games`), ``bots`` is one bot spec per seat (or one spec for
    every seat at the game's smallest count), ``games``, ``seed``, ``threads`` and
    ``baseline`` as below; the table has one row per point and seat. The Kétharmad-only
    arguments (``decks``, ``card_data``, ``start_player``, ``progress``, ``rows``,
    ``format``) are a ``ValueError`` naming them with another game; ``chunk_size``,
    ``executor`` and ``cluster`` run its points' games as
    :func:`ketharmad.games.simulate_game` runs them (same results); its rows are always kept.

    Args:
        grid: ``{name: [values]}`` (every combination; the first name varies slowest) or an
            explicit list of points ``[{name: value, ...}, ...]``. Names as in
            :func:`ketharmad.parameters`; a point's values override ``params``.
        decks: one deck list (default ``["ner", "tisza"]``), a list of them, or ``"all"`` (the 12
            ordered pairs of different factions). A pairing that repeats a faction gets
            ``rules.allow_mirror = True`` unless a point sets it.
        bots: one spec for every seat or a list with one per seat (default ``"heuristic"``).
        games: games per point and matchup; every point plays games ``0 .. games-1`` of the
            batch with seed ``seed`` (common random numbers: same game seeds, same deals where
            the parameters do not change them).
        baseline: the point the others are compared with: an index, a point dict, or None
            (the point holding the current values, i.e. the card data's defaults with
            ``params`` applied, when the grid has one; else the first point).
        start_player: None (drawn per game from its seed) or a fixed start seat.
        run: how the games run, none of it changing a result: a :class:`ketharmad.RunOptions`
            or a dict of its fields (below, and ``threads``, ``progress`` as in
            :func:`ketharmad.simulate`). The older keywords ``threads=``, ``chunk_size=``,
            ``progress=``, ``executor=``, ``cluster=``, ``rows=`` work until 0.3.0 with a
            DeprecationWarning.
        run.executor: None, or a ``concurrent.futures.Executor`` the plan runner
            (:mod:`ketharmad.run.plan`) submits its shards to; the results are the same.
        run.cluster: run on Dask instead: ``"local"``, a scheduler address or a
            ``dask.distributed.Client`` (the ``dask`` extra, docs/scale_out.md); same results.
        run.chunk_size: games per shard (with rows) or per range (without): results do not
            depend on it.
        run.rows: keep the per-game rows (``.games``) or only reductions (integer counts per
            point and matchup and the paired sums against the baseline,
            :class:`SweepStats`): memory does not grow with the number of games, so there
            is no memory check. None (default): rows for a sweep of at most 1,000,000 games
            in all (points x matchups x ``games``; ``ROWS_AUTO_LIMIT``), reductions above.
            False: reductions; the games are played range by range (``chunk_size`` games of
            one matchup at every point, default ``RANGE_GAMES`` = 50,000, or a cluster's
            shard size), each range reduced where it runs. True: rows (refused before any
            game runs when they would not fit in memory). ``.table``, ``.summary`` and the
            plots are computed from the same :class:`SweepStats` either way, so they are the
            same bit for bit; without rows ``.games`` is None.
        format: the game format of every point (docs/formats.md), as in
            :func:`ketharmad.simulate`: a name, a dict or a format file; it is the parameter
            ``rules.format``, so a grid may also sweep ``rules.format`` itself (or a format's
            ``format.NAME.KEY`` numbers).

    Every point is validated (``_core.validate``) for every matchup before any game runs, so
    an unknown parameter name or a value out of range fails at once.

    Returns a :class:`SweepResult` (the same class for every game); ``.table`` has one row
    per point and matchup: ``point``, one column per swept parameter, ``matchup`` ("ner vs
    tisza"), ``faction`` (seat 0), ``opponent``, ``games``, ``wins`` (seat 0), ``win_rate``,
    ``ci_low``, ``ci_high`` (Wilson 95 %), ``unfinished``, ``no_winner``, ``mean_turns``,
    ``baseline`` (bool), ``current`` (the point holds the current values), ``can_affect``
    (False when no swept parameter can change the matchup's games: a card of a faction that
    does not play in it; such rows are left out of the text and Markdown reports), and versus the
    baseline point: ``diff`` (win-rate difference), ``diff_ci_low``/``diff_ci_high`` (paired
    95 % interval: mean of the per-game differences ± 1.96·sd/√n), ``degenerate_ci`` (True
    when every per-game difference is the same, e.g. all 0 on a small sample, or fewer than
    2 games: the paired interval would shrink to a point, so it and ``paired_half_width``
    are null), ``paired_half_width`` and ``unpaired_half_width`` (the half-width two
    independent samples of the same size would give: 1.96·√(p(1-p)/n + p₀(1-p₀)/n)).
    ``.summary`` has one row per point: ``perspective`` (the faction whose cards the point
    changes against the baseline when that is one faction, else ``"seat 0"``), ``matchups``
    (how many of the run's matchups it can affect), ``games``, ``base_win_rate`` and
    ``win_rate`` (of that faction or seat over those games), ``diff`` and its paired 95 %
    interval ``diff_ci_low``/``diff_ci_high`` (null when degenerate).
    ``grid`` must name at least one point (``{}`` and ``[]`` are refused alike).

    A harness game's ``.table`` has one row per point and seat: ``point``, the swept
    parameters, ``seat``, ``side``, ``bot``, the columns every game has (:data:`SWEEP_COLUMNS`:
    ``games`` ... ``unpaired_half_width`` as above, of that seat's wins), ``even_share``
    (1/seats) and ``significant`` (the paired interval excludes 0, or every game changed the
    same way); its ``.summary`` has one row per point: ``point, params``, the swept
    parameters, ``baseline, current, games, no_winner, unfinished, mean_turns``,
    ``turns_diff`` (paired, with its interval ``turns_diff_ci_low``/``turns_diff_ci_high``),
    ``spread`` (largest minus smallest seat win rate) and ``max_dev_even`` (largest
    ``|win rate - 1/seats|``).
    """
    card_data, start_player, format = take_setup(
        "sweep", setup, ("card_data", "start_player", "format")
    )
    run = RunOptions.of(run)
    if isinstance(game, GameSpec):  # a game value: its setup, with this call's explicit keywords
        spec, decks, card_data, start_player, format, params = setup_of(
            game, "sweep", ("seats",), decks=decks, card_data=card_data, start_player=start_player, format=format,
            params=params)  # fmt: skip
        game, bots = spec.name, spec.seat_bots(bots)
    if not isinstance(game, str):
        raise ValueError(f"game must be a name such as 'schotten_totten_2', got {game!r}")
    driver = driver_for(game)
    if driver.is_ketharmad:
        lay = _ketharmad_layout(grid, decks, bots, games, seed, params, card_data, baseline, start_player,
                                format, run)  # fmt: skip
    else:
        driver.refuse("sweep", {name: value is not None for name, value in (
            ("decks", decks), ("card_data", card_data), ("start_player", start_player),
            ("progress", run.progress or None), ("rows", run.rows), ("format", format))},
            "grid, bots, games, seed, threads, params, baseline, chunk_size, executor and cluster")  # fmt: skip
        lay = _harness_layout(driver, grid, bots, games, seed, params, baseline, run)
    start = time.perf_counter()
    with executor_for(run.executor, run.cluster) as ex:
        stats, rows, plan = driver.play_points(lay.blocks, lay.points, lay.seed, lay.params, lay.baseline,
                                               threads=lay.threads, executor=ex, **lay.setup)  # fmt: skip
    elapsed = time.perf_counter() - start

    names = _names(lay.points)
    points_df = pl.DataFrame(
        {
            "point": pl.Series(range(len(lay.points)), dtype=pl.Int32),
            "params": [json.dumps(p, sort_keys=True) for p in lay.points],
            **{n: _param_column([p.get(n) for p in lay.points]) for n in names},
            "current": pl.Series(lay.current, dtype=pl.Boolean),
        }
    )
    table = _sweep_table(stats, names, lay, points_df)
    extra = dict(lay.result)
    if driver.is_ketharmad:
        owners = extra.pop("owners")
        summary = _point_summary(
            stats, lay.points, names, extra["decks"], lay.baseline, owners, points_df
        )
    else:
        summary = _harness_summary(stats, names, lay.baseline, points_df)
    return SweepResult(game=driver.name, table=table, summary=summary, points=points_df, games=rows, stats=stats,
                       baseline=lay.baseline, parameters=names, seed=lay.seed, params=lay.params,
                       games_per_point=lay.blocks[0].games, elapsed=elapsed, plan=plan, **extra)  # fmt: skip


# -- Kétharmad's games of a sweep: the plan runner, rows or ranges reduced where they run ------


def _ketharmad_points(blocks: Sequence[Block], points: Sequence[Mapping[str, Any]], seed: int,
                      params: Mapping[str, Any], baseline: int, *, threads: Optional[int], executor: Any,
                      card_text: str, rows: bool, chunk_size: Optional[int], progress: bool
                      ) -> tuple[SweepStats, Optional[pl.DataFrame], list[dict[str, Any]]]:  # fmt: skip
    """Kétharmad's :meth:`~ketharmad.game.driver.GameDriver.play_points`: one cell per point
    and block, point major; every cell plays games ``0 .. games-1`` of the batch (common
    random numbers: the points of a pairing play the same games). With ``rows`` the cells'
    games tables (memory checked first), else range by range (:func:`_run_reduced`)."""
    plan = Plan(seed)
    games = blocks[0].games
    for i, point in enumerate(points):
        for b in blocks:
            deck = list(b.decks or ())
            merged = {**params, **point}
            if len(set(deck)) < len(deck):
                merged.setdefault("rules.allow_mirror", True)
            plan.add(cell(card_text, deck, b.bots, merged, b.first_game, b.games, start_player=b.start_player,
                          output="games" if rows else "outcomes", label=f"sweep point {i} {point}, decks {deck}"))  # fmt: skip
    plan.validate()

    seats = max(len(b.bots) for b in blocks)
    if rows:  # reductions keep no rows: nothing grows with the games
        check_memory(f"sweep(games={games:,}) over {len(plan.cells)} point(s) and matchup(s)", plan.games,
                     seats, min(chunk_size or games, games), tables=("games",),
                     chunked=chunk_size is not None)  # fmt: skip
    meter = Progress(plan.games, "sweep", enabled=progress)
    g: Optional[pl.DataFrame] = None
    if rows:
        results = run_plan(
            plan, threads=threads, shard_size=chunk_size, progress=meter, executor=executor
        )
        stats = _stats_of_frames(results, len(points), len(blocks), baseline, seats)
        g = _games_frame(plan, results, len(blocks))
    else:
        stats = _run_reduced(plan, len(points), len(blocks), baseline, seats, games, threads, chunk_size,
                             meter, executor)  # fmt: skip
    meter.close()
    return stats, g, plan.describe()


provide(ketharmad_points=_ketharmad_points)


def _stats_of_frames(
    results: Sequence[Any], n_points: int, n_matchups: int, base_index: int, seats: int
) -> SweepStats:
    """The :class:`SweepStats` of a run that kept its rows (one games frame per cell, point
    major), counted by the same function as the ranges of a reduced run."""
    stats = SweepStats.empty(n_points, n_matchups, seats)

    def arrays(frames: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        games = frames.games
        winner = games["winner"].fill_null(-1).to_numpy()
        unfinished = games["end_reason"].cast(pl.String).str.starts_with("unfinished").to_numpy()
        return winner, unfinished, games["turns"].to_numpy()

    for j in range(n_matchups):
        base_winner, _, base_turns = arrays(results[base_index * n_matchups + j])
        for i in range(n_points):
            winner, unfinished, turns = arrays(results[i * n_matchups + j])
            stats.counts[i, j], stats.turn_sums[i, j] = _cell_counts(
                winner, unfinished, turns, base_winner, base_turns, seats
            )
    return stats


def _games_frame(plan: Plan, results: Sequence[Any], n_matchups: int) -> pl.DataFrame:
    """``.games``: the cells' games frames with their point and matchup (point major)."""
    parts = []
    for k, (c, frames) in enumerate(zip(plan.cells, results, strict=True)):
        parts.append(
            frames.games.select(
                pl.lit(k // n_matchups, pl.Int32).alias("point"),
                pl.lit(matchup_label(c.decks)).alias("matchup"),
                "game",
                "seed",
                "start_player",
                "winner",
                seat0_won=(pl.col("winner") == 0).fill_null(False),
                turns="turns",
                rounds="rounds",
                end_reason="end_reason",
            )  # fmt: skip
        )
    return pl.concat(parts, rechunk=False)


def _run_reduced(
    plan: Plan,
    n_points: int,
    n_matchups: int,
    base_index: int,
    seats: int,
    games: int,
    threads: Optional[int],
    chunk: Optional[int],
    meter: Progress,
    executor: Any,
) -> SweepStats:
    """Play the plan (cells with ``output="outcomes"``, point major) range by range: each
    task is one matchup's games ``a .. b - 1`` at every point, reduced to integer counts
    where it runs (the baseline's winners kept only until every point of the range is
    counted) and added into the run's :class:`SweepStats` as it arrives."""
    size = chunk or getattr(executor, "shard_games", None) or RANGE_GAMES
    if threads is None and executor is not None:
        threads = getattr(executor, "shard_threads", None)
    tasks = []
    for j in range(n_matchups):
        cells = [plan.cells[i * n_matchups + j] for i in range(n_points)]
        for a in range(0, games, size):
            n = min(size, games - a)
            shards = tuple(
                Shard(c, plan.seed, a, n, threads, i * n_matchups + j) for i, c in enumerate(cells)
            )
            tasks.append(_Range(shards, base_index, seats, j))
    stats = SweepStats.empty(n_points, n_matchups, seats)

    def keep(k: int, counts: tuple[np.ndarray, np.ndarray]) -> None:
        stats.counts[:, tasks[k].matchup] += counts[0]
        stats.turn_sums[:, tasks[k].matchup] += counts[1]

    run_tasks(
        _reduce_range, tasks, keep, executor=executor, progress=meter, describe=_describe_range
    )
    return stats


# -- the tables, once for every game -----------------------------------------------------------


def _cells_frame(stats: SweepStats, lay: _Layout) -> pl.DataFrame:
    """Per point and reported row (a block's seat): the counts, the sum of the turns and the
    paired mean / sd of the per-game differences of that seat's result against the
    baseline point."""
    rows = []
    base_index = lay.baseline
    for i in range(stats.counts.shape[0]):
        for key, (j, seat, _) in enumerate(lay.report):
            n = stats.games(i, j)
            diff, sd = _mean_sd(
                n,
                stats.wins(i, j, seat) - stats.wins(base_index, j, seat),
                stats.discordant(i, j, seat),
            )
            rows.append((i, key, n, stats.wins(i, j, seat), stats.unfinished(i, j), stats.no_winner(i, j),
                         diff, sd, n, stats.turns_total(i, j)))  # fmt: skip
    return pl.DataFrame(
        rows,
        schema={
            "point": pl.Int32,
            "_key": pl.Int64,
            "games": pl.Int64,
            "wins": pl.Int64,
            "unfinished": pl.Int64,
            "no_winner": pl.Int64,
            "diff": pl.Float64,
            "sd": pl.Float64,
            "n": pl.Int64,
            "turns": pl.Int64,
        },  # fmt: skip
        orient="row",
    )


def _sweep_table(
    stats: SweepStats, names: list[str], lay: _Layout, points_df: pl.DataFrame
) -> pl.DataFrame:
    """``.table`` from the statistics (the same for rows and reductions), for every game:
    the reported rows' own columns, the common columns (:data:`SWEEP_COLUMNS`) and the
    game's own (Kétharmad ``can_affect``; a harness game ``even_share``, ``significant``)."""
    info = pl.DataFrame([{"_key": k, **cols} for k, (_, _, cols) in enumerate(lay.report)]).with_columns(
        pl.col("_key").cast(pl.Int64)
    )  # fmt: skip
    seats = len(lay.report)
    low, high = wilson_bounds("wins", "games")
    table = _cells_frame(stats, lay).with_columns(
        win_rate=pl.col("wins") / pl.col("games"),
        ci_low=low,
        ci_high=high,
        mean_turns=pl.col("turns") / pl.col("games"),
    )
    base_rates = table.filter(pl.col("point") == lay.baseline).select(
        "_key", p0=pl.col("win_rate"), n0=pl.col("games")
    )
    p, n = pl.col("win_rate"), pl.col("games").cast(pl.Float64)
    p0, n0 = pl.col("p0"), pl.col("n0").cast(pl.Float64)
    # every per-game difference equal (sd 0, e.g. all 0 on a small sample) or fewer than 2
    # games: the normal interval would collapse to a point, so it is flagged and left null
    is_base = pl.col("point") == lay.baseline
    degenerate = ~is_base & (pl.col("sd").is_null() | (pl.col("sd") == 0))
    paired_half = (
        pl.when(is_base)
        .then(pl.lit(0.0))
        .when(~degenerate)
        .then(Z95 * pl.col("sd") / pl.col("n").cast(pl.Float64).sqrt())
        .otherwise(None)
    )
    table = (
        table.join(base_rates, on="_key", how="left")
        .join(info, on="_key", how="left")
        .join(points_df.drop("params"), on="point", how="left")
        .with_columns(
            baseline=is_base,
            degenerate_ci=degenerate,
            paired_half_width=paired_half,
            unpaired_half_width=Z95 * (p * (1 - p) / n + p0 * (1 - p0) / n0).sqrt(),
        )
        .with_columns(
            diff_ci_low=pl.col("diff") - pl.col("paired_half_width"),
            diff_ci_high=pl.col("diff") + pl.col("paired_half_width"),
        )
        .sort("point", "_key")
    )
    last: list[str] = []
    if lay.significant:  # a harness game: the even share, and whether the change is significant
        low_, high_ = pl.col("diff_ci_low"), pl.col("diff_ci_high")
        table = table.with_columns(
            even_share=pl.lit(1.0 / seats),
            significant=~is_base
            & ((low_.is_not_null() & ((low_ > 0) | (high_ < 0)))
               | (low_.is_null() & (pl.col("diff") != 0) & (pl.col("games") >= 2))),
        )  # fmt: skip
        last = ["significant"]
    common = list(SWEEP_COLUMNS)
    at = common.index("current") + 1
    return table.select(
        "point", *names, *lay.row_columns, *common[:at], *lay.extra_columns, *common[at:], *last
    )


def _point_summary(
    stats: SweepStats,
    points: list[dict[str, ParamValue]],
    names: list[str],
    pairings: list[list[str]],
    base_index: int,
    owners: Mapping[str, Optional[str]],
    points_df: pl.DataFrame,
) -> pl.DataFrame:
    """One row per point: the paired win-rate change against the baseline point over the
    games of the matchups the point can affect, from one perspective: the faction whose
    cards the point changes (when it is one faction), else seat 0. From the statistics:
    over the affected (matchup, seat) cells, the games, the wins of that seat at the point
    and at the baseline, and the discordant games (the sum of the squared differences)."""
    base = points[base_index]
    info = []
    sums = []  # (point, games, won, base_won, discordant) of the points with affected cells
    for i, p in enumerate(points):
        changed = [n for n in names if p.get(n) != base.get(n)] or [n for n in p]
        who = {owners.get(n) for n in changed}
        faction = next(iter(who)) if len(who) == 1 and None not in who else None
        n_affected = games = won = base_won = discordant = 0
        for j, d in enumerate(pairings):
            if faction is not None:
                hit = any(_deck_touches(x, {faction}) for x in d)
            else:
                hit = None in who or any(_deck_touches(x, who) for x in d)
            if hit:
                seat = (
                    next(s for s, x in enumerate(d) if _deck_touches(x, {faction}))
                    if faction
                    else 0
                )
                n_affected += 1
                games += stats.games(i, j)
                won += stats.wins(i, j, seat)
                base_won += stats.wins(base_index, j, seat)
                discordant += stats.discordant(i, j, seat)
        info.append((i, faction or "seat 0", n_affected))
        if n_affected:
            diff, sd = _mean_sd(games, won - base_won, discordant)
            sums.append((i, games, won / games, base_won / games, diff, sd))
    diffs = pl.DataFrame(sums, schema={"point": pl.Int32, "games": pl.Int64, "win_rate": pl.Float64,
                                   "base_win_rate": pl.Float64, "diff": pl.Float64, "sd": pl.Float64},
                     orient="row")  # fmt: skip
    meta = pl.DataFrame(info, schema={"point": pl.Int32, "perspective": pl.String,
                                      "matchups": pl.Int64}, orient="row")  # fmt: skip
    is_base = pl.col("point") == base_index
    half = (
        pl.when(is_base)
        .then(pl.lit(0.0))
        .when(pl.col("sd").is_not_null() & (pl.col("sd") > 0))
        .then(Z95 * pl.col("sd") / pl.col("games").cast(pl.Float64).sqrt())
        .otherwise(None)
    )
    return (
        meta.join(points_df.drop("params"), on="point", how="left")
        .join(diffs, on="point", how="left")
        .with_columns(baseline=is_base, half=half)
        .with_columns(
            diff_ci_low=pl.col("diff") - pl.col("half"),
            diff_ci_high=pl.col("diff") + pl.col("half"),
        )  # fmt: skip
        .sort("point")
        .select(
            "point",
            *names,
            "baseline",
            "current",
            "perspective",
            "matchups",
            "games",
            "base_win_rate",
            "win_rate",
            "diff",
            "diff_ci_low",
            "diff_ci_high",
        )  # fmt: skip
    )


def param_card_names(result: Any) -> dict[str, str]:
    """Swept parameter -> the name of its card (``"Orbán Viktor"``), for parameters of a card."""
    text = getattr(result, "_card_text", None)
    if text is None:
        return {}
    cards = card_frame(_core.card_table(text))
    names = dict(zip(cards["id"].to_list(), cards["name"].to_list(), strict=True))
    info = parameter_frame(_core.parameter_table(text))
    card = dict(zip(info["name"].to_list(), info["card"].to_list(), strict=True))
    return {p: names[card[p]] for p in result.parameters if card.get(p) in names}


def sweep_parameters_line(result: Any) -> str:
    """``swept: ner_orban_viktor.influence (Orbán Viktor), rules.hand_limit``."""
    names = param_card_names(result)
    return "swept: " + ", ".join(
        f"{p} ({names[p]})" if p in names else p for p in result.parameters
    )


def _point_label(r: dict[str, Any]) -> str:
    tags = [t for t, on in (("baseline", r.get("baseline")), ("current", r.get("current"))) if on]
    return f"{r['point']} ({', '.join(tags)})" if tags else str(r["point"])


def sweep_summary_rows(result: Any) -> tuple[list[str], list[list[str]], list[bool]]:
    """One row per point: the win-rate change over the matchups it can affect."""
    headers = ["point", *result.parameters, "whose win rate", "matchups", "games",
               "win rate", "change vs baseline", "paired 95% CI"]  # fmt: skip
    rows = []
    for r in result.summary.iter_rows(named=True):
        if r["baseline"]:
            change, ci = "baseline", "-"
        else:
            change = signed_pct(r["diff"])
            ci = ("degenerate" if r["diff_ci_low"] is None
                  else f"[{signed_pct(r['diff_ci_low'])}, {signed_pct(r['diff_ci_high'])}]")  # fmt: skip
        rows.append([
            _point_label(r), *[str(r[p]) for p in result.parameters], r["perspective"],
            str(r["matchups"]), f"{r['games'] or 0:,}", pct(r["win_rate"]), change, ci,
        ])  # fmt: skip
    right = [False] + [True] * len(result.parameters) + [False, True, True, True, True, False]
    return headers, rows, right


def hidden_note(result: Any) -> str:
    """Which matchups the reports leave out (no swept parameter can change their games)."""
    t = result.table
    if "can_affect" not in t.columns:
        return ""
    hidden = t.filter(~pl.col("can_affect"))["matchup"].unique(maintain_order=True).to_list()
    if not hidden:
        return ""
    return (
        f"hidden: {len(hidden)} matchup(s) no swept parameter can change ({', '.join(hidden)}): "
        "their cards never meet, so every point plays the baseline's games; they stay in "
        ".table with can_affect = False."
    )


def sweep_rows(result: Any) -> tuple[list[str], list[list[str]], list[bool]]:
    """Headers, rows and alignment of the sweep table as text (rows a swept parameter can
    affect; see :func:`hidden_note`)."""
    headers = ["point", *result.parameters, "matchup", "games", "seat-0 win rate", "95% CI",
               "unfinished", "diff vs base", "paired 95% CI", "unpaired ±"]  # fmt: skip
    rows = []
    table = result.table
    if "can_affect" in table.columns:
        table = table.filter(pl.col("can_affect"))
    for r in table.iter_rows(named=True):
        diff = "baseline" if r["baseline"] else signed_pct(r["diff"])
        if r.get("degenerate_ci"):
            paired = "degenerate"
        elif r["baseline"] or r["diff_ci_low"] is None:
            paired = "-"
        else:
            paired = f"[{signed_pct(r['diff_ci_low'])}, {signed_pct(r['diff_ci_high'])}]"
        unpaired = "-" if r["baseline"] else f"±{100 * (r['unpaired_half_width'] or 0):.1f} pp"
        rows.append([
            _point_label(r), *[str(r[p]) for p in result.parameters], r["matchup"],
            f"{r['games']:,}", pct(r["win_rate"]), ci_text(r["ci_low"], r["ci_high"]),
            f"{r['unfinished']:,}", diff, paired, unpaired,
        ])  # fmt: skip
    right = (
        [False]
        + [True] * len(result.parameters)
        + [False, True, True, False, True, True, False, True]
    )
    return headers, rows, right


def sweep_text(result: Any) -> str:
    """Plain-text summary of a SweepResult: the per-point summary, then the matchups."""
    head = (
        f"SweepResult({result.points.height} points x {len(result.decks)} matchup(s) x "
        f"{result.games_per_point:,} games, seed {result.seed}, baseline point "
        f"{result.baseline}, {result.elapsed:.2f} s; every point plays the same game seeds)"
    )
    fmt = (result.params or {}).get("rules.format")
    if fmt is not None:
        head = head.replace("SweepResult(", f"SweepResult(format {fmt}, ", 1)
    lines = [head, sweep_parameters_line(result)]
    if getattr(result, "summary", None) is not None:
        headers, rows, right = sweep_summary_rows(result)
        lines.append("per point: change of win rate against the baseline over the games of the "
                     "matchups it can affect (paired 95% CI):")  # fmt: skip
        lines += ["  " + s for s in format_table(headers, rows, right)]
        lines.append("per matchup:")
    headers, rows, right = sweep_rows(result)
    lines += ["  " + s for s in format_table(headers, rows, right)]
    notes = [n for n in (hidden_note(result), degenerate_note(result), rows_note(result)) if n]
    return "\n".join(lines + notes)


def rows_note(result: Any) -> str:
    """A footnote when the sweep kept reductions instead of per-game rows, else ``""``."""
    if getattr(result, "rows", True):
        return ""
    return (
        f"reductions: no per-game rows kept ({result.n_games:,} games counted); see .table, "
        ".summary, .points, .stats"
    )


def degenerate_note(result: Any) -> str:
    """A footnote when some paired interval of a sweep is degenerate, else ``""``."""
    if "degenerate_ci" not in result.table.columns or not result.table["degenerate_ci"].any():
        return ""
    return (
        "degenerate: every per-game difference from the baseline is the same (e.g. all 0 on "
        "a small sample), so no paired interval is given; play more games or read the "
        "unpaired half-width."
    )


def _is_numeric(values: Sequence[Any]) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def sweep_differences(result: Any, name: str) -> pl.DataFrame:
    """The paired win-rate difference against the baseline for each value of ``name`` (the
    other swept parameters at their baseline values), one row per (line, value): ``line``
    is an unordered faction pair ("ner – tisza", the win rate of the first faction, both
    seatings pooled) for 2-player matchups, else the matchup (seat 0); only matchups a swept
    parameter can affect. Columns ``line, value, point, games, diff, lo, hi``."""
    base = result.points.filter(pl.col("point") == result.baseline).row(0, named=True)
    keep = result.points
    for other in result.parameters:
        if other != name:
            keep = keep.filter(pl.col(other).eq_missing(base[other]))
    keep = keep.filter(pl.col(name).is_not_null()).select("point", value=pl.col(name))
    affected = (
        result.table.filter(pl.col("can_affect"))
        if "can_affect" in result.table.columns
        else result.table
    )
    matchups = affected["matchup"].unique().to_list()
    order = {f: i for i, f in enumerate(_core.FACTIONS)}
    lines, signs = {}, {}
    for m in matchups:
        decks = m.split(" vs ")
        if len(decks) == 2:
            a, b = sorted(decks, key=lambda f: order.get(f, 99))
            lines[m] = f"{a} – {b}"
            signs[m] = 1.0 if decks[0] == a else -1.0
        else:
            lines[m], signs[m] = m, 1.0
    # from the statistics: per matchup, sum d = ±(wins - baseline wins) of seat 0 and
    # sum d² = the discordant games; summed over the matchups of a line
    stats, bi = result.stats, result.baseline
    index = {matchup_label(dk): j for j, dk in enumerate(result.decks)}
    rows = []
    for point, value in keep.iter_rows():
        acc: dict[str, list[int]] = {}
        for m in matchups:
            j = index[m]
            s = acc.setdefault(lines[m], [0, 0, 0])
            s[0] += stats.games(point, j)
            s[1] += int(signs[m]) * (stats.wins(point, j) - stats.wins(bi, j))
            s[2] += stats.discordant(point, j)
        for line, (n, s1, s2) in acc.items():
            diff, sd = _mean_sd(n, s1, s2)
            rows.append((line, value, point, n, diff, sd))
    d = (
        pl.DataFrame(
            rows,
            schema={
                "line": pl.String,
                "value": keep.schema["value"],
                "point": pl.Int32,
                "games": pl.UInt32,
                "diff": pl.Float64,
                "sd": pl.Float64,
            },  # fmt: skip
            orient="row",
        )
        .with_columns(
            half=Z95 * pl.col("sd").fill_null(0.0) / pl.col("games").cast(pl.Float64).sqrt()
        )
        .with_columns(lo=pl.col("diff") - pl.col("half"), hi=pl.col("diff") + pl.col("half"))
        .sort("line", "value")
    )
    return d.select("line", "value", "point", "games", "diff", "lo", "hi")


def plot_sweep_parameter(result: Any, name: str, path: Path) -> Path:
    """Paired win-rate difference against the baseline for each value of one swept
    parameter, one line per unordered faction pair (distinct colours) with its 95%
    interval; the baseline value is marked."""
    d = sweep_differences(result, name)
    base = result.points.filter(pl.col("point") == result.baseline).row(0, named=True)
    values = sorted(d["value"].unique().to_list(), key=lambda v: (str(type(v)), v))
    numeric = _is_numeric(values)
    pos = {v: (float(v) if numeric else float(i)) for i, v in enumerate(values)}
    line_names = d["line"].unique(maintain_order=True).to_list()
    span = (max(pos.values()) - min(pos.values())) if pos else 1.0
    dodge = 0.012 * (span or 1.0)
    fig = _figure(7.5, 4.5)
    ax = fig.add_subplot(1, 1, 1)
    require_matplotlib()
    from matplotlib import colormaps

    cmap = colormaps["tab10" if len(line_names) <= 10 else "tab20"]
    for k, line in enumerate(line_names):
        part = d.filter(pl.col("line") == line)
        xs = [pos[v] + (k - (len(line_names) - 1) / 2) * dodge for v in part["value"].to_list()]
        diff = [100 * x for x in part["diff"].to_list()]
        err = [[100 * (x - lo) for x, lo in zip(part["diff"].to_list(), part["lo"].to_list(), strict=True)],
               [100 * (hi - x) for x, hi in zip(part["diff"].to_list(), part["hi"].to_list(), strict=True)]]  # fmt: skip
        ax.errorbar(xs, diff, yerr=err, marker="o", ms=4, capsize=3, lw=1.2, label=line,
                    color=cmap(k % cmap.N))  # fmt: skip
    ax.axhline(0.0, color="grey", ls="--", lw=1)
    if base.get(name) in pos:
        tag = "baseline = current value" if base.get("current") else "baseline"
        ax.axvline(pos[base[name]], color="black", ls=":", lw=1.2, label=f"{tag} ({base[name]})")
    if not numeric or all(isinstance(v, int) for v in values):
        ax.set_xticks([pos[v] for v in values], [str(v) for v in values])
    ax.set_xlabel(name)
    ax.set_ylabel("win-rate change vs baseline (pp)")
    others = [p for p in result.parameters if p != name]
    held = f"; {', '.join(others)} at the baseline" if others else ""
    ax.set_title(
        f"Paired difference vs {name} (first faction of each pair, 95% CI{held})", fontsize=9
    )
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    return _save(fig, path)


def _sweep_md(result: Any, folder: Optional[Path], plots: bool) -> list[str]:
    out = [f"# Parameter sweep: {', '.join(result.parameters) or 'explicit points'}", ""]
    out += _provenance_md(result, None)
    out += [
        "",
        f"{result.points.height} points × {len(result.decks)} matchup(s) × "
        f"{result.games_per_point:,} games. Every point plays the same game seeds (common random "
        f"numbers); differences are against point {result.baseline} game by game (paired 95% "
        "interval: mean ± 1.96·sd/√n of the per-game differences); the unpaired half-width is "
        "what independent samples would give.",
        "",
    ]
    out += [sweep_parameters_line(result).replace("swept:", "Swept:"), ""]
    out += ["## Summary per point", "",
            "Change of win rate against the baseline over the games of the matchups the point "
            "can affect, from the side of the faction whose cards it changes (else seat 0); "
            "paired 95% interval.", ""]  # fmt: skip
    headers, rows, right = sweep_summary_rows(result)
    out += [md_table(headers, rows, right), ""]
    if plots:
        assert folder is not None  # to_markdown: plots need the folder
        for name in result.parameters:
            fname = f"sweep_{_slug(name)}.png"
            plot_sweep_parameter(result, name, folder / fname)
            out += [f"![paired difference vs {name}]({fname})", ""]
    prow = [[str(r["point"]), r["params"], "yes" if r["current"] else ""]
            for r in result.points.iter_rows(named=True)]  # fmt: skip
    out += ["## Points", "", md_table(["point", "overrides", "current values"], prow, [True, False, False]),
            "", "## Results per matchup", ""]  # fmt: skip
    headers, rows, right = sweep_rows(result)
    out.append(md_table(headers, rows, right))
    for note in (hidden_note(result), degenerate_note(result), rows_note(result)):
        if note:
            out += ["", note]
    return out


# -- a harness game's summary, text, Markdown and plots -----------------------------------------


def _harness_summary(
    stats: SweepStats, names: list[str], base_index: int, points_df: pl.DataFrame
) -> pl.DataFrame:
    """One row per point of a harness game (its one block): games, games without a winner,
    unfinished games, mean turns and their paired change against the baseline, and the
    spread of the seats' win rates and their largest distance from the even share."""
    seats = stats.seats
    even = 1.0 / seats
    rows = []
    for i in range(stats.counts.shape[0]):
        n = stats.games(i, 0)
        rates = [stats.wins(i, 0, s) / n for s in range(seats)]
        tlo: Optional[float]
        thi: Optional[float]
        if i == base_index:
            tdiff, tlo, thi = 0.0, 0.0, 0.0
        else:
            tdiff_, sd = _mean_sd(n, *stats.turns_paired(i, 0))
            tdiff = float("nan") if tdiff_ is None else tdiff_
            if sd is None or sd == 0:
                tlo = thi = None
            else:
                h = Z95 * sd / math.sqrt(n)
                tlo, thi = tdiff - h, tdiff + h
        rows.append({"point": i, "baseline": i == base_index, "games": n, "no_winner": stats.no_winner(i, 0),
                     "unfinished": stats.unfinished(i, 0), "mean_turns": stats.turns_total(i, 0) / n,
                     "turns_diff": tdiff, "turns_diff_ci_low": tlo, "turns_diff_ci_high": thi,
                     "spread": max(rates) - min(rates), "max_dev_even": max(abs(r - even) for r in rates)})  # fmt: skip
    schema = {"point": pl.Int32, "turns_diff_ci_low": pl.Float64, "turns_diff_ci_high": pl.Float64}
    return (
        pl.DataFrame(rows, schema_overrides=schema)
        .join(points_df, on="point", how="left")
        .select(
            "point",
            "params",
            *names,
            "baseline",
            "current",
            "games",
            "no_winner",
            "unfinished",
            "mean_turns",
            "turns_diff",
            "turns_diff_ci_low",
            "turns_diff_ci_high",
            "spread",
            "max_dev_even",
        )  # fmt: skip
    )


def _label(r: Mapping[str, Any], names: Sequence[str]) -> str:
    return ", ".join(f"{n}={r[n]}" for n in names if r.get(n) is not None) or "(defaults)"


def diff_ci_text(low: Optional[float], high: Optional[float]) -> str:
    """``[+1.2, +3.4] pp`` (``-`` when undefined)."""
    if low is None or high is None:
        return "-"
    return f"[{100 * low:+.1f}, {100 * high:+.1f}] pp"


def _harness_rows(res: SweepResult) -> tuple[list[str], list[list[str]], list[bool]]:
    """Per point and seat (two seats: the seat-0 side only, the other is its complement up
    to the games without a winner)."""
    headers = [
        "point",
        "parameters",
        "seat",
        "bot",
        "win rate",
        "95% CI",
        "vs baseline",
        "95% CI",
        "sig",
    ]
    rows = []
    t = res.table if len(res.bots) > 2 else res.table.filter(pl.col("seat") == 0)
    for r in t.iter_rows(named=True):
        rows.append([str(r["point"]) + (" (base)" if r["baseline"] else ""), _label(r, res.parameters),
                     r["side"], r["bot"], pct(r["win_rate"]), ci_text(r["ci_low"], r["ci_high"]),
                     "" if r["baseline"] else signed_pct(r["diff"]),
                     "" if r["baseline"] else diff_ci_text(r["diff_ci_low"], r["diff_ci_high"]),
                     "*" if r["significant"] else ""])  # fmt: skip
    return headers, rows, [True, False, False, False, True, False, True, False, False]


def _harness_point_rows(res: SweepResult) -> tuple[list[str], list[list[str]], list[bool]]:
    many = len(res.bots) > 2
    headers = [
        "point",
        "parameters",
        "games",
        "no winner",
        "unfinished",
        "mean turns",
        "turns vs base",
    ]
    headers += ["seat spread", "max |rate - 1/n|"] if many else []
    rows = []
    for r in res.summary.iter_rows(named=True):
        row = [str(r["point"]) + (" (base)" if r["baseline"] else ""), _label(r, res.parameters), f"{r['games']:,}",
               f"{r['no_winner']:,}", f"{r['unfinished']:,}", f"{r['mean_turns']:.2f}",
               "" if r["baseline"] else f"{r['turns_diff']:+.2f}"]  # fmt: skip
        if many:
            row += [
                signed_pct(r["spread"]).replace("+", ""),
                signed_pct(r["max_dev_even"]).replace("+", ""),
            ]
        rows.append(row)
    return (
        headers,
        rows,
        [True, False, True, True, True, True, True] + ([True, True] if many else []),
    )


def _harness_text_lines(res: SweepResult) -> list[str]:
    seats = len(res.bots)
    out = [f"sweep of {res.game}: {res.points.height} point(s) × {res.games_per_point:,} games (seed {res.seed}, "
           f"the same games at every point), {seats} seats: "
           + ", ".join(f"{s} {b}" for s, b in zip(res.sides, res.bots, strict=True)),
           f"differences are against point {res.baseline}, game by game (paired 95% interval); * = significant"]  # fmt: skip
    if res.params:
        out.append(f"fixed overrides: {json.dumps(res.params, sort_keys=True)}")
    out.append("")
    h, r, right = _harness_rows(res)
    out += format_table(h, r, right)
    out.append("")
    h, r, right = _harness_point_rows(res)
    out += format_table(h, r, right)
    out.append(f"({res.elapsed:.1f} s)")
    return out


def _harness_markdown(res: SweepResult, folder: Optional[Path], plots: bool) -> list[str]:
    out = [f"# Parameter sweep of {res.game}: {', '.join(res.parameters) or 'explicit points'}", ""]
    out += harness_provenance_md(res)
    out += ["", f"{res.points.height} points × {res.games_per_point:,} games; every point plays the same game "
            f"seeds (common random numbers). Differences are against point {res.baseline} game by game (paired "
            "95% interval: mean ± 1.96·sd/√n of the per-game differences).", "", "## Win rates", ""]  # fmt: skip
    h, r, right = _harness_rows(res)
    out += [md_table(h, r, right), "", "## Per point", ""]
    h, r, right = _harness_point_rows(res)
    out += [md_table(h, r, right), ""]
    if plots and folder is not None:
        for name in res.parameters:
            fname = f"sweep_{_slug(name)}.png"
            plot_harness_sweep(res, name, folder / fname)
            out += [f"![win rate vs {name}]({fname})", ""]
    return out


def plot_harness_sweep(res: Any, name: str, path: Path) -> Path:
    """Each seat's win rate (Wilson 95 %) against the values of ``name``, the other swept
    parameters at their baseline values; the baseline value and the even share are marked."""
    require_matplotlib()
    base = res.points.filter(pl.col("point") == res.baseline).row(0, named=True)
    keep = res.points
    for other in res.parameters:
        if other != name:
            keep = keep.filter(pl.col(other).eq_missing(base[other]))
    keep = keep.filter(pl.col(name).is_not_null())
    t = res.table.filter(pl.col("point").is_in(keep["point"].to_list()))
    values = sorted(keep[name].unique().to_list(), key=lambda v: (str(type(v)), v))
    numeric = _is_numeric(values)
    pos = {v: (float(v) if numeric else float(i)) for i, v in enumerate(values)}
    fig = _figure(7.5, 4.5)
    ax = fig.add_subplot(1, 1, 1)
    seats = len(res.bots) if len(res.bots) > 2 else 1
    for s in range(seats):
        part = t.filter(pl.col("seat") == s).sort(name)
        xs = [pos[v] for v in part[name].to_list()]
        y = [100 * x for x in part["win_rate"].to_list()]
        err = [[100 * (a - lo) for a, lo in zip(part["win_rate"].to_list(), part["ci_low"].to_list(), strict=True)],
               [100 * (hi - a) for a, hi in zip(part["win_rate"].to_list(), part["ci_high"].to_list(), strict=True)]]  # fmt: skip
        ax.errorbar(
            xs,
            y,
            yerr=err,
            marker="o",
            ms=4,
            capsize=3,
            lw=1.2,
            label=f"{res.sides[s]} ({res.bots[s]})",
        )
    ax.axhline(100 / len(res.bots), color="grey", ls="--", lw=1, label="even share")
    if base.get(name) in pos:
        ax.axvline(pos[base[name]], color="black", ls=":", lw=1.2, label=f"baseline ({base[name]})")
    if not numeric or all(isinstance(v, int) for v in values):
        ax.set_xticks([pos[v] for v in values], [str(v) for v in values])
    ax.set_xlabel(name)
    ax.set_ylabel("win rate (%)")
    ax.set_title(
        f"{res.game}: win rate vs {name} (Wilson 95% CI, {res.games_per_point:,} games a point)",
        fontsize=9,
    )
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    return _save(fig, path)


_SWEEP_KEYS = {
    "grid", "points", "decks", "bots", "games", "seed", "baseline", "params", "start_player",
    "threads", "card_data", "rows", "format",
}  # fmt: skip


def _depth(value: Any) -> int:
    return toml_depth(value, MAX_SWEEP_DEPTH)


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    return flatten_table(table, prefix)


def load_sweep_file(path: str) -> dict[str, Any]:
    """Read a sweep TOML file into :func:`ketharmad.sweep` keyword arguments.

    Keys: a ``[grid]`` table of lists (or ``[[points]]`` tables), optional ``decks`` ("all",
    a list of factions or a list of lists), ``bots``, ``games``, ``seed``, ``baseline``,
    ``start_player``, ``threads``, ``card_data`` (relative to the file), ``format`` (a name,
    a ``[format]`` table as ``format=`` takes a dict, or a format file relative to the file;
    ``--format`` wins), ``rows`` (true or
    false; the command line's ``--rows`` / ``--no-rows`` win) and a ``[params]`` table of
    fixed overrides. Parameter names may be quoted (``"rules.starting_support"``)
    or bare dotted keys. The file may be at most 1 MiB, its tables and arrays nested at most
    32 deep; otherwise, or when it is not valid TOML, ``ValueError``.
    """
    doc = read_toml_file(path, "sweep file")
    unknown = sorted(set(doc) - _SWEEP_KEYS)
    if unknown:
        raise ValueError(
            f"sweep file {path}: unknown key(s) {', '.join(unknown)}; "
            f"valid: {', '.join(sorted(_SWEEP_KEYS))}"
        )
    if ("grid" in doc) == ("points" in doc):
        raise ValueError(
            f"sweep file {path} needs exactly one of a [grid] table or [[points]] tables"
        )
    kwargs: dict[str, Any] = {}
    if "grid" in doc:
        if not isinstance(doc["grid"], Mapping):
            raise ValueError(f"sweep file {path}: grid must be a table of lists")
        kwargs["grid"] = _flatten(doc["grid"])
    else:
        if not isinstance(doc["points"], list) or not all(
            isinstance(p, Mapping) for p in doc["points"]
        ):
            raise ValueError(f"sweep file {path}: points must be an array of tables ([[points]])")
        kwargs["grid"] = [_flatten(p) for p in doc["points"]]
    for key in ("decks", "bots", "games", "seed", "start_player", "threads"):
        if key in doc:
            kwargs[key] = doc[key]
    if "params" in doc:
        if not isinstance(doc["params"], Mapping):
            raise ValueError(f"sweep file {path}: params must be a table")
        kwargs["params"] = _flatten(doc["params"])
    if "baseline" in doc:
        b = doc["baseline"]
        kwargs["baseline"] = _flatten(b) if isinstance(b, Mapping) else b
    if "card_data" in doc:
        kwargs["card_data"] = os.path.join(os.path.dirname(os.path.abspath(path)), doc["card_data"])
    if "format" in doc:
        f = doc["format"]
        if isinstance(f, str) and f.endswith(".toml"):  # a format file, relative to the sweep file
            f = os.path.join(os.path.dirname(os.path.abspath(path)), f)
        kwargs["format"] = f
    if "rows" in doc:
        if not isinstance(doc["rows"], bool):
            raise ValueError(f"sweep file {path}: rows must be true or false, got {doc['rows']!r}")
        kwargs["rows"] = doc["rows"]
    return kwargs
