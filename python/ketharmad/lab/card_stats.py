"""Per-card win-rate statistics in the style of 17lands, from card records.

The core records three 128-bit card sets per game and seat (kept opening hand, drawn later,
played or recruited); bit k is card-definition k, the k-th row of ``ketharmad.cards()``.
They are counted per faction and card (:class:`ketharmad.run.reduce.CardCounts`: numpy
``unpackbits`` over the uint64 halves, a chunk of rows at a time, so memory stays bounded),
together with each card's plays and the sum of their turns, and polars turns the counts into
rates with Wilson intervals.

:func:`card_stats` takes a batch (a :class:`ketharmad.SimResult`) or plays the games itself
(``decks=``): then every shard of the plan runner counts its own games where it runs
(``output="card_counts"``, on an executor or a Dask cluster too) and only the counts come
back, merged exactly, so memory does not grow with the number of games. Both give the same
table, bit for bit.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Optional, Union, Unpack

import polars as pl

from .. import _core
from ..api import simulate  # card_stats plays its batch through ketharmad.simulate (lab -> api)
from ..game.data import CardDataSource, describe_card_data, load_card_data
from ..game.formats import apply_format
from ..game.spec import GameSpec, SetupKeywords, setup_of, spec_of, take_setup
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
from ..results.files import sim_tables
from ..results.frames import card_frame
from ..results.lab import LabResult
from ..results.lab_report import _figure, _provenance_md, _save, md_table
from ..results.report import ci_text, format_table, pct, signed_pct
from ..run.cluster import check_cluster_arg, executor_for
from ..run.options import RunArg, RunOptions, fold_run_options
from ..run.plan import Plan, card_ids, cell, run_plan
from ..run.progress import Progress
from ..run.reduce import N_CARD_BITS, CardCounts, card_sets_frame, count_card_sets, expand_bits
from ..stats import Z95, rate, wilson_bounds
from .harness import harness_info
from .html_views import card_views

__all__ = [
    "card_stats",
    "CardStatsResult",
    "expand_bits",
    "card_set_counts",
    "ROWS_AUTO_LIMIT",
    "SHARD_GAMES",
]

N_BITS = N_CARD_BITS
#: The Newsfeed cards' faction label in the card table; they are recruited, never drawn.
NEWSFEED = "newsfeed"
#: ``card_stats(decks=..., rows=None)``: keep the per-game rows (a SimResult with its card
#: records and plays, about 2.3 kB per 2-seat game) of a run of at most this many games,
#: counts only above.
ROWS_AUTO_LIMIT = 100_000
#: Games per shard of a run that keeps counts only, when neither ``chunk_size`` nor the
#: executor says otherwise: a shard's rows (about 3.2 kB per 2-seat game while converted and
#: counted, 6.4 kB with 4 seats) are all the memory the run needs.
SHARD_GAMES = 10_000


def card_set_counts(records: pl.DataFrame) -> pl.DataFrame:
    """Per faction (in order of first appearance) and card index (0..127): in how many
    seat-games each card set holds the card, and how many of those the seat won. Columns:
    ``faction, card_index, deck_games, deck_wins, opening_games, opening_wins, drawn_games,
    drawn_wins, in_hand_games, in_hand_wins, played_games, played_wins``."""
    out = []
    for (faction,), part in records.partition_by(
        "faction", as_dict=True, maintain_order=True
    ).items():
        n, wins, counts = count_card_sets(part)
        out.append(card_sets_frame(faction, n, wins, counts))
    if not out:
        raise ValueError("the batch has no card records")
    return pl.concat(out)


def _rates(prefix: str) -> list[pl.Expr]:
    low, high = wilson_bounds(f"{prefix}_wins", f"{prefix}_games")
    return [
        rate(f"{prefix}_wins", f"{prefix}_games").alias(f"{prefix}_win_rate"),
        low.alias(f"{prefix}_ci_low"),
        high.alias(f"{prefix}_ci_high"),
    ]


def _rate_block(prefix: str) -> list[str]:
    return [f"{prefix}_{c}" for c in ("games", "wins", "win_rate", "ci_low", "ci_high")]


class CardStatsResult(LabResult):
    """The result of :func:`ketharmad.card_stats`.

    Attributes:
        table: one row per faction and card (see :func:`ketharmad.card_stats`).
        counts: the :class:`ketharmad.run.reduce.CardCounts` the table was computed from.
        batch: the :class:`ketharmad.SimResult` of the games (its rows), or None when the
            run kept counts only (``rows``).
        rows: whether the per-game rows were kept (``batch`` is not None).
        decks, bots, seed, params, n_games, card_data, elapsed: the games' arguments and
            the wall time of playing them.
        plan: the plan the run played (one dict per cell), None for a batch given.
    """

    def __init__(
        self,
        table: pl.DataFrame,
        batch: Any,
        card_text: str,
        *,
        counts: Optional[CardCounts] = None,
        run: Optional[Mapping[str, Any]] = None,
        plan: Optional[list[dict[str, Any]]] = None,
    ) -> None:
        self.table = table
        self.batch = batch
        self._card_text = card_text
        self.counts = counts
        self.plan = plan
        self.rows: bool = batch is not None
        # the games' arguments: the batch's, or the run's (``run``) when no batch is kept
        src: Mapping[str, Any] = dict(run) if run is not None else {
            k: getattr(batch, k, None) for k in ("decks", "bots", "seed", "params", "n_games")
        }  # fmt: skip
        self.decks: list[str] = list(src["decks"] or [])
        self.bots: Any = src["bots"]
        self.seed: Optional[int] = src["seed"]
        self.params: dict[str, Union[int, bool, str]] = dict(src["params"] or {})
        self.n_games: int = int(src["n_games"] or 0)
        if run is not None:
            self.card_data: str = str(run["card_data"])
            self.elapsed: float = float(run["elapsed"])
        else:
            self.card_data = str(getattr(batch, "card_data", ""))
            self.elapsed = float(getattr(batch, "elapsed", float("nan")))

    kind = "card_stats"

    def top(self, faction: Optional[str] = None, by: str = "iwd", n: int = 10) -> pl.DataFrame:
        """The ``n`` cards with the highest ``by`` (default IWD), optionally of one faction.

        ``by`` is any numeric column of ``.table``; rows where it is null or NaN (a rate
        over 0 games) come last."""
        numeric = [c for c, t in self.table.schema.items() if t.is_numeric()]
        if not isinstance(by, str) or by not in numeric:
            raise ValueError(
                f"by={by!r} is not a numeric column of the table; valid: {', '.join(numeric)}"
            )
        factions = self.table["faction"].unique(maintain_order=True).to_list()
        if faction is not None and faction not in factions:
            raise ValueError(
                f"unknown faction {faction!r}; factions in this table: {', '.join(factions)}"
            )
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"n must be an int >= 0, got {n!r}")
        t = self.table if faction is None else self.table.filter(pl.col("faction") == faction)
        key = pl.col(by).fill_nan(None) if self.table.schema[by].is_float() else pl.col(by)
        return t.sort(key, descending=True, nulls_last=True, maintain_order=True).head(n)

    def tables(self) -> dict[str, pl.DataFrame]:
        """``card_stats``, and with rows the batch's ``games``, ``players``,
        ``card_records``, ``plays`` and ``summary``."""
        if self.batch is None:
            return {"card_stats": self.table}

        return {"card_stats": self.table, **sim_tables(self.batch)}

    def text(self) -> str:
        return card_stats_text(self)

    def html_views(self) -> list[Any]:
        """The report's IWD bars per faction, with intervals."""
        return card_views(self.table)

    def _markdown(self, folder: Optional[Path], plots: bool) -> list[str]:
        return _card_stats_md(self, folder, plots)

    def plots(self, folder: Union[str, os.PathLike[str]]) -> list[Path]:
        """The IWD bar chart per faction."""
        root = Path(folder)
        root.mkdir(parents=True, exist_ok=True)
        return [plot_card_iwd(self, root / "card_iwd.png")]


