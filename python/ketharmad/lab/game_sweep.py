"""Parameter sweeps of the games on the generic harness (Schotten Totten 2, Osztrakon; issue 14).

``ketharmad.sweep(grid, game="schotten_totten_2", bots=["greedy", "greedy"], games=N)`` plays
games ``0 .. N-1`` of the batch with ``seed`` at every point of the grid (common random
numbers: the same game seeds at every point) through :func:`ketharmad.games.simulate_game`, and
reports per point and seat (side) the win rate with its Wilson 95 % interval, the games
without a winner, the unfinished games and the mean turns, and per seat the paired difference
to the baseline point (mean ± 1.96·sd/√n of the per-game differences of "this seat won") and
whether it is significant. A game of more seats (Osztrakon, 5–12) also reports the spread
between the seats' win rates and the largest distance of a seat's rate from the even share
1/n.

The grid is parsed by :func:`ketharmad.lab.sweep.grid_points` (the Kétharmad sweep's), the
values checked against the game's parameter registry (:func:`ketharmad.games`) before any
game runs, the intervals are those of :mod:`ketharmad.stats`, and the result is a
:class:`~ketharmad.results.lab.LabResult` (text, Markdown, plots, Parquet with provenance).
"""

from __future__ import annotations

import difflib
import json
import math
import os
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Optional, Union

import numpy as np
import polars as pl

from .. import _core
from .._version import __version__
from ..game.harness import _game_info
from ..game.harness import check_harness_bots as check_game_bots
from ..game.spec import spec_of
from ..game.validate import check_int, check_seed, check_threads
from ..results.files import _json
from ..results.lab import LabResult
from ..results.lab_report import _figure, _save, _slug, md_table, require_matplotlib
from ..results.report import ci_text, format_table, pct, signed_pct
from ..run.cluster import check_cluster_arg, executor_for
from ..run.harness import simulate_game
from ..stats import Z95, wilson_interval
from .grid import grid_points

__all__ = ["game_sweep", "GameSweepResult", "harness_info", "check_game_params", "check_game_bots", "play_point",
           "PointOutcomes"]  # fmt: skip

ParamValue = Union[int, float, bool, str]


# ---------------------------------------------------------------- checks shared with the balancer


def harness_info(game: object) -> dict[str, Any]:
    """The :func:`ketharmad.games` entry of a game on the generic harness."""
    if not isinstance(game, str):
        raise ValueError(f"game must be a name such as 'schotten_totten_2', got {game!r}")
    if spec_of(game).is_ketharmad:
        raise ValueError("this is the harness-game path; Kétharmad runs through the Kétharmad lab")
    return _game_info(game)


def _scalar(name: str, value: object, where: str) -> ParamValue:
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        if not math.isfinite(float(value)):
            raise ValueError(f"{where}: parameter {name!r}: value {value!r} is not a finite number")
        return float(value)
    if isinstance(value, str):
        return value
    raise ValueError(f"{where}: parameter {name!r}: value must be an int, float, bool or str, "
                     f"got {type(value).__name__} {value!r}")  # fmt: skip


def _shape(params: object, info: Mapping[str, Any], where: str) -> dict[str, ParamValue]:
    """Names known to the game and values of a plain type (ranges: :func:`check_game_params`)."""
    if params is None:
        return {}
    if not isinstance(params, Mapping):
        raise ValueError(f"{where} must be a dict of {{name: value}}, got {type(params).__name__}")
    known = {p["name"]: p for p in info["parameters"]}
    out: dict[str, ParamValue] = {}
    for name, value in params.items():
        if not isinstance(name, str):
            raise ValueError(f"{where}: parameter names must be strings, got {name!r}")
        if name not in known:
            similar = difflib.get_close_matches(name, sorted(known), n=3, cutoff=0.6)
            hint = f" (similar: {', '.join(similar)})" if similar else ""
            raise ValueError(f"{where}: unknown parameter {name!r} of {info['name']}{hint}; "
                             f"`ketharmad games` lists them")  # fmt: skip
        v = _scalar(name, value, where)
        p = known[name]
        if p["kind"] == "int" and isinstance(v, float) and v.is_integer():
            v = int(v)
        out[name] = v
    return out


