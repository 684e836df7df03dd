"""Per-call overhead of small evaluations: 1 call of N games vs K calls of N/K games.

A balance run is thousands of evaluations of a few hundred games each, so what a call costs
beyond its games matters. For random and heuristic 2-player games (ner vs tisza,
``threads=None``) this prints the wall time of

* ``1 x N``: one call of ``--games`` games (default 20,000), and
* ``K x N/K``: ``--calls`` calls (default 50) of ``--games / --calls`` games each (400),

the median (and the minimum) of ``--repeat`` runs each, their ratio (1.00 = no per-call
overhead) and the overhead per call in ms, and the same ratio of the process's CPU time (all
threads; less sensitive to other processes' load than the wall time, which on a busy machine
also counts the waits for a core at every call's start and end). Two ways of splitting are
measured:

* ``api``: the public ``ketharmad.simulate`` with distinct seeds (seed ``s + k`` for call k),
  so every call pays the full public path (argument checks, card file, frames, SimResult);
* ``runner``: the internal runner ``ketharmad.api.run_batch`` with ``first_game`` offsets,
  which plays exactly the same games as the single call;
* ``balance``: what ``ketharmad.balance`` does: the balance evaluator's evaluation of one
  block of the default targets (36 cells: 12 two-player cells of 50 games, 24 four-player
  seatings of 6, 744 games) ``--calls`` times on fresh blocks, against one evaluation of
  ``--calls`` blocks (``--games`` does not apply).

The 1-call and K-call runs alternate within each repeat, so machine load hits both alike.
``--baseline DIR`` also loads another installed copy of the package (``DIR/ketharmad``, e.g.
made with ``pip install --no-deps --target DIR .`` at an older commit) into the same process
under another name, and alternates the two versions run by run: on a loaded machine this is
the fair way to compare before and after.

Measure a release build (``maturin develop --release`` or ``pip install .``).

    python benches/eval_overhead.py [--games 20000] [--calls 50] [--repeat 5] [--baseline DIR]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from types import ModuleType

import ketharmad

DECKS = ["ner", "tisza"]


def _load_copy(directory: str, name: str) -> ModuleType:
    """The ``ketharmad`` package found in ``directory``, imported as ``name``."""
    pkg = os.path.join(directory, "ketharmad")
    spec = importlib.util.spec_from_file_location(
        name, os.path.join(pkg, "__init__.py"), submodule_search_locations=[pkg]
    )
    if spec is None or spec.loader is None:
        raise SystemExit(f"no ketharmad package in {directory}")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def _sub(km: ModuleType, *names: str) -> ModuleType:
    """The first of the submodules ``names`` that the build has (the layout of 0.2.0 moved
    ``_api`` to ``api`` and ``_data`` to ``game.data``; an older baseline has the old ones)."""
    for n in names:
        try:
            return importlib.import_module(f"{km.__name__}.{n}")
        except ModuleNotFoundError:
            continue
    raise SystemExit(f"{km.__name__} has none of {', '.join(names)}")


def _timed(f: Callable[[], object]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the whole process, all threads) of one run of `f`."""
    start, cpu = time.perf_counter(), time.process_time()
    f()
    return time.perf_counter() - start, time.process_time() - cpu


