"""Games on the game-generic harness (issue 14).

>>> import ketharmad
>>> ketharmad.games()["name"].to_list()
['ketharmad', 'schotten_totten_2', 'osztrakon']
>>> r = ketharmad.simulate(game="schotten_totten_2", bots=["greedy", "random"], games=2000, seed=1)
>>> r.summary()            # Attacker win rate with a Wilson 95 % interval
>>> r.games, r.players     # polars DataFrames: one row per game / per (game, seat)
>>> s = ketharmad.simulate_game("osztrakon", games=10**6, seed=1, output="stats")  # counts, no rows
>>> s.summary()            # the same table as r.summary(), from integer counts
>>> from concurrent.futures import ProcessPoolExecutor
>>> with ProcessPoolExecutor(4) as ex:   # shards of 50,000 games, same games
...     r = ketharmad.simulate_game("schotten_totten_2", games=10**6, chunk_size=50_000, executor=ex)

Bots are spec strings: ``"random"``, ``"greedy"``, ``"search"``,
``"search:iterations=400,c=0.7,rollout=random"``; ``params`` names any parameter the game
lists in :func:`games` (``{"rules.oil_target": "newest", "wall.gate.intact_cards": 3}``).
"""

from __future__ import annotations

import difflib
import functools
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Optional, Union

import numpy as np
import polars as pl

from .. import _core
from .data import fold_text
from .spec import spec_of

if TYPE_CHECKING:
    from polars._typing import PolarsDataType  # a DataType instance or class

__all__ = [
    "game_state",
    "HarnessGame",
    "harness_parameters",
    "harness_info",
    "harness_bot_table",
    "check_harness_bots",
    "check_harness_params",
    "shape_harness_params",
    "harness_seat_names",
]

HarnessGame = _core.HarnessGame

ParamValue = Union[int, float, bool, str]


@functools.lru_cache(maxsize=1)
def _table() -> tuple[dict[str, Any], ...]:
    """The game table, built once per process for the checks of every call (``games()`` builds
    a fresh copy for its caller: Kétharmad's entry lists hundreds of parameters)."""
    return tuple(_core.game_table())


def _game_info(game: str) -> dict[str, Any]:
    for g in _table():
        if g["name"] == game:
            return g
    known = ", ".join(g["name"] for g in _table())
    raise ValueError(f"unknown game {game!r} (known: {known})")


def game_state(
    game: str = "schotten_totten_2",
    seats: Optional[int] = None,
    seed: int = 0,
    game_index: int = 0,
    params: Optional[dict[str, ParamValue]] = None,
) -> _core.HarnessGame:
    """One game of ``game`` (``"schotten_totten_2"`` or ``"osztrakon"``) stopped at its first
    decision: the step API of the harness games. It is game ``game_index`` of
    ``simulate_game(game, ..., seed=seed, params=params)`` with ``seats`` seats (default: the
    game's smallest count; Schotten Totten 2: seat 0 Attacker, seat 1 Defender).

    The object (``ketharmad.HarnessGame``) has ``current_player`` (None when over),
    ``legal_action_ids()``, ``legal_actions()`` (id, label), ``action_mask()`` (numpy bool of
    ``num_actions``), ``step(id)`` (an illegal id is a ValueError listing the legal ones),
    ``describe_action(id)``, ``observation_tensor(seat)`` (numpy float32 of
    ``observation_size``), ``clone()``, ``determinize(seat, seed)`` (a copy with everything
    ``seat`` cannot see re-dealt), ``is_over``, ``winner``/``winners``, ``end_reason``,
    ``turns``, ``returns()`` and ``bot_action(spec)``: the id the bot ``spec`` picks for the
    seat to move, drawn from the stream the batch gives that seat, so stepping
    ``bot_action(bots[g.current_player])`` to the end plays exactly that batch row."""
    if spec_of(game).is_ketharmad:
        raise ValueError(
            "game_state is for the games on the generic harness; use ketharmad.Game for Kétharmad"
        )
    info = _game_info(game)
    if seats is None:
        seats = info["min_seats"]
    for name, v in (("seats", seats), ("seed", seed), ("game_index", game_index)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"{name} must be a whole number >= 0, got {v!r}")
    return _core.HarnessGame(game, seats, seed, game_index, params)


