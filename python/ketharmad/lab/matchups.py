"""Matchups, written once for every game: the sides (Kétharmad's factions or decks, a
harness game's bots) laid out as cells (:func:`pair_cells`, :func:`seating_cells`,
:func:`team_cells`, :func:`sided_pair_cells`, :func:`field_cells`), played by the game's driver
(:meth:`~ketharmad.game.driver.GameDriver.play_cells`) and reduced to one
:class:`MatchupResult`: Kétharmad's 4x4 two-player matrix (start player balanced per cell), its
free-for-all over every seating of three or four factions and its team-pair table; Schotten
Totten 2's ordered pairings of bots; Osztrakon's bot against a field."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Union, Unpack, cast

import polars as pl

from .. import _core
from ..game.data import CardDataSource, describe_card_data, load_card_data
from ..game.decks import deck_factions, deck_label, deck_string
from ..game.driver import Block, Played, driver_for
from ..game.formats import FormatInfo, apply_format, format_info, team_splits
from ..game.harness import harness_info
from ..game.spec import GameSpec, SetupKeywords, setup_of, take_setup
from ..game.validate import (
    BotSpec,
    _check_bot_spec,
    bot_label,
    check_chunk_size,
    check_flag,
    check_int,
    check_params,
    check_seed,
    check_threads,
)
from ..results.games import GameStats
from ..results.lab_report import _figure, _provenance_md, _save, md_table
from ..results.report import _cell_text, _lab_params_label, ci_text, format_table, pct
from ..results.sim import SimResult
from ..run.cluster import check_cluster_arg, executor_for
from ..run.memory import check_memory
from ..run.options import RunArg, RunOptions, fold_run_options
from ..run.progress import Progress
from ..run.reduce import TURN_BINS, Stats
from ..stats import rate, wilson_bounds
from .cycles import split_cycles
from .harness import (
    GameLabResult,
    _check_seats,
    _check_whole,
    _default_bots,
    _params_of,
    _rotation,
    _run_args,
    _side_names,
    _wilson,
    check_bot_specs,
)
from .html_views import matchup_views
from .standings import deck_table, seat_table, stats_tables

__all__ = [
    "matchups",
    "MatchupResult",
    "pair_cells",
    "seating_cells",
    "team_cells",
    "sided_pair_cells",
    "field_cells",
]

#: Game-length quantiles reported in ``.lengths``.
LENGTH_QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)
#: Games per seating of the 24 seatings in a 3- or 4-player free-for-all by default.
DEFAULT_FFA_GAMES = 1920
#: Games per pair and start player in a 2-player matchup table by default.
DEFAULT_GAMES_PER_SIDE = 2000
#: Games per team pairing (4 seat rotations) of a 2-against-2 format's team-pair table.
DEFAULT_TEAM_GAMES = 2000
#: Games per cell of a harness game's matchup table by default.
DEFAULT_GAMES_PER_CELL = 1000
#: ``rows=None``: keep the per-game rows of a run of at most this many games, reductions
#: (integer statistics, memory flat in the number of games) above.
ROWS_AUTO_LIMIT = 1_000_000

#: A cell's parameters from its decks (Kétharmad: the run's, ``rules.allow_mirror`` added to
#: a mirror).
ParamsFor = Callable[[Sequence[str]], dict[str, Union[int, bool, str]]]


def _faction_order(col: str, order: Sequence[str]) -> pl.Expr:
    """Sort key: the side's place in ``order`` (the run's deck labels)."""
    return pl.col(col).replace_strict(list(order), list(range(len(order))), return_dtype=pl.Int64)


def _side_col(players: pl.DataFrame) -> pl.Expr:
    """A players table's side: its deck label (``deck``; a Mixed deck's ``faction`` is its
    first faction), as the column ``faction`` of the matchup tables."""
    return pl.col("deck" if "deck" in players.columns else "faction").alias("faction")


def _labels_of(decks: Sequence[str]) -> list[str]:
    return [deck_label(d) for d in decks]


def _decks_of(c: Block) -> tuple[str, ...]:
    """A Kétharmad cell's decks (every Kétharmad block names them)."""
    assert c.decks is not None
    return c.decks


def _plan_order(cells: Sequence[Block]) -> list[str]:
    """The deck labels of a run's cells in order of first appearance (the run's side order)."""
    return list(dict.fromkeys(deck_label(d) for c in cells for d in c.decks or ()))


def _rate_columns(wins: str, games: str, prefix: str = "") -> list[pl.Expr]:
    low, high = wilson_bounds(wins, games)
    return [
        rate(wins, games).alias(f"{prefix}win_rate"),
        low.alias(f"{prefix}ci_low"),
        high.alias(f"{prefix}ci_high"),
    ]


def _unfinished() -> pl.Expr:
    return pl.col("end_reason").cast(pl.String).str.starts_with("unfinished")


def _length_aggs() -> list[pl.Expr]:
    out: list[pl.Expr] = [pl.len().cast(pl.Int64).alias("games")]
    for col in ("turns", "rounds"):
        out.append(pl.col(col).mean().alias(f"{col}_mean"))
        for q in LENGTH_QUANTILES:
            out.append(pl.col(col).quantile(q, "nearest").alias(f"{col}_p{int(round(q * 100))}"))
        out.append(pl.col(col).max().alias(f"{col}_max"))
    return out


_LENGTH_SCHEMA = dict(
    pl.DataFrame(schema={"turns": pl.Int32, "rounds": pl.Int32}).select(_length_aggs()).schema
)


def _start_player_table(games: pl.DataFrame, n_seats: int) -> pl.DataFrame:
    """One row: how often the start player won, with a Wilson interval and the even share."""
    t = games.select(
        games=pl.len().cast(pl.Int64),
        start_wins=(pl.col("winner") == pl.col("start_player"))
        .fill_null(False)
        .sum()
        .cast(pl.Int64),
    )
    return _start_player_rates(t, n_seats)


def _start_player_rates(counts: pl.DataFrame, n_seats: int) -> pl.DataFrame:
    """The start-player table from its counts (``games, start_wins``), rows or reductions."""
    return counts.with_columns(
        *_rate_columns("start_wins", "games"), even_share=pl.lit(1.0 / n_seats)
    )


def _nearest_rank(n: int, q: float) -> int:
    """The 0-based rank polars' ``quantile(q, "nearest")`` picks among ``n`` sorted values:
    ``(n - 1) * q`` rounded half away from zero."""
    x = (n - 1) * q
    f = math.floor(x)
    return min(n - 1, int(f) + (1 if x - f >= 0.5 else 0))


def _hist_value(hist: Sequence[int], rank: int) -> Optional[int]:
    """The value of 0-based ``rank`` in sorted order from a histogram (bin t = value t); None
    when it falls in the overflow bin (the last one: values not kept one by one)."""
    seen = 0
    for t, c in enumerate(hist[:-1]):
        seen += c
        if rank < seen:
            return t
    return None


def _stats_lengths(s: Stats) -> dict[str, Any]:
    """The ``_length_aggs`` of the games of ``s`` from its histograms: the same numbers as
    from the rows (a quantile that falls among games of ``TURN_BINS`` turns/rounds or more is
    null: the histogram does not keep those one by one)."""
    out: dict[str, Any] = {"games": s.games}
    for col, total, hist, top in (("turns", s.turns_sum, s.turns_hist, s.turns_max),
                                  ("rounds", s.rounds_sum, s.rounds_hist, s.rounds_max)):  # fmt: skip
        out[f"{col}_mean"] = total / s.games
        for q in LENGTH_QUANTILES:
            v = _hist_value(hist, _nearest_rank(s.games, q))
            out[f"{col}_p{int(round(q * 100))}"] = None if v is None else float(v)
        out[f"{col}_max"] = top
    return out


def _lengths_frame(rows: list[dict[str, Any]], keys: Sequence[str]) -> pl.DataFrame:
    schema: dict[str, Any] = {k: pl.String for k in keys}
    schema.update(_LENGTH_SCHEMA)
    return pl.DataFrame(rows, schema=schema, orient="row")


def _unfinished_count(s: Stats) -> int:
    """Games of ``s`` that ended unfinished (a round or action cap)."""
    return sum(
        c
        for r, c in zip(_core.END_REASONS, s.end_reasons, strict=True)
        if r.startswith("unfinished")
    )


#: The layouts of a matchup run (:attr:`MatchupResult.layout`): Kétharmad's ``pairs`` (every
#: pair of sides, each side starting half the games), ``seatings`` (a free-for-all over every
#: seating) and ``teams`` (every split into two teams, in 4 seat rotations); the harness
#: games' ``sided_pairs`` (every ordered pairing of bots, one per side) and ``field`` (one bot
#: against a field of another, its seat rotating).
LAYOUTS = ("pairs", "seatings", "teams", "sided_pairs", "field")
#: The key columns of ``.table`` per layout (its first columns); every layout's table also has
#: ``games, wins, win_rate, ci_low, ci_high`` (the row side's wins and Wilson 95 % rate over
#: all its games), ``unfinished`` and ``no_winner`` (:data:`COMMON_COLUMNS`).
KEY_COLUMNS = {"pairs": ("faction", "opponent"), "seatings": ("faction",), "teams": ("team", "against"),
               "sided_pairs": ("bot", "opponent"), "field": ("bot", "field")}  # fmt: skip
#: The columns (and dtypes) every matchup table has, whatever the game and layout.
COMMON_COLUMNS = {"games": pl.Int64, "wins": pl.Int64, "win_rate": pl.Float64, "ci_low": pl.Float64,
                  "ci_high": pl.Float64, "unfinished": pl.Int64, "no_winner": pl.Int64}  # fmt: skip


