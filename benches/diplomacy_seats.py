"""Win rate by seat in diplomacy (V1; docs/formats.md "Diplomacy") against the free-for-all
with the same decks, bots and seeds: how much the pact between seats 0 and 1 is worth.

    python benches/diplomacy_seats.py --games 500 --threads 2

For 4 and 3 seats, plays ``--games`` games in each of the 4 rotations of the factions (3 seats:
the first three of each rotation), heuristic bots, and prints the share of finished games each
seat won, the pact seats' share and the pacts broken (0: the bots honour the pact).
"""

from __future__ import annotations

import argparse

import ketharmad as k


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=500, help="games per rotation (4 rotations)")
    ap.add_argument("--bots", default="heuristic")
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    f = list(k.FACTIONS)
    for n in (4, 3):
        for fmt in ("ffa", "diplomacy"):
            wins, fin, broken = [0] * n, 0, 0
            for r in range(4):
                decks = (f[r:] + f[:r])[:n]
                res = k.simulate(
                    decks,
                    bots=a.bots,
                    games=a.games,
                    seed=r,
                    format=fmt,
                    run=dict(threads=a.threads),
                )
                w = res.games["winner"].drop_nulls().to_list()
                fin += len(w)
                for x in w:
                    wins[x] += 1
                broken += int(res.players["pacts_broken"].sum())
            shares = ", ".join(f"{x / fin:.3f}" for x in wins)
            print(
                f"{n} seats {fmt:9s} {fin} finished: by seat [{shares}], seats 0+1 {(wins[0] + wins[1]) / fin:.3f}, pacts broken {broken}"
            )


if __name__ == "__main__":
    main()
