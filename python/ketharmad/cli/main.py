"""Command line interface: ``ketharmad simulate | cards | params | play | bots | games`` and
the balance lab ``ketharmad matchups | card-stats | sweep`` (see ``cli.lab`` and one module per command). ``--game
schotten_totten_2 | osztrakon`` runs the other games on the generic harness (``simulate``,
``play``, ``matchups``, ``bots``, ``params``; ``card-stats`` refuses them, saying why);
``ketharmad games`` lists the games. docs/games.md.

Invalid input (any ``ValueError``) prints ``error: <message>`` to stderr and exits with
status 2, like argparse's own usage errors.
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from collections.abc import Sequence
from typing import Any, Optional, cast

import polars as pl

__all__ = ["main", "parse_param"]

from .._deprecation import deprecation_message
from .._version import __version__
from ..api import cards, formats, parameters, play, simulate
from ..game.data import CARD_DATA_HELP
from ..game.driver import driver_for
from ..game.harness import _game_info
from ..game.session import PlaySession
from ..results.export import export_card_data, match_parameters
from ..results.files import check_out_file, write_atomic
from ..results.html_report import command_line, write_html_report
from ..results.report import format_table
from ..results.sim import SimResult, sim_report
from ..run.harness import simulate_game
from ..run.options import RunOptions
from . import ab_test, card_stats, compare, diagnose, diff, ladder, matchups, replay, sweep, train
from .args import PARAMS_FILE_HELP, _bots, _params, parse_param
from .balance import add_balance_command
from .harness import cli_params, cli_play, cmd_game_params, cmd_games
from .health import add_command as add_health_command
from .human import play_human
from .lab import (
    cli_refuse,
    cluster_args,
    cluster_for,
    driver_of,
    format_arg,
    game_arg,
    live_for,
    out_args,
)
from .out import check_sim_report, sim_report_path
from .replay import game_setup
from .tournament import _cmd_bots


def _cmd_simulate_game(args: argparse.Namespace) -> None:
    """``simulate --game schotten_totten_2 | osztrakon``: a batch on the generic harness."""
    import time

    info = _game_info(args.game)
    cli_refuse(args, "simulate", [("--decks", "decks"), ("--format", "format"), ("--card-data", "card_data"),
                                  ("--params", "params")],
               "--bots (one per seat, or one for every seat), --games, --seed, --threads, --param, --out and "
               "the cluster options")  # fmt: skip

    params = cli_params(args.param)
    bots = list(args.bots)
    if len(bots) == 1:  # one bot for every seat at the game's smallest seat count
        bots = bots * info["min_seats"]
    if args.out:
        check_out_file(args.out, (".parquet", ".csv"), overwrite=args.overwrite)
        check_sim_report(args.out, args.overwrite)
    t0 = time.perf_counter()

    with cluster_for(args) as cluster, live_for(args, f"ketharmad simulate --game {args.game}"):
        r = simulate_game(args.game, bots=bots, games=args.games, seed=args.seed, threads=args.threads, params=params,
                          cluster=cluster)  # fmt: skip
    assert isinstance(r, SimResult)  # output="rows"
    secs = time.perf_counter() - t0
    n = r.games.height
    print(f"{args.game}: {n:,} games, {len(bots)} seats, seed {args.seed}")
    print(f"{'seat':>4}  {'side':<10} {'bot':<28} {'wins':>8}  {'win rate':>8}  95% interval")
    for row in r.summary().iter_rows(named=True):
        side = row["side"] if info["sides"] else "-"
        print(
            f"{row['seat']:>4}  {side:<10} {row['bot']:<28} {row['wins']:>8,}  {row['win_rate']:>8.1%}"
            f"  [{row['ci_low']:.1%}, {row['ci_high']:.1%}]"
        )
    no_winner = int((r.games["winners_mask"] == 0).sum())
    unfinished = int(r.games["unfinished"].sum())
    print(
        f"turns: mean {cast(float, r.games['turns'].mean()):.1f}; no winner: {no_winner:,}; unfinished: {unfinished:,}"
    )
    reasons = r.games.group_by("end_reason").len().sort("len", descending=True)
    print("end: " + ", ".join(f"{e} {c / n:.1%}" for e, c in reasons.iter_rows()))
    print(f"{n / secs:,.0f} games/s ({secs:.2f} s)")
    if args.out:
        df = r.players.join(r.games, on="game", how="left", suffix="_game")
        _write(df, args.out)
        html = write_html_report(r, sim_report_path(args.out), command=args.command_line)
        print(f"wrote {df.height:,} rows (one per game and seat) to {args.out}; HTML report {html}")


def _cmd_simulate(args: argparse.Namespace) -> None:
    if not driver_of(args).is_ketharmad:
        _cmd_simulate_game(args)
        return

    if args.decks is None:
        args.decks = ["ner", "tisza"]
    if args.out:  # before the first game
        check_out_file(args.out, (".parquet", ".csv"), overwrite=args.overwrite)
        check_sim_report(args.out, args.overwrite)

    with cluster_for(args) as cluster, live_for(args, "ketharmad simulate"):
        result = simulate(
            decks=args.decks,
            bots=_bots(args.bots),
            games=args.games,
            seed=args.seed,
            params=_params(args.param, args.params, args.card_data),
            card_data=args.card_data,
            format=args.format,
            run=RunOptions(threads=args.threads, cluster=cluster),
        )
    print(sim_report(result))
    if args.out:
        _write(result.joined(), args.out)
        html = write_html_report(result, sim_report_path(args.out), command=args.command_line)
        print(
            f"wrote {result.players.height:,} rows (one per game and seat) to {args.out}; HTML report {html}"
        )


def _write(df: pl.DataFrame, path: str) -> None:
    """Write under a temporary name in the same folder, then rename: never a partial file."""
    from pathlib import Path

    out = Path(path)
    suffix = out.suffix.lower()
    if suffix not in (".parquet", ".csv"):
        raise ValueError(f"--out must end in .parquet or .csv, got {path!r}")
    out.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(out, df.write_parquet if suffix == ".parquet" else df.write_csv)


def _cmd_cards(args: argparse.Namespace) -> None:
    if args.export:
        _cmd_cards_export(args)
        return
    if args.param or args.params or args.overwrite:
        raise ValueError("--param, --params and --overwrite go with --export FILE")
    table = cards(args.card_data)
    factions = table["faction"].unique(maintain_order=True).to_list()
    if args.faction is not None:
        if args.faction not in factions:
            raise ValueError(f"unknown faction {args.faction!r}; valid: {', '.join(factions)}")
        factions = [args.faction]

    ic = pl.format(
        "{}/{}",
        pl.col("influence").cast(pl.String).fill_null("-"),
        pl.col("credibility").cast(pl.String).fill_null("-"),
    )
    shown = table.with_columns(ic=ic, keywords=pl.col("keywords").fill_null(""))
    for i, faction in enumerate(factions):
        part = shown.filter(pl.col("faction") == faction)
        copies = int(part["copies"].sum())
        if i:
            print()
        print(f"== {faction}: {part.height} cards, {copies} copies ==")
        rows = part.select("copies", "name", "id", "type", "cost", "ic", "keywords", "text").rows()
        header = format_table(
            ["#", "name", "id", "type", "cost", "I/C", "keywords"],
            [r[:7] for r in rows],
            [True, False, False, False, False, True, False],
        )
        print(header[0])
        for line, row in zip(header[1:], rows, strict=True):
            print(line)
            text = row[7] or ""
            if text:
                print(
                    textwrap.fill(
                        text, width=96, initial_indent="      ", subsequent_indent="      "
                    )
                )


def _cmd_cards_export(args: argparse.Namespace) -> None:
    if args.faction is not None:
        raise ValueError("--faction does not go with --export (the whole card set is written)")
    params = _params(args.param, args.params, args.card_data)
    path = export_card_data(args.export, params=params, card_data=args.card_data,
                            overwrite=args.overwrite)  # fmt: skip
    print(
        f"wrote {path} with {len(params)} override(s) applied"
        + (": " + ", ".join(f"{k}={v}" for k, v in params.items()) if params else "")
    )
    print(f"use it with --card-data {path} (CLI) or card_data={str(path)!r} (Python)")


def _cmd_params(args: argparse.Namespace) -> None:
    if not driver_of(args).is_ketharmad:
        cmd_game_params(args)
        return

    table = parameters(args.card_data)
    names = cards(args.card_data)
    if args.match:
        table = match_parameters(table, names, args.match)
    else:
        table = match_parameters(table, names, "")
    default = pl.col("default").cast(pl.String)
    default = (
        pl.when(pl.col("kind") == "bool")
        .then(pl.when(pl.col("default") != 0).then(pl.lit("true")).otherwise(pl.lit("false")))
        .otherwise(default)
    )
    if "default_str" in table.columns:
        default = (
            pl.when(pl.col("kind").is_in(["cost", "choice"]))
            .then(pl.col("default_str"))
            .otherwise(default)
        )
    rng = (
        pl.when(pl.col("kind") == "int")
        .then(pl.format("{}..{}", "min", "max"))
        .otherwise(pl.lit(""))
    )
    rows = table.select(
        "name", "card_name", "kind", default.alias("default"), rng.alias("range"), "description"
    ).rows()
    if args.match and not rows:
        raise ValueError(
            f"no parameter, card id or card name contains {args.match!r} "
            "(case and accents are ignored); see `ketharmad cards` for the card names"
        )
    for line in format_table(
        ["name", "card", "kind", "default", "range", "description"],
        rows,
        [False, False, False, True, False, False],
    ):
        print(line)
    print(
        f"({len(rows)} parameters; override with --param name=value, a --params FILE "
        "(TOML: name = value) or params={name: value} / params='file.toml')"
    )


def _cmd_formats(args: argparse.Namespace) -> None:
    table = formats(args.card_data, args.format)
    rows = [[r["format"], f"{r['seats_min']}-{r['seats_max']}", r["scoring"], r["pools"],
             "yes" if r["played"] else "no: " + (r["reason"] or "")] for r in table.iter_rows(named=True)]  # fmt: skip
    for line in format_table(["format", "seats", "scoring", "pools", "played"], rows, [False] * 5):
        print(line)
    print(
        "select one with --format NAME (or a TOML file with one [formats.NAME] table); docs/formats.md"
    )


def _play_game_index(game: Optional[str], index: Optional[int]) -> tuple[str, int]:
    """``play --game GAME|N --index N``: the game's name and the index. An integer ``--game``
    is the index (its older meaning); giving it and ``--index`` is an error."""
    if game is not None and game.strip().lstrip("-").isdigit():
        if index is not None:
            raise ValueError(f"--game {game} is the game's index (the older form of --index); "
                             f"give --index {index} or --game {game}, not both")  # fmt: skip
        print(
            "warning: "
            + deprecation_message(f"--game {game} (the game's index)", f"--index {game}"),
            file=sys.stderr,
        )
        return "ketharmad", int(game)
    return game or "ketharmad", 0 if index is None else index


def _cmd_games(args: argparse.Namespace) -> None:
    cmd_games(args)


def _cmd_play(args: argparse.Namespace) -> None:
    name, index = _play_game_index(args.game, args.index)
    if args.human is not None:
        _cmd_play_human(args, name, index)
        return
    if not driver_for(name).is_ketharmad:
        cli_play(args, name, index)
        return
    if args.decks is None:
        args.decks = ["ner", "tisza"]
    log = play(
        decks=args.decks,
        bots=_bots(args.bots),
        seed=args.seed,
        index=index,
        params=_params(args.param, args.params, args.card_data),
        card_data=args.card_data,
        format=args.format,
    )
    print(log)


def _cmd_play_human(args: argparse.Namespace, name: str, index: int) -> None:
    """``play --human SEAT``: the person plays that seat in the terminal (cli/human.py)."""
    args.game = name
    args.seats = None
    game, bots, setup = game_setup(args, "play")
    play_human(PlaySession(game, bots, human=args.human, seed=args.seed, index=index, **setup))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ketharmad", description="Kétharmad card game simulator")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def game_args(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--decks",
            nargs="+",
            default=["ner", "tisza"],
            metavar="DECK",
            help="one deck per seat, 2-4 (5-9 with --format gods): a faction, a Mixed deck such as "
            "ner+tisza, or a deck file path ending in .toml (docs/decks.md) (default: ner tisza)",
        )
        p.add_argument(
            "--bots",
            nargs="+",
            default=["random"],
            metavar="BOT",
            help="one bot for all seats or one per seat (default: random)",
        )
        p.add_argument("--seed", type=int, default=0, help="batch seed (default: 0)")

        format_arg(p)
        p.add_argument(
            "--param",
            action="append",
            metavar="NAME=VALUE",
            help="parameter override, repeatable (see `ketharmad params`)",
        )
        p.add_argument("--params", metavar="FILE", help=PARAMS_FILE_HELP)
        p.add_argument("--card-data", metavar="PATH|SET", help=CARD_DATA_HELP)

    p = sub.add_parser("simulate", help="run many bot games and print win rates")
    game_args(p)
    p.set_defaults(decks=None)  # ner tisza for Kétharmad; refused with another --game
    p.add_argument(
        "--game",
        default="ketharmad",
        metavar="GAME",
        help="ketharmad (default), schotten_totten_2 (--bots ATTACKER DEFENDER: random, greedy, "
        "search) or osztrakon (5-12 --bots: b1, greedy, safe, race, random, search); the other "
        "games take --bots, --games, --seed, --threads, --param and --out only",
    )
    p.add_argument("--games", type=int, default=1000, help="number of games (default: 1000)")
    p.add_argument("--threads", type=int, default=None, help="worker threads (default: all cores)")
    p.add_argument(
        "--out",
        metavar="FILE",
        help="write one row per game and seat (.parquet or .csv) and its HTML report next to it "
        "(FILE's name with .report.html)",
    )
    p.add_argument(
        "--overwrite", action="store_true", help="replace an existing --out file and its report"
    )

    cluster_args(p)
    p.set_defaults(func=_cmd_simulate)

    p = sub.add_parser("cards", help="print the card reference, or --export a card file")
    p.add_argument("--faction", help="only this faction")
    p.add_argument("--card-data", metavar="PATH|SET", help=CARD_DATA_HELP)
    p.add_argument(
        "--export",
        metavar="FILE",
        help="write a card-data TOML file with the --param/--params overrides applied",
    )
    p.add_argument(
        "--param",
        action="append",
        metavar="NAME=VALUE",
        help="with --export: parameter override, repeatable",
    )
    p.add_argument("--params", metavar="FILE", help="with --export: " + PARAMS_FILE_HELP)
    p.add_argument("--overwrite", action="store_true", help="with --export: replace FILE")
    p.set_defaults(func=_cmd_cards)

    p = sub.add_parser(
        "games", help="list the games (Kétharmad and the harness games), seats, sides, bots"
    )
    p.set_defaults(func=_cmd_games)

    p = sub.add_parser("params", help="print the tunable parameters (of --game GAME)")
    p.add_argument(
        "--match",
        metavar="TEXT",
        help="only parameters whose name, card id or card name contains TEXT "
        "(case and accents ignored: orban finds Orbán Viktor)",
    )
    p.add_argument("--card-data", metavar="PATH|SET", help=CARD_DATA_HELP)

    game_arg(p)
    p.set_defaults(func=_cmd_params)

    p = sub.add_parser(
        "formats", help="list the game formats, their seats and whether the engine plays them"
    )
    p.add_argument("--card-data", metavar="PATH|SET", help=CARD_DATA_HELP)
    p.add_argument(
        "--format", metavar="FILE", default=None, help="also a format of your own (a TOML file)"
    )
    p.set_defaults(func=_cmd_formats)

    p = sub.add_parser("bots", help="list bots and knobs, or run a tournament between bot specs")
    p.add_argument(
        "specs", nargs="*", metavar="BOT", help="bot specs (names or JSON); none = list bots"
    )
    p.add_argument("--decks", nargs="+", metavar="DECK",
                   help="one deck pairing: factions, Mixed decks a+b or deck files (default: all 12); "
                        "4 decks a1 b1 a2 b2 with a 2-against-2 --format")  # fmt: skip
    p.add_argument("--games", type=int, default=None,
                   help="games per pair of bots: a multiple of 24, or of 2 with --decks (default: 480); "
                        "--game schotten_totten_2: a multiple of 2 (default 1000), osztrakon: of --seats "
                        "(default 200 x seats)")  # fmt: skip
    game_arg(p)
    p.add_argument("--seats", type=int, default=None, metavar="N",
                   help="--game osztrakon: seats, 5-12 (default: 5); each bot plays alone against fields of the others")  # fmt: skip
    p.add_argument("--seed", type=int, default=0, help="seed (default: 0)")
    p.add_argument("--threads", type=int, default=None, help="worker threads (default: all cores)")
    p.add_argument("--param", action="append", metavar="NAME=VALUE", help="parameter override")
    p.add_argument("--params", metavar="FILE", help=PARAMS_FILE_HELP)
    p.add_argument("--card-data", metavar="PATH|SET", help=CARD_DATA_HELP)

    format_arg(p)
    cluster_args(p)
    out_args(p)

    p.set_defaults(func=_cmd_bots)

    p = sub.add_parser(
        "play",
        help="replay one game of a batch and print its log, or play a seat yourself (--human SEAT)",
    )
    game_args(p)
    p.set_defaults(decks=None)  # ner tisza for Kétharmad; refused with another --game
    p.add_argument("--game", default=None, metavar="GAME|N",
                   help="the game: ketharmad (default), schotten_totten_2 or osztrakon; a number N keeps its "
                        "older meaning, the game's index within the batch (= --index N)")  # fmt: skip
    p.add_argument("--index", type=int, default=None, metavar="N",
                   help="the game's index within the batch (default: 0)")  # fmt: skip
    p.add_argument("--human", type=int, default=None, metavar="SEAT",
                   help="play this seat yourself in the terminal against the bots (a number per decision, "
                        "u to undo, q to quit; docs/replay.md)")  # fmt: skip
    p.set_defaults(func=_cmd_play)

    replay.add_command(sub)
    diff.add_command(sub)
    train.add_command(sub)

    add_lab_commands(sub)

    add_balance_command(sub)
    return parser


def _version() -> str:
    return __version__


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the CLI; returns 0 on success, exits with status 2 on invalid input and with 130
    (no traceback) on Ctrl-C."""
    try:
        given = list(sys.argv[1:] if argv is None else argv)
        args = _parser().parse_args(given)
        args.command_line = command_line(["ketharmad", *given])
        args.func(args)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        raise SystemExit(2) from None
    except OSError as e:  # e.g. --out into a missing directory
        if isinstance(e, BrokenPipeError):  # `ketharmad cards | head`: stop quietly
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            raise SystemExit(1) from None
        print(f"error: {e}", file=sys.stderr)
        raise SystemExit(2) from None
    except ImportError as e:  # an optional dependency (matplotlib for report plots)
        print(f"error: {e}", file=sys.stderr)
        raise SystemExit(1) from None
    except KeyboardInterrupt:  # the core stops within about a second of Ctrl-C
        try:
            print("interrupted", file=sys.stderr, flush=True)
        except (OSError, ValueError, KeyboardInterrupt):
            pass
        raise SystemExit(130) from None
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


def add_lab_commands(sub: Any) -> None:
    """Register ``matchups``, ``card-stats`` and ``sweep`` on the CLI's subparsers (each
    feature module wires its own command)."""
    matchups.add_command(sub)
    card_stats.add_command(sub)
    diagnose.add_command(sub)
    sweep.add_command(sub)
    ab_test.add_command(sub)
    ladder.add_command(sub)
    add_health_command(sub)
    compare.add_command(sub)
