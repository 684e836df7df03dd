"""What the lab features of the games on the generic harness (Schotten Totten 2,
Osztrakon) share: their argument checks (bot spec lists, seats, parameters, run options), the
seat rotation of a bot against a field, Wilson rates, and the provenance of their results (no
card data: the game's definition). Matchups (:mod:`ketharmad.lab.matchups`) and the tournament
(:mod:`ketharmad.lab.tournament`) are written once for every game and use these for the
harness games; docs/games.md.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any, Optional, Union

from .._version import __version__
from ..game.driver import driver_for
from ..game.harness import harness_info  # re-exported: lab.card_stats imports it from here
from ..game.spec import GameSpec, setup_of, take_setup
from ..results.files import _json
from ..results.lab import LabResult
from ..run.cluster import check_cluster_arg
from ..stats import wilson_interval

__all__ = ["check_bot_specs", "harness_info"]

ParamValue = Union[int, float, bool, str]


def check_bot_specs(bots: object, what: str = "bots") -> list[str]:
    """A non-empty list of distinct bot spec strings."""
    if isinstance(bots, (str, bytes, Mapping)) or not isinstance(bots, (list, tuple)) or not bots:
        raise ValueError(
            f"{what} must be a non-empty list of bot specs (strings such as 'greedy' or "
            f"'search:iterations=200'), got {bots!r}"
        )
    out = []
    for i, b in enumerate(bots):
        if not isinstance(b, str):
            raise ValueError(f"{what}[{i}] must be a bot spec string like 'greedy', got {b!r}")
        out.append(b)
    twice = sorted({b for b in out if out.count(b) > 1})
    if twice:
        raise ValueError(f"{what} must be different specs, got {', '.join(twice)} more than once")
    return out


def _check_whole(name: str, v: object, low: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < low:
        raise ValueError(f"{name} must be a whole number >= {low}, got {v!r}")
    return v


def _check_seats(info: dict[str, Any], seats: object) -> int:
    if seats is None:
        return int(info["min_seats"])
    k = _check_whole("seats", seats, 1)
    if not info["min_seats"] <= k <= info["max_seats"]:
        raise ValueError(
            f"{info['name']} takes {info['min_seats']} to {info['max_seats']} seats, got seats={k}"
        )
    return k


def _side_names(info: dict[str, Any], k: int) -> list[str]:
    sides = list(info["sides"])
    return sides if len(sides) == k else [f"seat{s}" for s in range(k)]


def _default_bots(info: dict[str, Any]) -> list[str]:
    """The game's built-in bots without the (slow) search bot."""
    return [b for b in info["agents"] if not b.startswith("search")]


def _params_of(params: Optional[Mapping[str, ParamValue]]) -> dict[str, ParamValue]:
    if params is None:
        return {}
    if not isinstance(params, Mapping):
        raise ValueError(f"params must be a dict {{name: value}}, got {type(params).__name__}")
    return dict(params)


def _definition_hash(info: dict[str, Any]) -> str:
    """16 hex digits identifying the game's definition (its name and parameter table), the
    ``run_card_data_hash`` of a harness game's run."""
    text = json.dumps(
        {"name": info["name"], "parameters": info["parameters"]}, sort_keys=True, default=str
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _rotation(n: int, k: int) -> list[tuple[int, int, int]]:
    """``(seat, first_game, games)`` of a rotation: ``n`` games split evenly over ``k``
    seats, seat ``s`` the ``s``-th share (as :func:`ketharmad.games.game_matchups`
    and :func:`ketharmad.lab.matchups.field_cells`)."""
    out = []
    for s in range(k):
        share = n // k + (1 if s < n % k else 0)
        if share:
            out.append((s, s * (n // k) + min(s, n % k), share))
    return out


def _run_args(chunk_size: object, executor: Any, cluster: Any) -> None:
    """ValueError for a bad ``chunk_size`` or ``executor``/``cluster`` pair, before any game."""
    if chunk_size is not None:
        _check_whole("chunk_size", chunk_size, 1)
    check_cluster_arg(cluster, executor)


def _wilson(w: int, n: int) -> tuple[Optional[float], Optional[float], Optional[float]]:
    if n == 0:
        return None, None, None
    lo, hi = wilson_interval(w, n)
    return w / n, lo, hi


class GameLabResult(LabResult):
    """A lab result of any game (the base of :class:`MatchupResult` and
    :class:`TournamentResult`): a harness game's (``_info``, its definition, set) takes its
    provenance from the game's definition (no card data: ``card_data`` is ``game <name>``,
    its hash that of the game's name and parameter table); Kétharmad's (``_info`` None) is
    :class:`LabResult`'s."""

    game: str = ""
    _info: Optional[dict[str, Any]] = None

    def provenance(self) -> dict[str, Any]:
        if self._info is None:
            return super().provenance()
        return {
            "kind": self.kind,
            "version": __version__,
            "game": self.game,
            "card_data": str(getattr(self, "card_data", "")),
            "card_data_hash": _definition_hash(self._info),
            "seed": getattr(self, "seed", None),
            "bots": getattr(self, "bots", None),
            "params": dict(getattr(self, "params", None) or {}),
            "decks": self._decks(),
            "games": self._games_played(),
            "plan": None,
        }

    def _provenance(self) -> dict[str, Any]:
        if self._info is None:
            return super()._provenance()
        p = self.provenance()
        return {
            "run_kind": p["kind"],
            "run_version": __version__,
            "run_card_data_hash": p["card_data_hash"],
            "run_params": _json(p["params"]),
            "run_bots": _json(p["bots"]),
            "run_decks": _json(p["decks"]),
            "run_seed": int(p["seed"] or 0),
            "run_games": int(p["games"]),
        }

    def _decks(self) -> Any:
        if self._info is None:
            return super()._decks()
        return {
            "game": self.game,
            "seats": getattr(self, "seats", None),
            "sides": getattr(self, "sides", None),
        }


def game_setup(call: str, game: Any, params: Any, setup: Mapping[str, Any]) -> tuple[Any, ...]:
    """An entry point's game and its setup: ``(driver, decks, card_data, format, params,
    seats)`` from ``**setup`` (``card_data``, ``format``, ``seats``; another key is a
    TypeError) and, when ``game`` is a :class:`GameSpec`, the spec's setup (its ``decks``:
    one deck pairing)."""
    card_data, format, seats = take_setup(call, setup, ("card_data", "format", "seats"))
    decks = None
    if isinstance(game, GameSpec):
        spec, decks, card_data, format, params, seats = setup_of(
            game, call, decks=decks, card_data=card_data, format=format, params=params, seats=seats)  # fmt: skip
        game = spec.name
    return driver_for(game), decks, card_data, format, params, seats
