"""A game is a value (issue 23): :func:`load_game` turns a game name and its setup into a
:class:`GameSpec`, checked once; every entry point that takes ``game=`` takes one.

>>> import ketharmad
>>> st2 = ketharmad.load_game("schotten_totten_2", params={"rules.hand_size": 5})
>>> st2
GameSpec('schotten_totten_2', params={'rules.hand_size': 5})
>>> ketharmad.simulate(bots="greedy", games=100, game=st2)   # = game="schotten_totten_2", params=...
>>> k4 = ketharmad.load_game(decks=["ner", "tisza", "osszefogas", "radikalisok"], format="coalition")
>>> ketharmad.play(game=k4, index=3)

This module is the only place that reads a game name: :func:`load_game` looks it up in the
Rust game table (``_core.game_table()``) and :attr:`GameSpec.is_ketharmad` is the one
comparison of a name with ``"ketharmad"`` new code needs. :func:`resolve` is the one step
every entry point takes with its ``game=`` argument: a name or a spec plus the call's
explicit setup keywords give one spec.
"""

from __future__ import annotations

import copy
import functools
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Optional, TypedDict, Union

from .. import _core
from .data import CardDataSource, load_card_data
from .formats import _probe_decks, apply_format, format_info
from .validate import MAX_SEATS, check_decks, check_int, check_params

__all__ = [
    "GameSpec",
    "load_game",
    "resolve",
    "spec_of",
    "game_info",
    "game_names",
    "KETHARMAD_SETUP",
    "SetupKeywords",
    "take_setup",
    "HARNESS_SETUP",
]

ParamValue = Union[int, float, bool, str]
#: A format as a spec keeps it: a name or a path, or a user format's dict frozen into sorted
#: ``(key, value)`` pairs (lists as tuples), so the spec stays hashable.
FormatValue = Union[str, tuple[tuple[str, Any], ...]]

#: The setup keys each kind of game takes (``load_game(name, **setup)``).
KETHARMAD_SETUP = ("decks", "card_data", "format", "start_player", "params")
HARNESS_SETUP = ("seats", "params")


class SetupKeywords(TypedDict, total=False):
    """The setup keywords an entry point passes on to its game (``**setup``), the keys of
    :func:`load_game` for Kétharmad that are not the entry point's own arguments: written
    once here, checked once by the game, so no entry point re-declares them.

    ``card_data``: None for the packaged card file, or the path of a card-data TOML file.
    ``format``: the game format (docs/formats.md): None or ``"ffa"``, ``"quick"``,
    ``"coalition"``, ``"pairs"``, ``"diplomacy"``, another shipped format or one of the card
    data, a user format as a dict (``{"name": "mine", "base": "coalition", "support": 25}``)
    or the path of a TOML file with one ``[formats.NAME]`` table; it is the parameter
    ``rules.format``. ``start_player``: None = drawn per game from its seed; a seat index
    fixes the start seat of every game. ``seats``: the seat count of a game on the generic
    harness (in the game's range). The same keys may be set in ``game=load_game(...)``
    instead (a key set in both is a ValueError). Each entry point takes the keys it uses
    (:func:`take_setup`)."""

    card_data: CardDataSource
    format: Any
    start_player: Optional[int]
    seats: Optional[int]


def take_setup(call: str, setup: Mapping[str, Any], keys: Sequence[str]) -> tuple[Any, ...]:
    """The values of the setup keywords ``keys`` an entry point ``call`` takes through
    ``**setup`` (None when not given); any other keyword is a TypeError naming it, as
    Python's own for an unknown keyword."""
    unknown = [k for k in setup if k not in keys]
    if unknown:
        raise TypeError(
            f"{call}() got an unexpected keyword argument {unknown[0]!r} "
            f"(its setup keywords: {', '.join(keys)})"
        )
    return tuple(setup.get(k) for k in keys)


_KETHARMAD = "ketharmad"


@functools.lru_cache(maxsize=1)
def _table() -> tuple[dict[str, Any], ...]:
    """The Rust game table, read once per process."""
    return tuple(_core.game_table())


def game_names() -> tuple[str, ...]:
    """The names of every game the package plays, in the core's order."""
    return tuple(g["name"] for g in _table())


def _row(name: object) -> dict[str, Any]:
    """The cached game-table row of ``name`` (not to be changed); ValueError listing the known games."""
    for g in _table():
        if g["name"] == name:
            return g
    raise ValueError(f"unknown game {name!r} (known: {', '.join(game_names())})")


