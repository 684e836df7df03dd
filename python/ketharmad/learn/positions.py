"""Self-play positions for a value model (``learn_positions`` in the core): every seat's
features at a sample of the key decisions of seeded games, labelled with that seat's result."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any, Optional

import numpy as np

from .. import _core
from ..game.data import CardDataSource, load_card_data
from ..game.spec import spec_of


def card_hash(card_data: CardDataSource = None, params: Optional[Mapping[str, Any]] = None) -> str:
    """The hash (16 hex digits) of a card set with its parameter overrides, as a model
    records it (every number of the resolved set): a bot whose model was trained on another
    set warns when it plays this one."""
    return str(_core.card_set_hash(load_card_data(card_data), dict(params or {})))


def pairings(seats: int) -> list[list[str]]:
    """The deck lists of a training run: every ordered pair of factions for 2 seats, every
    rotation of the four factions for 4 seats."""
    f = list(_core.FACTIONS)
    if seats == 2:
        return [list(p) for p in itertools.permutations(f, 2)]
    if seats == len(f):
        return [f[i:] + f[:i] for i in range(len(f))]
    return [list(p) for p in itertools.permutations(f, seats)]


def positions(
    *,
    game: str = "ketharmad",
    bots: Sequence[str] | str = "tuned",
    games: int = 1000,
    seed: int = 0,
    rate: float = 0.25,
    seats: int = 2,
    card_data: CardDataSource = None,
    params: Optional[Mapping[str, Any]] = None,
    threads: Optional[int] = None,
) -> dict[str, Any]:
    """Record positions of ``games`` games (Kétharmad: spread over :func:`pairings`, each
    pairing its own block of game indices). Returns ``x`` (rows × features, float32), ``y``,
    ``game`` (a global game number), ``seat``, ``clock``, ``to_move`` and the layout."""
    if isinstance(bots, str):
        bots = [bots] * seats
    if len(bots) != seats:
        raise ValueError(f"got {len(bots)} bots for {seats} seats")
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    parts = []
    if spec_of(game).is_ketharmad:
        text = load_card_data(card_data)
        decks = pairings(seats)
        per = [games // len(decks) + (i < games % len(decks)) for i in range(len(decks))]
        first = 0
        for d, n in zip(decks, per, strict=False):
            if n == 0:
                continue
            r = _core.learn_positions(
                game,
                list(bots),
                n,
                seed,
                threads=threads,
                params=dict(params or {}),
                first_game=first,
                card_data=text,
                decks=d,
                rate=rate,
            )
            parts.append(r)
            first += n
    else:
        parts.append(
            _core.learn_positions(
                game, list(bots), games, seed, threads=threads, params=dict(params or {}), rate=rate
            )
        )
    w = parts[0]["width"]
    out: dict[str, Any] = {k: parts[0][k] for k in ("width", "layout", "names", "layout_hash")}
    out["x"] = np.concatenate([p["x"] for p in parts]).reshape(-1, w)
    for k in ("y", "game", "seat", "clock", "to_move"):
        out[k] = np.concatenate([p[k] for p in parts])
    return out


def choices(
    *,
    game: str = "ketharmad",
    bots: Sequence[str] | str = "tuned",
    teachers: Sequence[str] | str | None = None,
    games: int = 1000,
    seed: int = 0,
    rate: float = 1.0,
    seats: int = 2,
    card_data: CardDataSource = None,
    params: Optional[Mapping[str, Any]] = None,
    threads: Optional[int] = None,
) -> dict[str, Any]:
    """Labelled decisions of ``games`` games (Kétharmad: spread over :func:`pairings`): at a
    ``rate`` sample of the key decisions with two or more options, the mover's position
    features ``x`` (decisions × features), every option's features ``opt_x`` (options ×
    option features; decision ``d``'s rows ``offsets[d]:offsets[d + 1]``), the choice of
    ``teachers`` (None: of the playing ``bots``) as ``choice``, and the seat's result ``y``."""
    if isinstance(bots, str):
        bots = [bots] * seats
    if isinstance(teachers, str):
        teachers = [teachers] * seats
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    parts = []
    kw: dict[str, Any] = {
        "threads": threads,
        "params": dict(params or {}),
        "rate": rate,
        "teachers": None if teachers is None else list(teachers),
    }
    if spec_of(game).is_ketharmad:
        text = load_card_data(card_data)
        decks = pairings(seats)
        per = [games // len(decks) + (i < games % len(decks)) for i in range(len(decks))]
        first = 0
        for d, n in zip(decks, per, strict=True):
            if n:
                parts.append(
                    _core.learn_choices(
                        game, list(bots), n, seed, first_game=first, card_data=text, decks=d, **kw
                    )
                )
                first += n
    else:
        parts.append(_core.learn_choices(game, list(bots), games, seed, **kw))
    w, ow = parts[0]["width"], parts[0]["opt_width"]
    out: dict[str, Any] = {
        k: parts[0][k]
        for k in ("width", "opt_width", "layout", "opt_layout", "names", "layout_hash")
    }
    out["x"] = np.concatenate([p["x"] for p in parts]).reshape(-1, w)
    out["opt_x"] = np.concatenate([p["opt_x"] for p in parts]).reshape(-1, ow)
    offs, base = [np.zeros(1, dtype=np.int64)], 0
    for p in parts:
        o = p["offsets"].astype(np.int64)
        offs.append(o[1:] + base)
        base += int(o[-1])
    out["offsets"] = np.concatenate(offs)
    for k in ("choice", "y", "game", "seat", "clock"):
        out[k] = np.concatenate([p[k] for p in parts])
    return out
