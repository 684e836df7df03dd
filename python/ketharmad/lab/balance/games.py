"""``ketharmad.balance(game=...)`` for the games on the generic harness (Schotten Totten 2,
Osztrakon; issue 14): the fewest parameter edits that bring the targets into their bands.

The targets are a dict or TOML file (docs/balance.md, "Harness games"): ``[[metrics]]``
(``win_rate`` of a seat or side for a bot lineup, ``seat_spread`` of the seats' win rates
around 1/n, ``mean_turns``), each with a band as in the Kétharmad targets (``target`` and
``tolerance`` or ``low``/``high``), and ``[change]`` (``allow`` patterns, per-parameter
``ranges``, ``max_edits``, ``max_steps``).

Stages, on fixed game blocks of the run's seed (common random numbers: every point plays the
same games of a block):

1. **Search** — a deterministic beam of line searches on the search block (games
   ``0 .. games_per_block-1``): from the starting point, each allowed parameter is moved one
   step up and down and then on in the direction that lowers the loss (the worst metric's
   distance from its target in units of its half band) while it keeps falling (one step
   that does not lower it is forgiven: the noise of one block); the best
   value of each parameter is a one-edit candidate. When no one-edit candidate has every
   metric in band, the best few are extended by a second parameter the same way, and so on
   up to ``max_edits``.
2. **Race** — successive halving of the finalists on fresh, doubling blocks: a candidate is
   dropped when an interval (Bonferroni over candidates and metrics) lies outside a band,
   then the better half is kept (fewest edits first, then the loss).
3. **Confirm** — the starting point and the survivors on a holdout block no earlier stage
   saw (games from :data:`CONFIRM_FIRST` on): the recommendation is the first survivor
   (fewest edits, then the loss) whose simultaneous 95 % intervals lie inside every band.
   ``before``/``after`` are the numbers of that block, which
   ``simulate_game(game, bots, games=res.confirm_games, seed=res.seed,
   first_game=res.confirm_first_game, params=res.overrides)`` reproduces exactly.
"""

from __future__ import annotations

import fnmatch
import json
import math
import os
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import NormalDist
from typing import Any, Optional, Union

import polars as pl

from ...game.data import read_toml_file
from ...game.validate import check_flag, check_int, check_seed, check_threads
from ...results.lab import LabResult
from ...results.lab_report import md_table
from ...results.report import format_table
from ...run.cluster import check_cluster_arg, executor_for
from ...stats import wilson_interval
from ..game_sweep import (
    PointOutcomes,
    check_game_bots,
    check_game_params,
    harness_info,
    harness_parquet_provenance,
    harness_provenance,
    harness_provenance_md,
    play_point,
    sides_of,
)
from .targets import Metric, _band, _int, _num, _patterns, _table

__all__ = ["balance_game", "GameBalanceResult", "GameTargets", "GameMetric", "load_game_targets",
           "DEFAULT_GAME_BUDGET", "DEFAULT_GAMES_PER_BLOCK", "RACE_FIRST", "CONFIRM_FIRST"]  # fmt: skip

_N = NormalDist()
#: Games in total when no budget is given.
DEFAULT_GAME_BUDGET = 200_000
#: Games of one lineup per search block.
DEFAULT_GAMES_PER_BLOCK = 1000
DEFAULT_MAX_EDITS = 3
DEFAULT_MAX_STEPS = 5
#: Float parameters without a step: this many steps span the parameter's range.
FLOAT_STEPS = 10
BEAM_WIDTH = 3
#: Line search: steps in a row that may fail to lower the loss before a direction stops.
LINE_PATIENCE = 1
MAX_FINALISTS = 6
CONFIRM_CANDIDATES = 3
#: Share of the budget for the search and the race (the confirmation gets what is left).
_SHARE = {"search": 0.5, "race": 0.25}
#: First game index of the race blocks (round ``r`` starts at ``RACE_FIRST * (r + 1)``) and of
#: the holdout block: far from each other and from the search block, so no two stages share games.
RACE_FIRST = 1 << 32
CONFIRM_FIRST = 1 << 40

_KINDS = ("win_rate", "seat_spread", "mean_turns")


# ---------------------------------------------------------------- targets


@dataclass(frozen=True)
class GameMetric(Metric):
    """A harness-game metric: ``kind`` ``win_rate`` (seat ``seat``'s win rate with the lineup
    ``bots``), ``seat_spread`` (the largest ``|win rate - 1/n|`` over the seats; band
    ``[0, high]``) or ``mean_turns``."""

    bots: tuple[str, ...] = ()
    seat: int = 0


