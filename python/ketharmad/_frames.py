"""Turning the core's raw column dicts into typed polars DataFrames (vectorised, no row loops)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import polars as pl

from . import _core

__all__ = ["games_frame", "players_frame", "card_frame", "parameter_frame"]

GAME_COLUMNS = [
    "game",
    "seed",
    "winner",
    "turns",
    "rounds",
    "end_reason",
    "start_player",
    "actions",
]
PLAYER_COLUMNS = [
    "game", "seat", "faction", "bot", "won", "support", "scandal", "eliminated",
    "eliminated_round", "cards_played", "attacks", "exposes", "mulligans",
]  # fmt: skip


def _ordered(df: pl.DataFrame, preferred: Sequence[str]) -> pl.DataFrame:
    """Put known columns first in a fixed order; keep any extra columns the core adds."""
    first = [c for c in preferred if c in df.columns]
    return df.select(first + [c for c in df.columns if c not in first])


def _from_arrays(columns: Mapping[str, Any]) -> pl.DataFrame:
    return pl.DataFrame({name: np.asarray(values) for name, values in columns.items()})


def _codes_to(col: str, labels: Sequence[str], dtype: pl.DataType) -> pl.Expr:
    labels = list(labels)
    return pl.col(col).replace_strict(list(range(len(labels))), labels, return_dtype=dtype)


def _null_if_negative(col: str) -> pl.Expr:
    return pl.when(pl.col(col) >= 0).then(pl.col(col)).alias(col)


def end_reason_dtype() -> pl.Enum:
    """The Enum dtype of ``end_reason`` columns (categories in the core's code order)."""
    return pl.Enum(list(_core.END_REASONS))


def games_frame(raw: Mapping[str, Any]) -> pl.DataFrame:
    """One row per game: ``winner`` null when no seat won, ``end_reason`` as an Enum."""
    df = _from_arrays(raw).with_columns(
        _null_if_negative("winner"),
        _codes_to("end_reason", _core.END_REASONS, end_reason_dtype()),
    )
    return _ordered(df, GAME_COLUMNS)


def players_frame(raw: Mapping[str, Any], bot_labels: Sequence[str]) -> pl.DataFrame:
    """One row per (game, seat): faction and bot as strings, ``eliminated_round`` null if never."""
    df = _from_arrays(raw)
    exprs = [
        _codes_to("faction", _core.FACTIONS, pl.String),
        _codes_to("seat", bot_labels, pl.String).alias("bot"),
    ]
    if "eliminated_round" in df.columns:
        exprs.append(_null_if_negative("eliminated_round"))
    return _ordered(df.with_columns(exprs), PLAYER_COLUMNS)


_CARD_SCHEMA = {
    "id": pl.String, "name": pl.String, "faction": pl.String, "type": pl.String,
    "copies": pl.Int64, "cost": pl.String, "cost_generic": pl.Int64, "cost_f": pl.Int64,
    "cost_m": pl.Int64, "cost_u": pl.Int64, "influence": pl.Int64, "credibility": pl.Int64,
    "keywords": pl.String, "party": pl.String, "role": pl.String, "text": pl.String,
}  # fmt: skip

_PARAMETER_SCHEMA = {
    "name": pl.String, "default": pl.Int64, "default_str": pl.String, "kind": pl.String,
    "min": pl.Int64, "max": pl.Int64, "card": pl.String, "description": pl.String,
}  # fmt: skip


def _table(raw: Mapping[str, Sequence[Any]], schema: Mapping[str, pl.DataType]) -> pl.DataFrame:
    overrides = {k: v for k, v in schema.items() if k in raw}
    df = pl.DataFrame(dict(raw), schema_overrides=overrides)
    return _ordered(df, list(schema))


def card_frame(raw: Mapping[str, Sequence[Any]]) -> pl.DataFrame:
    """The card reference table, one row per distinct card, in file order."""
    return _table(raw, _CARD_SCHEMA)


def parameter_frame(raw: Mapping[str, Sequence[Any]]) -> pl.DataFrame:
    """The table of tunable parameters with defaults and allowed ranges."""
    return _table(raw, _PARAMETER_SCHEMA)
