"""Per-card win-rate statistics in the style of 17lands, from a batch's card records.

The core records three 128-bit card sets per game and seat (kept opening hand, drawn later,
played or recruited); bit k is card-definition k, the k-th row of ``ketharmad.cards()``.
Here they are expanded with numpy (``unpackbits`` over the uint64 halves, a chunk of rows at
a time, so memory stays bounded) into per-card counts, and polars turns the counts into
rates with Wilson intervals.
"""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path
from typing import Any, Optional, Union

import numpy as np
import polars as pl

from .. import _core
from .._data import CardDataSource, load_card_data
from .._report import ci_text, format_table, pct, signed_pct
from ..stats import Z95, rate, wilson_bounds
from .cli import check_out, chunk_for, cluster_for, finish, progress_enabled
from .report import _figure, _provenance_md, _save, md_table
from .result import LabResult

__all__ = ["card_stats", "CardStatsResult", "expand_bits", "card_set_counts"]

N_BITS = 128
#: Rows expanded at once (each row takes 128 bytes per set while expanded).
_CHUNK_ROWS = 1 << 17
#: The Newsfeed cards' faction label in the card table; they are recruited, never drawn.
NEWSFEED = "newsfeed"


def expand_bits(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """``(n, 128)`` bool matrix of two uint64 halves: column k is bit k of the 128-bit set
    (``lo`` holds bits 0..63, ``hi`` 64..127)."""
    lo_ = np.ascontiguousarray(lo, dtype="<u8")
    hi_ = np.ascontiguousarray(hi, dtype="<u8")
    n = lo_.shape[0]
    raw = np.empty((n, 16), dtype=np.uint8)
    raw[:, :8] = lo_.view(np.uint8).reshape(n, 8)
    raw[:, 8:] = hi_.view(np.uint8).reshape(n, 8)
    return np.unpackbits(raw, axis=1, bitorder="little").view(bool)


def card_set_counts(records: pl.DataFrame) -> pl.DataFrame:
    """Per faction and card index (0..127): in how many seat-games each card set holds the
    card, and how many of those the seat won. Columns: ``faction, card_index, deck_games,
    deck_wins, opening_games, opening_wins, drawn_games, drawn_wins, in_hand_games,
    in_hand_wins, played_games, played_wins``."""
    out = []
    for (faction,), part in records.partition_by("faction", as_dict=True, maintain_order=True).items():
        n = part.height
        won_all = part["won"].to_numpy().astype(bool)
        sets = {name: (part[f"{name}_lo"].to_numpy(), part[f"{name}_hi"].to_numpy())
                for name in ("opening", "drawn", "played")}  # fmt: skip
        acc = {f"{s}_{k}": np.zeros(N_BITS, np.int64)
               for s in ("opening", "drawn", "in_hand", "played") for k in ("games", "wins")}  # fmt: skip
        for start in range(0, n, _CHUNK_ROWS):
            sl = slice(start, min(n, start + _CHUNK_ROWS))
            won = won_all[sl]
            bits = {name: expand_bits(lo[sl], hi[sl]) for name, (lo, hi) in sets.items()}
            bits["in_hand"] = bits["opening"] | bits["drawn"]
            for name, b in bits.items():
                acc[f"{name}_games"] += np.count_nonzero(b, axis=0)
                acc[f"{name}_wins"] += np.count_nonzero(b[won], axis=0)
        out.append(
            pl.DataFrame(
                {
                    "faction": [faction] * N_BITS,
                    "card_index": np.arange(N_BITS, dtype=np.int64),
                    "deck_games": np.full(N_BITS, n, np.int64),
                    "deck_wins": np.full(N_BITS, int(won_all.sum()), np.int64),
                    **acc,
                }
            )
        )
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
    """The result of :func:`ketharmad.card_stats`: ``.table`` (one row per faction and card)
    and ``.batch`` (the SimResult it was computed from)."""

    def __init__(self, table: pl.DataFrame, batch: Any, card_text: str) -> None:
        self.table = table
        self.batch = batch
        self._card_text = card_text

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

    @property
    def elapsed(self) -> float:
        return float(getattr(self.batch, "elapsed", float("nan")))

    @property
    def card_data(self) -> str:
        return str(getattr(self.batch, "card_data", ""))

    # the run's arguments are the batch's
    seed = property(lambda self: self.batch.seed)
    bots = property(lambda self: self.batch.bots)
    params = property(lambda self: self.batch.params)
    decks = property(lambda self: self.batch.decks)
    n_games = property(lambda self: self.batch.n_games)

    def tables(self) -> dict[str, pl.DataFrame]:
        from .._files import sim_tables

        return {"card_stats": self.table, **sim_tables(self.batch)}

    def text(self) -> str:
        return card_stats_text(self)

    def _markdown(self, folder: Optional[Path], plots: bool) -> list[str]:
        return _card_stats_md(self, folder, plots)  # type: ignore[arg-type]

    def plots(self, folder: Union[str, "os.PathLike[str]"]) -> list[Path]:
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


def card_stats(batch: Any, card_data: CardDataSource = None) -> CardStatsResult:
    """Per card and faction win rates, 17lands style, from a :class:`ketharmad.SimResult`.

    One row per (faction, card) for every card of the faction's deck (copies > 0 after the
    batch's ``params``), plus one row per (faction, Newsfeed card) for recruiting. A "game"
    is one seat's game (in a mirror both seats count). Every rate comes as ``<x>_games``,
    ``<x>_wins``, ``<x>_win_rate``, ``<x>_ci_low``, ``<x>_ci_high`` (Wilson 95 %):

    * ``in_hand``: the card was in the kept opening hand or drawn later (GIH WR);
    * ``opening``: in the kept opening hand (OH WR);
    * ``drawn``: drawn after the opening hand (GD WR);
    * ``not_seen``: in the deck but never in hand (GNS WR);
    * ``iwd``: improvement when drawn = in-hand win rate minus not-seen win rate, with a
      normal-approximation 95 % interval ``iwd_ci_low/high``;
    * ``played``: the card was played from hand or recruited (Newsfeed) at least once;
    * ``play_count``, ``mean_turn_played``: from ``batch.plays`` (null unless the batch ran
      with ``record_plays=True``); turn = the game's turn number counting every seat.

    Also ``deck_games`` (the faction's seat-games), ``faction_win_rate`` and ``seen_share``
    (in-hand games / deck games). Hand columns are null for Newsfeed rows.

    ``card_data``: defaults to the card data the batch was played with; bit k of the card
    sets is the k-th row of ``ketharmad.cards(card_data)``.
    """
    records = getattr(batch, "card_records", None)
    if records is None or not isinstance(records, pl.DataFrame):
        raise ValueError("card_stats needs a SimResult (from ketharmad.simulate) with card records")
    if records.height == 0:
        raise ValueError("the batch has no card records")
    batch_text = getattr(batch, "_card_text", None)
    if card_data is not None:
        text = load_card_data(card_data)
        if batch_text is not None and _core.card_data_hash(text) != _core.card_data_hash(batch_text):
            raise ValueError(
                "card_data differs from the card data the batch was played with; "
                "card indices would not match"
            )
    else:
        text = batch_text if batch_text is not None else load_card_data(None)
    params = dict(getattr(batch, "params", {}) or {})
    cards = _cards_frame(text)
    if cards.height > N_BITS:
        raise ValueError(f"card sets hold {N_BITS} cards, the card data has {cards.height}")
    cards = cards.with_row_index("card_index").with_columns(
        pl.col("card_index").cast(pl.Int64), copies=_effective_copies(cards, params)
    )
    counts = card_set_counts(records)
    t = counts.join(
        cards.select("card_index", card="id", name="name", card_faction="faction", type="type",
                     copies="copies"),
        on="card_index",
        how="inner",
    )  # fmt: skip
    own = pl.col("card_faction") == pl.col("faction")
    news = pl.col("card_faction") == NEWSFEED
    t = t.filter((own | news) & (pl.col("copies") > 0))
    hand_cols = ["opening_games", "opening_wins", "drawn_games", "drawn_wins", "in_hand_games",
                 "in_hand_wins"]  # fmt: skip
    t = t.with_columns(
        [pl.when(own).then(pl.col(c)).alias(c) for c in hand_cols]
    ).with_columns(
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
    )
    plays = getattr(batch, "plays", None)
    if plays is not None:
        per_card = plays.group_by("faction", "card").agg(
            play_count=pl.len().cast(pl.Int64),
            mean_turn_played=pl.col("turn").cast(pl.Float64).mean(),
        )
        t = t.join(per_card, on=["faction", "card"], how="left").with_columns(
            pl.col("play_count").fill_null(0)
        )
    else:
        t = t.with_columns(
            play_count=pl.lit(None, pl.Int64), mean_turn_played=pl.lit(None, pl.Float64)
        )
    order = pl.col("faction").replace_strict(
        list(_core.FACTIONS), list(range(len(_core.FACTIONS))), default=len(_core.FACTIONS)
    )
    table = t.sort(order, "card_index").select(
        "faction", "card", "name", "type", "card_faction", "card_index", "copies",
        "deck_games", "faction_win_rate", "seen_share",
        *_rate_block("in_hand"), *_rate_block("opening"), *_rate_block("drawn"),
        *_rate_block("not_seen"), "iwd", "iwd_ci_low", "iwd_ci_high",
        *_rate_block("played"), "play_count", "mean_turn_played",
    )  # fmt: skip
    return CardStatsResult(table, batch, text)


def _cards_frame(text: str) -> pl.DataFrame:
    from .._frames import card_frame

    return card_frame(_core.card_table(text))


def card_stats_text(result: Any, per_faction: int = 5) -> str:
    """Plain-text summary of a CardStatsResult: the best and worst cards by IWD per faction."""
    t = result.table
    lines = [
        f"CardStatsResult({t.height} rows, {result.batch.n_games:,} games, "
        f"{' vs '.join(result.batch.decks)}); IWD = in-hand win rate - not-seen win rate"
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
    lines.append("see .table (all rates with intervals), .top(faction, by, n)")
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
        err = [[100 * (v - lo) for v, lo in zip(part["iwd"].to_list(), part["iwd_ci_low"].to_list())],
               [100 * (hi - v) for v, hi in zip(part["iwd"].to_list(), part["iwd_ci_high"].to_list())]]  # fmt: skip
        colors = ["#3b7dd8" if v >= 0 else "#d8573b" for v in iwd]
        ax.barh(range(part.height), iwd, xerr=err, color=colors, capsize=2, height=0.7)
        ax.set_yticks(range(part.height), part["name"].to_list(), fontsize=7)
        ax.axvline(0, color="black", lw=0.8)
        ax.set_xlabel("IWD (percentage points)")
        ax.set_title(f"{f}: in-hand minus not-seen win rate (95% CI)", fontsize=9)
    fig.tight_layout()
    return _save(fig, path)



def _card_stats_md(result: Any, folder: Path, plots: bool) -> list[str]:
    b = result.batch
    out = [f"# Card statistics: {' vs '.join(b.decks)}, {b.n_games:,} games", ""]
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
        plot_card_iwd(result, folder / "card_iwd.png")
        out += ["![card IWD](card_iwd.png)", ""]
    t = result.table
    for faction in t["faction"].unique(maintain_order=True).to_list():
        part = t.filter(pl.col("faction") == faction)
        own = part.filter(pl.col("card_faction") == faction).sort("iwd", descending=True, nulls_last=True)
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
                ["card", "id", "copies", "in hand", "GIH WR", "OH WR", "GD WR", "GNS WR", "IWD",
                 "IWD 95% CI", "played", "played WR", "mean turn"],
                rows, [False, False] + [True] * 7 + [False, True, True, True],
            ),  # fmt: skip
            "",
        ]
        news = part.filter(pl.col("card_faction") == "newsfeed").sort("played_games", descending=True)
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


