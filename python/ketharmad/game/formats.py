"""The game format as every call that plays games takes it (docs/formats.md).

One code path for ``simulate``, ``play``, ``Game``, ``matchups``, ``card_stats``, ``sweep``,
``tournament`` and ``balance``: :func:`apply_format` turns ``format=`` (a name, a dict or the
path of a format TOML file) into the card-data text the games are played with (a user
format's ``[formats.NAME]`` table appended, so it reaches the core wherever the text goes:
the plan's cells and shards carry it to executors and Dask workers) and the parameter
overrides (``rules.format``). :func:`formats` asks the core which formats exist, their seat
ranges and scoring, and whether the engine plays them.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Union

from .. import _core
from .validate import split_format, with_format

__all__ = ["apply_format", "format_info", "FormatInfo"]

ParamValue = Union[int, bool, str]


def apply_format(
    text: str, params: Mapping[str, ParamValue], format: object
) -> tuple[str, dict[str, ParamValue]]:
    """``(card text, params)`` with ``format`` applied: a user format's ``[formats.NAME]``
    table appended to the card text and ``rules.format`` set in the parameters (nothing for
    ``None`` and ``"ffa"``). ``ValueError`` for a bad format argument or a ``rules.format``
    override that disagrees with it; the core checks the rest (known, played, seat count)."""
    _, extra = split_format(format)
    return text + extra, with_format(dict(params), format, 0)


@dataclass(frozen=True)
class FormatInfo:
    """What the lab needs to know about a format (from the core's parameter table, with the
    run's ``format.NAME.KEY`` overrides applied)."""

    name: str
    seats_min: int
    seats_max: int
    scoring: str
    pools: str
    #: The teams of a game of ``seats_min`` seats as the core seats them (each seat's
    #: ``allies`` in a probe game: ``((0, 2), (1, 3))`` in Coalition); ``()`` without teams
    #: or when the engine does not play the format.
    teams: tuple[tuple[int, ...], ...] = ()

    @property
    def team_pairs(self) -> bool:
        """A 2-against-2 format: four seats, partners opposite (E81)."""
        return self.seats_min == self.seats_max == 4 and self.teams == ((0, 2), (1, 3))

    def lead_seat(self, seat: int) -> int:
        """The seat the core's ``winner`` column names when ``seat``'s team wins: its lowest
        seat (``seat`` itself without teams)."""
        for t in self.teams:
            if seat in t:
                return min(t)
        return seat


def _param_rows(text: str) -> dict[str, dict[str, Any]]:
    table = _core.parameter_table(text)
    names = table["name"]
    out: dict[str, dict[str, Any]] = {}
    for i, name in enumerate(names):
        if name.startswith("format."):
            out[name] = {k: table[k][i] for k in table if k != "name"}
    return out


def _value(rows: dict[str, dict[str, Any]], params: Mapping[str, ParamValue], name: str) -> Any:
    row = rows[name]
    given = params.get(name)
    if row.get("kind") == "choice":
        choices = list(row.get("choices") or [])
        if isinstance(given, str):
            return given
        if isinstance(given, int) and 0 <= given < len(choices):
            return choices[given]
        return row.get("default_str")
    if given is not None and not isinstance(given, str):
        return int(given)
    return int(row["default"])


def format_info(text: str, params: Mapping[str, ParamValue]) -> FormatInfo:
    """The format ``params`` select (``rules.format``, default ``ffa``) in the card data
    ``text``; ``ValueError`` naming the known formats for an unknown one."""
    name = str(params.get("rules.format", "ffa"))
    rows = _param_rows(text)
    if f"format.{name}.seats_min" not in rows:
        known = sorted({n.split(".")[1] for n in rows})
        raise ValueError(f"unknown format {name!r}; known formats: {', '.join(known)}")
    v = lambda key: _value(rows, params, f"format.{name}.{key}")  # noqa: E731
    scoring, pools = str(v("scoring")), str(v("pools"))
    return FormatInfo(name, v("seats_min"), v("seats_max"), scoring, pools,
                      teams=_probe_teams(text, params, v("seats_min")))  # fmt: skip


def _probe_teams(
    text: str, params: Mapping[str, ParamValue], n: int
) -> tuple[tuple[int, ...], ...]:
    """The teams of an ``n``-seat game as the core seats them (from a probe game's
    observations); ``()`` when there are none or the core does not play the format."""
    p = dict(params)
    if n > len(_core.FACTIONS):
        p["rules.allow_mirror"] = True
    try:
        g = _core.Game(text, _probe_decks(n), 0, 0, p or None, None, False, False)
        allies = [tuple(sorted([s, *g.observation(s).get("allies", [])])) for s in range(n)]
    except (ValueError, TypeError):
        return ()
    teams = tuple(sorted(set(allies)))
    return teams if any(len(t) > 1 for t in teams) else ()


def _probe_decks(n: int) -> list[str]:
    f = list(_core.FACTIONS)
    return [f[i % len(f)] for i in range(n)]


def team_splits(sides: list[str]) -> list[tuple[tuple[str, str], tuple[str, str]]]:
    """Every way to pick two disjoint teams of two from ``sides`` (unordered: each pairing
    once, the team holding the earlier side first): 3 for four sides."""
    out = []
    for four in itertools.combinations(range(len(sides)), 4):
        a = four[0]
        for b in four[1:]:
            team_a = (sides[a], sides[b])
            rest = [sides[i] for i in four if i not in (a, b)]
            out.append((team_a, (rest[0], rest[1])))
    return out
