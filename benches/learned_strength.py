"""The learned bots (issue 26; docs/learning.md): the fast policy against the heuristic,
its cost, its strength on a card set it was never trained on, and the search with the
learned value model and prior against `search` at 100 iterations.

    python benches/learned_strength.py POLICY [--value VALUE] [--per-cell 84] [--seed 21]
        [--edits 5] [--edit-seed 3] [--search-per-cell 0] [--search-seed 11] [--cost-rounds 5]

(`--per-cell 0`: only the search part.)

* **policy vs heuristic**: the learned bot (`{"kind": "learned", "model": POLICY}`) against
  `heuristic` on all 12 ordered 2-player faction pairs, both seats, PER_CELL games per (pair,
  seat) (84: 2,016 games), seed SEED, in Kétharmad's batch; a game without a winner counts
  half. Wilson 95 % interval.
* **cost**: its decisions per second on one core (both seats of ner vs tisza, 4,000 games).
* **unseen card set**: the same comparison after EDITS random edits (Influence, Credibility or
  generic cost of random cards, each ±1 or ±2 within its range; drawn by EDIT_SEED and
  printed), on which the model was never trained.
* **search with the learned value and prior** (with `--value` and `--search-per-cell N`):
  the shipped ladder's top rung: `ismcts` at 190 iterations, sequential halving over the
  policy's 6 best options (`prior=learned`, ranking the root only: `prior_tree=0`), each
  candidate's mean counting `prior_bonus=0.02` less per place below the policy's first, the
  value model scoring its cut rollouts, against `search` at 100 iterations on the harness
  (`simulate_game`), N games per (pair, seat), seed `--search-seed` (11). Then its CPU per
  decision relative to `search`@100: both seats the same bot, `ner` against `tisza`, one
  thread, `--cost-rounds` alternating rounds of 8 games (process CPU time).
"""

from __future__ import annotations

import argparse
import math
import random
import time

import ketharmad
from ketharmad.run.harness import simulate_game

FACTIONS = ["ner", "osszefogas", "tisza", "radikalisok"]


def wilson(k: float, n: int) -> tuple[float, float]:
    z = 1.96
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def versus(
    bot: object, other: object, per_cell: int, seed: int, params: dict | None = None
) -> tuple[float, int]:
    pts, n = 0.0, 0
    for a in FACTIONS:
        for b in FACTIONS:
            if a == b:
                continue
            for seat in (0, 1):
                bots = [bot, other] if seat == 0 else [other, bot]
                r = ketharmad.simulate([a, b], bots, games=per_cell, seed=seed, params=params)
                w = r.games["winner"].fill_null(-1).to_numpy()
                pts += float((w == seat).sum()) + 0.5 * float((w < 0).sum())
                n += per_cell
    return pts, n


def report(label: str, pts: float, n: int, secs: float) -> None:
    lo, hi = wilson(pts, n)
    print(
        f"{label:58s} {pts / n:6.1%} [{lo:.1%}, {hi:.1%}] of {n:,} games ({secs:.1f} s)", flush=True
    )


def random_edits(k: int, seed: int) -> dict[str, int]:
    t = ketharmad.parameters()
    rows = [r for r in t.iter_rows(named=True)
            if r["name"].split(".")[-1] in ("influence", "credibility", "cost_generic") and r["card"] != "rules"]  # fmt: skip
    rng = random.Random(seed)
    out: dict[str, int] = {}
    while len(out) < k:
        r = rng.choice(rows)
        if r["name"] in out:
            continue
        step = rng.choice([-2, -1, 1, 2])
        v = min(max(r["default"] + step, r["min"]), r["max"])
        if v != r["default"]:
            out[r["name"]] = v
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("policy")
    ap.add_argument("--value", default=None)
    ap.add_argument("--per-cell", type=int, default=84)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--edits", type=int, default=5)
    ap.add_argument("--edit-seed", type=int, default=3)
    ap.add_argument("--search-per-cell", type=int, default=0)
    ap.add_argument("--search-seed", type=int, default=11)
    ap.add_argument("--cost-rounds", type=int, default=5)
    a = ap.parse_args()
    bot = {"kind": "learned", "model": a.policy}
    if a.per_cell:  # 0: only the search part
        t = time.perf_counter()
        pts, n = versus(bot, "heuristic", a.per_cell, a.seed)
        report("learned vs heuristic", pts, n, time.perf_counter() - t)
        t = time.perf_counter()
        pts, n = versus("tuned", "heuristic", a.per_cell, a.seed)
        report("tuned vs heuristic (the same games)", pts, n, time.perf_counter() - t)
        t, c = time.perf_counter(), time.process_time()
        r = ketharmad.simulate(["ner", "tisza"], bot, games=4000, seed=0, run={"threads": 1})
        dt, dc = time.perf_counter() - t, time.process_time() - c
        d = int(r.games["actions"].sum())
        print(
            f"learned cost: {d / dt:,.0f} decisions/s on one core ({d / dc:,.0f} per CPU second), {4000 / dt:,.0f} games/s",
            flush=True,
        )
        if a.edits:
            edits = random_edits(a.edits, a.edit_seed)
            print(
                f"unseen card set ({a.edits} random edits, seed {a.edit_seed}): {edits}", flush=True
            )
            t = time.perf_counter()
            pts, n = versus(bot, "heuristic", a.per_cell, a.seed, params=edits)
            report("learned vs heuristic on the unseen set", pts, n, time.perf_counter() - t)
    if a.value and a.search_per_cell:
        spec = (
            "ismcts:iterations=190,halving=1,width=6,prior_tree=0,prior_bonus=0.02,"
            f"value={a.value},prior=learned;model={a.policy}"
        )
        t = time.perf_counter()
        pts, n = 0.0, 0
        for x in FACTIONS:
            for y in FACTIONS:
                if x == y:
                    continue
                for seat in (0, 1):
                    bots = (
                        [spec, "search:iterations=100"]
                        if seat == 0
                        else ["search:iterations=100", spec]
                    )
                    s = simulate_game(
                        "ketharmad", bots, decks=[x, y], games=a.search_per_cell, seed=a.search_seed
                    ).summary()
                    wins = s["wins"].to_list()
                    pts += wins[seat] + (a.search_per_cell - sum(wins)) / 2
                    n += a.search_per_cell
        report(f"{spec[:40]}… vs search:iterations=100", pts, n, time.perf_counter() - t)
        cpu = {spec: [0.0, 0], "search:iterations=100": [0.0, 0]}
        for r in range(a.cost_rounds):
            for b, acc in cpu.items():
                c = time.process_time()
                g = simulate_game(
                    "ketharmad", [b, b], decks=["ner", "tisza"], games=8, seed=100 + r, threads=1
                )
                acc[0] += time.process_time() - c
                acc[1] += int(g.games["actions"].sum())
        (sc, sd), (bc, bd) = cpu.values()
        print(f"its CPU per decision: {(sc / sd) / (bc / bd):.2f}x search:iterations=100's "
              f"({sd / sc:,.0f} against {bd / bc:,.0f} decisions per CPU second, {a.cost_rounds} rounds of 8 games)", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
