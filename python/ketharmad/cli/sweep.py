"""``ketharmad sweep``: its options, GRID.toml (or ``--grid`` for a game on the harness) and
the call of :func:`ketharmad.sweep`, the same command for every game."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, Optional

from ..game.harness import ParamValue
from ..lab.sweep import ROWS_AUTO_LIMIT, load_sweep_file, sweep
from .args import _bots, _generic_value, _params
from .lab import (
    check_out,
    chunk_for,
    cli_refuse,
    cluster_for,
    driver_of,
    finish,
    game_arg,
    lab_args,
    live_for,
    progress_enabled,
)


def cli_params(items: Optional[Sequence[str]]) -> dict[str, ParamValue]:
    """``--param name=value`` of a harness game (int, float, true/false, else a choice name)."""
    out: dict[str, ParamValue] = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise ValueError(f"--param expects name=value, got {item!r}")
        if name in out:
            raise ValueError(f"parameter {name!r} given more than once")
        out[name] = _generic_value(value.strip())
    return out


def cli_grid(items: Sequence[str]) -> dict[str, list[ParamValue]]:
    """``--grid name=v1,v2,...`` (repeatable) as a grid dict."""
    grid: dict[str, list[ParamValue]] = {}
    for item in items:
        name, sep, values = item.partition("=")
        name = name.strip()
        if not sep or not name or not values.strip():
            raise ValueError(f"--grid expects name=v1,v2,..., got {item!r}")
        if name in grid:
            raise ValueError(f"--grid: parameter {name!r} given more than once")
        grid[name] = [_generic_value(v.strip()) for v in values.split(",")]
    return grid


def cli_bots(game: str, items: Optional[Sequence[str]]) -> Any:
    """``--bots A B ...`` of a harness game: one per seat, or one for every seat at the game's
    smallest count."""
    if not items:
        return None
    return items[0] if len(items) == 1 else list(items)


def _cmd_sweep(args: argparse.Namespace) -> None:
    """``ketharmad sweep GRID.toml`` (Kétharmad) or ``ketharmad sweep --game schotten_totten_2
    --grid rules.cauldrons=2,3,4 --bots greedy greedy``: the options every game takes, then
    the game's own (Kétharmad: decks, card data, format, ``--params``, rows, progress; a game
    on the harness: ``--grid``, ``--param``), one call of :func:`ketharmad.sweep`."""
    ketharmad = driver_of(args).is_ketharmad
    if ketharmad:
        cli_refuse(
            args, "sweep", [("--grid", "grid")], "a Kétharmad sweep reads its grid from GRID.toml"
        )
        if args.grid_file is None:
            raise ValueError("the sweep needs its GRID.toml file")
    else:
        cli_refuse(args, "sweep", [("--decks", "decks"), ("--card-data", "card_data"), ("--params", "params"),
                                   ("--format", "format"), ("--rows/--no-rows", "rows"), ("--progress", "progress")],
                   "GRID.toml or --grid, --bots, --param, --games, --seed, --threads, --baseline, --out and the "
                   "cluster options")  # fmt: skip
        if (args.grid_file is None) == (not args.grid):
            raise ValueError(
                "give the grid either as a GRID.toml file or as --grid name=v1,v2,... (not both)"
            )
    kwargs: dict[str, Any] = (
        load_sweep_file(args.grid_file) if args.grid_file else {"grid": cli_grid(args.grid)}
    )
    check_out(args)
    if args.games is not None:
        kwargs["games"] = args.games
    if args.seed is not None:
        kwargs["seed"] = args.seed
    run: dict[str, Any] = {"threads": kwargs.pop("threads")} if "threads" in kwargs else {}
    if args.threads is not None:
        run["threads"] = args.threads
    if args.baseline is not None:
        kwargs["baseline"] = args.baseline
    if not ketharmad:
        if args.bots:
            kwargs["bots"] = cli_bots(args.game, args.bots)
        values = cli_params(args.param)
        if values:
            kwargs["params"] = {**kwargs.get("params", {}), **values}
        with cluster_for(args) as cluster, live_for(args, "ketharmad sweep"):
            result = sweep(**kwargs, game=args.game, run={**run, "cluster": cluster})
        finish(result, args)
        return
    if args.bots:
        kwargs["bots"] = _bots(args.bots)
    if args.decks:
        kwargs["decks"] = "all" if args.decks == ["all"] else args.decks
    if args.card_data:
        kwargs["card_data"] = args.card_data
    if args.format is not None:
        kwargs["format"] = args.format
    overrides = _params(args.param, args.params, kwargs.get("card_data"))
    if overrides:
        kwargs["params"] = {**kwargs.get("params", {}), **overrides}
    kwargs.setdefault("games", 1000)
    games = kwargs["games"]
    per_call = games if isinstance(games, int) and not isinstance(games, bool) and games > 0 else 1
    from_file = kwargs.pop("rows", None)
    rows = from_file if args.rows is None else args.rows
    with cluster_for(args) as cluster, live_for(args, "ketharmad sweep"):
        result = sweep(**kwargs, run={**run, "chunk_size": chunk_for(args, per_call),
                                      "progress": progress_enabled(args), "cluster": cluster, "rows": rows})  # fmt: skip
    finish(result, args)


def add_command(sub: Any) -> None:
    """Register ``ketharmad sweep`` on the CLI's subparsers."""
    p = sub.add_parser("sweep", help="parameter sweep over common random numbers (grid TOML file)")
    p.add_argument("grid_file", metavar="GRID.toml", nargs="?",
                   help="TOML with a [grid] table of lists and optional decks/bots/games/seed")  # fmt: skip
    game_arg(p)
    p.add_argument("--grid", action="append", metavar="NAME=V1,V2,...",
                   help="a swept parameter of a --game on the harness and its values, repeatable "
                        "(instead of GRID.toml)")  # fmt: skip
    p.add_argument("--decks", nargs="+", metavar="FACTION",
                   help="one pairing, or 'all' for the 12 ordered pairs (overrides the file)")  # fmt: skip
    p.add_argument(
        "--baseline", type=int, default=None, help="index of the baseline point (default: 0)"
    )
    lab_args(p, "games per point and matchup (default: the file's, else 1000)", None)
    p.add_argument("--rows", action=argparse.BooleanOptionalAction, default=None,
                   help="keep the per-game rows (the sweep_games table) or, with --no-rows, only "
                        "reductions: the same tables in memory that does not grow with the games "
                        f"(default: rows up to {ROWS_AUTO_LIMIT:,} games in all)")  # fmt: skip
    p.set_defaults(func=_cmd_sweep)