class MatchupResult(GameLabResult):
    """The result of :func:`ketharmad.matchups`, for every game.

    Attributes:
        game: the game's name; layout: how the cells were laid out (:data:`LAYOUTS`):
            ``pairs``, ``seatings`` or ``teams`` (Kétharmad), ``sided_pairs`` (a harness game
            of two seats) or ``field`` (a harness game of more seats).
        keys: the key columns of ``.table`` (:data:`KEY_COLUMNS`, its first columns); every
            table also has ``games, wins, win_rate, ci_low, ci_high`` (Wilson 95 %),
            ``unfinished`` and ``no_winner`` (:data:`COMMON_COLUMNS`).
        n_players: seats of a game (``seats``: the same).
        table: ``pairs``: one row per ordered cell (faction, opponent), mirrors included;
            ``seatings``: one row per faction; ``teams``: one row per team and pairing;
            ``sided_pairs``: one row per ordered pairing (``bot`` on the first side against
            ``opponent``); ``field``: one row per bot and field. See :func:`ketharmad.matchups`
            for the columns.
        start_player: one row: ``games, start_wins, win_rate, ci_low, ci_high, even_share``
            (Kétharmad; None for the harness games).
        positions: win rate per faction and turn-order position (0 = start player; Kétharmad).
        lengths: game-length quantiles (turns and rounds), per cell (2 players) or overall
            (Kétharmad).
        games: the raw games, one row each (Kétharmad: with faction labels ``faction_0`` ...,
            the ``batch_seed`` and ``start_player`` needed to replay one with
            :func:`ketharmad.play`; a harness game: its batch's columns plus ``batch_seed``
            and the cell's bots, ``seat0_bot, seat1_bot`` or ``bot, field, bot_seat``); None
            when the run kept reductions instead of rows (``rows``, see
            :func:`ketharmad.matchups`).
        players: the raw per-(game, seat) rows with ``position`` (turn order from the
            start player); None without rows or for a harness game.
        stats: Kétharmad without rows, one :class:`ketharmad.run.reduce.Stats` per cell of the
            plan (in ``.plan`` order: 2 players, pair k with seat ``side`` starting is cell
            ``2 k + side``; 3-4 players, one cell per seating); None with rows.
        rows: whether the per-game rows were kept.
        by_seat, by_deck: win rate (a seat wins when its team wins) by seat and by deck label,
            with ``points_mean`` when the format scores victory points (Kétharmad).
        by_side: a harness game: ``sided_pairs``, per bot and side over every opponent
            (``bot, side, games, wins, win_rate, ci_low, ci_high``); ``field``, per bot and seat
            of the lone bot (``bot, seat, ...``), the seat effect. None for Kétharmad.
        sides: the matchup's sides in order: Kétharmad's deck labels, a harness game's bots.
        seat_names: a harness game's side of every seat (Schotten Totten 2: attacker,
            defender; a game without sides: seat0, seat1, ...); empty for Kétharmad.
        format: the format's name; teams: True for a team-pair table (a 2-against-2
            format: ``.table`` has one row per team and pairing).
        bots, seed, params, card_data, elapsed: the run's arguments and wall time.
        games_per_side, games_per_seating, games_per_cell, field: the run's size: games per
            side (2 players), per seating / rotation (3-4 players and teams) or per cell (a
            harness game), and a harness game's field bot (or None).
    """

    kind = "matchups"

    def __init__(self, **kw: Any) -> None:
        self.game: str = kw.get("game", "ketharmad")
        self.layout: str = kw["layout"]
        self._info: Optional[dict[str, Any]] = kw.get("info")  # a harness game's definition
        self.n_players: int = kw["n_players"]
        self.table: pl.DataFrame = kw["table"]
        self.start_player: Optional[pl.DataFrame] = kw.get("start_player")
        self.positions: Optional[pl.DataFrame] = kw.get("positions")
        self.lengths: Optional[pl.DataFrame] = kw.get("lengths")
        self.games: Optional[pl.DataFrame] = kw["games"]
        self.players: Optional[pl.DataFrame] = kw.get("players")
        self.stats: Optional[list[Stats]] = kw.get("stats")
        self.rows: bool = self.games is not None
        self._n_games: int = kw["n_games"]
        self.bots: Any = kw["bots"]
        self.field: Optional[str] = kw.get("field")
        self.seed: int = kw["seed"]
        self.params: dict[str, Union[int, float, bool, str]] = kw["params"]
        self.games_per_side: Optional[int] = kw.get("games_per_side")
        self.games_per_seating: Optional[int] = kw.get("games_per_seating")
        self.games_per_cell: Optional[int] = kw.get("games_per_cell")
        self.card_data: str = kw.get("card_data", f"game {self.game}")
        self.elapsed: float = kw["elapsed"]
        if self._info is None:
            self._card_text: str = kw["card_text"]
        self.plan = kw.get("plan")
        self.sides: list[str] = list(kw.get("sides") or _core.FACTIONS)
        self.seat_names: list[str] = list(kw.get("seat_names") or [])
        self.format: str = kw.get("format", "ffa")
        self.teams: bool = bool(kw.get("teams", False))
        self.by_seat: Optional[pl.DataFrame] = kw.get("by_seat")
        self.by_deck: Optional[pl.DataFrame] = kw.get("by_deck")
        self.by_side: Optional[pl.DataFrame] = kw.get("by_side")

    @property
    def n_games(self) -> int:
        return self._n_games

    @property
    def seats(self) -> int:
        """The seats of a game (:attr:`n_players`)."""
        return self.n_players

    @property
    def keys(self) -> list[str]:
        """The key columns of ``.table`` (:data:`KEY_COLUMNS`)."""
        return list(KEY_COLUMNS[self.layout])

    @property
    def field_table(self) -> bool:
        """True for a harness game of more than two seats (``layout == "field"``)."""
        return self.layout == "field"

    def matrix(self, value: str = "win_rate") -> pl.DataFrame:
        """The cells as a square table: ``pairs``, rows = faction, one column per opponent
        (in side order); ``sided_pairs``, rows = the first side's bot, one column per
        opponent; ``field``, rows = the lone bot, one column per field."""
        if self.layout == "pairs":
            wide = self.table.pivot(on="opponent", index="faction", values=value)
            return wide.select("faction", *[f for f in self.sides if f in wide.columns])
        if self.layout in ("sided_pairs", "field"):
            row, col = self.keys
            return self.table.pivot(on=col, index=row, values=value)
        raise ValueError("matrix() is for 2-player matchups; use .table for 3-4 players")

    def cycles(self) -> pl.DataFrame:
        """The ``pairs`` matrix split into deck strength and cycle (``ketharmad.lab.cycles``):
        one row per deck with its ``strength`` (win-rate points, summing to 0), the cycle's
        share of the imbalance (``cyclic_share``) and the ``floor``: the smallest worst pair
        deviation from 50 % (points) any change of the decks' strengths alone can reach;
        ``cycle`` names the decks of the cycle that sets it (docs/balance.md, "Cycles")."""
        if self.layout != "pairs":
            raise ValueError("cycles() is for 2-player matchups of decks (layout 'pairs')")
        m = self.matrix()
        decks = m["faction"].to_list()
        missing = [d for d in decks if d not in m.columns]
        if missing:
            raise ValueError(
                f"cycles() needs every deck against every other; no games against {missing}"
            )
        c = split_cycles(m.select(decks).to_numpy())
        loop = " > ".join(decks[i] for i in (*c.cycle, *c.cycle[:1]))
        return pl.DataFrame({
            "deck": decks, "strength": c.strength, "cyclic_share": [c.cyclic_share] * len(decks),
            "floor": [c.floor] * len(decks), "cycle": [loop] * len(decks),
        })  # fmt: skip

    def tables(self) -> dict[str, pl.DataFrame]:
        """The tables by name; ``matchup_games``/``matchup_players`` only when rows were kept
        (a harness game's names end in ``_<game>``)."""
        suffix = "" if self.n_players == 2 else f"_{self.n_players}p"
        if self.teams:
            suffix = f"_{self.format}"
        if self._info is not None:
            suffix = f"_{self.game}"
        out = {
            f"matchups{suffix}": self.table,
            f"matchup_by_seat{suffix}": self.by_seat,
            f"matchup_by_deck{suffix}": self.by_deck,
            f"matchup_by_side{suffix}": self.by_side,
            f"matchup_games{suffix}": self.games,
            f"matchup_players{suffix}": self.players,
            f"matchup_lengths{suffix}": self.lengths,
            f"matchup_positions{suffix}": self.positions,
            "start_player": self.start_player,
        }
        return {k: v for k, v in out.items() if v is not None}

    def _decks(self) -> Any:
        if self._info is not None:  # the game, its seats and side names
            return {"game": self.game, "seats": self.n_players, "sides": self.seat_names}
        if self.plan is not None:  # the cells' deck lists in plan order (= the games' order)
            return [list(d) for d in dict.fromkeys(tuple(c["decks"]) for c in self.plan)]
        assert self.games is not None
        cols = [f"faction_{i}" for i in range(self.n_players)]
        return [list(d) for d in self.games.select(cols).unique(maintain_order=True).rows()]

    def text(self) -> str:
        return matchups_text(self)

    def _markdown(self, folder: Optional[Path], plots: bool) -> list[str]:
        return _matchups_md(self, folder, plots)

    def html_views(self) -> list[Any]:
        """The report's win-rate heatmap (two seats) or faction / team bars and turn-order
        heatmap (3-4 players), and the win rate per deck or side."""
        return matchup_views(self)

    def plots(self, folder: Union[str, os.PathLike[str]]) -> list[Path]:
        """2 players (and a harness game): the win-rate heatmap; 3-4 players: the faction
        win-rate bars."""
        root = Path(folder)
        root.mkdir(parents=True, exist_ok=True)
        if self._info is not None:
            return [plot_matchup_heatmap(self, root / f"matchups_{self.game}_heatmap.png")]
        if self.n_players == 2:
            return [plot_matchup_heatmap(self, root / "matchups_heatmap.png")]
        if self.teams:
            return [plot_faction_bars(self, root / f"matchups_{self.format}_teams.png")]
        return [plot_faction_bars(self, root / f"matchups_{self.n_players}p_bars.png")]


def _check_single_bot(bots: object) -> BotSpec:
    if isinstance(bots, (list, tuple)):
        raise ValueError(
            "matchups takes one bot spec for every seat (seats are fixed per side), "
            f"got a list of {len(bots)}"
        )
    return _check_bot_spec(bots, "bots", agents=True)


def _seat_bots(spec: BotSpec, n: int) -> list[Any]:
    return [dict(spec) if isinstance(spec, Mapping) else spec for _ in range(n)]


