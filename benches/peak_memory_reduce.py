"""Peak memory of a reduction (``ketharmad.run.reduce.simulate_stats``) against the number of games.

A reduction keeps integer counts, not rows, so its peak RSS must not grow with the number of
games. Each configuration runs in a fresh subprocess that reports its RSS before the call and
its peak RSS (``ru_maxrss``) after it; for contrast, the same small run through ``simulate``
(rows) is measured too.

    python benches/peak_memory_reduce.py --games 1000000          # 10^5 vs 10^6
    python benches/peak_memory_reduce.py --games 100000000        # the 10^8 target (hours)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

_CHILD = r"""
import json, resource, sys, time

def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0

import ketharmad
from ketharmad.run.reduce import simulate_stats

how, kwargs = json.loads(sys.argv[1])
ketharmad.simulate(kwargs["decks"], bots=kwargs["bots"], games=10, seed=0, threads=1)  # warm-up
before = rss_kib()
start = time.perf_counter()
if how == "stats":
    s = simulate_stats(**kwargs)
    games, wins = s.games, list(s.wins_seat)
else:
    r = ketharmad.simulate(**kwargs)
    games, wins = r.games.height, r.summary()["wins"].to_list()
elapsed = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
print(json.dumps({"before_kib": before, "peak_kib": peak, "games": games, "wins": wins, "seconds": elapsed}))
"""


def measure(how: str, kwargs: dict) -> dict:
    """Run one reduction (``how="stats"``) or one ``simulate`` (``"rows"``) in a fresh
    interpreter and return its memory figures."""
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps([how, kwargs])],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    """Print the peak RSS of a small and a large reduction, and of the small run as rows."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--small", type=int, default=100_000, help="games of the small run (default 10^5)"
    )
    p.add_argument(
        "--games", type=int, default=1_000_000, help="games of the large run (default 10^6)"
    )
    p.add_argument("--bots", default="heuristic")
    p.add_argument("--threads", type=int, default=None)
    args = p.parse_args(argv)
    base = {"decks": ["ner", "tisza"], "bots": args.bots, "seed": 1, "threads": args.threads}
    print(f"{args.bots} games, ner vs tisza, threads={args.threads}")
    print(
        f"{'run':<28}{'games':>13}{'RSS before':>12}{'peak RSS':>10}{'growth':>9}{'seconds':>9}{'games/s':>10}   (MiB)"
    )
    rows = [("rows (simulate)", "rows", args.small), ("stats (simulate_stats)", "stats", args.small),
            ("stats (simulate_stats)", "stats", args.games)]  # fmt: skip
    peaks = {}
    for label, how, games in rows:
        m = measure(how, {**base, "games": games})
        assert m["games"] == games
        peaks[(how, games)] = m["peak_kib"]
        print(
            f"{label:<28}{games:>13,}{m['before_kib'] / 1024:>12.1f}{m['peak_kib'] / 1024:>10.1f}"
            f"{(m['peak_kib'] - m['before_kib']) / 1024:>9.1f}{m['seconds']:>9.1f}{games / m['seconds']:>10,.0f}"
        )
    small, large = peaks[("stats", args.small)], peaks[("stats", args.games)]
    print(f"peak RSS of the reduction: {large / 1024:.1f} MiB for {args.games:,} games vs {small / 1024:.1f} MiB "
          f"for {args.small:,} ({(large - small) / 1024:+.1f} MiB)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
