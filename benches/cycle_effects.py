"""Which card numbers move a cycle of factions? (issue 27, docs/balance.md "Cycles")

A set whose pairs form a cycle (NER beats Összefogás, Összefogás beats Tisza, Tisza beats NER)
past its bands cannot be balanced by making factions stronger or weaker: it needs an edit
that acts on one pairing of the cycle more than on the others. This measures, from a start
point (the draft with ``--start``'s edits), every number of the cycle's factions' cards one
step up and one down (within its range), each on the start's games (common random numbers:
the same seeds, both seatings), under each rung, and prints each move's effect on the
**cycle's mean** (the mean, around the cycle, of each faction's win rate over the next one,
from 50 %: what strength edits cannot change) with its paired standard error, beside its
effect on each pair.

    python benches/cycle_effects.py --start scripts/ladder_points/cont2_s15.json \\
        --cycle ner,osszefogas,tisza --rungs heuristic,tuned --games 2000

The moves that lower the cycle under every rung, with little else, are the candidates for
its repair; ``--out`` keeps every row (Parquet).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from pathlib import Path

import ketharmad
import numpy as np
import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rung_effects import wins  # the same paired games: one pairing, both seatings


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--start", help="a JSON point {parameter: value} over the draft (default: the draft)"
    )
    ap.add_argument("--cycle", default="ner,osszefogas,tisza", help="factions in cycle order")
    ap.add_argument("--rungs", default="heuristic,tuned")
    ap.add_argument(
        "--games", type=int, default=2_000, help="games a pair a point a rung (both seatings)"
    )
    ap.add_argument("--seed", type=int, default=777)
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--out", help="write every move's row to this Parquet file")
    ap.add_argument("--match", help="only the parameters whose name contains this")
    a = ap.parse_args(argv)
    if a.games < 2:
        raise SystemExit(f"--games must be at least 2, got {a.games}")
    warnings.filterwarnings("ignore", message="model file")
    start: dict[str, int] = {}
    if a.start:
        if not Path(a.start).is_file():
            raise SystemExit(f"--start: no such file: {a.start}")
        start = json.loads(Path(a.start).read_text())
    cyc = a.cycle.split(",")
    unknown = [f for f in cyc if f not in ketharmad.FACTIONS]
    if len(cyc) < 3 or unknown:
        raise SystemExit(
            f"--cycle wants 3 or more factions of {list(ketharmad.FACTIONS)}, got {a.cycle!r}"
        )
    pairs = [(cyc[i], cyc[(i + 1) % len(cyc)]) for i in range(len(cyc))]
    rungs = a.rungs.split(",")
    t0 = time.perf_counter()
    cards = ketharmad.cards()
    ids = set(cards.filter(pl.col("faction").is_in(cyc))["id"].to_list())
    par = ketharmad.parameters().with_columns(card_id=pl.col("name").str.split(".").list.get(0))
    field = pl.col("name").str.split(".").list.get(-1)
    # every printed number but copies and the faction pips (as the balancer's allow lists)
    par = par.filter(pl.col("card_id").is_in(list(ids)) & (pl.col("kind") == "int")
                     & ~field.is_in(["copies", "cost_f", "cost_m", "cost_u"]))  # fmt: skip
    if a.match:
        par = par.filter(pl.col("name").str.contains(a.match, literal=True))
    if par.height == 0:
        raise SystemExit(f"no parameter of the cycle's factions' cards matches {a.match!r}")
    base = {
        (r, pr): wins(pr, r, a.games, a.seed + 10 * k, None, start)
        for r in rungs
        for k, pr in enumerate(pairs)
    }
    print(
        f"cycle {' > '.join([*cyc, cyc[0]])}, start {a.start or 'draft'}, {a.games:,} games a pair a point a rung"
    )
    for r in rungs:
        rates = [100 * base[r, pr].mean() for pr in pairs]
        print(f"  start under {r}: " + ", ".join(f"{x}-{y} {v:.1f}" for (x, y), v in zip(pairs, rates, strict=True))
              + f"; cycle mean {np.mean(rates) - 50:+.1f} points")  # fmt: skip
    rows = []
    for p in par.iter_rows(named=True):
        now = int(start.get(p["name"], p["default"]))
        for v in (now + 1, now - 1):
            if v < p["min"] or v > p["max"]:
                continue
            point = {**start, p["name"]: v}
            row: dict[str, object] = {"parameter": p["name"], "from": now, "to": v}
            for r in rungs:
                diffs = []
                for k, pr in enumerate(pairs):
                    d = wins(pr, r, a.games, a.seed + 10 * k, None, point) - base[r, pr]
                    diffs.append(d)
                    row[f"{r}:{pr[0][:4]}-{pr[1][:4]}"] = 100 * d.mean()
                cyc_d = np.mean(
                    diffs, axis=0
                )  # one paired value per game index, averaged over the pairs
                row[f"cycle_{r}"] = 100 * cyc_d.mean()
                row[f"se_{r}"] = 100 * cyc_d.std(ddof=1) / np.sqrt(len(cyc_d))
            rows.append(row)
    t = pl.DataFrame(rows)
    worst = pl.max_horizontal([pl.col(f"cycle_{r}") for r in rungs])
    t = t.with_columns(cycle_all=worst).sort("cycle_all")
    if a.out:
        t.write_parquet(a.out)
    print(f"{t.height} moves, {time.perf_counter() - t0:.0f} s; the moves that lower the cycle most under every rung "
          "(cycle_all: the least lowering over the rungs; points):")  # fmt: skip
    with pl.Config(
        tbl_rows=a.top, tbl_cols=-1, tbl_width_chars=250, float_precision=2, fmt_str_lengths=50
    ):
        print(t.head(a.top))
    for r in rungs:
        z = (t[f"cycle_{r}"] / t[f"se_{r}"]).to_numpy()
        z = z[np.isfinite(z)]
        print(f"{r}: |z| > 3 for {(np.abs(z) > 3).sum()} of {len(z)} moves (about {len(z) * 0.0027:.1f} by chance); "
              f"sd of z {z.std():.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
