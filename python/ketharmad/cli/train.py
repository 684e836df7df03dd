"""``ketharmad train``: record self-play positions, fit a value model and report its
calibration on held-out games (:func:`ketharmad.learn.train`; docs/learning.md)."""

from __future__ import annotations

import argparse
from typing import Any

from ..game.data import CARD_DATA_HELP

__all__ = ["add_command"]


def _cmd_train(args: argparse.Namespace) -> None:
    from ..learn import train

    r = train(game=args.game, out=args.out, games=args.games, bots=args.bots, seats=tuple(args.seats),
              rate=args.rate, seed=args.seed, card_data=args.card_data, epochs=args.epochs,
              threads=args.threads, progress=True)  # fmt: skip
    if r.resumed:
        print(f"resumed: {', '.join(r.resumed)} reused from {args.out}")
    print(r.summary())
    print("reliability (held-out positions): bin, rows, predicted, observed [95 % interval]")
    for row in r.calibration["reliability"]:
        print(
            f"  {row['bin']}  {row['rows']:8d}  {row['predicted']:.3f}  {row['observed']:.3f} [{row['lo']:.3f}, {row['hi']:.3f}]"
        )
    print(f"model: {r.model_path}; report: {r.report_path}; "
          f"{r.seconds.get('positions', 0):.1f} s positions, {r.seconds.get('fit', 0):.1f} s fit")  # fmt: skip


def add_command(sub: Any) -> None:
    p = sub.add_parser(
        "train",
        help="train a value model on self-play positions and report its calibration",
        description="Record every seat's features at a sample of the key decisions of seeded self-play games, "
        "fit a small network to the results, and write value.khnn, positions.npz and report.json to --out. "
        "Repeating the command with the same settings reuses the recorded positions (resume). "
        "The model plays as {'kind': 'ismcts', 'value': 'OUT/value.khnn'}. docs/learning.md",
    )
    p.add_argument("--game", default="ketharmad", help="the game (value models: ketharmad)")
    p.add_argument("--out", required=True, metavar="DIR", help="the output directory")
    p.add_argument(
        "--games", type=int, default=20_000, help="self-play games per seat count (default: 20000)"
    )
    p.add_argument(
        "--bots", default="tuned", help="the self-play bot of every seat (default: tuned)"
    )
    p.add_argument(
        "--seats", type=int, nargs="+", default=[2], help="seat counts to record (default: 2)"
    )
    p.add_argument(
        "--rate", type=float, default=0.25, help="share of key decisions recorded (default: 0.25)"
    )
    p.add_argument("--epochs", type=int, default=12, help="training epochs (default: 12)")
    p.add_argument(
        "--seed", type=int, default=0, help="seed of the games, the split and the fit (default: 0)"
    )
    p.add_argument("--card-data", default=None, metavar="PATH|SET", help=CARD_DATA_HELP)
    p.add_argument("--threads", type=int, default=None, help="worker threads (default: all cores)")
    p.set_defaults(func=_cmd_train)
