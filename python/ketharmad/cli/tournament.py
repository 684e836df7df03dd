"""``ketharmad bots``: the bot table, or a round-robin :func:`ketharmad.tournament` of the
given bot specs."""

from __future__ import annotations

import argparse

import polars as pl

from ..lab.tournament import TournamentResult, bots, tournament
from ..run.options import RunOptions
from .args import _bots, _params
from .harness import cli_tournament
from .lab import cluster_for, driver_of


def _cmd_bots(args: argparse.Namespace) -> None:
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

    with cluster_for(args) as cluster:
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
