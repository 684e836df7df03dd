"""The shipped ladder of every game, rated (issue 25): ``ketharmad.ladder(game=...)`` with its
default rungs, seed 0, 200 bootstrap resamples.

    python benches/ladders.py          # about an hour on 2 cores (the search rungs cost most)
    python benches/ladders.py schotten_totten_2     # only the games named

Kétharmad plays 480 games per pair of bots (all 12 deck pairings, seats swapped), Schotten
Totten 2 1,000 (each bot on each side in half), Osztrakon 2,000 (each bot alone against a
field of 4 of each other). Prints each ladder (ratings with intervals, each rung against the
one below) and its wall time; docs/bots.md shows the last run.
"""

from __future__ import annotations

import sys
import time

import ketharmad

only = sys.argv[1:]
for game, games in (("ketharmad", 480), ("schotten_totten_2", 1000), ("osztrakon", 2000)):
    if only and game not in only:
        continue
    t = time.time()
    r = ketharmad.ladder(game=game, games=games, seed=0)
    print(r)
    print(f"[{game}: {time.time() - t:.1f} s]", flush=True)
