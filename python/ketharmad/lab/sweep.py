"""Parameter sweeps over common random numbers: every point of a grid plays the same games
(same batch seed, same game indices), and each point is compared with a baseline point game by
game (paired differences)."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Mapping, Sequence
from typing import Any, Optional, Union

import numpy as np
import polars as pl

from .. import _core
from .._api import check_chunk_size, check_memory, check_start_player
from .plan import Plan, cell, run_plan
from .._data import CardDataSource, describe_card_data, load_card_data
from .._progress import Progress
from .._validate import (
    check_bots,
    check_decks,
    check_flag,
    check_int,
    check_params,
    check_seed,
    check_threads,
)
from ..stats import Z95, wilson_bounds

__all__ = ["sweep", "SweepResult", "grid_points", "deck_pairings"]

ParamValue = Union[int, bool, str]


def _values(name: str, values: object) -> list[Any]:
    if isinstance(values, (str, bool, int, np.integer, np.bool_)):
        return [values]
    if isinstance(values, (list, tuple, range, np.ndarray)):
        out = list(values)
        if not out:
            raise ValueError(f"grid: parameter {name!r} has an empty list of values")
        return out
    raise ValueError(
        f"grid: the values of {name!r} must be a list such as [4, 5, 6], "
        f"got {type(values).__name__}"
    )


def grid_points(grid: object) -> list[dict[str, ParamValue]]:
    """The points of a grid: a dict ``{name: [values]}`` (the Cartesian product, first name
    varying slowest) or an explicit list of point dicts ``[{name: value}, ...]``."""
    if isinstance(grid, Mapping):
        if not grid:
            raise ValueError(
                "grid: the table of parameters is empty; give {name: [values]} or a list of points"
            )
        names = list(grid)
        for name in names:
            if not isinstance(name, str):
                raise ValueError(f"grid: parameter names must be strings, got {name!r}")
        lists = [_values(n, grid[n]) for n in names]
        raw = [dict(zip(names, combo)) for combo in itertools.product(*lists)]
    elif isinstance(grid, (list, tuple)):
        if not grid:
            raise ValueError(
                "grid: the list of points is empty; give {name: [values]} or a list of points"
            )
        raw = []
        for i, point in enumerate(grid):
            if not isinstance(point, Mapping):
                raise ValueError(
                    f"grid: point {i} must be a dict of parameter values, got {type(point).__name__}"
                )
            raw.append(dict(point))
    else:
        raise ValueError(
            "grid must be a dict {name: [values]} or a list of point dicts, "
            f"got {type(grid).__name__}"
        )
    points = []
    seen: dict[str, int] = {}
    for i, point in enumerate(raw):
        p = check_params(point)
        key = json.dumps(p, sort_keys=True)
        if key in seen:
            raise ValueError(f"grid: point {i} repeats point {seen[key]} ({p})")
        seen[key] = i
        points.append(p)
    return points


def deck_pairings(decks: object) -> list[list[str]]:
    """``"all"`` (the 12 ordered pairs of different factions), one deck list such as
    ``["ner", "tisza"]``, or a list of deck lists."""
    if isinstance(decks, str):
        if decks != "all":
            raise ValueError(f"decks must be 'all', a deck list or a list of deck lists, got {decks!r}")
        return [[a, b] for a, b in itertools.permutations(_core.FACTIONS, 2)]
    if isinstance(decks, (list, tuple)) and decks and all(isinstance(d, str) for d in decks):
        return [check_decks(list(decks))]
    if isinstance(decks, (list, tuple)) and decks:
        out = [check_decks(list(d) if isinstance(d, (list, tuple)) else d) for d in decks]
        keys = [tuple(d) for d in out]
        if len(set(keys)) != len(keys):
            raise ValueError(f"decks: a pairing is listed twice in {out}")
        return out
    raise ValueError(f"decks must be 'all', a deck list or a non-empty list of deck lists, got {decks!r}")


def matchup_label(decks: Sequence[str]) -> str:
    return " vs ".join(decks)


def _param_column(values: list[Any]) -> pl.Series:
    present = [v for v in values if v is not None]
    if present and all(isinstance(v, bool) for v in present):
        return pl.Series(values, dtype=pl.Boolean)
    if present and all(isinstance(v, int) and not isinstance(v, bool) for v in present):
        return pl.Series(values, dtype=pl.Int64)
    return pl.Series([None if v is None else str(v) for v in values], dtype=pl.String)


class SweepResult:
    """The result of :func:`ketharmad.sweep`.

    Attributes:
        table: one row per point and matchup (see :func:`ketharmad.sweep`).
        summary: one row per point: its change of win rate against the baseline, averaged
            over the games of the matchups it can affect (see :func:`ketharmad.sweep`).
        points: one row per point: ``point``, ``params`` (the point's overrides as JSON) and
            one column per swept parameter.
        games: one row per point, matchup and game: ``point, matchup, game, seed,
            start_player, winner, seat0_won, turns, rounds, end_reason``; the ``seed`` column
            is the same for every point (common random numbers).
        baseline: the index of the baseline point.
        parameters: the swept parameter names.
        decks, bots, seed, params, games_per_point, card_data, elapsed: the run.
    """

    def __init__(self, **kw: Any) -> None:
        self.table: pl.DataFrame = kw["table"]
        self.summary: pl.DataFrame = kw["summary"]
        self.points: pl.DataFrame = kw["points"]
        self.games: pl.DataFrame = kw["games"]
        self.baseline: int = kw["baseline"]
        self.parameters: list[str] = kw["parameters"]
        self.decks: list[list[str]] = kw["decks"]
        self.bots: Any = kw["bots"]
        self.seed: int = kw["seed"]
        self.params: dict[str, ParamValue] = kw["params"]
        self.games_per_point: int = kw["games_per_point"]
        self.start_player: Optional[int] = kw["start_player"]
        self.card_data: str = kw["card_data"]
        self.elapsed: float = kw["elapsed"]
        self._card_text: str = kw["card_text"]

    @property
    def n_games(self) -> int:
        return self.games.height

    def _parquet_tables(self) -> dict[str, pl.DataFrame]:
        return {"sweep": self.table, "sweep_summary": self.summary, "sweep_points": self.points,
                "sweep_games": self.games}  # fmt: skip

    def _provenance(self) -> dict[str, Any]:
        from .._files import provenance

        return provenance(
            "sweep", self._card_text, self.params, self.bots, self.decks, self.seed, self.n_games
        )

    def write_parquet(
        self, folder: Any, run_id: Optional[str] = None, overwrite: bool = False
    ) -> dict[str, Any]:
        """Write ``sweep``, ``sweep_points`` and ``sweep_games`` as Parquet with provenance;
        see :func:`ketharmad.write_run`."""
        from .._files import write_run

        return write_run(self, folder, run_id=run_id, overwrite=overwrite)

    def __repr__(self) -> str:
        from .._report import sweep_text

        return sweep_text(self)


def _current_values(text: str, base: dict[str, ParamValue]) -> dict[str, Any]:
    """Every parameter's value without the grid: the card data's default, or ``params``."""
    from .._frames import parameter_frame

    info = parameter_frame(_core.parameter_table(text))
    out: dict[str, Any] = {}
    for r in info.iter_rows(named=True):
        if r["kind"] in ("cost", "choice"):
            out[r["name"]] = r["default_str"]
        elif r["kind"] == "bool":
            out[r["name"]] = bool(r["default"])
        else:
            out[r["name"]] = r["default"]
    out.update(base)
    return out


def _is_current(point: Mapping[str, ParamValue], current: Mapping[str, Any]) -> bool:
    return all(n in current and current[n] == v and type(current[n]) is type(v) for n, v in point.items())


def _owners(text: str) -> dict[str, Optional[str]]:
    """Parameter name -> the faction whose deck holds its card, or None when it can reach
    every game (rules.*, keyword.*, Newsfeed, Event and token cards)."""
    from .._frames import card_frame, parameter_frame

    cards = card_frame(_core.card_table(text))
    faction = dict(zip(cards["id"].to_list(), cards["faction"].to_list()))
    info = parameter_frame(_core.parameter_table(text))
    decks = set(_core.FACTIONS)
    return {
        n: (faction.get(c) if faction.get(c) in decks else None)
        for n, c in zip(info["name"].to_list(), info["card"].to_list())
    }


def _baseline_index(
    baseline: object, points: list[dict[str, ParamValue]], current: Optional[int] = None
) -> int:
    if baseline is None:
        return 0 if current is None else current
    if isinstance(baseline, Mapping):
        want = check_params(baseline)
        for i, p in enumerate(points):
            if p == want:
                return i
        raise ValueError(f"baseline {want} is not one of the grid's points")
    return check_int("baseline", baseline, 0, len(points) - 1)


def sweep(
    grid: Union[Mapping[str, Any], Sequence[Mapping[str, Any]]],
    decks: Any = ("ner", "tisza"),
    bots: Any = "heuristic",
    games: int = 1000,
    seed: int = 0,
    threads: Optional[int] = None,
    params: Optional[Mapping[str, ParamValue]] = None,
    card_data: CardDataSource = None,
    baseline: Union[None, int, Mapping[str, ParamValue]] = None,
    start_player: Optional[int] = None,
    chunk_size: Optional[int] = None,
    progress: bool = False,
    executor: Any = None,
) -> SweepResult:
    """Play the same games at every point of a parameter grid and compare with a baseline.

    Args:
        grid: ``{name: [values]}`` (every combination; the first name varies slowest) or an
            explicit list of points ``[{name: value, ...}, ...]``. Names as in
            :func:`ketharmad.parameters`; a point's values override ``params``.
        decks: one deck list (``["ner", "tisza"]``), a list of them, or ``"all"`` (the 12
            ordered pairs of different factions). A pairing that repeats a faction gets
            ``rules.allow_mirror = True`` unless a point sets it.
        bots: one spec for every seat or a list with one per seat.
        games: games per point and matchup; every point plays games ``0 .. games-1`` of the
            batch with seed ``seed`` (common random numbers: same game seeds, same deals where
            the parameters do not change them).
        baseline: the point the others are compared with: an index, a point dict, or None
            (the point holding the current values, i.e. the card data's defaults with
            ``params`` applied, when the grid has one; else the first point).
        start_player: None (drawn per game from its seed) or a fixed start seat.

    Every point is validated (``_core.validate``) for every matchup before any game runs, so
    an unknown parameter name or a value out of range fails at once.

    Returns a :class:`SweepResult`; ``.table`` has one row per point and matchup: ``point``,
    one column per swept parameter, ``matchup`` ("ner vs tisza"), ``faction`` (seat 0),
    ``opponent``, ``games``, ``wins`` (seat 0), ``win_rate``, ``ci_low``, ``ci_high``
    (Wilson 95 %), ``unfinished``, ``no_winner``, ``baseline`` (bool), ``current`` (the
    point holds the current values), ``can_affect`` (False when no swept parameter can
    change the matchup's games: a card of a faction that does not play in it; such rows are
    left out of the text and Markdown reports), and versus the
    baseline point: ``diff`` (win-rate difference), ``diff_ci_low``/``diff_ci_high`` (paired
    95 % interval: mean of the per-game differences ± 1.96·sd/√n), ``degenerate_ci`` (True
    when every per-game difference is the same, e.g. all 0 on a small sample, or fewer than
    2 games: the paired interval would shrink to a point, so it and ``paired_half_width``
    are null), ``paired_half_width`` and ``unpaired_half_width`` (the half-width two
    independent samples of the same size would give: 1.96·√(p(1-p)/n + p₀(1-p₀)/n)).
    ``.summary`` has one row per point: ``perspective`` (the faction whose cards the point
    changes against the baseline when that is one faction, else ``"seat 0"``), ``matchups``
    (how many of the run's matchups it can affect), ``games``, ``base_win_rate`` and
    ``win_rate`` (of that faction or seat over those games), ``diff`` and its paired 95 %
    interval ``diff_ci_low``/``diff_ci_high`` (null when degenerate).
    ``grid`` must name at least one point (``{}`` and ``[]`` are refused alike).
    """
    points = grid_points(grid)
    pairings = deck_pairings(decks)
    games_ = check_int("games", games, 1)
    seed_ = check_seed(seed)
    threads_ = check_threads(threads)
    base = check_params(params)
    chunk_ = check_chunk_size(chunk_size)
    progress = check_flag("progress", progress)
    text = load_card_data(card_data)
    current_values = _current_values(text, base)
    current = [_is_current(p, current_values) for p in points]
    base_index = _baseline_index(baseline, points, current.index(True) if any(current) else None)
    seat_bots = [check_bots(bots, len(d)) for d in pairings]
    starts = [check_start_player(start_player, len(d)) for d in pairings]

    # one cell per point and pairing, point-major; every cell plays games 0 .. games-1 of
    # the batch (common random numbers: the points of a pairing play the same games)
    plan = Plan(seed_)
    cell_point = []
    for i, point in enumerate(points):
        for j, deck in enumerate(pairings):
            merged = {**base, **point}
            if len(set(deck)) < len(deck):
                merged.setdefault("rules.allow_mirror", True)
            plan.add(cell(text, deck, seat_bots[j], merged, 0, games_, start_player=starts[j],
                          output="games", label=f"sweep point {i} {point}, decks {deck}"))  # fmt: skip
            cell_point.append(i)
    plan.validate()

    check_memory(f"sweep(games={games_:,}) over {len(plan.cells)} point(s) and matchup(s)", plan.games,
                 max(len(d) for d in pairings), min(chunk_ or games_, games_), tables=("games",),
                 chunked=chunk_ is not None)  # fmt: skip
    meter = Progress(plan.games, "sweep", enabled=progress)
    start = time.perf_counter()
    results = run_plan(plan, threads=threads_, shard_size=chunk_, progress=meter, executor=executor)
    elapsed = time.perf_counter() - start
    meter.close()
    parts = []
    for i, c, frames in zip(cell_point, plan.cells, results):
        parts.append(
            frames.games.select(
                pl.lit(i, pl.Int32).alias("point"),
                pl.lit(matchup_label(c.decks)).alias("matchup"),
                "game", "seed", "start_player", "winner",
                seat0_won=(pl.col("winner") == 0).fill_null(False),
                turns="turns", rounds="rounds", end_reason="end_reason",
            )  # fmt: skip
        )
    g = pl.concat(parts, rechunk=False)

    names: list[str] = []
    for p in points:
        names += [n for n in p if n not in names]
    points_df = pl.DataFrame(
        {
            "point": pl.Series(range(len(points)), dtype=pl.Int32),
            "params": [json.dumps(p, sort_keys=True) for p in points],
            **{n: _param_column([p.get(n) for p in points]) for n in names},
            "current": pl.Series(current, dtype=pl.Boolean),
        }
    )
    owners = _owners(text)
    swept_owners = {owners.get(n) for n in names}
    can_affect = [None in swept_owners or bool(swept_owners & set(d)) for d in pairings]
    labels = [matchup_label(d) for d in pairings]
    matchup_info = pl.DataFrame(
        {
            "matchup": labels,
            "faction": [d[0] for d in pairings],
            "opponent": ["+".join(d[1:]) for d in pairings],
            "matchup_order": list(range(len(pairings))),
            "can_affect": can_affect,
        }
    )
    low, high = wilson_bounds("wins", "games")
    table = (
        g.group_by("point", "matchup")
        .agg(
            games=pl.len().cast(pl.Int64),
            wins=pl.col("seat0_won").sum().cast(pl.Int64),
            unfinished=pl.col("end_reason").cast(pl.String).str.starts_with("unfinished").sum().cast(pl.Int64),
            no_winner=pl.col("winner").is_null().sum().cast(pl.Int64),
        )
        .with_columns(win_rate=pl.col("wins") / pl.col("games"), ci_low=low, ci_high=high)
    )
    ref = g.filter(pl.col("point") == base_index).select(
        "matchup", "game", base_won=pl.col("seat0_won")
    )
    paired = (
        g.join(ref, on=["matchup", "game"], how="inner")
        .with_columns(d=pl.col("seat0_won").cast(pl.Float64) - pl.col("base_won").cast(pl.Float64))
        .group_by("point", "matchup")
        .agg(diff=pl.col("d").mean(), sd=pl.col("d").std(ddof=1), n=pl.len())
    )
    base_rates = table.filter(pl.col("point") == base_index).select(
        "matchup", p0=pl.col("win_rate"), n0=pl.col("games")
    )
    p, n = pl.col("win_rate"), pl.col("games").cast(pl.Float64)
    p0, n0 = pl.col("p0"), pl.col("n0").cast(pl.Float64)
    # every per-game difference equal (sd 0, e.g. all 0 on a small sample) or fewer than 2
    # games: the normal interval would collapse to a point, so it is flagged and left null
    is_base = pl.col("point") == base_index
    degenerate = ~is_base & (pl.col("sd").is_null() | (pl.col("sd") == 0))
    paired_half = (
        pl.when(is_base)
        .then(pl.lit(0.0))
        .when(~degenerate)
        .then(Z95 * pl.col("sd") / pl.col("n").cast(pl.Float64).sqrt())
        .otherwise(None)
    )
    table = (
        table.join(paired, on=["point", "matchup"], how="left")
        .join(base_rates, on="matchup", how="left")
        .join(matchup_info, on="matchup", how="left")
        .join(points_df.drop("params"), on="point", how="left")
        .with_columns(
            baseline=is_base,
            degenerate_ci=degenerate,
            paired_half_width=paired_half,
            unpaired_half_width=Z95 * (p * (1 - p) / n + p0 * (1 - p0) / n0).sqrt(),
        )
        .with_columns(
            diff_ci_low=pl.col("diff") - pl.col("paired_half_width"),
            diff_ci_high=pl.col("diff") + pl.col("paired_half_width"),
        )
        .sort("point", "matchup_order")
        .select(
            "point", *names, "matchup", "faction", "opponent", "games", "wins", "win_rate",
            "ci_low", "ci_high", "unfinished", "no_winner", "baseline", "current", "can_affect",
            "diff", "diff_ci_low", "diff_ci_high", "degenerate_ci", "paired_half_width",
            "unpaired_half_width",
        )  # fmt: skip
    )
    summary = _point_summary(g, points, names, pairings, base_index, owners, points_df)
    return SweepResult(
        table=table,
        summary=summary,
        points=points_df,
        games=g,
        baseline=base_index,
        parameters=names,
        decks=pairings,
        bots=bots if isinstance(bots, (str, Mapping)) else list(bots),
        seed=seed_,
        params=base,
        games_per_point=games_,
        start_player=start_player,
        card_data=describe_card_data(card_data),
        elapsed=elapsed,
        card_text=text,
    )


def _point_summary(
    g: pl.DataFrame,
    points: list[dict[str, ParamValue]],
    names: list[str],
    pairings: list[list[str]],
    base_index: int,
    owners: Mapping[str, Optional[str]],
    points_df: pl.DataFrame,
) -> pl.DataFrame:
    """One row per point: the paired win-rate change against the baseline point over the
    games of the matchups the point can affect, from one perspective: the faction whose
    cards the point changes (when it is one faction), else seat 0."""
    base = points[base_index]
    rows = []  # (point, matchup, seat) of the affected cells
    info = []
    for i, p in enumerate(points):
        changed = [n for n in names if p.get(n) != base.get(n)] or [n for n in p]
        who = {owners.get(n) for n in changed}
        faction = next(iter(who)) if len(who) == 1 and None not in who else None
        n_affected = 0
        for d in pairings:
            if faction is not None:
                hit = faction in d
            else:
                hit = None in who or bool(who & set(d))
            if hit:
                n_affected += 1
                rows.append((i, matchup_label(d), d.index(faction) if faction else 0))
        info.append((i, faction or "seat 0", n_affected))
    cells = pl.DataFrame(rows, schema={"point": pl.Int32, "matchup": pl.String, "seat": pl.Int64},
                         orient="row")  # fmt: skip
    ref = g.filter(pl.col("point") == base_index).select("matchup", "game", base_winner="winner")
    d = (
        g.join(cells, on=["point", "matchup"], how="inner")
        .join(ref, on=["matchup", "game"], how="inner")
        .with_columns(
            won=(pl.col("winner") == pl.col("seat")).fill_null(False).cast(pl.Float64),
            base_won=(pl.col("base_winner") == pl.col("seat")).fill_null(False).cast(pl.Float64),
        )
        .with_columns(d=pl.col("won") - pl.col("base_won"))
        .group_by("point")
        .agg(
            games=pl.len().cast(pl.Int64),
            win_rate=pl.col("won").mean(),
            base_win_rate=pl.col("base_won").mean(),
            diff=pl.col("d").mean(),
            sd=pl.col("d").std(ddof=1),
        )
    )
    meta = pl.DataFrame(info, schema={"point": pl.Int32, "perspective": pl.String,
                                      "matchups": pl.Int64}, orient="row")  # fmt: skip
    is_base = pl.col("point") == base_index
    half = (
        pl.when(is_base)
        .then(pl.lit(0.0))
        .when(pl.col("sd").is_not_null() & (pl.col("sd") > 0))
        .then(Z95 * pl.col("sd") / pl.col("games").cast(pl.Float64).sqrt())
        .otherwise(None)
    )
    return (
        meta.join(points_df.drop("params"), on="point", how="left")
        .join(d, on="point", how="left")
        .with_columns(baseline=is_base, half=half)
        .with_columns(diff_ci_low=pl.col("diff") - pl.col("half"),
                      diff_ci_high=pl.col("diff") + pl.col("half"))  # fmt: skip
        .sort("point")
        .select("point", *names, "baseline", "current", "perspective", "matchups", "games",
                "base_win_rate", "win_rate", "diff", "diff_ci_low", "diff_ci_high")  # fmt: skip
    )
