"""``diff(a, b, ...)``: the same seeds played under two setups (two parameter sets, card
files or bot lineups), the games whose winner flipped, and for one game the first decision
where the two part, with both replays side by side (issue 28; docs/replay.md). Written once
for every game.

>>> import ketharmad
>>> d = ketharmad.diff({"card_data": None}, {"card_data": "balanced"}, bots="heuristic", games=200)
>>> d.flips                      # polars: game, winner_a, winner_b, turns_a, turns_b, ...
>>> d.split(int(d.flips["game"][0]))   # where that game's two versions part
>>> d.write_html("flip.html")    # both replays side by side (the first flipped game)

Game ``i`` of either side is game ``i`` of the batch with ``seed``: the same deal and the same
bot streams (common random numbers), so a flipped winner comes from the difference between
the setups, not from luck. The batches are the game's fast batch (``simulate``); a replay is
re-played decision by decision (:func:`ketharmad.game.replay.record_game`), the same game.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Union

import polars as pl

from ..game.driver import driver_for
from ..game.replay import GameRecord, game_of, record_game
from ..game.spec import GameSpec
from ..game.validate import bot_label, check_int
from ..results.replay_html import replay_page, write_page
from ..results.report import format_table
from ..run.options import RunArg, RunOptions

__all__ = ["diff", "DiffResult", "SIDE_KEYS", "first_split"]

#: What one side of a diff may set (over the common setup): its bots and setup keywords.
SIDE_KEYS = ("bots", "params", "card_data", "decks", "format", "start_player", "seats")

#: Flipped games listed in the text summary at most.
SHOWN = 20


def _side(name: str, side: object) -> dict[str, Any]:
    if side is None:
        return {}
    if not isinstance(side, Mapping):
        raise ValueError(f"{name} must be a dict of what differs, e.g. {{'params': {{...}}}}, "
                         f"{{'card_data': 'balanced'}} or {{'bots': [...]}}; got {type(side).__name__}")  # fmt: skip
    unknown = [k for k in side if k not in SIDE_KEYS]
    if unknown:
        raise ValueError(f"{name}: unknown key {unknown[0]!r}; a side sets {', '.join(SIDE_KEYS)}")
    return dict(side)


def _merge(common: Mapping[str, Any], side: Mapping[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in common.items() if v is not None}
    for k, v in side.items():
        if k == "params" and isinstance(v, Mapping) and isinstance(out.get("params"), Mapping):
            out["params"] = {**out["params"], **v}
        elif v is not None:
            out[k] = v
    return out


def _label(side: Mapping[str, Any]) -> str:
    def show(v: Any) -> str:
        if isinstance(v, Mapping):
            return "{" + ", ".join(f"{k}={x}" for k, x in v.items()) + "}"
        if isinstance(v, (list, tuple)):
            return " ".join(bot_label(x) if isinstance(x, (str, Mapping)) else str(x) for x in v)
        return os.fspath(v) if isinstance(v, os.PathLike) else str(v)

    return "; ".join(f"{k} {show(v)}" for k, v in side.items()) or "the common setup"


def first_split(a: GameRecord, b: GameRecord) -> dict[str, Any]:
    """Where two recorded games part: ``decision`` (the index of the first decision whose
    seat, options or choice differ; the shorter game's length when one is a prefix of the
    other), ``log_line`` (the first log line that differs, or None) and ``text``."""
    n = min(len(a.decisions), len(b.decisions))
    k = next((i for i in range(n) if _key(a.decisions[i]) != _key(b.decisions[i])), n)
    la, lb = a.log, b.log
    line = next((i for i in range(min(len(la), len(lb))) if la[i] != lb[i]),
                None if len(la) == len(lb) else min(len(la), len(lb)))  # fmt: skip
    if k < n:
        da, db = a.decisions[k], b.decisions[k]
        if da.seat != db.seat:
            what = f"A asks {a.seat_names[da.seat]}, B asks {b.seat_names[db.seat]}"
        elif [o[1] for o in da.options] != [o[1] for o in db.options]:
            la_, lb_ = [o[1] for o in da.options], [o[1] for o in db.options]
            only_a = [x for x in la_ if x not in lb_]
            only_b = [x for x in lb_ if x not in la_]
            parts = ([f"only in A: {', '.join(map(repr, only_a[:3]))}"] if only_a else []) + (
                [f"only in B: {', '.join(map(repr, only_b[:3]))}"] if only_b else [])  # fmt: skip
            what = (f"{a.seat_names[da.seat]}'s options differ ({'; '.join(parts) or 'the same options in another order'}); "
                    f"A chose {da.chosen_label!r}, B chose {db.chosen_label!r}")  # fmt: skip
        else:
            what = (
                f"{a.seat_names[da.seat]} chose {da.chosen_label!r} in A, {db.chosen_label!r} in B"
            )
        text = f"the games part at decision {k + 1} (turn {da.turn} in A, {db.turn} in B): {what}"
    elif len(a.decisions) != len(b.decisions):
        text = f"the same first {n} decisions, then one game ends (A {len(a.decisions)}, B {len(b.decisions)} decisions)"
    else:
        text = f"the two games take the same {n} decisions"
    if line is not None:
        text += f"; the logs part at line {line + 1}"
    return {"decision": k, "log_line": line, "text": text}


def _key(d: Any) -> tuple[Any, ...]:
    return (d.seat, tuple(o[1] for o in d.options), d.chosen_label)


@dataclass
class DiffResult:
    """What :func:`diff` played: ``games`` (one row per game: ``game``, ``winner_a``,
    ``winner_b`` (-1: no winner), ``turns_a``, ``turns_b``, ``flipped``), :attr:`flips` (the
    flipped games), the two sides (``a``, ``b``: what each sets over the common setup) and
    their labels, and what both share (``game``, ``seed``, ``first_game``)."""

    game: str
    a: dict[str, Any]
    b: dict[str, Any]
    common: dict[str, Any]
    seed: int
    first_game: int
    games: pl.DataFrame
    seats: list[str]
    elapsed: float = 0.0
    _records: dict[tuple[int, str], GameRecord] = field(default_factory=dict, repr=False)

    @property
    def flips(self) -> pl.DataFrame:
        """The games whose winner differs between the two setups."""
        return self.games.filter(pl.col("flipped"))

    @property
    def label_a(self) -> str:
        return "A: " + _label(self.a)

    @property
    def label_b(self) -> str:
        return "B: " + _label(self.b)

    def _check_game(self, game: Optional[int]) -> int:
        if game is None:
            if self.flips.height == 0:
                raise ValueError("no game's winner flipped; choose one with index=... (a game of the run: "
                                 f"{self.first_game}..{self.first_game + self.games.height - 1})")  # fmt: skip
            return int(self.flips["game"][0])
        game = check_int("index", game, 0)
        if game not in set(self.games["game"].to_list()):
            raise ValueError(f"game {game} was not played: this diff played games "
                             f"{self.first_game}..{self.first_game + self.games.height - 1}")  # fmt: skip
        return game

    def records(self, game: Optional[int] = None) -> tuple[GameRecord, GameRecord]:
        """Game ``game`` (default: the first flipped one) recorded under A and under B."""
        g = self._check_game(game)
        out = []
        for side, setup in (("a", self.a), ("b", self.b)):
            if (g, side) not in self._records:
                s = _merge(self.common, setup)
                bots = s.pop("bots")
                self._records[g, side] = record_game(self.game, bots, self.seed, g, **s)
            out.append(self._records[g, side])
        return out[0], out[1]

    def split(self, game: Optional[int] = None) -> dict[str, Any]:
        """Where game ``game``'s two versions part (:func:`first_split`)."""
        return first_split(*self.records(game))

    def html(self, game: Optional[int] = None) -> str:
        """Both replays of game ``game`` side by side, one HTML page."""
        g = self._check_game(game)
        ra, rb = self.records(g)
        return replay_page([ra, rb], title=f"{self.game}: game {g} of the batch with seed {self.seed}, A against B",
                           labels=[self.label_a, self.label_b], split=first_split(ra, rb))  # fmt: skip

    def write_html(self, path: Union[str, os.PathLike[str]], game: Optional[int] = None,
                   overwrite: bool = False) -> Path:  # fmt: skip
        """Write :meth:`html` to ``path`` (atomically; an existing file needs ``overwrite``)."""
        from ..results.files import check_out_file

        out = check_out_file(path, (".html", ".htm"), overwrite=overwrite, name="path")
        return write_page(out, self.html(game), overwrite=overwrite)

    def text(self) -> str:
        n = self.games.height
        k = self.flips.height
        lines = [f"{self.game}: {n:,} games (seed {self.seed}, games {self.first_game}..{self.first_game + n - 1}) "
                 f"under two setups", f"  {self.label_a}", f"  {self.label_b}",
                 f"winner flipped in {k:,} of {n:,} games ({k / n:.1%})" if n else "no games"]  # fmt: skip
        for side in ("a", "b"):
            w = self.games[f"winner_{side}"]
            rates = ", ".join(
                f"{name} {int((w == s).sum()) / max(n, 1):.1%}" for s, name in enumerate(self.seats)
            )
            lines.append(f"  wins {side.upper()}: {rates}")
        if k:
            rows = [[r["game"], self._who(r["winner_a"]), self._who(r["winner_b"]), r["turns_a"], r["turns_b"]]
                    for r in self.flips.head(SHOWN).iter_rows(named=True)]  # fmt: skip
            lines += format_table(["game", "winner A", "winner B", "turns A", "turns B"], rows,
                                  [True, False, False, True, True])  # fmt: skip
            if k > SHOWN:
                lines.append(f"... and {k - SHOWN} more (DiffResult.flips)")
        return "\n".join(lines)

    def _who(self, seat: int) -> str:
        return "none" if seat < 0 else self.seats[seat]

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"DiffResult({self.game!r}, {self.games.height} games, {self.flips.height} flipped)"


