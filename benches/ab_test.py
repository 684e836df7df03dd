"""Does ``ketharmad.ab_test`` decide right, and how many games does it need? (issue 25)

    python benches/ab_test.py               # 100 repetitions of each case (a few minutes)
    python benches/ab_test.py --reps 20     # quicker

Three cases, each repeated ``--reps`` times with seeds 1000, 1001, ... (fresh games every
time), with the default test (H0 elo 0, H1 elo 10, alpha = beta = 0.05), Kétharmad, all 12
deck pairings, heuristic bots:

* **planted**: ``heuristic(expose_priority=0.5)`` against the default heuristic, a difference
  of about 2 points of win rate, measured first with a large fixed sample (``--measure``
  games, default 240,000, seed 101, a tournament with seats swapped): the right decision is H1;
* **identical**: the default heuristic against itself: the right decision is H0 (the paired
  games are mirrors of each other, so every pair is split and the test stops at the first
  batch: the design, not luck);
* **near-null**: ``heuristic(reaction_patience=0.1)`` against the default, measured within a
  few tenths of a point of 50 %: the right decision is H0.

Prints, per case, the measured win rate, the share of repetitions decided right, and the
median and 90th percentile of the games used.
"""

from __future__ import annotations

import argparse
import statistics
import time

import ketharmad
from ketharmad.game.validate import bot_label
from ketharmad.lab.sprt import elo_of_score

BASE = "heuristic"
CASES = [
    ("planted", {"kind": "heuristic", "expose_priority": 0.5}, "H1"),
    ("identical", "heuristic", "H0"),
    ("near-null", {"kind": "heuristic", "reaction_patience": 0.1}, "H0"),
]


def measure(spec, games: int) -> str:
    r = ketharmad.tournament([spec, BASE], games=games, seed=101)
    row = r.pairs.row(0, named=True)
    p, lo, hi = row["win_rate_a"], row["ci_low"], row["ci_high"]
    return (f"win rate {100 * p:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}] over {games:,} games "
            f"(Elo {elo_of_score(p):+.1f})")  # fmt: skip


def percentile(xs: list[int], q: float) -> float:
    s = sorted(xs)
    k = (len(s) - 1) * q
    f = int(k)
    return s[f] + (s[min(f + 1, len(s) - 1)] - s[f]) * (k - f)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--reps", type=int, default=100)
    ap.add_argument(
        "--measure", type=int, default=240_000, help="games of the fixed-sample measurement"
    )
    ap.add_argument("--threads", type=int, default=None)
    args = ap.parse_args(argv)
    print(
        f"ab_test: H0 elo 0, H1 elo 10, alpha 0.05, beta 0.05; {args.reps} repetitions a case, seeds 1000.."
    )
    for name, spec, right in CASES:
        t0 = time.perf_counter()
        truth = measure(spec, args.measure) if spec != BASE else "the same bot"
        decisions, games = [], []
        t1 = time.perf_counter()
        for i in range(args.reps):
            res = ketharmad.ab_test(spec, BASE, seed=1000 + i, run={"threads": args.threads})
            decisions.append(res.decision)
            games.append(res.n_games)
        t2 = time.perf_counter()
        ok = decisions.count(right)
        print(f"{name:10s} {bot_label(spec)} vs {BASE}: {truth}")
        print(f"{'':10s} right ({right}) {ok}/{args.reps}; H1 {decisions.count('H1')}, H0 {decisions.count('H0')}, "
              f"inconclusive {decisions.count('inconclusive')}; games median {statistics.median(games):,.0f}, "
              f"90th percentile {percentile(games, 0.9):,.0f}, max {max(games):,}; "
              f"{t2 - t1:.1f} s for the tests ({t1 - t0:.1f} s measuring)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
