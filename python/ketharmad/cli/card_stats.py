"""``ketharmad card-stats``: its options and the call of :func:`ketharmad.card_stats`."""

from __future__ import annotations

import argparse
from typing import Any

from ..lab.card_stats import ROWS_AUTO_LIMIT, CardStatsResult, _refuse_game, card_stats
from ..run.options import RunOptions
from .args import _bots, _params
from .lab import (
    check_out,
    chunk_for,
    cluster_for,
    driver_of,
    finish,
    game_arg,
    lab_args,
    live_for,
    progress_enabled,
)


def _cmd_card_stats(args: argparse.Namespace) -> None:
    if not driver_of(args).is_ketharmad:
        _refuse_game(args.game)
    check_out(args)
    with cluster_for(args) as cluster, live_for(args, "ketharmad card-stats"):
        result = _run_card_stats(args, cluster)
    finish(result, args)


def _run_card_stats(args: argparse.Namespace, cluster: Any) -> CardStatsResult:
    return card_stats(
        decks=args.decks,
        bots=_bots(args.bots) if args.bots else "heuristic",
        games=args.games,
        seed=0 if args.seed is None else args.seed,
        params=_params(args.param, args.params, args.card_data),
        card_data=args.card_data,
        format=args.format,
        run=RunOptions(
            threads=args.threads,
            chunk_size=chunk_for(args, args.games),
            progress=progress_enabled(args),
            cluster=cluster,
            rows=args.rows,
        ),
    )


def add_command(sub: Any) -> None:
    """Register ``ketharmad card-stats`` on the CLI's subparsers."""
    p = sub.add_parser("card-stats", help="per-card win rates (17lands style) for one deck pairing")
    p.add_argument("--decks", nargs="+", default=["ner", "tisza"], metavar="FACTION",
                   help="one faction per seat, 2-4 (default: ner tisza)")  # fmt: skip
    lab_args(p, "number of games (default: 10000)", 10000)
    p.add_argument("--rows", action=argparse.BooleanOptionalAction, default=None,
                   help="keep the per-game rows (games, players, card_records, plays tables) or, "
                        "with --no-rows, only per-card counts: the same card_stats table in memory "
                        f"that does not grow with the games (default: rows up to {ROWS_AUTO_LIMIT:,} "
                        "games)")  # fmt: skip

    game_arg(p)  # another game is refused, saying why (no per-card records)
    p.set_defaults(func=_cmd_card_stats)