@dataclass(frozen=True)
class Range:
    """One parameter the search may move: its starting value, step and bounds."""

    name: str
    kind: str
    default: float
    step: float
    low: float
    high: float
    max_steps: int

    def value(self, k: int) -> Optional[Union[int, float]]:
        v = self.default + k * self.step
        if not (self.low - 1e-12 <= v <= self.high + 1e-12):
            return None
        return int(round(v)) if self.kind == "int" else float(round(v, 12))


@dataclass
class GameTargets:
    metrics: list[GameMetric]
    allow: list[str]
    ranges: dict[str, dict[str, float]]
    max_edits: int
    max_steps: int
    source: dict[str, Any]

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


def _space(tg: GameTargets, info: Mapping[str, Any], start: Mapping[str, Any]) -> list[Range]:
    """The parameters the search may move: every int/float parameter an ``allow`` pattern
    matches (a bool or choice parameter named exactly is an error), with the registry's
    bounds narrowed by ``ranges``."""
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
        default = float(start.get(name, p["default"]))
        if p["kind"] == "int":
            step = float(int(r.get("step", 1)) or 1)
        else:
            step = r.get("step", (high - low) / FLOAT_STEPS)
        if step <= 0:
            raise ValueError(f"targets.change.ranges.{name}.step must be positive")
        if low > high:
            raise ValueError(f"targets.change.ranges.{name}: min {low:g} is above max {high:g}")
        if low == high:
            continue
        out.append(Range(name, p["kind"], default, step, low, high, tg.max_steps))
    if not out:
        raise ValueError(
            "targets.change.allow names no int or float parameter the search could move"
        )
    return out


# ---------------------------------------------------------------- evaluation


@dataclass
class Stat:
    value: float
    low: float
    high: float
    n: int
    wins: Optional[int] = None


def _metric_stat(m: GameMetric, o: PointOutcomes, z: float) -> Stat:
    if m.kind == "win_rate":
        w = int(o.won[:, m.seat].sum())
        lo, hi = wilson_interval(w, o.n, z)
        return Stat(w / o.n, lo, hi, o.n, w)
    if m.kind == "seat_spread":
        even = 1.0 / o.seats
        worst, lo_w, hi_w = 0.0, 0.0, 0.0
        for s in range(o.seats):
            w = int(o.won[:, s].sum())
            lo, hi = wilson_interval(w, o.n, z)
            worst = max(worst, abs(w / o.n - even))
            lo_w = max(lo_w, max(0.0, lo - even, even - hi))
            hi_w = max(hi_w, abs(lo - even), abs(hi - even))
        return Stat(worst, lo_w, hi_w, o.n)
    mean = float(o.turns.mean())
    sd = float(o.turns.std(ddof=1)) if o.n > 1 else 0.0
    h = z * sd / math.sqrt(o.n)
    return Stat(mean, mean - h, mean + h, o.n)


def _key(point: Mapping[str, Any]) -> str:
    return json.dumps(dict(point), sort_keys=True)