def _effective_copies(cards: pl.DataFrame, params: dict[str, Any]) -> pl.Expr:
    overrides = {k[: -len(".copies")]: v for k, v in params.items() if k.endswith(".copies")}
    if not overrides:
        return pl.col("copies")
    return (
        pl.col("id")
        .replace_strict(list(overrides), [int(v) for v in overrides.values()], default=None)
        .fill_null(pl.col("copies"))
        .cast(pl.Int64)
    )


#: Why each game on the generic harness has no card statistics (``card_stats(game=...)``).
NO_CARD_STATS = {
    "schotten_totten_2": "its cards are plain numbered colour cards (0-11 in five colours) without "
    "text of their own, and its batch records no per-card plays to rate",
    "osztrakon": "its cards (philosophers, ostrakon ballots, path, calendar and topic cards) are "
    "fixed components, not a deck drawn and played from hand, so no card has plays to rate",
}


def _refuse_game(game: object) -> None:
    """``card_stats(game=...)`` for another game: a ValueError naming the game and why."""
    info = harness_info(game)
    why = NO_CARD_STATS.get(info["name"], "it records no per-card plays")
    raise ValueError(
        f"card_stats is Kétharmad's per-card statistics; game={info['name']!r} has none: {why}. "
        f"Use ketharmad.matchups(game={info['name']!r}, bots=[...]) or ketharmad.simulate(game={info['name']!r}, ...) for its win rates"
    )