def check_game_params(
    game: str, seats: int, params: object, where: str = "params"
) -> dict[str, ParamValue]:
    """``params`` checked against the game's registry (names, kinds, ranges, choices, and the
    rules' own cross-checks such as a hand that the deck cannot deal): ``ValueError`` naming
    the parameter, before any game runs."""
    info = harness_info(game)
    out = _shape(params, info, where)
    try:
        _core.HarnessGame(game, seats, 0, 0, out or None)
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None
    return out


def sides_of(info: Mapping[str, Any], seats: int) -> list[str]:
    """Seat names: the game's sides (attacker, defender) or ``seat 0`` ...."""
    sides = list(info.get("sides") or [])
    return [sides[s] if s < len(sides) else f"seat {s}" for s in range(seats)]


class PointOutcomes:
    """The per-game outcomes of one point: ``won`` (games × seats bool), ``turns``,
    ``no_winner``, ``unfinished`` and the ``games`` table of :func:`ketharmad.games.simulate_game`."""

    def __init__(self, result: Any) -> None:
        g = result.games.sort("game")
        p = result.players.sort("game", "seat")
        seats = len(result.bots)
        self.n = g.height
        self.seats = seats
        self.won = p["won"].to_numpy().reshape(self.n, seats).astype(bool)
        self.turns = g["turns"].to_numpy().astype(np.float64)
        self.no_winner = (g["winners_mask"] == 0).to_numpy()
        self.unfinished = g["unfinished"].to_numpy().astype(bool)
        self.games = g


def play_point(game: str, bots: list[str], games: int, seed: int, threads: Optional[int],
               params: Mapping[str, ParamValue], first_game: int = 0,
               run: Optional[Mapping[str, Any]] = None) -> PointOutcomes:  # fmt: skip
    """Games ``first_game .. first_game + games - 1`` of the batch ``seed`` at ``params``;
    ``run``: the ``chunk_size``/``executor`` of :func:`ketharmad.games.simulate_game`."""
    return PointOutcomes(simulate_game(game, bots, games=games, seed=seed, threads=threads, params=dict(params),
                                       first_game=first_game, **(run or {})))  # fmt: skip


def paired_diff(a: np.ndarray, b: np.ndarray) -> tuple[float, Optional[float], Optional[float]]:
    """Mean of the per-game differences ``a - b`` and its 95 % interval (None when every
    difference is the same or there are fewer than 2 games: the interval is degenerate)."""
    d = a.astype(np.float64) - b.astype(np.float64)
    n = d.size
    mean = float(d.mean()) if n else float("nan")
    if n < 2:
        return mean, None, None
    sd = float(d.std(ddof=1))
    if sd == 0:
        return mean, None, None
    h = Z95 * sd / math.sqrt(n)
    return mean, mean - h, mean + h


# ---------------------------------------------------------------- the sweep


def _param_column(values: list[Any]) -> pl.Series:
    present = [v for v in values if v is not None]
    if present and all(isinstance(v, bool) for v in present):
        return pl.Series(values, dtype=pl.Boolean)
    if present and all(isinstance(v, int) and not isinstance(v, bool) for v in present):
        return pl.Series(values, dtype=pl.Int64)
    if present and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        return pl.Series([None if v is None else float(v) for v in values], dtype=pl.Float64)
    return pl.Series([None if v is None else str(v) for v in values], dtype=pl.String)


def _baseline(
    baseline: object, points: list[dict[str, ParamValue]], defaults: Mapping[str, Any]
) -> int:
    if baseline is None:
        for i, p in enumerate(points):  # the point holding the current values, else the first
            if all(defaults.get(k) == v for k, v in p.items()):
                return i
        return 0
    if isinstance(baseline, bool) or not isinstance(baseline, (int, Mapping)):
        raise ValueError(f"baseline must be a point index or a point dict, got {baseline!r}")
    if isinstance(baseline, int):
        if not 0 <= baseline < len(points):
            raise ValueError(f"baseline {baseline} is not a point index (0..{len(points) - 1})")
        return baseline
    for i, p in enumerate(points):
        if p == dict(baseline):
            return i
    raise ValueError(f"baseline {dict(baseline)} is not a point of the grid")


