"""Do card edits act alike under every rung of a ladder? (issue 27)

The shipped set's decks shift between the heuristic and the learned bot (docs/health.md,
"Decks across the ladder"): a set in band under both needs edits whose effect *differs*
between the rungs. This measures, for one 2-player pairing, every Influence, Credibility and
generic cost of the two factions' cards moved by ``--steps`` up and down (within each
parameter's range), the first deck's win rate under each rung on common random numbers
(every point plays the same games as the start: seed, game index and both seatings), and
prints each move's effect under each rung, the difference of the two effects (the
"differential"; paired standard errors) and the pairing's gap between the rungs at the start.

    python benches/rung_effects.py                      # osszefogas vs radikalisok, balanced set
    python benches/rung_effects.py --pair ner,tisza --card-data draft --games 4000 --steps 2
"""

from __future__ import annotations

import argparse
import time
import warnings

import ketharmad
import numpy as np
import polars as pl

FIELDS = ("influence", "credibility", "cost_generic")


def wins(
    decks: tuple[str, str], bots: str, games: int, seed: int, card: object, params: dict
) -> np.ndarray:
    """Per game (first seating's games, then the swapped ones): 1 when ``decks[0]`` won."""
    half = games // 2
    out = []
    for seating in (0, 1):
        d = decks if seating == 0 else (decks[1], decks[0])
        r = ketharmad.simulate(decks=d, bots=bots, games=half, seed=seed + seating, card_data=card,
                               params=params or None)  # fmt: skip
        out.append((r.games["winner"].to_numpy() == seating).astype(np.float64))
    return np.concatenate(out)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pair", default="osszefogas,radikalisok")
    ap.add_argument("--rungs", default="heuristic,learned")
    ap.add_argument("--card-data", default="balanced", help="a card file, 'balanced' or 'draft'")
    ap.add_argument(
        "--games", type=int, default=4_000, help="games per point per rung (both seatings)"
    )
    ap.add_argument("--steps", type=int, default=2)
    ap.add_argument("--seed", type=int, default=777)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--out", help="write every move's row to this Parquet file")
    ap.add_argument("--match", help="only the parameters whose name contains this")
    a = ap.parse_args(argv)

    warnings.filterwarnings("ignore", message="model file")
    pair = tuple(a.pair.split(","))
    rungs = a.rungs.split(",")
    card = None if a.card_data == "draft" else a.card_data
    t0 = time.perf_counter()
    prefixes = {f: ketharmad.cards(card)["id"].filter(ketharmad.cards(card)["faction"] == f)
                for f in pair}  # fmt: skip
    ids = set(pl.concat(list(prefixes.values())).to_list())
    par = ketharmad.parameters(card)
    par = par.with_columns(
        card_id=pl.col("name").str.split(".").list.get(0),
        field=pl.col("name").str.split(".").list.get(-1),
    )
    par = par.filter(pl.col("card_id").is_in(list(ids)) & pl.col("field").is_in(list(FIELDS)))
    if a.match:
        par = par.filter(pl.col("name").str.contains(a.match, literal=True))
    base = {r: wins(pair, r, a.games, a.seed, card, {}) for r in rungs}
    print(
        f"{pair[0]} vs {pair[1]}, card set {a.card_data}, {a.games:,} games a point a rung, seed {a.seed}"
    )
    for r in rungs:
        print(f"  start under {r}: {pair[0]} wins {base[r].mean():.3f}")
    gap = base[rungs[1]].mean() - base[rungs[0]].mean()
    print(
        f"  gap {rungs[1]} - {rungs[0]}: {gap:+.3f}; {par.height} parameters x up/down {a.steps} steps"
    )
    rows = []
    for p in par.iter_rows(named=True):
        for sign in (1, -1):
            v = p["default"] + sign * a.steps
            if v < p["min"] or v > p["max"]:
                continue
            eff, se = {}, {}
            for r in rungs:
                d = wins(pair, r, a.games, a.seed, card, {p["name"]: v}) - base[r]
                eff[r], se[r] = d.mean(), d.std(ddof=1) / np.sqrt(len(d))
            diff = eff[rungs[1]] - eff[rungs[0]]
            rows.append({"parameter": p["name"], "from": p["default"], "to": v,
                         f"effect_{rungs[0]}": eff[rungs[0]], f"se_{rungs[0]}": se[rungs[0]],
                         f"effect_{rungs[1]}": eff[rungs[1]], f"se_{rungs[1]}": se[rungs[1]],
                         "differential": diff, "se_differential": float(np.hypot(se[rungs[0]], se[rungs[1]]))})  # fmt: skip
    t = pl.DataFrame(rows).with_columns(z=pl.col("differential") / pl.col("se_differential"))
    if a.out:
        t.write_parquet(a.out)
    print(
        f"{t.height} moves, {time.perf_counter() - t0:.0f} s; the largest differentials (closing the gap: sign opposite to the gap's):"
    )
    with pl.Config(
        tbl_rows=a.top, tbl_cols=-1, tbl_width_chars=250, float_precision=3, fmt_str_lengths=60
    ):
        print(t.sort(pl.col("differential").abs(), descending=True).head(a.top))
    # a move that changes no game under either rung has no z (0 / 0): left out, and counted
    z = t["z"].to_numpy()
    idle = int((~np.isfinite(z)).sum())
    z = z[np.isfinite(z)]
    print(f"|z| > 3: {(np.abs(z) > 3).sum()} of {len(z)} (about {len(z) * 0.0027:.1f} by chance); "
          f"sd of z {z.std():.2f} (1 if no move differs between the rungs)"
          + (f"; {idle} move(s) changed no game under either rung" if idle else ""))  # fmt: skip
    closing = t.filter(pl.col("differential") * np.sign(gap) < 0).sort(
        "differential", descending=bool(gap < 0)
    )
    print(
        f"sum of the 15 largest closing differentials (one move a parameter, as measured): "
        f"{closing.unique('parameter', keep='first').head(15)['differential'].sum():+.3f} against a gap of {gap:+.3f}"
    )


if __name__ == "__main__":
    main()