@fold_run_options("threads", "chunk_size", "progress", "executor", "cluster", "rows")
def card_stats(
    batch: Any = None,
    *,
    decks: Optional[Sequence[str]] = None,
    bots: Any = None,
    games: Optional[int] = None,
    seed: Optional[int] = None,
    params: Optional[Mapping[str, Union[int, bool, str]]] = None,
    game: Union[str, GameSpec] = "ketharmad",
    run: RunArg = None,
    **setup: Unpack[SetupKeywords],
) -> CardStatsResult:
    """Per card and faction win rates, 17lands style, from a batch or from games played here.

    Two forms, the same table for the same games, bit for bit:

    * ``card_stats(batch)``: from a :class:`ketharmad.SimResult` (``ketharmad.simulate``;
      with ``record_plays=True`` for the play columns). ``card_data`` defaults to the card
      data the batch was played with (another one is a ``ValueError``: bit k of the card
      sets is the k-th row of ``ketharmad.cards(card_data)``).
    * ``card_stats(decks=[...], games=N, seed=s, ...)``: plays games ``0 .. N - 1`` of the
      batch ``simulate(decks, bots, games=N, seed=s, params=..., card_data=...,
      start_player=..., record_plays=True)`` (the same games) and counts them. ``bots``
      defaults to ``"heuristic"``, ``games`` to 10,000, ``seed`` to 0; ``params``,
      ``card_data``, ``start_player``, ``format`` (the game format, docs/formats.md) and
      ``run`` (a :class:`ketharmad.RunOptions` or a dict of its fields: ``threads``,
      ``progress``, ``executor``, ``cluster`` as for :func:`ketharmad.simulate`, and
      ``chunk_size``, ``rows``; the older keywords ``threads=``, ... work until 0.3.0 with
      a DeprecationWarning) as for :func:`ketharmad.simulate`. ``run.rows``: True keeps the games' rows (``.batch``, a
      SimResult with card records and plays; refused before any game runs when they would
      not fit in memory); False keeps only the counts: every shard of ``chunk_size`` games
      (default ``SHARD_GAMES`` = 10,000, or the cluster's shard size) counts its own card
      records and plays where it runs (on the executor's or the cluster's workers) and
      returns integers (:class:`ketharmad.run.reduce.CardCounts`), merged exactly here, so
      memory does not grow with the number of games; ``.batch`` is None. None (default):
      rows for at most ``ROWS_AUTO_LIMIT`` (100,000) games, counts above.

    ``card_data``, ``format`` and ``start_player`` are setup keywords
    (:class:`ketharmad.game.spec.SetupKeywords`; or set them in ``game=load_game(...)``).

    Giving both a batch and ``decks`` (or any other argument of the second form with a
    batch), or neither, is a ``ValueError`` naming the problem.

    One row per (faction, card) for every card of the faction's deck (copies > 0 after the
    games' ``params``), plus one row per (faction, Newsfeed card) for recruiting. A "game"
    is one seat's game (in a mirror both seats count). Every rate comes as ``<x>_games``,
    ``<x>_wins``, ``<x>_win_rate``, ``<x>_ci_low``, ``<x>_ci_high`` (Wilson 95 %):

    * ``in_hand``: the card was in the kept opening hand or drawn later (GIH WR);
    * ``opening``: in the kept opening hand (OH WR);
    * ``drawn``: drawn after the opening hand (GD WR);
    * ``not_seen``: in the deck but never in hand (GNS WR);
    * ``iwd``: improvement when drawn = in-hand win rate minus not-seen win rate, with a
      normal-approximation 95 % interval ``iwd_ci_low/high``;
    * ``played``: the card was played from hand or recruited (Newsfeed) at least once;
    * ``play_count``, ``mean_turn_played``: how often the faction played (recruited) the
      card and the mean turn it did (the exact sum of the turns over the count; null when
      never played); from the plays, so null for a batch that ran without
      ``record_plays=True``; turn = the game's turn number counting every seat.

    Also ``deck_games`` (the faction's seat-games), ``faction_win_rate`` and ``seen_share``
    (in-hand games / deck games). Hand columns are null for Newsfeed rows.

    Returns a :class:`CardStatsResult` (``.table``, ``.counts``, ``.batch``, ``.top()``,
    ``.write_parquet(folder)``, ``.write_report(folder)``) with the games' provenance (seed,
    bots, params, card data, plan).

    ``game``: Kétharmad only: ``"schotten_totten_2"`` (plain numbered colour cards, no
    per-card records) and ``"osztrakon"`` (no deck played from hand) raise a ValueError naming the game and
    why (docs/games.md).
    """
    card_data, format, start_player = take_setup(
        "card_stats", setup, ("card_data", "format", "start_player")
    )
    run = RunOptions.of(run)
    threads, chunk_size, progress, executor, cluster, rows = (run.threads, run.chunk_size, run.progress,
                                                              run.executor, run.cluster, run.rows)  # fmt: skip
    if isinstance(game, GameSpec):  # a game value: its setup, with this call's explicit keywords
        spec, decks, card_data, params, start_player, format = setup_of(
            game, "card_stats", decks=decks, card_data=card_data, params=params, start_player=start_player,
            format=format)  # fmt: skip
        game = spec.name
    if not spec_of(game).is_ketharmad:
        _refuse_game(game)
    run_args = dict(decks=decks, bots=bots, games=games, seed=seed, threads=threads, params=params,
                    start_player=start_player, chunk_size=chunk_size, executor=executor, cluster=cluster,
                    rows=rows, format=format)  # fmt: skip
    given = [k for k, v in run_args.items() if v is not None]
    if progress is not False:
        given.append("progress")
    if batch is not None:
        if given:
            raise ValueError(
                "card_stats takes a batch (a SimResult) or decks= and the games to play, not both; "
                f"got a batch and {', '.join(f'{k}=' for k in given)} (the batch's games are its own: "
                "pass only the batch, or only decks= and the run arguments)"
            )
        return _from_batch(batch, card_data)
    if decks is None:
        if given:
            raise ValueError(
                f"card_stats got {', '.join(f'{k}=' for k in given)} but no decks=: give decks= (one "
                "faction per seat) to play the games, or a SimResult"
            )
        raise ValueError(
            "card_stats needs a SimResult (from ketharmad.simulate) with card records, or decks= "
            "(one faction per seat) to play the games itself"
        )
    return _run(card_data=card_data, progress=progress, **run_args)


