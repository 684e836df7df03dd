"""``ketharmad matchups``: its options and the call of :func:`ketharmad.matchups`, the same
for every ``--game``."""

from __future__ import annotations

import argparse
from typing import Any

from ..lab.matchups import ROWS_AUTO_LIMIT, matchups
from ..run.options import RunOptions
from .args import _bots, _params
from .harness import cli_bot_list, cli_games_for, cli_params
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


def _cmd_matchups(args: argparse.Namespace) -> None:
    check_out(args)
    kwargs, run = _matchup_args(
        args
    )  # a flag the game does not take: refused before a cluster starts
    with cluster_for(args) as cluster, live_for(args, "ketharmad matchups"):
        result = matchups(**kwargs, run=RunOptions(**run, cluster=cluster))
    finish(result, args)


def _matchup_args(args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, Any]]:
    """The keywords of the one :func:`ketharmad.matchups` call and its run options: the
    game's own flags (Kétharmad: players, decks, card data, format, progress; another game:
    seats, field, games-for), the rest shared."""
    if driver_of(args).is_ketharmad:
        cli_refuse(args, "matchups", [("--seats", "seats"), ("--field", "field"), ("--games-for", "games_for")],
                   "a Kétharmad matchup has one seat per deck of --players")  # fmt: skip
        if args.players in (None, 2) and args.format in (None, "ffa", "quick"):
            per_call = args.games // 2 if args.games else (args.games_per_side or 2000)
        else:
            per_call = (args.games or 1920) // 24 or 1
        kwargs: dict[str, Any] = dict(
            bots=_bots(args.bots) if args.bots else "heuristic", params=_params(args.param, args.params, args.card_data),
            players=args.players, games_per_side=args.games_per_side, card_data=args.card_data, decks=args.decks,
            format=args.format,
        )  # fmt: skip
        chunk, progress = chunk_for(args, max(1, per_call)), progress_enabled(args)
    else:
        cli_refuse(args, "matchups", [("--players", "players"), ("--decks", "decks"),
                                      ("--games-per-side", "games_per_side"), ("--params", "params"),
                                      ("--card-data", "card_data"), ("--format", "format"), ("--progress", "progress")],
                   "--bots, --games (per cell), --seed, --threads, --param, --seats, --field, --games-for, --rows, "
                   "--scheduler/--workers and --out")  # fmt: skip
        kwargs = dict(bots=cli_bot_list(args.bots), params=cli_params(args.param), seats=args.seats,
                      field=args.field, games_for=cli_games_for(args.games_for))  # fmt: skip
        chunk, progress = None, False
    kwargs.update(games=args.games, seed=0 if args.seed is None else args.seed, game=args.game)
    return kwargs, dict(threads=args.threads, chunk_size=chunk, progress=progress, rows=args.rows)


def add_command(sub: Any) -> None:
    """Register ``ketharmad matchups`` on the CLI's subparsers."""
    p = sub.add_parser(
        "matchups",
        help="faction matchup matrix (2p, start player balanced) or free-for-all (3-4p)",
    )
    p.add_argument("--players", type=int, choices=range(2, 10), default=None, metavar="N",
                   help="2: the matrix of the sides; 3 or 4: free-for-all over every seating (default: 2, "
                        "or the format's smallest seat count: 4 for coalition, the team-pair table)")  # fmt: skip
    p.add_argument("--decks", nargs="+", default=None, metavar="DECK",
                   help="the sides: factions, Mixed decks a+b or deck files (default: the four factions)")  # fmt: skip
    p.add_argument("--games-per-side", type=int, default=None,
                   help="2 players: games per pair with each side starting (default: 2000)")  # fmt: skip
    lab_args(p, "2 players: games per cell (instead of --games-per-side); 3-4 players: "
                "games in total, a multiple of 24 (default: 1920)", None)  # fmt: skip
    p.add_argument("--rows", action=argparse.BooleanOptionalAction, default=None,
                   help="keep the per-game rows (matchup_games/matchup_players tables) or, with "
                        "--no-rows, only per-cell reductions: the same tables in memory that does "
                        f"not grow with the games (default: rows up to {ROWS_AUTO_LIMIT:,} games)")  # fmt: skip

    game_arg(p)
    p.add_argument("--seats", type=int, default=None, metavar="N",
                   help="--game osztrakon: seats of the bot-against-field table, 5-12 (default: 5)")  # fmt: skip
    p.add_argument("--field", default=None, metavar="BOT",
                   help="--game osztrakon: the field every --bots bot plays against (default: each other bot)")  # fmt: skip
    p.add_argument("--games-for", action="append", default=None, metavar="TEXT=N",
                   help="another --game: at most N games in a cell whose bot specs contain TEXT (e.g. search=200)")  # fmt: skip
    p.set_defaults(func=_cmd_matchups)
