"""``ketharmad diff``: the same seeds under two setups (``--params A --params B``, ``--card-data
A --card-data B``, ``--bots-a ... --bots-b ...`` or ``--param-a``/``--param-b``), the games
whose winner flipped, and with ``--html FILE`` one game's two replays side by side with the
first decision where they part (:func:`ketharmad.lab.diff.diff`; docs/replay.md)."""

from __future__ import annotations

import argparse
import os
from typing import Any, Optional

from ..api import cards
from ..game.data import CARD_DATA_HELP, flatten_table, read_toml_file
from ..lab.diff import diff
from ..results.files import check_out_file, write_atomic
from ..run.options import RunOptions
from .args import _bots, _params
from .harness import cli_bot_list, cli_params
from .lab import driver_of, format_arg, game_arg

__all__ = ["add_command"]


def _two(
    values: Optional[list[str]], flag: str
) -> tuple[Optional[str], Optional[str], Optional[str]]:
    """``(common, a, b)`` of a flag given once (common to both) or twice (A, then B)."""
    if not values:
        return None, None, None
    if len(values) == 1:
        return values[0], None, None
    if len(values) == 2:
        return None, values[0], values[1]
    raise ValueError(
        f"{flag} is given {len(values)} times; give it once (both setups) or twice (A, then B)"
    )


def _card_file(path: Optional[str], flag: str) -> Optional[str]:
    """A card-data source checked now, the error naming the flag and the file."""
    if path is None:
        return None
    try:
        cards(path)
    except ValueError as e:
        raise ValueError(f"{flag} {path}: {e}") from None
    return path


def _harness_params_file(path: str) -> dict[str, Any]:
    """A params file of a harness game: a TOML table of ``name = value`` (numbers, true/false,
    choice names); tables give dotted names (``[wall.gate]`` then ``intact_cards = 3``)."""
    out: dict[str, Any] = {}
    for name, value in flatten_table(read_toml_file(path, "params file")).items():
        if isinstance(value, (bool, int, float, str)):
            out[name] = value
        else:
            raise ValueError(f"params file {path}: key {name!r}: expected a number, true/false or a "
                             f"choice name, got {type(value).__name__} {value!r}")  # fmt: skip
    return out


def _cmd_diff(args: argparse.Namespace) -> None:
    driver = driver_of(args)
    if args.html:
        check_out_file(args.html, (".html", ".htm"), overwrite=args.overwrite, name="--html")
    if args.out:
        check_out_file(args.out, (".parquet", ".csv"), overwrite=args.overwrite)
    params_c, params_a, params_b = _two(args.params, "--params")
    card_c, card_a, card_b = _two(args.card_data, "--card-data")
    a: dict[str, Any] = {}
    b: dict[str, Any] = {}
    if driver.is_ketharmad:
        card_c = _card_file(card_c, "--card-data")
        card_a, card_b = _card_file(card_a, "--card-data"), _card_file(card_b, "--card-data")
        if args.seats is not None:
            raise ValueError(
                "--seats is for the games on the generic harness; a Kétharmad game has one seat per --decks"
            )
        params: dict[str, Any]
        common: dict[str, Any] = {"decks": args.decks or ["ner", "tisza"], "format": args.format,
                                  "card_data": card_c}  # fmt: skip
        params = dict(_params(args.param, params_c, card_c))
        for side, file, card, extra in (
            (a, params_a, card_a, args.param_a),
            (b, params_b, card_b, args.param_b),
        ):
            if card is not None:
                side["card_data"] = card
            if file is not None or extra:
                side["params"] = _params(extra, file, card or card_c)
        bots: Any = _bots(args.bots or ["random"])
        for side, given in ((a, args.bots_a), (b, args.bots_b)):
            if given:
                side["bots"] = _bots(given)
    else:
        for flag, value in (
            ("--decks", args.decks),
            ("--card-data", args.card_data),
            ("--format", args.format),
        ):
            if value:
                raise ValueError(f"{flag}: Kétharmad only; `ketharmad diff --game {driver.name}` takes --bots, "
                                 "--bots-a/--bots-b, --seats, --param, --params (once or twice), "
                                 "--param-a/--param-b, --games, --seed")  # fmt: skip
        common = {"seats": args.seats}
        params = {**(_harness_params_file(params_c) if params_c else {}), **cli_params(args.param)}
        for side, file, extra in ((a, params_a, args.param_a), (b, params_b, args.param_b)):
            if file is not None or extra:
                side["params"] = {
                    **(_harness_params_file(file) if file else {}),
                    **cli_params(extra),
                }
        bots = _one_or_list(cli_bot_list(args.bots) or ["random"])
        for side, given in ((a, args.bots_a), (b, args.bots_b)):
            if given:
                side["bots"] = _one_or_list(cli_bot_list(given) or [])
    if not a and not b:
        raise ValueError("nothing differs: give --params or --card-data twice (A, then B), --param-a/--param-b, "
                         "or --bots-a/--bots-b")  # fmt: skip
    res = diff(a, b, game=driver.name, bots=bots, games=args.games, seed=args.seed, first_game=args.first_game,
               run=RunOptions(threads=args.threads), params=params or None, **common)  # fmt: skip
    print(res)
    if args.out:
        out = check_out_file(args.out, (".parquet", ".csv"), overwrite=args.overwrite)
        write = res.games.write_parquet if out.suffix.lower() == ".parquet" else res.games.write_csv
        out.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(out, write)
        print(f"wrote {res.games.height:,} rows (one per game) to {out}")
    if args.html:
        index = args.index
        if index is None and res.flips.height == 0:
            print("no winner flipped: no --html written (choose a game with --index N)")
            return
        split = res.split(index)
        path = res.write_html(args.html, index, overwrite=args.overwrite)
        print(split["text"])
        print(f"wrote {os.fspath(path)}: game {index if index is not None else int(res.flips['game'][0])} "
              "under A and B side by side; open it in a browser")  # fmt: skip


