"""Check a balance run's proposals under every rung on seeds the run never used (issue 27).

A ladder run's proposals are judged on the run's own games; this plays chosen proposals
again, each on the draft set with its edits, under every rung of the targets' ladder:
every 2-player pair (``--games-per-side`` games a seating, both seatings) and every
4-player share (``--games-4p``), on ``--seed`` (1000008, the seed of the checks in
docs/balance.md). It prints each rung's pairs and shares, how far the worst is outside its
band (the targets' own bands, per rung, as ``load_targets`` reads them), the worst over the rungs, and (``--skill-games``) each rung against the rung below.

    python scripts/balanced_set.py --targets scripts/ladder_targets.toml --seed 7 \\
        --budget 10000000 --report runs/lad/report --out-dir runs/lad
    python scripts/check_proposals.py runs/lad/report/first/balance_proposals/run.parquet \\
        --targets scripts/ladder_targets.toml --edits 9 14
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

import ketharmad
import polars as pl
from ketharmad.lab.balance.targets import load_targets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from balanced_set import check_tables, skill_rows


def proposals(path: str) -> dict[int, dict[str, int]]:
    """Edits -> point: per number of edits the proposal with the smallest worst deviation
    (a run's ``balance_proposals`` Parquet, or a JSON file ``{edits: point}``)."""
    if path.endswith(".json"):
        d = json.loads(Path(path).read_text())
        if all(str(k).isdigit() for k in d):
            return {int(k): v for k, v in d.items()}
        return {len(d): d}  # one point {parameter: value} (a --repair-from file)
    t = pl.read_parquet(path).sort("edits", "worst_deviation")
    out: dict[int, dict[str, int]] = {}
    for r in t.iter_rows(named=True):
        out.setdefault(int(r["edits"]), json.loads(r["point"]))
    return out


def check_point(
    card: str,
    rungs: list[tuple[str, Any, Any]],
    games_per_side: int,
    games_4p: int,
    seed: int,
    skill_games: int = 0,
    echo: bool = True,
) -> dict[str, Any]:
    """One card file under every rung ``(name, bot spec, metrics)``: each rung's 2-player pairs
    and 4-player shares the metrics bound, and how far its worst is outside its band; the
    worst over the rungs; with ``skill_games``, each rung against the rung below. Printed
    (``echo``) and returned: ``{"rungs": {rung: {"cells": {name: value %}, "worst": (name,
    points out)}}, "worst": (points out, rung, name), "skill": [(upper, lower, %, low, high)]}``."""
    out: dict[str, Any] = {"rungs": {}, "skill": []}
    worst = []
    for rung, spec, metrics in rungs:
        band = {(m.faction, m.opponent): (100 * m.low, 100 * m.high) for m in metrics
                if m.kind in ("2p", "4p")}  # fmt: skip
        tw, fo = check_tables(card, games_per_side, games_4p, seed, bots=spec)
        cells = []
        for r in [*tw.iter_rows(named=True), *fo.iter_rows(named=True)]:
            key = (r["faction"], r.get("opponent"))
            if key not in band:
                continue  # a pair or share the targets do not bound
            v, (lo, hi) = 100 * r["win_rate"], band[key]
            name = f"{key[0][:3]}-{key[1][:3]}" if key[1] else f"4p {key[0][:3]}"
            cells.append((name, v, max(lo - v, v - hi)))
        top = max(cells, key=lambda c: c[2])
        worst.append((top[2], rung, top[0]))
        out["rungs"][rung] = {
            "cells": {n: v for n, v, _ in cells},
            "worst": (top[0], max(0.0, top[2])),
        }
        if echo:
            print(f"  {rung:10s} " + " ".join(f"{n} {v:.1f}" for n, v, _ in cells)
                  + f"   worst {top[0]} {max(0.0, top[2]):.1f} pts out", flush=True)  # fmt: skip
    w = max(worst)
    w = (max(0.0, w[0]), w[1], w[2])
    out["worst"] = w
    if echo:
        print(f"  worst over the rungs: {w[0]:.1f} pts out ({w[1]}: {w[2]})", flush=True)
    if skill_games:
        for r in skill_rows([(n, b) for n, b, _ in rungs], card, skill_games, seed):
            row = (
                r["upper"],
                r["lower"],
                100 * r["win_rate"],
                100 * r["ci_low"],
                100 * r["ci_high"],
            )
            out["skill"].append(row)
            if echo:
                print(f"  skill: {row[0]} over {row[1]} {row[2]:.1f} % [{row[3]:.1f}, {row[4]:.1f}]",
                      flush=True)  # fmt: skip
    return out


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "proposals",
        help="a run's balance_proposals Parquet (balanced_set.py --report), JSON {edits: point}, "
        "or JSON of one point {parameter: value}",
    )
    ap.add_argument("--targets", default="scripts/ladder_targets.toml", help="bands and ladder")
    ap.add_argument(
        "--edits", type=int, nargs="+", required=True, help="the proposals to check, by edits"
    )
    ap.add_argument("--card-data", default="draft", help="the set the run started from")
    ap.add_argument("--games-per-side", type=int, default=1_000)
    ap.add_argument("--games-4p", type=int, default=2_400)
    ap.add_argument("--seed", type=int, default=1_000_008)
    ap.add_argument(
        "--skill-games", type=int, default=0, help="games of each skill match (x24); 0: none"
    )
    a = ap.parse_args()
    warnings.simplefilter("ignore", UserWarning)  # the learned model's "other card numbers"
    t = load_targets(a.targets)
    # per rung: its bot and its bands, by (faction, opponent) (None for a 4-player share)
    rungs = (
        [(r.name, r.spec, r.metrics) for r in t.ladder.rungs]
        if t.ladder is not None
        else [("heuristic", "heuristic", t.metrics)]
    )
    pts = proposals(a.proposals)
    with tempfile.TemporaryDirectory() as tmp:
        for k in a.edits:
            if k not in pts:
                raise SystemExit(f"no proposal of {k} edits (there are: {sorted(pts)})")
            card = str(Path(tmp) / f"p{k}.toml")
            ketharmad.export_card_data(card, card_data=a.card_data, params=pts[k], overwrite=True)
            print(f"{k} edits: {json.dumps(pts[k], sort_keys=True)}")
            check_point(card, rungs, a.games_per_side, a.games_4p, a.seed, a.skill_games)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
