"""Peak memory (max RSS) of one ``simulate`` call, chunked and unchunked.

Each configuration runs in a fresh subprocess, which reports its ``ru_maxrss`` after the call
(and its RSS before the call, i.e. what the imports cost), so the figures do not disturb each
other.

    python benches/peak_memory.py --games 300000 --chunk-size 20000
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

_CHILD = r"""
import json, resource, sys
import ketharmad

def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0

kwargs = json.loads(sys.argv[1])
before = rss_kib()
res = ketharmad.simulate(**kwargs)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
rows = res.games.height
after = rss_kib()
print(json.dumps({"before_kib": before, "peak_kib": peak, "after_kib": after, "games": rows}))
"""


def measure(kwargs: dict) -> dict:
    """Run one ``simulate(**kwargs)`` in a fresh interpreter and return its memory figures."""
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps(kwargs)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    """Print the peak RSS of an unchunked and a chunked run of the same batch."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=300_000)
    p.add_argument("--chunk-size", type=int, default=20_000)
    p.add_argument("--bots", default="random")
    p.add_argument("--threads", type=int, default=None)
    args = p.parse_args(argv)
    base = {
        "decks": ["ner", "tisza"],
        "bots": args.bots,
        "games": args.games,
        "seed": 1,
        "threads": args.threads,
    }
    print(f"{args.games:,} {args.bots} games, ner vs tisza")
    print(f"{'run':<24}{'RSS before':>12}{'peak RSS':>12}{'RSS after':>12}   (MiB)")
    for label, extra in (
        ("unchunked", {}),
        (f"chunk_size={args.chunk_size:,}", {"chunk_size": args.chunk_size}),
    ):
        m = measure({**base, **extra})
        print(
            f"{label:<24}{m['before_kib'] / 1024:>12.0f}{m['peak_kib'] / 1024:>12.0f}{m['after_kib'] / 1024:>12.0f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
