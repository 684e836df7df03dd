"""Win rate and victory points by seat and by deck, for the results of any format
(docs/formats.md): the free-for-all, Quick, Coalition, and the victory-point formats.

A seat "wins" when its ``won`` column is true: the last seat standing, both partners of the
winning team (E87), the seats a victory-point format declares winners. A ``points`` column
(victory points per seat, in the formats that score them) adds ``points_mean``; results
without one have no such column.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional

import polars as pl

from ..game.decks import deck_label
from ..run.reduce import Stats
from ..stats import rate, wilson_bounds

__all__ = ["seat_table", "deck_table"]


def _players(x: Any) -> pl.DataFrame:
    players = x if isinstance(x, pl.DataFrame) else getattr(x, "players", None)
    if not isinstance(players, pl.DataFrame):
        raise ValueError(
            "seat_table / deck_table need per-seat rows: a SimResult, a MatchupResult with rows, "
            f"or its players table; got {type(x).__name__}"
        )
    for col in ("seat", "faction", "won"):
        if col not in players.columns:
            raise ValueError(f"the players table has no {col!r} column")
    return players


def _table(players: pl.DataFrame, key: str, out: str) -> pl.DataFrame:
    aggs = [
        pl.len().cast(pl.Int64).alias("games"),
        pl.col("won").sum().cast(pl.Int64).alias("wins"),
    ]
    # the points column is NaN in formats that score no victory points (docs/formats.md)
    has_points = "points" in players.columns and bool(
        players["points"].cast(pl.Float64).is_not_nan().any()
    )
    if has_points:
        aggs.append(pl.col("points").cast(pl.Float64).mean().alias("points_mean"))
    low, high = wilson_bounds("wins", "games")
    t = players.group_by(pl.col(key).alias(out)).agg(aggs)
    t = t.with_columns(win_rate=rate("wins", "games"), ci_low=low, ci_high=high)
    cols = [out, "games", "wins", "win_rate", "ci_low", "ci_high"] + (
        ["points_mean"] if has_points else []
    )
    return t.select(cols)


def seat_table(x: Any) -> pl.DataFrame:
    """One row per seat: ``seat, games, wins, win_rate, ci_low, ci_high`` (Wilson 95 %) and,
    when the rows carry victory points, ``points_mean``. ``x``: a SimResult, a
    MatchupResult with rows, or a players table."""
    return _table(_players(x), "seat", "seat").sort("seat")


def deck_table(x: Any, order: Optional[Sequence[str]] = None) -> pl.DataFrame:
    """One row per deck label (``deck``): the same columns as :func:`seat_table`, over every
    seat the deck played. Rows in ``order`` when given, else in order of first appearance."""
    players = _players(x)
    key = "deck" if "deck" in players.columns else "faction"  # a Mixed deck's faction is its first
    t = _table(players, key, "deck")
    seen = list(order) if order is not None else players[key].unique(maintain_order=True).to_list()
    return t.sort(
        pl.col("deck").replace_strict(
            seen, list(range(len(seen))), default=len(seen), return_dtype=pl.Int64
        )
    )


def stats_tables(
    cells: Sequence[Any], results: Sequence[Stats], lead_seat: Any, order: Sequence[str]
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """:func:`seat_table` and :func:`deck_table` from per-cell reductions (no rows): a seat
    won the games its team's lead seat (``lead_seat(seat)``, the seat the ``winner`` column
    names) won. Reductions carry no victory points (no ``points_mean``)."""
    seats: dict[int, list[int]] = {}
    decks: dict[str, list[int]] = {}
    for c, s in zip(cells, results, strict=True):
        for seat, deck in enumerate(c.decks):
            w = s.wins_seat[lead_seat(seat)]
            for acc in (seats.setdefault(seat, [0, 0]), decks.setdefault(deck_label(deck), [0, 0])):
                acc[0] += s.games
                acc[1] += w

    def frame(d: dict[Any, list[int]], key: str, dtype: Any) -> pl.DataFrame:
        low, high = wilson_bounds("wins", "games")
        return pl.DataFrame([(k, g, w) for k, (g, w) in d.items()],
                            schema={key: dtype, "games": pl.Int64, "wins": pl.Int64}, orient="row").with_columns(
            win_rate=rate("wins", "games"), ci_low=low, ci_high=high)  # fmt: skip

    by_seat = frame(seats, "seat", pl.Int8).sort("seat")
    by_deck = frame(decks, "deck", pl.String)
    by_deck = by_deck.sort(pl.col("deck").replace_strict(list(order), list(range(len(order))), default=len(order),
                                                         return_dtype=pl.Int64))  # fmt: skip
    return by_seat, by_deck
