"""Argument parsing shared by every command: ``--param``/``--params`` values, bot specs and
generic parameter values."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Optional, Union

from ..api import parameters
from ..game.data import load_params_file

PARAMS_FILE_HELP = (
    "params TOML file of overrides, `name = value` (or [card_id] / [rules] tables); "
    "a --param of the same name overrides the file's value"
)


def parse_param(text: str) -> tuple[str, Union[int, bool, str]]:
    """Parse ``name=value``: the value is an int if it parses as one, then ``true``/``false``
    (any case) as a bool, else the string itself (e.g. a cost like ``{1}{M}``)."""
    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep or not name:
        raise ValueError(f"--param expects name=value, got {text!r}")
    value = value.strip()
    try:
        return name, int(value)
    except ValueError:
        pass
    if value.lower() in ("true", "false"):
        return name, value.lower() == "true"
    return name, value


def _params(
    items: Optional[Sequence[str]],
    params_file: Optional[str] = None,
    card_data: Optional[str] = None,
) -> dict[str, Union[int, bool, str]]:
    """``--params FILE`` (a TOML table ``name = value``), then the ``--param name=value``
    overrides on top: a ``--param`` replaces the file's value of the same name."""
    out: dict[str, Union[int, bool, str]] = {}
    if params_file:
        out.update(_params_file(params_file, card_data))
    given: set[str] = set()
    for item in items or []:
        name, value = parse_param(item)
        if name in given:
            raise ValueError(f"parameter {name!r} given more than once")
        given.add(name)
        out[name] = value
    return out


def _params_file(path: str, card_data: Optional[str]) -> dict[str, Union[int, bool, str]]:
    """The overrides of a params file; a name the card data does not have is an error naming
    the file and the key (with similar names, as ``ketharmad params --match`` finds them)."""
    values = load_params_file(path)
    known = set(parameters(card_data)["name"].to_list())
    for name in values:
        if name not in known:
            import difflib

            similar = difflib.get_close_matches(name, sorted(known), n=3, cutoff=0.8)
            hint = f" (similar: {', '.join(similar)})" if similar else ""
            raise ValueError(f"params file {path}: unknown parameter {name!r}{hint}")
    return values


def _bots(items: Sequence[str]) -> Union[Any, list[Any]]:
    """``--bots random`` (all seats) or one per seat; a spec may be JSON: '{"kind": "random"}'."""
    specs = []
    for item in items:
        if item.lstrip().startswith("{"):
            try:
                specs.append(json.loads(item))
            except json.JSONDecodeError as e:
                raise ValueError(f"--bots: {item!r} is not valid JSON: {e}") from None
        else:
            specs.append(item)
    return specs[0] if len(specs) == 1 else specs


def _generic_value(text: str) -> Union[int, float, bool, str]:
    """A ``--param`` value of a harness game: int, float, true/false (any case), else a choice."""
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text
