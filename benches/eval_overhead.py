"""Per-call overhead of small evaluations: 1 call of N games vs K calls of N/K games.

A balance run is thousands of evaluations of a few hundred games each, so what a call costs
beyond its games matters. For random and heuristic 2-player games (ner vs tisza,
``threads=None``) this prints the wall time of

* ``1 x N``: one ``ketharmad.simulate`` call of ``--games`` games (default 20,000), and
* ``K x N/K``: ``--calls`` calls (default 50) of ``--games / --calls`` games each (400),

the median of ``--repeat`` runs each, and their ratio (1.00 = no per-call overhead). Two ways
of splitting are measured:

* ``api``: the public ``ketharmad.simulate`` with distinct seeds (seed ``s + k`` for call k),
  so every call pays the full public path (argument checks, card file, frames, SimResult);
* ``runner``: the internal runner ``ketharmad._api.run_batch`` with ``first_game`` offsets,
  which plays exactly the same games as the single call.

The 1-call and K-call runs alternate within each repeat, so machine load hits both alike.
Measure a release build (``maturin develop --release`` or ``pip install .``).

    python benches/eval_overhead.py [--games 20000] [--calls 50] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from typing import Callable

import ketharmad
from ketharmad import _api, _core
from ketharmad._data import load_card_data

DECKS = ["ner", "tisza"]


def _timed(f: Callable[[], object]) -> float:
    start = time.perf_counter()
    f()
    return time.perf_counter() - start


def _api_runs(bots: str, games: int, calls: int, seed: int) -> tuple[Callable[[], object], Callable[[], object]]:
    per = games // calls

    def one() -> object:
        return ketharmad.simulate(DECKS, bots=bots, games=per * calls, seed=seed)

    def many() -> object:
        return [ketharmad.simulate(DECKS, bots=bots, games=per, seed=seed + k) for k in range(calls)]

    return one, many


def _runner_runs(bots: str, games: int, calls: int, seed: int) -> tuple[Callable[[], object], Callable[[], object]]:
    per = games // calls
    specs = [bots, bots]

    def one() -> object:
        text = load_card_data(None)
        return _api.run_batch(text, DECKS, specs, per * calls, seed, None, {})

    def many() -> object:
        out = []
        for k in range(calls):
            text = load_card_data(None)
            out.append(_api.run_batch(text, DECKS, specs, per, seed, None, {}, first_game=k * per))
        return out

    return one, many


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000, help="games in total per run (default 20000)")
    parser.add_argument("--calls", type=int, default=50, help="calls the games are split into (default 50)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure, the median is shown (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="batch seed (default 0)")
    parser.add_argument("--bots", default="random,heuristic", help="comma-separated bot kinds (default random,heuristic)")
    parser.add_argument("--mode", default="api,runner", help="comma-separated: api, runner (default both)")
    args = parser.parse_args(argv)
    if args.calls < 1 or args.games < args.calls:
        parser.error("need 1 <= --calls <= --games")
    if args.repeat < 1:
        parser.error("--repeat must be >= 1")
    u = platform.uname()
    print(
        f"machine: {u.system} {u.machine}, os.cpu_count(): {os.cpu_count()}, "
        f"load average: {', '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    print(f"python {platform.python_version()}, ketharmad {ketharmad.__version__} ({getattr(_core, '__file__', '?')})")
    per = args.games // args.calls
    print(f"ner vs tisza, threads=None, 1 x {per * args.calls:,} games vs {args.calls} x {per:,}; median of {args.repeat}")
    print(f"{'mode':<7} {'bots':<10} {'1 call s':>9} {f'{args.calls} calls s':>10} {'ratio':>6} {'per call ms':>12}")
    make = {"api": _api_runs, "runner": _runner_runs}
    for mode in args.mode.split(","):
        for bots in args.bots.split(","):
            one, many = make[mode](bots, args.games, args.calls, args.seed)
            many()  # warm-up: pools, card text, caches
            t1, tk = [], []
            for _ in range(args.repeat):
                t1.append(_timed(one))
                tk.append(_timed(many))
            a, b = statistics.median(t1), statistics.median(tk)
            over = (b - a) / args.calls * 1e3
            print(f"{mode:<7} {bots:<10} {a:9.3f} {b:10.3f} {b / a:6.2f} {over:12.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
