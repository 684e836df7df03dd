"""``ketharmad sweep``: its options, GRID.toml and the call of :func:`ketharmad.sweep`
(``--game`` of a harness game: :mod:`ketharmad.cli.game_sweep`)."""

from __future__ import annotations

import argparse
from typing import Any

from ..lab.sweep import ROWS_AUTO_LIMIT, load_sweep_file, sweep
from .args import _bots, _params
from .game_sweep import cmd_game_sweep
from .lab import (
    check_out,
    chunk_for,
    cli_refuse,
    cluster_for,
    driver_of,
    finish,
    game_arg,
    lab_args,
    progress_enabled,
)


def _cmd_sweep(args: argparse.Namespace) -> None:
    if not driver_of(args).is_ketharmad:
        cmd_game_sweep(args)
        return
    cli_refuse(
        args, "sweep", [("--grid", "grid")], "a Kétharmad sweep reads its grid from GRID.toml"
    )
    if args.grid_file is None:
        raise ValueError("the sweep needs its GRID.toml file")
    kwargs = load_sweep_file(args.grid_file)
    check_out(args)
    if args.games is not None:
        kwargs["games"] = args.games
    if args.seed is not None:
        kwargs["seed"] = args.seed
    run: dict[str, Any] = {"threads": kwargs.pop("threads")} if "threads" in kwargs else {}
    if args.threads is not None:
        run["threads"] = args.threads
    if args.bots:
        kwargs["bots"] = _bots(args.bots)
    if args.decks:
        kwargs["decks"] = "all" if args.decks == ["all"] else args.decks
    if args.baseline is not None:
        kwargs["baseline"] = args.baseline
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
    with cluster_for(args) as cluster:
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
