"""``ketharmad ab A B``: its options and the call of :func:`ketharmad.ab_test`."""

from __future__ import annotations

import argparse
from typing import Any

from ..game.spec import load_game
from ..lab.ab_test import DEFAULT_MAX_GAMES, ab_test
from ..run.options import RunOptions
from .args import _bots, _params
from .lab import (
    check_out,
    cli_refuse,
    cluster_for,
    driver_of,
    finish,
    game_arg,
    live_for,
    progress_enabled,
    run_args,
)


def _cmd_ab(args: argparse.Namespace) -> None:
    ketharmad = driver_of(args).is_ketharmad
    if not ketharmad:  # Kétharmad refuses --seats itself (ab_test)
        cli_refuse(args, "ab", [("--decks", "decks"), ("--card-data", "card_data"), ("--format", "format"),
                            ("--params", "params")],
                   "A B, --elo0, --elo1, --alpha, --beta, --seats, --max-games, --seed, "
                   "--param and the run options")  # fmt: skip
    check_out(args)
    a, b = (_bots([x]) if ketharmad else x for x in (args.a, args.b))
    with cluster_for(args) as cluster, live_for(args, "ketharmad ab"):
        game: Any = args.game
        if args.decks:
            game = load_game(args.game, decks=list(args.decks))
        setup = {k: v for k, v in (("card_data", args.card_data), ("format", args.format), ("seats", args.seats))
                 if v is not None}  # fmt: skip
        result = ab_test(
            a, b, elo0=args.elo0, elo1=args.elo1, alpha=args.alpha, beta=args.beta, game=game,
            params=_params(args.param, args.params, args.card_data) if ketharmad else _harness_params(args.param),
            seed=0 if args.seed is None else args.seed, max_games=args.max_games,
            run=RunOptions(threads=args.threads, progress=progress_enabled(args), cluster=cluster), **setup,
        )  # fmt: skip
    finish(result, args)


def _harness_params(items: Any) -> dict[str, Any]:
    from .harness import cli_params

    return cli_params(items) or {}


def add_command(sub: Any) -> None:
    """Register ``ketharmad ab`` on the CLI's subparsers."""
    p = sub.add_parser("ab", help="A/B test of two bots: a sequential test (SPRT) on paired games")
    p.add_argument(
        "a",
        metavar="A",
        help="the bot under test (a name or JSON spec; another game: a spec string)",
    )
    p.add_argument("b", metavar="B", help="the bot it is compared with")
    p.add_argument("--elo0", type=float, default=0.0, help="H0: A's Elo over B (default: 0)")
    p.add_argument(
        "--elo1",
        type=float,
        default=10.0,
        help="H1: A's Elo over B (default: 10, about 1.4 points)",
    )
    p.add_argument(
        "--alpha",
        type=float,
        default=0.05,
        help="chance of accepting H1 when H0 holds (default: 0.05)",
    )
    p.add_argument(
        "--beta",
        type=float,
        default=0.05,
        help="chance of accepting H0 when H1 holds (default: 0.05)",
    )
    p.add_argument("--decks", nargs=2, default=None, metavar="DECK",
                   help="one deck pairing (default: all 12, evenly)")  # fmt: skip
    p.add_argument("--max-games", type=int, default=DEFAULT_MAX_GAMES, metavar="N",
                   help=f"game budget; the test is inconclusive when it is spent (default: {DEFAULT_MAX_GAMES:,})")  # fmt: skip
    p.add_argument(
        "--seats", type=int, default=None, metavar="N", help="--game osztrakon: seats (default: 5)"
    )
    run_args(p)
    game_arg(p)
    p.set_defaults(func=_cmd_ab)
