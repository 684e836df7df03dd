"""``ketharmad diagnose``: its options and the call of :func:`ketharmad.diagnose`."""

from __future__ import annotations

import argparse
from typing import Any

from ..lab.diagnose import DEFAULT_GAMES, DiagnoseResult, diagnose
from ..run.options import RunOptions
from .args import _bots, _params
from .lab import check_out, cluster_for, finish, game_arg, lab_args, live_for, progress_enabled


def _cmd_diagnose(args: argparse.Namespace) -> None:
    check_out(args)
    with cluster_for(args) as cluster, live_for(args, "ketharmad diagnose"):
        result = _run_diagnose(args, cluster)
    finish(result, args)


def _run_diagnose(args: argparse.Namespace, cluster: Any) -> DiagnoseResult:
    return diagnose(
        args.decks,
        bots=_bots(args.bots) if args.bots else "heuristic",
        games=args.games,
        seed=0 if args.seed is None else args.seed,
        params=_params(args.param, args.params, args.card_data),
        game=args.game,
        run=RunOptions(threads=args.threads, progress=progress_enabled(args), cluster=cluster),
        restricted=args.restricted,
        card_data=args.card_data,
        format=args.format,
    )


def add_command(sub: Any) -> None:
    """Register ``ketharmad diagnose`` on the CLI's subparsers."""
    p = sub.add_parser("diagnose", help="which card is off? per-card evidence ranked per faction")
    p.add_argument("--decks", nargs="+", default=None, metavar="FACTION",
                   help="the factions to diagnose, each against every other faction (default: all four)")  # fmt: skip
    lab_args(p, f"games per pairing (default: {DEFAULT_GAMES})", None)
    p.add_argument("--restricted", type=int, default=None, metavar="N",
                   help="games per pairing with each card unplayable (restricted play; default: "
                        "games / 4; 0: leave the evidence out)")  # fmt: skip
    game_arg(p)  # another game is refused, saying why (no per-card records)
    p.set_defaults(func=_cmd_diagnose)
