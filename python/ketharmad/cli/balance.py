"""The ``ketharmad balance`` command (registered on the CLI by :func:`add_balance_command`)."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["add_balance_command"]

from ..game.data import CARD_DATA_HELP
from ..lab.balance.report import write_balance_report
from ..lab.balance.search import balance
from ..lab.balance.targets import load_targets
from ..run.options import RunOptions
from .args import _bots, _params
from .balance_games import cmd_game_balance, repair_from_arg
from .lab import (
    cli_refuse,
    cluster_args,
    cluster_for,
    driver_of,
    format_arg,
    game_arg,
    live_for,
    progress_enabled,
)
from .out import check_out, write_out


def _cmd_balance(args: argparse.Namespace) -> None:
    if not driver_of(args).is_ketharmad:
        cmd_game_balance(args)
        return
    cli_refuse(args, "balance", [("--target", "target"), ("--spread", "spread"), ("--allow", "allow"),
                                 ("--range", "range"), ("--max-edits", "max_edits"),
                                 ("--games-per-block", "games_per_block")],
               "a Kétharmad balance reads TARGETS.toml")  # fmt: skip
    if args.targets is None:
        raise ValueError("the balance needs its TARGETS.toml file")
    targets = load_targets(args.targets)  # a bad file fails before anything else
    check_out(args, plots_required=False)  # plots when matplotlib is installed

    progress = progress_enabled(args)

    with cluster_for(args) as cluster, live_for(args, "ketharmad balance"):
        res = _run(args, targets, progress, cluster)
    print(res.text())
    if args.out:
        run_id, md, html = write_out(res, args, lambda rid: write_balance_report(
            res, args.out, plots=False if args.no_plots else None, run_id=rid))  # fmt: skip
        print(f"wrote run {run_id} to {args.out}: report {md}, HTML report {html}, card file "
              f"{md.parent / 'cards_balanced.toml'}")  # fmt: skip


def _run(args: argparse.Namespace, targets: Any, progress: Any, cluster: Any) -> Any:
    return balance(
        targets,
        # no --bots: the heuristic, or the rungs of the targets' [ladder]
        bots=_bots(args.bots) if args.bots else None,
        seed=args.seed,
        budget=args.budget,
        card_data=args.card_data,
        params=_params(args.param),
        journal=args.journal,
        format=args.format,
        settings={"strategy": args.strategy, "repair_from": repair_from_arg(args)},
        run=RunOptions(threads=args.threads, progress=bool(progress), cluster=cluster),
    )


def add_balance_command(sub: Any) -> None:
    """Register ``ketharmad balance TARGETS.toml`` on the CLI's subparsers."""
    p = sub.add_parser(
        "balance", help="find the fewest card-number edits that balance the matchups"
    )
    p.add_argument(
        "targets", metavar="TARGETS.toml", nargs="?", help="targets file (docs/balance.md)"
    )

    game_arg(p)
    g = p.add_argument_group(
        "harness games (--game schotten_totten_2 | osztrakon; instead of TARGETS.toml)"
    )
    g.add_argument("--target", action="append", metavar="SEAT=LOW:HIGH",
                   help="a seat's (side's) win rate band with the --bots lineup, e.g. attacker=0.48:0.52")  # fmt: skip
    g.add_argument("--spread", type=float, metavar="HIGH",
                   help="the largest |seat win rate - 1/n| allowed (games of more seats)")  # fmt: skip
    g.add_argument("--allow", action="append", metavar="PATTERN",
                   help="a parameter (fnmatch pattern) the search may move, repeatable (default: every int/float one)")  # fmt: skip
    g.add_argument(
        "--range",
        action="append",
        metavar="NAME=MIN:MAX[:STEP]",
        help="bounds and step of a parameter",
    )
    g.add_argument("--max-edits", type=int, metavar="K", help="edits at most (default: 3)")
    g.add_argument(
        "--games-per-block",
        type=int,
        metavar="N",
        help="games of a lineup per block (default: 100)",
    )
    p.add_argument(
        "--out",
        metavar="FOLDER",
        help="write Parquet tables, report.html (live while the run goes), report.md, plots and "
        "cards_balanced.toml here; refused if it holds an earlier run",
    )
    p.add_argument("--overwrite", action="store_true",
                   help="replace the earlier run in --out (its tables, reports, plots and replay pages)")  # fmt: skip
    p.add_argument("--budget", type=int, default=None,
                   help="games in total (default: 3,000,000; harness games: 200,000)")  # fmt: skip
    p.add_argument("--seed", type=int, default=0, help="seed (default: 0)")
    p.add_argument("--strategy", choices=["cards", "descent"], default="cards",
                   help="cards: the card-level repair, suspect cards first (default); descent: the "
                        "earlier search (docs/balance.md)")  # fmt: skip
    p.add_argument("--repair-from", action="append", default=None, metavar="NAME=VALUE",
                   help="start the card-level repair from this point (repeatable: an earlier run's "
                        "proposal); each edit counts against max_edits and may move, be reverted or "
                        "swapped (settings.repair_from, docs/balance.md)")  # fmt: skip
    p.add_argument(
        "--bots",
        nargs="+",
        default=None,
        metavar="BOT",
        help="bot spec (default: heuristic, or the rungs of the targets' [ladder]); harness "
        "games: one per seat",
    )
    p.add_argument(
        "--journal", metavar="FILE", help="JSON-lines journal: resume an interrupted run"
    )
    p.add_argument("--threads", type=int, default=None, help="worker threads (default: all cores)")
    p.add_argument(
        "--param",
        action="append",
        metavar="NAME=VALUE",
        help="fixed override of the starting point",
    )
    p.add_argument("--card-data", metavar="PATH|SET", help=CARD_DATA_HELP)
    p.add_argument(
        "--no-plots",
        action="store_true",
        help="report.md without plots (default: plots when matplotlib is installed)",
    )
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress line on stderr (default: when stderr is a terminal)")  # fmt: skip

    format_arg(p)
    cluster_args(p)
    p.set_defaults(func=_cmd_balance)
