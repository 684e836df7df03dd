"""Kétharmad batch speed of two builds in one run, and whether they play the same games.

    pip install --no-deps --target /tmp/base .   # in a checkout of the older commit
    python benches/compare_builds.py /tmp/base [games] [repeats] [workloads] [threads]

Imports the build installed under the given folder beside the installed ``ketharmad`` in
one process and alternates them: ``_core.simulate`` over all 12 ordered faction pairs ×
``games`` games (default 2,000) with random and with heuristic bots, and the 4-player
free-for-all with heuristic bots over the 4 rotations of the factions × ``games`` / 2 games
(``heuristic4p``), on 1 and 2 threads, ``repeats`` rounds (default 4; the order flips every
round). ``workloads`` (comma-separated, default ``random,heuristic,heuristic4p``) and
``threads`` (default ``1,2``) pick a part. Prints the median games/s of each build, their
ratio, and hashes of the winner and turns columns (equal hashes: the same games).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import statistics
import sys
import time

import ketharmad as after
import numpy as np


def load(directory: str, name: str):
    pkg = os.path.join(directory, "ketharmad")
    spec = importlib.util.spec_from_file_location(name, os.path.join(pkg, "__init__.py"),
                                                  submodule_search_locations=[pkg])  # fmt: skip
    if spec is None or spec.loader is None:
        raise SystemExit(f"no ketharmad build under {directory}")
    m = importlib.util.module_from_spec(spec)
    sys.modules[name] = m
    spec.loader.exec_module(m)
    return m


def seatings(km, workload: str) -> list[list[str]]:
    """The decks of each call: the 12 ordered 2-player pairs, or the 4 rotations of 4 seats."""
    f = list(km.FACTIONS)
    if workload.endswith("4p"):
        return [f[i:] + f[:i] for i in range(len(f))]
    return [[a, b] for a in f for b in f if a != b]


def run(km, workload: str, threads: int, games: int) -> tuple[float, str]:
    try:  # the layout of 0.2.0 (game.data); an older baseline has _data
        data = importlib.import_module(f"{km.__name__}.game.data")
    except ModuleNotFoundError:
        data = importlib.import_module(f"{km.__name__}._data")
    text = data.load_card_data(None)
    bots = workload.removesuffix("4p")
    decks = seatings(km, workload)
    if len(decks[0]) > 2:
        games = max(1, games // 2)
    h = hashlib.sha256()
    t = time.perf_counter()
    for seats in decks:
        raw = km._core.simulate(text, seats, [bots] * len(seats), games, 7, threads, {})
        h.update(np.ascontiguousarray(raw["games"]["winner"]).tobytes())
        h.update(np.ascontiguousarray(raw["games"]["turns"]).tobytes())
    return len(decks) * games / (time.perf_counter() - t), h.hexdigest()[:16]


def main() -> None:
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    before = load(sys.argv[1], "ketharmad_before")
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    workloads = (sys.argv[4] if len(sys.argv) > 4 else "random,heuristic,heuristic4p").split(",")
    thread_counts = [int(t) for t in (sys.argv[5] if len(sys.argv) > 5 else "1,2").split(",")]
    builds = [("before", before), ("after", after)]
    print(f"load average {os.getloadavg()}")
    for bots in workloads:
        for threads in thread_counts:
            rates: dict[str, list[float]] = {"before": [], "after": []}
            hashes = {}
            for rep in range(repeats):
                for label, km in builds if rep % 2 == 0 else builds[::-1]:
                    r, h = run(km, bots, threads, games)
                    rates[label].append(r)
                    hashes[label] = h
            b, a = statistics.median(rates["before"]), statistics.median(rates["after"])
            same = "same games" if hashes["before"] == hashes["after"] else "GAMES DIFFER"
            print(f"{bots:11} threads={threads}: before {b:,.0f} games/s, after {a:,.0f} games/s, "
                  f"after/before {a / b:.3f}; {same} ({hashes['before']} {hashes['after']})", flush=True)  # fmt: skip
    print(f"load average {os.getloadavg()}")


if __name__ == "__main__":
    main()