@fold_run_options("threads", "chunk_size", "progress", "executor", "cluster", "rows")
def matchups(
    players: Optional[int] = None,
    games_per_side: Optional[int] = None,
    bots: Any = None,
    seed: int = 0,
    params: Optional[Mapping[str, Union[int, float, bool, str]]] = None,  # float: harness games
    *,
    games: Optional[int] = None,
    decks: Optional[Sequence[Any]] = None,
    game: Union[str, GameSpec] = "ketharmad",
    field: Optional[str] = None,
    games_for: Optional[Mapping[str, int]] = None,
    run: RunArg = None,
    **setup: Unpack[SetupKeywords],
) -> MatchupResult:
    """Every faction (or deck) against every other, with the start player balanced.

    ``decks``: the sides (default the four factions): factions, Mixed decks ``"a+b"``,
    custom lists or deck files (docs/decks.md), each labelled by its deck label in every
    table (the ``faction`` columns hold the labels). A cell whose decks take cards from one
    faction deck (a mirror, ``"ner+tisza"`` against ``"tisza"``, a custom list) gets
    ``rules.allow_mirror = True``. With more than four sides a 3-4 player run plays every
    ordered choice of them (``games`` a multiple of that number).

    ``card_data``, ``format`` (the game format, docs/formats.md) and, for the harness
    games, ``seats`` are setup keywords (:class:`ketharmad.game.spec.SetupKeywords`; or set
    them in ``game=load_game(...)``), as in :func:`ketharmad.simulate`.
    ``players`` defaults to 2, or the format's smallest seat count when that is more
    (Coalition: 4). A 2-against-2 format (``"coalition"``, partners opposite) gives the
    **team-pair table** instead: every split of the sides into two teams of two (3 for four
    sides), each played in the 4 rotations of the seating ``[a1, b1, a2, b2]`` (so every
    team holds seats 0 + 2 and 1 + 3 and every deck every seat) with seat 0 starting (each
    team starts in two rotations); ``games`` per team pairing (a multiple of 4, default
    2,000). ``.table`` has one row per team and pairing, best first: ``team`` ("a + b"),
    ``against``, ``games, wins, win_rate, ci_low, ci_high`` (Wilson 95 %; unfinished games
    count as losses of both teams), ``unfinished, no_winner, on_play_games,
    on_play_win_rate`` (when the team started). The start-player table compares the start
    player's team with the even share of a team (50 %). Every run also has ``.by_seat`` and
    ``.by_deck``: win rate by seat and by deck (a seat wins when its team wins) and, when the
    format scores victory points, ``points_mean``.

    **2 players** (default): each unordered pair of factions, mirrors included (10 pairs),
    plays ``2 * games_per_side`` games: ``games_per_side`` with each side as the start player
    (``start_player`` fixed, the pair's first faction always in seat 0). Mirrors get
    ``rules.allow_mirror = True`` added to ``params``. ``.table`` has one row per ordered cell
    (16 rows; the cells (A, B) and (B, A) are the same games seen from each side; a mirror
    cell is seen from seat 0):

    ``faction, opponent, games, wins, win_rate, ci_low, ci_high`` (Wilson 95 %; the
    denominator counts every game, so ``win_rate(A, B) + win_rate(B, A) + no_winner / games
    = 1``), ``unfinished`` (hit a round or action cap), ``no_winner`` (unfinished or
    simultaneous elimination), ``start_wins, start_win_rate, start_ci_low, start_ci_high``
    (how often the start player won the cell's games), ``on_play_win_rate`` (the faction's
    win rate when it started) and ``on_draw_win_rate`` (when the opponent started).
    ``games`` may be given instead of ``games_per_side`` as the games per cell (even);
    giving both is an error. Neither: ``games_per_side=2000``.

    **3 or 4 players**: a free-for-all over all 24 seatings (ordered choices of the
    factions), ``games`` in total (default 1,920 = 80 per seating; a multiple of 24), seat 0
    always starting, so every faction starts equally often and meets every turn order.
    ``.table`` has one row per faction: ``faction, games, wins, win_rate, ci_low, ci_high,
    unfinished, no_winner, on_play_games, on_play_win_rate``. ``games_per_side`` is for 2
    players only.

    All games of a call are games of ONE batch (seed ``seed``) with distinct game indices, so
    any of them can be replayed: ``play([faction_0, faction_1], bots, seed=batch_seed,
    index=game, start_player=start_player, params=...)``.

    ``bots``: one built-in bot spec (default ``"heuristic"``), or a Python agent (see :func:`ketharmad.simulate`,
    docs/python_agents.md) that then plays every seat (each seat with its own generator);
    its games are played game by game with :class:`ketharmad.Game`, much slower.

    ``run``: how the games run (:class:`ketharmad.RunOptions` or a dict of its fields; the
    older keywords ``threads=``, ``chunk_size=``, ``progress=``, ``executor=``, ``cluster=``,
    ``rows=`` work until 0.3.0 with a DeprecationWarning). ``run.executor``: None, or a
    ``concurrent.futures.Executor`` the plan runner (:mod:`ketharmad.run.plan`) submits its
    shards to; the results are the same. ``run.cluster``: run on Dask instead (``"local"``, a
    scheduler address or a ``dask.distributed.Client``; the ``dask`` extra,
    docs/scale_out.md); same results.

    ``run.rows``: keep the per-game rows (``.games``, ``.players``) or only reductions (integer
    statistics per cell, :class:`ketharmad.run.reduce.Stats`; memory does not grow with the
    number of games, so there is no memory check). None (default): rows for a run of at
    most 1,000,000 games (``ROWS_AUTO_LIMIT``), reductions above. False: reductions. True:
    rows (refused before any game runs when they would not fit in memory). The tables
    (``.table``, ``.start_player``, ``.positions``, ``.lengths``) are the same either way,
    bit for bit; without rows ``.games`` and ``.players`` are None, ``.stats`` holds the
    per-cell statistics, and a ``.lengths`` quantile that falls among games of 256 or more
    turns (rounds) is null (the histogram's overflow bin; the means and maxima stay exact).

    Returns a :class:`MatchupResult` (``.table``, ``.start_player``, ``.positions``,
    ``.lengths``, ``.games``, ``.players``, ``.matrix()``, ``.write_parquet(folder)``), the
    same class for every game.

    **Other games** (``game="schotten_totten_2"`` or ``"osztrakon"``, docs/games.md): the
    sides are bots. ``bots``: a list of bot specs (default: the game's bots except
    ``search``); ``games``: games per cell (default 1,000); ``seed``, ``params`` (the game's
    parameters, :func:`ketharmad.games`) and ``run`` (``threads``, ``rows``, ``chunk_size``,
    ``executor``, ``cluster``: every cell's games run as shards on that executor or Dask
    cluster, as :func:`ketharmad.games.simulate_game` runs them; the same results as
    without). Schotten Totten 2 (layout ``sided_pairs``) plays every ordered pairing of
    ``bots``, one bot per side: ``.table`` has one row per pairing, ``bot`` (the Attacker's)
    and ``opponent`` (the Defender's), ``games, wins`` (the Attacker's), ``opponent_wins,
    no_winner, unfinished, win_rate, ci_low, ci_high`` (the Attacker's win rate over all
    games, Wilson 95 %), ``turns_mean, games_per_second``. Osztrakon (layout ``field``)
    plays each bot on one seat against a ``field`` of another bot (default: every other bot
    of ``bots`` in turn) on the other ``seats - 1`` seats (``seats`` 5-12, default 5), its
    seat rotating: ``bot, field, seats, games, wins, win_rate, ci_low, ci_high, even_share,
    field_wins, no_winner, unfinished, turns_mean, games_per_second``. ``games_for`` caps the
    games of a cell whose bot specs contain a key (``{"search": 200}``). ``.by_side`` holds
    each bot's wins per side (per seat of the lone bot), ``.games`` the games' rows. The
    Kétharmad-only arguments (``players``, ``games_per_side``, ``card_data``,
    ``run.progress``, ``decks``, ``format``) are refused with a ValueError naming them, and
    ``seats``, ``field``, ``games_for`` with Kétharmad.

    Every game goes the same way: its side lays out the cells (:class:`ketharmad.game.driver.
    Block`: :func:`pair_cells`, :func:`seating_cells`, :func:`team_cells`,
    :func:`sided_pair_cells`, :func:`field_cells`), the driver plays them
    (:meth:`~ketharmad.game.driver.GameDriver.play_cells`: Kétharmad on the plan runner, rows
    or reductions; the others through ``simulate_game``) and one :class:`MatchupResult` holds
    the tables.
    """
    card_data, format, seats = take_setup("matchups", setup, ("card_data", "format", "seats"))
    run = RunOptions.of(run)
    if isinstance(game, GameSpec):  # a game value: its setup, with this call's explicit keywords
        game_spec, decks, card_data, format, params, seats = setup_of(
            game, "matchups", decks=decks, card_data=card_data, format=format, params=params, seats=seats)  # fmt: skip
        game = game_spec.name
    driver = driver_for(game)
    if driver.is_ketharmad:
        driver.refuse("matchups", {"seats": seats is not None, "field": field is not None,
                                   "games_for": games_for is not None})  # fmt: skip
        lay = _ketharmad_layout(players, games_per_side, bots, seed, params, card_data, games, decks,
                                format, run)  # fmt: skip
    else:
        driver.refuse("matchups", {
            "players": players is not None, "games_per_side": games_per_side is not None,
            "card_data": card_data is not None, "progress": run.progress is not False, "decks": decks is not None,
            "format": format is not None,
        }, "bots (a list of specs), games (per cell), seed, threads, params, rows, seats, field, games_for, "
           "chunk_size, executor and cluster")  # fmt: skip
        lay = _harness_layout(driver, bots, games, seed, params, seats, field, games_for, run)
    # every cell is checked before anything runs (Kétharmad: the core validates each distinct
    # cell; a harness game: one game of each bot)
    driver.check_cells(lay.blocks, lay.seed, lay.params, **lay.setup)
    n_games = sum(b.games for b in lay.blocks)
    meter = Progress(n_games, lay.title, enabled=run.progress)
    start = time.perf_counter()
    with executor_for(run.executor, run.cluster) as ex:
        played = driver.play_cells(lay.blocks, lay.seed, lay.params, rows=lay.rows, threads=lay.threads,
                                   executor=ex, progress=meter, **lay.setup)  # fmt: skip
    elapsed = time.perf_counter() - start
    meter.close()
    tables = lay.tables(lay.blocks, played)
    return MatchupResult(game=driver.name, layout=lay.layout, **tables, n_games=n_games, seed=lay.seed,
                         params=lay.params, elapsed=elapsed, plan=played.plan, **lay.result)  # fmt: skip


# -- the cells: each layout a generator of blocks over the sides ------------------------------


def pair_cells(
    pairs: Sequence[tuple[str, str]], bots: tuple[Any, ...], per: int, params_for: ParamsFor
) -> Iterator[Block]:
    """Kétharmad's ``pairs``: cell ``2 k + side`` is pair ``k`` (its first deck on seat 0)
    with seat ``side`` starting, games ``(2 k + side) * per ..``."""
    for k, (a, b) in enumerate(pairs):
        p = params_for((a, b))
        for side in (0, 1):
            yield Block(bots, (2 * k + side) * per, per, (a, b), start_player=side, params=p)


def seating_cells(
    seatings: Sequence[tuple[str, ...]], bots: tuple[Any, ...], per: int, params_for: ParamsFor
) -> Iterator[Block]:
    """Kétharmad's ``seatings``: cell ``s`` is seating ``s`` with seat 0 starting, games
    ``s * per ..``."""
    for s, seating in enumerate(seatings):
        yield Block(bots, s * per, per, tuple(seating), start_player=0, params=params_for(seating))


def team_cells(
    splits: Sequence[Any], bots: tuple[Any, ...], per: int, params_for: ParamsFor
) -> Iterator[Block]:
    """Kétharmad's ``teams``: cell ``4 s + r`` is split ``s`` in rotation ``r`` of the
    seating ``[a1, b1, a2, b2]`` (partners opposite, E81) with seat 0 starting, games
    ``(4 s + r) * per ..``."""
    for si, ((a1, a2), (b1, b2)) in enumerate(splits):
        cycle = [a1, b1, a2, b2]
        name = f"{' + '.join(_labels_of((a1, a2)))} against {' + '.join(_labels_of((b1, b2)))}"
        for r in range(4):
            decks = tuple(cycle[r:] + cycle[:r])
            yield Block(bots, (4 * si + r) * per, per, decks, start_player=0, params=params_for(decks),
                        label=f"{name}, rotation {r}")  # fmt: skip


def sided_pair_cells(
    pairings: Sequence[tuple[str, str]], games_for: Callable[[Sequence[str]], int]
) -> Iterator[Block]:
    """A harness game of two seats (``sided_pairs``): pairing ``(a, b)`` plays games ``0 ..``
    of ``a`` on seat 0 against ``b`` on seat 1."""
    for a, b in pairings:
        yield Block((a, b), 0, games_for((a, b)))


def field_cells(
    pairings: Sequence[tuple[str, str]], seats: int, games_for: Callable[[Sequence[str]], int]
) -> Iterator[Block]:
    """A harness game of more seats (``field``): ``(bot, field)`` plays its games with the
    bot on one seat and the field on the others, the bot's seat rotating (seat ``s`` the
    ``s``-th share of the games, :func:`ketharmad.lab.harness._rotation`)."""
    for bot, fld in pairings:
        for s, first, share in _rotation(games_for((bot, fld)), seats):
            lineup = [fld] * seats
            lineup[s] = bot
            yield Block(tuple(lineup), first, share)


# -- the layouts: what each game's side decides -------------------------------------------------


