"""Throughput per game format relative to the free-for-all on the same machine (issue 13,
docs/formats.md "Throughput").

    python benches/formats_throughput.py                       # 10,000 games per row
    python benches/formats_throughput.py --games 50000 --threads 2 --repeat 5

Every format the engine plays (``ketharmad.formats()``, so a format joins once it is built)
is timed with random and heuristic bots on 4 seats when the format allows 4 (else its
smallest seat count), the four factions (repeated with ``rules.allow_mirror`` above four
seats), random start player. Each row plays the same game indices of one seed through the
plan runner with ``output="outcomes"`` (the core's per-game columns, no table conversion),
best of ``--repeat`` runs, and is compared with the free-for-all of the same seat count and
bots (formats of more than 4 seats: the 4-seat ffa): ``ratio`` = games/s of the format /
games/s of ffa (above 1: faster). Mean turns per
game are printed too: a format with shorter games plays more of them per second.
"""

from __future__ import annotations

import argparse
import os
import time

import ketharmad as k
from ketharmad.game.data import load_card_data
from ketharmad.run.plan import Plan, cell, run_plan


def seats_for(row: dict) -> int:
    return 4 if row["seats_min"] <= 4 <= row["seats_max"] else row["seats_min"]


def rate(
    name: str, n: int, bots: str, games: int, threads: int, repeat: int, text: str
) -> tuple[float, float]:
    f = list(k.FACTIONS)
    decks = [f[i % len(f)] for i in range(n)]
    params: dict = {} if name == "ffa" else {"rules.format": name}
    if n > len(f):
        params["rules.allow_mirror"] = True
    plan = Plan(0, [cell(text, decks, [bots] * n, params, 0, games, output="outcomes")])
    best = float("inf")
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        (out,) = run_plan(plan, threads=threads)
        best = min(best, time.perf_counter() - t0)
    assert out is not None
    return games / best, float(out["turns"].mean())


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=10_000, help="games per row")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--repeat", type=int, default=3, help="runs per row; the best counts")
    a = ap.parse_args()
    text = load_card_data(None)
    table = k.formats()
    played = [r for r in table.iter_rows(named=True) if r["played"]]
    skipped = [r["format"] for r in table.iter_rows(named=True) if not r["played"]]
    print(
        f"{a.games:,} games per row, {a.threads} threads, best of {a.repeat}; not played yet: {', '.join(skipped) or 'none'}"
    )
    print(
        f"{'format':<12} {'seats':>5} {'bots':<10} {'games/s':>10} {'ffa games/s':>12} {'ratio':>6} {'turns':>6}"
    )
    for bots in ("random", "heuristic"):
        ffa: dict[int, tuple[float, float]] = {}
        for row in played:
            n = seats_for(row)
            # the free-for-all seats 2 to 4: a format of more seats (gods) is compared with 4
            if n not in ffa:
                ffa[n] = rate("ffa", min(n, 4), bots, a.games, a.threads, a.repeat, text)
            gps, turns = (
                ffa[n]
                if row["format"] == "ffa"
                else rate(row["format"], n, bots, a.games, a.threads, a.repeat, text)
            )
            base = ffa[n][0]
            print(
                f"{row['format']:<12} {n:>5} {bots:<10} {gps:>10,.0f} {base:>12,.0f} {gps / base:>6.2f} {turns:>6.1f}"
            )


if __name__ == "__main__":
    main()