def _runs(
    km: ModuleType, mode: str, bots: str, games: int, calls: int, seed: int
) -> tuple[Callable[[], object], Callable[[], object]]:
    """(one call of all games, `calls` calls of games/calls each) for package module `km`."""
    per = games // calls
    if mode == "api":

        def one() -> object:
            return km.simulate(DECKS, bots=bots, games=per * calls, seed=seed)

        def many() -> object:
            return [km.simulate(DECKS, bots=bots, games=per, seed=seed + k) for k in range(calls)]

        return one, many

    if mode == "balance":
        evaluate = importlib.import_module(f"{km.__name__}.lab.balance.evaluate")
        targets = importlib.import_module(f"{km.__name__}.lab.balance.targets")
        ev = evaluate.Evaluator(
            _sub(km, "game.data", "_data").load_card_data(None),
            targets.load_targets(None),
            bots,
            seed,
            None,
            50,
            6,
            {},
        )
        at = [0]  # fresh blocks every run (the evaluator caches what it has played)

        def one_b() -> object:
            at[0] += calls
            return ev.outcomes({}, at[0] - calls, at[0])

        def many_b() -> object:
            out = []
            for _ in range(calls):
                at[0] += 1
                out.append(ev.outcomes({}, at[0] - 1, at[0]))
            return out

        return one_b, many_b

    api, data = _sub(km, "api", "_api"), _sub(km, "game.data", "_data")
    specs = [bots, bots]

    def one_r() -> object:
        return api.run_batch(data.load_card_data(None), DECKS, specs, per * calls, seed, None, {})

    def many_r() -> object:
        return [
            api.run_batch(
                data.load_card_data(None), DECKS, specs, per, seed, None, {}, first_game=k * per
            )
            for k in range(calls)
        ]

    return one_r, many_r


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=20000, help="games in total per run (default 20000)"
    )
    parser.add_argument(
        "--calls", type=int, default=50, help="calls the games are split into (default 50)"
    )
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="batch seed (default 0)")
    parser.add_argument(
        "--bots",
        default="random,heuristic",
        help="comma-separated bot kinds (default random,heuristic)",
    )
    parser.add_argument(
        "--mode",
        default="api,runner,balance",
        help="comma-separated: api, runner, balance (default all)",
    )
    parser.add_argument(
        "--baseline",
        metavar="DIR",
        help="also time the ketharmad package installed in DIR, alternating",
    )
    args = parser.parse_args(argv)
    if args.calls < 1 or args.games < args.calls:
        parser.error("need 1 <= --calls <= --games")
    if args.repeat < 1:
        parser.error("--repeat must be >= 1")
    versions: list[tuple[str, ModuleType]] = [("current", ketharmad)]
    if args.baseline:
        versions.append(("baseline", _load_copy(args.baseline, "ketharmad_baseline")))
    u = platform.uname()
    print(
        f"machine: {u.system} {u.machine}, os.cpu_count(): {os.cpu_count()}, python {platform.python_version()}"
    )
    for label, km in versions:
        print(f"{label}: ketharmad {km.__version__} ({km._core.__file__})")
    per = args.games // args.calls
    print(
        f"ner vs tisza, threads=None, 1 x {per * args.calls:,} games vs {args.calls} x {per:,}; "
        f"{args.repeat} runs each (median; min in brackets)"
    )
    print(
        f"{'version':<9} {'mode':<7} {'bots':<10} {'1 call s':>15} {f'{args.calls} calls s':>15} "
        f"{'ratio':>11} {'ms/call':>8} {'cpu ratio':>10}"
    )
    for mode in args.mode.split(","):
        for bots in args.bots.split(","):
            fns = {
                label: _runs(km, mode, bots, args.games, args.calls, args.seed)
                for label, km in versions
            }
            for _one, many in fns.values():
                many()  # warm-up: pools, card text, caches
            t1: dict[str, list[tuple[float, float]]] = {label: [] for label in fns}
            tk: dict[str, list[tuple[float, float]]] = {label: [] for label in fns}
            for _ in range(args.repeat):
                for label, (one, many) in fns.items():
                    t1[label].append(_timed(one))
                    tk[label].append(_timed(many))
            for label in fns:
                w1, wk = [w for w, _ in t1[label]], [w for w, _ in tk[label]]
                a, b = statistics.median(w1), statistics.median(wk)
                a0, b0 = min(w1), min(wk)
                over = (b - a) / args.calls * 1e3
                cpu = statistics.median(c for _, c in tk[label]) / statistics.median(
                    c for _, c in t1[label]
                )
                print(
                    f"{label:<9} {mode:<7} {bots:<10} {a:7.3f} ({a0:5.3f}) {b:7.3f} ({b0:5.3f}) "
                    f"{b / a:5.2f} ({b0 / a0:4.2f}) {over:8.2f} {cpu:10.2f}",
                    flush=True,
                )
            print(f"load average: {', '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
