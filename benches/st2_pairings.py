"""Schotten Totten 2: the Attacker's win rate for every bot pairing, with Wilson 95 %
intervals and throughput (docs/schotten_totten2.md).

    python benches/st2_pairings.py [games] [search_games] [threads]

Defaults: 20000 games per random/greedy pairing, 200 per pairing with the search bot
(``search`` = ISMCTS, 200 iterations per decision, random rollouts). Seed 1; game i of a
pairing is the same on any thread count, and the same as
``cargo run --release --example st2_games -- <games> <attacker> <defender> <threads> 1``.
"""

from __future__ import annotations

import sys
import time

import ketharmad

BOTS = ["random", "greedy", "search"]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    search_games = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    threads = int(sys.argv[3]) if len(sys.argv) > 3 else None
    print(f"{'attacker':>8} {'defender':>8} {'games':>7} {'attacker win rate':>18} {'95% CI':>17} {'games/s':>9}")
    for a in BOTS:
        for d in BOTS:
            n = search_games if "search" in (a, d) else games
            if a == d == "search":
                n = max(1, search_games // 2)
            t = time.perf_counter()
            r = ketharmad.simulate_game("schotten_totten_2", bots=[a, d], games=n, seed=1, threads=threads)
            secs = time.perf_counter() - t
            rate, lo, hi = r.attacker_win_rate()
            print(f"{a:>8} {d:>8} {n:>7} {rate:>18.4f} {f'[{lo:.4f}, {hi:.4f}]':>17} {n / secs:>9.0f}")


if __name__ == "__main__":
    main()
