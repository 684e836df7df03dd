"""``ketharmad.balance``: find the fewest parameter changes that bring every target metric
into its band, and show the evidence — one staged balancer for every game.

The stages work over three plug-ins: the game's parameter space (:class:`ParamSpace`: names,
steps, bounds, int or float), its evaluator (a point and a block range of common-seed games ->
one per-game array per metric: Kétharmad's :class:`~.evaluate.Evaluator`, the harness games'
:class:`~.games.HarnessEvaluator`) and the metric kinds (:mod:`.metrics`: how an array becomes
an estimate and a paired difference with a standard error).

Stages (docs/balance.md has the statistics of each):

1. **Screen** — one step up and one step down of every allowed parameter, each played on
   the same games as the baseline (common random numbers): each parameter's effect on every
   metric, as a paired difference with a standard error.
2. **Propose** — a beam search over the screened effects (additive model) for the smallest
   edit sets predicted to bring every metric inside its band.
2b. **Descend** — a measured greedy descent from the starting point: each round plays the
   current point and the moves the (re-fitted) effect model rates best on fresh games, and
   takes the best measured move; then drops edits that do not help (pruning).
3. **Search** — Optuna multi-objective (worst scaled deviation, number of edits, total
   change), ask-and-tell, seeded with the descent's path and the proposals, over the most effective parameters;
   skipped (and said so) when Optuna is not installed.
4. **Race** — successive halving of the finalists on more games; a candidate is dropped as
   soon as an interval shows a band violation (Holm-corrected over candidates and metrics).
5. **Confirm** — the survivors on holdout games no earlier stage saw: the recommended
   proposal is the one with the fewest edits (then the smallest total change) whose
   simultaneous 95 % intervals lie inside every band.
6. **Ablate** — each edit of the recommendation removed in turn (paired, on the holdout
   games); **robustness**: the same under a second bot profile, flagging sign changes.
"""

from __future__ import annotations

import dataclasses
import math
import os
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from statistics import NormalDist
from typing import Any, Optional, Union, Unpack

import numpy as np
import polars as pl

from ... import _core
from ...game.data import describe_card_data, load_card_data
from ...game.driver import driver_for
from ...game.formats import apply_format, format_info
from ...game.harness import check_harness_params as check_game_params
from ...game.harness import harness_info
from ...game.spec import GameSpec, SetupKeywords, setup_of, take_setup
from ...game.validate import (
    _check_bot_spec,
    bot_label,
    check_flag,
    check_int,
    check_params,
    check_seed,
    check_threads,
    split_format,
)
from ...results.export import render_card_text
from ...results.files import write_atomic
from ...results.frames import parameter_frame
from ...results.lab import LabResult, harness_parquet_provenance, harness_provenance
from ...run.cluster import check_cluster_arg, executor_for
from ...run.options import RunArg, RunOptions, fold_run_options
from ..cycles import cycle_notes
from ..html_views import balance_views
from .candidate import Candidate, shrunk, z_of
from .evaluate import (
    DESCENT_BLOCK,
    HOLDOUT_BLOCK,
    Evaluator,
    Journal,
    LadderEvaluator,
    card_text_hash,
    point_key,
)
from .games import (
    DEFAULT_GAME_BUDGET,
    DEFAULT_GAMES_PER_BLOCK,
    GameTargets,
    HarnessEvaluator,
    harness_space,
    load_game_targets,
)
from .metrics import MetricStats, moves_most, paired, stats
from .repair import card_of_param, off_factions, point_cost, repair, suspicions
from .report import balance_markdown, balance_text, write_balance_report
from .settings import (
    DEFAULT_GAMES_2P,
    DEFAULT_GAMES_4P,
    BalanceSettings,
    SettingsArg,
    fold_balance_settings,
)
from .targets import (
    DEFAULT_MARGIN,
    DEFAULT_SEARCH_STEPS,
    Ladder,
    Metric,
    ParamSpace,
    Targets,
    load_targets,
)

__all__ = ["balance", "BalanceResult", "write_card_data"]

_N = NormalDist()
#: Default budget in games when none is given.
DEFAULT_BUDGET = 3_000_000
#: Games per block: per 2-player cell (pair and start side) and per 4-player seating.
#: Share of the budget for each stage (what a stage does not use passes on).
_SHARE = {"screen": 0.20, "descend": 0.40, "search": 0.10, "race": 0.10, "confirm": 0.20}
#: The shares of the card-level repair (``settings.strategy="cards"``): screen, diagnosis of
#: the factions that are off, the repair's rounds, the race, confirmation.
_CARD_SHARE = {"screen": 0.20, "diagnose": 0.15, "repair": 0.40, "race": 0.05, "confirm": 0.20}
#: Factions the card-level repair diagnoses (the furthest off first).
DIAGNOSE_FACTIONS = 2
#: First block of the race's rounds: games no earlier stage played.
RACE_BLOCK = 1 << 22
#: The fewest games per pairing the repair's diagnosis is worth running with.
DIAGNOSE_MIN_GAMES = 200
#: The card-level repair measures the starting point again on fresh blocks from here, with
#: this share of the budget (from the diagnosis' share), before it chooses the factions to
#: diagnose and what to aim for: the screen's baseline can be a single block (a wide allow
#: list at 2,000,000 games: about 100 games a pair), too few to tell which faction is off.
BASELINE_BLOCK = 3 << 20
BASELINE_SHARE = 0.03


def minimum_budget(space: Sequence[ParamSpace], games_per_block: int) -> int:
    """The fewest games of a run that can confirm: the screen's start and one step each way
    of every parameter on one block, and two points on two holdout blocks."""
    moves = sum(int(p.contains(p.at(1))) + int(p.contains(p.at(-1))) for p in space)
    return (1 + moves + 2 * 2) * games_per_block


#: Finalists entering the race, parameters in the search space.
MAX_FINALISTS = 8
#: The search-bot sample of ``.robustness_search`` ("auto"): cheap search, every seat.
SEARCH_SAMPLE = {"kind": "search", "iterations": 10}
MAX_SEARCH_PARAMS = 12
MAX_TRIALS = 400
BEAM_WIDTH = 6
#: Descent: moves measured per round, the part of each band it aims for, blocks per point
#: (in units of the screen's blocks, doubled once when every metric is in band).
DESCENT_MOVES = 6
DESCENT_INNER = 0.5
DESCENT_BLOCKS = 8
DESCENT_REFINE = 2
DESCENT_RESCREENS = 1
#: Confirm: the first holdout's blocks a point (at most, in screen blocks) and the candidates
#: that go on to a second, fresh holdout (which gets the budget left).
CONFIRM_FIRST = 128
CONFIRM_SURVIVORS = 3

#: Test hook: called with the number of evaluations played so far after each one is journaled.
_after_evaluation: Optional[Callable[[int], None]] = None


# ---------------------------------------------------------------- points and candidates


def _edits(point: Mapping[str, int]) -> int:
    return len(point)


def _total_change(point: Mapping[str, int], space: Mapping[str, ParamSpace]) -> float:
    return float(sum(abs(v - space[n].default) / space[n].step for n, v in point.items()))


def _moved(x: Mapping[str, Any], p: ParamSpace, k: int, names: Sequence[str]) -> dict[str, Any]:
    """``x`` with parameter ``p`` at ``k`` steps from its default (0: the edit removed)."""
    y = dict(x)
    if k == 0:
        y.pop(p.name, None)
    else:
        y[p.name] = p.at(k)
    return {m: y[m] for m in names if m in y}


def _p_in_band(m: Metric, s: MetricStats) -> float:
    if not math.isfinite(s.se) or s.se <= 0:
        return 1.0 if m.low <= s.value <= m.high else 0.0
    return max(0.0, _N.cdf((m.high - s.value) / s.se) - _N.cdf((m.low - s.value) / s.se))


def _summary(metrics: Sequence[Metric], st: Mapping[str, MetricStats]) -> dict[str, float]:
    worst = max(m.excess(st[m.name].value) for m in metrics)
    scaled = max(m.scaled(st[m.name].value) for m in metrics)
    p_all = float(np.prod([_p_in_band(m, st[m.name]) for m in metrics]))
    return {"worst_deviation": worst, "loss": scaled, "p_all_in_band": p_all}


# ---------------------------------------------------------------- progress


class _Meter:
    """The balance progress line: stage, evaluations, games, the best worst deviation so far
    and the time left. The time left covers every stage: the stages played by the run's own
    bots are timed at their measured rate; the search-bot sample (``slow``: its planned games,
    set once the screen fixes its size) is timed at its own rate once it runs, and until then
    the line names it as not yet timed (its games cost far more than the run's own)."""

    #: Stages whose games are played by slower bots than the run's own (timed separately).
    SLOW = ("search sample",)

    def __init__(self, enabled: bool, budget: int, stream: Any = None) -> None:
        self.enabled = enabled
        self.budget = budget
        self.stream = stream if stream is not None else sys.stderr
        self.start = time.perf_counter()
        self._stage = ""
        self.best: Optional[float] = None
        self.games = 0
        self.evals = 0
        #: games of the evaluation in flight (the plan runner's shard callback), not yet in games
        self.inflight = 0
        #: planned games of the slow stages (0: none)
        self.slow = 0
        self._slow_games = 0
        self._slow_time = 0.0
        self._stage_t0 = self.start
        self._stage_g0 = 0
        self._last = -1e9
        try:
            self._tty = bool(self.stream.isatty())
        except (AttributeError, ValueError):
            self._tty = False

    @property
    def stage(self) -> str:
        return self._stage

    @stage.setter
    def stage(self, name: str) -> None:
        if name == self._stage:
            return
        now = time.perf_counter()
        if self._stage in self.SLOW:  # close the slow stage's account
            self._slow_games += self.games - self._stage_g0
            self._slow_time += now - self._stage_t0
        self._stage, self._stage_t0, self._stage_g0 = name, now, self.games
        self.inflight = 0

    def tick(self, games: int) -> None:
        """A shard of the evaluation in flight finished (``games`` more games)."""
        self.inflight += games
        self.update(self.games, self.evals)

    def left(self, now: float) -> str:
        """The time left, over every stage (class doc)."""
        games = self.games + self.inflight
        slow_now = self._stage in self.SLOW
        slow_done = self._slow_games + (games - self._stage_g0 if slow_now else 0)
        slow_time = self._slow_time + (now - self._stage_t0 if slow_now else 0.0)
        fast_games = games - slow_done
        fast_time = (now - self.start) - slow_time
        fast_left = max(0, self.budget - max(self.slow, slow_done) - fast_games)
        if fast_games <= 0 or fast_time <= 0:
            return "-"
        secs = fast_left * fast_time / fast_games
        slow_left = max(0, self.slow - slow_done)
        if slow_left and slow_done > 0 and slow_time > 0:
            secs += slow_left * slow_time / slow_done
        elif slow_left:
            return f"~{secs:.0f} s left + the search-bot sample ({slow_left:,} games, timed when it starts)"
        return f"~{secs:.0f} s left"

    def update(self, games: int, evals: int, force: bool = False) -> None:
        if games != self.games:
            self.inflight = 0
        self.games, self.evals = games, evals
        if not self.enabled:
            return
        now = time.perf_counter()
        if not force and now - self._last < (0.2 if self._tty else 5.0):
            return
        self._last = now
        left = self.left(now) if self.budget > self.games + self.inflight else "-"
        best = "-" if self.best is None else f"{100 * self.best:.1f} pts"
        line = (
            f"balance: {self._stage:<8} {self.evals:,} evaluations  "
            f"{self.games + self.inflight:,}/{self.budget:,} games  best worst-deviation {best}  {left}"
        )
        self.stream.write(("\r" + line) if self._tty else (line + "\n"))
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.update(self.games, self.evals, force=True)
            if self._tty:
                self.stream.write("\n")
            self.stream.flush()


# ---------------------------------------------------------------- the run