class _Evaluator:
    def __init__(self, game: str, tg: GameTargets, seed: int, threads: Optional[int], base: Mapping[str, Any],
                 budget: int, progress: bool, run: Optional[Mapping[str, Any]] = None) -> None:  # fmt: skip
        self.game, self.tg, self.seed, self.threads, self.base = game, tg, seed, threads, dict(base)
        self.run = run
        self.budget = budget
        self.used = 0
        self.cache: dict[tuple[str, tuple[str, ...], int, int], PointOutcomes] = {}
        self.history: list[dict[str, Any]] = []
        self.progress = progress
        self.t0 = time.perf_counter()
        self.invalid: dict[str, str] = {}
        self.seats = {lineup: len(lineup) for lineup in tg.lineups}

    def cost(self, games: int) -> int:
        return games * len(self.tg.lineups)

    def valid(self, point: Mapping[str, Any]) -> bool:
        k = _key(point)
        if k in self.invalid:
            return False
        for lineup in self.tg.lineups:
            try:
                check_game_params(self.game, len(lineup), {**self.base, **point}, "point")
            except ValueError as e:
                self.invalid[k] = str(e)
                return False
        return True

    def outcomes(
        self, point: Mapping[str, Any], first: int, games: int
    ) -> dict[tuple[str, ...], PointOutcomes]:
        out = {}
        for lineup in self.tg.lineups:
            key = (_key(point), lineup, first, games)
            if key not in self.cache:
                self.cache[key] = play_point(self.game, list(lineup), games, self.seed, self.threads,
                                             {**self.base, **point}, first_game=first, run=self.run)  # fmt: skip
                self.used += games
            out[lineup] = self.cache[key]
        if self.progress:
            print(f"\rbalance {self.game}: {self.used:,}/{self.budget:,} games, {len(self.history) + 1} evaluations, "
                  f"{time.perf_counter() - self.t0:.0f} s", end="", file=sys.stderr, flush=True)  # fmt: skip
        return out

    def stats(self, point: Mapping[str, Any], first: int, games: int, z: float = 1.959963984540054,
              stage: str = "") -> dict[str, Stat]:  # fmt: skip
        outs = self.outcomes(point, first, games)
        st = {m.name: _metric_stat(m, outs[m.bots], z) for m in self.tg.metrics}
        self.history.append({"stage": stage, "point": _key(point), "edits": len(point), "first_game": first,
                             "games": games, "loss": loss(self.tg.metrics, st),
                             **{m.name: st[m.name].value for m in self.tg.metrics}})  # fmt: skip
        return st


def loss(metrics: Sequence[GameMetric], st: Mapping[str, Stat]) -> float:
    """The worst metric's distance from its target in units of its half band (<= 1: in band)."""
    return max(m.scaled(st[m.name].value) for m in metrics)


def _violates(m: GameMetric, s: Stat) -> bool:
    return s.high < m.low or s.low > m.high


# ---------------------------------------------------------------- the search


def _line_search(ev: _Evaluator, parent: dict[str, Any], parent_loss: float, r: Range, n: int,
                 search_budget: int, cands: dict[str, tuple[dict[str, Any], float]]) -> bool:  # fmt: skip
    """Move ``r`` from ``parent`` while the loss falls; every evaluated point goes to
    ``cands``. False when the search budget ran out."""
    for direction in (1, -1):
        prev = parent_loss
        misses = 0  # one step that does not improve is forgiven (noise of one block)
        for k in range(1, r.max_steps + 1):
            v = r.value(direction * k)
            if v is None:
                break
            point = {**parent, r.name: v}
            if not ev.valid(point):
                break
            if ev.used + ev.cost(n) > search_budget and _key(point) not in cands:
                return False
            st = ev.stats(point, 0, n, stage="search")
            lo = loss(ev.tg.metrics, st)
            cands[_key(point)] = (point, lo)
            if lo >= prev:
                misses += 1
                if misses > LINE_PATIENCE:
                    break
                continue
            prev, misses = lo, 0
    return True


def _rank(edits: int, lo: float) -> tuple[Any, ...]:
    """In band first; among those the fewest edits, then the loss; out of band by the loss."""
    return (lo > 1.0, edits if lo <= 1.0 else 0, lo, edits)


def balance_game(
    targets: Any = None,
    *,
    game: str,
    bots: Any = None,
    seed: int = 0,
    budget: Optional[int] = None,
    threads: Optional[int] = None,
    params: Optional[Mapping[str, Any]] = None,
    games_per_block: Optional[int] = None,
    progress: bool = False,
    executor: Any = None,
    cluster: Any = None,
) -> GameBalanceResult:
    """The balancer of a harness game; see :func:`ketharmad.balance` (``game=``). ``executor``
    / ``cluster`` run every evaluation's games as :func:`ketharmad.games.simulate_game` runs them
    (a cluster opened once for the call); the result is the same as without."""
    check_cluster_arg(cluster, executor)
    with executor_for(executor, cluster) as ex:
        return _balance_game(targets, game=game, bots=bots, seed=seed, budget=budget, threads=threads, params=params,
                             games_per_block=games_per_block, progress=progress,
                             run={"executor": ex} if ex is not None else None)  # fmt: skip


