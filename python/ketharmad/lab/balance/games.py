"""The harness games (Schotten Totten 2, Osztrakon) as a plug-in of the one staged balancer
(:func:`ketharmad.balance` with ``game=``, docs/balance.md "Harness games"): their targets, their
parameter space and their evaluator. The stages (screen, propose, descend, Optuna, race,
confirm, ablation, robustness, journal) are :mod:`ketharmad.lab.balance.search`'s, the same
code as for Kétharmad.

The targets are a dict or TOML file: ``[[metrics]]`` (``win_rate`` of a seat or side for a bot
lineup, ``seat_spread`` of the seats' win rates around 1/n, ``mean_turns``; the metric kinds
of :mod:`ketharmad.lab.balance.metrics`), each with a band as in the Kétharmad targets
(``target`` and ``tolerance`` or ``low``/``high``), and ``[change]`` (``allow`` patterns,
per-parameter ``ranges``, ``max_edits``, ``max_steps``).

A block is ``games_per_block`` games of every lineup of the metrics: block ``b`` is the games
``b * games_per_block ..`` of the batch with the run's seed (``simulate(game=...,
first_game=...)``), the same games for every point (common random numbers); the holdout
blocks start at :data:`~ketharmad.lab.balance.evaluate.HOLDOUT_BLOCK`.
"""

from __future__ import annotations

import fnmatch
import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np
import polars as pl

from ...game.data import read_toml_file
from ...game.harness import check_harness_bots as check_game_bots
from ...game.harness import check_harness_params as check_game_params
from ...game.harness import harness_info
from ...game.harness import harness_seat_names as sides_of
from ...run.harness import play_point
from .evaluate import BlockCache, Journal, _pack, _unpack, point_key
from .metrics import MetricStats
from .targets import Metric, ParamSpace, _band, _int, _num, _patterns, _table

__all__ = ["GameTargets", "GameMetric", "HarnessEvaluator", "load_game_targets", "harness_space",
           "DEFAULT_GAME_BUDGET", "DEFAULT_GAMES_PER_BLOCK"]  # fmt: skip

#: Games in total when no budget is given.
DEFAULT_GAME_BUDGET = 200_000
#: Games of one lineup per block.
DEFAULT_GAMES_PER_BLOCK = 100
DEFAULT_MAX_EDITS = 3
DEFAULT_MAX_STEPS = 5
#: Float parameters without a step: this many steps span the parameter's range.
FLOAT_STEPS = 10

_KINDS = ("win_rate", "seat_spread", "mean_turns")


# ---------------------------------------------------------------- targets


@dataclass(frozen=True)
class GameMetric(Metric):
    """A harness-game metric: ``kind`` ``win_rate`` (seat ``seat``'s win rate with the lineup
    ``bots``), ``seat_spread`` (the largest ``|win rate - 1/n|`` over the seats; band
    ``[0, high]``) or ``mean_turns``."""

    bots: tuple[str, ...] = ()
    seat: int = 0


@dataclass
class GameTargets:
    metrics: list[GameMetric]
    allow: list[str]
    ranges: dict[str, dict[str, float]]
    max_edits: int
    max_steps: int
    source: dict[str, Any]

    @property
    def max_edits_per_card(self) -> int:
        """Every parameter is its own "card": no limit below ``max_edits``."""
        return self.max_edits

    @property
    def lineups(self) -> list[tuple[str, ...]]:
        out: list[tuple[str, ...]] = []
        for m in self.metrics:
            if m.bots not in out:
                out.append(m.bots)
        return out


