"""Throughput of the installed ketharmad: random-vs-random 2-player games per second.

For every pair of factions, runs ``--games`` games with one thread (games/s per core) and with
all cores (``threads=None``), ``--repeat`` times each, and prints the median rate and the mean
game length in turns. "all pairs" is the total games over the total time of those runs.

Measure a release build: install with ``maturin develop --release`` or ``pip install .``
(a debug build from plain ``maturin develop`` is many times slower).

    python benches/throughput.py --games 20000
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import statistics
import sys
import time

import ketharmad
from ketharmad import _core


def _machine() -> str:
    u = platform.uname()
    cpu = platform.processor() or u.machine
    return (
        f"machine: {u.system} {u.release} {u.machine}, cpu: {cpu}, "
        f"os.cpu_count(): {os.cpu_count()}\n"
        f"python {platform.python_version()}, ketharmad {ketharmad.__version__} "
        f"({getattr(_core, '__file__', '?')})"
    )


def _rate(
    decks: list[str], games: int, seed: int, threads: int | None, bots="random", repeat: int = 1
) -> tuple[float, float]:
    """Return (games per second, mean turns): the median rate of `repeat` identical runs."""
    rates = []
    for _ in range(repeat):
        start = time.perf_counter()
        res = ketharmad.simulate(
            decks, bots=bots, games=games, seed=seed, run=dict(threads=threads)
        )
        rates.append(games / (time.perf_counter() - start))
    return statistics.median(rates), float(res.games["turns"].mean())


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line per faction pair."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000, help="games per run (default 20000)")
    parser.add_argument("--seed", type=int, default=0, help="batch seed (default 0)")
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs per figure, the median is shown (default 3)"
    )
    parser.add_argument(
        "--search-games",
        type=int,
        default=20,
        help="games for the search-bot figure (default 20; 0 skips it)",
    )
    parser.add_argument(
        "--search-iterations", type=int, default=200, help="search budget (default 200)"
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be >= 1")
    if args.repeat < 1:
        parser.error("--repeat must be >= 1")

    print(_machine())
    print("build: make sure this is a release build (maturin develop --release / pip install .)")
    ketharmad.simulate(["ner", "tisza"], games=min(args.games, 1000), seed=args.seed)  # warm-up

    header = (
        f"{'pair':<26} {'games/s 1 thread':>17} {'games/s all cores':>18} "
        f"{'speedup':>8} {'mean turns':>11}"
    )
    print(
        f"\n{args.games:,} random-vs-random games per run, median of {args.repeat} runs\n{header}\n{'-' * len(header)}"
    )
    total_1 = total_n = 0.0
    pairs = list(itertools.combinations(ketharmad.FACTIONS, 2))
    for a, b in pairs:
        r1, turns = _rate([a, b], args.games, args.seed, threads=1, repeat=args.repeat)
        rn, _ = _rate([a, b], args.games, args.seed, threads=None, repeat=args.repeat)
        total_1 += args.games / r1
        total_n += args.games / rn
        print(f"{a + ' vs ' + b:<26} {r1:>17,.0f} {rn:>18,.0f} {rn / r1:>7.1f}x {turns:>11.1f}")
    n = args.games * len(pairs)
    print(
        f"{'all pairs':<26} {n / total_1:>17,.0f} {n / total_n:>18,.0f} {total_1 / total_n:>7.1f}x"
    )

    # heuristic vs heuristic
    print(
        f"\n{args.games:,} heuristic-vs-heuristic games per run, median of {args.repeat} runs\n{header}\n{'-' * len(header)}"
    )
    total_1 = total_n = 0.0
    for a, b in pairs:
        r1, turns = _rate(
            [a, b], args.games, args.seed, threads=1, bots="heuristic", repeat=args.repeat
        )
        rn, _ = _rate(
            [a, b], args.games, args.seed, threads=None, bots="heuristic", repeat=args.repeat
        )
        total_1 += args.games / r1
        total_n += args.games / rn
        print(f"{a + ' vs ' + b:<26} {r1:>17,.0f} {rn:>18,.0f} {rn / r1:>7.1f}x {turns:>11.1f}")
    print(
        f"{'all pairs':<26} {n / total_1:>17,.0f} {n / total_n:>18,.0f} {total_1 / total_n:>7.1f}x"
    )

    # search bot: decisions per second at its budget (one thread)
    if args.search_games < 1:
        return 0
    it = args.search_iterations
    spec = {"kind": "search", "iterations": it}
    start = time.perf_counter()
    res = ketharmad.simulate(
        ["tisza", "radikalisok"],
        bots=[spec, "heuristic"],
        games=args.search_games,
        seed=args.seed,
        run=dict(threads=1),
    )
    elapsed = time.perf_counter() - start
    # main-priority decisions of the search seat (the ones it searches)
    p0 = res.players.filter(res.players["seat"] == 0)
    decisions = int(p0["main_decisions"].sum())
    print(
        f"\nsearch bot ({it} iterations), {args.search_games} games vs heuristic, 1 thread: "
        f"{elapsed:.1f} s, {decisions} searched decisions, {decisions / elapsed:,.1f} decisions/s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
