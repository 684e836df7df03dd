"""Deck arguments beyond the four factions (docs/decks.md): Mixed decks and custom lists.

Every entry point takes a seat's deck as one of

* a faction name, ``"ner"`` (its own 31-card deck, R2.1);
* a Mixed deck, ``"ner+tisza"`` (R16.4, E90: 9 non-Base cards and 6 Bases from each faction
  deck, chosen per game from the game's seed; ``rules.mixed_deck_non_base`` and
  ``rules.mixed_deck_bases``);
* a custom list, ``{"name": "tempo", "cards": {"ner_base_kozbeszerzes": 4, ...}}``;
* the path of a deck file (``str`` ending in ``.toml`` or a ``pathlib.Path``): a TOML file
  with an optional ``name = "..."`` (default: the file name without ``.toml``) and a
  ``[cards]`` table of ``card_id = copies``.

Here each is written as the one string the core reads (:func:`deck_string`): a faction or
``"a+b"`` as it is, a list as ``"name[card_id*copies,...]"`` (ids sorted). The core checks
every deck against the card set (unknown card, deck size, copies, Newsfeed/Event/token cards,
the Mixed composition, two decks taking one faction deck) and raises ``ValueError``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .data import read_toml_file

__all__ = [
    "deck_string",
    "deck_label",
    "deck_faction",
    "deck_factions",
    "read_deck_file",
    "DeckArg",
]

DeckArg = Any  # str | Mapping[str, Any] | os.PathLike

_NAME = re.compile(r"^[\w.\-]{1,40}$")


def _check_name(name: object, where: str) -> str:
    if not isinstance(name, str) or not _NAME.match(name):
        raise ValueError(
            f"{where}: a deck name must be 1-40 letters, digits, '_', '-' or '.', got {name!r}"
        )
    return name


def _list_string(name: str, cards: object, where: str) -> str:
    if not isinstance(cards, Mapping):
        raise ValueError(
            f"{where}: 'cards' must be a table of card id -> copies, got {type(cards).__name__}"
        )
    if not cards:
        raise ValueError(f"deck {name!r}: the card list is empty")
    items = []
    for cid, n in cards.items():
        if not isinstance(cid, str) or not re.match(r"^[\w.\-]+$", cid):
            raise ValueError(f"deck {name!r}: {cid!r} is not a card id")
        if isinstance(n, bool) or not isinstance(n, int):
            raise ValueError(
                f"deck {name!r}: the copies of {cid!r} must be a whole number, got {n!r}"
            )
        items.append(f"{cid}*{n}")
    return f"{name}[{','.join(sorted(items))}]"


def read_deck_file(path: str | os.PathLike[str]) -> str:
    """The deck string of a deck file (see the module documentation)."""
    p = Path(path)
    data = read_toml_file(p, "deck file")
    extra = sorted(set(data) - {"name", "cards"})
    if extra:
        raise ValueError(
            f"deck file {str(p)!r}: unknown key(s) {', '.join(extra)} (a deck file has "
            "'name' and a [cards] table)"
        )
    if "cards" not in data:
        raise ValueError(f"deck file {str(p)!r} has no [cards] table")
    name = _check_name(data.get("name", p.name.removesuffix(".toml")), f"deck file {str(p)!r}")
    return _list_string(name, data["cards"], f"deck file {str(p)!r}")


def deck_string(deck: DeckArg) -> str:
    """One seat's deck argument as the string the core reads (shape checks only)."""
    if isinstance(deck, os.PathLike) or (isinstance(deck, str) and deck.endswith(".toml")):
        return read_deck_file(deck)
    if isinstance(deck, str):
        return deck.strip()
    if isinstance(deck, Mapping):
        extra = sorted(set(deck) - {"name", "cards"})
        if extra or "cards" not in deck:
            raise ValueError(
                "a custom deck is {'name': ..., 'cards': {card_id: copies, ...}}, got keys "
                f"{sorted(deck)}"
            )
        name = _check_name(deck.get("name"), "custom deck")
        return _list_string(name, deck["cards"], f"deck {name!r}")
    raise ValueError(
        "a deck is a faction name, a Mixed deck 'a+b', a custom deck {'name': ..., 'cards': "
        f"{{...}}}} or a deck file path, got {type(deck).__name__} {deck!r}"
    )


def deck_label(deck: str) -> str:
    """The label results carry for a deck string: the faction, ``"a+b"`` or the name."""
    i = deck.find("[")
    return deck if i < 0 else deck[:i]


def deck_faction(deck: str) -> str:
    """The faction a deck string shows where one faction is asked for: the faction itself, a
    Mixed deck's first; a custom list's label (its main faction is known to the core only)."""
    label = deck_label(deck)
    return label.split("+", 1)[0] if "[" not in deck else label


def deck_factions(deck: str) -> frozenset[str] | None:
    """The faction decks a deck string takes cards from: ``{f}``, ``{a, b}``; None for a
    custom list (known to the core only: a caller treats it as any faction)."""
    if "[" in deck:
        return None
    return frozenset(deck.split("+"))
