"""Instruction counts of the engine's fixed workloads: the speed history (issue 29).

    python benches/instructions.py            # measure and print (builds the workload binary)
    python benches/instructions.py --record   # ... and append the counts to benches/speed_history.csv
    python benches/instructions.py --check    # ... and fail when a workload grew > 3 % over its record

Each workload (``examples/speed_workloads.rs``: random, heuristic 2-player and 4-player
Kétharmad, a search bot's game, the stepper, Schotten Totten 2, Osztrakon) runs once under
``valgrind --tool=callgrind``, which counts only the instructions between the binary's
``speed_start`` and ``speed_stop`` markers (not loading the card data). Instruction counts are
deterministic: the same binary gives the same count on any machine and under any load, so
a count is comparable across runs, unlike a wall-clock time. They change with the compiler
(rustc version) and the C library (malloc, memcpy), so compare records made with the same
toolchain. Needs valgrind (``apt-get install valgrind``); about 10 s on one core.

The history is a CSV file (commit, workload, instructions, decisions), one row per workload
and record, oldest first; ``commit`` is the commit measured (``-dirty`` when the working tree
had changes other than the history itself). ``--check`` compares every workload with its
latest row: more than ``--threshold`` (3 %) more instructions fails (exit 1, naming the
workload and the change); record the new counts in the same commit when a slowdown is meant.

The workloads are Rust, the driver Python: the counts contain no interpreter, while the
record and check logic stays small and testable without valgrind
(``tests/test_speed_history.py``: ``--counts`` takes measured counts from a JSON file,
``--plant`` adds a slowdown to one workload).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HISTORY = ROOT / "benches" / "speed_history.csv"
# cargo's target directory: CARGO_TARGET_DIR when set (relative paths from the checkout), else target/
TARGET = ROOT / os.environ.get("CARGO_TARGET_DIR", "target")
BINARY = TARGET / "release" / "examples" / "speed_workloads"
FIELDS = ["commit", "workload", "instructions", "decisions"]
THRESHOLD = 0.03

Counts = dict[str, tuple[int, int]]  # workload -> (instructions, decisions)


def build() -> None:
    cmd = ["cargo", "build", "--quiet", "--release", "--example", "speed_workloads"]
    subprocess.run(cmd, cwd=ROOT, check=True)


def workload_names(binary: Path) -> list[str]:
    out = subprocess.run([str(binary), "list"], capture_output=True, text=True, check=True)
    return [line.split("\t")[0] for line in out.stdout.splitlines() if line.strip()]


def measure(binary: Path, name: str) -> tuple[int, int]:
    """(instructions, decisions) of one workload under callgrind."""
    with tempfile.TemporaryDirectory(prefix="kh-speed-") as tmp:
        out = os.path.join(tmp, "cg.out")
        cmd = ["valgrind", "-q", "--tool=callgrind", "--zero-before=speed_start",
               "--dump-before=speed_stop", "--dump-instr=no", f"--callgrind-out-file={out}",
               str(binary), name]  # fmt: skip
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise SystemExit(f"workload {name} failed (exit {r.returncode}):\n{r.stderr}")
        decisions = [int(w.split()[1]) for w in r.stdout.splitlines() if w.startswith("decisions ")]
        # the dump at speed_stop is <out>.1; <out> itself is the rest of the run
        dumps = [os.path.join(tmp, f) for f in os.listdir(tmp) if f != "cg.out"]
        if len(dumps) != 1 or not decisions:
            raise SystemExit(f"workload {name}: expected one callgrind dump and a decision count")
        with open(dumps[0]) as f:
            totals = [int(line.split()[1]) for line in f if line.startswith("totals:")]
        return totals[0], decisions[0]


def read_history(path: Path) -> list[dict[str, str]]:
    if not path.exists():
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def latest(rows: list[dict[str, str]]) -> dict[str, tuple[int, str]]:
    """The latest recorded (instructions, commit) of each workload."""
    last: dict[str, tuple[int, str]] = {}
    for r in rows:
        last[r["workload"]] = (int(r["instructions"]), r["commit"])
    return last


def check(
    counts: Counts, rows: list[dict[str, str]], threshold: float = THRESHOLD
) -> tuple[list[str], list[str]]:
    """(failures, notes): a failure for every workload more than `threshold` over its latest
    record; notes for the new workloads and those that got `threshold` cheaper."""
    last = latest(rows)
    failures, notes = [], []
    for name, (ins, _) in counts.items():
        if name not in last:
            notes.append(f"{name}: no record yet")
            continue
        ref, commit = last[name]
        change = ins / ref - 1.0
        if change > threshold:
            failures.append(f"{name}: {ins:,} instructions, {change:+.1%} over the record of {commit} ({ref:,}); the limit is {threshold:+.0%}")  # fmt: skip
        elif change < -threshold:
            notes.append(f"{name}: {change:+.1%} under the record of {commit}: record the new counts (--record)")  # fmt: skip
    return failures, notes


def commit_label() -> str:
    def git(*a: str) -> str:
        return subprocess.run(
            ["git", *a], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout

    head = git("rev-parse", "--short=12", "HEAD").strip()
    changed = [line for line in git("status", "--porcelain", "--untracked-files=no").splitlines()
               if not line.endswith(HISTORY.name)]  # fmt: skip
    return head + ("-dirty" if changed else "")


def append(path: Path, commit: str, counts: Counts) -> None:
    new = not path.exists()
    with open(path, "a", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        if new:
            w.writerow(FIELDS)
        for name, (ins, dec) in counts.items():
            w.writerow([commit, name, ins, dec])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--record", action="store_true", help="append the counts to the history")
    ap.add_argument(
        "--check", action="store_true", help="fail when a workload grew more than --threshold"
    )
    ap.add_argument(
        "--threshold", type=float, default=THRESHOLD, help="allowed growth (default 0.03)"
    )
    ap.add_argument("--only", default="", help="comma-separated workloads (default: all)")
    ap.add_argument("--history", type=Path, default=HISTORY, help="the history file")
    ap.add_argument("--no-build", action="store_true", help="use the built binary as it is")
    ap.add_argument(
        "--jobs", type=int, default=min(2, os.cpu_count() or 1), help="workloads run at once"
    )
    ap.add_argument("--counts", type=Path, help="take the counts from this JSON file "
                    "({workload: [instructions, decisions]}) instead of measuring (tests)")  # fmt: skip
    ap.add_argument("--plant", action="append", default=[], metavar="WORKLOAD=PCT",
                    help="add PCT %% to a workload's measured count (shows that --check fails)")  # fmt: skip
    ap.add_argument("--commit", help="the commit label of a --record (default: git HEAD)")
    a = ap.parse_args(argv)

    if a.counts:
        counts: Counts = {
            k: (int(v[0]), int(v[1])) for k, v in json.loads(a.counts.read_text()).items()
        }
    else:
        if shutil.which("valgrind") is None:
            print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
            return 2
        if not a.no_build:
            build()
        names = workload_names(BINARY)
        if a.only:
            want = a.only.split(",")
            if unknown := [w for w in want if w not in names]:
                print(f"unknown workloads {unknown}; known: {names}", file=sys.stderr)
                return 2
            names = [n for n in names if n in want]
        with ThreadPoolExecutor(max(1, a.jobs)) as ex:
            counts = dict(zip(names, ex.map(lambda n: measure(BINARY, n), names), strict=True))
    for p in a.plant:
        name, pct = p.split("=")
        ins, dec = counts[name]
        counts[name] = (round(ins * (1 + float(pct) / 100)), dec)

    rows = read_history(a.history)
    last = latest(rows)
    print(
        f"{'workload':14} {'instructions':>14} {'decisions':>10} {'per decision':>13} {'vs record':>10}"
    )
    for name, (ins, dec) in counts.items():
        vs = f"{ins / last[name][0] - 1:+.1%}" if name in last else "-"
        print(f"{name:14} {ins:>14,} {dec:>10,} {ins / max(dec, 1):>13,.0f} {vs:>10}")
    rc = 0
    if a.check:
        failures, notes = check(counts, rows, a.threshold)
        for n in notes:
            print(f"note: {n}")
        for f in failures:
            print(f"speed check FAILED: {f}", file=sys.stderr)
        if failures:
            rc = 1
        else:
            print(
                f"speed check passed ({len(counts)} workloads within {a.threshold:+.0%} of the record)"
            )
    if a.record:
        commit = a.commit or commit_label()
        append(a.history, commit, counts)
        print(f"recorded {len(counts)} workloads at {commit} in {a.history}")
    return rc


if __name__ == "__main__":
    sys.exit(main())