def _check_batch(batch: Any) -> pl.DataFrame:
    records = getattr(batch, "card_records", None)
    if records is None or not isinstance(records, pl.DataFrame):
        hint = ""
        if isinstance(batch, (list, tuple)) and all(isinstance(d, str) for d in batch):
            hint = f"; to play games of these decks give them as decks={list(batch)!r}"
        raise ValueError(
            f"card_stats needs a SimResult (from ketharmad.simulate) with card records{hint}"
        )
    if records.height == 0:
        raise ValueError("the batch has no card records")
    return records


def _from_batch(batch: Any, card_data: CardDataSource) -> CardStatsResult:
    records = _check_batch(batch)
    batch_text = getattr(batch, "_card_text", None)
    if card_data is not None:
        text = load_card_data(card_data)
        if batch_text is not None and _core.card_data_hash(text) != _core.card_data_hash(
            batch_text
        ):
            raise ValueError(
                "card_data differs from the card data the batch was played with; "
                "card indices would not match"
            )
    else:
        text = batch_text if batch_text is not None else load_card_data(None)
    params = dict(getattr(batch, "params", {}) or {})
    ids = card_ids(text)
    if len(ids) > N_BITS:
        raise ValueError(f"card sets hold {N_BITS} cards, the card data has {len(ids)}")
    decks = tuple(
        getattr(batch, "decks", None) or records["faction"].unique(maintain_order=True).to_list()
    )
    counts = CardCounts.from_frames(records, getattr(batch, "plays", None), decks, ids,
                                    games=getattr(batch, "n_games", None))  # fmt: skip
    return CardStatsResult(card_table(counts, text, params), batch, text, counts=counts)