@dataclass
class _Layout:
    """The cells of a run and how its tables come from what the driver played."""

    layout: str
    blocks: list[Block]
    seed: int
    params: dict[str, Any]
    threads: Optional[int]
    rows: bool
    tables: Callable[[list[Block], Played], dict[str, Any]]
    title: str = "matchups"
    setup: dict[str, Any] = dataclasses.field(default_factory=dict)  # the driver's setup
    result: dict[str, Any] = dataclasses.field(default_factory=dict)  # the result's own


def _ketharmad_layout(players: Optional[int], games_per_side: Optional[int], bots: Any, seed: int,
                      params: Any, card_data: CardDataSource, games: Optional[int], decks: Any, format: Any,
                      run: RunOptions) -> _Layout:  # fmt: skip
    """Kétharmad's arguments checked and its layout chosen: ``teams`` (a 2-against-2
    format), ``pairs`` (2 players) or ``seatings`` (3 or more)."""
    threads, chunk_size, executor, cluster, rows = (run.threads, run.chunk_size, run.executor, run.cluster,
                                                    run.rows)  # fmt: skip
    spec = _check_single_bot("heuristic" if bots is None else bots)
    seed_ = check_seed(seed)
    threads_ = check_threads(threads)
    text, params_ = apply_format(load_card_data(card_data), check_params(params), format)
    info = format_info(text, params_)
    if players is None:
        n = max(2, info.seats_min)
    else:
        n = check_int("players", players, 2, 9)
    if not info.seats_min <= n <= info.seats_max:
        raise ValueError(
            f"the {info.name!r} format plays {info.seats_min}-{info.seats_max} seats, got players={n}"
        )
    sides = _sides(decks)
    chunk_ = check_chunk_size(chunk_size)
    check_cluster_arg(cluster, executor)
    if rows is not None:
        rows = check_flag("rows", rows)
    if games is not None and games_per_side is not None:
        raise ValueError(
            f"give games_per_side (games per pair with each side starting) or games (games per "
            f"cell), not both; got games_per_side={games_per_side!r} and games={games!r}"
        )
    if n > 2 and games_per_side is not None:
        raise ValueError(
            f"games_per_side is for 2-player matchups; for {n} players give games (in total, "
            "a multiple of the seatings)"
        )
    common = dict(
        seed=seed_,
        params=params_,
        threads=threads_,
        setup={"card_text": text, "chunk_size": chunk_},
    )
    result = dict(
        bots=spec, card_data=describe_card_data(card_data), card_text=text, format=info.name
    )
    params_for: ParamsFor = functools.partial(_cell_params, params_)
    if info.team_pairs:
        if len(sides) < 4:
            raise ValueError(
                f"the {info.name!r} format's team-pair table needs at least 4 decks, got {len(sides)}"
            )
        per_pairing = DEFAULT_TEAM_GAMES if games is None else check_int("games", games, 4)
        if per_pairing % 4:
            raise ValueError(
                f"games (per team pairing, 4 seat rotations) must be a multiple of 4, got {per_pairing}"
            )
        splits = team_splits(list(sides))
        keep = rows if rows is not None else per_pairing * len(splits) <= ROWS_AUTO_LIMIT
        per = per_pairing // 4
        if keep:
            check_memory(f"matchups(format={info.name!r}, games={4 * per * len(splits):,})", 4 * per * len(splits),
                         4, min(chunk_ or per, per), tables=("games", "players"), chunked=chunk_ is not None)  # fmt: skip
        blocks = list(team_cells(splits, tuple(_seat_bots(spec, 4)), per, params_for))
        return _Layout("teams", blocks, rows=keep, title=f"matchups {info.name}", **common,  # type: ignore[arg-type]
                       tables=functools.partial(_team_tables, splits, seed_, keep, info),
                       result=dict(result, n_players=4, games_per_seating=per, sides=_labels_of(sides),
                                   teams=True))  # fmt: skip
    if n == 2:
        if games is not None:
            per_cell = check_int("games", games, 2)
            if per_cell % 2:
                raise ValueError(
                    f"games (per cell, both start players) must be even, got {per_cell}"
                )
            gps = per_cell // 2
        else:
            gps_ = DEFAULT_GAMES_PER_SIDE if games_per_side is None else games_per_side
            gps = check_int("games_per_side", gps_, 1)
        pairs = [(a, b) for i, a in enumerate(sides) for b in sides[i:]]  # mirrors included
        keep = rows if rows is not None else 2 * len(pairs) * gps <= ROWS_AUTO_LIMIT
        if keep:  # reductions keep no rows: nothing grows with the games
            check_memory(f"matchups(games_per_side={gps:,})", 2 * gps * len(pairs), 2, min(chunk_ or gps, gps),
                         tables=("games", "players"), chunked=chunk_ is not None)  # fmt: skip
        blocks = list(pair_cells(pairs, tuple(_seat_bots(spec, 2)), gps, params_for))
        return _Layout("pairs", blocks, rows=keep, **common,  # type: ignore[arg-type]
                       tables=functools.partial(_pair_tables, seed_, keep, info),
                       result=dict(result, n_players=2, games_per_side=gps, sides=_labels_of(sides)))  # fmt: skip
    if len(sides) < n:
        raise ValueError(f"a {n}-player matchup needs at least {n} decks, got {len(sides)}")
    seatings = list(itertools.permutations(sides, n))
    total = (
        DEFAULT_FFA_GAMES * len(seatings) // 24
        if games is None
        else check_int("games", games, len(seatings))
    )
    if total % len(seatings):
        raise ValueError(
            f"games must be a multiple of {len(seatings)} (every seating equally often), got "
            f"{total}; e.g. {total - total % len(seatings) or len(seatings)} or "
            f"{total + len(seatings) - total % len(seatings)}"
        )
    keep = rows if rows is not None else total <= ROWS_AUTO_LIMIT
    per = total // len(seatings)
    if keep:
        check_memory(f"matchups(players={n}, games={per * len(seatings):,})", per * len(seatings), n,
                     min(chunk_ or per, per), tables=("games", "players"), chunked=chunk_ is not None)  # fmt: skip
    blocks = list(seating_cells(seatings, tuple(_seat_bots(spec, n)), per, params_for))
    return _Layout("seatings", blocks, rows=keep, title=f"matchups {n}p", **common,  # type: ignore[arg-type]
                   tables=functools.partial(_seating_tables, n, seatings, seed_, keep, info),
                   result=dict(result, n_players=n, games_per_seating=per,
                               sides=list(dict.fromkeys(f for seating in seatings for f in _labels_of(seating)))))  # fmt: skip


def _harness_layout(driver: Any, bots: Any, games: Optional[int], seed: object, params: Any, seats: Any,
                    field: Any, games_for: Any, run: RunOptions) -> _Layout:  # fmt: skip
    """A harness game's arguments checked and its layout chosen: ``sided_pairs`` (two
    seats: every ordered pairing of bots) or ``field`` (more seats: every bot against a
    field of each other bot, or of ``field``)."""
    name = driver.name
    if isinstance(bots, str):
        raise ValueError(
            f"matchups(game={name!r}) takes a list of bot specs (the sides), got {bots!r}"
        )
    info = harness_info(name)
    bots_ = _default_bots(info) if bots is None else check_bot_specs(bots)
    n = DEFAULT_GAMES_PER_CELL if games is None else _check_whole("games", games, 1)
    seed_ = _check_whole("seed", seed, 0)
    params_ = _params_of(params)
    caps = dict(games_for or {})
    for key, v in caps.items():
        if not isinstance(key, str):
            raise ValueError(f"games_for keys must be parts of bot specs (strings), got {key!r}")
        _check_whole(f"games_for[{key!r}]", v, 1)
    rows = run.rows
    if rows is not None and not isinstance(rows, bool):
        raise ValueError(f"rows must be None, True or False, got {rows!r}")
    _run_args(run.chunk_size, run.executor, run.cluster)

    def n_games(specs: Sequence[str]) -> int:
        return min([n, *(v for k, v in caps.items() if any(k in b for b in specs))])

    two = info["max_seats"] == 2
    if two:
        if seats not in (None, 2):
            raise ValueError(f"{name} takes 2 to 2 seats, got seats={seats!r}")
        if field is not None:
            raise ValueError(
                f"field is for games of more than two seats (osztrakon); {name} plays bot against bot"
            )
        k = 2
        pairings = [(a, b) for a in bots_ for b in bots_]
    else:
        k = _check_seats(info, seats)
        if field is not None and not isinstance(field, str):
            raise ValueError(f"field must be one bot spec string, got {field!r}")
        if field is None and len(bots_) < 2:
            raise ValueError("with one bot, name the field it plays against (field='random')")
        pairings = [
            (b, o)
            for b in bots_
            for o in ([field] if field is not None else [x for x in bots_ if x != b])
        ]
    total = sum(n_games(c) for c in pairings)
    keep = rows if rows is not None else total <= ROWS_AUTO_LIMIT
    seat_names = _side_names(info, k)
    blocks = list(sided_pair_cells(pairings, n_games) if two else field_cells(pairings, k, n_games))
    tables = (functools.partial(_sided_pair_tables, pairings, seat_names, bots_, seed_, keep) if two
              else functools.partial(_field_tables, pairings, k, n_games, seed_, keep))  # fmt: skip
    return _Layout("sided_pairs" if two else "field", blocks, seed_, params_, run.threads, keep, tables,
                   setup={"chunk_size": run.chunk_size},
                   result=dict(info=info, n_players=k, seat_names=seat_names, sides=bots_, bots=bots_,
                               field=field, games_per_cell=n))  # fmt: skip


def _sides(decks: Any) -> list[str]:
    """The matchup's sides as deck strings: the four factions, or ``decks`` (factions, Mixed
    decks ``"a+b"``, custom lists, deck files; docs/decks.md) with distinct labels."""
    if decks is None:
        return list(_core.FACTIONS)
    if isinstance(decks, (str, bytes, Mapping)) or not isinstance(decks, (list, tuple)):
        raise ValueError(
            "decks must be a list of decks (factions, Mixed decks 'a+b', custom decks, deck files), "
            f"one per side, got {decks!r}"
        )
    if len(decks) < 2:
        raise ValueError(f"decks must name at least 2 sides, got {len(decks)}")
    factions = list(_core.FACTIONS)
    out = []
    for d in decks:
        if (
            isinstance(d, str)
            and not any(ch in d for ch in "+[")
            and not d.endswith(".toml")
            and d not in factions
        ):
            raise ValueError(f"unknown faction {d!r} in decks; valid factions: {', '.join(factions)} "
                             "(or a Mixed deck 'a+b', a custom deck, a deck file: docs/decks.md)")  # fmt: skip
        out.append(deck_string(d))
    labels = [deck_label(d) for d in out]
    twice = sorted({x for x in labels if labels.count(x) > 1})
    if twice:
        raise ValueError(
            f"decks: each side needs its own label, got {', '.join(twice)} more than once"
        )
    return out


def _shares_a_deck(decks: Sequence[str]) -> bool:
    """Whether two of ``decks`` take cards from one faction deck (a mirror match: the cell
    needs ``rules.allow_mirror``); a custom list counts as sharing (its factions are known to
    the core only)."""
    seen: set[str] = set()
    for d in decks:
        fs = deck_factions(d)
        if fs is None or fs & seen:
            return True
        seen |= fs
    return False


def _cell_params(
    params: Mapping[str, Union[int, bool, str]], decks: Sequence[str]
) -> dict[str, Union[int, bool, str]]:
    p = dict(params)
    if _shares_a_deck(decks):
        p.setdefault("rules.allow_mirror", True)
    return p


