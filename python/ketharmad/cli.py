"""Command line interface: ``ketharmad simulate | cards | params | play | bots | games`` and
the balance lab ``ketharmad matchups | card-stats | sweep`` (see ``lab.cli``). ``--game
schotten_totten_2 | osztrakon`` runs the other games on the generic harness (``simulate``,
``play``, ``matchups``, ``bots``, ``params``; ``card-stats`` refuses them, saying why);
``ketharmad games`` lists the games. docs/games.md.

Invalid input (any ``ValueError``) prints ``error: <message>`` to stderr and exits with
status 2, like argparse's own usage errors.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from collections.abc import Sequence
from typing import Any, Optional, Union, cast

import polars as pl

__all__ = ["main", "parse_param"]

from ._data import CARD_DATA_HELP

PARAMS_FILE_HELP = (
    "params TOML file of overrides, `name = value` (or [card_id] / [rules] tables); "
    "a --param of the same name overrides the file's value"
)


def parse_param(text: str) -> tuple[str, Union[int, bool, str]]:
    """Parse ``name=value``: the value is an int if it parses as one, then ``true``/``false``
    (any case) as a bool, else the string itself (e.g. a cost like ``{1}{M}``)."""
    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep or not name:
        raise ValueError(f"--param expects name=value, got {text!r}")
    value = value.strip()
    try:
        return name, int(value)
    except ValueError:
        pass
    if value.lower() in ("true", "false"):
        return name, value.lower() == "true"
    return name, value


def _params(
    items: Optional[Sequence[str]],
    params_file: Optional[str] = None,
    card_data: Optional[str] = None,
) -> dict[str, Union[int, bool, str]]:
    """``--params FILE`` (a TOML table ``name = value``), then the ``--param name=value``
    overrides on top: a ``--param`` replaces the file's value of the same name."""
    out: dict[str, Union[int, bool, str]] = {}
    if params_file:
        out.update(_params_file(params_file, card_data))
    given: set[str] = set()
    for item in items or []:
        name, value = parse_param(item)
        if name in given:
            raise ValueError(f"parameter {name!r} given more than once")
        given.add(name)
        out[name] = value
    return out


def _params_file(path: str, card_data: Optional[str]) -> dict[str, Union[int, bool, str]]:
    """The overrides of a params file; a name the card data does not have is an error naming
    the file and the key (with similar names, as ``ketharmad params --match`` finds them)."""
    from ._api import parameters
    from ._data import load_params_file

    values = load_params_file(path)
    known = set(parameters(card_data)["name"].to_list())
    for name in values:
        if name not in known:
            import difflib

            similar = difflib.get_close_matches(name, sorted(known), n=3, cutoff=0.8)
            hint = f" (similar: {', '.join(similar)})" if similar else ""
            raise ValueError(f"params file {path}: unknown parameter {name!r}{hint}")
    return values


def _bots(items: Sequence[str]) -> Union[Any, list[Any]]:
    """``--bots random`` (all seats) or one per seat; a spec may be JSON: '{"kind": "random"}'."""
    specs = []
    for item in items:
        if item.lstrip().startswith("{"):
            try:
                specs.append(json.loads(item))
            except json.JSONDecodeError as e:
                raise ValueError(f"--bots: {item!r} is not valid JSON: {e}") from None
        else:
            specs.append(item)
    return specs[0] if len(specs) == 1 else specs