def _run(
    *,
    decks: Sequence[str],
    bots: Any,
    games: Optional[int],
    seed: Optional[int],
    threads: Optional[int],
    params: Optional[Mapping[str, Union[int, bool, str]]],
    card_data: CardDataSource,
    start_player: Optional[int],
    chunk_size: Optional[int],
    progress: bool,
    executor: Any,
    cluster: Any,
    rows: Optional[bool],
    format: Any = None,
    game: str = "ketharmad",
) -> CardStatsResult:
    """The run form of :func:`card_stats`: check every argument, then play."""
    decks_ = check_decks(decks)
    bots_ = check_bots("heuristic" if bots is None else bots, len(decks_))
    games_ = check_int("games", 10_000 if games is None else games, 1)
    seed_ = check_seed(0 if seed is None else seed)
    threads_ = check_threads(threads)
    text, params_ = apply_format(load_card_data(card_data), check_params(params), format)
    start_ = check_start_player(start_player, len(decks_))
    chunk_ = check_chunk_size(chunk_size)
    progress_ = check_flag("progress", progress)
    check_cluster_arg(cluster, executor)
    keep = games_ <= ROWS_AUTO_LIMIT if rows is None else check_flag("rows", rows)
    if len(card_ids(text)) > N_BITS:
        raise ValueError(f"card sets hold {N_BITS} cards, the card data has {len(card_ids(text))}")
    output = "frames" if keep else "card_counts"
    plan = Plan(seed_, [cell(text, decks_, bots_, params_, 0, games_, start_player=start_, record_plays=True,
                             output=output, label="card_stats")])  # fmt: skip
    if keep:
        # the batch form on simulate's batch (the same plan: one cell of every game)
        batch = simulate(decks_, bots_, games_, seed_, params=params_, card_data=card_data, start_player=start_, record_plays=True, format=format,
                         run=RunOptions(threads=threads_, chunk_size=chunk_, progress=progress_, executor=executor,
                                        cluster=cluster))  # fmt: skip
        res = _from_batch(batch, None)
        res.plan = plan.describe()
        return res
    plan.validate()  # bad decks / bots / params fail here, before any game runs
    meter = Progress(games_, "card_stats", enabled=progress_)
    start = time.perf_counter()
    with executor_for(executor, cluster) as ex:
        shard = chunk_ or getattr(ex, "shard_games", None) or SHARD_GAMES
        (counts,) = run_plan(plan, threads=threads_, shard_size=shard, progress=meter, executor=ex)
    elapsed = time.perf_counter() - start
    meter.close()
    run = dict(decks=decks_, bots=bots_, seed=seed_, params=params_, n_games=games_,
               card_data=describe_card_data(card_data), elapsed=elapsed)  # fmt: skip
    return CardStatsResult(card_table(counts, text, params_), None, text, counts=counts, run=run,
                           plan=plan.describe())  # fmt: skip