# -- the tables of each layout, from what the driver played ------------------------------------


def _pair_tables(
    seed: int, rows: bool, info: FormatInfo, cells: list[Block], played: Played
) -> dict[str, Any]:
    """``pairs``: the 2-player tables from the cells' frames or reductions."""
    results = played.results
    tables = _two_player_rows(cells, results, seed) if rows else _two_player_stats(cells, results)
    tables.update(_standings(cells, results, rows, info))
    return tables


def _seating_tables(n: int, seatings: list[tuple[str, ...]], seed: int, rows: bool, info: FormatInfo,
                    cells: list[Block], played: Played) -> dict[str, Any]:  # fmt: skip
    """``seatings``: the free-for-all tables from the cells' frames or reductions."""
    results = played.results
    lead = info.lead_seat if info.teams else None
    tables = (
        _free_for_all_rows(n, seatings, results, seed)
        if rows
        else _free_for_all_stats(n, cells, results, lead)
    )
    tables.update(_standings(cells, results, rows, info))
    if info.teams:  # the start player's team against a team's even share
        tables["start_player"] = tables["start_player"].with_columns(
            even_share=pl.lit(1.0 / len(info.teams))
        )
    return tables


def _team_tables(splits: list[Any], seed: int, rows: bool, info: FormatInfo, cells: list[Block],
                 played: Played) -> dict[str, Any]:  # fmt: skip
    """``teams``: the team-pair table of a 2-against-2 format (cell ``4 s + r``: split ``s``,
    rotation ``r``, :func:`team_cells`) and the free-for-all tables of its seats."""
    results = played.results
    # per cell: games won by the team of seats 0 + 2 (winner column 0) and of 1 + 3 (1)
    counts: list[
        tuple[int, int, int, int]
    ] = []  # games, wins seat 0, wins seat 1, unfinished (capped)
    no_winner: list[int] = []
    for res in results:
        if rows:
            g = res.games
            counts.append((g.height, int((g["winner"] == 0).sum()), int((g["winner"] == 1).sum()),
                           int(g.select(_unfinished().sum()).item())))  # fmt: skip
            no_winner.append(int(g["winner"].null_count()))
        else:
            counts.append((res.games, res.wins_seat[0], res.wins_seat[1], _unfinished_count(res)))
            no_winner.append(res.unfinished)
    table_rows = []
    for si, ((a1, a2), (b1, b2)) in enumerate(splits):
        acc = {"A": [0, 0, 0], "B": [0, 0, 0]}  # games, wins, games as the start team
        unf = nw = 0
        for r in range(4):
            k = 4 * si + r
            games_k, w0, w1, u = counts[k]
            even = r % 2 == 0  # rotations 0 and 2 seat team A at 0 + 2 (it starts)
            for team, wins, starts in (
                ("A", w0 if even else w1, even),
                ("B", w1 if even else w0, not even),
            ):
                acc[team][0] += games_k
                acc[team][1] += wins
                acc[team][2] += games_k if starts else 0
            unf += u
            nw += no_winner[k]
        start_wins = {"A": 0, "B": 0}
        for r in range(4):
            _, w0, _w1, _ = counts[4 * si + r]
            start_wins["A" if r % 2 == 0 else "B"] += w0  # seat 0 starts: team of 0 + 2
        for team, members, other in (("A", (a1, a2), (b1, b2)), ("B", (b1, b2), (a1, a2))):
            g_, w_, on_play = acc[team]
            table_rows.append(dict(team=" + ".join(_labels_of(members)), against=" + ".join(_labels_of(other)),
                                   games=g_, wins=w_, unfinished=unf, no_winner=nw, on_play_games=on_play,
                                   on_play_wins=start_wins[team]))  # fmt: skip
    ints = ("games", "wins", "unfinished", "no_winner", "on_play_games", "on_play_wins")
    counts_df = pl.DataFrame(
        table_rows, schema={"team": pl.String, "against": pl.String, **{c: pl.Int64 for c in ints}}
    )
    table = (
        counts_df.with_columns(*_rate_columns("wins", "games"), on_play_win_rate=rate("on_play_wins", "on_play_games"))
        .sort("win_rate", "team", descending=[True, False])
        .select("team", "against", "games", "wins", "win_rate", "ci_low", "ci_high", "unfinished", "no_winner",
                "on_play_games", "on_play_win_rate")
    )  # fmt: skip
    if rows:
        tables = _free_for_all_rows(
            4, [c.decks for c in cells if c.decks is not None], results, seed
        )
        tables["games"] = tables["games"].with_columns(
            team_0=pl.format("{} + {}", "faction_0", "faction_2"),
            team_1=pl.format("{} + {}", "faction_1", "faction_3"),
        )
    else:
        tables = _free_for_all_stats(4, cells, results, info.lead_seat)
    tables["table"] = table
    tables.update(_standings(cells, results, rows, info))
    # the start player's team won (seat 0 starts every cell: the team of seats 0 + 2)
    games_all = sum(c[0] for c in counts)
    sw = sum(c[1] for c in counts)
    tables["start_player"] = _start_player_rates(
        pl.DataFrame(
            {"games": [games_all], "start_wins": [sw]},
            schema={"games": pl.Int64, "start_wins": pl.Int64},
        ),
        2,
    )
    return tables


def _harness_cell(r: Any, seat: int) -> tuple[int, int, int, int, float]:
    """A harness block's counts: games won by ``seat``, decided games, games without a
    winner, unfinished games and the sum of the games' turns (rows or reductions)."""
    if isinstance(r, SimResult):
        w = int(r.players.filter(pl.col("seat") == seat)["won"].sum())
        decided = int((r.games["winners_mask"] != 0).sum())
        return (
            w,
            decided,
            r.games.height - decided,
            int(r.games["unfinished"].sum()),
            float(r.games["turns"].sum()),
        )
    turns = float(sum(t_ * c for t_, c in r.turns.items()))
    return r.wins[seat], r.games - r.no_winner, r.no_winner, r.unfinished, turns  # fmt: skip


def _sided_pair_tables(pairings: list[tuple[str, str]], seat_names: list[str], bots: list[str], seed: int,
                       rows: bool, cells: list[Block], played: Played) -> dict[str, Any]:  # fmt: skip
    """``sided_pairs``: one row per ordered pairing (``bot`` on the first side against
    ``opponent``), each bot's wins per side, and the games' rows."""
    s0, s1 = seat_names
    assert played.seconds is not None
    table_rows, parts = [], []
    acc: dict[tuple[str, str], list[int]] = {}
    for (a, b), r, secs in zip(pairings, played.results, played.seconds, strict=True):
        n = int(r.games) if isinstance(r, GameStats) else r.games.height
        if isinstance(r, GameStats):
            w0, w1 = r.wins
            no_winner, unfinished, turns_mean = r.no_winner, r.unfinished, r.turns_mean
        else:
            w0, w1 = (int(r.players.filter(pl.col("seat") == s)["won"].sum()) for s in (0, 1))
            no_winner = int((r.games["winners_mask"] == 0).sum())
            unfinished = int(r.games["unfinished"].sum())
            turns_mean = float(cast(float, r.games["turns"].mean()))
            parts.append(r.games.with_columns(batch_seed=pl.lit(seed, pl.UInt64), seat0_bot=pl.lit(a),
                                              seat1_bot=pl.lit(b)))  # fmt: skip
        rate_, lo, hi = _wilson(w0, n)
        table_rows.append({"bot": a, "opponent": b, "games": n, "wins": w0, "opponent_wins": w1,
                           "no_winner": no_winner, "unfinished": unfinished, "win_rate": rate_, "ci_low": lo,
                           "ci_high": hi, "turns_mean": turns_mean,
                           "games_per_second": n / secs if secs > 0 else math.inf})  # fmt: skip
        for bot, side, w in ((a, s0, w0), (b, s1, w1)):
            got = acc.setdefault((bot, side), [0, 0])
            got[0] += n
            got[1] += w
    side_rows = []
    for bot in bots:
        for side in seat_names:
            g, w = acc[(bot, side)]
            rate_, lo, hi = _wilson(w, g)
            side_rows.append({"bot": bot, "side": side, "games": g, "wins": w, "win_rate": rate_, "ci_low": lo,
                              "ci_high": hi})  # fmt: skip
    return dict(table=pl.DataFrame(table_rows), by_side=pl.DataFrame(side_rows),
                games=pl.concat(parts) if rows and parts else None)  # fmt: skip


def _field_tables(pairings: list[tuple[str, str]], k: int, games_for: Callable[[Sequence[str]], int], seed: int,
                  rows: bool, cells: list[Block], played: Played) -> dict[str, Any]:  # fmt: skip
    """``field``: one row per bot and field (the bot's seat rotating, :func:`field_cells`),
    each bot's wins per seat, and the games' rows."""
    assert played.seconds is not None
    done = iter(zip(played.results, played.seconds, strict=True))
    table_rows, parts = [], []
    acc: dict[tuple[str, int], list[int]] = {}
    for bot, fld in pairings:
        n = games_for((bot, fld))
        wins = field_wins = no_winner = unfinished = 0
        turns = secs = 0.0
        cell_parts = []
        for s, _first, share in _rotation(n, k):
            r, t = next(done)
            w, decided, _none, unf, tsum = _harness_cell(r, s)
            if isinstance(r, SimResult):
                cell_parts.append(r.games.with_columns(batch_seed=pl.lit(seed, pl.UInt64), bot=pl.lit(bot),
                                                       field=pl.lit(fld), bot_seat=pl.lit(s, pl.UInt8)))  # fmt: skip
            wins += w
            field_wins += decided - w
            no_winner += share - decided
            unfinished += unf
            turns += tsum
            secs += t
            got = acc.setdefault((bot, s), [0, 0])
            got[0] += share
            got[1] += w
        if rows and cell_parts:
            parts.append(pl.concat(cell_parts))
        rate_, lo, hi = _wilson(wins, n)
        table_rows.append({"bot": bot, "field": fld, "seats": k, "games": n, "wins": wins, "win_rate": rate_,
                           "ci_low": lo, "ci_high": hi, "even_share": 1 / k, "field_wins": field_wins,
                           "no_winner": no_winner, "unfinished": unfinished, "turns_mean": turns / n,
                           "games_per_second": n / secs if secs > 0 else math.inf})  # fmt: skip
    seat_rows = []
    for (bot, s), (g, w) in acc.items():
        rate_, lo, hi = _wilson(w, g)
        seat_rows.append({"bot": bot, "seat": s, "games": g, "wins": w, "win_rate": rate_, "ci_low": lo,
                          "ci_high": hi})  # fmt: skip
    return dict(table=pl.DataFrame(table_rows),
                by_side=pl.DataFrame(seat_rows).sort("bot", "seat", maintain_order=True),
                games=pl.concat(parts) if rows and parts else None)  # fmt: skip


