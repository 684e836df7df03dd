"""benches/mixed_decks.py: Mixed decks vs the four pure factions: heuristic bots, 2,000 games per pairing (1,000 with
each side starting), Wilson 95% intervals. Pairings that share a faction deck need
rules.allow_mirror = true (E90); they are marked.

    nice python benches/mixed_decks.py [games per pairing, default 2000]
"""

import itertools
import sys
import time

import ketharmad as k
from ketharmad.stats import wilson_interval

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
t0 = time.perf_counter()
rows = []
mixed = [f"{a}+{b}" for a, b in itertools.combinations(k.FACTIONS, 2)]
for m, (_i, f) in itertools.product(mixed, enumerate(k.FACTIONS)):
    shared = f in m.split("+")
    params = {"rules.allow_mirror": True} if shared else {}
    wins = games = 0
    for start in (0, 1):
        r = k.simulate(
            [m, f],
            bots="heuristic",
            games=GAMES // 2,
            seed=1000 + 7 * len(rows) + start,
            params=params,
            start_player=start,
            run=dict(threads=2),
        )
        games += r.n_games
        wins += int(r.players.filter((r.players["seat"] == 0) & r.players["won"])["won"].len())
    lo, hi = wilson_interval(wins, games)
    rows.append((m, f, shared, games, wins, wins / games, lo, hi))
el = time.perf_counter() - t0
print("| Mixed deck | opponent | games | Mixed wins | win rate | 95% CI |")
print("|---|---|---:|---:|---:|---|")
for m, f, shared, g, w, wr, lo, hi in rows:
    print(
        f"| {m} | {f}{' (mirror)' if shared else ''} | {g:,} | {w:,} | {wr:.1%} | [{lo:.1%}, {hi:.1%}] |"
    )
print(f"\n{len(rows)} pairings, {sum(r[3] for r in rows):,} games in {el:.0f} s (nice, threads=2)")
