"""A plot of the speed history (issue 29): each workload's instructions against its first
record, one line per workload, one point per record (``benches/speed_history.csv``).

    python benches/plot_speed_history.py                       # writes docs/speed_history.png
    python benches/plot_speed_history.py --history H.csv --out plot.png

Needs matplotlib (the ``plots`` extra). A record is labelled by its commit; a workload that
joined the history later starts at its own first record (1.00).
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def read_history(path: Path) -> tuple[list[str], dict[str, dict[str, int]]]:
    """The commits in record order and ``{workload: {commit: instructions}}``."""
    commits: list[str] = []
    counts: dict[str, dict[str, int]] = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["commit"] not in commits:
                commits.append(row["commit"])
            counts.setdefault(row["workload"], {})[row["commit"]] = int(row["instructions"])
    return commits, counts


def plot(history: Path, out: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    commits, counts = read_history(history)
    if not commits:
        raise ValueError(f"{history}: no records")
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for workload, by_commit in sorted(counts.items()):
        xs = [i for i, c in enumerate(commits) if c in by_commit]
        first = by_commit[commits[xs[0]]]
        ax.plot(xs, [by_commit[commits[i]] / first for i in xs], marker="o", label=workload)
    ax.set_xticks(range(len(commits)), [c[:7] for c in commits], rotation=30, ha="right")
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.set_ylabel("instructions / first record")
    ax.set_title("Speed history: instructions of the fixed workloads (callgrind)")
    ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--history", type=Path, default=ROOT / "benches" / "speed_history.csv")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "speed_history.png")
    args = ap.parse_args(argv)
    print(f"wrote {plot(args.history, args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
