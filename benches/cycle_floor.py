"""How far strength-only balancing can go: each card set's 2-player matchups under each rung,
split into deck strength and cycle (``ketharmad.lab.cycles``; issue 27, docs/balance.md).

    python benches/cycle_floor.py --set draft=draft --set shipped=balanced \\
        --set cont2_s15=scripts/ladder_points/cont2_s15.json --rungs heuristic,tuned,learned \\
        --games-per-side 5000

A set is a card-data name (``draft``, ``balanced``, a TOML file) or a JSON point
``{parameter: value}`` over the draft. For each set and rung it plays every ordered pair of
factions (``ketharmad.matchups``, seed ``--seed``, the check seed of docs/balance.md) and
prints the pairs, each faction's strength (points), the cyclic share, and the **floor**: the
smallest worst pair deviation from 50 % that any change of the factions' strengths alone can
reach, with the cycle that sets it; and per set over the rungs, how much wider every 50 +-
``--band`` band must be for one change of strengths that acts alike under every rung (the
rungs' disagreement). A floor above a pair band's half-width (3 points for the
ladder targets) means no balancing of strengths brings every pair in: an edit must act on
one pairing more than on the faction's others. The floor of measured rates reads high by
their noise (it is a maximum over cycles); ``--games-per-side`` sets how much (the bootstrap
interval printed beside it).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import ketharmad
import numpy as np
from ketharmad.lab.cycles import band_cycle, split_cycles


def setup_of(spec: str) -> dict[str, object]:
    """``card_data=`` for a name or a TOML file, ``params=`` for a JSON point."""
    if spec.endswith(".json"):
        path = Path(spec)
        if not path.is_file():
            raise SystemExit(f"no such file: {spec}")
        point = json.loads(path.read_text())
        if not isinstance(point, dict):
            raise SystemExit(f"{spec}: not a JSON object {{parameter: value}}")
        return {"params": point}
    return {"card_data": spec}


def resample(mat: np.ndarray, games: int, rng: np.random.Generator) -> np.ndarray:
    """The matrix with each pair drawn again (binomial, ``games`` games), kept complementary."""
    upper = np.triu(np.ones(mat.shape, dtype=bool), 1)
    r = np.full(mat.shape, 0.5)
    r[upper] = rng.binomial(games, np.clip(mat[upper], 0, 1)) / games
    return np.where(upper.T, 1 - r.T, r)


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--set", action="append", required=True, metavar="NAME=SPEC",
                    help="a card set: NAME=draft, NAME=balanced, NAME=FILE.toml or NAME=POINT.json")  # fmt: skip
    ap.add_argument("--rungs", default="heuristic,tuned,learned", help="comma-separated bot specs")
    ap.add_argument("--games-per-side", type=int, default=5_000)
    ap.add_argument("--seed", type=int, default=1_000_008)
    ap.add_argument("--boot", type=int, default=200, help="parametric resamples of the interval")
    ap.add_argument(
        "--band", type=float, default=3.0, help="a pair band's half-width, points (50 %% +- band)"
    )
    args = ap.parse_args()
    if args.games_per_side < 1:
        raise SystemExit(f"--games-per-side must be at least 1, got {args.games_per_side}")
    sets = []
    for item in args.set:
        name, sep, spec = item.partition("=")
        if not sep or not name or not spec:
            raise SystemExit(f"--set wants NAME=SPEC, got {item!r}")
        sets.append((name, setup_of(spec)))
    rungs = [r.strip() for r in args.rungs.split(",") if r.strip()]
    rng = np.random.default_rng(args.seed)
    f = list(ketharmad.FACTIONS)
    print(f"seed {args.seed}, {args.games_per_side:,} games a seating of each ordered pair; "
          f"points of win rate; floor [95 % parametric bootstrap]")  # fmt: skip
    for name, setup in sets:
        joint = []
        for rung in rungs:
            t = time.perf_counter()
            m = ketharmad.matchups(
                games_per_side=args.games_per_side, seed=args.seed, bots=rung, **setup
            )  # type: ignore[arg-type]
            mat = m.matrix().select(f).to_numpy()
            games = 2 * args.games_per_side
            c = split_cycles(mat)
            floors = [split_cycles(resample(mat, games, rng)).floor for _ in range(args.boot)]
            lo, hi = np.percentile(floors, [2.5, 97.5])
            worst = max(
                ((i, j) for i in range(4) for j in range(4) if i < j),
                key=lambda ij: abs(mat[ij] - 0.5),
            )
            pairs = "  ".join(
                f"{f[i][:4]}-{f[j][:4]} {100 * mat[i, j]:.1f}"
                for i in range(4)
                for j in range(4)
                if i < j
            )
            strengths = " ".join(f"{f[i][:4]} {c.strength[i]:+.1f}" for i in range(4))
            cyc = " > ".join(f[i] for i in c.cycle) + (f" > {f[c.cycle[0]]}" if c.cycle else "")
            print(f"\n{name} / {rung} ({time.perf_counter() - t:.0f} s)\n  pairs: {pairs}\n"
                  f"  worst pair: {f[worst[0]]}-{f[worst[1]]} {100 * abs(mat[worst] - 0.5):.1f} points off 50 %\n"
                  f"  strengths: {strengths}\n  cyclic share {c.cyclic_share:.2f}; floor {c.floor:.1f} "
                  f"[{lo:.1f}, {hi:.1f}] points, cycle {cyc or '-'}", flush=True)  # fmt: skip
            half = args.band / 100
            joint += [
                (f[i], f[j], mat[i, j], 0.5 - half, 0.5 + half, rung)
                for i in range(4)
                for j in range(4)
                if i < j
            ]
        if len(rungs) > 1:
            gap, arcs = band_cycle(joint)
            loop = arcs[0][0] + "".join(f" > {b} ({tag})" for _, b, tag in arcs) if arcs else "-"
            print(f"\n{name} over the rungs: one change of strengths acting alike under every rung needs every "
                  f"50 +- {args.band:g} band {gap:.1f} points wider; cycle {loop}", flush=True)  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