def game_sweep(
    grid: Any,
    game: str,
    bots: Any = None,
    games: int = 1000,
    seed: int = 0,
    threads: Optional[int] = None,
    params: Optional[Mapping[str, Any]] = None,
    baseline: Union[None, int, Mapping[str, Any]] = None,
    chunk_size: Optional[int] = None,
    executor: Any = None,
    cluster: Any = None,
) -> GameSweepResult:
    """The sweep of a harness game; see :func:`ketharmad.sweep` (``game=``). ``chunk_size``,
    ``executor`` and ``cluster`` run every point's games as :func:`ketharmad.games.simulate_game`
    runs them (points one after the other; a cluster opened once for the call)."""
    info = harness_info(game)
    bots_ = check_game_bots(game, bots)
    seats = len(bots_)
    games_ = check_int("games", games, 1)
    seed_ = check_seed(seed)
    threads_ = check_threads(threads)
    base = check_game_params(game, seats, params, "params")
    points = grid_points(grid, check=lambda p: _shape(p, info, "grid"))
    for i, p in enumerate(points):  # every point checked before any game runs
        check_game_params(game, seats, {**base, **p}, f"grid point {i} {p}")
    defaults = {p["name"]: p["default"] for p in info["parameters"]}
    current = {**defaults, **base}
    base_index = _baseline(baseline, points, current)
    sides = sides_of(info, seats)

    if chunk_size is not None:
        check_int("chunk_size", chunk_size, 1)
    check_cluster_arg(cluster, executor)
    t0 = time.perf_counter()
    with executor_for(executor, cluster) as ex:
        run = {"chunk_size": chunk_size, "executor": ex}
        outs = [
            play_point(game, bots_, games_, seed_, threads_, {**base, **p}, run=run) for p in points
        ]
    elapsed = time.perf_counter() - t0

    names: list[str] = []
    for p in points:
        names += [n for n in p if n not in names]
    points_df = pl.DataFrame({
        "point": pl.Series(range(len(points)), dtype=pl.Int32),
        "params": [json.dumps(p, sort_keys=True) for p in points],
        **{n: _param_column([p.get(n) for p in points]) for n in names},
    })  # fmt: skip
    b = outs[base_index]
    seat_rows = []
    point_rows = []
    even = 1.0 / seats
    for i, o in enumerate(outs):
        rates = []
        for s in range(seats):
            w = int(o.won[:, s].sum())
            lo, hi = wilson_interval(w, o.n)
            dlo: Optional[float]
            dhi: Optional[float]
            if i == base_index:
                diff, dlo, dhi = 0.0, 0.0, 0.0
            else:
                diff, dlo, dhi = paired_diff(o.won[:, s], b.won[:, s])
            sig = (dlo is not None and dhi is not None and (dlo > 0 or dhi < 0)) or (
                dlo is None and diff != 0 and o.n >= 2
            )
            rates.append(w / o.n)
            seat_rows.append({"point": i, "seat": s, "side": sides[s], "bot": bots_[s], "games": o.n, "wins": w,
                              "win_rate": w / o.n, "ci_low": lo, "ci_high": hi, "even_share": even,
                              "baseline": i == base_index, "diff": diff, "diff_ci_low": dlo, "diff_ci_high": dhi,
                              "significant": bool(sig) and i != base_index})  # fmt: skip
        tdiff, tlo, thi = (0.0, 0.0, 0.0) if i == base_index else paired_diff(o.turns, b.turns)
        point_rows.append({"point": i, "baseline": i == base_index, "games": o.n,
                           "no_winner": int(o.no_winner.sum()), "unfinished": int(o.unfinished.sum()),
                           "mean_turns": float(o.turns.mean()), "turns_diff": tdiff, "turns_diff_ci_low": tlo,
                           "turns_diff_ci_high": thi, "spread": max(rates) - min(rates),
                           "max_dev_even": max(abs(r - even) for r in rates)})  # fmt: skip
    schema = {"point": pl.Int32, "diff_ci_low": pl.Float64, "diff_ci_high": pl.Float64}
    table = (
        pl.DataFrame(seat_rows, schema_overrides=schema)
        .join(points_df.drop("params"), on="point", how="left")
        .select(
            "point",
            *names,
            "seat",
            "side",
            "bot",
            "games",
            "wins",
            "win_rate",
            "ci_low",
            "ci_high",
            "even_share",
            "baseline",
            "diff",
            "diff_ci_low",
            "diff_ci_high",
            "significant",
        )  # fmt: skip
    )
    summary = (
        pl.DataFrame(
            point_rows,
            schema_overrides={
                "point": pl.Int32,
                "turns_diff_ci_low": pl.Float64,
                "turns_diff_ci_high": pl.Float64,
            },
        )  # fmt: skip
        .join(points_df, on="point", how="left")
        .select(
            "point",
            "params",
            *names,
            "baseline",
            "games",
            "no_winner",
            "unfinished",
            "mean_turns",
            "turns_diff",
            "turns_diff_ci_low",
            "turns_diff_ci_high",
            "spread",
            "max_dev_even",
        )  # fmt: skip
    )
    rows = pl.concat([o.games.select("game", "seed", "winner", "winners_mask", "turns", "end_reason", "unfinished")
                      .with_columns(point=pl.lit(i, dtype=pl.Int32)) for i, o in enumerate(outs)])  # fmt: skip
    return GameSweepResult(
        game=game, table=table, summary=summary, points=points_df, games=rows.select("point", pl.exclude("point")),
        baseline=base_index, parameters=names, bots=bots_, sides=sides, seed=seed_, params=base,
        games_per_point=games_, elapsed=elapsed,
    )  # fmt: skip


