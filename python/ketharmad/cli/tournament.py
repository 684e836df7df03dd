"""``ketharmad bots``: the bot table, or a round-robin :func:`ketharmad.tournament` of the
given bot specs."""

from __future__ import annotations

import argparse
from typing import Any

import polars as pl

from ..lab.tournament import TournamentResult, bots, tournament
from ..results.lab import write_report
from ..run.options import RunOptions
from .args import _bots, _params
from .harness import cli_tournament
from .lab import cluster_for, driver_of, live_for
from .out import check_out, write_out


def _cmd_bots(args: argparse.Namespace) -> None:
    if args.out and not args.specs:
        raise ValueError(
            "--out needs a tournament: give two or more bot specs (`ketharmad bots A B --out DIR`)"
        )
    if not driver_of(args).is_ketharmad:
        cli_tournament(args)
        return
    if args.seats is not None:
        raise ValueError("--seats is for the games on the generic harness (--game osztrakon)")
    if args.games is None:
        args.games = 480
    if not args.specs:
        table = bots()
        with pl.Config(tbl_rows=100, fmt_str_lengths=90, tbl_width_chars=160):
            print(table)
        print("run a tournament: ketharmad bots random heuristic aggro --games 480")
        return
    specs = _bots(args.specs)
    if not isinstance(specs, list):
        specs = [specs]
    decks = [args.decks] if args.decks else None
    check_out(args, plots_required=False)  # a tournament has no plots

    with cluster_for(args) as cluster, live_for(args, "ketharmad bots"):
        res = tournament(specs, decks=decks, games=args.games, seed=args.seed,
                         params=_params(args.param, args.params, args.card_data), card_data=args.card_data,
                         format=args.format, run=RunOptions(threads=args.threads, cluster=cluster))  # fmt: skip
    assert isinstance(res, TournamentResult)  # game="ketharmad"
    print(
        f"tournament: {res.games_per_pair:,} games per pair, seats swapped, "
        f"{len(res.decks or [])} deck pairing(s), common seeds per pairing"
    )
    with pl.Config(tbl_rows=100, fmt_str_lengths=60, tbl_width_chars=160, float_precision=3):
        print(res.pairs)
        print(res.ratings)
    write_tournament(res, args)


def write_tournament(res: Any, args: argparse.Namespace) -> None:
    """``bots A B ... --out DIR``: the tournament's tables and reports (no plots)."""
    if not args.out:
        return
    run_id, md, html = write_out(
        res, args, lambda rid: write_report(res, args.out, plots=False, run_id=rid)
    )
    print(f"wrote run {run_id} to {args.out}: report {md}; HTML report {html}")
