"""Evaluating points (parameter overrides) for ``ketharmad.balance`` on fixed game blocks.

A *block* is a fixed slice of game indices of every cell the targets need: a 2-player cell
is (pair, start side) with ``games_2p`` games per block, a 4-player cell is one of the 24
seatings with ``games_4p`` games per block. Block ``b`` of cell ``c`` is the games
``c * CELL_STRIDE + b * size .. + size`` of the batch with the run's seed, so every point
plays exactly the same games on the same blocks (common random numbers) and the holdout
blocks (from :data:`HOLDOUT_BLOCK` on) are games no search stage ever sees.

Outcomes are cached in memory and in the journal (:class:`Journal`), keyed by (bots,
point, block range), so a resumed run replays no finished evaluation. Memory does not grow
with the run: the in-memory cache keeps at most :data:`CACHE_BYTES` of outcomes (least
recently used first out), and the journal keeps only each entry's place in its file. An
evaluation that left the cache is read back from the journal, or played again without one
(the same games: every game is a pure function of its seed and index).
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import os
import zlib
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np
import polars as pl

from ... import _core
from ...run.plan import Plan, run_plan
from ...run.plan import cell as plan_cell
from .metrics import MetricStats, paired, stats
from .targets import Metric, Targets

__all__ = ["Evaluator", "LadderEvaluator", "BlockCache", "Journal", "HOLDOUT_BLOCK", "DESCENT_BLOCK", "point_key", "MetricStats",
           "paired", "stats"]  # fmt: skip

#: Game-index distance between cells (a cell never reaches the next one's games).
CELL_STRIDE = 1 << 36
#: First block of the holdout game range (confirmation and ablation only).
HOLDOUT_BLOCK = 1 << 24
#: First block of the descent's rounds (each round plays fresh blocks from here on).
DESCENT_BLOCK = 1 << 20
_FOUR_P_CELL0 = 64  # 4-player cells come after every 2-player cell
JOURNAL_VERSION = 1
#: Most bytes of per-game outcomes the evaluator keeps in memory (5 bytes a game).
CACHE_BYTES = 256 * 1024**2


def point_key(point: Mapping[str, Any]) -> str:
    """Canonical JSON of a point (sorted names): the cache and journal key."""
    return json.dumps(dict(point), sort_keys=True, separators=(",", ":"))


def _pack(a: np.ndarray) -> str:
    return base64.b64encode(zlib.compress(np.ascontiguousarray(a).tobytes(), 6)).decode("ascii")


def _unpack(s: str, dtype: Any) -> np.ndarray:
    return np.frombuffer(zlib.decompress(base64.b64decode(s)), dtype=dtype)


class Journal:
    """An append-only JSON-lines file of finished evaluations.

    The first line is a header with what gives an evaluation its meaning (card data hash,
    seed, block sizes); every other line is one evaluation, written with one ``write`` call
    and flushed, so an interrupt leaves at most a partial last line, which the next open
    drops (the file is cut back to its last complete line).
    """

    def __init__(self, path: os.PathLike[str] | str, header: dict[str, Any]) -> None:
        self.path = os.fspath(path)
        # key -> (offset, length) of its line: entries are read back from the file on demand,
        # so the journal's memory does not grow with the games it holds
        self.index: dict[str, tuple[int, int]] = {}
        header = {"journal": "ketharmad-balance", "version": JOURNAL_VERSION, **header}
        exists = os.path.exists(self.path) and os.path.getsize(self.path) > 0
        if exists:
            with open(self.path, "rb") as f:
                first = f.readline()
                if not first.endswith(b"\n"):
                    raise ValueError(f"journal {self.path} has no complete header line")
                try:
                    old = json.loads(first.decode("utf-8", errors="replace"))
                except json.JSONDecodeError:
                    raise ValueError(
                        f"journal {self.path} is not a ketharmad balance journal"
                    ) from None
                if not isinstance(old, dict) or old.get("journal") != "ketharmad-balance":
                    raise ValueError(f"journal {self.path} is not a ketharmad balance journal")
                diff = [k for k in header if old.get(k) != header[k]]
                if diff:
                    raise ValueError(
                        f"journal {self.path} belongs to another run (different {', '.join(diff)}); "
                        "resume with the same card data, seed and bots, or use a new journal file"
                    )
                end = len(first)
                for line in f:  # one line at a time: memory does not grow with the file
                    if not line.endswith(b"\n"):
                        break  # a partial last line from an interrupted write
                    try:
                        e = json.loads(line.decode("utf-8", errors="replace"))
                        self.index[e["key"]] = (end, len(line))
                    except (json.JSONDecodeError, KeyError, TypeError):
                        pass
                    end += len(line)
            if end < os.path.getsize(self.path):
                with open(self.path, "r+b") as f:
                    f.truncate(end)
            self._f = open(self.path, "ab")
        else:
            d = os.path.dirname(os.path.abspath(self.path))
            os.makedirs(d, exist_ok=True)
            self._f = open(self.path, "wb")
            self._write(header)
        self._r: Any = None

    def _write(self, obj: dict[str, Any]) -> tuple[int, int]:
        line = (json.dumps(obj, separators=(",", ":")) + "\n").encode("utf-8")
        pos = self._f.tell()
        self._f.write(line)
        self._f.flush()
        return pos, len(line)

    def get(self, key: str) -> Optional[dict[str, Any]]:
        at = self.index.get(key)
        if at is None:
            return None
        if self._r is None:
            self._r = open(self.path, "rb")
        self._r.seek(at[0])
        return json.loads(self._r.read(at[1]).decode("utf-8"))

    def add(self, key: str, entry: dict[str, Any]) -> None:
        self.index[key] = self._write({"key": key, **entry})

    def close(self) -> None:
        for f in (self._f, self._r):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass


def _encode(out: Mapping[str, Mapping[str, np.ndarray]]) -> dict[str, Any]:
    return {c: {"w": _pack(v["winner"]), "t": _pack(v["turns"])} for c, v in out.items()}


def _decode(cells: Mapping[str, Any]) -> dict[str, dict[str, np.ndarray]]:
    return {
        c: {"winner": _unpack(v["w"], np.int8), "turns": _unpack(v["t"], np.int32)}
        for c, v in cells.items()
    }


def _nbytes(out: Mapping[str, Mapping[str, np.ndarray]]) -> int:
    return sum(a.nbytes for cell in out.values() for a in cell.values())


class _GamesCallback:
    """The plan runner's progress hook: reports each shard's games to ``on_games``."""

    def __init__(self, ev: Evaluator) -> None:
        self.ev = ev

    def advance(self, games: int) -> None:
        if self.ev.on_games is not None:
            self.ev.on_games(games)

    def interrupt(self) -> None:
        pass


@dataclass
class Cell:
    """One cell of an evaluation: its decks, fixed start seat and games per block."""

    key: str
    index: int
    decks: list[str]
    start: int
    size: int


class BlockCache:
    """The in-memory cache and the journal of an evaluator's outcomes: every evaluator (one
    per game family) plays ``(point, bots, block range)`` through :meth:`lookup`, which
    returns a cached or journaled entry or plays it, journals it and counts it."""

    def __init__(self, journal: Optional[Journal]) -> None:
        self.journal = journal
        self.cache: OrderedDict[str, dict[str, dict[str, np.ndarray]]] = OrderedDict()
        self.cache_bytes = 0
        self._played: set[str] = set()
        self.replayed_games = 0  # games played again after their outcomes left the cache
        self.evaluations = 0  # evaluations played now (not from the journal)
        self.games_played = 0

    def games_per_block(self) -> int:
        raise NotImplementedError

    def lookup(
        self,
        key: str,
        point: Mapping[str, Any],
        bots: Any,
        b0: int,
        b1: int,
        play: Callable[[], dict[str, dict[str, np.ndarray]]],
        encode: Callable[[Mapping[str, Mapping[str, np.ndarray]]], dict[str, Any]],
        decode: Callable[[Mapping[str, Any]], dict[str, dict[str, np.ndarray]]],
    ) -> dict[str, dict[str, np.ndarray]]:
        """The outcomes of ``key``: from the cache, the journal, or ``play()`` (journaled)."""
        hit = self.cache.get(key)
        if hit is not None:
            self.cache.move_to_end(key)
            return hit
        entry = self.journal.get(key) if self.journal is not None else None
        if entry is not None:
            out = decode(entry["cells"])
        else:
            out = play()
            if key in self._played:  # left the cache and no journal: the same games again
                self.replayed_games += (b1 - b0) * self.games_per_block()
            else:
                self._played.add(key)
                self.evaluations += 1
                self.games_played += (b1 - b0) * self.games_per_block()
            if self.journal is not None:
                self.journal.add(
                    key,
                    {"point": dict(point), "bots": bots, "b0": b0, "b1": b1, "cells": encode(out)},
                )
        self.cache[key] = out
        self.cache_bytes += _nbytes(out)
        while self.cache_bytes > CACHE_BYTES and len(self.cache) > 1:
            _, gone = self.cache.popitem(last=False)
            self.cache_bytes -= _nbytes(gone)
        return out


class Evaluator(BlockCache):
    """Plays Kétharmad points on blocks and turns outcomes into per-game metric vectors."""

    def __init__(
        self,
        text: str,
        targets: Targets,
        bots: Any,
        seed: int,
        threads: Optional[int],
        games_2p: int,
        games_4p: int,
        base_params: Mapping[str, Any],
        journal: Optional[Journal] = None,
        on_games: Optional[Callable[[int], None]] = None,
        executor: Any = None,
    ) -> None:
        self.text = text
        self.targets = targets
        self.bots = bots
        self.seed = seed
        self.threads = threads
        self.base_params = dict(base_params)
        self.journal = journal
        self.on_games = on_games
        self.executor = executor
        self._meter = _GamesCallback(self)
        self.metrics: list[Metric] = targets.metrics
        factions = list(_core.FACTIONS)
        all_pairs = [(a, b) for i, a in enumerate(factions) for b in factions[i + 1 :]]
        self.cells: list[Cell] = []
        for a, b in targets.pairs:
            k = all_pairs.index((a, b))
            for side in (0, 1):
                self.cells.append(Cell(f"{a}-{b}/{side}", 2 * k + side, [a, b], side, games_2p))
        self.seatings = list(itertools.permutations(factions, 4)) if targets.four_player else []
        for s, seating in enumerate(self.seatings):
            self.cells.append(Cell(f"4p/{s}", _FOUR_P_CELL0 + s, list(seating), 0, games_4p))
        BlockCache.__init__(self, journal)

    # ------------------------------------------------------------ games

    def games_per_block(self) -> int:
        return sum(c.size for c in self.cells)

    def valid(self, point: Mapping[str, Any]) -> bool:
        """Every point the search makes builds (each value was checked on its own)."""
        return True

    def metric_columns(self, m: Metric) -> dict[str, Any]:
        """The columns naming a metric in the before/after tables (after ``kind``)."""
        return {"faction": m.faction, "opponent": m.opponent}

    def metric_extra(self, m: Metric, x: MetricStats) -> dict[str, Any]:
        """Columns the before/after tables add at their end (none for Kétharmad)."""
        return {}

    def metric_schema(self) -> dict[str, Any]:
        return {"faction": pl.String, "opponent": pl.String}

    def _bots_for(self, bots: Any, n: int) -> list[Any]:
        return [dict(bots) if isinstance(bots, Mapping) else bots for _ in range(n)]

    def validate(self, point: Mapping[str, Any], bots: Any = None) -> None:
        """Every cell accepts the point (``ValueError`` naming it otherwise)."""
        bots = self.bots if bots is None else bots
        for c in self.cells:
            _core.validate(
                self.text, c.decks, self._bots_for(bots, len(c.decks)), self._params(point)
            )

    def _params(self, point: Mapping[str, Any]) -> dict[str, Any]:
        return {**self.base_params, **point}

    def outcomes(
        self, point: Mapping[str, Any], b0: int, b1: int, bots: Any = None
    ) -> dict[str, dict[str, np.ndarray]]:
        """Per cell: ``winner`` (int8, -1 none) and ``turns`` of blocks ``b0 .. b1 - 1``."""
        bots = self.bots if bots is None else bots
        key = json.dumps(
            [bots, point_key(point), b0, b1, [c.key for c in self.cells]], sort_keys=True
        )

        def play() -> dict[str, dict[str, np.ndarray]]:
            params = self._params(point)
            plan = Plan(self.seed)
            for c in self.cells:
                plan.add(plan_cell(
                    self.text, c.decks, self._bots_for(bots, len(c.decks)), params,
                    c.index * CELL_STRIDE + b0 * c.size, (b1 - b0) * c.size, start_player=c.start,
                    output="outcomes",
                ))  # fmt: skip
            out: dict[str, dict[str, np.ndarray]] = {}
            for c, g in zip(
                self.cells,
                run_plan(plan, threads=self.threads, progress=self._meter, executor=self.executor),
                strict=True,
            ):
                out[c.key] = {
                    "winner": np.asarray(g["winner"], dtype=np.int8),
                    "turns": np.asarray(g["turns"], dtype=np.int32),
                }
            return out

        return self.lookup(key, point, bots, b0, b1, play, _encode, _decode)

    # ------------------------------------------------------------ metrics

    def vectors(
        self, point: Mapping[str, Any], ranges: Sequence[tuple[int, int]], bots: Any = None
    ) -> dict[str, np.ndarray]:
        """Per metric, the per-game values over the block ranges, in a fixed game order (so
        two points' vectors pair game by game)."""
        parts = [self.outcomes(point, b0, b1, bots) for b0, b1 in ranges]
        cell = {
            c.key: {k: np.concatenate([p[c.key][k] for p in parts]) for k in ("winner", "turns")}
            for c in self.cells
        }
        out: dict[str, np.ndarray] = {}
        for m in self.metrics:
            if m.kind == "2p":
                a, b = m.faction, m.opponent
                assert a is not None and b is not None  # a 2p metric names both
                order = list(_core.FACTIONS)
                x, y = sorted((a, b), key=order.index)
                seat = 0 if a == x else 1
                w = np.concatenate([cell[f"{x}-{y}/{s}"]["winner"] for s in (0, 1)])
                out[m.name] = (w == seat).astype(np.float64)
            elif m.kind == "4p":
                vs = []
                for s, seating in enumerate(self.seatings):
                    vs.append(
                        (cell[f"4p/{s}"]["winner"] == seating.index(m.faction)).astype(np.float64)
                    )
                out[m.name] = np.concatenate(vs)
            elif m.kind == "start":
                vs = []
                for c in self.cells:
                    if len(c.decks) == 2:
                        vs.append((cell[c.key]["winner"] == c.start).astype(np.float64))
                out[m.name] = np.concatenate(vs)
            elif m.kind in ("length", "length_mean"):  # the game's turns, 2- or 4-player games
                n = getattr(m, "players", 2)
                out[m.name] = np.concatenate(
                    [
                        cell[c.key]["turns"].astype(np.float64)
                        for c in self.cells
                        if len(c.decks) == n
                    ]
                )
            else:  # turns per player, 2-player games
                out[m.name] = np.concatenate(
                    [cell[c.key]["turns"] / 2.0 for c in self.cells if len(c.decks) == 2]
                )
        return out


class LadderEvaluator:
    """Kétharmad's evaluator over a ladder of bots (``[ladder]``): one :class:`Evaluator` per
    rung, all on the same seeds and blocks (a rung's block ``b`` of cell ``c`` is the same
    deals as every other rung's: common random numbers across rungs), with every rung's
    metrics named ``"<rung>: <metric>"``.

    The search stages see the *screen* rungs only (:attr:`metrics`, :meth:`games_per_block`);
    :meth:`confirm` adds the confirming rungs for the confirmation and what follows it, so a
    point is confirmed only when every metric is in band under every rung.
    :attr:`rung_games` counts each rung's games (first sight of a point and block range,
    as the run's budget does), split into the search stages and the confirmation."""

    def __init__(
        self,
        text: str,
        targets: Targets,
        seed: int,
        threads: Optional[int],
        games_2p: int,
        games_4p: int,
        base_params: Mapping[str, Any],
        journal: Optional[Journal] = None,
        executor: Any = None,
    ) -> None:
        import dataclasses

        assert targets.ladder is not None
        self.ladder = targets.ladder
        self.text = text
        self.targets = targets
        self.base_params = dict(base_params)
        self.rungs = list(self.ladder.rungs)
        self.subs = [
            Evaluator(text, dataclasses.replace(targets, metrics=list(r.metrics), ladder=None), r.spec, seed,
                      threads, games_2p, games_4p, base_params, journal=journal, executor=executor)
            for r in self.rungs
        ]  # fmt: skip
        first = next(r for r in self.rungs if r.screen)
        #: the bots of the checks that need one (the first screening rung)
        self.bots = first.spec
        #: metric name -> (rung index, the rung's own metric name)
        self.source: dict[str, tuple[int, str]] = {}
        self.all_metrics: list[Metric] = []
        for i, r in enumerate(self.rungs):
            for m in r.metrics:
                lm = dataclasses.replace(m, name=f"{r.name}: {m.name}")
                self.source[lm.name] = (i, m.name)
                self.all_metrics.append(lm)
        self.screen_metrics = [
            m for m in self.all_metrics if self.rungs[self.source[m.name][0]].screen
        ]
        self.phase = "search"
        #: (rung name, "search" | "confirm") -> games
        self.rung_games: dict[tuple[str, str], int] = {}
        self._counted: set[str] = set()
        self._on_games: Optional[Callable[[int], None]] = None

    # ------------------------------------------------------------ the phases

    @property
    def active(self) -> list[int]:
        """The rungs played now: the screening ones, or every rung once confirming."""
        return [i for i, r in enumerate(self.rungs) if r.screen or self.phase == "confirm"]

    @property
    def metrics(self) -> list[Metric]:
        return self.all_metrics if self.phase == "confirm" else self.screen_metrics

    def confirm(self) -> None:
        """From here on every rung plays (the confirmation, ablation and what follows)."""
        self.phase = "confirm"

    def rung_of(self, metric_name: str) -> str:
        return self.rungs[self.source[metric_name][0]].name

    # ------------------------------------------------------------ the evaluator interface

    @property
    def on_games(self) -> Optional[Callable[[int], None]]:
        return self._on_games

    @on_games.setter
    def on_games(self, f: Optional[Callable[[int], None]]) -> None:
        self._on_games = f
        for s in self.subs:
            s.on_games = f

    @property
    def evaluations(self) -> int:
        return sum(s.evaluations for s in self.subs)

    @property
    def games_played(self) -> int:
        return sum(s.games_played for s in self.subs)

    @property
    def replayed_games(self) -> int:
        return sum(s.replayed_games for s in self.subs)

    def games_per_block(self) -> int:
        return sum(self.subs[i].games_per_block() for i in self.active)

    def valid(self, point: Mapping[str, Any]) -> bool:
        return True

    def validate(self, point: Mapping[str, Any], bots: Any = None) -> None:
        """Every rung accepts the point (``ValueError`` naming the rung otherwise)."""
        for r, s in zip(self.rungs, self.subs, strict=True):
            try:
                s.validate(point, bots)
            except ValueError as e:
                raise ValueError(f"targets.ladder.rungs ({r.name}): {e}") from None

    def outcomes(
        self, point: Mapping[str, Any], b0: int, b1: int, bots: Any = None
    ) -> dict[str, dict[str, np.ndarray]]:
        """Every active rung's outcomes of blocks ``b0 .. b1 - 1`` (cells ``<rung>/<cell>``)."""
        if bots is not None:
            raise ValueError("a [ladder] measures its rungs' bots only (no second bot profile)")
        out: dict[str, dict[str, np.ndarray]] = {}
        for i in self.active:
            r, s = self.rungs[i], self.subs[i]
            key = point_key({"r": r.name, "p": dict(point), "b": [b0, b1]})
            if key not in self._counted:
                self._counted.add(key)
                k = (r.name, self.phase)
                self.rung_games[k] = self.rung_games.get(k, 0) + (b1 - b0) * s.games_per_block()
            for c, v in s.outcomes(point, b0, b1).items():
                out[f"{r.name}/{c}"] = v
        return out

    def vectors(
        self, point: Mapping[str, Any], ranges: Sequence[tuple[int, int]], bots: Any = None
    ) -> dict[str, np.ndarray]:
        """Per metric of the active rungs, the per-game values over the block ranges."""
        if bots is not None:
            raise ValueError("a [ladder] measures its rungs' bots only (no second bot profile)")
        out: dict[str, np.ndarray] = {}
        for i in self.active:
            r = self.rungs[i]
            v = self.subs[i].vectors(point, ranges)
            for m in r.metrics:
                out[f"{r.name}: {m.name}"] = v[m.name]
        return out

    def metric_columns(self, m: Metric) -> dict[str, Any]:
        """The rung, then the faction and opponent as Kétharmad's evaluator names them."""
        return {"rung": self.rung_of(m.name), "faction": m.faction, "opponent": m.opponent}

    def metric_extra(self, m: Metric, x: MetricStats) -> dict[str, Any]:
        return {}

    def metric_schema(self) -> dict[str, Any]:
        return {"rung": pl.String, "faction": pl.String, "opponent": pl.String}


def card_text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