def _generic_value(text: str) -> Union[int, float, bool, str]:
    """A ``--param`` value of a harness game: int, float, true/false (any case), else a choice."""
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def _cmd_simulate_game(args: argparse.Namespace) -> None:
    """``simulate --game schotten_totten_2 | osztrakon``: a batch on the generic harness."""
    import time

    from ._files import check_out_file
    from .games import GameResult, _game_info, simulate_game

    info = _game_info(args.game)
    for flag, given in (
        ("--decks", args.decks is not None),
        ("--format", args.format is not None),
        ("--card-data", args.card_data is not None),
        ("--params", args.params is not None),
    ):
        if given:
            raise ValueError(f"{flag} is for Kétharmad; --game {args.game} does not take it")
    from .lab.harness import cli_params

    params = cli_params(args.param)
    bots = list(args.bots)
    if len(bots) == 1:  # one bot for every seat at the game's smallest seat count
        bots = bots * info["min_seats"]
    if args.out:
        check_out_file(args.out, (".parquet", ".csv"), overwrite=args.overwrite)
    t0 = time.perf_counter()
    from .lab.cli import cluster_for

    with cluster_for(args) as cluster:  # --scheduler / --workers: the shards run on Dask
        r = simulate_game(args.game, bots=bots, games=args.games, seed=args.seed, threads=args.threads, params=params,
                          cluster=cluster)  # fmt: skip
    assert isinstance(r, GameResult)  # output="rows"
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
    print(f"turns: mean {cast(float, r.games['turns'].mean()):.1f}; no winner: {no_winner:,}; unfinished: {unfinished:,}")
    reasons = r.games.group_by("end_reason").len().sort("len", descending=True)
    print("end: " + ", ".join(f"{e} {c / n:.1%}" for e, c in reasons.iter_rows()))
    print(f"{n / secs:,.0f} games/s ({secs:.2f} s)")
    if args.out:
        df = r.players.join(r.games, on="game", how="left", suffix="_game")
        _write(df, args.out)
        print(f"wrote {df.height:,} rows (one per game and seat) to {args.out}")


def _cmd_simulate(args: argparse.Namespace) -> None:
    if args.game != "ketharmad":
        _cmd_simulate_game(args)
        return
    from ._api import simulate
    from ._files import check_out_file
    from ._report import sim_report

    if args.decks is None:
        args.decks = ["ner", "tisza"]
    if args.out:  # before the first game
        check_out_file(args.out, (".parquet", ".csv"), overwrite=args.overwrite)
    from .lab.cli import cluster_for

    with cluster_for(args) as cluster:
        result = simulate(
            decks=args.decks,
            bots=_bots(args.bots),
            games=args.games,
            seed=args.seed,
            threads=args.threads,
            params=_params(args.param, args.params, args.card_data),
            card_data=args.card_data,
            cluster=cluster,
            format=args.format,
        )
    print(sim_report(result))
    if args.out:
        _write(result.joined(), args.out)
        print(f"wrote {result.players.height:,} rows (one per game and seat) to {args.out}")


def _write(df: pl.DataFrame, path: str) -> None:
    """Write under a temporary name in the same folder, then rename: never a partial file."""
    from pathlib import Path

    from ._files import write_atomic

    out = Path(path)
    suffix = out.suffix.lower()
    if suffix not in (".parquet", ".csv"):
        raise ValueError(f"--out must end in .parquet or .csv, got {path!r}")
    out.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(out, df.write_parquet if suffix == ".parquet" else df.write_csv)


def _cmd_cards(args: argparse.Namespace) -> None:
    from ._api import cards

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
    from ._report import format_table

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
    from ._export import export_card_data

    if args.faction is not None:
        raise ValueError("--faction does not go with --export (the whole card set is written)")
    params = _params(args.param, args.params, args.card_data)
    path = export_card_data(args.export, params=params, card_data=args.card_data,
                            overwrite=args.overwrite)  # fmt: skip
    print(f"wrote {path} with {len(params)} override(s) applied"
          + (": " + ", ".join(f"{k}={v}" for k, v in params.items()) if params else ""))
    print(f"use it with --card-data {path} (CLI) or card_data={str(path)!r} (Python)")


def _cmd_params(args: argparse.Namespace) -> None:
    if args.game != "ketharmad":
        from .lab.harness import cmd_game_params

        cmd_game_params(args)
        return
    from ._api import cards, parameters
    from ._export import match_parameters
    from ._report import format_table

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
    from ._formats import formats
    from ._report import format_table

    table = formats(args.card_data, args.format)
    rows = [[r["format"], f"{r['seats_min']}-{r['seats_max']}", r["scoring"], r["pools"],
             "yes" if r["played"] else "no: " + (r["reason"] or "")] for r in table.iter_rows(named=True)]  # fmt: skip
    for line in format_table(["format", "seats", "scoring", "pools", "played"], rows, [False] * 5):
        print(line)
    print("select one with --format NAME (or a TOML file with one [formats.NAME] table); docs/formats.md")


def _play_game_index(game: Optional[str], index: Optional[int]) -> tuple[str, int]:
    """``play --game GAME|N --index N``: the game's name and the index. An integer ``--game``
    is the index (its older meaning); giving it and ``--index`` is an error."""
    if game is not None and game.strip().lstrip("-").isdigit():
        if index is not None:
            raise ValueError(f"--game {game} is the game's index (the older form of --index); "
                             f"give --index {index} or --game {game}, not both")  # fmt: skip
        return "ketharmad", int(game)
    return game or "ketharmad", 0 if index is None else index