def game_info(name: object) -> dict[str, Any]:
    """The game-table row of ``name`` (a deep copy); ValueError listing the known games."""
    return copy.deepcopy(_row(name))


def _freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), _freeze(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


@dataclass(frozen=True)
class GameSpec:
    """One game and its setup, checked once by :func:`load_game` (frozen, hashable,
    picklable: a key for caches and a value to send to worker processes).

    Fields hold what was given (None: the default of the call it is passed to):

    * ``name``: the game (a row of :func:`ketharmad.games`);
    * ``seats``: the seat count of a harness game (None: the game's smallest); a Kétharmad
      game has one seat per deck (:attr:`n_seats`);
    * ``decks``, ``card_data``, ``format``, ``start_player``: Kétharmad's setup, as
      :func:`ketharmad.simulate` takes it (decks as the deck strings the core reads);
    * ``param_items``: the parameter overrides as sorted ``(name, value)`` pairs
      (:attr:`params` gives them as a new dict).
    """

    name: str
    seats: Optional[int] = None
    decks: Optional[tuple[str, ...]] = None
    card_data: Optional[str] = None
    format: Optional[FormatValue] = None
    start_player: Optional[int] = None
    param_items: tuple[tuple[str, ParamValue], ...] = ()

    # -- the game-table row ------------------------------------------------------------
    @property
    def info(self) -> dict[str, Any]:
        """The game's row of the Rust game table (a copy): name, sides, min/max seats,
        agents, action space, observation length and the parameter list."""
        return game_info(self.name)

    @property
    def is_ketharmad(self) -> bool:
        """True for Kétharmad (its fast batch, card records, formats), False for the games on
        the generic harness. The one place a name is compared with ``"ketharmad"``."""
        return self.name == _KETHARMAD

    @property
    def sides(self) -> tuple[str, ...]:
        """The side names of an asymmetric game (Schotten Totten 2: attacker, defender);
        Kétharmad's factions; empty for Osztrakon."""
        return tuple(_row(self.name)["sides"])

    @property
    def min_seats(self) -> int:
        return int(_row(self.name)["min_seats"])

    @property
    def max_seats(self) -> int:
        return int(_row(self.name)["max_seats"])

    @property
    def agents(self) -> tuple[str, ...]:
        """The game's bot names."""
        return tuple(_row(self.name)["agents"])

    @property
    def n_seats(self) -> int:
        """The seats a game of this spec has: ``seats`` (harness) or one per deck
        (Kétharmad), else the default (the game's smallest count; Kétharmad: 2 decks)."""
        if self.seats is not None:
            return self.seats
        if self.decks is not None:
            return len(self.decks)
        if self.is_ketharmad and self.format is not None:  # the format's smallest table
            text, run_params = apply_format(
                load_card_data(self.card_data), check_params(self.params), self.get("format")
            )
            return format_info(text, run_params).seats_min
        return 2 if self.is_ketharmad else self.min_seats

    @property
    def params(self) -> dict[str, ParamValue]:
        """The parameter overrides as a new dict."""
        return dict(self.param_items)

    @property
    def setup(self) -> dict[str, Any]:
        """The setup that was given, as keywords of the entry points (a new dict; a user
        format as a dict, decks as a list): ``load_game(spec.name, **spec.setup) == spec``."""
        out: dict[str, Any] = {}
        for key in ("seats", "decks", "card_data", "format", "start_player"):
            v = getattr(self, key)
            if v is None:
                continue
            if key == "decks":
                v = list(v)
            elif key == "format" and isinstance(v, tuple):
                v = {k: list(x) if isinstance(x, tuple) else x for k, x in v}
            out[key] = v
        if self.param_items:
            out["params"] = self.params
        return out

    def get(self, key: str, default: Any = None) -> Any:
        """The setup value ``key`` (as :attr:`setup` gives it), or ``default`` when not given."""
        return self.setup.get(key, default)

    def seat_bots(self, bots: Any) -> Any:
        """``bots`` for a game of this spec: one spec string becomes one per seat of
        :attr:`n_seats` (a harness game given ``seats``); a list must have that many
        entries. Anything else is passed on as it is (the entry point checks it)."""
        if self.is_ketharmad or self.seats is None:
            return bots
        if isinstance(bots, str):
            return [bots] * self.seats
        if isinstance(bots, (list, tuple)) and len(bots) != self.seats:
            raise ValueError(
                f"{self.name}: got {len(bots)} bot specs for a GameSpec of {self.seats} seats"
            )
        return bots

    def __repr__(self) -> str:
        parts = [repr(self.name)]
        parts += [f"{k}={v!r}" for k, v in self.setup.items()]
        return f"GameSpec({', '.join(parts)})"


def _check_seats(info: Mapping[str, Any], seats: object) -> int:
    lo, hi = int(info["min_seats"]), int(info["max_seats"])
    if isinstance(seats, bool) or not isinstance(seats, int) or not lo <= seats <= hi:
        raise ValueError(f"{info['name']} takes {lo} to {hi} seats, got seats={seats!r}")
    return int(seats)


def _harness_params(name: str, params: object) -> dict[str, ParamValue]:
    if params is None:
        return {}
    if not isinstance(params, Mapping):
        raise ValueError(
            f"params must be None or a dict of {{name: value}} overrides, got {type(params).__name__}"
        )
    out: dict[str, ParamValue] = {}
    for k, v in params.items():
        if not isinstance(k, str):
            raise ValueError(f"parameter names must be strings, got {k!r}")
        if not isinstance(v, (bool, int, float, str)):
            raise ValueError(
                f"parameter {k!r}: value must be an int, float, bool or str, got {type(v).__name__} {v!r}"
            )
        out[k] = v
    return out


def _load_ketharmad(setup: dict[str, Any]) -> GameSpec:
    """Check Kétharmad's setup with the validators :func:`ketharmad.simulate` uses, and one
    probe validation by the core (decks against the card set and the format, parameter
    names, kinds and ranges)."""
    decks = check_decks(setup["decks"]) if setup.get("decks") is not None else None
    card_data = setup.get("card_data")
    if card_data is not None and not isinstance(card_data, (str, os.PathLike)):
        raise ValueError(
            f"card_data must be None or a path to a TOML file, got {type(card_data).__name__}"
        )
    text = load_card_data(card_data)
    params = check_params(setup.get("params"))
    fmt = setup.get("format")
    text, run_params = apply_format(text, params, fmt)
    if decks is None:  # the format's smallest table of factions, only to check the rest
        n = format_info(text, run_params).seats_min
        probe = _probe_decks(n)
        if n > len(_core.FACTIONS):
            run_params = {**run_params, "rules.allow_mirror": True}
    else:
        probe = decks
    _core.validate(text, probe, ["random"] * len(probe), run_params)
    start = setup.get("start_player")
    if start is not None:
        start = check_int(
            "start_player", start, 0, (len(decks) if decks is not None else MAX_SEATS) - 1
        )
    if isinstance(fmt, os.PathLike):
        fmt = os.fspath(fmt)
    return GameSpec(
        name=_KETHARMAD, decks=tuple(decks) if decks is not None else None,
        card_data=os.fspath(card_data) if card_data is not None else None,
        format=_freeze(fmt) if isinstance(fmt, Mapping) else fmt, start_player=start,
        param_items=tuple(sorted(params.items())),
    )  # fmt: skip


def load_game(name: str = _KETHARMAD, **setup: Any) -> GameSpec:
    """The :class:`GameSpec` of game ``name`` (``"ketharmad"``, ``"schotten_totten_2"``,
    ``"osztrakon"``: :func:`ketharmad.games`) with its setup, checked once here.

    Kétharmad takes ``decks`` (one per seat), ``card_data``, ``format``, ``start_player`` and
    ``params``, as :func:`ketharmad.simulate` does; the games on the generic harness take
    ``seats`` (in the game's range) and ``params`` (by name, kind and range from
    :func:`ketharmad.parameters`; Schotten Totten 2's wall table is its ``wall.*``
    parameters). An unknown game, an unknown setup key (the message lists the keys the game
    takes) or a bad value is a ValueError. A setup value of None is "not given"."""
    if not isinstance(name, str):
        raise ValueError(f"game must be a game name such as 'schotten_totten_2', got {name!r}")
    info = _row(name)
    setup = {k: v for k, v in setup.items() if v is not None}
    takes = KETHARMAD_SETUP if name == _KETHARMAD else HARNESS_SETUP
    unknown = [k for k in setup if k not in takes]
    if unknown:
        raise ValueError(
            f"load_game({name!r}): unknown setup key{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}; "
            f"{name} takes {', '.join(takes)}"
        )
    if name == _KETHARMAD:
        return _load_ketharmad(setup)
    params = _harness_params(name, setup.get("params"))
    seats = _check_seats(info, setup["seats"]) if "seats" in setup else None
    # one game built by the core checks the parameters (name, kind, range) and the seats
    _core.HarnessGame(name, info["min_seats"] if seats is None else seats, 0, 0, params or None)
    return GameSpec(name=name, seats=seats, param_items=tuple(sorted(params.items())))


def resolve(game: Union[str, GameSpec], **given: Any) -> GameSpec:
    """One :class:`GameSpec` from an entry point's ``game=`` (a name or a spec) and its
    explicit setup keywords (None: not given).

    A name: :func:`load_game` with the given setup. A spec: the given ``params`` merge over
    the spec's (the explicit value wins); any other key given both in the spec and here is a
    ValueError naming it. The merged spec is not checked again here: the entry point checks
    the explicit values as it always does."""
    given = {k: v for k, v in given.items() if v is not None}
    if not isinstance(game, GameSpec):
        return load_game(game, **given)
    if not given:
        return game
    have = game.setup
    twice = [k for k in given if k != "params" and k in have]
    if twice:
        raise ValueError(
            f"{', '.join(twice)} given twice: in the GameSpec ({', '.join(f'{k}={have[k]!r}' for k in twice)}) "
            "and as a keyword; give each once"
        )
    fields: dict[str, Any] = {}
    for k, v in given.items():
        if k == "params":
            explicit = _explicit_params(game, v)
            fields["param_items"] = tuple(sorted({**game.params, **explicit}.items()))
        elif k == "decks" and isinstance(v, Sequence) and not isinstance(v, str):
            fields["decks"] = tuple(check_decks(v))  # deck strings, as load_game keeps them
        elif k == "format" and isinstance(v, Mapping):
            fields["format"] = _freeze(v)  # hashable, as load_game keeps a user format
        else:
            fields[k] = v
    return GameSpec(**{**{f: getattr(game, f) for f in ("name", "seats", "decks", "card_data", "format",
                                                        "start_player", "param_items")}, **fields})  # fmt: skip


def spec_of(game: Union[str, GameSpec]) -> GameSpec:
    """The :class:`GameSpec` an entry point dispatches on, without checking a setup: a spec
    as it is, a game name as its spec with no setup (nothing but the name is checked, so it
    costs a dict look-up: the entry point checks its own arguments as it always has). A name
    that is not a game, or anything else, is a ValueError (the known games listed)."""
    if isinstance(game, GameSpec):
        return game
    if not isinstance(game, str):
        raise ValueError(f"game must be a game name such as 'schotten_totten_2', got {game!r}")
    return _spec_named(game)


@functools.cache
def _spec_named(name: str) -> GameSpec:
    _row(
        name
    )  # unknown: ValueError listing the known games (not cached: lru_cache does not keep raises)
    return GameSpec(name=name)


def _explicit_params(game: GameSpec, params: Any) -> dict[str, Any]:
    if game.is_ketharmad:
        return dict(check_params(params))  # a params file path too
    return _harness_params(game.name, params)


def setup_of(
    game: GameSpec, call: Optional[str] = None, also: Sequence[str] = (), **given: Any
) -> tuple[GameSpec, *tuple[Any, ...]]:
    """For an entry point given a :class:`GameSpec`: ``(spec, value of each given key)``,
    the spec :func:`resolve` merges and, per keyword in the order given, the merged setup's
    value or, when neither the spec nor the call set it, the value passed (None).

    ``call``: the entry point's name; then a setup key of the spec that it neither takes
    (``given``) nor uses otherwise (``also``, e.g. ``"seats"`` for the bots of a seat) is a
    ValueError naming it (a read-only table such as ``cards`` passes None: the rest of the
    setup does not change it)."""
    spec = resolve(game, **given)
    setup = spec.setup
    if call is not None:
        unused = [k for k in setup if k not in given and k not in also]
        if unused:
            raise ValueError(f"{call}(game=GameSpec(...)) does not take the spec's {', '.join(unused)} "
                             f"(it takes {', '.join([*given, *also])})")  # fmt: skip
    return (spec, *[setup.get(k, given[k]) for k in given])