class GameSweepResult(LabResult):
    """The result of :func:`ketharmad.sweep` with a harness ``game``.

    Attributes:
        table: one row per point and seat: ``point``, one column per swept parameter,
            ``seat, side, bot, games, wins, win_rate, ci_low, ci_high`` (Wilson 95 %),
            ``even_share`` (1/seats), ``baseline``, and against the baseline point ``diff``
            (paired: the same games) with ``diff_ci_low``/``diff_ci_high`` (mean ± 1.96·sd/√n
            of the per-game differences; null when every difference is the same) and
            ``significant`` (the interval excludes 0, or every game changed the same way).
        summary: one row per point: ``point, params`` (JSON), the swept parameters,
            ``baseline, games, no_winner, unfinished, mean_turns``, ``turns_diff`` (paired,
            with its interval), ``spread`` (largest minus smallest seat win rate) and
            ``max_dev_even`` (largest ``|win rate - 1/seats|``).
        points: ``point, params`` and the swept parameters.
        games: one row per point and game: ``point, game, seed, winner, winners_mask, turns,
            end_reason, unfinished`` (the ``seed`` column is the same at every point).
        game, bots, sides, seed, params, baseline, parameters, games_per_point, elapsed: the run.
    """

    kind = "sweep"

    def __init__(self, **kw: Any) -> None:
        self.game: str = kw["game"]
        self.table: pl.DataFrame = kw["table"]
        self.summary: pl.DataFrame = kw["summary"]
        self.points: pl.DataFrame = kw["points"]
        self.games: pl.DataFrame = kw["games"]
        self.baseline: int = kw["baseline"]
        self.parameters: list[str] = kw["parameters"]
        self.bots: list[str] = kw["bots"]
        self.sides: list[str] = kw["sides"]
        self.seed: int = kw["seed"]
        self.params: dict[str, ParamValue] = kw["params"]
        self.games_per_point: int = kw["games_per_point"]
        self.elapsed: float = kw["elapsed"]
        self.card_data = self.game
        self._card_text = ""

    @property
    def n_games(self) -> int:
        return int(self.games.height)

    def tables(self) -> dict[str, pl.DataFrame]:
        return {"game_sweep": self.table, "game_sweep_summary": self.summary, "game_sweep_points": self.points,
                "game_sweep_games": self.games}  # fmt: skip

    def provenance(self) -> dict[str, Any]:
        return harness_provenance(self, self.kind)

    def _provenance(self) -> dict[str, Any]:
        return harness_parquet_provenance(self, self.kind)

    def text(self) -> str:
        return "\n".join(_text_lines(self))

    def _markdown(self, folder: Optional[Path], plots: bool) -> list[str]:
        return _markdown(self, folder, plots)

    def plots(self, folder: Union[str, os.PathLike[str]]) -> list[Path]:
        """One plot per swept parameter: each seat's win rate (Wilson 95 %) against its values."""
        root = Path(folder)
        root.mkdir(parents=True, exist_ok=True)
        return [
            plot_game_sweep(self, n, root / f"game_sweep_{_slug(n)}.png") for n in self.parameters
        ]


# ---------------------------------------------------------------- provenance of harness runs


