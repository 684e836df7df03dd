"""``ketharmad replay --html FILE``: one game of a batch as the replay viewer (an offline HTML
file; docs/replay.md), with the arguments of ``ketharmad play``. Also the reading of those
arguments into a game, its bots and its setup, shared with ``play --human`` and ``diff``."""

from __future__ import annotations

import argparse
from typing import Any, Optional

from ..game.data import CARD_DATA_HELP
from ..game.replay import game_of, record_game
from ..results.files import check_out_file
from ..results.replay_html import replay_page, write_page
from .args import PARAMS_FILE_HELP, _bots, _params
from .harness import cli_bot_list, cli_params
from .lab import cli_refuse, driver_of, format_arg, game_arg

__all__ = ["add_command", "game_setup", "add_game_args"]


def add_game_args(p: argparse.ArgumentParser, bots_default: Optional[list[str]] = None) -> None:
    """The arguments of one game of a batch, as ``ketharmad play`` takes them, plus
    ``--seats`` of a harness game."""
    game_arg(p)
    p.add_argument("--decks", nargs="+", default=None, metavar="DECK",
                   help="Kétharmad: one deck per seat (default: ner tisza; docs/decks.md)")  # fmt: skip
    p.add_argument("--bots", nargs="+", default=bots_default, metavar="BOT",
                   help="one bot for every seat or one per seat (default: random); a harness game's "
                        "seat count is the number of bots given (or --seats)")  # fmt: skip
    p.add_argument("--seed", type=int, default=0, help="batch seed (default: 0)")
    p.add_argument("--seats", type=int, default=None, metavar="N",
                   help="the other games: seats, when one bot plays every seat (default: the game's smallest)")  # fmt: skip
    p.add_argument("--param", action="append", metavar="NAME=VALUE",
                   help="parameter override, repeatable (see `ketharmad params`)")  # fmt: skip
    p.add_argument("--params", metavar="FILE", help="Kétharmad: " + PARAMS_FILE_HELP)
    p.add_argument("--card-data", metavar="PATH|SET", help=CARD_DATA_HELP)
    p.add_argument("--start-player", type=int, default=None, metavar="SEAT",
                   help="Kétharmad: the seat that starts (default: the batch's own choice, as `play`)")  # fmt: skip
    format_arg(p)


def game_setup(args: argparse.Namespace, command: str) -> tuple[str, Any, dict[str, Any]]:
    """``(game, bots, setup)`` of the arguments of :func:`add_game_args` (the keywords of
    :func:`ketharmad.game.replay.record_game`), refusing what the game does not take."""
    driver = driver_of(args)
    bots_given = args.bots or ["random"]
    if driver.is_ketharmad:
        if args.seats is not None:
            raise ValueError(
                "--seats is for the games on the generic harness; a Kétharmad game has one seat per --decks"
            )
        setup = {"decks": args.decks or ["ner", "tisza"], "card_data": args.card_data, "format": args.format,
                 "params": _params(args.param, args.params, args.card_data)}  # fmt: skip
        if getattr(args, "start_player", None) is not None:
            setup["start_player"] = args.start_player
        return driver.name, _bots(bots_given), setup
    cli_refuse(args, command, [("--decks", "decks"), ("--params", "params"), ("--card-data", "card_data"),
                               ("--format", "format"), ("--start-player", "start_player")],
               "--bots (one for every seat or one per seat), --seats, --seed, --index and --param")  # fmt: skip
    bots = cli_bot_list(bots_given) or ["random"]
    setup = {"params": cli_params(args.param) or None, "seats": args.seats}
    if len(bots) > 1 and args.seats is not None and args.seats != len(bots):
        raise ValueError(
            f"--seats {args.seats} but {len(bots)} --bots; give one bot for every seat or one per seat"
        )
    return driver.name, bots[0] if len(bots) == 1 else bots, setup


def _cmd_replay(args: argparse.Namespace) -> None:
    out = check_out_file(args.html, (".html", ".htm"), overwrite=args.overwrite, name="--html")
    game, bots, setup = game_setup(args, "replay")
    game_of(game, bots, **setup)  # every argument checked before the game is played
    rec = record_game(game, bots, args.seed, args.index, **setup)
    write_page(out, replay_page([rec]), overwrite=args.overwrite, name="--html")
    print(f"{rec.game}: game {rec.index} of the batch with seed {rec.seed}: {rec.outcome()}")
    searched = sum(d.scores is not None for d in rec.decisions)
    extra = f"; {searched} searched decisions with their option scores" if searched else ""
    print(f"wrote {out} ({len(rec.decisions)} decisions{extra}); open it in a browser")


def add_command(sub: Any) -> None:
    p = sub.add_parser(
        "replay",
        help="write one game of a batch as an offline HTML replay (step by step, option scores)",
        description="Replay game --index of the batch with --seed (exactly the game `ketharmad simulate` "
        "and `ketharmad play` give) and write it as one self-contained HTML file: the table at every "
        "decision, the legal options and the chosen one, a search bot's option scores, a chart of the "
        "scores; arrow keys step through it. docs/replay.md",
    )
    p.add_argument("--html", required=True, metavar="FILE", help="the HTML file to write")
    p.add_argument("--index", type=int, default=0, metavar="N",
                   help="the game's index within the batch (default: 0)")  # fmt: skip
    add_game_args(p)
    p.add_argument("--overwrite", action="store_true", help="replace an existing --html file")
    p.set_defaults(func=_cmd_replay)
