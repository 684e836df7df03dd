"""Search at every decision against main-priority-only search (issue 12), at the same
iteration budget (default 100).

Prints, in one run:

* each variant against the heuristic bot (both seats, the same seeds): its win rate with a
  Wilson 95 % interval, games/s, decisions/s (the games' `actions`, every decision of both
  seats) and rollouts per game;
* the two variants head to head (each seat in turn): the every-decision bot's win rate.

    python benches/search_every.py                      # 2 x 100 games per line, 100 iterations
    python benches/search_every.py --games 40 --iterations 20   # quick
"""

from __future__ import annotations

import argparse
import time

import ketharmad
from ketharmad.stats import wilson_interval

p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
p.add_argument("--games", type=int, default=100, help="games per seating (default 100)")
p.add_argument("--iterations", type=int, default=100)
p.add_argument("--rollout-rounds", type=int, default=30)
p.add_argument("--decks", default="ner,tisza")
p.add_argument("--threads", type=int, default=None)
p.add_argument("--seed", type=int, default=1)
a = p.parse_args()
decks = a.decks.split(",")
base = {"kind": "search", "iterations": a.iterations, "rollout_rounds": a.rollout_rounds}
every = dict(base, every=1)


def play(bots, seed):
    t = time.perf_counter()
    r = ketharmad.simulate(decks, bots=bots, games=a.games, seed=seed, run=dict(threads=a.threads))
    return r, time.perf_counter() - t


def line(name, wins, n, secs, actions, rollouts):
    lo, hi = wilson_interval(wins, n)
    print(
        f"{name:34s} wins {wins / n:6.1%} [{lo:.1%}, {hi:.1%}] of {n:4d}   {n / secs:7.2f} games/s   "
        f"{actions / secs:9,.0f} decisions/s   {rollouts / n:9,.0f} rollouts/game",
        flush=True,
    )


print(
    f"{'+'.join(decks)}, {a.iterations} iterations, rollout_rounds {a.rollout_rounds}, {a.games} games per seating"
)
for name, bot in (
    ("main-only search vs heuristic", base),
    ("every-decision search vs heuristic", every),
):
    wins = n = actions = rollouts = 0
    secs = 0.0
    for seat in (0, 1):
        bots = [bot, "heuristic"] if seat == 0 else ["heuristic", bot]
        r, dt = play(bots, a.seed + seat)
        wins += int((r.games["winner"] == seat).sum())
        n += a.games
        secs += dt
        actions += int(r.games["actions"].sum())
        rollouts += int(r.players.filter(r.players["seat"] == seat)["rollouts"].sum())
    line(name, wins, n, secs, actions, rollouts)
wins = n = actions = 0
secs = 0.0
for seat in (0, 1):
    bots = [every, base] if seat == 0 else [base, every]
    r, dt = play(bots, a.seed + 10 + seat)
    wins += int((r.games["winner"] == seat).sum())
    n += a.games
    secs += dt
    actions += int(r.games["actions"].sum())
line("every-decision vs main-only", wins, n, secs, actions, 0)
