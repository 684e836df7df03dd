"""``ketharmad sweep --game ...`` for the games on the generic harness: ``--grid`` and
``--param`` parsing and the call of the harness sweep."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional

from ..game.harness import ParamValue
from ..lab.sweep import load_sweep_file, sweep
from .args import _generic_value
from .lab import check_out, cli_refuse, cluster_for, finish


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
    """``--bots A B ...``: one per seat, or one for every seat at the game's smallest count."""
    if not items:
        return None
    return items[0] if len(items) == 1 else list(items)


def cmd_game_sweep(args: Any) -> None:
    """``ketharmad sweep --game schotten_totten_2 --grid rules.cauldrons=2,3,4 --bots greedy greedy``."""
    cli_refuse(args, "sweep", [("--decks", "decks"), ("--card-data", "card_data"), ("--params", "params"),
                               ("--format", "format"), ("--rows/--no-rows", "rows"), ("--progress", "progress")],
               "GRID.toml or --grid, --bots, --param, --games, --seed, --threads, --baseline, --out and the cluster "
               "options")  # fmt: skip
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
    if args.bots:
        kwargs["bots"] = cli_bots(args.game, args.bots)
    if args.baseline is not None:
        kwargs["baseline"] = args.baseline
    overrides = cli_params(args.param)
    if overrides:
        kwargs["params"] = {**kwargs.get("params", {}), **overrides}

    with cluster_for(args) as cluster:
        result = sweep(**kwargs, game=args.game, run={**run, "cluster": cluster})
    finish(result, args)
