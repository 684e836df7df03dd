"""Benchmark of ``ketharmad.balance`` on the shipped draft set.

    python benches/balance.py --budget 2000000            # the issue's full run (~30 min)
    python benches/balance.py --budget 400000 --bots heuristic

Prints:

* games and wall time to balance into the bands (default bands: every 2-player pair 50 +- 5,
  every 4-player share 25 +- 4; ``--targets FILE`` for others), the edits, whether the best
  proposal is confirmed on holdout games, the worst metric before -> after, and the 4-player
  shares next to the rulebook's claims (Összefogás about 31 %, the strongest);
* games per decision: the run's games per allowed parameter, against a one-parameter-at-a-
  time grid over the same values (11 per parameter: the printed one and 5 steps each way,
  each point played on its own games) that reaches the same standard error as the run, at
  two levels of confidence: (a) the screen's (one paired screen point per move: the grid
  needs ``11 * VR`` such points per parameter) and (b) the descent's, where the run decides
  which edit to take (its points, paired, on ``8`` or more screen blocks);
* VR, the variance ratio common random numbers buy: (variance of an unpaired one-step
  difference) / (variance of the paired difference on the same games), the median over the
  screened moves and metrics a move changed at all (the others have paired variance 0).
"""

from __future__ import annotations

import argparse
import json
import math
import time

import ketharmad
import polars as pl


def crn_variance_ratio(res: ketharmad.BalanceResult) -> tuple[float, int, int]:
    """Median over screened moves and metrics that the move changed at all of (unpaired /
    paired variance of the difference), with the counts of changed and untouched rows (a
    move that changes no game of a metric has paired variance 0: CRN removes all noise)."""
    h = res.history.filter((pl.col("stage") == "screen") & (pl.col("point") == "{}"))
    base = {r["games"]: r for r in h.iter_rows(named=True)}
    ratios = []
    untouched = 0
    for r in res.screen.iter_rows(named=True):
        if r["metric"].startswith("median"):
            continue
        # games per metric of the baseline rows: pick the baseline evaluated on the same blocks
        cands = [row for row in base.values() if _games_for(res, row, r["metric"]) == r["games"]]
        if not cands:
            continue
        b = cands[0]
        p0 = b[f"m:{r['metric']}"]
        p1 = min(1.0, max(0.0, p0 + r["effect"]))
        n = r["games"]
        unpaired = (p0 * (1 - p0) + p1 * (1 - p1)) / n
        paired = r["se"] ** 2
        if paired <= 1.0001 / n**3:  # every game the same (the move cannot affect it)
            untouched += 1
            continue
        if unpaired > 0:
            ratios.append(unpaired / paired)
    ratios.sort()
    median = ratios[len(ratios) // 2] if ratios else math.nan
    return median, len(ratios), untouched


def _games_for(res: ketharmad.BalanceResult, row: dict, metric: str) -> int:
    """Games behind one metric in a history row (a 2-player pair: its two cells; a 4-player
    share: every seating)."""
    blocks = sum(int(b) - int(a) for a, b in (x.split("-") for x in row["blocks"].split(",")))
    kind = metric.split(": ")[-1].split(" ")[0]  # a ladder's metrics are "<rung>: 2p ..."
    if kind == "2p":
        return blocks * 2 * res.games_2p
    if kind == "4p":
        return blocks * 24 * res.games_4p
    return blocks * 2 * res.games_2p * len(res.pairs)


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--budget", type=int, default=2_000_000, help="games (default 2,000,000)")
    ap.add_argument("--bots", default=None,
                    help="one bot on every seat (default: heuristic; a targets file with a [ladder] names its own)")  # fmt: skip
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--targets", default=None, help="targets TOML (default: the default bands)")
    ap.add_argument("--journal", default=None)
    ap.add_argument("--progress", action="store_true")
    args = ap.parse_args()

    t0 = time.perf_counter()
    res = ketharmad.balance(args.targets, bots=args.bots, seed=args.seed, budget=args.budget,
                            journal=args.journal, run=dict(progress=args.progress))  # fmt: skip
    wall = time.perf_counter() - t0
    print(res.text())
    print()
    after = res.after
    in_band = int(after["in_band"].sum())
    print(f"games: {res.games:,} (played now {res.games_played:,}), wall time {wall:.1f} s, "
          f"{res.games_played / max(wall, 1e-9):,.0f} games/s")  # fmt: skip
    print(f"edits: {res.best.height}; confirmed on holdout: {res.best_confirmed}; "
          f"metrics in band after (point estimate): {in_band}/{after.height}")  # fmt: skip
    if "rung" in after.columns:  # a ladder: the first rung's shares
        after = after.filter(pl.col("rung") == after["rung"][0])
    four = after.filter(pl.col("kind") == "4p")
    if four.height:
        before4 = dict(
            zip(
                res.before.filter(pl.col("metric").is_in(four["metric"]))["faction"],
                res.before.filter(pl.col("metric").is_in(four["metric"]))["value"],
                strict=True,
            )
        )
        shares = ", ".join(
            f"{r['faction']} {100 * before4[r['faction']]:.0f}% -> {100 * r['value']:.0f}%"
            for r in four.iter_rows(named=True)
        )
        print(f"4-player shares: {shares} (rulebook: Összefogás about 31 %, the strongest)")
    vr, n, untouched = crn_variance_ratio(res)
    P = len(res.space)
    screen_point = res.screen_games  # games of one screen point (round 1)
    values = 11  # the printed value and 5 steps each way (the search's reach)
    ours = res.games / max(P, 1)
    desc = res.history.filter(pl.col("stage") == "descend")["games"]
    descent_point = int(desc.median()) if desc.len() else screen_point  # a typical round's point
    grid_a = values * vr * screen_point
    grid_b = values * vr * descent_point
    print(
        f"common random numbers: variance ratio unpaired/paired = {vr:.1f} (median over {n} screened "
        f"move x metric that changed some game; {untouched} more changed no game: paired variance 0)"
    )
    print(f"games per decision (per allowed parameter, {P} parameters): balance {ours:,.0f}; "
          f"one-parameter-at-a-time grid ({values} values, unpaired) at (a) the screen's standard error "
          f"{grid_a:,.0f} -> {grid_a / max(ours, 1e-9):.1f}x, at (b) the descent's ({descent_point:,} paired games "
          f"a point) {grid_b:,.0f} -> {grid_b / max(ours, 1e-9):.1f}x")  # fmt: skip
    print(json.dumps({"games": res.games, "wall_s": round(wall, 1), "edits": res.best.height,
                      "confirmed": res.best_confirmed, "vr": round(vr, 2), "params": P}))  # fmt: skip


if __name__ == "__main__":
    main()
