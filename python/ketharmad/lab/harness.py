"""The lab over the games on the generic harness (issue 14): matchups of Schotten Totten 2
and Osztrakon, reached through ``game=`` of :func:`ketharmad.matchups` (and ``--game`` of
``ketharmad matchups``), and the argument checks and provenance the tournament of every game
(:mod:`ketharmad.lab.tournament`) uses for them; docs/games.md.

The sides of these tables are bots, not factions:

* a game of two seats (Schotten Totten 2: seat 0 the Attacker, seat 1 the Defender) plays
  every ordered pairing of bots, one bot per side;
* a game of more seats (Osztrakon, 5-12 seats) plays one bot against a *field* of another
  bot on every other seat, the lone bot's seat rotating over all seats.

Every cell's games are games ``0 ..`` of :func:`ketharmad.games.simulate_game` with the run's
seed (a rotation share is a ``first_game`` range of them), so any row can be replayed with
:func:`ketharmad.play` (``game=..., index=...``) and the counts do not depend on ``threads``.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Optional, Union, cast

import polars as pl

from .._version import __version__
from ..game.harness import harness_info
from ..results.files import _json
from ..results.games import GameStats
from ..results.lab import LabResult
from ..results.lab_report import _figure, _provenance_md, _save, md_table
from ..results.report import _cell_text, _lab_params_label, ci_text, format_table, pct
from ..results.sim import SimResult
from ..run.cluster import check_cluster_arg, executor_for
from ..run.harness import simulate_game
from ..stats import wilson_interval

__all__ = ["GameMatchupResult", "game_lab_matchups"]

ParamValue = Union[int, float, bool, str]

#: Keep the per-game rows of a run of at most this many games by default (``rows=None``).
ROWS_AUTO_LIMIT = 1_000_000
#: Games per cell of a matchup table by default.
DEFAULT_GAMES = 1000


# ---------------------------------------------------------------- argument checks


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


# ---------------------------------------------------------------- playing cells


def _rotation(n: int, k: int) -> list[tuple[int, int, int]]:
    """``(seat, first_game, games)`` of a rotation: ``n`` games split evenly over ``k``
    seats, seat ``s`` the ``s``-th share (as :func:`ketharmad.games.game_matchups`)."""
    out = []
    for s in range(k):
        share = n // k + (1 if s < n % k else 0)
        if share:
            out.append((s, s * (n // k) + min(s, n % k), share))
    return out


def _play_pair(
    game: str,
    a: str,
    b: str,
    n: int,
    seed: int,
    threads: Optional[int],
    params: dict[str, ParamValue],
    keep: bool,
    run: Optional[Mapping[str, Any]] = None,
) -> dict[str, Any]:
    """Games ``0 .. n - 1`` of ``a`` on seat 0 against ``b`` on seat 1. ``run``: the
    ``chunk_size``/``executor`` of :func:`ketharmad.games.simulate_game`; without ``keep`` the
    cell is reduced in the core (``output="stats"``: no rows)."""
    t = time.perf_counter()
    r = simulate_game(game, [a, b], games=n, seed=seed, threads=threads, params=params or None,
                      output="rows" if keep else "stats", **(run or {}))  # fmt: skip
    secs = time.perf_counter() - t
    if isinstance(r, GameStats):  # not keep
        return {"games": n, "wins": list(r.wins), "no_winner": r.no_winner, "unfinished": r.unfinished,
                "turns_mean": r.turns_mean, "secs": secs, "rows": None}  # fmt: skip
    wins = [int(r.players.filter(pl.col("seat") == s)["won"].sum()) for s in (0, 1)]
    return {
        "games": n,
        "wins": wins,
        "no_winner": int((r.games["winners_mask"] == 0).sum()),
        "unfinished": int(r.games["unfinished"].sum()),
        "turns_mean": float(cast(float, r.games["turns"].mean())),
        "secs": secs,
        "rows": r.games.with_columns(
            batch_seed=pl.lit(seed, pl.UInt64), seat0_bot=pl.lit(a), seat1_bot=pl.lit(b)
        ),
    }


def _play_field(
    game: str,
    bot: str,
    field: str,
    k: int,
    n: int,
    seed: int,
    threads: Optional[int],
    params: dict[str, ParamValue],
    keep: bool,
    run: Optional[Mapping[str, Any]] = None,
) -> dict[str, Any]:
    """``n`` games of ``bot`` on one seat against ``field`` on the ``k - 1`` others, the
    bot's seat rotating (seat ``s`` plays games ``first .. first + share - 1``); ``run`` and
    ``keep`` as for :func:`_play_pair`."""
    t = time.perf_counter()
    wins = field_wins = no_winner = unfinished = 0
    turns = 0.0
    per_seat: list[tuple[int, int, int]] = []  # (seat, games, wins)
    parts = []
    for s, first, share in _rotation(n, k):
        lineup = [field] * k
        lineup[s] = bot
        r = simulate_game(game, lineup, games=share, seed=seed, threads=threads, params=params or None,
                          first_game=first, output="rows" if keep else "stats", **(run or {}))  # fmt: skip
        if isinstance(r, SimResult):  # keep
            w = int(r.players.filter(pl.col("seat") == s)["won"].sum())
            decided = int((r.games["winners_mask"] != 0).sum())
            unfinished += int(r.games["unfinished"].sum())
            turns += float(r.games["turns"].sum())
            parts.append(r.games.with_columns(batch_seed=pl.lit(seed, pl.UInt64), bot=pl.lit(bot), field=pl.lit(field),
                                              bot_seat=pl.lit(s, pl.UInt8)))  # fmt: skip
        else:
            w = r.wins[s]
            decided = r.games - r.no_winner
            unfinished += r.unfinished
            turns += float(sum(t_ * c for t_, c in r.turns.items()))
        wins += w
        field_wins += decided - w
        no_winner += share - decided
        per_seat.append((s, share, w))
    secs = time.perf_counter() - t
    return {"games": n, "wins": wins, "field_wins": field_wins, "no_winner": no_winner, "unfinished": unfinished,
            "turns_mean": turns / n, "secs": secs, "per_seat": per_seat,
            "rows": pl.concat(parts) if keep and parts else None}  # fmt: skip


def _run_args(chunk_size: object, executor: Any, cluster: Any) -> None:
    """ValueError for a bad ``chunk_size`` or ``executor``/``cluster`` pair, before any game."""
    if chunk_size is not None:
        _check_whole("chunk_size", chunk_size, 1)
    check_cluster_arg(cluster, executor)


# ---------------------------------------------------------------- results


class _HarnessLabResult(LabResult):
    """What the harness games' lab results share: provenance from the game's definition
    (no card data: ``card_data`` is ``game <name>``, its hash that of the game's name and
    parameter table)."""

    game: str = ""
    _info: dict[str, Any] = {}

    def provenance(self) -> dict[str, Any]:
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
        return {
            "game": self.game,
            "seats": getattr(self, "seats", None),
            "sides": getattr(self, "sides", None),
        }


def _fmt_cell(rate: Optional[float], lo: Optional[float], hi: Optional[float]) -> str:
    return _cell_text(rate, lo, hi)


class GameMatchupResult(_HarnessLabResult):
    """The result of ``ketharmad.matchups(game="schotten_totten_2" | "osztrakon", ...)``.

    Attributes:
        game, seats, sides: the game, its seat count and its side names (Schotten Totten 2:
            attacker, defender; a game without sides: seat0, seat1, ...).
        field_table: False for a game of two seats (one row per ordered pairing of bots),
            True for more seats (one row per bot against a field).
        table: two seats: ``<side0>_bot, <side1>_bot, games, <side0>_wins, <side1>_wins,
            no_winner, unfinished, <side0>_win_rate, ci_low, ci_high`` (Wilson 95 % of the
            first side's win rate over all games), ``turns_mean, games_per_second``. More
            seats: ``bot, field, seats, games, wins, win_rate, ci_low, ci_high,
            even_share, field_wins, no_winner, unfinished, turns_mean, games_per_second``.
        by_side: two seats: per bot and side (``bot, side, games, wins, win_rate, ci_low,
            ci_high``) over every opponent. More seats: per bot and seat of the lone bot
            (``bot, seat, games, wins, win_rate, ci_low, ci_high``), the seat effect.
        games: the games, one row per game (the batch's columns plus ``batch_seed`` and the
            cell's bots: ``seat0_bot, seat1_bot`` or ``bot, field, bot_seat``); None when
            the run kept no rows.
        bots, seed, params, games_per_cell, elapsed: the run's arguments and wall time.
    """

    kind = "matchups"

    def __init__(self, **kw: Any) -> None:
        self.game: str = kw["game"]
        self._info = kw["info"]
        self.seats: int = kw["seats"]
        self.sides: list[str] = kw["sides"]
        self.field_table: bool = kw["field_table"]
        self.table: pl.DataFrame = kw["table"]
        self.by_side: pl.DataFrame = kw["by_side"]
        self.games: Optional[pl.DataFrame] = kw["games"]
        self.rows = self.games is not None
        self.bots: list[str] = kw["bots"]
        self.field: Optional[str] = kw.get("field")
        self.seed: int = kw["seed"]
        self.params: dict[str, ParamValue] = kw["params"]
        self.games_per_cell: int = kw["games_per_cell"]
        self.elapsed: float = kw["elapsed"]
        self.card_data = f"game {self.game}"

    @property
    def n_games(self) -> int:
        return int(self.table["games"].sum()) if self.table.height else 0

    def matrix(self, value: Optional[str] = None) -> pl.DataFrame:
        """The table as a square: two seats, rows the first side's bot, one column per
        second side's bot (default value: the first side's win rate); more seats, rows the
        lone bot, one column per field (default: ``win_rate``)."""
        if self.field_table:
            return self.table.pivot(on="field", index="bot", values=value or "win_rate")
        s0, s1 = self.sides
        return self.table.pivot(on=f"{s1}_bot", index=f"{s0}_bot", values=value or f"{s0}_win_rate")

    def tables(self) -> dict[str, pl.DataFrame]:
        g = self.game
        out = {f"matchups_{g}": self.table, f"matchup_by_side_{g}": self.by_side}
        if self.games is not None:
            out[f"matchup_games_{g}"] = self.games
        return out

    def _head(self) -> str:
        return (f"GameMatchupResult({self.game}, {self.seats} seats, {self.n_games:,} games, seed {self.seed}, "
                f"params: {_lab_params_label(self.params)}, {self.elapsed:.2f} s)")  # fmt: skip

    def _grid(self) -> tuple[list[str], list[list[str]]]:
        if self.field_table:
            rows_key, cols_key, val = "bot", "field", "win_rate"
        else:
            rows_key, cols_key, val = (
                f"{self.sides[0]}_bot",
                f"{self.sides[1]}_bot",
                f"{self.sides[0]}_win_rate",
            )
        cells = {(r[rows_key], r[cols_key]): r for r in self.table.iter_rows(named=True)}
        row_names = list(dict.fromkeys(self.table[rows_key].to_list()))
        col_names = list(dict.fromkeys(self.table[cols_key].to_list()))
        rows = []
        for a in row_names:
            row = [a]
            for b in col_names:
                c = cells.get((a, b))
                row.append("-" if c is None else _fmt_cell(c[val], c["ci_low"], c["ci_high"]))
            rows.append(row)
        corner = f"{self.sides[0]} \\ {self.sides[1]}" if not self.field_table else "bot \\ field"
        return [corner, *col_names], rows

    def _caption(self) -> str:
        if self.field_table:
            return (f"win rate of the row bot on one seat against the column bot on the other {self.seats - 1}, "
                    f"{self.games_per_cell:,} games per cell, the bot's seat rotating over all {self.seats} seats "
                    f"(even share {1 / self.seats:.1%}), Wilson 95% CI:")  # fmt: skip
        return (f"{self.sides[0]} win rate, {self.sides[0]} bot (rows) against {self.sides[1]} bot (columns), "
                f"{self.games_per_cell:,} games per cell, Wilson 95% CI:")  # fmt: skip

    def text(self) -> str:
        headers, rows = self._grid()
        lines = [self._head(), self._caption()]
        lines += [
            "  " + s for s in format_table(headers, rows, [False] + [True] * (len(headers) - 1))
        ]
        lines.append("cells:")
        lines += ["  " + s for s in format_table(*self._count_rows())]
        lines.append(
            "see .table, .by_side" + (", .games" if self.rows else " (no per-game rows kept)")
        )
        return "\n".join(lines)

    def _count_rows(self) -> tuple[list[str], list[list[str]], list[bool]]:
        """The cells' counts as text: headers, rows, alignment."""
        if self.field_table:
            rows = [[r["bot"], r["field"], f"{r['games']:,}", f"{r['wins']:,}", pct(r["win_rate"]),
                     ci_text(r["ci_low"], r["ci_high"])] for r in self.table.iter_rows(named=True)]  # fmt: skip
            return (["bot", "field", "games", "wins", "win rate", "95% CI"], rows,
                    [False, False, True, True, True, False])  # fmt: skip
        s0, s1 = self.sides
        rows = [[r[f"{s0}_bot"], r[f"{s1}_bot"], f"{r['games']:,}", f"{r[f'{s0}_wins']:,}", f"{r[f'{s1}_wins']:,}",
                 f"{r['no_winner']:,}", pct(r[f"{s0}_win_rate"]), ci_text(r["ci_low"], r["ci_high"])]
                for r in self.table.iter_rows(named=True)]  # fmt: skip
        return ([s0, s1, "games", f"{s0} wins", f"{s1} wins", "no winner", f"{s0} win rate", "95% CI"], rows,
                [False, False, True, True, True, True, True, False])  # fmt: skip

    def _markdown(self, folder: Optional[Path], plots: bool) -> list[str]:
        out = [f"# Matchups: {self.game}, {self.seats} seats, bots {', '.join(self.bots)}", ""]
        out += _provenance_md(self, None)
        headers, rows = self._grid()
        out += [
            "",
            "## Win rates",
            "",
            self._caption()[0].upper() + self._caption()[1:-1] + ".",
            "",
        ]
        if plots and folder is not None:
            name = f"matchups_{self.game}_heatmap.png"
            plot_heatmap(self, folder / name)
            out += [f"![win rates]({name})", ""]
        out.append(md_table(headers, rows, [False] + [True] * (len(headers) - 1)))
        key = "seat" if self.field_table else "side"
        srows = [[r["bot"], str(r[key]), f"{r['games']:,}", f"{r['wins']:,}", pct(r["win_rate"]),
                  ci_text(r["ci_low"], r["ci_high"])] for r in self.by_side.iter_rows(named=True)]  # fmt: skip
        title = (
            "By seat of the lone bot"
            if self.field_table
            else "By bot and side (over every opponent)"
        )
        out += ["", f"## {title}", "",
                md_table(["bot", key, "games", "wins", "win rate", "95% CI"], srows,
                         [False, key == "seat", True, True, True, False])]  # fmt: skip
        trows = [[*(str(r[c]) for c in self.table.columns[:2]), f"{r['games']:,}", f"{r['no_winner']:,}",
                  f"{r['unfinished']:,}", f"{r['turns_mean']:.1f}", f"{r['games_per_second']:,.0f}"]
                 for r in self.table.iter_rows(named=True)]  # fmt: skip
        out += ["", "## Cells", "",
                md_table([*self.table.columns[:2], "games", "no winner", "unfinished", "turns (mean)", "games/s"],
                         trows, [False, False, True, True, True, True, True])]  # fmt: skip
        return out

    def plots(self, folder: Any) -> list[Path]:
        root = Path(folder)
        root.mkdir(parents=True, exist_ok=True)
        return [plot_heatmap(self, root / f"matchups_{self.game}_heatmap.png")]


def plot_heatmap(result: GameMatchupResult, path: Path) -> Path:
    """Heatmap of the table's win rate (first side's, or the lone bot's), centred on the
    even share, each cell annotated with its interval."""
    headers, _ = result._grid()
    if result.field_table:
        rk, ck, val, even = "bot", "field", "win_rate", 1 / result.seats
    else:
        rk, ck, val, even = (
            f"{result.sides[0]}_bot",
            f"{result.sides[1]}_bot",
            f"{result.sides[0]}_win_rate",
            0.5,
        )
    cells = {(r[rk], r[ck]): r for r in result.table.iter_rows(named=True)}
    rows = list(dict.fromkeys(result.table[rk].to_list()))
    cols = list(dict.fromkeys(result.table[ck].to_list()))
    grid = [[cells[(a, b)][val] if (a, b) in cells else math.nan for b in cols] for a in rows]
    spread = max([abs(v - even) for row in grid for v in row if v == v] + [0.05])
    fig = _figure(1.9 * len(cols) + 2.4, 1.3 * len(rows) + 1.4)
    ax = fig.add_subplot(1, 1, 1)
    im = ax.imshow(grid, cmap="RdBu", vmin=even - spread, vmax=even + spread)
    for i, a in enumerate(rows):
        for j, b in enumerate(cols):
            c = cells.get((a, b))
            if c is not None:
                ax.text(j, i, f"{pct(c[val])}\n{ci_text(c['ci_low'], c['ci_high'])}", ha="center", va="center",
                        fontsize=8, color="white" if abs(c[val] - even) > 0.6 * spread else "black")  # fmt: skip
    ax.set_xticks(range(len(cols)), cols)
    ax.set_yticks(range(len(rows)), rows)
    ax.set_xlabel(headers[0].split(" \\ ")[1])
    ax.set_ylabel(headers[0].split(" \\ ")[0])
    ax.set_title(f"{result.game}: {result._caption()[:-1]}", fontsize=8, wrap=True)
    fig.colorbar(im, ax=ax, label="win rate", fraction=0.046, pad=0.04)
    return _save(fig, path)


# ---------------------------------------------------------------- matchups


def game_lab_matchups(
    game: str,
    bots: Optional[Sequence[str]] = None,
    games: Optional[int] = None,
    seed: int = 0,
    threads: Optional[int] = None,
    params: Optional[Mapping[str, ParamValue]] = None,
    seats: Optional[int] = None,
    field: Optional[str] = None,
    games_for: Optional[Mapping[str, int]] = None,
    rows: Optional[bool] = None,
    chunk_size: Optional[int] = None,
    executor: Any = None,
    cluster: Any = None,
) -> GameMatchupResult:
    """``ketharmad.matchups(game=...)`` for a game on the harness (see there). ``chunk_size``,
    ``executor`` and ``cluster`` are those of :func:`ketharmad.games.simulate_game`: every cell's
    games run through them (the cells one after the other; a cluster is opened once for the
    call), with the same results as without."""
    info = harness_info(game)
    bots_ = _default_bots(info) if bots is None else check_bot_specs(bots)
    n = DEFAULT_GAMES if games is None else _check_whole("games", games, 1)
    seed_ = _check_whole("seed", seed, 0)
    params_ = _params_of(params)
    caps = dict(games_for or {})
    for key, v in caps.items():
        if not isinstance(key, str):
            raise ValueError(f"games_for keys must be parts of bot specs (strings), got {key!r}")
        _check_whole(f"games_for[{key!r}]", v, 1)
    if rows is not None and not isinstance(rows, bool):
        raise ValueError(f"rows must be None, True or False, got {rows!r}")
    _run_args(chunk_size, executor, cluster)

    def n_games(specs: Sequence[str]) -> int:
        return min([n, *(v for k, v in caps.items() if any(k in b for b in specs))])

    two = info["max_seats"] == 2
    if two:
        if seats not in (None, 2):
            raise ValueError(f"{game} takes 2 to 2 seats, got seats={seats!r}")
        if field is not None:
            raise ValueError(
                f"field is for games of more than two seats (osztrakon); {game} plays bot against bot"
            )
        k = 2
        cells = [(a, b) for a in bots_ for b in bots_]
    else:
        k = _check_seats(info, seats)
        if field is not None and not isinstance(field, str):
            raise ValueError(f"field must be one bot spec string, got {field!r}")
        if field is None and len(bots_) < 2:
            raise ValueError("with one bot, name the field it plays against (field='random')")
        cells = [
            (b, o)
            for b in bots_
            for o in ([field] if field is not None else [x for x in bots_ if x != b])
        ]
    total = sum(n_games(c) for c in cells)
    keep = rows if rows is not None else total <= ROWS_AUTO_LIMIT
    sides = _side_names(info, k)
    # fail on a bad bot, option or parameter before the first cell: one game of each bot
    _probe(game, bots_ + ([field] if field else []), k, seed_, params_)
    start = time.perf_counter()
    with executor_for(executor, cluster) as ex:
        run = {"chunk_size": chunk_size, "executor": ex}
        played = [(_play_pair(game, a, b, n_games((a, b)), seed_, threads, params_, keep, run) if two else
                   _play_field(game, a, b, k, n_games((a, b)), seed_, threads, params_, keep, run))
                  for a, b in cells]  # fmt: skip
    elapsed = time.perf_counter() - start
    parts = [p["rows"] for p in played if p["rows"] is not None]
    games_rows = pl.concat(parts) if keep and parts else None
    if two:
        table, by_side = _pair_tables(cells, played, sides, bots_)
    else:
        table, by_side = _field_tables(cells, played, k)
    return GameMatchupResult(game=game, info=info, seats=k, sides=sides, field_table=not two, table=table,
                             by_side=by_side, games=games_rows, bots=bots_, field=field, seed=seed_, params=params_,
                             games_per_cell=n, elapsed=elapsed)  # fmt: skip


def _probe(
    game: str, bots: Sequence[str], k: int, seed: int, params: dict[str, ParamValue]
) -> None:
    """Check every bot spec and the parameters with one game each (errors name them)."""
    for b in dict.fromkeys(bots):
        if b.startswith("search"):  # slow to play: a spec check against the random bot is enough
            simulate_game(
                game,
                [b] + ["random"] * (k - 1),
                games=1,
                seed=seed,
                threads=1,
                params=params or None,
            )
        else:
            simulate_game(game, [b] * k, games=1, seed=seed, threads=1, params=params or None)


def _wilson(w: int, n: int) -> tuple[Optional[float], Optional[float], Optional[float]]:
    if n == 0:
        return None, None, None
    lo, hi = wilson_interval(w, n)
    return w / n, lo, hi


def _pair_tables(
    cells: list[tuple[str, str]], played: list[dict[str, Any]], sides: list[str], bots: list[str]
) -> tuple[pl.DataFrame, pl.DataFrame]:
    s0, s1 = sides
    rows = []
    acc: dict[tuple[str, str], list[int]] = {}
    for (a, b), p in zip(cells, played, strict=True):
        n = p["games"]
        w0, w1 = p["wins"]
        r, lo, hi = _wilson(w0, n)
        rows.append({f"{s0}_bot": a, f"{s1}_bot": b, "games": n, f"{s0}_wins": w0, f"{s1}_wins": w1,
                     "no_winner": p["no_winner"], "unfinished": p["unfinished"], f"{s0}_win_rate": r,
                     "ci_low": lo, "ci_high": hi, "turns_mean": p["turns_mean"],
                     "games_per_second": n / p["secs"] if p["secs"] > 0 else math.inf})  # fmt: skip
        for bot, side, w in ((a, s0, w0), (b, s1, w1)):
            got = acc.setdefault((bot, side), [0, 0])
            got[0] += n
            got[1] += w
    side_rows = []
    for bot in bots:
        for side in sides:
            g, w = acc[(bot, side)]
            r, lo, hi = _wilson(w, g)
            side_rows.append(
                {
                    "bot": bot,
                    "side": side,
                    "games": g,
                    "wins": w,
                    "win_rate": r,
                    "ci_low": lo,
                    "ci_high": hi,
                }
            )
    return pl.DataFrame(rows), pl.DataFrame(side_rows)


def _field_tables(
    cells: list[tuple[str, str]], played: list[dict[str, Any]], k: int
) -> tuple[pl.DataFrame, pl.DataFrame]:
    rows = []
    acc: dict[tuple[str, int], list[int]] = {}
    for (bot, field), p in zip(cells, played, strict=True):
        n = p["games"]
        r, lo, hi = _wilson(p["wins"], n)
        rows.append({"bot": bot, "field": field, "seats": k, "games": n, "wins": p["wins"], "win_rate": r,
                     "ci_low": lo, "ci_high": hi, "even_share": 1 / k, "field_wins": p["field_wins"],
                     "no_winner": p["no_winner"], "unfinished": p["unfinished"], "turns_mean": p["turns_mean"],
                     "games_per_second": n / p["secs"] if p["secs"] > 0 else math.inf})  # fmt: skip
        for s, g, w in p["per_seat"]:
            got = acc.setdefault((bot, s), [0, 0])
            got[0] += g
            got[1] += w
    seat_rows = []
    for (bot, s), (g, w) in acc.items():
        r, lo, hi = _wilson(w, g)
        seat_rows.append(
            {
                "bot": bot,
                "seat": s,
                "games": g,
                "wins": w,
                "win_rate": r,
                "ci_low": lo,
                "ci_high": hi,
            }
        )
    return pl.DataFrame(rows), pl.DataFrame(seat_rows).sort("bot", "seat", maintain_order=True)


# ---------------------------------------------------------------- bots

# ---------------------------------------------------------------- command line