#: Where the components of a harness game are described (it has no card table).
COMPONENT_DOCS = {"schotten_totten_2": "docs/schotten_totten2.md", "osztrakon": "docs/osztrakon.md"}

_HARNESS_PARAMETER_SCHEMA: dict[str, PolarsDataType] = {
    "name": pl.String, "kind": pl.String, "default": pl.Float64, "default_str": pl.String, "min": pl.Float64,
    "max": pl.Float64, "choices": pl.List(pl.String), "description": pl.String,
}  # fmt: skip


def _default_text(p: Mapping[str, Any]) -> tuple[float, str]:
    """A parameter's default as a number (bool 0/1, a choice its index in ``choices``) and as
    text (``true``/``false``, the choice's name, the number)."""
    d = p["default"]
    if isinstance(d, bool):
        return float(d), str(d).lower()
    if isinstance(d, str):
        choices = list(p["choices"])
        return float(choices.index(d)) if d in choices else float("nan"), d
    return float(d), str(d)


def harness_parameters(game: str, match: Optional[str] = None) -> pl.DataFrame:
    """The parameter table of a harness game (:func:`ketharmad.parameters` with ``game=``),
    from its :func:`games` entry, in registry order: ``name, kind, default, default_str, min,
    max, choices, description``. ``default`` is a number as in Kétharmad's table (a bool 0/1,
    a choice its index in ``choices``), ``default_str`` its text (``true``/``false``, the
    choice's name, the number); ``min``/``max`` are the registry's range (a choice's: its
    index range). ``match``: only the parameters whose name or description contains it,
    ignoring case and accents."""
    info = _game_info(game)
    if match is not None and not isinstance(match, str):
        raise ValueError(f"match must be a str, got {type(match).__name__}")
    needle = fold_text(match) if match is not None else None
    rows = []
    for p in info["parameters"]:
        if (
            needle is not None
            and needle not in fold_text(p["name"])
            and needle not in fold_text(p["description"])
        ):
            continue
        default, text = _default_text(p)
        rows.append({"name": p["name"], "kind": p["kind"], "default": default, "default_str": text,
                     "min": float(p["min"]), "max": float(p["max"]), "choices": [str(c) for c in p["choices"]],
                     "description": p["description"]})  # fmt: skip
    return pl.DataFrame(rows, schema=_HARNESS_PARAMETER_SCHEMA)


def no_card_table(game: str, call: str) -> ValueError:
    """The error of ``cards(game=...)`` for a harness game: it has no card table."""
    _game_info(game)
    where = COMPONENT_DOCS.get(game, "docs/games.md")
    return ValueError(
        f"{call}(game={game!r}): {game} has no card table (its cards are fixed components, not a card file); "
        f"its components are described in {where}"
    )


def harness_info(game: object) -> dict[str, Any]:
    """The :func:`ketharmad.games` entry of a game on the harness; ValueError naming the
    known games for anything else."""
    if not isinstance(game, str):
        raise ValueError(f"game must be a game name such as 'schotten_totten_2', got {game!r}")
    return _game_info(game)


#: The search bot's options that name a bot, not a number (the numeric ones come from the
#: core: ``rust/harness/search.rs``, ``SEARCH_KNOBS``, and the game's evaluation weights).
BOT_OPTIONS = (
    ("rollout", math.nan, math.nan, math.nan,
     "the bot that plays the rollouts: a bot name of the game (default random); its options after ';'"),
    ("prior", math.nan, math.nan, math.nan,
     "the bot whose pick a widened node expands first (default: the rollout bot)"),
)  # fmt: skip


def search_options(game: str) -> list[tuple[str, float, float, float, str]]:
    """The harness search bot's options in ``game``: name, default, min, max, description
    (its own knobs, the game's evaluation weights, then ``rollout`` and ``prior``)."""
    info = harness_info(game)
    return [tuple(k) for k in info["search_knobs"]] + list(BOT_OPTIONS)


