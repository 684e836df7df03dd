"""Checking and normalising user arguments before they cross into the Rust core.

Everything here raises ``ValueError`` with a message naming the offending argument. The core
validates again (parameter names and values, card data, bot options), so this layer only
checks shapes and types and gives friendlier messages for the common mistakes.
"""

from __future__ import annotations

import numbers
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, Optional, Union, overload

from .. import _core
from .agents import agent_label, is_agent
from .data import load_params_file, read_toml_file
from .decks import deck_string

if TYPE_CHECKING:
    from typing_extensions import TypeIs  # typing.TypeIs is Python 3.13

__all__ = [
    "BotSpec",
    "check_decks",
    "check_bots",
    "bot_label",
    "check_int",
    "check_flag",
    "check_threads",
    "check_params",
]

BotSpec = Union[str, Mapping[str, Any]]
#: A checked built-in bot spec, as the core takes it (a dict, not any mapping).
CoreBot = Union[str, dict[str, Any]]

MIN_SEATS = 2
#: Most seats any format has (war of the gods, V4); each format checks its own range in the
#: core ("the ffa format needs 2 to 4 decks, got 5").
MAX_SEATS = 9
_U64_MAX = 2**64 - 1
_I64_MAX = 2**63 - 1


def _is_int(value: object) -> TypeIs[numbers.Integral]:
    """True for Python and numpy integers, False for bools."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _is_bool(value: object) -> bool:
    """True for Python and numpy bools."""
    return isinstance(value, bool) or getattr(getattr(value, "dtype", None), "kind", None) == "b"


def check_flag(name: str, value: object) -> bool:
    """Return ``value`` as a bool; only True/False (or a numpy bool) are accepted."""
    if not _is_bool(value):
        raise ValueError(f"{name} must be True or False, got {type(value).__name__} {value!r}")
    return bool(value)


def check_decks(decks: object) -> list[str]:
    """Return ``decks`` as a list of 2-9 deck strings (:mod:`ketharmad.game.decks`): a faction
    name, a Mixed deck ``"a+b"``, a custom deck ``{"name": ..., "cards": {...}}`` or a deck
    file path per seat. The core checks each against the card set, and the number of decks
    against the format (2-4 in the free-for-all, 5-9 in war of the gods)."""
    if isinstance(decks, (str, bytes)) or not isinstance(decks, (list, tuple)):
        raise ValueError(
            f"decks must be a list of {MIN_SEATS}-{MAX_SEATS} decks (faction names, Mixed "
            f"decks 'a+b', custom decks), e.g. ['ner', 'tisza'], got {decks!r}"
        )
    if not MIN_SEATS <= len(decks) <= MAX_SEATS:
        raise ValueError(
            f"decks must name {MIN_SEATS}-{MAX_SEATS} decks (one per seat), got {len(decks)}"
        )
    factions = list(_core.FACTIONS)
    out = []
    for deck in decks:
        if (
            isinstance(deck, str)
            and not any(ch in deck for ch in "+[")
            and not deck.endswith(".toml")
            and deck not in factions
        ):
            raise ValueError(
                f"unknown faction {deck!r} in decks; valid factions: {', '.join(factions)} "
                "(or a Mixed deck 'a+b', a custom deck, a deck file: docs/decks.md)"
            )
        out.append(deck_string(deck))
    return out


@overload
def _check_bot_spec(spec: object, where: str, agents: Literal[False] = False) -> CoreBot: ...
@overload
def _check_bot_spec(
    spec: object, where: str, agents: bool
) -> Any: ...  # agents: also a Python agent
def _check_bot_spec(spec: object, where: str, agents: bool = False) -> Any:
    """A built-in bot spec checked (str or dict with a known ``kind``); with ``agents`` a
    Python agent (:mod:`ketharmad.game.agents`: a callable or an object with ``act``) is
    accepted as it is."""
    kinds = list(_core.BOT_KINDS)
    if agents and is_agent(spec):
        return spec
    if isinstance(spec, str):
        kind = spec
    elif isinstance(spec, Mapping):
        if not all(isinstance(k, str) for k in spec):
            raise ValueError(f"{where}: bot option names must be strings, got {dict(spec)!r}")
        if "kind" not in spec:
            raise ValueError(
                f"{where}: a bot given as a dict needs a 'kind' key, got {dict(spec)!r}"
            )
        kind = spec["kind"]
        spec = dict(spec)
    else:
        agent_hint = (
            " or a Python agent (a callable agent(observation, legal_actions, rng) or an object "
            "with act(observation, legal_actions))"
            if agents
            else ""
        )
        raise ValueError(
            f"{where}: a bot must be a str such as 'random' or a dict such as "
            f"{{'kind': 'random'}}{agent_hint}, got {type(spec).__name__}"
        )
    if kind not in kinds:
        raise ValueError(f"{where}: unknown bot kind {kind!r}; valid kinds: {', '.join(kinds)}")
    if isinstance(spec, dict):
        for knob, value in spec.items():
            if knob != "kind" and _is_bool(value):
                raise ValueError(
                    f"{where}: knob {knob!r} must be a number, got bool {value!r} "
                    "(see ketharmad.bots() for each knob's range)"
                )
    return spec


@overload
def check_bots(bots: object, n_seats: int, agents: Literal[False] = False) -> list[CoreBot]: ...
@overload
def check_bots(
    bots: object, n_seats: int, agents: bool
) -> list[Any]: ...  # agents: also Python agents
def check_bots(bots: object, n_seats: int, agents: bool = False) -> list[Any]:
    """Expand ``bots`` to one spec per seat.

    A single str or dict (or, with ``agents``, one Python agent) applies to every seat; a list
    or tuple must have exactly one spec per seat.
    """
    if isinstance(bots, (str, Mapping)) or (agents and is_agent(bots)):
        spec = _check_bot_spec(bots, "bots", agents)
        return [dict(spec) if isinstance(spec, dict) else spec for _ in range(n_seats)]
    if isinstance(bots, (list, tuple)):
        if len(bots) != n_seats:
            raise ValueError(
                f"bots must be one spec for all seats or a list with exactly one spec per seat "
                f"({n_seats}), got a list of {len(bots)}"
            )
        return [_check_bot_spec(b, f"bots[{i}]", agents) for i, b in enumerate(bots)]
    raise ValueError(
        f"bots must be a str, a dict or a list with one spec per seat, got {type(bots).__name__}"
    )


def bot_label(spec: BotSpec) -> str:
    """Short string form of a bot spec: ``"random"`` or ``"kind(option=value, ...)"``; a
    Python agent: ``"python:<name>"``."""
    if is_agent(spec):
        return agent_label(spec)
    if isinstance(spec, str):
        return spec
    options = {k: v for k, v in spec.items() if k != "kind"}
    if not options:
        return str(spec["kind"])
    inner = ", ".join(f"{k}={options[k]!r}" for k in sorted(options))
    return f"{spec['kind']}({inner})"


def check_int(name: str, value: object, minimum: int, maximum: int = _I64_MAX) -> int:
    """Return ``value`` as an int in ``[minimum, maximum]`` (bools are rejected)."""
    if not _is_int(value):
        raise ValueError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    value = int(value)
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    if value > maximum:
        raise ValueError(f"{name} must be <= {maximum}, got {value}")
    return value


def check_seed(seed: object) -> int:
    """Return ``seed`` as an int in the unsigned 64-bit range."""
    return check_int("seed", seed, 0, _U64_MAX)


def check_threads(threads: object) -> Optional[int]:
    """Return ``threads`` as None (all cores) or an int in 1..``_core.MAX_THREADS`` (1024)."""
    if threads is None:
        return None
    return check_int("threads", threads, 1, _core.MAX_THREADS)


def check_params(params: object) -> dict[str, Union[int, bool, str]]:
    """Return parameter overrides as a plain ``{str: int | bool | str}`` dict.

    Names and value ranges are checked by the core; here only the shape and the value types.
    A ``str`` or ``os.PathLike`` is the path of a params file (see
    :func:`ketharmad.game.data.load_params_file`): a TOML table ``name = value``.
    """
    if params is None:
        return {}
    if isinstance(params, (str, os.PathLike)):
        params = load_params_file(params)
    if not isinstance(params, Mapping):
        raise ValueError(
            "params must be None, a dict of {name: value} overrides or the path of a "
            "params TOML file, "
            f"got {type(params).__name__}"
        )
    out: dict[str, Union[int, bool, str]] = {}
    for name, value in params.items():
        if not isinstance(name, str):
            raise ValueError(f"parameter names must be strings, got {name!r}")
        if isinstance(value, (bool, str)):
            out[name] = value
        elif _is_bool(value):  # numpy bool
            out[name] = bool(value)
        elif _is_int(value):
            if not -(2**63) <= int(value) <= _I64_MAX:
                raise ValueError(f"parameter {name!r}: value {value} is out of range")
            out[name] = int(value)
        else:
            raise ValueError(
                f"parameter {name!r}: value must be an int, bool or str, "
                f"got {type(value).__name__} {value!r}"
            )
    return out


def _toml_value(v: object, where: str) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x, where) for x in v) + "]"
    raise ValueError(
        f"{where}: a format value must be an int, bool, str or list, got {type(v).__name__} {v!r}"
    )


def split_format(format: object) -> tuple[Optional[str], str]:
    """The format's name and the TOML text that defines it (docs/formats.md).

    ``None`` or a name (``"coalition"``, a format of the card data): the name and ``""``.
    A dict ``{"name": ..., "base": ..., key: value}`` or the path of a TOML file with one
    ``[formats.NAME]`` table: a user format, returned as the name and a ``[formats.NAME]``
    table to add to the card data (the core checks every key and value).
    """
    if format is None:
        return None, ""
    if isinstance(format, (str, os.PathLike)) and str(format).endswith(".toml"):
        table = read_toml_file(format, "format file")
        formats = table.get("formats")
        if not isinstance(formats, Mapping) or len(formats) != 1:
            raise ValueError(
                f"format file {os.fspath(format)!r} must hold exactly one [formats.NAME] table, "
                f"got {sorted(formats) if isinstance(formats, Mapping) else 'none'}"
            )
        ((name, body),) = formats.items()
        if not isinstance(body, Mapping):
            raise ValueError(f"format file {os.fspath(format)!r}: formats.{name} must be a table")
        format = {"name": name, **body}
    if isinstance(format, Mapping):
        name = format.get("name")
        if not isinstance(name, str) or not name:
            raise ValueError(f"a format given as a dict needs a 'name' string, got {name!r}")
        lines = [f"\n[formats.{name}]"]
        for key, value in format.items():
            if key == "name":
                continue
            if not isinstance(key, str) or not key.replace("_", "").isalnum():
                raise ValueError(f"format {name!r}: bad key {key!r}")
            lines.append(f"{key} = {_toml_value(value, f'format {name!r} key {key!r}')}")
        return name, "\n".join(lines) + "\n"
    if not isinstance(format, str):
        raise ValueError(
            "format must be a format name (e.g. 'ffa', 'coalition', 'circle'), a dict "
            f"defining one, or the path of a format TOML file, got {type(format).__name__} {format!r}"
        )
    return format, ""


def with_format(
    params: dict[str, Union[int, bool, str]], format: object, n_decks: int
) -> dict[str, Union[int, bool, str]]:
    """The parameter overrides with the game ``format`` set (``rules.format``).

    ``None`` leaves ``params`` as they are (the free-for-all unless they set
    ``rules.format``); ``"ffa"`` adds nothing, so its results keep the same ``params``.
    ValueError for a ``rules.format`` override that disagrees. The core checks the name
    (known formats), whether the engine plays it and the number of decks.
    """
    if format is None:
        return params
    name, _ = split_format(format)
    assert name is not None  # split_format names every format but None
    given = params.get("rules.format")
    if given is not None and given != name:
        raise ValueError(f"format={name!r} disagrees with params['rules.format'] = {given!r}")
    if name == "ffa":
        return params
    return {**params, "rules.format": name}


def check_start_player(start_player: object, n_seats: int) -> Optional[int]:
    """None (random start seat per game) or a seat index in ``0..n_seats-1``."""
    if start_player is None:
        return None
    return check_int("start_player", start_player, 0, n_seats - 1)


def check_chunk_size(chunk_size: object) -> Optional[int]:
    """None (one call) or a chunk size >= 1."""
    if chunk_size is None:
        return None
    return check_int("chunk_size", chunk_size, 1)
