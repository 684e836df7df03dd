"""The rank of a planted card in its faction's diagnosis (docs/diagnose.md).

Plants one Influence change on the packaged card set, runs ``ketharmad.diagnose`` on the
planted faction (heuristic bots, 2-player pairs against the three other factions) at a few
budgets, and prints the planted card's rank, its suspicion score and the wall time; the same
card's rank without the plant is printed next to it (a rank that is already 1 unplanted would
prove nothing).

    PYTHONPATH=$PWD/python python3 benches/diagnose_plant.py [--games 2000 5000 10000] [--seed 1]
"""

from __future__ import annotations

import argparse
import time

import ketharmad


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--card", default="rad_radikalis_aktivista")
    ap.add_argument("--faction", default="radikalisok")
    ap.add_argument("--param", default="influence")
    ap.add_argument("--value", type=int, default=3)
    ap.add_argument("--games", type=int, nargs="+", default=[2000, 5000, 10000])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--card-data", default=None, help="a card set or file (default: the packaged set)"
    )
    ap.add_argument("--unplanted", action="store_true", help="also the rank without the plant")
    a = ap.parse_args()
    plant = {f"{a.card}.{a.param}": a.value}
    print(
        f"plant {plant}, faction {a.faction}, seed {a.seed}, card data {a.card_data or 'packaged'}, heuristic bots"
    )
    for g in a.games:
        for label, params in [("planted", plant)] + ([("unplanted", {})] if a.unplanted else []):
            t = time.perf_counter()
            r = ketharmad.diagnose(
                [a.faction], games=g, seed=a.seed, params=params, card_data=a.card_data
            )
            wall = time.perf_counter() - t
            row = r.suspects.filter(r.suspects["card"] == a.card).row(0, named=True)
            n = r.suspects.filter(r.suspects["faction"] == a.faction).height
            print(f"games/pairing {g:>6,}  {label:9}  rank {row['rank']:>2}/{n}  suspicion "
                  f"{row['suspicion']:+6.1f}  z_iwd {row['z_iwd']:+5.1f}  z_restricted "
                  f"{(row['z_restricted'] or 0):+5.1f}  {r.n_games:,} games  {wall:.1f} s")  # fmt: skip


if __name__ == "__main__":
    main()
