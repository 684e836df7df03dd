"""``ketharmad ladder [BOT ...]``: its options and the call of :func:`ketharmad.ladder`."""

from __future__ import annotations

import argparse
from typing import Any

from ..lab.ladder import DEFAULT_BOOTSTRAP, ladder
from ..run.options import RunOptions
from .args import _bots, _params
from .harness import cli_params
from .lab import (
    check_out,
    cluster_for,
    driver_of,
    finish,
    game_arg,
    live_for,
    progress_enabled,
    run_args,
)


def _cmd_ladder(args: argparse.Namespace) -> None:
    check_out(args)
    ketharmad = driver_of(args).is_ketharmad
    specs: Any = None
    if args.specs:
        specs = [_bots([x]) for x in args.specs] if ketharmad else list(args.specs)
    params = (
        _params(args.param, args.params, args.card_data) if ketharmad else cli_params(args.param)
    )
    with cluster_for(args) as cluster, live_for(args, "ketharmad ladder"):
        result = ladder(
            specs, game=args.game, games=args.games, seed=0 if args.seed is None else args.seed,
            margin=args.margin, bootstrap=args.bootstrap, decks=[args.decks] if args.decks else None,
            params=params or None, card_data=args.card_data, format=args.format, seats=args.seats,
            run=RunOptions(threads=args.threads, progress=progress_enabled(args), cluster=cluster),
        )  # fmt: skip
    finish(result, args)


def add_command(sub: Any) -> None:
    """Register ``ketharmad ladder`` on the CLI's subparsers."""
    p = sub.add_parser(
        "ladder", help="rate bots of rising skill with intervals and check each beats the one below"
    )
    p.add_argument("specs", nargs="*", metavar="BOT",
                   help="the rungs, weakest first (names or JSON; default: the game's shipped ladder)")  # fmt: skip
    p.add_argument("--games", type=int, default=None,
                   help="games per pair of bots, as `ketharmad bots` (Kétharmad: a multiple of 24, default 960)")  # fmt: skip
    p.add_argument("--margin", type=float, default=0.0,
                   help="each rung must beat the one below by this share of games over even (default: 0)")  # fmt: skip
    p.add_argument("--bootstrap", type=int, default=DEFAULT_BOOTSTRAP,
                   help=f"resamples of the rating intervals (default: {DEFAULT_BOOTSTRAP}; 0: none)")  # fmt: skip
    p.add_argument(
        "--decks", nargs=2, default=None, metavar="DECK", help="one deck pairing (default: all 12)"
    )
    p.add_argument(
        "--seats", type=int, default=None, metavar="N", help="--game osztrakon: seats (default: 5)"
    )
    run_args(p)
    game_arg(p)
    p.set_defaults(func=_cmd_ladder)