def harness_provenance(result: Any, kind: str) -> dict[str, Any]:
    """The provenance of a harness-game run: the game instead of card data."""
    return {"kind": kind, "version": __version__, "game": result.game, "card_data": result.game,
            "card_data_hash": "", "seed": result.seed, "bots": result.bots, "params": dict(result.params),
            "decks": {"game": result.game, "sides": result.sides}, "games": result._games_played(),
            "plan": None}  # fmt: skip


def harness_parquet_provenance(result: Any, kind: str) -> dict[str, Any]:
    """The Parquet provenance columns (:data:`ketharmad.results.files.PROVENANCE_COLUMNS`); the card
    data hash column holds ``game:<name>``, ``run_decks`` the game and its sides."""
    p = harness_provenance(result, kind)
    return {"run_kind": kind, "run_version": __version__, "run_card_data_hash": f"game:{result.game}",
            "run_params": _json(p["params"]), "run_bots": _json(p["bots"]), "run_decks": _json(p["decks"]),
            "run_seed": int(p["seed"]), "run_games": int(p["games"])}  # fmt: skip


def harness_provenance_md(result: Any, run_id: Optional[str] = None) -> list[str]:
    import datetime as _dt

    lines = [
        f"* created: {_dt.datetime.now(_dt.UTC).strftime('%Y-%m-%d %H:%M:%S UTC')}",
        f"* ketharmad {__version__}, game `{result.game}`",
        f"* bots: `{result.bots}`; seed {result.seed}; games {result._games_played():,}",
        f"* parameter overrides: `{json.dumps(dict(result.params), sort_keys=True)}`",
        f"* wall time: {result.elapsed:.1f} s",
    ]
    if run_id:
        lines.append(f"* run id: `{run_id}`")
    return lines


# ---------------------------------------------------------------- text, Markdown, plots


def _label(r: Mapping[str, Any], names: Sequence[str]) -> str:
    return ", ".join(f"{n}={r[n]}" for n in names if r.get(n) is not None) or "(defaults)"


def diff_ci_text(low: Optional[float], high: Optional[float]) -> str:
    """``[+1.2, +3.4] pp`` (``-`` when undefined)."""
    if low is None or high is None:
        return "-"
    return f"[{100 * low:+.1f}, {100 * high:+.1f}] pp"


def _sig(r: Mapping[str, Any]) -> str:
    return "*" if r["significant"] else ""


def _rows(res: GameSweepResult) -> tuple[list[str], list[list[str]], list[bool]]:
    """Per point and seat (two seats: the seat-0 side only, the other is its complement up
    to the games without a winner)."""
    headers = [
        "point",
        "parameters",
        "seat",
        "bot",
        "win rate",
        "95% CI",
        "vs baseline",
        "95% CI",
        "sig",
    ]
    rows = []
    t = res.table if len(res.bots) > 2 else res.table.filter(pl.col("seat") == 0)
    for r in t.iter_rows(named=True):
        rows.append([str(r["point"]) + (" (base)" if r["baseline"] else ""), _label(r, res.parameters),
                     r["side"], r["bot"], pct(r["win_rate"]), ci_text(r["ci_low"], r["ci_high"]),
                     "" if r["baseline"] else signed_pct(r["diff"]),
                     "" if r["baseline"] else diff_ci_text(r["diff_ci_low"], r["diff_ci_high"]), _sig(r)])  # fmt: skip
    return headers, rows, [True, False, False, False, True, False, True, False, False]


def _point_rows(res: GameSweepResult) -> tuple[list[str], list[list[str]], list[bool]]:
    many = len(res.bots) > 2
    headers = [
        "point",
        "parameters",
        "games",
        "no winner",
        "unfinished",
        "mean turns",
        "turns vs base",
    ]
    headers += ["seat spread", "max |rate - 1/n|"] if many else []
    rows = []
    for r in res.summary.iter_rows(named=True):
        row = [str(r["point"]) + (" (base)" if r["baseline"] else ""), _label(r, res.parameters), f"{r['games']:,}",
               f"{r['no_winner']:,}", f"{r['unfinished']:,}", f"{r['mean_turns']:.2f}",
               "" if r["baseline"] else f"{r['turns_diff']:+.2f}"]  # fmt: skip
        if many:
            row += [
                signed_pct(r["spread"]).replace("+", ""),
                signed_pct(r["max_dev_even"]).replace("+", ""),
            ]
        rows.append(row)
    return (
        headers,
        rows,
        [True, False, True, True, True, True, True] + ([True, True] if many else []),
    )


