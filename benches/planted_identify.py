"""Can the planted parameters be found at all? (issue 24: the identifiability of the plants)

    python benches/planted_identify.py --out /tmp/ident            # about 40-60 min on 2 cores
    python benches/planted_identify.py --out /tmp/ident --blocks 4 --plants 4   # a smoke run

The planted-damage suite (benches/planted.py) asks the balancer to put *every* planted
parameter among its edits, moved back toward its value. This bench measures how much the
evidence a balancer can collect says about which parameter was planted, with far more games
than a 2,000,000-game run can spend, on the same 20 plants (``--seed 2024``):

1. **Metric fingerprints, with oracle effects.** Every allowed parameter's one-step effect
   (up and down) on the ten target metrics (6 pairs, 4 shares) on the shipped balanced set,
   paired on ``--blocks`` blocks (40 blocks: 29,760 games a point, 597 points, about
   17.8 million games), and each plant's damaged metrics on 40 fresh blocks. A plant is then
   "explained" by the greedy sparse fit a fewest-changes balancer would make if it knew every
   effect exactly: the move (parameter, 1-2 steps) whose predicted metrics are most likely
   for a balanced set (Gaussian around the targets, sd = half the band's half-width), then
   the next, while the likelihood improves by more than a per-edit penalty. Printed per
   plant: where each planted parameter (in its revert direction) ranks among all ~1,200
   one-move hypotheses, and which moves the fit chose.
2. **Per-card evidence.** ``ketharmad.diagnose`` of the planted faction on the damaged set
   (5,000 games per pairing, restricted play 1,250): the rank of each planted card in its
   faction (of about 20), by the diagnosis' suspicion, and by the suspicion regressed on the
   card's printed cost (a "value for cost" residual).

The numbers measured with this script are in docs/balance.md ("Why the planted parameters
cannot be found from play").
"""

from __future__ import annotations

import argparse
import importlib.resources
import json
import os
import sys
import tempfile
import time

import ketharmad
import numpy as np
import polars as pl
from ketharmad.lab.balance.evaluate import Evaluator
from ketharmad.lab.balance.targets import load_targets

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import planted

FACTION = {"ner": "ner", "tis": "tisza", "rad": "radikalisok", "osz": "osszefogas"}


def _evaluator() -> tuple[Evaluator, list[str]]:
    text = (importlib.resources.files("ketharmad") / "data" / "cards_balanced.toml").read_text(
        encoding="utf-8"
    )
    tg = load_targets(None)
    ev = Evaluator(text, tg, "heuristic", 7, None, 50, 6, {})
    return ev, [m.name for m in ev.metrics]


def measure_effects(out: str, blocks: int) -> dict:
    """Every allowed parameter's one-step effects on the balanced set (cached in ``out``)."""
    path = os.path.join(out, "effects.json")
    if os.path.exists(path):
        return json.load(open(path, encoding="utf-8"))
    ev, names = _evaluator()
    space = load_targets(None).space(ketharmad.parameters(card_data="balanced"))
    base = ev.vectors({}, [(0, blocks)])
    eff: dict[str, list[tuple[float, float]]] = {}
    t0 = time.time()
    for i, p in enumerate(space):
        for d in (1, -1):
            v = p.default + d * p.step
            if not p.low <= v <= p.high:
                continue
            vec = ev.vectors({p.name: v}, [(0, blocks)])
            eff[f"{p.name}|{d}"] = [
                (float((vec[n] - base[n]).mean()), float((vec[n] - base[n]).std(ddof=1) / np.sqrt(len(base[n]))))
                for n in names
            ]  # fmt: skip
        if i % 25 == 0:
            print(f"  effects: {i}/{len(space)} parameters, {time.time() - t0:.0f} s", flush=True)
    res = {"names": names, "effects": eff, "blocks": blocks}
    json.dump(res, open(path, "w", encoding="utf-8"))
    return res


def measure_damage(out: str, plants: list, blocks: int) -> dict:
    """Each plant's damaged metrics on fresh blocks (not the effects' blocks)."""
    path = os.path.join(out, "damaged.json")
    if os.path.exists(path):
        return json.load(open(path, encoding="utf-8"))
    ev, names = _evaluator()
    rng = [(1000, 1000 + blocks)]
    base = ev.vectors({}, rng)
    res = {
        "names": names,
        "targets": [m.target for m in ev.metrics],
        "low": [m.low for m in ev.metrics],
        "high": [m.high for m in ev.metrics],
        "base": [float(base[n].mean()) for n in names],
        "plants": [],
    }
    for p in plants:
        vec = ev.vectors(p.edits, rng)
        res["plants"].append({"index": p.index, "edits": p.edits, "printed": p.printed,
                              "b": [float(vec[n].mean()) for n in names]})  # fmt: skip
    json.dump(res, open(path, "w", encoding="utf-8"))
    return res


