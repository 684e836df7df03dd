"""The balance-lab commands of the CLI: ``ketharmad matchups | card-stats | sweep``.

Each prints a text summary; with ``--out FOLDER`` it also writes the run's Parquet tables
(``FOLDER/<table>/<run_id>.parquet``, with provenance columns) and ``FOLDER/report.md`` with
PNG plots (matplotlib, the ``report`` extra; ``--no-plots`` writes the Markdown only).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from typing import Any, Optional

__all__ = ["add_lab_commands", "load_sweep_file", "MAX_SWEEP_FILE_BYTES", "MAX_SWEEP_DEPTH"]

#: Largest sweep file read, and the deepest nesting of tables and arrays accepted in it.
from .._data import MAX_TOML_DEPTH as MAX_SWEEP_DEPTH  # noqa: E402
from .._data import MAX_TOML_FILE_BYTES as MAX_SWEEP_FILE_BYTES  # noqa: E402

_SWEEP_KEYS = {
    "grid", "points", "decks", "bots", "games", "seed", "baseline", "params", "start_player",
    "threads", "card_data",
}  # fmt: skip


def _progress_enabled(args: argparse.Namespace) -> bool:
    if args.progress is not None:
        return bool(args.progress)
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def _chunk(args: argparse.Namespace, per_call: int) -> Optional[int]:
    from .._progress import auto_chunk_size

    return auto_chunk_size(per_call) if _progress_enabled(args) else None


def _check_out(args: argparse.Namespace) -> None:
    """Fail before any game runs when the plots cannot be drawn, --out is not a folder that
    exists or can be made and is writable, or --run-id names a run already in it."""
    if not args.out:
        if args.run_id is not None or args.overwrite:
            raise ValueError("--run-id and --overwrite need --out FOLDER")
        return
    from .._files import check_new_run, check_out_folder

    folder = check_out_folder(args.out)
    check_new_run(folder, args.run_id, args.overwrite)
    if not args.no_plots:
        from .report import require_matplotlib

        require_matplotlib()


def _finish(result: Any, args: argparse.Namespace) -> None:
    print(result)
    if not args.out:
        return
    from .._files import write_run
    from .report import write_report

    written = write_run(result, args.out, run_id=args.run_id, overwrite=args.overwrite)
    run_id = written["runs"].stem
    report = write_report(result, args.out, plots=not args.no_plots, run_id=run_id)
    tables = ", ".join(sorted(k for k in written if k != "runs"))
    print(f"wrote run {run_id} to {args.out}: Parquet tables {tables}; report {report}")


def _lab_args(p: argparse.ArgumentParser, games_help: str, games_default: Optional[int]) -> None:
    p.add_argument("--games", type=int, default=games_default, help=games_help)
    p.add_argument("--bots", nargs="+", default=None, metavar="BOT",
                   help="bot spec (name or JSON; default: heuristic)")  # fmt: skip
    p.add_argument("--seed", type=int, default=None, help="batch seed (default: 0)")
    p.add_argument("--threads", type=int, default=None, help="worker threads (default: all cores)")
    p.add_argument("--param", action="append", metavar="NAME=VALUE",
                   help="parameter override, repeatable (see `ketharmad params`)")  # fmt: skip
    from ..cli import PARAMS_FILE_HELP

    p.add_argument("--params", metavar="FILE", help=PARAMS_FILE_HELP)
    p.add_argument("--card-data", metavar="PATH", help="card-data TOML file (default: packaged)")
    p.add_argument("--out", metavar="FOLDER",
                   help="write Parquet tables (with provenance) and report.md + PNG plots here")  # fmt: skip
    p.add_argument("--run-id", metavar="ID",
                   help="name of the run's files in --out (default: <command>-<UTC time>-<random>)")  # fmt: skip
    p.add_argument("--overwrite", action="store_true",
                   help="replace the files of an existing --run-id in --out")  # fmt: skip
    p.add_argument("--no-plots", action="store_true", help="report.md without plots (no matplotlib)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress bar on stderr (default: when stderr is a terminal)")  # fmt: skip


def _cmd_matchups(args: argparse.Namespace) -> None:
    from .matchups import matchups
    from ..cli import _bots, _params

    _check_out(args)
    if args.players == 2:
        per_call = args.games // 2 if args.games else (args.games_per_side or 2000)
    else:
        per_call = (args.games or 1920) // 24 or 1
    result = matchups(
        players=args.players,
        games_per_side=args.games_per_side,
        games=args.games,
        bots=_bots(args.bots) if args.bots else "heuristic",
        seed=0 if args.seed is None else args.seed,
        params=_params(args.param, args.params, args.card_data),
        threads=args.threads,
        card_data=args.card_data,
        chunk_size=_chunk(args, max(1, per_call)),
        progress=_progress_enabled(args),
    )
    _finish(result, args)


def _cmd_card_stats(args: argparse.Namespace) -> None:
    from .._api import simulate
    from .card_stats import card_stats
    from ..cli import _bots, _params

    _check_out(args)
    batch = simulate(
        decks=args.decks,
        bots=_bots(args.bots) if args.bots else "heuristic",
        games=args.games,
        seed=0 if args.seed is None else args.seed,
        threads=args.threads,
        params=_params(args.param, args.params, args.card_data),
        card_data=args.card_data,
        record_plays=True,
        chunk_size=_chunk(args, args.games),
        progress=_progress_enabled(args),
    )
    _finish(card_stats(batch), args)


def _depth(value: Any) -> int:
    from .._data import toml_depth

    return toml_depth(value, MAX_SWEEP_DEPTH)


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    from .._data import flatten_table

    return flatten_table(table, prefix)


def load_sweep_file(path: str) -> dict[str, Any]:
    """Read a sweep TOML file into :func:`ketharmad.sweep` keyword arguments.

    Keys: a ``[grid]`` table of lists (or ``[[points]]`` tables), optional ``decks`` ("all",
    a list of factions or a list of lists), ``bots``, ``games``, ``seed``, ``baseline``,
    ``start_player``, ``threads``, ``card_data`` (relative to the file) and a ``[params]``
    table of fixed overrides. Parameter names may be quoted (``"rules.starting_support"``)
    or bare dotted keys. The file may be at most 1 MiB, its tables and arrays nested at most
    32 deep; otherwise, or when it is not valid TOML, ``ValueError``.
    """
    from .._data import read_toml_file

    doc = read_toml_file(path, "sweep file")
    unknown = sorted(set(doc) - _SWEEP_KEYS)
    if unknown:
        raise ValueError(
            f"sweep file {path}: unknown key(s) {', '.join(unknown)}; "
            f"valid: {', '.join(sorted(_SWEEP_KEYS))}"
        )
    if ("grid" in doc) == ("points" in doc):
        raise ValueError(f"sweep file {path} needs exactly one of a [grid] table or [[points]] tables")
    kwargs: dict[str, Any] = {}
    if "grid" in doc:
        if not isinstance(doc["grid"], Mapping):
            raise ValueError(f"sweep file {path}: grid must be a table of lists")
        kwargs["grid"] = _flatten(doc["grid"])
    else:
        if not isinstance(doc["points"], list) or not all(isinstance(p, Mapping) for p in doc["points"]):
            raise ValueError(f"sweep file {path}: points must be an array of tables ([[points]])")
        kwargs["grid"] = [_flatten(p) for p in doc["points"]]
    for key in ("decks", "bots", "games", "seed", "start_player", "threads"):
        if key in doc:
            kwargs[key] = doc[key]
    if "params" in doc:
        if not isinstance(doc["params"], Mapping):
            raise ValueError(f"sweep file {path}: params must be a table")
        kwargs["params"] = _flatten(doc["params"])
    if "baseline" in doc:
        b = doc["baseline"]
        kwargs["baseline"] = _flatten(b) if isinstance(b, Mapping) else b
    if "card_data" in doc:
        kwargs["card_data"] = os.path.join(os.path.dirname(os.path.abspath(path)), doc["card_data"])
    return kwargs


def _cmd_sweep(args: argparse.Namespace) -> None:
    from .sweep import sweep
    from ..cli import _bots, _params

    kwargs = load_sweep_file(args.grid_file)
    _check_out(args)
    if args.games is not None:
        kwargs["games"] = args.games
    if args.seed is not None:
        kwargs["seed"] = args.seed
    if args.threads is not None:
        kwargs["threads"] = args.threads
    if args.bots:
        kwargs["bots"] = _bots(args.bots)
    if args.decks:
        kwargs["decks"] = "all" if args.decks == ["all"] else args.decks
    if args.baseline is not None:
        kwargs["baseline"] = args.baseline
    if args.card_data:
        kwargs["card_data"] = args.card_data
    overrides = _params(args.param, args.params, kwargs.get("card_data"))
    if overrides:
        kwargs["params"] = {**kwargs.get("params", {}), **overrides}
    kwargs.setdefault("games", 1000)
    games = kwargs["games"]
    per_call = games if isinstance(games, int) and not isinstance(games, bool) and games > 0 else 1
    result = sweep(**kwargs, chunk_size=_chunk(args, per_call), progress=_progress_enabled(args))
    _finish(result, args)


def add_lab_commands(sub: Any) -> None:
    """Register ``matchups``, ``card-stats`` and ``sweep`` on the CLI's subparsers."""
    p = sub.add_parser(
        "matchups",
        help="faction matchup matrix (2p, start player balanced) or free-for-all (3-4p)",
    )
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=2,
                   help="2: the 4x4 matrix; 3 or 4: free-for-all over all 24 seatings")  # fmt: skip
    p.add_argument("--games-per-side", type=int, default=None,
                   help="2 players: games per pair with each side starting (default: 2000)")  # fmt: skip
    _lab_args(p, "2 players: games per cell (instead of --games-per-side); 3-4 players: "
                 "games in total, a multiple of 24 (default: 1920)", None)  # fmt: skip
    p.set_defaults(func=_cmd_matchups)

    p = sub.add_parser("card-stats", help="per-card win rates (17lands style) for one deck pairing")
    p.add_argument("--decks", nargs="+", default=["ner", "tisza"], metavar="FACTION",
                   help="one faction per seat, 2-4 (default: ner tisza)")  # fmt: skip
    _lab_args(p, "number of games (default: 10000)", 10000)
    p.set_defaults(func=_cmd_card_stats)

    p = sub.add_parser("sweep", help="parameter sweep over common random numbers (grid TOML file)")
    p.add_argument("grid_file", metavar="GRID.toml",
                   help="TOML with a [grid] table of lists and optional decks/bots/games/seed")  # fmt: skip
    p.add_argument("--decks", nargs="+", metavar="FACTION",
                   help="one pairing, or 'all' for the 12 ordered pairs (overrides the file)")  # fmt: skip
    p.add_argument("--baseline", type=int, default=None, help="index of the baseline point (default: 0)")
    _lab_args(p, "games per point and matchup (default: the file's, else 1000)", None)
    p.set_defaults(func=_cmd_sweep)