def diff(
    a: Mapping[str, Any],
    b: Mapping[str, Any],
    game: Union[str, GameSpec] = "ketharmad",
    bots: Any = "random",
    games: int = 100,
    seed: int = 0,
    first_game: int = 0,
    run: RunArg = None,
    **setup: Any,
) -> DiffResult:
    """Play games ``first_game .. first_game + games - 1`` of the batch with ``seed`` under
    setup A and setup B and compare their winners game by game.

    ``a``, ``b``: what each side sets over the common setup (:data:`SIDE_KEYS`): ``bots``,
    ``params`` (merged over the common ``params``), ``card_data``, ``decks``, ``format``,
    ``start_player``, ``seats``; e.g. ``{"params": {"rules.starting_support": 25}}`` against
    ``{}``, two card files, or two bot lineups. ``game``, ``bots`` and ``setup`` (the keywords
    of :func:`ketharmad.play`) are common to both; ``run``: a :class:`ketharmad.RunOptions`
    (or a dict of its fields) whose ``threads`` the batches use. Both setups are checked before any game
    runs; two equal setups are a ValueError (nothing would differ). Returns a
    :class:`DiffResult` (``.games``, ``.flips``, ``.split(i)``, ``.write_html(path, i)``)."""
    sa, sb = _side("a", a), _side("b", b)
    threads = RunOptions.of(run).threads
    games = check_int("games", games, 1, 1_000_000)
    seed = check_int("seed", seed, 0)
    first_game = check_int("first_game", first_game, 0)
    common = {**{k: v for k, v in setup.items() if v is not None}, "bots": bots}
    unknown = [k for k in setup if k not in SIDE_KEYS]
    if unknown:
        raise ValueError(
            f"diff: unknown setup keyword {unknown[0]!r}; it takes {', '.join(SIDE_KEYS[1:])}"
        )
    specs = []
    for name, side in (("a", sa), ("b", sb)):
        s = _merge(common, side)
        side_bots = s.pop("bots")
        try:
            spec, checked = game_of(game, side_bots, **s)
        except ValueError as e:
            raise ValueError(f"setup {name.upper()}: {e}") from None
        specs.append((spec, checked))
    if specs[0] == specs[1]:
        raise ValueError("the two setups are the same (the same game, setup and bots): nothing to compare; "
                         "give what differs in a and b")  # fmt: skip
    t0 = time.perf_counter()
    results = []
    for spec, checked in specs:
        driver = driver_for(spec)
        r = driver.play(checked, games=games, seed=seed, first_game=first_game, threads=threads)
        results.append(r.games.select(pl.col("game").cast(pl.Int64), pl.col("winner").cast(pl.Int64),
                                      pl.col("turns").cast(pl.Int64)).sort("game"))  # fmt: skip
    ga, gb = results
    table = ga.join(gb, on="game", suffix="_b").rename({"winner": "winner_a", "turns": "turns_a"})
    table = table.select("game", "winner_a", "winner_b", "turns_a", "turns_b",
                         flipped=pl.col("winner_a") != pl.col("winner_b"))  # fmt: skip
    spec_a = specs[0][0]
    if spec_a.is_ketharmad:
        decks = spec_a.decks or ("ner", "tisza")
        seats = [f"P{s} {d}" for s, d in enumerate(decks)]
    else:
        sides = list(spec_a.sides)
        seats = [sides[s] if s < len(sides) else f"seat {s}" for s in range(len(specs[0][1]))]
    name = spec_a.name
    return DiffResult(game=name, a=sa, b=sb, common=common, seed=seed, first_game=first_game, games=table,
                      seats=seats, elapsed=time.perf_counter() - t0)  # fmt: skip