def _cmd_card_stats(args: argparse.Namespace) -> None:
    check_out(args)
    with cluster_for(args) as cluster:
        batch = _play(args, cluster)
    finish(card_stats(batch), args)


def _play(args: argparse.Namespace, cluster: Any) -> Any:
    from .._api import simulate
    from ..cli import _bots, _params

    return simulate(
        decks=args.decks,
        bots=_bots(args.bots) if args.bots else "heuristic",
        games=args.games,
        seed=0 if args.seed is None else args.seed,
        threads=args.threads,
        params=_params(args.param, args.params, args.card_data),
        card_data=args.card_data,
        record_plays=True,
        chunk_size=chunk_for(args, args.games),
        progress=progress_enabled(args),
        cluster=cluster,
    )


def add_command(sub: Any) -> None:
    """Register ``ketharmad card-stats`` on the CLI's subparsers."""
    from .cli import lab_args

    p = sub.add_parser("card-stats", help="per-card win rates (17lands style) for one deck pairing")
    p.add_argument("--decks", nargs="+", default=["ner", "tisza"], metavar="FACTION",
                   help="one faction per seat, 2-4 (default: ner tisza)")  # fmt: skip
    lab_args(p, "number of games (default: 10000)", 10000)
    p.set_defaults(func=_cmd_card_stats)