def _one_or_list(bots: list[str]) -> Any:
    return bots[0] if len(bots) == 1 else bots


def add_command(sub: Any) -> None:
    p = sub.add_parser(
        "diff",
        help="the same seeds under two setups: the games whose winner flipped, and one game side by side",
        description="Play the same games (the same seeds: the same deals and bot streams) under setup A and "
        "setup B and list the games whose winner flipped. A and B differ by --params A --params B, "
        "--card-data A --card-data B, --param-a/--param-b NAME=VALUE or --bots-a/--bots-b. With --html FILE, "
        "the first flipped game (or --index N) is written as both replays side by side, with the first "
        "decision where they part. docs/replay.md",
    )
    game_arg(p)
    p.add_argument("--decks", nargs="+", default=None, metavar="DECK",
                   help="Kétharmad: one deck per seat, both setups (default: ner tisza)")  # fmt: skip
    p.add_argument("--bots", nargs="+", default=None, metavar="BOT",
                   help="bots of both setups: one for every seat or one per seat (default: random)")  # fmt: skip
    p.add_argument(
        "--bots-a", nargs="+", default=None, metavar="BOT", help="setup A's bots instead"
    )
    p.add_argument(
        "--bots-b", nargs="+", default=None, metavar="BOT", help="setup B's bots instead"
    )
    p.add_argument("--seats", type=int, default=None, metavar="N",
                   help="the other games: seats when one bot plays every seat")  # fmt: skip
    p.add_argument("--games", type=int, default=200, help="games per setup (default: 200)")
    p.add_argument("--seed", type=int, default=0, help="batch seed (default: 0)")
    p.add_argument("--first-game", type=int, default=0, metavar="N",
                   help="the first game's index in the batch (default: 0)")  # fmt: skip
    p.add_argument("--threads", type=int, default=None, help="worker threads (default: all cores)")
    p.add_argument(
        "--param", action="append", metavar="NAME=VALUE", help="override of both setups, repeatable"
    )
    p.add_argument(
        "--param-a", action="append", metavar="NAME=VALUE", help="override of setup A only"
    )
    p.add_argument(
        "--param-b", action="append", metavar="NAME=VALUE", help="override of setup B only"
    )
    p.add_argument("--params", action="append", metavar="FILE",
                   help="params TOML file: once for both setups, twice for A then B")  # fmt: skip
    p.add_argument("--card-data", action="append", metavar="PATH|SET",
                   help="Kétharmad: once for both setups, twice for A then B. " + CARD_DATA_HELP)  # fmt: skip
    format_arg(p)
    p.add_argument("--html", metavar="FILE", help="write one game's two replays side by side here")
    p.add_argument("--index", type=int, default=None, metavar="N",
                   help="the game of --html (default: the first flipped one)")  # fmt: skip
    p.add_argument("--out", metavar="FILE", help="write the per-game table (.parquet or .csv)")
    p.add_argument("--overwrite", action="store_true", help="replace existing --html / --out files")
    p.set_defaults(func=_cmd_diff)