def _two_player_rows(cells: Sequence[Block], results: list[Any], seed: int) -> dict[str, Any]:
    """The 2-player tables from the cells' frames (and the rows themselves)."""
    games_parts = []
    players_parts = []
    for c, frames in zip(cells, results, strict=True):
        a, b = _labels_of(_decks_of(c))
        games_parts.append(
            frames.games.with_columns(
                batch_seed=pl.lit(seed, pl.UInt64),
                faction_0=pl.lit(a),
                faction_1=pl.lit(b),
                mirror=pl.lit(a == b),
            )
        )
        players_parts.append(frames.players)
    g = pl.concat(games_parts, rechunk=False)
    f0, f1 = pl.col("faction_0"), pl.col("faction_1")
    g = g.with_columns(
        start_faction=pl.when(pl.col("start_player") == 0).then(f0).otherwise(f1),
        winner_faction=pl.when(pl.col("winner") == 0).then(f0).when(pl.col("winner") == 1).then(f1),
    ).select(
        "game", "seed", "batch_seed", "faction_0", "faction_1", "mirror", "start_player",
        "start_faction", "winner", "winner_faction", "turns", "rounds", "end_reason", "actions",
    )  # fmt: skip
    players = _with_positions(pl.concat(players_parts, rechunk=False), g, 2)
    order = _plan_order(cells)

    # one row per game and side; a mirror game counts once, from seat 0
    def side(seat: int) -> pl.DataFrame:
        me, other = (f0, f1) if seat == 0 else (f1, f0)
        rows = g if seat == 0 else g.filter(~pl.col("mirror"))
        return rows.select(
            "game",
            faction=me,
            opponent=other,
            won=(pl.col("winner") == seat).fill_null(False),
            on_play=pl.col("start_player") == seat,
            start_won=(pl.col("winner") == pl.col("start_player")).fill_null(False),
            unfinished=_unfinished(),
            no_winner=pl.col("winner").is_null(),
            turns="turns",
            rounds="rounds",
        )

    long = pl.concat([side(0), side(1)])
    keys = ["faction", "opponent"]
    counts = long.group_by(keys).agg(
        games=pl.len().cast(pl.Int64),
        wins=pl.col("won").sum().cast(pl.Int64),
        unfinished=pl.col("unfinished").sum().cast(pl.Int64),
        no_winner=pl.col("no_winner").sum().cast(pl.Int64),
        start_wins=pl.col("start_won").sum().cast(pl.Int64),
        on_play_games=pl.col("on_play").sum().cast(pl.Int64),
        on_play_wins=(pl.col("won") & pl.col("on_play")).sum().cast(pl.Int64),
        on_draw_wins=(pl.col("won") & ~pl.col("on_play")).sum().cast(pl.Int64),
    )
    return dict(
        table=_two_player_table(counts, order),
        start_player=_start_player_table(g, 2),
        positions=_positions_table(players, order),
        lengths=long.group_by(keys)
        .agg(_length_aggs())
        .sort(_faction_order("faction", order), _faction_order("opponent", order)),
        games=g,
        players=players,
    )


def _two_player_table(counts: pl.DataFrame, order: Sequence[str]) -> pl.DataFrame:
    """The 2-player ``.table`` from its per-cell counts (``faction, opponent, games, wins,
    unfinished, no_winner, start_wins, on_play_games, on_play_wins, on_draw_wins``)."""
    return (
        counts.with_columns(
            *_rate_columns("wins", "games"), *_rate_columns("start_wins", "games", "start_")
        )
        .with_columns(
            on_play_win_rate=rate("on_play_wins", "on_play_games"),
            on_draw_win_rate=rate("on_draw_wins", pl.col("games") - pl.col("on_play_games")),
        )
        .sort(_faction_order("faction", order), _faction_order("opponent", order))
        .select(
            "faction",
            "opponent",
            "games",
            "wins",
            "win_rate",
            "ci_low",
            "ci_high",
            "unfinished",
            "no_winner",
            "start_wins",
            "start_win_rate",
            "start_ci_low",
            "start_ci_high",
            "on_play_games",
            "on_play_win_rate",
            "on_draw_win_rate",
        )  # fmt: skip
    )


def _two_player_stats(cells: Sequence[Block], results: list[Stats]) -> dict[str, Any]:
    """The same 2-player tables from the cells' reductions: cell 2k + side holds pair k's
    games with seat ``side`` starting, so every count of the rows' group-bys is a sum of
    per-cell counts."""
    counts: list[dict[str, Any]] = []
    lengths: list[dict[str, Any]] = []
    for k in range(0, len(results), 2):
        s0, s1 = results[k], results[k + 1]  # seat 0 starts, seat 1 starts
        a, b = _labels_of(_decks_of(cells[k]))
        both = s0.merge(s1)
        shared = dict(games=both.games, unfinished=_unfinished_count(both), no_winner=both.unfinished,
                      start_wins=s0.wins_seat[0] + s1.wins_seat[1])  # fmt: skip
        for seat, (me, other) in enumerate(((a, b), (b, a))):
            if seat == 1 and a == b:
                continue  # a mirror cell is seen from seat 0 only
            on_play, on_draw = (s0, s1) if seat == 0 else (s1, s0)
            counts.append(dict(faction=me, opponent=other, wins=both.wins_seat[seat], **shared,
                               on_play_games=on_play.games, on_play_wins=on_play.wins_seat[seat],
                               on_draw_wins=on_draw.wins_seat[seat]))  # fmt: skip
            lengths.append(dict(faction=me, opponent=other, **_stats_lengths(both)))
    ints = (
        "games",
        "wins",
        "unfinished",
        "no_winner",
        "start_wins",
        "on_play_games",
        "on_play_wins",
        "on_draw_wins",
    )
    schema = {"faction": pl.String, "opponent": pl.String, **{c: pl.Int64 for c in ints}}
    sides = _plan_order(cells)
    table = _two_player_table(pl.DataFrame(counts, schema=schema), sides)
    order = [_faction_order("faction", sides), _faction_order("opponent", sides)]
    return dict(
        table=table,
        start_player=_stats_start_player(cells, results),
        positions=_stats_positions(cells, results),
        lengths=_lengths_frame(lengths, ["faction", "opponent"]).sort(order),
        games=None,
        players=None,
        stats=results,
    )


def _fixed_start(c: Block) -> int:
    """The start seat of a cell of a reduced run (every such cell fixes it)."""
    assert c.start_player is not None
    return c.start_player


def _stats_start_player(cells: Sequence[Block], results: list[Stats]) -> pl.DataFrame:
    """The start-player table from per-cell reductions (every cell fixes its start seat)."""
    games = sum(s.games for s in results)
    start_wins = sum(s.wins_seat[_fixed_start(c)] for c, s in zip(cells, results, strict=True))
    counts = pl.DataFrame(
        {"games": [games], "start_wins": [start_wins]},
        schema={"games": pl.Int64, "start_wins": pl.Int64},
    )
    return _start_player_rates(counts, len(_decks_of(cells[0])))


def _stats_positions(
    cells: Sequence[Block], results: list[Stats], lead: Any = None
) -> pl.DataFrame:
    """The positions table from per-cell reductions: seat s of a cell whose start seat is p
    plays at turn-order position (s - p) mod n."""
    acc: dict[tuple[str, int], list[int]] = {}
    for c, s in zip(cells, results, strict=True):
        n = len(_decks_of(c))
        for seat, faction in enumerate(_labels_of(_decks_of(c))):
            got = acc.setdefault((faction, (seat - _fixed_start(c)) % n), [0, 0])
            got[0] += s.games
            got[1] += s.wins_seat[seat if lead is None else lead(seat)]  # a team wins together
    rows = [(f, pos, g, w) for (f, pos), (g, w) in acc.items()]
    counts = pl.DataFrame(rows, schema={"faction": pl.String, "position": pl.Int8, "games": pl.Int64,
                                        "wins": pl.Int64}, orient="row")  # fmt: skip
    return _positions_rates(counts, _plan_order(cells))


def _with_positions(players: pl.DataFrame, games: pl.DataFrame, n: int) -> pl.DataFrame:
    """Add ``position``: the seat's place in turn order (0 = the start player)."""
    starts = games.select("game", "start_player")
    return (
        players.join(starts, on="game", how="left")
        .with_columns(
            position=(
                (pl.col("seat").cast(pl.Int16) - pl.col("start_player").cast(pl.Int16)) % n
            ).cast(pl.Int8)
        )
        .drop("start_player")
    )


def _positions_table(players: pl.DataFrame, order: Sequence[str]) -> pl.DataFrame:
    counts = players.group_by(_side_col(players), "position").agg(
        games=pl.len().cast(pl.Int64), wins=pl.col("won").sum().cast(pl.Int64)
    )
    return _positions_rates(counts, order)


def _positions_rates(counts: pl.DataFrame, order: Sequence[str]) -> pl.DataFrame:
    """The positions table from its counts (``faction, position, games, wins``)."""
    return counts.with_columns(*_rate_columns("wins", "games")).sort(
        _faction_order("faction", order), "position"
    )


def _standings(
    cells: Sequence[Block], results: list[Any], rows: bool, info: Optional[FormatInfo]
) -> dict[str, pl.DataFrame]:
    """``by_seat`` and ``by_deck`` (lab/standings.py) from the rows or the reductions."""
    order = _plan_order(cells)
    if rows:
        players = pl.concat([r.players for r in results], rechunk=False)
        return dict(by_seat=seat_table(players), by_deck=deck_table(players, order))
    lead = info.lead_seat if info is not None else (lambda seat: seat)
    by_seat, by_deck = stats_tables(cells, results, lead, order)
    return dict(by_seat=by_seat, by_deck=by_deck)


def _free_for_all_rows(
    n: int, seatings: list[tuple[str, ...]], results: list[Any], seed: int
) -> dict[str, Any]:
    """The free-for-all tables from the cells' frames (and the rows themselves)."""
    games_parts = []
    players_parts = []
    for s, (seating, frames) in enumerate(zip(seatings, results, strict=True)):
        games_parts.append(
            frames.games.with_columns(
                batch_seed=pl.lit(seed, pl.UInt64),
                seating=pl.lit(s, pl.Int16),
                **{f"faction_{i}": pl.lit(f) for i, f in enumerate(_labels_of(seating))},
            )
        )
        players_parts.append(frames.players)
    g = pl.concat(games_parts, rechunk=False)
    seat_faction = lambda col: pl.coalesce(  # noqa: E731
        [pl.when(pl.col(col) == i).then(pl.col(f"faction_{i}")) for i in range(n)]
    )
    g = g.with_columns(
        start_faction=seat_faction("start_player"), winner_faction=seat_faction("winner")
    ).select(
        "game", "seed", "batch_seed", "seating", *[f"faction_{i}" for i in range(n)],
        "start_player", "start_faction", "winner", "winner_faction", "turns", "rounds",
        "end_reason", "actions",
    )  # fmt: skip
    players = _with_positions(pl.concat(players_parts, rechunk=False), g, n)
    flags = g.select("game", unfinished=_unfinished(), no_winner=pl.col("winner").is_null())
    counts = (
        players.join(flags, on="game", how="left")
        .group_by(_side_col(players))
        .agg(
            games=pl.len().cast(pl.Int64),
            wins=pl.col("won").sum().cast(pl.Int64),
            unfinished=pl.col("unfinished").sum().cast(pl.Int64),
            no_winner=pl.col("no_winner").sum().cast(pl.Int64),
            on_play_games=(pl.col("position") == 0).sum().cast(pl.Int64),
            on_play_wins=(pl.col("won") & (pl.col("position") == 0)).sum().cast(pl.Int64),
        )
    )
    order = list(dict.fromkeys(f for seating in seatings for f in _labels_of(seating)))
    return dict(
        table=_free_for_all_table(counts, n, order),
        start_player=_start_player_table(g, n),
        positions=_positions_table(players, order),
        lengths=g.select(_length_aggs()),
        games=g,
        players=players,
    )


