"""Turning the core's raw column dicts into typed polars DataFrames (vectorised, no row loops)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional

import numpy as np
import polars as pl

from .. import _core

if TYPE_CHECKING:
    from polars._typing import PolarsDataType  # a DataType instance or class

__all__ = [
    "games_frame",
    "players_frame",
    "card_records_frame",
    "plays_frame",
    "card_frame",
    "parameter_frame",
    "CARD_RECORD_BITS",
    "COLUMNS",
    "Column",
]


@dataclass(frozen=True)
class Column:
    """One raw result column of the core, from its one definition (``_core.columns()``).

    ``table``: "games", "players" or "plays"; ``dtype``: numpy dtype of the raw column;
    ``frame``: what the frames below do with it ("plain", "null_if_negative" (negatives become
    null), "end_reason" (codes to the end-reason Enum), "faction" (codes to faction names),
    "card_record" (a card-set half: goes to ``card_records``, not ``players``), "card" (card
    definition index to card id)).
    """

    table: str
    name: str
    dtype: str
    frame: str
    doc: str


#: Every raw result column, in the core's order (games, then players, then plays).
COLUMNS: tuple[Column, ...] = tuple(Column(**c) for c in _core.columns())


def _names(table: str, exclude: Sequence[str] = ()) -> list[str]:
    return [c.name for c in COLUMNS if c.table == table and c.frame not in exclude]


#: Columns of the games frame, in order.
GAME_COLUMNS = _names("games")
#: The per-seat card-set halves of the core's players columns: each 128-bit set (bit k = row
#: k of the card table) is split into two uint64 halves, ``<name>_lo`` (card definitions
#: 0..63) and ``<name>_hi`` (64..127). They go to the card_records frame.
CARD_RECORD_BITS = tuple(
    c.name for c in COLUMNS if c.table == "players" and c.frame == "card_record"
)
CARD_RECORD_SETS = tuple(dict.fromkeys(n.rsplit("_", 1)[0] for n in CARD_RECORD_BITS))
#: Columns of the players frame, in order: the core's players columns but the card sets, with
#: ``deck`` (the deck label: the faction, "a+b" for a Mixed deck, a custom list's name) and
#: ``bot`` (both added here, from the seat) after ``faction``.
PLAYER_COLUMNS = [
    x
    for n in _names("players", ("card_record",))
    for x in ((n, "deck", "bot") if n == "faction" else (n,))
]
#: The key columns the card_records frame repeats from the players columns.
CARD_RECORD_KEYS = ("game", "seat", "faction", "won")
CARD_RECORD_COLUMNS = [*CARD_RECORD_KEYS, *CARD_RECORD_BITS]
_FRAME_OF = {(c.table, c.name): c.frame for c in COLUMNS}


def _ordered(df: pl.DataFrame, preferred: Sequence[str]) -> pl.DataFrame:
    """Put known columns first in a fixed order; keep any extra columns the core adds."""
    first = [c for c in preferred if c in df.columns]
    return df.select(first + [c for c in df.columns if c not in first])


def _codes_to(col: str, labels: Sequence[str], dtype: PolarsDataType) -> pl.Expr:
    labels = list(labels)
    return pl.col(col).replace_strict(list(range(len(labels))), labels, return_dtype=dtype)


def _null_if_negative(col: str) -> pl.Expr:
    return pl.when(pl.col(col) >= 0).then(pl.col(col)).alias(col)


def end_reason_dtype() -> pl.Enum:
    """The Enum dtype of ``end_reason`` columns (categories in the core's code order)."""
    return _end_reason_dtype()


# The frames below are built eagerly, one Series at a time (codes mapped to labels with
# ``gather``, negatives nulled with ``set``), and put together with one ``pl.DataFrame`` of
# Series: no lazy ``with_columns``/``select``, whose every ``collect`` costs a fixed dispatch
# to polars' thread pool (about 0.1 ms idle, several ms on a loaded machine), which dominated
# a small batch's conversion. The tables are the same as those of the expression form.


@functools.lru_cache(maxsize=1)
def _end_reason_dtype() -> pl.Enum:
    return pl.Enum(list(_core.END_REASONS))


@functools.lru_cache(maxsize=64)
def _label_series(labels: tuple[str, ...], enum: bool = False) -> pl.Series:
    """The labels as a Series to ``gather`` codes from (String, or the end-reason Enum)."""
    return pl.Series(list(labels), dtype=_end_reason_dtype() if enum else pl.String)


def _gather_direct(series: pl.Series, idx: np.ndarray) -> pl.Series:
    """``series.gather(idx)`` without the expression engine: polars' public ``Series.gather``
    runs a one-column ``select`` whose ``collect`` costs about 50 us idle and up to a
    millisecond right after a batch (its thread pool has gone to sleep). Uses polars'
    internal Series method; :func:`_direct_gather_ok` checks it against the public one."""
    index = pl.Series(idx.astype(np.uint32, copy=False))
    return pl.Series._from_pyseries(series._s.gather_with_series(index._s))


@functools.lru_cache(maxsize=1)
def _direct_gather_ok() -> bool:
    """Whether :func:`_gather_direct` exists in this polars and equals ``Series.gather``
    (String and Enum); if not, the public ``gather`` is used."""
    idx = np.array([2, 0, 1, 1, 2], dtype=np.uint8)
    try:
        for s in (
            pl.Series(["a", "b", "c"]),
            pl.Series(["a", "b", "c"], dtype=pl.Enum(["a", "b", "c"])),
        ):
            want = s.gather(idx.astype(np.int64))
            got = _gather_direct(s, idx)
            if got.dtype != want.dtype or not got.equals(want):
                return False
    except Exception:  # noqa: BLE001 - any failure: use the public path
        return False
    return True


def _labelled(name: str, codes: Any, labels: Sequence[str], enum: bool = False) -> pl.Series:
    """Codes 0..len(labels)-1 replaced by their labels (``ValueError`` on any other code)."""
    idx = np.asarray(codes)
    if idx.size and (int(idx.min()) < 0 or int(idx.max()) >= len(labels)):
        raise ValueError(f"column {name!r}: a code outside 0..{len(labels) - 1}")
    series = _label_series(tuple(labels), enum)
    if _direct_gather_ok():
        return _gather_direct(series, idx).alias(name)
    return series.gather(idx.astype(np.int64, copy=False)).alias(name)


def _nulled_if_negative(name: str, values: Any) -> pl.Series:
    arr = np.asarray(values)
    s = pl.Series(name, arr)
    neg = arr < 0
    return s.set(pl.Series(neg), None) if neg.any() else s


def _frame(columns: Mapping[str, pl.Series], preferred: Sequence[str]) -> pl.DataFrame:
    """The columns as a DataFrame, known ones first in a fixed order, then any extra ones."""
    first = [c for c in preferred if c in columns]
    rest = [c for c in columns if c not in first]
    return pl.DataFrame([columns[c] for c in first + rest])


def _converted(table: str, name: str, values: Any) -> pl.Series:
    """One raw column as a Series, converted as its frame hint says (a column the schema
    does not know is kept as it is)."""
    frame = _FRAME_OF.get((table, name), "plain")
    if frame == "null_if_negative":
        return _nulled_if_negative(name, values)
    if frame == "end_reason":
        return _labelled(name, values, _core.END_REASONS, enum=True)
    if frame == "faction":
        return _labelled(name, values, _core.FACTIONS)
    return pl.Series(name, np.asarray(values))


def games_frame(raw: Mapping[str, Any]) -> pl.DataFrame:
    """One row per game: ``winner`` null when no seat won, ``end_reason`` as an Enum."""
    return _frame({k: _converted("games", k, v) for k, v in raw.items()}, GAME_COLUMNS)


def players_frame(
    raw: Mapping[str, Any], bot_labels: Sequence[str], deck_labels: Optional[Sequence[str]] = None
) -> pl.DataFrame:
    """One row per (game, seat): faction, deck and bot as strings, ``eliminated_round`` null
    if never. ``deck_labels``: each seat's deck label (docs/decks.md); None: the faction.

    The card-record bitset columns (``opening_lo`` ... ``played_hi``) are left out: they go to
    :func:`card_records_frame`.
    """
    cols = {k: _converted("players", k, v) for k, v in raw.items() if k not in CARD_RECORD_BITS}
    if deck_labels is None:
        cols["deck"] = cols["faction"].alias("deck")
    else:
        cols["deck"] = _labelled("deck", raw["seat"], deck_labels)
    cols["bot"] = _labelled("bot", raw["seat"], bot_labels)
    return _frame(cols, PLAYER_COLUMNS)


def seat_factions(raw_players: Mapping[str, Any], decks: Sequence[str]) -> list[str]:
    """Each seat's faction (the core's ``faction`` codes of the first game's rows: a Mixed
    deck's first faction, a custom list's main one); ``decks`` when there are no rows."""
    codes = np.asarray(raw_players["faction"])[: len(decks)]
    if len(codes) < len(decks):
        return list(decks)
    return [_core.FACTIONS[int(c)] for c in codes]


def card_records_frame(raw: Mapping[str, Any], faction: Optional[pl.Series] = None) -> pl.DataFrame:
    """One row per (game, seat): ``game, seat, faction, won`` and the six uint64 halves of the
    opening / drawn / played card sets (bit k = row k of the card table). Empty columns (zero
    rows) when the core returned no bitsets. ``faction``: the players frame's ``faction``
    column, reused instead of mapping the codes again."""
    if not all(c in raw for c in CARD_RECORD_BITS):
        dtypes = {c.name: c.dtype for c in COLUMNS if c.table == "players"}
        schema = {
            k: pl.String if k == "faction" else pl.Series(np.empty(0, dtypes[k])).dtype
            for k in CARD_RECORD_COLUMNS
        }
        return pl.DataFrame(schema=schema)
    cols = {c: pl.Series(c, np.asarray(raw[c])) for c in CARD_RECORD_COLUMNS if c != "faction"}
    cols["faction"] = (
        _converted("players", "faction", raw["faction"]) if faction is None else faction
    )
    return _frame(cols, CARD_RECORD_COLUMNS)


def plays_frame(
    raw: Mapping[str, Any], decks: Sequence[str], card_ids: Sequence[str]
) -> pl.DataFrame:
    """One row per card played or recruited: ``game, seat, faction, card`` (the card id) and
    ``turn`` (the game's turn number, 1-based, counting every seat's turns)."""
    card_index = np.asarray(raw["card"]).astype(np.int64, copy=False)
    df = pl.DataFrame(
        {
            "game": np.asarray(raw["game"]),
            "seat": np.asarray(raw["seat"]),
            "card": pl.Series(list(card_ids), dtype=pl.String).gather(card_index),
            "turn": np.asarray(raw["turn"]),
        }
    )
    faction = _codes_to("seat", decks, pl.String).alias("faction")
    return df.with_columns(faction).select("game", "seat", "faction", "card", "turn")


_CARD_SCHEMA: dict[str, PolarsDataType] = {
    "id": pl.String, "name": pl.String, "faction": pl.String, "type": pl.String,
    "copies": pl.Int64, "cost": pl.String, "cost_generic": pl.Int64, "cost_f": pl.Int64,
    "cost_m": pl.Int64, "cost_u": pl.Int64, "influence": pl.Int64, "credibility": pl.Int64,
    "keywords": pl.String, "party": pl.String, "role": pl.String, "text": pl.String,
}  # fmt: skip

_PARAMETER_SCHEMA: dict[str, PolarsDataType] = {
    "name": pl.String, "default": pl.Int64, "default_str": pl.String, "kind": pl.String,
    "min": pl.Int64, "max": pl.Int64, "card": pl.String, "description": pl.String,
}  # fmt: skip


def _table(raw: Mapping[str, Sequence[Any]], schema: Mapping[str, PolarsDataType]) -> pl.DataFrame:
    overrides = {k: v for k, v in schema.items() if k in raw}
    df = pl.DataFrame(dict(raw), schema_overrides=overrides)
    return _ordered(df, list(schema))


def card_frame(raw: Mapping[str, Sequence[Any]]) -> pl.DataFrame:
    """The card reference table, one row per distinct card, in file order."""
    return _table(raw, _CARD_SCHEMA)


def parameter_frame(raw: Mapping[str, Sequence[Any]]) -> pl.DataFrame:
    """The table of tunable parameters with defaults and allowed ranges."""
    return _table(raw, _PARAMETER_SCHEMA)