class _Run:
    def __init__(
        self,
        ev: Any,
        targets: Any,
        space: list[ParamSpace],
        budget: int,
        meter: _Meter,
        shares: Optional[Mapping[str, float]] = None,
    ) -> None:
        self.ev = ev
        self.shares = dict(_SHARE if shares is None else shares)
        self.targets = targets
        self.metrics = targets.metrics
        self.space = {p.name: p for p in space}
        self.order = [p.name for p in space]
        self.budget = budget
        self.meter = meter
        self.used = 0  # logical games (journal hits count: a resumed run takes the same path)
        self.seen: set[str] = set()
        self.history: list[dict[str, Any]] = []
        self.notes: list[str] = []
        self.G = ev.games_per_block()
        self.widest: dict[
            str, tuple[int, list[tuple[int, int]]]
        ] = {}  # point -> most games measured
        self.screen_blocks = 1
        #: what the card-level repair, the race and the confirmation aim for: per metric the
        #: part of its band to end inside (set from the screen's baseline: ``aim_of``)
        self.aim: Any = 1.0 - getattr(targets, "margin", DEFAULT_MARGIN)

    # every evaluation goes through here: budget accounting, history, hook
    def vectors(
        self,
        point: Mapping[str, int],
        ranges: Sequence[tuple[int, int]],
        stage: str,
        bots: Any = None,
    ) -> dict[str, np.ndarray]:
        for b0, b1 in ranges:
            key = point_key({"b": [b0, b1], "p": point, "bots": bots})
            if key in self.seen:
                continue
            self.seen.add(key)
            before = self.ev.evaluations
            self.ev.outcomes(point, b0, b1, bots)
            self.used += (b1 - b0) * self.G
            self.meter.update(self.used, len(self.seen))
            if self.ev.evaluations > before and _after_evaluation is not None:
                _after_evaluation(self.ev.evaluations)
        vec = self.ev.vectors(point, ranges, bots)
        st = {m.name: stats(m, vec[m.name]) for m in self.metrics}
        games = sum(b1 - b0 for b0, b1 in ranges) * self.G
        if bots is None:
            pk = point_key(point)
            if games > self.widest.get(pk, (0, []))[0]:
                self.widest[pk] = (games, list(ranges))
        summ = _summary(self.metrics, st)
        self.history.append(
            {
                "stage": stage,
                "point": point_key(point),
                "bots": point_key({"b": bots}) if bots is not None else "",
                "edits": len(point),
                "blocks": ",".join(f"{a}-{b}" for a, b in ranges),
                "games": games,
                **{f"m:{k}": v.value for k, v in st.items()},
                **summ,
            }
        )
        if (
            stage != "screen"
            and point
            and (self.meter.best is None or summ["worst_deviation"] < self.meter.best)
        ):
            self.meter.best = summ["worst_deviation"]
        return vec

    def st(self, vec: Mapping[str, np.ndarray]) -> dict[str, MetricStats]:
        return {m.name: stats(m, vec[m.name]) for m in self.metrics}

    def upto(self, stage: str) -> int:
        """Games the run may have used by the end of ``stage``: the shares up to it."""
        upto = 0.0
        for name, share in self.shares.items():
            upto += share
            if name == stage:
                break
        return int(upto * self.budget)

    def left(self, stage: str) -> int:
        """Games this stage may still use: its share plus what earlier stages left."""
        return self.upto(stage) - self.used

    # ------------------------------------------------------------ screen

    def baseline(self, base_st: dict[str, MetricStats]) -> dict[str, MetricStats]:
        """The starting point on ``BASELINE_SHARE`` of the budget in fresh blocks when that
        is more than the screen played it on (else the screen's ``base_st``)."""
        nb = int(BASELINE_SHARE * self.budget) // max(1, self.G)
        if nb <= self.screen_blocks:
            return base_st
        self.meter.stage = "baseline"
        return self.st(self.vectors({}, [(BASELINE_BLOCK, BASELINE_BLOCK + nb)], "baseline"))

    def screen(
        self,
    ) -> tuple[int, dict[str, MetricStats], dict[tuple[str, int], dict[str, MetricStats]]]:
        """One step up and down of every parameter on the baseline's games (round 1), then
        the parameters that look most useful again on more games (round 2)."""
        self.meter.stage = "screen"
        moves = []
        for name in self.order:
            p = self.space[name]
            for d in (1, -1):
                v = p.at(d)
                if p.contains(v):
                    moves.append((name, d, v))
        n_points = 1 + len(moves)
        share = self.shares["screen"] * self.budget
        s = max(1, min(16, int(share / 2) // max(1, n_points * self.G)))
        self.screen_blocks = s
        rng = [(0, s)]
        base = self.vectors({}, rng, "screen")
        base_st = self.st(base)
        effects: dict[tuple[str, int], dict[str, MetricStats]] = {}
        for name, d, v in moves:
            vec = self.vectors({name: v}, rng, "screen")
            effects[(name, d)] = {
                m.name: paired(m, vec[m.name], base[m.name]) for m in self.metrics
            }
        # round 2: the most useful parameters (by the round-1 gain) on more games
        gain = self.gains(base_st, effects)
        top = sorted(self.order, key=lambda n: (-gain[n], self.order.index(n)))[:MAX_SEARCH_PARAMS]
        top_moves = [mv for mv in moves if mv[0] in top]
        s2 = int(share - self.used) // max(1, (1 + len(top_moves)) * self.G)
        s2 = min(s2, 8 * s)
        if top_moves and s2 >= 1:
            rng2 = [(0, s), (s, s + s2)]
            base2 = self.vectors({}, rng2, "screen")
            for name, d, v in top_moves:
                vec = self.vectors({name: v}, rng2, "screen")
                effects[(name, d)] = {
                    m.name: paired(m, vec[m.name], base2[m.name]) for m in self.metrics
                }
            base_st = self.st(base2)
        return s, base_st, effects

    def gains(
        self,
        base_st: Mapping[str, MetricStats],
        effects: Mapping[tuple[str, int], Mapping[str, MetricStats]],
    ) -> dict[str, float]:
        """Per parameter: how much one step (the better direction) is predicted to reduce the
        scaled deviations, with each effect shrunk by its noise (``e * max(0, 1 - (se/e)^2)``)."""
        gain = {}
        for name in self.order:
            best = 0.0
            for d in (1, -1):
                e = effects.get((name, d))
                if e is None:
                    continue
                g = 0.0
                for m in self.metrics:
                    b = base_st[m.name].value
                    g += max(0.0, m.scaled(b) - m.scaled(b + shrunk(e[m.name])))
                best = max(best, g)
            gain[name] = best
        return gain

    # ------------------------------------------------------------ propose

    def propose(
        self,
        base_st: Mapping[str, MetricStats],
        effects: Mapping[tuple[str, int], Mapping[str, MetricStats]],
    ) -> list[Candidate]:
        self.meter.stage = "propose"
        M = len(self.metrics)
        base = np.array([base_st[m.name].value for m in self.metrics])
        opts: list[tuple[str, int]] = []  # (name, steps)
        deltas = []
        for name in self.order:
            p = self.space[name]
            for k in range(-DEFAULT_SEARCH_STEPS, DEFAULT_SEARCH_STEPS + 1):
                if k == 0 or not p.contains(p.at(k)):
                    continue
                e = effects.get((name, 1 if k > 0 else -1))
                if e is None:
                    continue
                opts.append((name, k))
                deltas.append([abs(k) * shrunk(e[m.name]) for m in self.metrics])
        if not opts:
            return []
        D = np.array(deltas).reshape(len(opts), M)

        def score(pred: np.ndarray) -> np.ndarray:
            return self._score(pred, 0.6)  # aim inside the inner 60 % of each band

        K = self.targets.max_edits
        N = self.targets.max_edits_per_card
        beam: list[tuple[float, tuple[int, ...], np.ndarray]] = [(float(score(base)), (), base)]
        found: list[tuple[float, tuple[int, ...]]] = []
        stop_depth = None
        for depth in range(1, K + 1):
            nxt: dict[tuple[int, ...], tuple[float, np.ndarray]] = {}
            for _, state, pred in beam:
                used_names = {opts[i][0] for i in state}
                cards: dict[str, int] = {}
                for i in state:
                    card = self.space[opts[i][0]].card
                    cards[card] = cards.get(card, 0) + 1
                allowed = np.array(
                    [
                        o[0] not in used_names and cards.get(self.space[o[0]].card, 0) < N
                        for o in opts
                    ]
                )
                if not allowed.any():
                    continue
                preds = pred[None, :] + D
                sc = score(preds)
                steps = np.array([abs(o[1]) for o in opts], dtype=float)
                sc = sc + 1e-4 * steps + np.where(allowed, 0.0, np.inf)
                for i in np.argsort(sc, kind="stable")[: BEAM_WIDTH * 2]:
                    if not np.isfinite(sc[i]):
                        break
                    new = tuple(sorted(state + (int(i),)))
                    if new not in nxt:
                        nxt[new] = (float(sc[i]), preds[i])
            if not nxt:
                break
            ranked = sorted(nxt.items(), key=lambda kv: (kv[1][0], kv[0]))[:BEAM_WIDTH]
            beam = [(v[0], k, v[1]) for k, v in ranked]
            for sc_, state, _ in beam[:2]:
                found.append((sc_, state))
            if stop_depth is None and beam[0][0] < 1e-3:
                stop_depth = depth
            if stop_depth is not None and depth >= stop_depth + 1:
                break
        out: list[Candidate] = []
        seen: set[str] = set()
        for _, state in found:
            point = {opts[i][0]: self.space[opts[i][0]].at(opts[i][1]) for i in state}
            c = Candidate(point, "propose")
            if c.key not in seen:
                seen.add(c.key)
                out.append(c)
        return out[: 2 * MAX_FINALISTS]

    # ------------------------------------------------------------ descend

    def _score(self, values: np.ndarray, inner: Any) -> np.ndarray:
        """Sum over metrics of the squared excess over the inner ``inner`` part of each band
        (0 when every metric is inside it), for one or many predicted metric vectors;
        ``inner`` one number or one per metric (``aim_of``)."""
        return _excess(self.metrics, values, inner)

    def descend(
        self,
        base_st: Mapping[str, MetricStats],
        effects: Mapping[tuple[str, int], Mapping[str, MetricStats]],
    ) -> list[Candidate]:
        """Measured greedy descent. Each round plays the current point and the
        ``DESCENT_MOVES`` moves the effect model rates best on a fresh set of blocks (common
        random numbers within the round, new games every round, so the path is not fitted to
        one sample); the best measured move is taken when it lowers the measured score. Each
        measured move replaces the model's per-step effect of that parameter and direction,
        so the model is re-fitted where the run is and effects that change with the balance
        do not overshoot. An edited parameter may move again (no new edit). When every metric
        is in band, the games per round double (up to ``DESCENT_REFINE`` times). When no move
        helps two rounds running, every parameter is screened again from the current point
        (once), then, with every edit used, the least useful edits are dropped (twice at
        most). Ends when every metric is in the inner part of its band on the most games, no
        move helps, or the stage's budget is spent; then each edit is dropped in turn when
        the rest scores as well on fresh games (pruning)."""
        self.meter.stage = "descend"
        names = self.order
        eff: dict[tuple[str, int], np.ndarray] = {
            k: np.array([shrunk(v[m.name]) for m in self.metrics]) for k, v in effects.items()
        }
        limit = self.upto("descend")
        # blocks per point: DESCENT_BLOCKS screen blocks, fewer when the stage's share would
        # not pay for about 10 rounds of (1 + DESCENT_MOVES) points
        room = max(0, limit - self.used) // (10 * (1 + DESCENT_MOVES) * self.G)
        nb = max(1, min(DESCENT_BLOCKS * self.screen_blocks, room))
        K = self.targets.max_edits
        N = self.targets.max_edits_per_card
        inner = DESCENT_INNER
        cursor = DESCENT_BLOCK

        def fresh() -> list[tuple[int, int]]:
            nonlocal cursor
            r = [(cursor, cursor + nb)]
            cursor += nb
            return r

        def measure(point: Mapping[str, int], rng: list[tuple[int, int]]) -> np.ndarray:
            st = self.st(self.vectors(point, rng, "descend"))
            return np.array([st[m.name].value for m in self.metrics])

        def steps(name: str, point: Mapping[str, int]) -> int:
            p = self.space[name]
            return p.k_of(point.get(name, p.default))

        def per_point() -> int:
            return nb * self.G

        path: list[Candidate] = []

        def prune(x: dict[str, int], slack: float) -> dict[str, int]:
            """Drop each edit in turn (the model's least useful first) when the rest scores
            at most ``slack`` worse on fresh games."""

            def use(n: str) -> float:
                e = eff.get((n, 1 if steps(n, x) > 0 else -1))
                return (
                    float(self._score(vx - abs(steps(n, x)) * e, inner)) if e is not None else 0.0
                )

            for n in sorted(x, key=lambda n: (use(n), names.index(n))):
                if len(x) < 2 or self.used + 2 * per_point() > self.upto("search"):
                    break
                y = {m: v for m, v in x.items() if m != n}
                if not self.ev.valid(y):
                    continue  # the rest does not build without this edit
                rng = fresh()
                sy = float(self._score(measure(y, rng), inner))
                if sy <= float(self._score(measure(x, rng), inner)) + slack:
                    x = y
                    path.append(Candidate(dict(x), "descend"))
            return x

        def rescreen(x: dict[str, int]) -> bool:
            """One step each way of every parameter from ``x``, paired with ``x`` on fresh
            blocks (two screen blocks, or one when the stage's share is short); the
            measured effects replace the model's. False when the budget does not allow it."""
            nonlocal nb
            moves = []
            for n in names:
                p = self.space[n]
                k0 = steps(n, x)
                for d in (1, -1):
                    if p.contains(p.at(k0 + d)) and self.ev.valid(_moved(x, p, k0 + d, names)):
                        moves.append((n, d))
            keep = nb
            for blocks in (2 * self.screen_blocks, self.screen_blocks):
                if self.used + (1 + len(moves)) * blocks * self.G <= limit:
                    break
            else:
                return False
            nb = blocks
            rng = fresh()
            nb = keep
            base = self.vectors(x, rng, "descend")
            for n, d in moves:
                p = self.space[n]
                y = dict(x)
                v = p.at(steps(n, x) + d)
                if v == p.default:
                    y.pop(n, None)
                else:
                    y[n] = v
                y = {m: y[m] for m in names if m in y}
                vec = self.vectors(y, rng, "descend")
                eff[(n, d)] = np.array(
                    [shrunk(paired(m, vec[m.name], base[m.name])) for m in self.metrics]
                )
            return True

        x: dict[str, int] = {}
        vx = measure(x, [(0, self.screen_blocks)])
        refined = 0
        stale = 0
        pruned = 0
        rescreened = 0
        while self.used + (1 + DESCENT_MOVES) * per_point() <= limit:
            rng = fresh()
            vx = measure(x, rng)
            sx = float(self._score(vx, inner))
            if sx == 0 and refined >= DESCENT_REFINE:
                break  # in the inner part of every band on the most games: done
            if refined < DESCENT_REFINE and all(
                m.scaled(v) <= 1.0 for m, v in zip(self.metrics, vx, strict=True)
            ):
                refined += 1  # every metric in band: go on with twice the games (less noise)
                nb *= 2
                continue
            cards: dict[str, int] = {}
            for n in x:
                card = self.space[n].card
                cards[card] = cards.get(card, 0) + 1
            moves: list[tuple[float, str, int]] = []
            for n in names:
                p = self.space[n]
                k0 = steps(n, x)
                new_edit = n not in x
                if new_edit and (len(x) >= K or cards.get(p.card, 0) >= N):
                    continue
                best_n: Optional[tuple[float, str, int]] = None
                for k in range(p.k_floor(p.low), p.k_floor(p.high) + 1):
                    if k == k0:
                        continue
                    e = eff.get((n, 1 if k > k0 else -1))
                    if e is None or not self.ev.valid(_moved(x, p, k, names)):
                        continue
                    pred = vx + abs(k - k0) * e
                    # a new edit costs a little, each step a little less; a move back to the
                    # printed value removes an edit
                    sc = (
                        float(self._score(pred, inner))
                        + 0.01 * (new_edit and k != 0)
                        - 0.01 * (k == 0)
                        + 0.001 * abs(k)
                    )
                    if best_n is None or sc < best_n[0]:
                        best_n = (sc, n, k)
                if best_n is not None and best_n[0] < sx:
                    moves.append(best_n)
            moves.sort(key=lambda t: (t[0], names.index(t[1])))
            moves = moves[stale * DESCENT_MOVES : (stale + 1) * DESCENT_MOVES]
            if not moves:
                break
            tried = []
            for _, n, k in moves:
                p = self.space[n]
                y = dict(x)
                if k == 0:
                    y.pop(n, None)
                else:
                    y[n] = p.at(k)
                y = {m: y[m] for m in names if m in y}
                vy = measure(y, rng)
                k0 = steps(n, x)
                # the measured per-step effect of this move replaces the model's
                eff[(n, 1 if k > k0 else -1)] = (vy - vx) / abs(k - k0)
                tried.append((float(self._score(vy, inner)) + 0.01 * (len(y) - len(x)), n, y))
            tried.sort(key=lambda t: (t[0], names.index(t[1])))
            sc, _, y = tried[0]
            if sc < sx - 1e-9:
                x = y
                path.append(Candidate(dict(x), "descend"))
                stale = 0
            else:
                stale += 1  # next round: the model's next best moves
                if stale >= 2 and rescreened < DESCENT_RESCREENS:
                    # stuck: measure one step each way of every parameter again, here
                    # (the screen's effects were measured at the start and on few 4-player games)
                    rescreened += 1
                    if rescreen(x):
                        stale = 0
                        continue
                if stale >= 2:
                    # stuck with every edit used: drop the edits that help least (a little
                    # worse now, room for a better one), at most twice
                    if len(x) >= K and pruned < 2:
                        pruned += 1
                        n_before = len(x)
                        x = prune(x, 0.05 * sx + 0.02)
                        if len(x) < n_before:
                            stale = 0
                            continue
                    break
        # pruning: drop each edit that does not help (judged on twice the games)
        nb *= 2
        x = prune(x, 0.0)
        out: list[Candidate] = []
        seen: set[str] = set()
        for c in reversed(path):
            if c.key not in seen:
                seen.add(c.key)
                out.append(c)
        return out

    # ------------------------------------------------------------ search

    def search(
        self,
        proposals: list[Candidate],
        effects: Mapping[tuple[str, int], Mapping[str, MetricStats]],
        base_st: Mapping[str, MetricStats],
        seed: int,
    ) -> list[Candidate]:
        self.meter.stage = "search"
        rng = [(0, self.screen_blocks)]
        evaluated = []
        proposals = [c for c in proposals if self.ev.valid(c.point)]
        for c in proposals:  # the proposals are measured whether or not Optuna runs
            self.vectors(c.point, rng, "propose")
            evaluated.append(c)
        try:
            import optuna
        except ImportError:
            self.notes.append(
                "search skipped: Optuna is not installed (pip install 'ketharmad[balance]')"
            )
            return evaluated
        per_trial = self.screen_blocks * self.G
        trials = min(MAX_TRIALS, max(0, self.left("search") // max(1, per_trial)))
        if trials <= 0:
            self.notes.append("search skipped: no budget left for it")
            return evaluated
        # the search space: the parameters the screen finds most useful, plus the proposals'
        gain = self.gains(base_st, effects)
        names = sorted(self.order, key=lambda n: (-gain[n], self.order.index(n)))[
            :MAX_SEARCH_PARAMS
        ]
        for c in proposals:
            names += [n for n in c.point if n not in names]
        names = [n for n in self.order if n in names]
        ranges = {}
        for n in names:
            p = self.space[n]
            ranges[n] = (
                max(-DEFAULT_SEARCH_STEPS, p.k_ceil(p.low)),
                min(DEFAULT_SEARCH_STEPS, p.k_floor(p.high)),
            )
        optuna.logging.set_verbosity(optuna.logging.WARNING)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sampler = optuna.samplers.TPESampler(seed=seed, n_startup_trials=min(10, trials))
            study = optuna.create_study(directions=["minimize"] * 3, sampler=sampler)
            for c in proposals:
                study.enqueue_trial(
                    {n: self.space[n].k_of(c.point.get(n, self.space[n].default)) for n in names}
                )
            seen = {c.key for c in evaluated}
            for _ in range(trials):
                if self.used + per_trial > self.upto("search"):
                    break
                trial = study.ask()
                point = {}
                for n in names:
                    k = trial.suggest_int(n, ranges[n][0], ranges[n][1])
                    if k:
                        point[n] = self.space[n].at(k)
                point = self._repair(point, gain)
                if not self.ev.valid(point):  # a combination the game's rules refuse
                    study.tell(trial, state=optuna.trial.TrialState.FAIL)
                    continue
                vec = self.vectors(point, rng, "search")
                summ = _summary(self.metrics, self.st(vec))
                study.tell(
                    trial, [summ["loss"], float(len(point)), _total_change(point, self.space)]
                )
                c = Candidate(point, "search")
                if point and c.key not in seen:
                    seen.add(c.key)
                    evaluated.append(c)
        return evaluated

    def _repair(self, point: dict[str, int], gain: Mapping[str, float]) -> dict[str, int]:
        """Keep at most K edits and N per card: the ones the screen rates most useful."""
        keep: dict[str, int] = {}
        cards: dict[str, int] = {}
        for n in sorted(point, key=lambda n: (-gain.get(n, 0.0), self.order.index(n))):
            c = self.space[n].card
            if (
                len(keep) < self.targets.max_edits
                and cards.get(c, 0) < self.targets.max_edits_per_card
            ):
                keep[n] = point[n]
                cards[c] = cards.get(c, 0) + 1
        return {n: keep[n] for n in self.order if n in keep}

    # ------------------------------------------------------------ race

    def _rank(self, c: Candidate, st: Mapping[str, MetricStats]) -> tuple[Any, ...]:
        s = _summary(self.metrics, st)
        plausible = s["p_all_in_band"] >= 0.5
        v = np.array([st[m.name].value for m in self.metrics])
        aimed = plausible and float(self._score(v, self.aim)) <= 0.0
        # plausible candidates inside the inner band (the margin) first, then the other
        # plausible ones, each by fewest edits; the rest by how likely they are in band
        return (
            not plausible, not aimed, len(c.point) if plausible else 0, -round(s["p_all_in_band"], 6),
            round(s["loss"], 6), len(c.point), _total_change(c.point, self.space), c.key,
        )  # fmt: skip

    def race(self, pool: list[Candidate]) -> list[Candidate]:
        self.meter.stage = "race"
        s = self.screen_blocks
        rng0 = [(0, s)]
        scored = []
        for c in pool:
            # rank on the most games this point was already played on (descent points on
            # more than the screen's blocks); a point seen only by the search on one block
            self.vectors(c.point, rng0, "race")
            wide = self.widest[c.key][1]
            scored.append((self._rank(c, self.st(self.ev.vectors(c.point, wide))), c))
        scored.sort(key=lambda t: t[0])
        alive = [c for _, c in scored[:MAX_FINALISTS]]
        blocks = s
        limit = self.upto("race")
        played = 0  # race blocks each finalist has played so far
        while len(alive) > 2:
            nb = blocks * 2
            if self.used + len(alive) * (nb - played) * self.G > limit:
                break
            # fresh games: no earlier stage (the screen, the search's trials) played them
            ranges = [(RACE_BLOCK, RACE_BLOCK + s)] + [
                (RACE_BLOCK + s * 2**i, RACE_BLOCK + s * 2 ** (i + 1))
                for i in range(int(math.log2(nb // s)))
            ]
            played = nb
            results = [(c, self.st(self.vectors(c.point, ranges, "race"))) for c in alive]
            blocks = nb
            # Holm over every (candidate, metric): is a band violation shown?
            tests = []
            for ci, (_c, st) in enumerate(results):
                for m in self.metrics:
                    x = st[m.name]
                    if not math.isfinite(x.se) or x.se <= 0:
                        continue
                    p = min(1 - _N.cdf((x.value - m.high) / x.se), _N.cdf((x.value - m.low) / x.se))
                    tests.append((p, ci))
            tests.sort()
            dropped = set()
            for i, (p, ci) in enumerate(tests):
                if p > 0.05 / (len(tests) - i):
                    break
                dropped.add(ci)
            survivors = [
                (self._rank(c, st), c) for ci, (c, st) in enumerate(results) if ci not in dropped
            ]
            survivors.sort(key=lambda t: t[0])
            keep = max(2, math.ceil(len(survivors) / 2))
            if not survivors:  # every finalist violates a band: keep the two best to report
                survivors = sorted(
                    ((self._rank(c, st), c) for c, st in results), key=lambda t: t[0]
                )
                self.notes.append("race: every finalist showed a band violation")
                alive = [c for _, c in survivors[:2]]
                break
            alive = [c for _, c in survivors[:keep]]
        return alive


# ---------------------------------------------------------------- result


class BalanceResult(LabResult):
    """The result of :func:`ketharmad.balance`.

    Attributes:
        best: the recommended proposal, one row per edit (``parameter, card, old, new``), and
            ``best_confirmed`` whether its simultaneous 95 % holdout intervals meet every
            band (False: no candidate was confirmed; ``best`` is then the most likely one).
        proposals: the Pareto table of every candidate measured: ``edits, total_change,
            worst_deviation, p_all_in_band, stage, pareto, confirmed, point``.
        edits: the best proposal's edits with each one's leave-one-out ablation effect: the
            metric it moves most, the effect and its 95 % interval (paired, holdout games).
        before, after: one row per metric: ``metric, target, low, high, value, ci_low,
            ci_high, in_band`` on the holdout games (baseline and best).
        robustness: the edits' effects under a second bot profile (``sign_changed`` flags an
            edit whose effect flips), or None when the budget did not allow it.
        robustness_search: a search-bot sample: every metric before and after the edits
            with the search bot on every seat (the screen's blocks), or None (skipped; the
            notes say why).
        history: every evaluation: stage, point, games, each metric's value, worst deviation.
        overrides: the parameter overrides of the best proposal (with ``params=``), ready for
            ``params=``; ``write_card_data(path)`` writes a card file with them applied.
        screen: each parameter's one-step effect on each metric (with standard errors).
        suspects: the diagnosis of the card-level repair (``settings.strategy="cards"``,
            Kétharmad): the ``.suspects`` table of :func:`ketharmad.diagnose` for the factions
            the metrics said were furthest off, the order in which the repair tried cards;
            None for the descent strategy, a harness game or a budget too small to diagnose.
        settings: the :class:`ketharmad.BalanceSettings` the run measured with.
        strategy: the search that ran (``"cards"`` or ``"descent"``); ``diagnose_games`` the
            games of its diagnosis (in ``games``).
        notes: what was skipped and why.
        game: the game balanced (``"ketharmad"``, ``"schotten_totten_2"``, ``"osztrakon"``).
        used: the games of the run (``games``).
        in_band: every metric's holdout estimate after the edits inside its band (every rung).
        ladder: with a ``[ladder]`` in the targets, one row per rung: ``rung, bots, role``
            (``screen`` or ``confirm``), ``search_games`` (the search stages, the diagnosis
            counted on the first screening rung), ``confirm_games`` (confirmation and
            ablation), ``games`` (their sum; the rungs' games sum to ``games``),
            ``skill_games`` (the skill check's games the rung played, outside the budget),
            ``metrics``, ``in_band_before`` and ``in_band_after`` (every metric of the rung's
            holdout estimates in band); None without a ladder. ``rungs``: their names.
        skill: with ``ladder.skill_margin``, each rung against the rung below at the start
            and for the best point (``point, lower, upper, games, win_rate, ci_low, ci_high,
            needed, holds, measured``); ``skill_holds`` whether every rung holds it for the
            best point, ``skill_margin`` the band; None without one.

    A harness game (``game=``) also has: ``sides`` (its side names), ``games_per_block``,
    and ``confirm_first_game`` / ``confirm_games``: the holdout block the confirmation was
    judged on, which ``simulate(game=game, bots=lineup, games=res.confirm_games,
    seed=res.seed, first_game=res.confirm_first_game, params=res.overrides)`` replays
    exactly (every lineup plays the same game indices). Its ``before`` / ``after`` name a
    metric by ``bots`` and ``seat`` (instead of ``faction`` and ``opponent``) and add
    ``wins``; its ``best``/``edits`` ``card`` column holds the parameter's name. These are
    None for Kétharmad.
    """

    # set by __init__ from balance's result (annotations only: no class attributes)
    best: pl.DataFrame
    best_confirmed: bool
    _best_point: dict[str, int]
    proposals: pl.DataFrame
    edits: pl.DataFrame
    before: pl.DataFrame
    after: pl.DataFrame
    robustness: Optional[pl.DataFrame]
    robustness_search: Optional[pl.DataFrame]
    history: pl.DataFrame
    screen: pl.DataFrame
    suspects: Optional[pl.DataFrame]
    strategy: str
    settings: BalanceSettings
    diagnose_games: int
    overrides: dict[str, Any]
    notes: list[str]
    space: list[str]
    holdout_games: int
    screen_games: int
    bots: Any
    seed: int
    params: dict[str, Any]
    card_data: str
    elapsed: float
    budget: int
    games: int
    games_played: int
    evaluations_played: int
    pairs: list[list[str]]
    targets: Targets
    games_2p: Optional[int]
    games_4p: Optional[int]
    game: str
    sides: Optional[list[str]]
    games_per_block: Optional[int]
    confirm_first_game: Optional[int]
    confirm_games: Optional[int]
    holdout_blocks: tuple[int, int]
    ladder: Optional[pl.DataFrame]
    rungs: Optional[list[str]]
    skill: Optional[pl.DataFrame]
    skill_holds: Optional[bool]
    skill_margin: Optional[float]

    def __init__(self, **kw: Any) -> None:
        # a run without a [ladder] has none of its fields
        self.__dict__.update(
            ladder=None, rungs=None, skill=None, skill_holds=None, skill_margin=None
        )
        self.__dict__.update(kw)

    @property
    def in_band(self) -> bool:
        """Every metric's holdout estimate after the edits is inside its band (with a
        ``[ladder]``: under every rung); ``best_confirmed`` asks the same of the intervals."""
        return bool(self.after["in_band"].all())

    @property
    def best_point(self) -> dict[str, Any]:
        return dict(self._best_point)

    @property
    def used(self) -> int:
        """The games of the run (the budget's count; journal hits included)."""
        return int(self.games)

    @property
    def harness(self) -> bool:
        """True for a game on the generic harness (it has no card file)."""
        return not self._card_text

    def provenance(self) -> dict[str, Any]:
        return harness_provenance(self, self.kind) if self.harness else super().provenance()

    def _provenance(self) -> dict[str, Any]:
        if self.harness:
            return harness_parquet_provenance(self, self.kind)
        return super()._provenance()

    def write_card_data(self, path: Union[str, os.PathLike[str]]) -> dict[str, Any]:
        """Write a copy of the run's card file with the best proposal's overrides applied;
        returns ``{"path": ..., "not_in_file": {...}}`` (rule parameters cannot be written
        into a card file: pass those as ``params=``). A harness game has no card file: pass
        ``res.overrides`` as ``params=``."""
        if self.harness:
            raise ValueError(f"{self.game} has no card file: use res.overrides as params=")
        return write_card_data(self._card_text, self.overrides, path, confirmed=self.best_confirmed)

    def write_report(
        self,
        folder: Union[str, os.PathLike[str]],
        plots: Optional[bool] = None,
        run_id: Optional[str] = None,
    ) -> Path:
        """Write ``folder/report.md`` (before/after heatmaps, Pareto and sensitivity plots when
        matplotlib is installed) and ``folder/cards_balanced.toml``; returns the report path.
        ``run_id`` names the run's Parquet files in the report, as for every lab result."""
        return write_balance_report(self, folder, plots=plots, run_id=run_id)

    kind = "balance"

    def text(self) -> str:
        return balance_text(self)

    def _markdown(self, folder: Any, plots: bool) -> list[str]:
        return balance_markdown(self, folder, plots)

    def html_views(self) -> list[Any]:
        """The report's before/after heatmaps, Pareto plot and sensitivity bars."""
        return balance_views(self)

    def tables(self) -> dict[str, pl.DataFrame]:
        return {
            "balance_edits": self.edits,
            "balance_proposals": self.proposals,
            "balance_before": self.before,
            "balance_after": self.after,
            "balance_history": self.history,
            "balance_screen": self.screen,
            **({"balance_robustness": self.robustness} if self.robustness is not None else {}),
            **({"balance_suspects": self.suspects} if self.suspects is not None else {}),
            **({"balance_ladder": self.ladder} if self.ladder is not None else {}),
            **({"balance_skill": self.skill} if self.skill is not None else {}),
        }

    def _decks(self) -> Any:
        return self.pairs

    def _games_played(self) -> int:
        return int(self.games)


# ---------------------------------------------------------------- card file export


def write_card_data(
    card_text: str,
    overrides: Mapping[str, Any],
    path: Union[str, os.PathLike[str]],
    confirmed: bool = True,
) -> dict[str, Any]:
    """Write ``card_text`` with ``overrides`` applied to ``path``, through the card exporter
    (:func:`ketharmad.export_card_data`): card numbers go into the cards' own fields,
    ``rules.*`` / ``keyword.*`` values into the file's top-level ``[params]`` table, and the
    written text is read back and checked value by value. An existing file is replaced.
    Returns ``{"path": ..., "not_in_file": {}}`` (every parameter has a place in the file;
    the key stays for callers of the first version)."""
    from pathlib import Path

    source = (
        "a ketharmad balance run, confirmed on its holdout games"
        if confirmed
        else "a ketharmad balance run that was NOT CONFIRMED on its holdout games (the most likely "
        "candidate, not a result)"
    )
    text = render_card_text(card_text, check_params(dict(overrides)), source)
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(out, lambda tmp: tmp.write_text(text, encoding="utf-8"))
    return {"path": out, "not_in_file": {}}


# ---------------------------------------------------------------- entry point


def _metric_table(
    metrics: Sequence[Metric], st: Mapping[str, MetricStats], z: float, ev: Any
) -> pl.DataFrame:
    """One row per metric; the evaluator names the metric (Kétharmad: ``faction``,
    ``opponent``; the harness games: ``bots``, ``seat``, and ``wins`` at the end)."""
    rows = []
    for m in metrics:
        x = st[m.name]
        lo, hi = x.value - z * x.se, x.value + z * x.se
        rows.append(
            {
                "metric": m.name,
                "kind": m.kind,
                **ev.metric_columns(m),
                "target": m.target,
                "low": m.low,
                "high": m.high,
                "value": x.value,
                "ci_low": lo,
                "ci_high": hi,
                "games": x.n,
                "in_band": m.low <= x.value <= m.high,
                "confirmed": m.low <= lo and hi <= m.high,
                **ev.metric_extra(m, x),
            }  # fmt: skip
        )
    return pl.DataFrame(rows, schema_overrides=ev.metric_schema())


@fold_balance_settings()
@fold_run_options("threads", "progress", "executor", "cluster")
def balance(
    targets: Any = None,
    *,
    game: Union[str, GameSpec] = "ketharmad",
    bots: Any = None,
    seed: int = 0,
    budget: Optional[int] = None,
    params: Optional[Mapping[str, Any]] = None,
    journal: Union[None, str, os.PathLike[str]] = None,
    settings: SettingsArg = None,
    run: RunArg = None,
    **setup: Unpack[SetupKeywords],
) -> BalanceResult:
    """Find the fewest parameter edits that bring every target metric into its band.

    Every game runs the same stages (below; docs/balance.md). ``game="schotten_totten_2"``
    or ``"osztrakon"`` (or a :class:`~ketharmad.GameSpec` of one) balances a game on the
    generic harness (docs/balance.md "Harness games"): ``targets`` are its metrics (a win
    rate of a seat or side for a bot lineup, the spread of the seats' win rates around 1/n,
    mean turns) and the parameters allowed to move; ``bots`` the default lineup of its
    metrics (one spec per seat); ``games_per_block`` the games of a lineup per block
    (default 100); the default budget 200,000; ``robustness_bots`` / ``robustness_search``
    a bot spec put on every seat (or one per seat), "auto" none. ``card_data``,
    ``settings.games_2p``, ``settings.games_4p`` and ``format`` are Kétharmad's (a
    ``ValueError`` naming them with another game), and ``settings.games_per_block`` the
    harness games' (a ``ValueError`` with Kétharmad).

    Args:
        targets: a targets TOML path, a dict of the same shape, or None (every 2-player pair
            at 50 % +- 5, every 4-player share at 25 % +- 4; docs/balance.md).
        bots: one bot spec for every seat (default ``"heuristic"``). With a ``[ladder]`` in
            the targets the ladder names the bots: leave ``bots`` out (the same bots as its
            rungs are accepted; others are a ``ValueError`` naming both).
        seed: the run's seed: the same seed gives the same proposals, any thread count.
        budget: games in total (default 3,000,000); stages share it 20/40/10/10/20 (screen,
            descend, search, race, confirm with ablation and robustness). The screen always measures
            each allowed parameter once, even when that exceeds a small budget.
        card_data: the card file to balance (default: the packaged one); a setup keyword
            (:class:`ketharmad.game.spec.SetupKeywords`), as ``format``.
        params: fixed overrides that are part of the starting point (not edits).
        journal: a JSON-lines file of finished evaluations; an interrupted run resumed with
            the same file and arguments replays none of them and gives the same result.
        settings: how a point is measured: a :class:`ketharmad.BalanceSettings` or a dict of
            its fields (the older keywords ``games_2p=``, ``games_4p=``,
            ``games_per_block=``, ``robustness_bots=``, ``robustness_search=`` work until 0.3.0
            with a DeprecationWarning):
        settings.robustness_bots: the second bot profile of ``.robustness`` ("auto":
            ``aggro`` for the heuristic family, ``heuristic`` otherwise; None: skip).
        settings.robustness_search: the search-bot sample of ``.robustness_search`` ("auto":
            the search bot at 10 iterations on every seat when ``bots`` is of the heuristic
            family, None otherwise; None: skip; or any bot spec).
        settings.games_2p, settings.games_4p: games per block of a 2-player cell (pair and
            start side) and of a 4-player seating.
        format: the game format every metric is measured in (docs/formats.md), as in
            :func:`ketharmad.simulate`; the targets may name it instead (``format = "quick"``
            at the top of the file; both given and different is a ``ValueError``). It is the
            parameter ``rules.format`` of the starting point; ``format.NAME.KEY`` numbers join
            the search space only when ``change.allow`` names them.
        run: how the games run, none of it changing a result: a :class:`ketharmad.RunOptions`
            or a dict of its fields (the older keywords ``threads=``, ``progress=``,
            ``executor=``, ``cluster=`` work until 0.3.0 with a DeprecationWarning):
        run.threads: worker threads (None = all cores); results do not depend on it.
        run.progress: a status line on stderr (stage, evaluations, games, best worst-deviation,
            time left).
        run.executor: None (play here) or a ``concurrent.futures.Executor`` the plan runner
            submits its shards to (``ketharmad.run.plan.run_plan``); results do not depend on it.
        run.cluster: run the games on Dask instead: ``"local"``, a scheduler address or a
            ``dask.distributed.Client`` (the ``dask`` extra, docs/scale_out.md); same results.

    Returns a :class:`BalanceResult`. Raises ``ValueError`` naming the field for bad targets
    or arguments; ``KeyboardInterrupt`` within about a second of Ctrl-C (the journal stays
    valid).
    """
    card_data, format = take_setup("balance", setup, ("card_data", "format"))
    settings = BalanceSettings.of(settings)
    games_2p, games_4p, games_per_block = (
        settings.games_2p,
        settings.games_4p,
        settings.games_per_block,
    )
    robustness_bots, robustness_search = settings.robustness_bots, settings.robustness_search
    run = RunOptions.of(run)
    threads, progress, executor, cluster = run.threads, run.progress, run.executor, run.cluster
    if isinstance(game, GameSpec):  # a game value: its setup, with this call's explicit keywords
        game_spec, card_data, format, params = setup_of(
            game, "balance", card_data=card_data, format=format, params=params
        )
        game = game_spec.name
    if not isinstance(game, str):
        raise ValueError(f"game must be a name such as 'schotten_totten_2', got {game!r}")
    driver = driver_for(game)
    if not driver.is_ketharmad:
        driver.refuse("balance", {name: value != default for name, value, default in (
            ("card_data", card_data, None), ("games_2p", games_2p, DEFAULT_GAMES_2P),
            ("games_4p", games_4p, DEFAULT_GAMES_4P), ("format", format, None))},
            "targets, bots, seed, budget, params, journal, settings (its robustness_bots, "
            "robustness_search and games_per_block) and run")  # fmt: skip

        return _balance_harness(
            targets, game=game, bots=bots, seed=seed, budget=budget, executor=executor, cluster=cluster,
            params=params, journal=journal, progress=progress, threads=threads, robustness_bots=robustness_bots,
            robustness_search=robustness_search, games_per_block=games_per_block,
            strategy=settings.strategy, repair_from=settings.repair_from,
        )  # fmt: skip
    if games_per_block is not None:
        raise ValueError(
            "settings.games_per_block is for the harness games; Kétharmad's blocks are "
            "settings.games_2p and settings.games_4p"
        )
    check_cluster_arg(cluster, executor)
    if cluster is not None:  # one client for the whole run, closed at its end if made here
        with executor_for(None, cluster) as ex:
            return balance(
                targets, bots=bots, seed=seed, budget=budget, params=params, journal=journal,
                settings=settings, run=run.replace(executor=ex, cluster=None), card_data=card_data,
                format=format,
            )  # fmt: skip
    t0 = time.perf_counter()
    tg = load_targets(targets)
    lad = tg.ladder
    if lad is not None:
        _check_ladder_bots(bots, lad)
        robustness_bots, robustness_search = _ladder_robustness(robustness_bots, robustness_search)
    elif bots is None:
        bots = "heuristic"
    spec = (
        _check_bot_spec(bots, "bots")
        if lad is None
        else next(r.spec for r in lad.rungs if r.screen)
    )
    seed_ = check_seed(seed)
    threads_ = check_threads(threads)
    fmt = _balance_format(format, tg.format)
    text, base_params = apply_format(load_card_data(card_data), check_params(params), fmt)
    winners = 2 if fmt is not None and format_info(text, base_params).teams else 1
    tg.check_shares(winners)
    for rung in tg.ladder.rungs if tg.ladder else ():
        try:
            dataclasses.replace(tg, metrics=list(rung.metrics)).check_shares(winners)
        except ValueError as e:
            raise ValueError(f"targets.ladder.bands.{rung.name}: {e}") from None
    progress = check_flag("progress", progress)
    g2 = check_int("games_2p", games_2p, 1, 100_000)
    g4 = check_int("games_4p", games_4p, 1, 100_000)
    table = parameter_frame(_core.parameter_table(text))
    # the starting point: params= values replace the registry defaults of the space
    if base_params:
        table = table.with_columns(
            default=pl.col("name").replace_strict(
                {k: int(v) for k, v in base_params.items() if isinstance(v, int) and not isinstance(v, bool)},
                default=pl.col("default"), return_dtype=pl.Int64,
            )
        )  # fmt: skip
    space = tg.space(table)
    budget_ = DEFAULT_BUDGET if budget is None else check_int("budget", budget, 1)
    alt_bots: Any = None
    if robustness_bots == "auto":
        kind = spec if isinstance(spec, str) else spec.get("kind")
        alt_bots = (
            "aggro" if kind in ("heuristic", "control", "aggro", "tuned", "search") else "heuristic"
        )
        if alt_bots == spec:
            alt_bots = "control"
    elif robustness_bots is not None:
        alt_bots = _check_bot_spec(robustness_bots, "robustness_bots")
    search_bots: Any = None
    if robustness_search == "auto":
        kind = spec if isinstance(spec, str) else spec.get("kind")
        if kind in ("heuristic", "control", "aggro", "tuned"):
            search_bots = dict(SEARCH_SAMPLE)
    elif robustness_search is not None:
        search_bots = _check_bot_spec(robustness_search, "robustness_search")

    jr = None
    if journal is not None:
        header = {"card_data_hash": card_text_hash(text), "seed": seed_, "games_2p": g2, "games_4p": g4,
                  "params": point_key(base_params)}  # fmt: skip
        jr = Journal(journal, header)
    ev: Union[Evaluator, LadderEvaluator]
    if lad is None:
        ev = Evaluator(
            text, tg, spec, seed_, threads_, g2, g4, base_params, journal=jr, executor=executor
        )
    else:
        ev = LadderEvaluator(
            text, tg, seed_, threads_, g2, g4, base_params, journal=jr, executor=executor
        )
    try:
        ev.validate({})
        space = _valid_space(space, lambda name, v: _builds(ev, name, v))
    except BaseException:
        if jr is not None:
            jr.close()
        raise

    def suspects_of(base_st: Mapping[str, MetricStats], allowance: int) -> tuple[Any, int]:
        """The diagnosis of the factions furthest off, in ``allowance`` games (None: too few)."""
        from ..diagnose import _pairings, diagnose

        factions = off_factions(ev.metrics, base_st, DIAGNOSE_FACTIONS)
        # games per pairing, and a quarter of that at each of about 20 restricted points a
        # faction against each of its 3 opponents
        per_game = len(_pairings(factions)) + len(factions) * 3 * 20 / 4
        g = int(allowance / max(per_game, 1))
        if not factions or g < DIAGNOSE_MIN_GAMES:
            return None, 0
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "cards.toml")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            dg = diagnose(factions, bots=spec, games=g, seed=seed_ + 1, params=base_params or None,
                          card_data=path, run=RunOptions(threads=threads_, executor=executor))  # fmt: skip
        return dg.suspects, dg.n_games

    run_tg = tg if lad is None else dataclasses.replace(tg, metrics=list(ev.metrics))
    result, stages = _staged(ev, run_tg, space, budget_, seed_, alt_bots, search_bots, progress, jr,
                             settings.strategy, suspects_of, settings.repair_from)  # fmt: skip
    if isinstance(ev, LadderEvaluator):
        result["notes"] = [
            n for n in result["notes"] if n != "robustness skipped (robustness_bots=None)"
        ]
        result["notes"].append(
            "ladder: the robustness profiles are off (every rung is measured); the rungs "
            f"{', '.join(r.name for r in ev.rungs if r.screen)} screened, every rung confirmed"
        )
        result.update(_ladder_fields(ev, result, text, base_params, seed_,
                                     RunOptions(threads=threads_, executor=executor)))  # fmt: skip
    result.update(
        bots=spec if lad is None else lad.specs, seed=seed_, params=base_params, card_data=describe_card_data(card_data), _card_text=text,
        elapsed=time.perf_counter() - t0, budget=budget_, games=stages.used, games_played=ev.games_played,
        evaluations_played=ev.evaluations, pairs=[list(p) for p in tg.pairs], targets=tg,
        games_2p=g2, games_4p=g4, game="ketharmad", sides=None, games_per_block=None, settings=settings,
        confirm_first_game=None, confirm_games=None,
    )  # fmt: skip
    return BalanceResult(**result)


def _staged(
    ev: Union[Evaluator, HarnessEvaluator, LadderEvaluator],
    tg: Union[Targets, GameTargets],
    space: list[ParamSpace],
    budget: int,
    seed: int,
    alt_bots: Any,
    search_bots: Any,
    progress: bool,
    jr: Optional[Journal],
    strategy: str = "cards",
    diagnose: Any = None,
    repair_from: Optional[Mapping[str, Any]] = None,
) -> tuple[dict[str, Any], _Run]:
    """The stages over any game's evaluator: the result's fields, and the run (its games)."""
    meter = _Meter(progress, budget)
    run = _Run(ev, tg, space, budget, meter, _CARD_SHARE if strategy == "cards" else _SHARE)
    if progress and hasattr(ev, "on_games"):
        ev.on_games = meter.tick  # shards of the evaluation in flight move the line
    try:
        need = minimum_budget(space, run.G)
        if budget < need:
            raise ValueError(
                f"budget {budget:,} is too small for one confirmation: the screen plays the start and "
                f"one step each way of every allowed parameter on one block ({run.G:,} games a point) "
                f"and confirmation plays two points on two holdout blocks; the minimum is {need:,} games "
                "(or allow fewer parameters)"
            )
        result = _balance(
            run, tg, space, seed, alt_bots, search_bots, strategy, diagnose, repair_from
        )
        if run.used > budget:
            run.notes.append(
                f"used {run.used:,} games, more than the budget of {budget:,}: the ablation and the "
                "pruning measure each edit of the point they keep"
            )
    finally:
        meter.close()
        if jr is not None:
            jr.close()
    return result, run


def _balance_harness(
    targets: Any,
    *,
    game: str,
    bots: Any,
    seed: int,
    budget: Optional[int],
    executor: Any,
    cluster: Any,
    params: Optional[Mapping[str, Any]],
    journal: Union[None, str, os.PathLike[str]],
    progress: bool,
    threads: Optional[int],
    robustness_bots: Any,
    robustness_search: Any,
    games_per_block: Optional[int],
    strategy: str = "cards",
    repair_from: Optional[Mapping[str, Any]] = None,
) -> BalanceResult:
    """:func:`balance` of a game on the generic harness: its targets, space and evaluator
    (:mod:`ketharmad.lab.balance.games`), the same stages as Kétharmad's."""
    check_cluster_arg(cluster, executor)
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
    # the second bot profiles: one spec on every seat (or one per seat); "auto" picks none
    alt_bots = None if robustness_bots in (None, "auto") else robustness_bots
    search_bots = None if robustness_search in (None, "auto") else robustness_search
    start = {**{p["name"]: p["default"] for p in info["parameters"]}, **base}
    space = harness_space(tg, info, start)
    with executor_for(executor, cluster) as ex:
        jr = None
        if journal is not None:
            jr = Journal(
                journal,
                {"game": game, "seed": seed_, "games_per_block": n, "params": point_key(base),
                 "lineups": [list(x) for x in tg.lineups]},
            )  # fmt: skip
        ev = HarnessEvaluator(game, tg, seed_, threads_, n, base, journal=jr, executor=ex)
        try:
            for b in (alt_bots, search_bots):
                if b is not None:
                    ev.validate({}, b)
            space = _valid_space(space, ev.builds, steps=tg.max_steps)
        except BaseException:
            if jr is not None:
                jr.close()
            raise
        result, stages = _staged(ev, tg, space, budget_, seed_, alt_bots, search_bots, progress, jr,
                                 strategy, None, repair_from)  # fmt: skip
    if robustness_bots == "auto":
        result["notes"] = [
            x.replace(
                "robustness skipped (robustness_bots=None)",
                f"robustness skipped (robustness_bots='auto' picks no second profile for {game}; "
                "give one, e.g. robustness_bots='random')",
            )  # fmt: skip
            for x in result["notes"]
        ]
    b0, b1 = result["holdout_blocks"]
    result.update(
        bots=[list(x) for x in tg.lineups], seed=seed_, params=base, card_data=game, _card_text="",
        elapsed=time.perf_counter() - t0, budget=budget_, games=stages.used, games_played=ev.games_played,
        evaluations_played=ev.evaluations, pairs=[], targets=tg, games_2p=None, games_4p=None,
        game=game, sides=list(info["sides"] or []), games_per_block=n,
        settings=BalanceSettings(games_per_block=games_per_block, robustness_bots=robustness_bots,
                                 robustness_search=robustness_search, strategy=strategy,
                                 repair_from=repair_from),
        confirm_first_game=b0 * n, confirm_games=(b1 - b0) * n,
    )  # fmt: skip
    return BalanceResult(**result)


def _check_ladder_bots(bots: Any, lad: Ladder) -> None:
    """``bots=`` with a ``[ladder]``: None (the ladder names the bots), or the same bots as its
    rungs (one spec for a one-rung ladder, else the list of rungs); anything else is a
    ValueError naming both."""
    if bots is None:
        return
    given = list(bots) if isinstance(bots, (list, tuple)) else [bots]
    try:
        labels = [bot_label(_check_bot_spec(b, "bots")) for b in given]
    except ValueError:
        labels = []
    if labels != [bot_label(x) for x in lad.specs]:
        raise ValueError(
            f"bots={bots!r} and the targets' [ladder] rungs {lad.names} disagree: name the bots in one "
            "place (leave bots= out when the targets have a [ladder])"
        )


def _ladder_robustness(robustness_bots: Any, robustness_search: Any) -> tuple[None, None]:
    """A ladder measures every rung: the second bot profiles are off ("auto"), and one given
    explicitly is a ValueError (make it a rung)."""
    for name, value in (
        ("robustness_bots", robustness_bots),
        ("robustness_search", robustness_search),
    ):
        if value not in ("auto", None):
            raise ValueError(
                f"settings.{name}={value!r}: a [ladder] measures every metric under each of its rungs; "
                "add the bot to ladder.rungs instead"
            )
    return None, None


def _ladder_fields(
    ev: LadderEvaluator,
    result: Mapping[str, Any],
    text: str,
    base_params: Mapping[str, Any],
    seed: int,
    run: RunOptions,
) -> dict[str, Any]:
    """The ladder's part of a result: the games per rung (``ladder``), and the skill band
    (``skill``, ``skill_holds``) measured at the start and for the best point."""
    lad = ev.ladder
    skill = None
    if lad.skill_margin is not None:
        skill = _skill_check(lad, text, base_params, result["_best_point"], seed, run)
    rows = []
    first = next(r.name for r in ev.rungs if r.screen)
    for r in ev.rungs:
        search = ev.rung_games.get((r.name, "search"), 0)
        if r.name == first:
            # the diagnosis plays the first screening rung
            search += int(result.get("diagnose_games", 0))
        confirm = ev.rung_games.get((r.name, "confirm"), 0)
        sk = 0
        if skill is not None:
            s_ = skill.filter(
                pl.col("measured") & ((pl.col("lower") == r.name) | (pl.col("upper") == r.name))
            )
            sk = int(s_["games"].sum())
        before = result["before"].filter(pl.col("rung") == r.name)
        after = result["after"].filter(pl.col("rung") == r.name)
        rows.append({
            "rung": r.name, "bots": bot_label(r.spec), "role": "screen" if r.screen else "confirm",
            "search_games": search, "confirm_games": confirm, "games": search + confirm, "skill_games": sk,
            "metrics": after.height, "in_band_before": bool(before["in_band"].all()),
            "in_band_after": bool(after["in_band"].all()),
        })  # fmt: skip
    ladder_df = pl.DataFrame(rows)
    holds = None
    if skill is not None:
        holds = bool(skill.filter(pl.col("point") == "best")["holds"].all())
    return {"ladder": ladder_df, "rungs": lad.names, "skill": skill, "skill_holds": holds,
            "skill_margin": lad.skill_margin}  # fmt: skip


def _skill_check(
    lad: Ladder,
    text: str,
    base_params: Mapping[str, Any],
    best: Mapping[str, Any],
    seed: int,
    run: RunOptions,
) -> pl.DataFrame:
    """Each rung against the rung below (:func:`ketharmad.ladder` of the two: common seeds,
    seats swapped, the 12 deck pairings), at the start and at ``best``: the upper rung's win
    rate, its 95 % interval, and whether it holds the skill band (at least ``skill_margin``
    and the interval above even, as the ladder's own check). Without edits the best point is
    the start: its rows repeat the start's (``measured`` False)."""
    from ..ladder import ladder

    assert lad.skill_margin is not None
    rows: list[dict[str, Any]] = []
    points: list[tuple[str, dict[str, Any]]] = [("start", {})] + (
        [("best", dict(best))] if best else []
    )
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "cards.toml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        for label, point in points:
            for lower, upper in zip(lad.rungs, lad.rungs[1:], strict=False):
                res = ladder([lower.spec, upper.spec], games=lad.skill_games, seed=seed, margin=0.0,
                             bootstrap=0, params={**base_params, **point} or None, card_data=path, run=run)  # fmt: skip
                o = res.order.row(0, named=True)
                rate = o["win_rate"]
                rows.append({
                    "point": label, "lower": lower.name, "upper": upper.name, "games": int(o["games"]),
                    "win_rate": rate, "ci_low": o["ci_low"], "ci_high": o["ci_high"], "needed": lad.skill_margin,
                    "holds": bool(rate is not None and rate >= lad.skill_margin and o["ci_low"] > 0.5),
                    "measured": True,
                })  # fmt: skip
    if not best:
        rows += [{**r, "point": "best", "measured": False} for r in rows]
    return pl.DataFrame(rows, schema={
        "point": pl.String, "lower": pl.String, "upper": pl.String, "games": pl.Int64, "win_rate": pl.Float64,
        "ci_low": pl.Float64, "ci_high": pl.Float64, "needed": pl.Float64, "holds": pl.Boolean,
        "measured": pl.Boolean})  # fmt: skip


def _balance_format(given: Any, in_targets: Any) -> Any:
    """The run's format: ``format=`` or the targets' ``format``; both and different: error."""
    if given is None or in_targets is None:
        return given if given is not None else in_targets
    if split_format(given)[0] != split_format(in_targets)[0]:
        raise ValueError(f"format={split_format(given)[0]!r} disagrees with the targets' format "
                         f"{split_format(in_targets)[0]!r}")  # fmt: skip
    return given


def _valid_space(
    space: list[ParamSpace], builds: Callable[[str, Any], bool], steps: int = DEFAULT_SEARCH_STEPS
) -> list[ParamSpace]:
    """Narrow each parameter to the values within ``steps`` steps that build in every cell
    (a copies change that breaks a deck's 31 cards does not); drop one with none."""
    from dataclasses import replace

    tol = 0 if all(p.numeric == "int" for p in space) else 1e-9
    out = []
    for p in space:
        low = high = p.default
        for d in range(1, steps + 1):
            v = p.at(-d)
            if v < p.low - tol * p.step or not builds(p.name, v):
                break
            low = v
        for d in range(1, steps + 1):
            v = p.at(d)
            if v > p.high + tol * p.step or not builds(p.name, v):
                break
            high = v
        if low < high:
            out.append(replace(p, low=low, high=high))
    if not out:
        raise ValueError(
            "targets.change.allow: no allowed parameter can change by one step and still build"
        )
    return out


def _builds(ev: Union[Evaluator, LadderEvaluator], name: str, value: int) -> bool:
    """The value builds with all four factions' decks (one core call, not one per cell)."""
    decks = list(_core.FACTIONS)
    bots = [dict(ev.bots) if isinstance(ev.bots, Mapping) else ev.bots for _ in decks]
    try:
        _core.validate(ev.text, decks, bots, {**ev.base_params, name: value})
    except ValueError:
        return False
    return True


def _deviation(m: Metric, v: float) -> float:
    """``v``'s distance from the target in units of the band's half-width on its side (1:
    at the band's edge)."""
    half = (m.high - m.target) if v >= m.target else (m.target - m.low)
    return abs(v - m.target) / max(half, 1e-9)


def aim_of(
    metrics: Sequence[Metric], start: Mapping[str, MetricStats], margin: float
) -> np.ndarray:
    """Per metric, the part of its band the card-level repair aims to end inside: the inner
    ``1 - margin`` for a metric outside that at the start (aim inside the band, not at its
    edge), and where it already is for a metric in band at the start (fix what is off, hold
    what is in band where it was: a metric in band is never chased toward the centre, so no
    edit is spent on it; docs/balance.md "Card-level repair")."""
    inner = 1.0 - margin
    out = []
    for m in metrics:
        d = _deviation(m, start[m.name].value)
        out.append(max(inner, d) if d <= 1.0 else inner)
    return np.array(out)


def _widen_aim(
    before: Sequence[Metric],
    aim: np.ndarray,
    metrics: Sequence[Metric],
    start: Mapping[str, MetricStats],
    margin: float,
) -> np.ndarray:
    """The aim over ``metrics`` (a ladder's every rung) from the aim over ``before`` (its
    screening rungs): the confirming rungs' metrics get ``aim_of`` their holdout start."""
    known = dict(zip([m.name for m in before], aim.tolist(), strict=True))
    new = [m for m in metrics if m.name not in known]
    known.update(zip([m.name for m in new], aim_of(new, start, margin).tolist(), strict=True))
    return np.array([known[m.name] for m in metrics])


def _excess(metrics: Sequence[Metric], values: np.ndarray, inner: Any) -> np.ndarray:
    """Sum over metrics of the squared excess of ``values`` (one or many metric vectors) over
    the inner ``inner`` part of each band, in half-widths on the value's side."""
    target = np.array([m.target for m in metrics])
    lo = np.array([m.target - m.low for m in metrics])
    hi = np.array([m.high - m.target for m in metrics])
    dev = values - target
    half = np.where(dev >= 0, hi, lo)
    over = np.maximum(0.0, np.abs(dev) / np.maximum(half, 1e-9) - inner)
    return (over**2).sum(axis=-1)


def _inner_score(metrics: Sequence[Metric], st: Mapping[str, MetricStats], inner: Any) -> float:
    """The squared excess of ``st``'s estimates over the inner ``inner`` part of each band
    (one number, or one per metric: ``aim_of``); 0: every estimate inside what was aimed for."""
    return float(_excess(metrics, np.array([st[m.name].value for m in metrics]), inner))


def _confirm_order(
    finalists: Sequence[Candidate],
    hold_st: Mapping[str, Mapping[str, MetricStats]],
    metrics: Sequence[Metric],
    inner: Any,
    cost: Callable[[Mapping[str, Any]], float],
) -> list[Candidate]:
    """The order in which confirmed candidates are taken: the starting point first (a
    confirmed start needs no edit), then the candidates whose every estimate is inside the
    inner band the search aimed for (``inner``: the margin, or one number per metric from
    ``aim_of``), then the rest; each group by fewest edits,
    then the smallest edits."""
    return sorted(
        finalists,
        key=lambda c: (
            bool(c.point), _inner_score(metrics, hold_st[c.key], inner) > 0.0, len(c.point),
            cost(c.point), c.key,
        ),
    )  # fmt: skip


def _dominates(
    metrics: Sequence[Metric], st: Mapping[str, MetricStats], base: Mapping[str, MetricStats]
) -> bool:
    """``st`` is better than ``base`` on every metric with its interval: no metric further
    outside its band (none pushed out), and every metric outside its band at ``base`` closer
    to its target by more than the 95 % interval of the difference."""
    z = z_of(0.05)
    if not any(m.excess(base[m.name].value) > 0 for m in metrics):
        return False  # nothing to improve: an unconfirmed start in band is never beaten by edits
    for m in metrics:
        c, b = st[m.name], base[m.name]
        if m.excess(c.value) > m.excess(b.value) + 1e-12:
            return False
        if m.excess(b.value) > 0:
            gain = abs(b.value - m.target) - abs(c.value - m.target)
            if not gain > z * math.hypot(c.se, b.se):
                return False
    return True


def _check_repair_from(run: _Run, point: Mapping[str, Any]) -> dict[str, Any]:
    """``settings.repair_from`` checked against the run's space: every name a parameter the
    targets allow, every value inside its bounds, no more edits than ``max_edits`` (and
    ``max_edits_per_card``), a point the game builds. Returns its edits (values that differ
    from the start's)."""
    spc, tg = run.space, run.targets
    out: dict[str, int] = {}
    for name, v in point.items():
        p = spc.get(name)
        if p is None:
            raise ValueError(
                f"settings.repair_from: {name!r} is not a parameter the targets let the balancer "
                "edit (see change.allow, change.freeze and ketharmad.parameters())"
            )
        if isinstance(p.default, int) and not float(v).is_integer():
            raise ValueError(f"settings.repair_from[{name!r}] must be an integer, got {v!r}")
        if isinstance(p.default, int):
            v = int(v)
        if not p.contains(v):
            raise ValueError(
                f"settings.repair_from[{name!r}] = {v} is outside its bounds {p.low}..{p.high} "
                f"(printed value {p.default}; change.max_change and the kind's bounds set them)"
            )
        if v != p.default:
            out[name] = v
    if len(out) > tg.max_edits:
        raise ValueError(
            f"settings.repair_from has {len(out)} edits, more than change.max_edits = {tg.max_edits}"
        )
    per_card: dict[str, int] = {}
    for name in out:
        card = card_of_param(spc, name)
        per_card[card] = per_card.get(card, 0) + 1
        if per_card[card] > tg.max_edits_per_card:
            raise ValueError(
                f"settings.repair_from edits {per_card[card]} numbers of {card}, more than "
                f"change.max_edits_per_card = {tg.max_edits_per_card}"
            )
    try:
        if hasattr(run.ev, "validate"):
            run.ev.validate(out)
        ok = run.ev.valid(out)
    except ValueError as e:
        raise ValueError(f"settings.repair_from: the game does not build with {out}: {e}") from None
    if not ok:
        raise ValueError(f"settings.repair_from: the game does not build with {out}")
    return out


def _balance(
    run: _Run,
    tg: Union[Targets, GameTargets],
    space: list[ParamSpace],
    seed: int,
    alt_bots: Any,
    search_bots: Any = None,
    strategy: str = "cards",
    diagnose: Optional[Callable[[Mapping[str, MetricStats], int], tuple[Any, int]]] = None,
    repair_from: Optional[Mapping[str, Any]] = None,
) -> dict[str, Any]:
    metrics = tg.metrics
    spc = run.space
    start = _check_repair_from(run, repair_from) if repair_from is not None else None
    run.notes.extend(getattr(tg, "scope", []))  # how a partial list of pairs was read
    s, base_st, effects = run.screen()
    if search_bots is not None:  # the search-bot sample's games, timed apart (_Meter)
        run.meter.slow = 2 * s * run.G
    suspects_df = None
    diagnose_games = 0
    if strategy == "cards":
        base_st = run.baseline(base_st)
        sus = None
        if diagnose is not None:
            run.meter.stage = "diagnose"
            suspects_df, diagnose_games = diagnose(base_st, max(0, run.left("diagnose")))
            run.used += diagnose_games
            run.meter.update(run.used, len(run.seen), force=True)
            if suspects_df is None:
                run.notes.append(
                    "diagnosis skipped: the budget's diagnosis share pays for too few games; the "
                    "repair orders its moves by the screen alone"
                )
            else:
                sus = suspicions(suspects_df)
        run.aim = aim_of(metrics, base_st, getattr(tg, "margin", DEFAULT_MARGIN))
        descent = repair(run, base_st, effects, sus, run.aim, start)
        proposals = []
        pool = list({c.key: c for c in descent}.values())[-MAX_FINALISTS:]
    else:
        proposals = run.propose(base_st, effects)
        descent = run.descend(base_st, effects)
        pool = run.search(descent + proposals, effects, base_st, seed)
    finalists = run.race(pool) if pool else []

    # ---- confirm on holdout blocks (docs/balance.md, "Confirm")
    run.meter.stage = "confirm"
    search_metrics, ladder = list(metrics), hasattr(run.ev, "confirm")
    if ladder:  # a ladder: the confirming rungs join; a point is judged under every rung
        run.ev.confirm()
        run.metrics = metrics = list(run.ev.metrics)
        run.G = run.ev.games_per_block()
    z_sim = z_of(0.05 / len(metrics))  # simultaneous 95 % over the metrics (Bonferroni)
    remaining = max(0, run.budget - run.used)
    n_eval = len(finalists) + 1
    per_ablation = max((len(c.point) for c in finalists), default=0)
    h = max(2 * s, remaining // max(1, (n_eval + per_ablation) * run.G * 2))
    h = min(h, CONFIRM_FIRST * s)
    hold = [(HOLDOUT_BLOCK, HOLDOUT_BLOCK + h)]
    base_vec = run.vectors({}, hold, "confirm")
    base_hold = run.st(base_vec)
    if ladder and isinstance(run.aim, np.ndarray):
        # the confirming rungs' aim: from their holdout start
        run.aim = _widen_aim(
            search_metrics, run.aim, metrics, base_hold, getattr(tg, "margin", DEFAULT_MARGIN)
        )

    def in_band(st: Mapping[str, MetricStats]) -> bool:
        return all(
            m.low <= st[m.name].value - z_sim * st[m.name].se
            and st[m.name].value + z_sim * st[m.name].se <= m.high
            for m in metrics
        )

    confirmed = {}
    hold_st = {}
    # the starting point competes too: if it already meets every band, no edit is needed
    finalists = [Candidate({}, "baseline"), *[c for c in finalists if c.point]]
    for c in finalists:
        st = run.st(run.vectors(c.point, hold, "confirm")) if c.point else base_hold
        hold_st[c.key] = st
        confirmed[c.key] = in_band(st)
    confirm_games = h * run.G
    hold_used = hold[0]
    # a second, fresh holdout when the budget pays for a bigger one: the first holdout only
    # selects the candidates whose every estimate is in band; confirmation is then judged on
    # the new blocks alone (independent of that selection, so still simultaneous 95 %)
    inner = run.aim

    def aimed(c: Candidate) -> bool:
        return _inner_score(metrics, hold_st[c.key], inner) <= 0.0

    contending = sorted(
        (c for c in finalists if all(m.low <= hold_st[c.key][m.name].value <= m.high for m in metrics)),
        key=lambda c: (-(_summary(metrics, hold_st[c.key])["p_all_in_band"] >= 0.5), not aimed(c), len(c.point),
                       -_summary(metrics, hold_st[c.key])["p_all_in_band"], c.key),
    )[:CONFIRM_SURVIVORS]  # fmt: skip
    reserve = (per_ablation * h + (2 + per_ablation) * s) * run.G
    second: list[Candidate] = []
    likeliest = start_only = False
    if not any(confirmed.values()):
        second = [c for c in contending if c.point]
        if not second:
            # no candidate with edits has every estimate in band (the start may): the budget
            # left still goes to a further holdout (not to stopping), of the candidates
            # likeliest to be in band, and the start plays it too
            second = sorted(
                (c for c in finalists if c.point),
                key=lambda c: (-_summary(metrics, hold_st[c.key])["p_all_in_band"],
                               _inner_score(metrics, hold_st[c.key], inner), len(c.point), c.key),
            )[:CONFIRM_SURVIVORS]  # fmt: skip
            likeliest = True
        # no candidate has edits at all (the repair took none): the start alone plays the
        # further holdout, so the answer "in band or not, with no edit" rests on the budget left
        start_only = not second
    if second or start_only:
        # the budget left goes to this holdout (not to stopping early)
        h2 = max(0, run.budget - run.used - reserve) // ((len(second) + 1) * run.G)
        if h2 >= h:
            hold2 = [(HOLDOUT_BLOCK + h, HOLDOUT_BLOCK + h + h2)]
            which = (
                "likeliest to be in band (no candidate with edits had every estimate in band)"
                if likeliest
                else "with every estimate in band"
            )
            run.notes.append(
                f"no candidate was confirmed on the first {h * run.G:,} holdout games a point; "
                + (
                    f"the starting point (no candidate has edits) played on {h2 * run.G:,} fresh "
                    "holdout games and is judged on those alone"
                    if start_only
                    else f"{len(second)} candidate(s) {which} played on {h2 * run.G:,} "
                    "fresh holdout games a point and judged on those alone"
                )
            )
            base_vec = run.vectors({}, hold2, "confirm")
            base_hold = run.st(base_vec)
            hold_st[Candidate({}, "baseline").key] = base_hold
            confirmed[Candidate({}, "baseline").key] = in_band(base_hold)
            for c in second:
                st = run.st(run.vectors(c.point, hold2, "confirm"))
                hold_st[c.key] = st
                confirmed[c.key] = in_band(st)
            confirm_games = h2 * run.G
            hold_used = hold2[0]
            finalists = [Candidate({}, "baseline"), *second]
    order = _confirm_order(finalists, hold_st, metrics, inner, lambda x: point_cost(x, spc))
    best = next((c for c in order if confirmed[c.key]), None)
    best_confirmed = best is not None
    if best is not None and not best.point:
        run.notes.append(
            "the starting point already meets every band on the holdout games: no edit needed"
        )
    if best is None and finalists:
        # unconfirmed: the starting point, unless a candidate is better on every metric
        base_key = Candidate({}, "baseline").key
        better = [
            c
            for c in finalists
            if c.point and _dominates(metrics, hold_st[c.key], hold_st[base_key])
        ]
        if better:
            best = min(
                better,
                key=lambda c: (
                    len(c.point),
                    -round(_summary(metrics, hold_st[c.key])["p_all_in_band"], 6),
                    _summary(metrics, hold_st[c.key])["loss"],
                    c.key,
                ),
            )
            run.notes.append(
                "no candidate was confirmed on the holdout games: best is the candidate with the fewest "
                "edits that is better than the starting point on every metric (with its interval), unconfirmed"
            )
        else:
            best = finalists[0]
            run.notes.append(
                "no candidate was confirmed on the holdout games and none is better than the starting "
                "point on every metric: best is the starting point (no edits), unconfirmed"
            )  # fmt: skip
    assert best is not None  # finalists always hold the baseline
    best_st = hold_st[best.key]
    # the ablation pairs on the first holdout (every finalist was played there)
    best_vec = run.ev.vectors(best.point, hold)

    # ---- ablation: each edit removed in turn, paired on the holdout games
    z95 = z_of(0.05)
    rows: list[dict[str, Any]] = []
    ablated: dict[str, dict[str, np.ndarray]] = {}
    for name, new in best.point.items():
        rest = {k: v for k, v in best.point.items() if k != name}
        if not run.ev.valid(rest):
            run.notes.append(f"ablation of {name}: the other edits do not build without it")
            continue
        vec = run.vectors(rest, hold, "ablation")
        ablated[name] = vec
        eff = {m.name: paired(m, best_vec[m.name], vec[m.name]) for m in metrics}
        top, e = moves_most(metrics, eff)
        loss_with = _summary(metrics, run.st(best_vec))["loss"]
        loss_without = _summary(metrics, run.st(vec))["loss"]
        rows.append(
            {
                "parameter": name,
                "card": spc[name].card,
                "old": spc[name].default,
                "new": new,
                "delta": new - spc[name].default,
                "metric": top.name,
                "effect": e.value,
                "effect_ci_low": e.value - z95 * e.se,
                "effect_ci_high": e.value + z95 * e.se,
                "loss_without": loss_without,
                "loss_with": loss_with,
            }  # fmt: skip
        )
    num = pl.Float64 if any(p.numeric == "float" for p in spc.values()) else pl.Int64
    edit_schema = {
        "parameter": pl.String, "card": pl.String, "old": num, "new": num, "delta": num,
        "metric": pl.String, "effect": pl.Float64, "effect_ci_low": pl.Float64, "effect_ci_high": pl.Float64,
        "loss_without": pl.Float64, "loss_with": pl.Float64,
    }  # fmt: skip
    edits = pl.DataFrame(rows, schema=edit_schema)

    # ---- robustness under a second bot profile
    robustness = None
    if alt_bots is not None and best.point:
        rb = s
        cost = (2 + len(best.point)) * rb * run.G
        if run.used + cost <= run.budget * 1.05:
            run.meter.stage = "robust"
            rrng = [(0, rb)]
            try:
                run.ev.validate({}, alt_bots)
                alt_best = run.vectors(best.point, rrng, "robustness", alt_bots)
                alt_base = run.vectors({}, rrng, "robustness", alt_bots)
                rrows = []
                for r in rows:
                    name = r["parameter"]
                    rest = {k: v for k, v in best.point.items() if k != name}
                    vec = run.vectors(rest, rrng, "robustness", alt_bots)
                    m = next(mm for mm in metrics if mm.name == r["metric"])
                    e = paired(m, alt_best[m.name], vec[m.name])
                    rrows.append(
                        {
                            "parameter": name,
                            "bots": str(alt_bots),
                            "metric": m.name,
                            "effect_main": r["effect"],
                            "effect_alt": e.value,
                            "alt_ci_low": e.value - z95 * e.se,
                            "alt_ci_high": e.value + z95 * e.se,
                            "sign_changed": bool(
                                r["effect"] * e.value < 0
                                and (e.value - z95 * e.se) * (e.value + z95 * e.se) > 0
                            ),
                        }  # fmt: skip
                    )
                robustness = pl.DataFrame(rrows)
                alt_before = _summary(metrics, run.st(alt_base))
                alt_after = _summary(metrics, run.st(alt_best))
                run.notes.append(
                    f"robustness ({alt_bots}): worst deviation {100 * alt_before['worst_deviation']:.1f} -> "
                    f"{100 * alt_after['worst_deviation']:.1f} points"
                )
            except ValueError as err:
                run.notes.append(f"robustness skipped: {err}")
        else:
            run.notes.append("robustness skipped: not enough budget left")
    elif alt_bots is None:
        run.notes.append("robustness skipped (robustness_bots=None)")

    # ---- a search-bot sample: the starting point and best on the screen's blocks
    robustness_search = None
    if not (search_bots is not None and best.point):
        run.meter.slow = 0
    if search_bots is not None and best.point:
        rb = s
        if run.used + 2 * rb * run.G <= run.budget * 1.05:
            run.meter.stage = "search sample"
            try:
                run.ev.validate({}, search_bots)
                rrng = [(0, rb)]
                sb = run.st(run.vectors({}, rrng, "robustness", search_bots))
                sa = run.st(run.vectors(best.point, rrng, "robustness", search_bots))
                robustness_search = pl.DataFrame(
                    [
                        {
                            "metric": m.name,
                            "bots": str(search_bots),
                            "low": m.low,
                            "high": m.high,
                            "before": sb[m.name].value,
                            "after": sa[m.name].value,
                            "after_ci_low": sa[m.name].value - z95 * sa[m.name].se,
                            "after_ci_high": sa[m.name].value + z95 * sa[m.name].se,
                            "in_band": m.low <= sa[m.name].value <= m.high,
                            "games": sa[m.name].n,
                        }  # fmt: skip
                        for m in metrics
                    ]
                )
                before_s, after_s = _summary(metrics, sb), _summary(metrics, sa)
                run.notes.append(
                    f"search sample ({search_bots}, {rb * run.G:,} games a point): worst deviation "
                    f"{100 * before_s['worst_deviation']:.1f} -> {100 * after_s['worst_deviation']:.1f} points"
                )
            except ValueError as err:
                run.notes.append(f"search sample skipped: {err}")
        else:
            run.meter.slow = 0
            run.notes.append("search sample skipped: not enough budget left")

    # ---- tables
    cands: dict[str, Candidate] = {}
    for c in [*descent, *proposals, *pool, *finalists]:
        cands.setdefault(c.key, c)
    prow = []
    # a ladder's confirmation adds the confirming rungs' metrics to the rows: read every row
    hist = (
        pl.DataFrame(run.history, infer_schema_length=None) if ladder else pl.DataFrame(run.history)
    )
    for key, c in cands.items():
        h_rows = hist.filter(
            (pl.col("point") == key) & (pl.col("bots") == "") & (pl.col("stage") != "ablation")
        )
        if key in hold_st:
            summ = _summary(metrics, hold_st[key])
            src = "holdout"
        else:  # the largest search-side evaluation
            r = h_rows.sort("games", descending=True).row(0, named=True)
            summ = {k: r[k] for k in ("worst_deviation", "loss", "p_all_in_band")}
            src = "search"
        prow.append(
            {
                "edits": len(c.point),
                "total_change": _total_change(c.point, spc),
                "worst_deviation": summ["worst_deviation"],
                "loss": summ["loss"],
                "p_all_in_band": summ["p_all_in_band"],
                "stage": c.stage,
                "measured_on": src,
                "finalist": key in hold_st,
                "confirmed": bool(confirmed.get(key, False)),
                "best": key == best.key,
                "point": key,
            }  # fmt: skip
        )
    proposals_df = pl.DataFrame(
        prow,
        schema={
            "edits": pl.Int64, "total_change": pl.Float64, "worst_deviation": pl.Float64, "loss": pl.Float64,
            "p_all_in_band": pl.Float64, "stage": pl.String, "measured_on": pl.String, "finalist": pl.Boolean,
            "confirmed": pl.Boolean, "best": pl.Boolean, "point": pl.String,
        },
    )  # fmt: skip
    if proposals_df.height:
        pts = proposals_df.select("edits", "total_change", "worst_deviation").rows()
        pareto = [
            not any(o[0] <= p[0] and o[1] <= p[1] and o[2] <= p[2] and o != p for o in pts)
            for p in pts
        ]
        proposals_df = proposals_df.with_columns(pareto=pl.Series(pareto, dtype=pl.Boolean)).sort(
            "edits", "worst_deviation", "total_change", "point"
        )
    screen_rows = []
    for (name, d), eff in effects.items():
        for m in search_metrics:
            e = eff[m.name]
            screen_rows.append(
                {
                    "parameter": name,
                    "step": d,
                    "metric": m.name,
                    "effect": e.value,
                    "se": e.se,
                    "games": e.n,
                }
            )
    screen_df = pl.DataFrame(
        screen_rows,
        schema={
            "parameter": pl.String,
            "step": pl.Int64,
            "metric": pl.String,
            "effect": pl.Float64,
            "se": pl.Float64,
            "games": pl.Int64,
        },
    )
    best_df = pl.DataFrame(
        [
            {"parameter": n, "card": spc[n].card, "old": spc[n].default, "new": v}
            for n, v in best.point.items()
        ],
        schema={"parameter": pl.String, "card": pl.String, "old": num, "new": num},
    )
    before_df = _metric_table(metrics, base_hold, z95, run.ev)
    after_df = _metric_table(metrics, best_st, z95, run.ev)
    run.notes += cycle_notes(before_df, "start")
    if best.point:
        run.notes += cycle_notes(after_df, "best")
    return {
        "best": best_df,
        "best_confirmed": best_confirmed,
        "_best_point": dict(best.point),
        "proposals": proposals_df,
        "edits": edits,
        "before": before_df,
        "after": after_df,
        "robustness": robustness,
        "robustness_search": robustness_search,
        "history": hist,
        "screen": screen_df,
        "overrides": {**run.ev.base_params, **best.point},
        "notes": run.notes,
        "space": [p.name for p in space],
        "holdout_games": confirm_games,
        "holdout_blocks": hold_used,
        "screen_games": s * run.G,
        "suspects": suspects_df,
        "strategy": strategy,
        "diagnose_games": diagnose_games,
    }