def _free_for_all_table(counts: pl.DataFrame, n: int, order: Sequence[str]) -> pl.DataFrame:
    """The free-for-all ``.table`` from its per-faction counts (``faction, games, wins,
    unfinished, no_winner, on_play_games, on_play_wins``)."""
    return (
        counts.with_columns(
            *_rate_columns("wins", "games"),
            on_play_win_rate=rate("on_play_wins", "on_play_games"),
            even_share=pl.lit(1.0 / n),
        )
        .sort(_faction_order("faction", order))
        .select(
            "faction",
            "games",
            "wins",
            "win_rate",
            "ci_low",
            "ci_high",
            "even_share",
            "unfinished",
            "no_winner",
            "on_play_games",
            "on_play_win_rate",
        )  # fmt: skip
    )


def _free_for_all_stats(
    n: int, cells: Sequence[Block], results: list[Stats], lead: Any = None
) -> dict[str, Any]:
    """The same free-for-all tables from the cells' reductions (one cell per seating, seat 0
    starting): a faction's counts are sums over the seatings it sits in."""
    acc: dict[str, list[int]] = {}
    for c, s in zip(cells, results, strict=True):
        unfinished = _unfinished_count(s)
        for seat, faction in enumerate(_labels_of(_decks_of(c))):
            a = acc.setdefault(faction, [0] * 6)
            on_play = seat == c.start_player
            won = s.wins_seat[
                seat if lead is None else lead(seat)
            ]  # a seat wins when its team wins
            for i, v in enumerate((s.games, won, unfinished, s.unfinished,
                                   s.games if on_play else 0, won if on_play else 0)):  # fmt: skip
                a[i] += v
    cols = ("games", "wins", "unfinished", "no_winner", "on_play_games", "on_play_wins")
    counts = pl.DataFrame([(f, *v) for f, v in acc.items()],
                          schema={"faction": pl.String, **{c: pl.Int64 for c in cols}}, orient="row")  # fmt: skip
    # the lengths of all games: the seatings' statistics pooled (their deck orders differ)
    whole = functools.reduce(Stats.merge, [dataclasses.replace(s, decks=()) for s in results])
    return dict(
        table=_free_for_all_table(counts, n, _plan_order(cells)),
        start_player=_stats_start_player(cells, results),
        positions=_stats_positions(cells, results, lead),
        lengths=_lengths_frame([_stats_lengths(whole)], []),
        games=None,
        players=None,
        stats=results,
    )


def matchup_matrix_rows(result: Any) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of the 2-player win-rate matrix (row faction vs column opponent)."""
    factions = [f for f in result.sides if f in set(result.table["faction"].to_list())]
    return ["faction \\ opponent", *factions], _grid_rows(
        result.table, "faction", "opponent", factions, factions
    )


def _grid_rows(
    table: pl.DataFrame,
    rows_key: str,
    cols_key: str,
    row_names: Sequence[str],
    col_names: Sequence[str],
) -> list[list[str]]:
    """The cells of a win-rate square: one row per ``row_names`` (its name first), each cell
    the rate and interval of the table row (rows_key, cols_key), ``-`` where none."""
    cells = {(r[rows_key], r[cols_key]): r for r in table.iter_rows(named=True)}
    return [[a, *("-" if (c := cells.get((a, b))) is None else _cell_text(c["win_rate"], c["ci_low"], c["ci_high"])
                  for b in col_names)] for a in row_names]  # fmt: skip


def matchups_text(result: Any) -> str:
    """Plain-text summary of a MatchupResult (its repr and the CLI output), for every game."""
    if result._info is not None:
        return _harness_text(result)
    sp = result.start_player.row(0, named=True)
    head = (
        f"MatchupResult({result.n_players} players, {result.n_games:,} games, "
        f"bots {bot_label(result.bots)}, seed {result.seed}, params: "
        f"{_lab_params_label(result.params)}, {result.elapsed:.2f} s)"
    )
    if result.format != "ffa":
        head = head.replace("MatchupResult(", f"MatchupResult(format {result.format}, ", 1)
    lines = [head]
    if result.teams:
        headers, rows, right = team_table_rows(result)
        lines.append(
            f"team win rate over every split into two teams, {4 * result.games_per_seating:,} games per "
            "pairing (4 seat rotations, seat 0 starts), Wilson 95% CI, best first:"
        )
        lines += ["  " + s for s in format_table(headers, rows, right)]
    elif result.n_players == 2:
        lines.append(
            f"win rate of the row faction against the column faction, {2 * result.games_per_side:,} "
            "games per cell (each side starts half), Wilson 95% CI; mirror cells from seat 0:"
        )
        headers, rows = matchup_matrix_rows(result)
        lines += [
            "  " + s for s in format_table(headers, rows, [False] + [True] * (len(headers) - 1))
        ]
    else:
        rows = [
            [r["faction"], f"{r['games']:,}", f"{r['wins']:,}", pct(r["win_rate"]),
             ci_text(r["ci_low"], r["ci_high"]), pct(r["on_play_win_rate"])]
            for r in result.table.iter_rows(named=True)
        ]  # fmt: skip
        lines.append(
            f"free-for-all over all seatings, {result.games_per_seating} games per seating, "
            f"seat 0 starts (even share {pct(1 / result.n_players)}):"
        )
        lines += [
            "  " + s
            for s in format_table(
                ["faction", "games", "wins", "win rate", "95% CI", "as start player"],
                rows,
                [False, True, True, True, False, True],
            )
        ]
    lines.append(
        f"start player{chr(39) + 's team' if result.teams else ''} wins {pct(sp['win_rate'])} "
        f"{ci_text(sp['ci_low'], sp['ci_high'])} of "
        f"{sp['games']:,} games (even share {pct(sp['even_share'])}); "
        + (
            "see .table, .start_player, .positions, .lengths, .games"
            if result.rows
            else "see .table, .start_player, .positions, .lengths, .stats (reductions: no per-game rows kept)"
        )
    )
    return "\n".join(lines)


def team_table_rows(result: Any) -> tuple[list[str], list[list[str]], list[bool]]:
    """Headers, rows and alignment of the team-pair table as text."""
    rows = [
        [r["team"], r["against"], f"{r['games']:,}", f"{r['wins']:,}", pct(r["win_rate"]),
         ci_text(r["ci_low"], r["ci_high"]), pct(r["on_play_win_rate"])]
        for r in result.table.iter_rows(named=True)
    ]  # fmt: skip
    return (["team", "against", "games", "wins", "win rate", "95% CI", "as start team"], rows,
            [False, False, True, True, True, False, True])  # fmt: skip


def plot_matchup_heatmap(result: Any, path: Path) -> Path:
    """Heatmap of a 2-player table's win rate (Kétharmad: row faction against column
    faction; a harness game: the first side's bot against the second's, or the lone bot
    against the field), centred on the even share, each cell annotated with its interval."""
    h = _heat_grid(result)
    rk, ck = h["key"]
    even = h["even"]
    cells = {(r[rk], r[ck]): r for r in result.table.iter_rows(named=True)}
    rows, cols = h["rows"], h["cols"]
    grid = [
        [cells[(a, b)]["win_rate"] if (a, b) in cells else math.nan for b in cols] for a in rows
    ]
    spread = max([abs(v - even) for row in grid for v in row if v == v] + [h["spread"]])
    fig = _figure(*h["size"])
    ax = fig.add_subplot(1, 1, 1)
    im = ax.imshow(grid, cmap="RdBu", vmin=even - spread, vmax=even + spread)
    for i, a in enumerate(rows):
        for j, b in enumerate(cols):
            c = cells.get((a, b))
            if c is None:
                continue
            label = f"{pct(c['win_rate'])}\n{ci_text(c['ci_low'], c['ci_high'])}"
            if h["mirror"] and a == b:
                label += "\n(mirror)"
            dark = abs(c["win_rate"] - even) > 0.6 * spread
            ax.text(j, i, label, ha="center", va="center", fontsize=8,
                    color="white" if dark else "black")  # fmt: skip
    ax.set_xticks(range(len(cols)), cols)
    ax.set_yticks(range(len(rows)), rows)
    ax.set_xlabel(h["xlabel"])
    ax.set_ylabel(h["ylabel"])
    ax.set_title(h["title"], fontsize=h["title_size"], wrap=h["wrap"])
    fig.colorbar(im, ax=ax, label="win rate", fraction=0.046, pad=0.04)
    return _save(fig, path)


def plot_faction_bars(result: Any, path: Path) -> Path:
    """Free-for-all win rate per faction (team-pair table: per team and pairing) with Wilson
    error bars and the even share, as horizontal bars: one label per row, so long labels
    (a team pairing) never overlap."""
    t = result.table
    key = "team" if result.teams else "faction"
    labels = (
        t[key].to_list()
        if key == "faction"
        else [f"{a} vs {b}" for a, b in zip(t["team"], t["against"], strict=True)]
    )
    longest = max((len(s) for s in labels), default=10)
    fig = _figure(4.5 + 0.075 * longest, 0.32 * t.height + 1.4)
    ax = fig.add_subplot(1, 1, 1)
    y = list(range(t.height))[::-1]  # the table's first row on top
    rate = t["win_rate"].to_list()
    err = [[r - lo for r, lo in zip(rate, t["ci_low"].to_list(), strict=True)],
           [hi - r for r, hi in zip(rate, t["ci_high"].to_list(), strict=True)]]  # fmt: skip
    ax.barh(y, rate, xerr=err, capsize=3, color="#6a8fbf", height=0.7)
    ax.axvline(
        0.5 if result.teams else 1.0 / result.n_players,
        color="grey",
        ls="--",
        lw=1,
        label="even share",
    )
    ax.set_yticks(y, labels, fontsize=8)
    ax.set_xlabel("win rate")
    what = (
        f"{result.format} team pairs" if result.teams else f"{result.n_players}-player free-for-all"
    )
    ax.set_title(f"{what} ({result.n_games:,} games, Wilson 95% CI)", fontsize=9)
    ax.legend(fontsize=8, loc="lower right")
    return _save(fig, path)


def _length_rows(lengths: pl.DataFrame, keys: Sequence[str]) -> tuple[list[str], list[list[str]]]:
    headers = [
        *keys,
        "games",
        "turns mean",
        "turns p10-p50-p90",
        "rounds mean",
        "rounds p10-p50-p90",
    ]
    # a null quantile (reductions): among the games of TURN_BINS or more turns (rounds)
    q = lambda v: f">={TURN_BINS}" if v is None else str(v)  # noqa: E731
    rows = [
        [*(r[k] for k in keys), f"{r['games']:,}", f"{r['turns_mean']:.1f}",
         f"{q(r['turns_p10'])}-{q(r['turns_p50'])}-{q(r['turns_p90'])}", f"{r['rounds_mean']:.1f}",
         f"{q(r['rounds_p10'])}-{q(r['rounds_p50'])}-{q(r['rounds_p90'])}"]
        for r in lengths.iter_rows(named=True)
    ]  # fmt: skip
    return headers, rows


def _matchups_md(result: Any, folder: Optional[Path], plots: bool) -> list[str]:
    if result._info is not None:
        return _harness_md(result, folder, plots)
    sp = result.start_player.row(0, named=True)
    fmt = "" if result.format == "ffa" else f", format {result.format}"
    out = [f"# Matchups: {result.n_players} players{fmt}, bots {bot_label(result.bots)}", ""]
    out += _provenance_md(result, None)
    out.append("")
    keys: list[str] = []
    if result.teams:
        headers, rows, right = team_table_rows(result)
        out += [
            "## Team pairs",
            "",
            f"Every split of the decks into two teams of two, {4 * result.games_per_seating:,} games per "
            "pairing: the 4 rotations of the seating a1 b1 a2 b2 (partners opposite), seat 0 starting, "
            "so each team starts half the games. Wilson 95% intervals; unfinished games count as "
            "losses of both teams.",
            "",
            md_table(headers, rows, right),
        ]
        if plots:
            assert folder is not None  # to_markdown: plots need the folder
            name = f"matchups_{result.format}_teams.png"
            plot_faction_bars(result, folder / name)
            out += ["", f"![team win rates]({name})"]
    elif result.n_players == 2:
        out += [
            "## Win-rate matrix",
            "",
            f"Win rate of the row faction against the column faction; {2 * result.games_per_side:,} "
            "games per cell, each faction the start player in half of them; Wilson 95% intervals. "
            "A mirror cell is seen from seat 0 (it should be near 50% of the decided games).",
            "",
        ]
        if plots:
            assert folder is not None  # to_markdown: plots need the folder
            plot_matchup_heatmap(result, folder / "matchups_heatmap.png")
            out += ["![matchup heatmap](matchups_heatmap.png)", ""]
        headers, rows = matchup_matrix_rows(result)
        out += [md_table(headers, rows, [False] + [True] * (len(headers) - 1)), "", "## Cells", ""]
        rows = [
            [r["faction"], r["opponent"], f"{r['games']:,}", f"{r['wins']:,}", pct(r["win_rate"]),
             ci_text(r["ci_low"], r["ci_high"]), f"{r['unfinished']:,}", pct(r["start_win_rate"]),
             pct(r["on_play_win_rate"]), pct(r["on_draw_win_rate"])]
            for r in result.table.iter_rows(named=True)
        ]  # fmt: skip
        out.append(md_table(
            ["faction", "opponent", "games", "wins", "win rate", "95% CI", "unfinished",
             "start player wins", "on the play", "on the draw"],
            rows, [False, False, True, True, True, False, True, True, True, True],
        ))  # fmt: skip
        keys = ["faction", "opponent"]
    elif not result.teams:
        out += [
            "## Win rate per faction",
            "",
            f"Free-for-all over all {24} seatings, {result.games_per_seating} games each, seat 0 "
            f"starting (every faction starts equally often); even share {pct(1 / result.n_players)}.",
            "",
        ]
        if plots:
            assert folder is not None  # to_markdown: plots need the folder
            plot_faction_bars(result, folder / f"matchups_{result.n_players}p_bars.png")
            out += [f"![faction win rates](matchups_{result.n_players}p_bars.png)", ""]
        rows = [
            [r["faction"], f"{r['games']:,}", f"{r['wins']:,}", pct(r["win_rate"]),
             ci_text(r["ci_low"], r["ci_high"]), f"{r['unfinished']:,}", pct(r["on_play_win_rate"])]
            for r in result.table.iter_rows(named=True)
        ]  # fmt: skip
        out.append(md_table(
            ["faction", "games", "wins", "win rate", "95% CI", "unfinished", "as start player"],
            rows, [False, True, True, True, False, True, True],
        ))  # fmt: skip
    if result.by_seat is not None:
        has_points = "points_mean" in result.by_seat.columns
        for title, table, key in (
            ("seat", result.by_seat, "seat"),
            ("deck", result.by_deck, "deck"),
        ):
            rows = [[str(r[key]), f"{r['games']:,}", f"{r['wins']:,}", pct(r["win_rate"]), ci_text(r["ci_low"], r["ci_high"])]
                    + ([f"{r['points_mean']:.2f}"] if has_points else []) for r in table.iter_rows(named=True)]  # fmt: skip
            out += ["", f"## By {title}", "", md_table(
                [key, "games", "wins", "win rate", "95% CI"] + (["mean points"] if has_points else []), rows,
                [key == "seat", True, True, True, False] + ([True] if has_points else []))]  # fmt: skip
    pos_rows = [
        [r["faction"], str(r["position"]), f"{r['games']:,}", pct(r["win_rate"]), ci_text(r["ci_low"], r["ci_high"])]
        for r in result.positions.iter_rows(named=True)
    ]  # fmt: skip
    out += [
        "",
        "## Start player",
        "",
        f"The start player{chr(39) + 's team' if result.teams else ''} won {pct(sp['win_rate'])} "
        f"{ci_text(sp['ci_low'], sp['ci_high'])} of "
        f"{sp['games']:,} games (even share {pct(sp['even_share'])}).",
        "",
        md_table(["faction", "turn-order position", "games", "win rate", "95% CI"], pos_rows,
                 [False, True, True, True, False]),
        "",
        "## Game length",
        "",
    ]  # fmt: skip
    headers, rows = _length_rows(result.lengths, keys)
    out.append(md_table(headers, rows, [False] * len(keys) + [True] * 5))
    return out


# -- a harness game's text and Markdown --------------------------------------------------------


def _harness_grid(result: MatchupResult) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of a harness game's win-rate square (row bot against column bot or
    field)."""
    rows_key, cols_key = result.keys
    row_names = list(dict.fromkeys(result.table[rows_key].to_list()))
    col_names = list(dict.fromkeys(result.table[cols_key].to_list()))
    rows = _grid_rows(result.table, rows_key, cols_key, row_names, col_names)
    s0, s1 = (result.seat_names + ["", ""])[:2]
    corner = "bot \\ field" if result.field_table else f"{s0} \\ {s1}"
    return [corner, *col_names], rows