def _seat(where: str, value: Any, sides: list[str], seats: int) -> int:
    if isinstance(value, str) and value in sides:
        return sides.index(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        names = f" or one of {', '.join(sides)}" if sides else ""
        raise ValueError(f"{where}: seat must be a seat index 0..{seats - 1}{names}, got {value!r}")
    return int(value)


def load_game_targets(targets: Any, game: str, bots: Any) -> GameTargets:
    """Parse the harness targets (a dict, a TOML path or a :class:`GameTargets`)."""
    if isinstance(targets, GameTargets):
        return targets
    info = harness_info(game)
    if isinstance(targets, (str, os.PathLike)):
        path = os.fspath(targets)
        doc = read_toml_file(path, "targets file")
        try:
            return _parse(doc, game, info, bots)
        except ValueError as e:
            raise ValueError(f"targets file {path}: {e}") from None
    if targets is None:
        targets = {}
    return _parse(targets, game, info, bots)


def _parse(doc: Any, game: str, info: Mapping[str, Any], bots: Any) -> GameTargets:
    _table("targets", doc, {"game", "metrics", "change"})
    if "game" in doc and doc["game"] != game:
        raise ValueError(f"targets.game is {doc['game']!r} but the run is game={game!r}")
    raw = doc.get("metrics")
    if raw is None:  # the natural default: seat 0 (Attacker) at 50 % +- 2 / the seats even
        raw = [{"kind": "win_rate", "seat": 0, "target": 0.5, "tolerance": 0.02}] if info["max_seats"] == 2 else [
            {"kind": "seat_spread", "high": 0.02}]  # fmt: skip
    if isinstance(raw, Mapping):
        raw = [dict(v, name=k) if isinstance(v, Mapping) else v for k, v in raw.items()]
    if not isinstance(raw, list) or not raw:
        raise ValueError("targets.metrics must be a non-empty list of tables ([[metrics]])")
    metrics: list[GameMetric] = []
    for i, m in enumerate(raw):
        where = f"targets.metrics[{i}]"
        _table(where, m, {"name", "kind", "bots", "seat", "target", "tolerance", "low", "high"})
        kind = m.get("kind", "win_rate")
        if kind not in _KINDS:
            raise ValueError(f"{where}.kind: unknown kind {kind!r}; valid: {', '.join(_KINDS)}")
        lineup = m.get("bots", bots)
        try:
            lineup = tuple(check_game_bots(game, lineup))
        except ValueError as e:
            raise ValueError(f"{where}.bots: {e}") from None
        band = {k: m[k] for k in ("target", "tolerance", "low", "high") if k in m}
        if kind != "seat_spread" and "target" not in band and "low" in band and "high" in band:
            band["target"] = (_num(f"{where}.low", band["low"], 0, 1e6)
                              + _num(f"{where}.high", band["high"], 0, 1e6)) / 2  # the middle of the band  # fmt: skip
        seat = 0
        if kind == "win_rate":
            seat = _seat(f"{where}.seat", m.get("seat", 0), list(info["sides"] or []), len(lineup))
            if not band:
                band = {"target": 0.5 if len(lineup) == 2 else 1 / len(lineup), "tolerance": 0.02}
            tgt, lo, hi = _band(where, band, 1 / len(lineup), 0.02)
            label = f"{sides_of(info, len(lineup))[seat]} win rate"
        elif kind == "seat_spread":
            if "seat" in m:
                raise ValueError(f"{where}.seat: a seat_spread covers every seat")
            band = {"target": 0.0, "low": 0.0, **{k: v for k, v in band.items() if k != "target"}}
            if "high" not in band and "tolerance" not in band:
                band["high"] = 0.02
            tgt, lo, hi = _band(where, band, 0.0, 0.02)
            label = "seat spread around 1/n"
        else:
            if not band:
                raise ValueError(
                    f"{where}: mean_turns needs low and high (or target and tolerance)"
                )
            if "target" not in band:
                band["target"] = (_num(f"{where}.low", band.get("low", 0), 0, 1e6)
                                  + _num(f"{where}.high", band.get("high", 0), 0, 1e6)) / 2  # fmt: skip
            tgt, lo, hi = _band(where, band, 0.0, 1.0, high_limit=1e6)
            label = "mean turns"
        name = m.get("name") or f"{label} ({' '.join(lineup)})"
        if not isinstance(name, str):
            raise ValueError(f"{where}.name must be a string")
        if any(x.name == name for x in metrics):
            raise ValueError(f"{where}: the metric name {name!r} is given twice")
        metrics.append(GameMetric(name, kind, tgt, lo, hi, bots=lineup, seat=seat))
    ch = _table(
        "targets.change", doc.get("change", {}), {"allow", "ranges", "max_edits", "max_steps"}
    )
    allow = _patterns("targets.change.allow", ch["allow"]) if "allow" in ch else ["*"]
    ranges: dict[str, dict[str, float]] = {}
    raw_ranges = ch.get("ranges", {})
    if not isinstance(raw_ranges, Mapping):
        raise ValueError("targets.change.ranges must be a table of parameter tables")
    for name, cfg in raw_ranges.items():
        where = f"targets.change.ranges.{name}"
        cfg = _table(where, cfg, {"min", "max", "step"})
        ranges[name] = {k: _num(f"{where}.{k}", v, -1e18, 1e18) for k, v in cfg.items()}
    max_edits = _int("targets.change.max_edits", ch.get("max_edits", DEFAULT_MAX_EDITS), 1)
    max_steps = _int("targets.change.max_steps", ch.get("max_steps", DEFAULT_MAX_STEPS), 1)
    return GameTargets(metrics, allow, ranges, max_edits, max_steps, source=dict(doc))


def harness_space(
    tg: GameTargets, info: Mapping[str, Any], start: Mapping[str, Any]
) -> list[ParamSpace]:
    """The parameters the search may move: every int/float parameter an ``allow`` pattern
    matches (a bool or choice parameter named exactly is an error), with the registry's
    bounds narrowed by ``ranges`` and ``max_steps`` steps around the start."""
    params = {p["name"]: p for p in info["parameters"]}
    for name in tg.ranges:
        if name not in params:
            raise ValueError(f"targets.change.ranges: unknown parameter {name!r} of {info['name']}")
    for pat in tg.allow:
        if pat in params and params[pat]["kind"] not in ("int", "float"):
            raise ValueError(f"targets.change.allow: {pat!r} is a {params[pat]['kind']} parameter; "
                             "the search moves int and float parameters only")  # fmt: skip
        if not any(fnmatch.fnmatchcase(n, pat) for n in params):
            raise ValueError(
                f"targets.change.allow: {pat!r} matches no parameter of {info['name']}"
            )
    out = []
    for name, p in params.items():
        if p["kind"] not in ("int", "float") or not any(
            fnmatch.fnmatchcase(name, pat) for pat in tg.allow
        ):
            continue
        r = tg.ranges.get(name, {})
        low = max(float(p["min"]), r.get("min", float(p["min"])))
        high = min(float(p["max"]), r.get("max", float(p["max"])))
        if p["kind"] == "int":
            step: Any = int(r.get("step", 1)) or 1
        else:
            step = r.get("step", (high - low) / FLOAT_STEPS)
        if step <= 0:
            raise ValueError(f"targets.change.ranges.{name}.step must be positive")
        if low > high:
            raise ValueError(f"targets.change.ranges.{name}: min {low:g} is above max {high:g}")
        if low == high:
            continue
        if p["kind"] == "int":
            default: Any = int(start.get(name, p["default"]))
            lo_i, hi_i = math.ceil(low - 1e-9), math.floor(high + 1e-9)
            lo_i = max(lo_i, default - tg.max_steps * step)
            hi_i = min(hi_i, default + tg.max_steps * step)
            out.append(ParamSpace(name, name, "int", default, step, lo_i, hi_i))
        else:
            default = float(start.get(name, p["default"]))
            low = max(low, default - tg.max_steps * step)
            high = min(high, default + tg.max_steps * step)
            out.append(ParamSpace(name, name, "float", default, float(step), low, high, "float"))
    if not out:
        raise ValueError(
            "targets.change.allow names no int or float parameter the search could move"
        )
    return out


# ---------------------------------------------------------------- evaluation


class HarnessEvaluator(BlockCache):
    """Plays harness-game points on blocks (every lineup of the metrics, ``games_per_block``
    games each) and turns outcomes into per-game metric arrays: a 0/1 win indicator of a
    seat (``win_rate``), the games x seats win indicators (``seat_spread``), turns
    (``mean_turns``)."""

    def __init__(
        self,
        game: str,
        targets: GameTargets,
        seed: int,
        threads: Optional[int],
        games_per_block: int,
        base_params: Mapping[str, Any],
        journal: Optional[Journal] = None,
        executor: Any = None,
    ) -> None:
        self.game = game
        self.info = harness_info(game)
        self.targets = targets
        self.metrics: list[GameMetric] = targets.metrics
        self.lineups = targets.lineups
        self.seed = seed
        self.threads = threads
        self.n = games_per_block
        self.base_params = dict(base_params)
        self.executor = executor
        self.bots = [list(x) for x in self.lineups]
        self._valid: dict[str, bool] = {}
        BlockCache.__init__(self, journal)

    def games_per_block(self) -> int:
        return self.n * len(self.lineups)

    def lineup(self, i: int, bots: Any = None) -> list[str]:
        """Lineup ``i`` of the metrics, or with ``bots`` (one spec for every seat, or a list
        of one per seat) in place of its bots (the robustness profiles)."""
        base = list(self.lineups[i])
        if bots is None:
            return base
        if isinstance(bots, str):
            return [bots] * len(base)
        lineup = list(bots)
        if len(lineup) != len(base):
            raise ValueError(f"a second bot profile needs one bot per seat ({len(base)}), "
                             f"got {len(lineup)}")  # fmt: skip
        return lineup

    def validate(self, point: Mapping[str, Any], bots: Any = None) -> None:
        """Every lineup accepts the point and the bots (``ValueError`` naming them otherwise)."""
        for i, lineup in enumerate(self.lineups):
            check_game_params(self.game, len(lineup), {**self.base_params, **point}, "point")
            if bots is not None:
                check_game_bots(self.game, self.lineup(i, bots))

    def builds(self, name: str, value: Any) -> bool:
        return self.valid({name: value})

    def valid(self, point: Mapping[str, Any]) -> bool:
        """The game's rules accept the point with every lineup (their cross-checks, such as a
        hand the deck cannot deal, can refuse a combination of valid values)."""
        k = point_key(point)
        if k not in self._valid:
            try:
                self.validate(point)
                self._valid[k] = True
            except ValueError:
                self._valid[k] = False
        return self._valid[k]

    def outcomes(
        self, point: Mapping[str, Any], b0: int, b1: int, bots: Any = None
    ) -> dict[str, dict[str, np.ndarray]]:
        """Per lineup: ``won`` (games x seats, uint8) and ``turns`` of blocks ``b0 .. b1 - 1``."""
        key = json.dumps([bots, point_key(point), b0, b1, [list(x) for x in self.lineups]],
                         sort_keys=True)  # fmt: skip
        run = {"executor": self.executor} if self.executor is not None else None

        def play() -> dict[str, dict[str, np.ndarray]]:
            params = {**self.base_params, **point}
            out = {}
            for i in range(len(self.lineups)):
                o = play_point(self.game, self.lineup(i, bots), (b1 - b0) * self.n, self.seed,
                               self.threads, params, first_game=b0 * self.n, run=run)  # fmt: skip
                out[str(i)] = {"won": o.won.astype(np.uint8), "turns": o.turns.astype(np.float64)}
            return out

        return self.lookup(key, point, bots, b0, b1, play, _encode, _decode)

    def vectors(
        self, point: Mapping[str, Any], ranges: Sequence[tuple[int, int]], bots: Any = None
    ) -> dict[str, np.ndarray]:
        """Per metric, the per-game array over the block ranges, in a fixed game order."""
        parts = [self.outcomes(point, b0, b1, bots) for b0, b1 in ranges]
        cell = {
            str(i): {k: np.concatenate([p[str(i)][k] for p in parts]) for k in ("won", "turns")}
            for i in range(len(self.lineups))
        }
        out: dict[str, np.ndarray] = {}
        for m in self.metrics:
            c = cell[str(self.lineups.index(m.bots))]
            if m.kind == "win_rate":
                out[m.name] = c["won"][:, m.seat].astype(np.float64)
            elif m.kind == "seat_spread":
                out[m.name] = c["won"].astype(np.float64)
            else:
                out[m.name] = c["turns"]
        return out

    # ------------------------------------------------------------ the before/after tables

    def metric_columns(self, m: GameMetric) -> dict[str, Any]:
        seat = sides_of(self.info, len(m.bots))[m.seat] if m.kind == "win_rate" else None
        return {"bots": " ".join(m.bots), "seat": seat}

    def metric_extra(self, m: GameMetric, x: MetricStats) -> dict[str, Any]:
        return {"wins": int(round(x.value * x.n)) if m.kind == "win_rate" else None}

    def metric_schema(self) -> dict[str, Any]:
        return {"bots": pl.String, "seat": pl.String, "wins": pl.Int64}


def _encode(out: Mapping[str, Mapping[str, np.ndarray]]) -> dict[str, Any]:
    return {c: {"seats": int(v["won"].shape[1]), "w": _pack(v["won"]), "t": _pack(v["turns"])}
            for c, v in out.items()}  # fmt: skip


def _decode(cells: Mapping[str, Any]) -> dict[str, dict[str, np.ndarray]]:
    return {c: {"won": _unpack(v["w"], np.uint8).reshape(-1, v["seats"]),
                "turns": _unpack(v["t"], np.float64)} for c, v in cells.items()}  # fmt: skip