def card_table(counts: CardCounts, text: str, params: Mapping[str, Any]) -> pl.DataFrame:
    """The ``.table`` of :func:`card_stats` from card-record counts (``text``: the card data
    they were counted with, ``params``: the games' overrides, for the copies)."""
    cards = _cards_frame(text)
    if cards.height > N_BITS:
        raise ValueError(f"card sets hold {N_BITS} cards, the card data has {cards.height}")
    cards = cards.with_row_index("card_index").with_columns(
        pl.col("card_index").cast(pl.Int64), copies=_effective_copies(cards, dict(params))
    )
    t = counts.frame().join(
        cards.select("card_index", card="id", name="name", card_faction="faction", type="type",
                     copies="copies"),
        on="card_index",
        how="inner",
    )  # fmt: skip
    news = pl.col("card_faction") == NEWSFEED
    # a seat's own cards: its faction's, and (Mixed decks, custom lists: docs/decks.md) any
    # other faction card that was in its hand (with faction decks that never happens)
    own = (pl.col("card_faction") == pl.col("faction")) | (~news & (pl.col("in_hand_games") > 0))
    t = t.filter((own | news) & (pl.col("copies") > 0))
    hand_cols = ["opening_games", "opening_wins", "drawn_games", "drawn_wins", "in_hand_games",
                 "in_hand_wins"]  # fmt: skip
    t = t.with_columns([pl.when(own).then(pl.col(c)).alias(c) for c in hand_cols]).with_columns(
        not_seen_games=pl.col("deck_games") - pl.col("in_hand_games"),
        not_seen_wins=pl.col("deck_wins") - pl.col("in_hand_wins"),
    )
    t = t.with_columns(
        *_rates("in_hand"), *_rates("opening"), *_rates("drawn"), *_rates("not_seen"),
        *_rates("played"),
    )  # fmt: skip
    p1, n1 = pl.col("in_hand_win_rate"), pl.col("in_hand_games")
    p0, n0 = pl.col("not_seen_win_rate"), pl.col("not_seen_games")
    half = Z95 * (p1 * (1 - p1) / n1 + p0 * (1 - p0) / n0).sqrt()
    t = t.with_columns(iwd=p1 - p0).with_columns(
        iwd_ci_low=pl.col("iwd") - half,
        iwd_ci_high=pl.col("iwd") + half,
        faction_win_rate=rate("deck_wins", "deck_games"),
        seen_share=rate("in_hand_games", "deck_games"),
        # the mean turn from integer sums: exact up to this one division
        mean_turn_played=pl.when(pl.col("play_count") > 0).then(
            pl.col("turn_sum").cast(pl.Float64) / pl.col("play_count").cast(pl.Float64)
        ),
    )
    order = pl.col("faction").replace_strict(
        list(_core.FACTIONS), list(range(len(_core.FACTIONS))), default=len(_core.FACTIONS)
    )
    return t.sort(order, "card_index").select(
        "faction", "card", "name", "type", "card_faction", "card_index", "copies",
        "deck_games", "faction_win_rate", "seen_share",
        *_rate_block("in_hand"), *_rate_block("opening"), *_rate_block("drawn"),
        *_rate_block("not_seen"), "iwd", "iwd_ci_low", "iwd_ci_high",
        *_rate_block("played"), "play_count", "mean_turn_played",
    )  # fmt: skip


def _cards_frame(text: str) -> pl.DataFrame:
    return card_frame(_core.card_table(text))


def card_stats_text(result: Any, per_faction: int = 5) -> str:
    """Plain-text summary of a CardStatsResult: the best and worst cards by IWD per faction."""
    t = result.table
    fmt = (getattr(result, "params", None) or {}).get("rules.format")
    lines = [
        f"CardStatsResult({t.height} rows, {result.n_games:,} games, "
        + (f"format {fmt}, " if fmt is not None else "")
        + f"{' vs '.join(result.decks)}); IWD = in-hand win rate - not-seen win rate"
    ]
    for faction in t["faction"].unique(maintain_order=True).to_list():
        part = t.filter((pl.col("faction") == faction) & pl.col("iwd").is_not_null()).sort(
            "iwd", descending=True
        )
        if part.height == 0:
            continue
        shown = part.head(per_faction)
        if part.height > per_faction:
            shown = pl.concat([shown, part.tail(min(per_faction, part.height - per_faction))])
        rows = [
            [r["name"], r["card"], f"{r['in_hand_games']:,}", pct(r["in_hand_win_rate"]),
             pct(r["not_seen_win_rate"]), signed_pct(r["iwd"]),
             f"[{signed_pct(r['iwd_ci_low'])}, {signed_pct(r['iwd_ci_high'])}]"]
            for r in shown.iter_rows(named=True)
        ]  # fmt: skip
        lines.append(f"{faction} (best and worst by IWD):")
        lines += [
            "  " + s
            for s in format_table(
                ["card", "id", "in hand", "GIH WR", "GNS WR", "IWD", "95% CI"],
                rows,
                [False, False, True, True, True, True, False],
            )
        ]
    if getattr(result, "rows", True):
        lines.append("see .table (all rates with intervals), .top(faction, by, n)")
    else:
        lines.append("see .table (all rates with intervals), .top(faction, by, n), .counts "
                     "(counts only: no per-game rows kept)")  # fmt: skip
    return "\n".join(lines)


