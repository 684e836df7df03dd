"""``ketharmad train``: train a game's learned bots — a value model on self-play positions
and a policy by expert iteration — and report calibration and strength
(:func:`ketharmad.train`; docs/learning.md)."""

from __future__ import annotations

import argparse
from typing import Any

from ..game.data import CARD_DATA_HELP

__all__ = ["add_command"]


def _cmd_train(args: argparse.Namespace) -> None:
    from ..learn.train import _train_both, train_value

    if args.value_only:
        v = train_value(game=args.game, out=f"{args.out}/value", games=args.value_games, seed=args.seed,
                        card_data=args.card_data, progress=True)  # fmt: skip
        print(v.summary())
        rows = v.calibration["reliability"]
    else:
        r = _train_both(args.game, args.out, args.value_games, args.policy_games, args.generations, args.teacher,
                        args.rate, args.seed, args.card_data, None, True)  # fmt: skip
        v = r.value
        rows = v.calibration["reliability"]
        print("generation  decisions  agreement  vs baseline")
        for g in r.policy.generations:
            print(
                f"  {g['generation']:8d}  {g['decisions']:9d}  {g['agreement']:8.1%}  {g['vs_heuristic']:10.1%}"
            )
        print(f"policy: {r.policy.model_path}; report: {r.policy.report_path}")
    if v.resumed:
        print(f"resumed: {', '.join(v.resumed)} reused from {args.out}")
    print(
        "value model reliability (held-out positions): bin, rows, predicted, observed [95 % interval]"
    )
    for row in rows:
        print(
            f"  {row['bin']}  {row['rows']:8d}  {row['predicted']:.3f}  {row['observed']:.3f} [{row['lo']:.3f}, {row['hi']:.3f}]"
        )
    print(f"value model: {v.model_path}; report: {v.report_path}")


def add_command(sub: Any) -> None:
    p = sub.add_parser(
        "train",
        help="train the learned bots (a value model and a policy by expert iteration)",
        description="Record self-play positions and fit a value model (OUT/value), then train a policy by expert "
        "iteration (OUT/policy): each generation plays games, labels their decisions with a search's choices and "
        "fits the policy on every label so far. Prints calibration and each generation's strength. Repeating the "
        "command with the same settings resumes. The bots play as {'kind': 'learned', 'model': 'OUT/policy/policy.khnn'} "
        "and {'kind': 'ismcts', 'value': 'OUT/value/value.khnn'}. docs/learning.md",
    )
    p.add_argument("--game", default="ketharmad", help="the game (ketharmad, schotten_totten_2)")
    p.add_argument("--out", required=True, metavar="DIR", help="the output directory")
    p.add_argument(
        "--value-games",
        type=int,
        default=24_000,
        help="self-play games of the value model (default: 24000)",
    )
    p.add_argument(
        "--policy-games", type=int, default=720, help="games per policy generation (default: 720)"
    )
    p.add_argument(
        "--generations", type=int, default=3, help="expert-iteration generations (default: 3)"
    )
    p.add_argument(
        "--teacher",
        default=None,
        help="the labelling search (default: the game's strongest affordable one)",
    )
    p.add_argument(
        "--rate",
        type=float,
        default=1.0,
        help="share of a generation's decisions labelled (default: 1)",
    )
    p.add_argument("--value-only", action="store_true", help="train the value model only")
    p.add_argument(
        "--seed",
        type=int,
        default=1,
        help="seed of the games, the splits and the fits (default: 1)",
    )
    p.add_argument("--card-data", default=None, metavar="PATH|SET", help=CARD_DATA_HELP)
    p.set_defaults(func=_cmd_train)
