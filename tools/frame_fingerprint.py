"""Save (or compare) the frames of ``ketharmad.simulate`` for a fixed set of runs.

Used to check that a change to the result columns leaves every game and every frame
bit-identical: run ``save DIR`` with the old build, ``compare DIR`` with the new one. Each run
is stored as Arrow IPC files (games, players, card_records, plays) and compared with
``DataFrame.equals`` plus the schema; a sha256 of every column's values is printed as well.

    python tools/frame_fingerprint.py save /tmp/frames-before
    python tools/frame_fingerprint.py compare /tmp/frames-before
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

import ketharmad
import polars as pl

# (name, simulate keyword arguments): pairs, 3 and 4 seats, every bot kind, fixed start seat,
# a parameter override that leaves games unfinished, plays recorded, chunked runs
CASES: list[tuple[str, dict]] = [
    ("ner-tisza-random-s0", dict(decks=["ner", "tisza"], bots="random", games=3000, seed=0)),
    ("ner-tisza-random-s7", dict(decks=["ner", "tisza"], bots="random", games=3000, seed=7)),
    (
        "osz-rad-heuristic-s12345",
        dict(decks=["osszefogas", "radikalisok"], bots="heuristic", games=1000, seed=12345),
    ),
    (
        "tisza-ner-aggro-control",
        dict(decks=["tisza", "ner"], bots=["aggro", "control"], games=1000, seed=3, start_player=1),
    ),
    (
        "3p-mixed",
        dict(
            decks=["ner", "tisza", "radikalisok"],
            bots=["heuristic", "random", "aggro"],
            games=600,
            seed=11,
        ),
    ),
    (
        "4p-mixed-plays",
        dict(
            decks=["ner", "osszefogas", "tisza", "radikalisok"],
            bots=["heuristic", "aggro", "control", "random"],
            games=400,
            seed=5,
            record_plays=True,
        ),
    ),
    (
        "unfinished-rounds",
        dict(
            decks=["ner", "tisza"], bots="random", games=800, seed=2, params={"rules.max_rounds": 8}
        ),
    ),
    (
        "search-small",
        dict(
            decks=["ner", "tisza"],
            bots=[{"kind": "search", "iterations": 6, "rollout_rounds": 2}, "heuristic"],
            games=6,
            seed=1,
        ),
    ),
    (
        "chunked",
        dict(decks=["osszefogas", "tisza"], bots="random", games=2500, seed=9, chunk_size=700),
    ),
]

TABLES = ("games", "players", "card_records", "plays")


def frames(kwargs: dict) -> dict[str, pl.DataFrame]:
    r = ketharmad.simulate(**kwargs, run=dict(threads=2))
    out = {t: getattr(r, t) for t in TABLES if getattr(r, t) is not None}
    return {t: df.rechunk() for t, df in out.items()}


def digest(df: pl.DataFrame) -> str:
    h = hashlib.sha256(str(df.schema).encode())
    for s in df.get_columns():
        h.update(s.name.encode())
        h.update(
            s.to_physical().cast(pl.String).fill_null("<null>").str.join("\x1f").item().encode()
            if s.len()
            else b""
        )
    return h.hexdigest()[:16]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("mode", choices=["save", "compare"])
    p.add_argument("dir", type=Path)
    args = p.parse_args(argv)
    bad = 0
    for name, kwargs in CASES:
        for table, df in frames(kwargs).items():
            path = args.dir / f"{name}.{table}.arrow"
            if args.mode == "save":
                path.parent.mkdir(parents=True, exist_ok=True)
                df.write_ipc(path)
                print(f"{name:<28} {table:<13} {df.height:>7} rows  {digest(df)}")
                continue
            want = pl.read_ipc(path)
            same = df.schema == want.schema and df.equals(want, null_equal=True)
            bad += not same
            print(
                f"{name:<28} {table:<13} {df.height:>7} rows  {digest(df)}  {'equal' if same else 'DIFFERENT'}"
            )
        if args.mode == "compare":
            extra = [
                t
                for t in TABLES
                if (args.dir / f"{name}.{t}.arrow").exists() and t not in frames(kwargs)
            ]
            bad += len(extra)
    if args.mode == "compare":
        print("all frames equal" if not bad else f"{bad} tables differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