def plot_card_iwd(result: Any, path: Path) -> Path:
    """Horizontal IWD bars with 95% intervals, one panel per faction, sorted by IWD."""
    t = result.table.filter(
        (pl.col("card_faction") == pl.col("faction")) & pl.col("iwd").is_not_null()
    )
    factions = t["faction"].unique(maintain_order=True).to_list()
    if not factions:
        fig = _figure(6, 2)
        fig.text(0.5, 0.5, "no card with both in-hand and not-seen games", ha="center")
        return _save(fig, path)
    most = max(t.filter(pl.col("faction") == f).height for f in factions)
    cols = 2 if len(factions) > 1 else 1
    rows = math.ceil(len(factions) / cols)
    fig = _figure(7.0 * cols, max(3.0, 0.24 * most + 1.2) * rows)
    for i, f in enumerate(factions):
        ax = fig.add_subplot(rows, cols, i + 1)
        part = t.filter(pl.col("faction") == f).sort("iwd")
        iwd = [100 * v for v in part["iwd"].to_list()]
        err = [[100 * (v - lo) for v, lo in zip(part["iwd"].to_list(), part["iwd_ci_low"].to_list(), strict=True)],
               [100 * (hi - v) for v, hi in zip(part["iwd"].to_list(), part["iwd_ci_high"].to_list(), strict=True)]]  # fmt: skip
        colors = ["#3b7dd8" if v >= 0 else "#d8573b" for v in iwd]
        ax.barh(range(part.height), iwd, xerr=err, color=colors, capsize=2, height=0.7)
        ax.set_yticks(range(part.height), part["name"].to_list(), fontsize=7)
        ax.axvline(0, color="black", lw=0.8)
        ax.set_xlabel("IWD (percentage points)")
        ax.set_title(f"{f}: in-hand minus not-seen win rate (95% CI)", fontsize=9)
    fig.tight_layout()
    return _save(fig, path)


def _card_stats_md(result: Any, folder: Optional[Path], plots: bool) -> list[str]:
    out = [f"# Card statistics: {' vs '.join(result.decks)}, {result.n_games:,} games", ""]
    out += _provenance_md(result, None)
    out += [
        "",
        "Rates are per seat-game. GIH = card in hand (opening hand or drawn), OH = in the kept "
        "opening hand, GD = drawn later, GNS = in the deck but never in hand, "
        "IWD = GIH − GNS (percentage points, 95% interval), played = played from hand or "
        "recruited at least once.",
        "",
    ]
    if plots:
        assert folder is not None  # to_markdown: plots need the folder
        plot_card_iwd(result, folder / "card_iwd.png")
        out += ["![card IWD](card_iwd.png)", ""]
    t = result.table
    for faction in t["faction"].unique(maintain_order=True).to_list():
        part = t.filter(pl.col("faction") == faction)
        own = part.filter(pl.col("card_faction") == faction).sort(
            "iwd", descending=True, nulls_last=True
        )
        rows = [
            [r["name"], f"`{r['card']}`", str(r["copies"]), f"{r['in_hand_games']:,}", pct(r["in_hand_win_rate"]),
             pct(r["opening_win_rate"]), pct(r["drawn_win_rate"]), pct(r["not_seen_win_rate"]),
             signed_pct(r["iwd"]), f"[{signed_pct(r['iwd_ci_low'])}, {signed_pct(r['iwd_ci_high'])}]",
             f"{r['played_games']:,}", pct(r["played_win_rate"]),
             "-" if r["mean_turn_played"] is None else f"{r['mean_turn_played']:.1f}"]
            for r in own.iter_rows(named=True)
        ]  # fmt: skip
        fr = part.row(0, named=True)
        out += [
            f"## {faction} ({fr['deck_games']:,} seat-games, win rate {pct(fr['faction_win_rate'])})",
            "",
            md_table(
                [
                    "card",
                    "id",
                    "copies",
                    "in hand",
                    "GIH WR",
                    "OH WR",
                    "GD WR",
                    "GNS WR",
                    "IWD",
                    "IWD 95% CI",
                    "played",
                    "played WR",
                    "mean turn",
                ],
                rows,
                [False, False] + [True] * 7 + [False, True, True, True],
            ),  # fmt: skip
            "",
        ]
        news = part.filter(pl.col("card_faction") == "newsfeed").sort(
            "played_games", descending=True
        )
        if news.height:
            rows = [
                [r["name"], f"`{r['card']}`", f"{r['played_games']:,}", pct(r["played_win_rate"]),
                 ci_text(r["played_ci_low"], r["played_ci_high"])]
                for r in news.iter_rows(named=True)
            ]  # fmt: skip
            out += [f"Newsfeed cards recruited by {faction}:", "",
                    md_table(["card", "id", "recruited in", "win rate", "95% CI"], rows,
                             [False, False, True, True, False]), ""]  # fmt: skip
    return out
