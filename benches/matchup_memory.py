"""Peak memory of a 2-player matchup table kept as reductions (``rows=False``) or as rows
(``rows=True``), against the number of games.

Each run is one ``ketharmad.matchups(games=N / 10, ...)`` (10 faction pairs, N games in all)
in a fresh subprocess that reports its RSS before the call and its peak RSS (``ru_maxrss``)
after it, and a hash of the ``.table`` so the two ways can be checked to agree. From the
reductions' peaks at two sizes it prints a projection of the peak at ``--project`` games
(default 10^8), extrapolating the measured growth linearly (a flat peak projects to itself).

    python benches/matchup_memory.py                          # 10^6 and 10^7 games, random bots
    python benches/matchup_memory.py --sizes 1000000 --rows-up-to 1000000
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

_CHILD = r"""
import hashlib, json, resource, sys, time

def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0

import ketharmad

kwargs = json.loads(sys.argv[1])
ketharmad.matchups(games_per_side=1, bots=kwargs["bots"], threads=1, rows=kwargs["rows"])  # warm-up
before = rss_kib()
start = time.perf_counter()
m = ketharmad.matchups(**kwargs)
elapsed = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
digest = hashlib.sha256(m.table.write_csv().encode()).hexdigest()[:16]
print(json.dumps({"before_kib": before, "peak_kib": peak, "games": m.n_games, "seconds": elapsed,
                  "table": digest, "rows": m.rows}))
"""


def measure(games: int, rows: bool, bots: str, threads: object, seed: int) -> dict:
    """One matchup of ``games`` games in all in a fresh interpreter; its memory figures."""
    kwargs = {"games": games // 10, "rows": rows, "bots": bots, "threads": threads, "seed": seed}
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps(kwargs)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    """Print peak RSS of reductions vs rows at each size and the projection for ``--project``."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[1_000_000, 10_000_000],
                   help="games in all per run, multiples of 20 (default: 10^6 10^7)")  # fmt: skip
    p.add_argument("--rows-up-to", type=int, default=10_000_000,
                   help="also measure rows=True for sizes up to this many games (default 10^7)")  # fmt: skip
    p.add_argument(
        "--project", type=int, default=100_000_000, help="games to project the peak to (10^8)"
    )
    p.add_argument("--bots", default="random")
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    if any(n % 20 for n in args.sizes):
        p.error("--sizes must be multiples of 20 (10 pairs x 2 start players)")
    print(f"2-player matchups, bots {args.bots}, threads={args.threads}, seed {args.seed}")
    print(f"{'run':<12}{'games':>13}{'RSS before':>12}{'peak RSS':>10}{'growth':>9}{'seconds':>9}"
          f"{'games/s':>11}  table hash   (MiB)")  # fmt: skip
    peaks: dict[tuple[bool, int], int] = {}
    hashes: dict[int, list[str]] = {}
    for games in args.sizes:
        for rows in (False, True):
            if rows and games > args.rows_up_to:
                continue
            m = measure(games, rows, args.bots, args.threads, args.seed)
            assert m["games"] == games and m["rows"] == rows, m
            peaks[(rows, games)] = m["peak_kib"]
            hashes.setdefault(games, []).append(m["table"])
            print(
                f"{'rows' if rows else 'reductions':<12}{games:>13,}{m['before_kib'] / 1024:>12.1f}"
                f"{m['peak_kib'] / 1024:>10.1f}{(m['peak_kib'] - m['before_kib']) / 1024:>9.1f}"
                f"{m['seconds']:>9.1f}{games / m['seconds']:>11,.0f}  {m['table']}",
                flush=True,
            )
    for games, h in hashes.items():
        if len(h) == 2:
            print(
                f"{games:,} games: tables {'equal' if h[0] == h[1] else 'DIFFER'} (rows vs reductions)"
            )
    red = sorted((g, k) for (rows, g), k in peaks.items() if not rows)
    if len(red) >= 2:
        (g0, k0), (g1, k1) = red[0], red[-1]
        slope = max(0.0, (k1 - k0) / (g1 - g0))  # KiB per game; ~0 when flat
        proj = k1 + slope * (args.project - g1)
        print(f"reductions: peak {k0 / 1024:.1f} MiB at {g0:,} games, {k1 / 1024:.1f} MiB at {g1:,} "
              f"({(k1 - k0) / 1024:+.1f} MiB); projected peak at {args.project:,} games: "
              f"{proj / 1024:.1f} MiB (linear in the measured growth; target < 1024 MiB)")  # fmt: skip
    rows_runs = sorted((g, k) for (rows, g), k in peaks.items() if rows)
    if rows_runs:
        g, k = rows_runs[-1]
        per = (k - peaks[(False, g)]) * 1024 / g
        print(f"rows: {per:,.0f} bytes per game above the reductions at {g:,} games; "
              f"{args.project:,} games as rows would need about {per * args.project / 2**30:,.1f} GiB")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
