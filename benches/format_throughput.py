"""Throughput per format on one machine in one run (docs/formats.md): games per second of the
free-for-all, Coalition, pairs play and diplomacy with the same four decks, bots and threads.

    python benches/format_throughput.py --games 6000 --bots heuristic --threads 2

Each format plays ``--games`` games of the four factions (rotated each quarter so every deck
holds every seat); ``--repeat`` runs each and keeps the median rate. Prints games/s, the rate
relative to the free-for-all and the mean game length in turns.
"""

from __future__ import annotations

import argparse
import statistics
import time

import ketharmad as k

FORMATS = ["ffa", "coalition", "pairs", "diplomacy"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=6000)
    ap.add_argument("--bots", default="heuristic")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--formats", default=",".join(FORMATS))
    a = ap.parse_args()
    decks = list(k.FACTIONS)
    per = a.games // 4
    base = None
    for fmt in a.formats.split(","):
        rates, turns = [], 0.0
        for _ in range(a.repeat):
            t0, n, t = time.perf_counter(), 0, 0
            for r in range(4):
                d = decks[r:] + decks[:r]
                res = k.simulate(d, bots=a.bots, games=per, seed=r, threads=a.threads, format=fmt)
                n += res.games.height
                t += int(res.games["turns"].sum())
            rates.append(n / (time.perf_counter() - t0))
            turns = t / n
        rate = statistics.median(rates)
        base = base or rate
        print(f"{fmt:10s} {rate:8.0f} games/s  {rate / base:5.2f} x ffa  {turns:5.1f} turns/game")


if __name__ == "__main__":
    main()
