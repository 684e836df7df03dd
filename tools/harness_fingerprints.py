"""Fingerprints of the harness games' results, column by column, to prove that a refactoring
which renames or regroups their tables changes no number.

    python tools/harness_fingerprints.py --record before.json   # with the old code
    python tools/harness_fingerprints.py --check before.json    # with the new code

Small runs of simulate, matchups, sweep, tournament and balance on Schotten Totten 2 and
Osztrakon. Every column of every result table is fingerprinted on its own (the SHA-256 of its
values as text, in row order, and of its sorted values). ``--check`` looks every recorded
column up among the columns of the same run now: under its own name or any other name, in any
of the run's tables. It prints each column found under another name or table (a rename), each
found only with its rows in another order, and each found nowhere (a changed number), and
exits 1 if any is found nowhere. Wall-clock columns (``elapsed``, ``games_per_second``) are
left out. :mod:`tools.lab_fingerprints` does the same for Kétharmad, table by table.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import warnings
from collections.abc import Callable
from typing import Any

import ketharmad
import polars as pl

ST2 = "schotten_totten_2"
OSZ = "osztrakon"
WALL_CLOCK = {"elapsed", "games_per_second", "seconds"}

#: Tables a result may carry (attributes that are polars DataFrames are taken as they are).
TABLES = ("games", "players", "table", "by_side", "summary", "points", "pairs", "ratings",
          "standings", "matrix", "history", "before", "after", "edits", "proposals",
          "robustness", "robustness_search")  # fmt: skip


def _hash(values: list[str]) -> str:
    return hashlib.sha256("\x1f".join(values).encode()).hexdigest()[:16]


def column_prints(df: pl.DataFrame) -> dict[str, list[str]]:
    """``{column: [hash in row order, hash of the sorted values]}``."""
    out = {}
    for c in df.columns:
        if c in WALL_CLOCK:
            continue
        vals = [repr(v) for v in df[c].to_list()]
        out[c] = [_hash(vals), _hash(sorted(vals))]
    return out


def result_prints(res: Any) -> dict[str, dict[str, list[str]]]:
    out: dict[str, dict[str, list[str]]] = {}
    if callable(getattr(res, "summary", None)):
        out["summary()"] = column_prints(res.summary())
    for name in TABLES:
        t = getattr(res, name, None)
        if isinstance(t, pl.DataFrame):
            out[name] = column_prints(t)
    return out


def _balance(targets: Any, **kw: Any) -> Any:
    """``balance`` with 200 games per block, in the form of the version installed (the
    ``settings=`` value, or the older keyword before it)."""
    if hasattr(ketharmad, "BalanceSettings"):
        return ketharmad.balance(targets, settings={"games_per_block": 200}, **kw)
    return ketharmad.balance(targets, games_per_block=200, **kw)


def _runs() -> dict[str, Callable[[], Any]]:
    osz_bots = ["b1", "b1", "b1", "b1", "random"]
    st2_targets = {"metrics": [{"bots": ["random", "random"], "seat": "attacker", "low": 0.50, "high": 0.56}],
                   "change": {"allow": ["rules.*"]}}  # fmt: skip
    return {
        "st2 simulate": lambda: ketharmad.simulate(bots=["greedy", "random"], games=300, seed=4, game=ST2),
        "osz simulate": lambda: ketharmad.simulate(bots=osz_bots, games=300, seed=4, game=OSZ),
        "st2 matchups": lambda: ketharmad.matchups(game=ST2, bots=["random", "greedy"], games=60, seed=5),
        "osz matchups": lambda: ketharmad.matchups(game=OSZ, bots=["b1", "random"], games=23, seed=3, seats=6),
        "st2 sweep": lambda: ketharmad.sweep({"rules.damages_to_win": [3, 4, 5]}, game=ST2,
                                             bots=["random", "random"], games=200, seed=7),
        "osz sweep": lambda: ketharmad.sweep({"model.read_noise": [0.0, 2.5]}, game=OSZ, bots=osz_bots,
                                             games=300, seed=3),
        "st2 tournament": lambda: ketharmad.tournament(["random", "greedy", "search:iterations=5"], game=ST2,
                                                       games=16, seed=7),
        "st2 balance": lambda: _balance(st2_targets, game=ST2, budget=20_000, seed=2),
    }  # fmt: skip


def record() -> dict[str, Any]:
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for name, run in _runs().items():
            out[name] = result_prints(run())
    return out


def check(before: dict[str, Any], now: dict[str, Any]) -> int:
    lost = 0
    for run, tables in before.items():
        have = now.get(run, {})
        ordered = {tuple(v)[0]: f"{t}.{c}" for t, cols in have.items() for c, v in cols.items()}
        unordered = {tuple(v)[1]: f"{t}.{c}" for t, cols in have.items() for c, v in cols.items()}
        moved, reordered, missing = [], [], []
        for t, cols in tables.items():
            for c, (h_row, h_sorted) in cols.items():
                here = have.get(t, {}).get(c)
                if here is not None and here[0] == h_row:
                    continue
                if h_row in ordered:
                    moved.append(f"{t}.{c} -> {ordered[h_row]}")
                elif h_sorted in unordered:
                    reordered.append(f"{t}.{c} -> {unordered[h_sorted]} (rows in another order)")
                else:
                    missing.append(f"{t}.{c}")
        n = sum(len(c) for c in tables.values())
        print(f"{run}: {n} columns, {n - len(moved) - len(reordered) - len(missing)} unchanged, "
              f"{len(moved)} renamed or moved, {len(reordered)} reordered, {len(missing)} not found")  # fmt: skip
        for line in moved + reordered:
            print(f"    {line}")
        for line in missing:
            print(f"    NOT FOUND: {line}")
        lost += len(missing)
    return 1 if lost else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--record", metavar="FILE")
    g.add_argument("--check", metavar="FILE")
    args = ap.parse_args(argv)
    now = record()
    if args.record:
        with open(args.record, "w") as f:
            json.dump(now, f, indent=1, sort_keys=True)
        print(
            f"recorded {sum(len(t) for r in now.values() for t in r.values())} columns of {len(now)} runs"
        )
        return 0
    with open(args.check) as f:
        before = json.load(f)
    return check(before, now)


if __name__ == "__main__":
    sys.exit(main())
