"""The Coalition team-pair table (rules.md R16.2-R16.3; docs/formats.md): which two factions make
the strongest coalition. A thin wrapper of the library's ``ketharmad.matchups(format="coalition")``.

    python benches/coalition_pairs.py --games 2000           # per team pairing (4 rotations)
    python benches/coalition_pairs.py --games 2000 --bots heuristic --threads 2
    python benches/coalition_pairs.py --games 400 --decks ner tisza osszefogas radikalisok ner+tisza
    python benches/coalition_pairs.py --games 500 --format pairs   # pairs play (V2)

Every split of the decks into two teams of two is played in the 4 rotations of the seating
``[a1, b1, a2, b2]`` (partners opposite, E81), seat 0 starting, so every team holds seats 0 + 2
and 1 + 3, starts half its games, and every deck sits in every seat. Prints each team's win
rate over its pairing with a 95 % Wilson interval, best first (unfinished games count as
losses for both teams), the win rate by seat and by deck, and the games per second.
"""

from __future__ import annotations

import argparse

import ketharmad as k
import polars as pl


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--games", type=int, default=2000, help="games per team pairing (a multiple of 4)"
    )
    ap.add_argument("--bots", default="heuristic")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument(
        "--decks", nargs="+", default=None, help="the decks to split (default: the four factions)"
    )
    ap.add_argument(
        "--format", default="coalition", help="a team format of four seats (coalition, pairs)"
    )
    a = ap.parse_args()
    r = k.matchups(format=a.format, games=a.games, bots=a.bots, seed=a.seed, decks=a.decks,
                   run=dict(threads=a.threads, rows=False))  # fmt: skip
    print(r.text())
    with pl.Config(
        tbl_rows=100, float_precision=3, tbl_width_chars=140, tbl_hide_dataframe_shape=True
    ):
        print(r.by_seat)
        print(r.by_deck)
    print(
        f"{r.n_games} {a.format} games ({a.bots}) in {r.elapsed:.1f} s: {r.n_games / r.elapsed:.0f} games/s"
    )


if __name__ == "__main__":
    main()