def pursuit(E: dict, D: dict, sd_share: float = 0.5, penalty: float = 2.0) -> list[dict]:
    """The oracle fewest-changes fit of each plant (module doc, 1)."""
    t, lo, hi = (np.array(D[k]) for k in ("targets", "low", "high"))
    sig = (hi - lo) / 2 * sd_share
    eff = {}
    for k, v in E["effects"].items():
        n, d = k.split("|")
        eff[(n, int(d))] = np.array([x[0] for x in v])

    def score(x: np.ndarray) -> float:
        return 0.5 * float((((x - t) / sig) ** 2).sum())

    def hyps(b: np.ndarray, exclude: set[str]) -> list[tuple[float, str, int]]:
        out = [(score(b + k * e) + penalty, n, d * k) for (n, d), e in eff.items()
               if n not in exclude for k in (1, 2)]  # fmt: skip
        return sorted(out)

    rows = []
    for P in D["plants"]:
        b = np.array(P["b"])
        revert = {n: int(np.sign(P["printed"][n] - v)) for n, v in P["edits"].items()}
        h = hyps(b, set())
        ranks = {n: next((i + 1 for i, (_s, m, k) in enumerate(h) if m == n and np.sign(k) == d), None)
                 for n, d in revert.items()}  # fmt: skip
        x, chosen = b.copy(), []
        while len(chosen) < 5:
            hh = hyps(x, {c[0] for c in chosen})
            if not hh or hh[0][0] >= score(x):
                break
            _s, n, k = hh[0]
            chosen.append((n, k))
            x = x + abs(k) * eff[(n, 1 if k > 0 else -1)]
        found = sum(
            1 for n, d in revert.items() if any(c == n and np.sign(k) == d for c, k in chosen)
        )
        rows.append({"plant": P["index"], "damaged": bool(((b < lo) | (b > hi)).any()),
                     "planted": len(revert), "found": found, "ranks": list(ranks.values()),
                     "hypotheses": len(h), "chosen": chosen})  # fmt: skip
    return rows


def diagnose_ranks(out: str, plants: list, games: int) -> list[dict]:
    """The planted cards' ranks in their faction by the diagnosis (module doc, 2)."""
    path = os.path.join(out, "diagnose.parquet")
    if not os.path.exists(path):
        frames = []
        with tempfile.TemporaryDirectory() as d:
            for p in plants:
                file = planted.damaged_file(p, d)
                fac = FACTION[next(iter(p.edits)).split("_", 1)[0]]
                dg = ketharmad.diagnose([fac], games=games, seed=11, card_data=file)
                frames.append(dg.suspects.with_columns(pl.lit(p.index).alias("plant")))
        pl.concat(frames).write_parquet(path)
    table = pl.read_parquet(path)
    dflt = dict(
        zip(
            *ketharmad.parameters(card_data="balanced")
            .select("name", "default")
            .to_dict()
            .values(),
            strict=True,
        )
    )
    rows = []
    for p in plants:
        s = table.filter(pl.col("plant") == p.index).filter(pl.col("strength").is_not_null())
        cards = s["card"].to_list()
        y = np.array(s["suspicion"].to_list(), float)
        cost = np.array([sum(p.edits.get(f"{c}.{f}", dflt.get(f"{c}.{f}", 0))
                             for f in ("cost_generic", "cost_f", "cost_m", "cost_u")) for c in cards], float)  # fmt: skip
        a = np.c_[np.ones_like(cost), cost]
        resid = y - a @ np.linalg.lstsq(a, y, rcond=None)[0]
        planted_cards = [n.rsplit(".", 1)[0] for n in p.edits]

        def rank(score: np.ndarray, card: str, cards: list[str] = cards) -> int:
            order = [cards[i] for i in np.argsort(-score, kind="stable")]
            return order.index(card) + 1

        rows.append({"plant": p.index, "cards": len(cards),
                     "rank": [rank(y, c) for c in planted_cards],
                     "rank_value_for_cost": [rank(resid, c) for c in planted_cards]})  # fmt: skip
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--out", required=True, help="folder for the cached measurements")
    ap.add_argument("--seed", type=int, default=2024, help="the suite's plant seed")
    ap.add_argument("--plants", type=int, default=20)
    ap.add_argument("--blocks", type=int, default=40, help="blocks a point (744 games a block)")
    ap.add_argument("--diagnose-games", type=int, default=5000, help="games per pairing")
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    plants = planted.draw_plants(args.plants, args.seed, ketharmad.parameters(card_data="balanced"))
    print(
        f"{len(plants)} plants (seed {args.seed}); {args.blocks} blocks a point; cache {args.out}"
    )
    E = measure_effects(args.out, args.blocks)
    D = measure_damage(args.out, plants, args.blocks)
    fit = pursuit(E, D)
    print("1. metric fingerprints with oracle effects (greedy fewest-changes fit):")
    for r in fit:
        print(f"  plant {r['plant']:2d} damaged {int(r['damaged'])}: planted ranks {r['ranks']} of "
              f"{r['hypotheses']}; found {r['found']}/{r['planted']}; fit {r['chosen']}")  # fmt: skip
    dmg = [r for r in fit if r["damaged"]]
    ranks = [x for r in fit for x in r["ranks"] if x is not None]
    print(f"  planted parameters found by the fit: {sum(r['found'] for r in fit)} of "
          f"{sum(r['planted'] for r in fit)}; plants fully found: {sum(r['found'] == r['planted'] for r in dmg)} "
          f"of {len(dmg)} damaged; median rank of a planted move {int(np.median(ranks))}")  # fmt: skip
    dg = diagnose_ranks(args.out, plants, args.diagnose_games)
    print("2. per-card evidence (diagnose of the planted faction):")
    for r in dg:
        print(f"  plant {r['plant']:2d}: planted cards rank {r['rank']} of {r['cards']} "
              f"(value for cost: {r['rank_value_for_cost']})")  # fmt: skip
    for key in ("rank", "rank_value_for_cost"):
        allr = [x for r in dg for x in r[key]]
        print(f"  {key}: top 1 {sum(x == 1 for x in allr)}, top 3 {sum(x <= 3 for x in allr)} of "
              f"{len(allr)} planted cards; plants with every planted card in the top 3: "
              f"{sum(all(x <= 3 for x in r[key]) for r in dg)} of {len(dg)}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
