"""The shipped ``tuned`` preset, made again and checked (issue 25): ``tune_bot`` on the
heuristic against the default heuristic, then the preset on games of another seed.

    python benches/tune_bot.py          # about a minute on 2 cores

Prints the tuned knobs (the preset in rust/bots/heuristic.rs is this run's, seed 0), the
holdout result, and ``tuned`` against ``heuristic`` on 24,000 games of seed 555 (a
tournament: all 12 deck pairings, seats swapped).
"""

from __future__ import annotations

import time

import ketharmad

t = time.time()
res = ketharmad.tune_bot("heuristic", trials=100, games=960, seed=0)
print(res)
print("best:", res.best)
print(f"[tune_bot: {res.n_games:,} games, {time.time() - t:.1f} s]")
t = time.time()
row = ketharmad.tournament(["tuned", "heuristic"], games=24_000, seed=555).pairs.row(0, named=True)
print(f"tuned vs heuristic, seed 555: {100 * row['win_rate_a']:.1f}% [{100 * row['ci_low']:.1f}, "
      f"{100 * row['ci_high']:.1f}] of {row['games']:,} games ({time.time() - t:.1f} s)")  # fmt: skip