def _text_lines(res: GameSweepResult) -> list[str]:
    seats = len(res.bots)
    out = [f"sweep of {res.game}: {res.points.height} point(s) × {res.games_per_point:,} games (seed {res.seed}, "
           f"the same games at every point), {seats} seats: "
           + ", ".join(f"{s} {b}" for s, b in zip(res.sides, res.bots, strict=True)),
           f"differences are against point {res.baseline}, game by game (paired 95% interval); * = significant"]  # fmt: skip
    if res.params:
        out.append(f"fixed overrides: {json.dumps(res.params, sort_keys=True)}")
    out.append("")
    h, r, right = _rows(res)
    out += format_table(h, r, right)
    out.append("")
    h, r, right = _point_rows(res)
    out += format_table(h, r, right)
    out.append(f"({res.elapsed:.1f} s)")
    return out


def _markdown(res: GameSweepResult, folder: Optional[Path], plots: bool) -> list[str]:
    out = [f"# Parameter sweep of {res.game}: {', '.join(res.parameters) or 'explicit points'}", ""]
    out += harness_provenance_md(res)
    out += ["", f"{res.points.height} points × {res.games_per_point:,} games; every point plays the same game "
            f"seeds (common random numbers). Differences are against point {res.baseline} game by game (paired "
            "95% interval: mean ± 1.96·sd/√n of the per-game differences).", "", "## Win rates", ""]  # fmt: skip
    h, r, right = _rows(res)
    out += [md_table(h, r, right), "", "## Per point", ""]
    h, r, right = _point_rows(res)
    out += [md_table(h, r, right), ""]
    if plots and folder is not None:
        for name in res.parameters:
            fname = f"game_sweep_{_slug(name)}.png"
            plot_game_sweep(res, name, folder / fname)
            out += [f"![win rate vs {name}]({fname})", ""]
    return out


def plot_game_sweep(res: GameSweepResult, name: str, path: Path) -> Path:
    """Each seat's win rate (Wilson 95 %) against the values of ``name``, the other swept
    parameters at their baseline values; the baseline value and the even share are marked."""
    require_matplotlib()
    base = res.points.filter(pl.col("point") == res.baseline).row(0, named=True)
    keep = res.points
    for other in res.parameters:
        if other != name:
            keep = keep.filter(pl.col(other).eq_missing(base[other]))
    keep = keep.filter(pl.col(name).is_not_null())
    t = res.table.filter(pl.col("point").is_in(keep["point"].to_list()))
    values = sorted(keep[name].unique().to_list(), key=lambda v: (str(type(v)), v))
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
    pos = {v: (float(v) if numeric else float(i)) for i, v in enumerate(values)}
    fig = _figure(7.5, 4.5)
    ax = fig.add_subplot(1, 1, 1)
    seats = len(res.bots) if len(res.bots) > 2 else 1
    for s in range(seats):
        part = t.filter(pl.col("seat") == s).sort(name)
        xs = [pos[v] for v in part[name].to_list()]
        y = [100 * x for x in part["win_rate"].to_list()]
        err = [[100 * (a - lo) for a, lo in zip(part["win_rate"].to_list(), part["ci_low"].to_list(), strict=True)],
               [100 * (hi - a) for a, hi in zip(part["win_rate"].to_list(), part["ci_high"].to_list(), strict=True)]]  # fmt: skip
        ax.errorbar(
            xs,
            y,
            yerr=err,
            marker="o",
            ms=4,
            capsize=3,
            lw=1.2,
            label=f"{res.sides[s]} ({res.bots[s]})",
        )
    ax.axhline(100 / len(res.bots), color="grey", ls="--", lw=1, label="even share")
    if base.get(name) in pos:
        ax.axvline(pos[base[name]], color="black", ls=":", lw=1.2, label=f"baseline ({base[name]})")
    if not numeric or all(isinstance(v, int) for v in values):
        ax.set_xticks([pos[v] for v in values], [str(v) for v in values])
    ax.set_xlabel(name)
    ax.set_ylabel("win rate (%)")
    ax.set_title(
        f"{res.game}: win rate vs {name} (Wilson 95% CI, {res.games_per_point:,} games a point)",
        fontsize=9,
    )
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    return _save(fig, path)


# ---------------------------------------------------------------- command line
