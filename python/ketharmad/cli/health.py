"""``ketharmad health``: its options and the call of :func:`ketharmad.health` (docs/health.md)."""

from __future__ import annotations

import argparse
from typing import Any

from ..lab.health import health, is_ketharmad
from .args import _params
from .harness import cli_params
from .lab import check_out, finish, game_arg, out_args


def _cmd_health(args: argparse.Namespace) -> None:
    check_out(args)
    params: dict[str, Any] = (
        dict(_params(args.param, None, args.card_data))
        if is_ketharmad(args.game)
        else dict(cli_params(args.param))
    )
    result = health(
        args.game, bots=args.bots, games=args.games, seed=args.seed, decks=args.decks,
        seats=args.seats, params=params or None, card_data=args.card_data,
        restricted=args.restricted, run={"threads": args.threads},
    )  # fmt: skip
    finish(result, args)


def add_command(sub: Any) -> None:
    """Register ``ketharmad health`` on the CLI's subparsers."""
    p = sub.add_parser("health", help="the game-health report: 12+ metrics with 95 % intervals")
    p.add_argument("--bots", nargs="+", default=None, metavar="BOT",
                   help="the ladder, weakest first (default: random and the game's rule-based bot)")  # fmt: skip
    p.add_argument("--games", type=int, default=2_000, help="games of each batch (default: 2000)")
    p.add_argument("--seed", type=int, default=0, help="batch seed (default: 0)")
    p.add_argument("--threads", type=int, default=None, help="worker threads (default: all cores)")
    p.add_argument("--decks", nargs="+", default=None, metavar="DECK",
                   help="Kétharmad: the factions whose ordered pairings are played (default: all four)")  # fmt: skip
    p.add_argument("--seats", type=int, default=None, help="seats (default: 2; Osztrakon 5)")
    p.add_argument("--param", action="append", metavar="NAME=VALUE",
                   help="parameter override, repeatable (see `ketharmad params`)")  # fmt: skip
    p.add_argument("--card-data", metavar="PATH|SET", default=None,
                   help="Kétharmad: the card data (a file, or `balanced`)")  # fmt: skip
    p.add_argument("--restricted", type=int, default=100,
                   help="Kétharmad: restricted-play games per pairing per card (default 100; 0: none)")  # fmt: skip
    out_args(p)
    game_arg(p)
    p.set_defaults(func=_cmd_health)