def _cmd_games(args: argparse.Namespace) -> None:
    from .lab.harness import cmd_games

    cmd_games(args)


def _cmd_play(args: argparse.Namespace) -> None:
    from ._api import play

    name, index = _play_game_index(args.game, args.index)
    if name != "ketharmad":
        from .lab.harness import cli_play

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
        from .lab.cli import format_arg

        format_arg(p)
        p.add_argument(
            "--param",
            action="append",
            metavar="NAME=VALUE",
            help="parameter override, repeatable (see `ketharmad params`)",
        )
        p.add_argument(
            "--params", metavar="FILE", help=PARAMS_FILE_HELP
        )
        p.add_argument(
            "--card-data", metavar="PATH|SET", help=CARD_DATA_HELP
        )

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
        "--out", metavar="FILE", help="write one row per game and seat (.parquet or .csv)"
    )
    p.add_argument("--overwrite", action="store_true", help="replace an existing --out file")
    from .lab.cli import cluster_args

    cluster_args(p)
    p.set_defaults(func=_cmd_simulate)

    p = sub.add_parser("cards", help="print the card reference, or --export a card file")
    p.add_argument("--faction", help="only this faction")
    p.add_argument("--card-data", metavar="PATH|SET", help=CARD_DATA_HELP)
    p.add_argument("--export", metavar="FILE",
                   help="write a card-data TOML file with the --param/--params overrides applied")
    p.add_argument("--param", action="append", metavar="NAME=VALUE",
                   help="with --export: parameter override, repeatable")
    p.add_argument("--params", metavar="FILE", help="with --export: " + PARAMS_FILE_HELP)
    p.add_argument("--overwrite", action="store_true", help="with --export: replace FILE")
    p.set_defaults(func=_cmd_cards)

    p = sub.add_parser("games", help="list the games (Kétharmad and the harness games), seats, sides, bots")
    p.set_defaults(func=_cmd_games)

    p = sub.add_parser("params", help="print the tunable parameters (of --game GAME)")
    p.add_argument("--match", metavar="TEXT",
                   help="only parameters whose name, card id or card name contains TEXT "
                        "(case and accents ignored: orban finds Orbán Viktor)")
    p.add_argument("--card-data", metavar="PATH|SET", help=CARD_DATA_HELP)
    from .lab.cli import game_arg

    game_arg(p)
    p.set_defaults(func=_cmd_params)

    p = sub.add_parser("formats", help="list the game formats, their seats and whether the engine plays them")
    p.add_argument("--card-data", metavar="PATH|SET", help=CARD_DATA_HELP)
    p.add_argument("--format", metavar="FILE", default=None, help="also a format of your own (a TOML file)")
    p.set_defaults(func=_cmd_formats)

    p = sub.add_parser("bots", help="list bots and knobs, or run a tournament between bot specs")
    p.add_argument("specs", nargs="*", metavar="BOT", help="bot specs (names or JSON); none = list bots")
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
    from .lab.cli import format_arg

    format_arg(p)
    cluster_args(p)
    from .lab.tournament import _cmd_bots

    p.set_defaults(func=_cmd_bots)

    p = sub.add_parser("play", help="replay one game of a batch and print its log")
    game_args(p)
    p.set_defaults(decks=None)  # ner tisza for Kétharmad; refused with another --game
    p.add_argument("--game", default=None, metavar="GAME|N",
                   help="the game: ketharmad (default), schotten_totten_2 or osztrakon; a number N keeps its "
                        "older meaning, the game's index within the batch (= --index N)")  # fmt: skip
    p.add_argument("--index", type=int, default=None, metavar="N",
                   help="the game's index within the batch (default: 0)")  # fmt: skip
    p.set_defaults(func=_cmd_play)

    from .lab.cli import add_lab_commands

    add_lab_commands(sub)
    from .lab.balance.cli import add_balance_command

    add_balance_command(sub)
    return parser


def _version() -> str:
    from . import __version__

    return __version__


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the CLI; returns 0 on success, exits with status 2 on invalid input and with 130
    (no traceback) on Ctrl-C."""
    try:
        args = _parser().parse_args(argv)
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
