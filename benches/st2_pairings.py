"""Schotten Totten 2: the Attacker's win rate for every bot pairing, with Wilson 95 %
intervals and throughput (docs/schotten_totten2.md).

    python benches/st2_pairings.py [games] [search_games] [threads]

Defaults: 20000 games per random/greedy pairing, 200 per pairing with the search bot
(``search`` = ISMCTS, 200 iterations per decision, random rollouts). The table in
docs/schotten_totten2.md (20,000 games for every pairing) is
``python benches/st2_pairings.py 20000 20000 2``: about 95 minutes on 2 cores. Seed 1; game i of a
pairing is the same on any thread count, and the same as
``cargo run --release --example st2_games -- <games> <attacker> <defender> <threads> 1``.
"""

from __future__ import annotations

import sys

import ketharmad

BOTS = ["random", "greedy", "search"]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    search_games = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    threads = int(sys.argv[3]) if len(sys.argv) > 3 else None
    t = ketharmad.matchups(game="schotten_totten_2", bots=BOTS, games=games, seed=1,
                           games_for={"search": search_games}, run=dict(threads=threads, rows=False)).table  # fmt: skip
    print(
        f"{'attacker':>8} {'defender':>8} {'games':>7} {'attacker win rate':>18} {'95% CI':>17} {'games/s':>9}"
    )
    for r in t.iter_rows(named=True):
        ci = f"[{r['ci_low']:.4f}, {r['ci_high']:.4f}]"
        print(
            f"{r['bot']:>8} {r['opponent']:>8} {r['games']:>7} {r['win_rate']:>18.4f} {ci:>17} {r['games_per_second']:>9.0f}"
        )


if __name__ == "__main__":
    main()
