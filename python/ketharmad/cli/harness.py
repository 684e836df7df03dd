"""The commands of the games on the generic harness (``--game schotten_totten_2 | osztrakon``):
``bots``, ``play``, ``games`` and ``params``, and their argument parsing (also that of
``matchups --game``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional

import polars as pl

from ..api import games
from ..game.harness import ParamValue, harness_bot_table, harness_info
from ..game.harness_play import play_game
from ..game.spec import GameSpec
from ..lab.harness import _default_bots
from ..lab.tournament import tournament
from ..results.lab import write_report
from ..results.report import format_table
from ..run.options import RunOptions
from .args import _generic_value
from .lab import cli_refuse, cluster_for, live_for
from .out import check_out, write_out


def cli_params(items: Optional[Sequence[str]]) -> dict[str, ParamValue]:
    """``--param name=value`` of a harness game (int, float, true/false, else a choice)."""
    out: dict[str, ParamValue] = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--param expects name=value, got {item!r}")
        if name.strip() in out:
            raise ValueError(f"parameter {name.strip()!r} given more than once")
        out[name.strip()] = _generic_value(value.strip())
    return out


def cli_bot_list(items: Optional[Sequence[str]]) -> Optional[list[str]]:
    """``--bots`` of a harness game: spec strings (JSON specs are Kétharmad's)."""
    if items is None:
        return None
    for b in items:
        if b.lstrip().startswith("{"):
            raise ValueError(f"--bots: {b!r}: the games on the harness take spec strings such as "
                             "'search:iterations=200', not JSON")  # fmt: skip
    return list(items)


def cli_games_for(items: Optional[Sequence[str]]) -> Optional[dict[str, int]]:
    """``--games-for TEXT=N``: cap the games of a cell whose bot specs contain TEXT."""
    if not items:
        return None
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        try:
            n = int(value)
        except ValueError:
            n = -1
        if not sep or not key or n < 1:
            raise ValueError(f"--games-for expects TEXT=N (N >= 1), e.g. search=200, got {item!r}")
        out[key] = n
    return out


def cli_tournament(args: Any) -> None:
    """``ketharmad bots --game schotten_totten_2 | osztrakon [SPEC ...]``."""
    info = harness_info(args.game)
    cli_refuse(args, "bots", [("--decks", "decks"), ("--params", "params"), ("--card-data", "card_data"),
                              ("--format", "format")],
               "bot specs, --games (per pair), --seed, --threads, --param, --seats and --scheduler/--workers")  # fmt: skip
    if not args.specs:
        with pl.Config(tbl_rows=100, fmt_str_lengths=90, tbl_width_chars=160):
            print(harness_bot_table(info["name"]))
        print(f"{info['name']}: bots " + ", ".join(info["agents"]))
        print(
            "options of the search bot (ISMCTS): search:iterations=N,c=X,rollout=BOT,max_rollout_actions=N"
        )
        print(
            f"run a tournament: ketharmad bots --game {info['name']} "
            + " ".join(_default_bots(info)[:3])
        )
        return

    check_out(args, plots_required=False)  # a tournament has no plots
    with cluster_for(args) as cluster, live_for(args, f"ketharmad bots --game {args.game}"):
        res = tournament(cli_bot_list(args.specs) or [], games=args.games, seed=args.seed,
                         params=cli_params(args.param), game=args.game, seats=args.seats,
                         run=RunOptions(threads=args.threads, cluster=cluster))  # fmt: skip
    print(res)
    if args.out:
        run_id, md, html = write_out(
            res, args, lambda rid: write_report(res, args.out, plots=False, run_id=rid)
        )
        print(f"wrote run {run_id} to {args.out}: report {md}; HTML report {html}")


def cli_play(args: Any, name: str, index: int) -> None:
    """``ketharmad play --game schotten_totten_2 | osztrakon [--index N]``."""
    harness_info(name)
    args.game = name
    cli_refuse(args, "play", [("--decks", "decks"), ("--params", "params"), ("--card-data", "card_data"),
                              ("--format", "format")], "--bots (one for every seat or one per seat), --seed, "
               "--index and --param")  # fmt: skip
    bots = cli_bot_list(args.bots) or ["random"]
    print(play_game(name, bots[0] if len(bots) == 1 else bots, seed=args.seed, index=index,
                    params=cli_params(args.param)))  # fmt: skip


def cmd_games(args: Any) -> None:
    """``ketharmad games``: every game with its seats, sides, bots and parameter count."""
    rows = []
    for g in games().iter_rows(named=True):
        seats = (
            f"{g['min_seats']}-{g['max_seats']}"
            if g["min_seats"] != g["max_seats"]
            else str(g["min_seats"])
        )
        sides = ", ".join(g["sides"]) if g["sides"] else "-"
        if GameSpec(g["name"]).is_ketharmad:
            sides = "factions: " + sides
        rows.append([g["name"], seats, sides, ", ".join(g["agents"]), str(g["n_parameters"])])
    for line in format_table(
        ["game", "seats", "sides", "bots", "parameters"], rows, [False, True, False, False, True]
    ):
        print(line)
    print("choose one with --game NAME (simulate, play, matchups, bots, params, ...) or game=NAME in Python; "
          "docs/games.md")  # fmt: skip


def cmd_game_params(args: Any) -> None:
    """``ketharmad params --game schotten_totten_2 | osztrakon [--match TEXT]``."""
    info = harness_info(args.game)
    if args.card_data is not None:
        raise ValueError(
            f"--card-data: Kétharmad only; `ketharmad params --game {args.game}` takes --match"
        )
    rows = []
    for p in info["parameters"]:
        if (
            args.match
            and args.match.lower() not in p["name"].lower()
            and args.match.lower() not in p["description"].lower()
        ):
            continue
        if p["kind"] in ("int", "float"):
            fmt = (lambda x: str(int(x))) if p["kind"] == "int" else (lambda x: f"{x:g}")
            rng = f"{fmt(p['min'])}..{fmt(p['max'])}"
        elif p["choices"]:
            rng = " | ".join(str(c) for c in p["choices"])
        else:
            rng = ""
        default = str(p["default"]).lower() if isinstance(p["default"], bool) else str(p["default"])
        rows.append([p["name"], p["kind"], default, rng, p["description"]])
    if args.match and not rows:
        raise ValueError(
            f"no parameter of {args.game} has {args.match!r} in its name or description"
        )
    for line in format_table(
        ["name", "kind", "default", "range", "description"],
        rows,
        [False, False, True, False, False],
    ):
        print(line)
    print(
        f"({len(rows)} parameters of {args.game}; override with --param name=value or params={{name: value}})"
    )