def _balance_game(
    targets: Any,
    *,
    game: str,
    bots: Any,
    seed: int,
    budget: Optional[int],
    threads: Optional[int],
    params: Optional[Mapping[str, Any]],
    games_per_block: Optional[int],
    progress: bool,
    run: Optional[Mapping[str, Any]],
) -> GameBalanceResult:
    t0 = time.perf_counter()
    info = harness_info(game)
    tg = load_game_targets(targets, game, bots)
    seed_ = check_seed(seed)
    threads_ = check_threads(threads)
    budget_ = DEFAULT_GAME_BUDGET if budget is None else check_int("budget", budget, 1)
    n = (
        DEFAULT_GAMES_PER_BLOCK
        if games_per_block is None
        else check_int("games_per_block", games_per_block, 1)
    )
    progress = check_flag("progress", progress)
    base = check_game_params(game, max(len(x) for x in tg.lineups), params, "params")
    for lineup in tg.lineups:
        check_game_params(game, len(lineup), base, "params")
    space = _space(tg, info, {**{p["name"]: p["default"] for p in info["parameters"]}, **base})
    ev = _Evaluator(game, tg, seed_, threads_, base, budget_, progress, run)
    notes: list[str] = []

    # 1. search: beam of line searches on the search block (games 0 .. n-1)
    search_budget = int(budget_ * _SHARE["search"])
    base_st = ev.stats({}, 0, n, stage="search")
    cands: dict[str, tuple[dict[str, Any], float]] = {_key({}): ({}, loss(tg.metrics, base_st))}
    beam: list[tuple[dict[str, Any], float]] = [({}, cands[_key({})][1])]
    ran_out = False
    for level in range(1, tg.max_edits + 1):
        if cands[_key({})][1] <= 1.0:
            break  # the starting point is in band: nothing to edit
        for parent, parent_loss in beam:
            for r in space:
                if r.name in parent:
                    continue
                if not _line_search(ev, parent, parent_loss, r, n, search_budget, cands):
                    ran_out = True
                    break
            if ran_out:
                break
        level_pts = sorted((v for v in cands.values() if len(v[0]) == level), key=lambda v: v[1])
        if ran_out or not level_pts or level_pts[0][1] <= 1.0:
            break
        beam = [
            (p, lo)
            for p, lo in level_pts[:BEAM_WIDTH]
            if lo < cands[_key({k: p[k] for k in list(p)[:-1]})][1]
        ]
        if not beam:
            notes.append(
                f"no {level}-edit point improved on its parent; the search stopped at {level} edits"
            )
            break
    if ran_out:
        notes.append(
            f"the search used its share of the budget ({search_budget:,} games) before it finished"
        )

    # 2. race: successive halving on fresh, doubling blocks
    ranked = sorted(cands.values(), key=lambda v: _rank(len(v[0]), v[1]))
    start_loss = cands[_key({})][1]
    finalists = [p for p, lo in ranked if lo <= 1.0][:MAX_FINALISTS] or [
        p for p, lo in ranked if lo < start_loss or not p][:MAX_FINALISTS]  # fmt: skip
    race_budget = search_budget + int(budget_ * _SHARE["race"])
    survivors = list(finalists)
    rnd = 0
    race_rows = []
    while len(survivors) > 1:
        games_r = n * (2 ** (rnd + 1))
        if ev.used + ev.cost(games_r) * len(survivors) > max(race_budget, ev.used):
            break
        z = _N.inv_cdf(1 - 0.05 / (2 * len(survivors) * len(tg.metrics)))
        first = RACE_FIRST * (rnd + 1)
        scored, measured = [], []
        for p in survivors:
            st = ev.stats(p, first, games_r, z=z, stage=f"race {rnd}")
            dropped = any(_violates(m, st[m.name]) for m in tg.metrics)
            lo = loss(tg.metrics, st)
            race_rows.append(
                {"round": rnd, "point": _key(p), "games": games_r, "loss": lo, "dropped": dropped}
            )
            measured.append((p, lo))
            if not dropped:
                scored.append((p, lo))
        if not scored:  # every one shown out of band: keep the best to report
            scored = [min(measured, key=lambda v: v[1])]
            notes.append(f"race round {rnd}: every finalist was shown out of band")
        scored.sort(key=lambda v: _rank(len(v[0]), v[1]))
        survivors = [p for p, _ in scored[: max(1, math.ceil(len(scored) / 2))]]
        rnd += 1

    # 3. confirm: the start and the survivors (best first) on the holdout block
    to_confirm = survivors[:CONFIRM_CANDIDATES]
    left = budget_ - ev.used
    n_c = max(n, left // max(1, ev.cost(1) * (len(to_confirm) + 1)))
    zc = _N.inv_cdf(1 - 0.05 / (2 * len(tg.metrics)))  # simultaneous 95 % over the metrics
    before = ev.stats({}, CONFIRM_FIRST, n_c, z=zc, stage="confirm")
    best: Optional[dict[str, Any]] = None
    best_st: Optional[dict[str, Stat]] = None
    confirmed = False
    proposals = []
    for p in to_confirm:
        st = ev.stats(p, CONFIRM_FIRST, n_c, z=zc, stage="confirm") if p else before
        ok = all(m.low <= st[m.name].low and st[m.name].high <= m.high for m in tg.metrics)
        proposals.append(
            {"point": _key(p), "edits": len(p), "loss": loss(tg.metrics, st), "confirmed": ok}
        )
        if best is None or (ok and not confirmed):
            best, best_st, confirmed = p, st, ok
            if ok:
                break
    assert best is not None and best_st is not None
    if not confirmed:
        notes.append("no candidate's simultaneous 95 % intervals lie inside every band on the holdout games; "
                     "the best is shown unconfirmed (more budget or a wider band)")  # fmt: skip
    if ev.used > budget_:
        notes.append(f"used {ev.used:,} games, more than the budget of {budget_:,}: the search measures the "
                     f"start and confirmation needs {n:,} games a point at least")  # fmt: skip
    if progress:
        print(file=sys.stderr)
    defaults = {p["name"]: p["default"] for p in info["parameters"]}
    edits = pl.DataFrame(
        [
            {"parameter": k, "old": float(base.get(k, defaults[k])), "new": float(v)}
            for k, v in best.items()
        ],
        schema={"parameter": pl.String, "old": pl.Float64, "new": pl.Float64},
    )
    return GameBalanceResult(
        game=game, targets=tg, bots=[list(x) for x in tg.lineups], sides=list(info["sides"] or []), seed=seed_,
        params=base, budget=budget_, games_per_block=n, used=ev.used, best_point=dict(best),
        overrides={**base, **best}, best_confirmed=confirmed, edits=edits,
        before=_metric_table(tg.metrics, before, info), after=_metric_table(tg.metrics, best_st, info),
        proposals=pl.DataFrame(proposals), race=pl.DataFrame(race_rows) if race_rows else None,
        history=pl.DataFrame(ev.history), confirm_first_game=CONFIRM_FIRST, confirm_games=n_c,
        space=[r.name for r in space], notes=notes, elapsed=time.perf_counter() - t0,
        invalid=dict(ev.invalid),
    )  # fmt: skip


def _metric_table(
    metrics: Sequence[GameMetric], st: Mapping[str, Stat], info: Mapping[str, Any]
) -> pl.DataFrame:
    rows = []
    for m in metrics:
        s = st[m.name]
        rows.append({"metric": m.name, "kind": m.kind, "bots": " ".join(m.bots),
                     "seat": sides_of(info, len(m.bots))[m.seat] if m.kind == "win_rate" else None,
                     "target": m.target, "low": m.low, "high": m.high, "value": s.value, "ci_low": s.low,
                     "ci_high": s.high, "games": s.n, "wins": s.wins, "in_band": m.low <= s.value <= m.high,
                     "confirmed": m.low <= s.low and s.high <= m.high})  # fmt: skip
    return pl.DataFrame(rows, schema_overrides={"seat": pl.String, "wins": pl.Int64})


# ---------------------------------------------------------------- result


class GameBalanceResult(LabResult):
    """The result of :func:`ketharmad.balance` with a harness ``game``.

    Attributes:
        best_point: the recommended edits ``{parameter: value}`` (empty: the start is in band);
        overrides: ``params`` with the edits, ready for ``simulate_game(params=...)``;
        best_confirmed: whether its simultaneous 95 % holdout intervals lie inside every band;
        edits: one row per edit (``parameter, old, new``);
        before, after: one row per metric on the holdout block (``metric, kind, bots, seat,
            target, low, high, value, ci_low, ci_high, games, wins, in_band, confirmed``): the
            start and the recommendation;
        confirm_first_game, confirm_games: the holdout block (games of the batch ``seed``);
        proposals: the candidates confirmed (``point, edits, loss, confirmed``); race: the
            race rounds; history: every evaluation; space: the parameters searched;
        notes: what was cut short and why.
    """

    kind = "balance"
    # set by __init__ from balance_game's keywords (annotations only: no class attributes)
    game: str
    targets: GameTargets
    bots: list[list[str]]
    sides: list[str]
    seed: int
    params: dict[str, Any]
    budget: int
    games_per_block: int
    used: int
    best_point: dict[str, float]
    overrides: dict[str, Any]
    best_confirmed: bool
    edits: pl.DataFrame
    before: pl.DataFrame
    after: pl.DataFrame
    proposals: pl.DataFrame
    race: Optional[pl.DataFrame]
    history: pl.DataFrame
    confirm_first_game: int
    confirm_games: int
    space: list[str]
    notes: list[str]
    elapsed: float
    invalid: dict[str, Any]
    card_data: str

    def __init__(self, **kw: Any) -> None:
        self.__dict__.update(kw)
        self.card_data = self.game
        self._card_text = ""

    def _games_played(self) -> int:
        return int(self.used)

    def provenance(self) -> dict[str, Any]:
        return harness_provenance(self, self.kind)

    def _provenance(self) -> dict[str, Any]:
        return harness_parquet_provenance(self, self.kind)

    def tables(self) -> dict[str, pl.DataFrame]:
        out = {"game_balance_edits": self.edits, "game_balance_before": self.before, "game_balance_after": self.after,
               "game_balance_proposals": self.proposals, "game_balance_history": self.history}  # fmt: skip
        if self.race is not None:
            out["game_balance_race"] = self.race
        return out

    def text(self) -> str:
        return "\n".join(_text(self))

    def _markdown(self, folder: Optional[Path], plots: bool) -> list[str]:
        return _markdown(self, plots)


def _fmt(kind: str, x: Optional[float]) -> str:
    if x is None or x != x:
        return "-"
    return f"{x:.2f}" if kind == "mean_turns" else f"{100 * x:.1f}%"


def _compare_rows(res: GameBalanceResult) -> list[list[str]]:
    rows = []
    for b, a in zip(res.before.iter_rows(named=True), res.after.iter_rows(named=True), strict=True):
        k = b["kind"]
        rows.append([b["metric"], f"[{_fmt(k, b['low'])}, {_fmt(k, b['high'])}]",
                     f"{_fmt(k, b['value'])} [{_fmt(k, b['ci_low'])}, {_fmt(k, b['ci_high'])}]",
                     f"{_fmt(k, a['value'])} [{_fmt(k, a['ci_low'])}, {_fmt(k, a['ci_high'])}]",
                     "yes" if a["confirmed"] else ("in band" if a["in_band"] else "no")])  # fmt: skip
    return rows


_HEAD = ["metric", "band", "before (CI)", "after (CI)", "confirmed"]


def _edit_lines(res: GameBalanceResult) -> list[str]:
    if not res.best_point:
        return ["no edits: the starting point is the recommendation"]
    return [
        f"  {r['parameter']}: {r['old']:g} -> {r['new']:g}" for r in res.edits.iter_rows(named=True)
    ]


def _text(res: GameBalanceResult) -> list[str]:
    out = [f"balance of {res.game}: {len(res.best_point)} edit(s), "
           f"{'confirmed' if res.best_confirmed else 'NOT confirmed'} on {res.confirm_games:,} holdout games a "
           f"lineup (games {res.confirm_first_game}.. of seed {res.seed}); {res.used:,} games in all "
           f"(budget {res.budget:,}), {res.elapsed:.1f} s"]  # fmt: skip
    out += _edit_lines(res)
    out += [""] + format_table(_HEAD, _compare_rows(res), [False, False, True, True, False])
    out += [f"note: {n}" for n in res.notes]
    return out


def _markdown(res: GameBalanceResult, plots: bool) -> list[str]:
    out = [f"# Balance of {res.game}", ""]
    out += harness_provenance_md(res)
    out += [
        "",
        f"Searched parameters: {', '.join(f'`{n}`' for n in res.space)}.",
        "",
        "## Recommended edits",
        "",
    ]
    out += ["* " + line.strip() for line in _edit_lines(res)]
    out += ["", f"{'Confirmed' if res.best_confirmed else 'Not confirmed'}: simultaneous 95 % intervals on "
            f"{res.confirm_games:,} holdout games a lineup (games from {res.confirm_first_game} of seed {res.seed}).",
            "", md_table(_HEAD, _compare_rows(res), [False, False, True, True, False]), ""]  # fmt: skip
    if res.notes:
        out += ["## Notes", ""] + [f"* {n}" for n in res.notes] + [""]
    return out


# ---------------------------------------------------------------- command line
