"""Which columns of a result table name its rows (its keys) and which hold per-game rows:
the one list the HTML reports (``data-row``) and the comparison of two runs
(:func:`ketharmad.compare_runs`, which matches rows by their keys) share."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["KEY_NAMES", "key_columns", "is_per_game"]

#: Column names that identify a row of a result table (a side, a cell, a card, a point, a
#: metric, a bot pair ...), in the order they are joined in a row's name.
KEY_NAMES = (
    "point",
    "matchup",
    "metric",
    "kind",
    "parameter",
    "perspective",
    "faction",
    "deck",
    "card",
    "team",
    "bot",
    "bot_a",
    "bot_b",
    "a",
    "b",
    "lower",
    "upper",
    "opponent",
    "against",
    "field",
    "side",
    "seat",
    "position",
    "rung",
    "batch",
    "points",
)


def key_columns(columns: Sequence[str]) -> list[str]:
    """The key columns among ``columns``, in :data:`KEY_NAMES` order."""
    have = set(columns)
    return [k for k in KEY_NAMES if k in have]


def is_per_game(columns: Sequence[str]) -> bool:
    """A table of per-game rows (games, players, card records, plays): it has a ``game``
    column (the game's index in its batch)."""
    return "game" in set(columns)