def _harness_caption(result: MatchupResult) -> str:
    if result.field_table:
        return (f"win rate of the row bot on one seat against the column bot on the other {result.seats - 1}, "
                f"{result.games_per_cell:,} games per cell, the bot's seat rotating over all {result.seats} seats "
                f"(even share {1 / result.seats:.1%}), Wilson 95% CI:")  # fmt: skip
    s0, s1 = result.seat_names
    return (f"{s0} win rate, {s0} bot (rows) against {s1} bot (columns), "
            f"{result.games_per_cell:,} games per cell, Wilson 95% CI:")  # fmt: skip


def _harness_count_rows(result: MatchupResult) -> tuple[list[str], list[list[str]], list[bool]]:
    """The cells' counts as text: headers, rows, alignment."""
    t = result.table
    if result.field_table:
        rows = [[r["bot"], r["field"], f"{r['games']:,}", f"{r['wins']:,}", pct(r["win_rate"]),
                 ci_text(r["ci_low"], r["ci_high"])] for r in t.iter_rows(named=True)]  # fmt: skip
        return (["bot", "field", "games", "wins", "win rate", "95% CI"], rows,
                [False, False, True, True, True, False])  # fmt: skip
    s0, s1 = result.seat_names
    rows = [[r["bot"], r["opponent"], f"{r['games']:,}", f"{r['wins']:,}", f"{r['opponent_wins']:,}",
             f"{r['no_winner']:,}", pct(r["win_rate"]), ci_text(r["ci_low"], r["ci_high"])]
            for r in t.iter_rows(named=True)]  # fmt: skip
    return ([s0, s1, "games", f"{s0} wins", f"{s1} wins", "no winner", f"{s0} win rate", "95% CI"], rows,
            [False, False, True, True, True, True, True, False])  # fmt: skip


def _harness_text(result: MatchupResult) -> str:
    headers, rows = _harness_grid(result)
    lines = [
        f"MatchupResult({result.game}, {result.seats} seats, {result.n_games:,} games, seed {result.seed}, "
        f"params: {_lab_params_label(result.params)}, {result.elapsed:.2f} s)",
        _harness_caption(result),
    ]  # fmt: skip
    lines += ["  " + s for s in format_table(headers, rows, [False] + [True] * (len(headers) - 1))]
    lines.append("cells:")
    lines += ["  " + s for s in format_table(*_harness_count_rows(result))]
    lines.append(
        "see .table, .by_side" + (", .games" if result.rows else " (no per-game rows kept)")
    )
    return "\n".join(lines)


def _harness_md(result: MatchupResult, folder: Optional[Path], plots: bool) -> list[str]:
    out = [f"# Matchups: {result.game}, {result.seats} seats, bots {', '.join(result.bots)}", ""]
    out += _provenance_md(result, None)
    headers, rows = _harness_grid(result)
    caption = _harness_caption(result)
    out += ["", "## Win rates", "", caption[0].upper() + caption[1:-1] + ".", ""]
    if plots and folder is not None:
        name = f"matchups_{result.game}_heatmap.png"
        plot_matchup_heatmap(result, folder / name)
        out += [f"![win rates]({name})", ""]
    out.append(md_table(headers, rows, [False] + [True] * (len(headers) - 1)))
    key = "seat" if result.field_table else "side"
    assert result.by_side is not None
    srows = [[r["bot"], str(r[key]), f"{r['games']:,}", f"{r['wins']:,}", pct(r["win_rate"]),
              ci_text(r["ci_low"], r["ci_high"])] for r in result.by_side.iter_rows(named=True)]  # fmt: skip
    title = (
        "By seat of the lone bot" if result.field_table else "By bot and side (over every opponent)"
    )
    out += ["", f"## {title}", "",
            md_table(["bot", key, "games", "wins", "win rate", "95% CI"], srows,
                     [False, key == "seat", True, True, True, False])]  # fmt: skip
    keys = result.keys
    names = ["bot", "field"] if result.field_table else [f"{s}_bot" for s in result.seat_names]
    trows = [[*(str(r[c]) for c in keys), f"{r['games']:,}", f"{r['no_winner']:,}", f"{r['unfinished']:,}",
              f"{r['turns_mean']:.1f}", f"{r['games_per_second']:,.0f}"]
             for r in result.table.iter_rows(named=True)]  # fmt: skip
    out += ["", "## Cells", "",
            md_table([*names, "games", "no winner", "unfinished", "turns (mean)", "games/s"],
                     trows, [False, False, True, True, True, True, True])]  # fmt: skip
    return out


def _heat_grid(result: MatchupResult) -> dict[str, Any]:
    """What the heatmap of a table draws: its rows and columns, cells, the even share it is
    centred on, and its size, labels and title."""
    t = result.table
    if result._info is None:  # Kétharmad: the factions in side order, start player balanced
        factions = [f for f in result.sides if f in set(t["faction"].to_list())]
        k = len(factions)
        return dict(rows=factions, cols=factions, key=("faction", "opponent"), even=0.5, spread=0.1,
                    mirror=True, size=(1.9 * k + 2.2, 1.5 * k + 1.2), xlabel="opponent", ylabel="faction",
                    title=f"Win rate of row vs column ({2 * (result.games_per_side or 0):,} games per cell, "
                          "start player balanced, Wilson 95% CI)", title_size=9, wrap=False)  # fmt: skip
    rk, ck = result.keys
    rows = list(dict.fromkeys(t[rk].to_list()))
    cols = list(dict.fromkeys(t[ck].to_list()))
    ylabel, xlabel = _harness_grid(result)[0][0].split(" \\ ")
    return dict(rows=rows, cols=cols, key=(rk, ck), even=1 / result.seats if result.field_table else 0.5,
                spread=0.05, mirror=False, size=(1.9 * len(cols) + 2.4, 1.3 * len(rows) + 1.4), xlabel=xlabel,
                ylabel=ylabel, title=f"{result.game}: {_harness_caption(result)[:-1]}", title_size=8, wrap=True)  # fmt: skip