def harness_bot_table(game: str) -> pl.DataFrame:
    """``ketharmad.bots(game=...)``: the game's bots (``entry == "bot"``) and the search bot's
    options (``entry == "knob"``), in the columns of the Kétharmad table."""
    info = harness_info(game)
    rows = [{"name": b, "entry": "bot", "applies_to": "", "default": math.nan, "min": math.nan, "max": math.nan,
             "description": "ISMCTS over determinizations (options below): search:iterations=400,c=0.7"
             if b == "search" else f"a bot of {game} (docs/games.md)"} for b in info["agents"]]  # fmt: skip
    rows += [{"name": n, "entry": "knob", "applies_to": "search", "default": d, "min": lo, "max": hi, "description": t}
             for n, d, lo, hi, t in search_options(game)]  # fmt: skip
    return pl.DataFrame(rows, schema={"name": pl.String, "entry": pl.String, "applies_to": pl.String,
                                      "default": pl.Float64, "min": pl.Float64, "max": pl.Float64,
                                      "description": pl.String})  # fmt: skip


def check_harness_bots(game: str, bots: object) -> list[str]:
    """The bots of a harness game: one bot spec per seat (a list), or one spec for every seat
    at the game's smallest seat count; each spec checked by the game's agent factory."""
    if not isinstance(game, str):
        raise ValueError(f"game must be a name such as 'schotten_totten_2', got {game!r}")
    if spec_of(game).is_ketharmad:
        raise ValueError("this is the harness-game path; Kétharmad runs through the Kétharmad lab")
    info = _game_info(game)
    if bots is None:
        bots = "random"
    if isinstance(bots, str):
        bots = [bots] * info["min_seats"]
    if not isinstance(bots, (list, tuple)) or not bots:
        raise ValueError(f"bots must be a bot spec or a list of them (one per seat), got {bots!r}")
    bots = list(bots)
    for b in bots:
        if not isinstance(b, str):
            raise ValueError(
                f"a bot spec must be a string like 'greedy' or 'search:iterations=200', got {b!r}"
            )
    if not info["min_seats"] <= len(bots) <= info["max_seats"]:
        raise ValueError(
            f"{game} takes {info['min_seats']} to {info['max_seats']} seats, got {len(bots)} bots"
        )
    g = _core.HarnessGame(game, len(bots), 0, 0, None)
    for b in dict.fromkeys(bots):
        try:
            g.bot_action(b)
        except ValueError as e:
            raise ValueError(f"bots: {e}") from None
    return bots


def _scalar(name: str, value: object, where: str) -> ParamValue:
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        if not math.isfinite(float(value)):
            raise ValueError(f"{where}: parameter {name!r}: value {value!r} is not a finite number")
        return float(value)
    if isinstance(value, str):
        return value
    raise ValueError(f"{where}: parameter {name!r}: value must be an int, float, bool or str, "
                     f"got {type(value).__name__} {value!r}")  # fmt: skip


def shape_harness_params(
    params: object, info: Mapping[str, Any], where: str
) -> dict[str, ParamValue]:
    """Names known to the game and values of a plain type (ranges: :func:`check_harness_params`)."""
    if params is None:
        return {}
    if not isinstance(params, Mapping):
        raise ValueError(f"{where} must be a dict of {{name: value}}, got {type(params).__name__}")
    known = {p["name"]: p for p in info["parameters"]}
    out: dict[str, ParamValue] = {}
    for name, value in params.items():
        if not isinstance(name, str):
            raise ValueError(f"{where}: parameter names must be strings, got {name!r}")
        if name not in known:
            similar = difflib.get_close_matches(name, sorted(known), n=3, cutoff=0.6)
            hint = f" (similar: {', '.join(similar)})" if similar else ""
            raise ValueError(f"{where}: unknown parameter {name!r} of {info['name']}{hint}; "
                             f"`ketharmad games` lists them")  # fmt: skip
        v = _scalar(name, value, where)
        p = known[name]
        if p["kind"] == "int" and isinstance(v, float) and v.is_integer():
            v = int(v)
        out[name] = v
    return out


def check_harness_params(
    game: str, seats: int, params: object, where: str = "params"
) -> dict[str, ParamValue]:
    """``params`` checked against the game's registry (names, kinds, ranges, choices, and the
    rules' own cross-checks such as a hand that the deck cannot deal): ``ValueError`` naming
    the parameter, before any game runs."""
    info = harness_info(game)
    out = shape_harness_params(params, info, where)
    try:
        _core.HarnessGame(game, seats, 0, 0, out or None)
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None
    return out


def harness_seat_names(info: Mapping[str, Any], seats: int) -> list[str]:
    """Seat names: the game's sides (attacker, defender) or ``seat 0`` ...."""
    sides = list(info.get("sides") or [])
    return [sides[s] if s < len(sides) else f"seat {s}" for s in range(seats)]
