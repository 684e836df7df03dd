"""How much a learned rung's reading of a card set hangs on its training seed (issue 27).

Plays one card set (the draft with a point's edits) under the learned bot with each policy
file alone and with each given ensemble (``model = [..]``, the mean of the models' scores),
on the same seeds: every 2-player pairing (``--games-per-side`` a seating, both seatings)
and every 4-player share (``--games-4p``). Prints each reading, and per metric the spread
(largest minus smallest) of the single policies and of the ensembles.

    python -c "import json, ketharmad.learn as kl; \\
        pt = json.load(open('scripts/ladder_points/cont2_s15.json')); \\
        [kl.train_policy(out=f'runs/noise/s{s}', generations=3, games=720, seed=s, params=pt) \\
         for s in (1, 2, 3, 4)]"
    python benches/learned_rung_noise.py scripts/ladder_points/cont2_s15.json \\
        runs/noise/s1/policy.khnn runs/noise/s2/policy.khnn runs/noise/s3/policy.khnn \\
        runs/noise/s4/policy.khnn --ensemble 1,2 --ensemble 3,4
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import warnings
from pathlib import Path

import ketharmad
import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
from balanced_set import check_tables


def reading(
    card: str, model: str | list[str], games_per_side: int, games_4p: int, seed: int
) -> dict[str, float]:
    """Win rate (%) per 2-player pairing (the factions in ``ketharmad.FACTIONS`` order) and
    per 4-player share, as ``scripts/check_proposals.py`` reads them."""
    bot = {"kind": "learned", "model": model}
    two, four = check_tables(card, games_per_side, games_4p, seed, bots=bot)
    out = {
        f"{r['faction'][:3]}-{r['opponent'][:3]}": 100 * r["win_rate"]
        for r in two.iter_rows(named=True)
    }
    out |= {f"4p {r['faction'][:3]}": 100 * r["win_rate"] for r in four.iter_rows(named=True)}
    return out


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("point", help="JSON {parameter: value} on the draft ('{}': the draft)")
    ap.add_argument("models", nargs="+", help="policy files, numbered 1.. in the order given")
    ap.add_argument(
        "--ensemble",
        action="append",
        default=[],
        metavar="I,J,..",
        help="an ensemble of the numbered files (repeatable)",
    )
    ap.add_argument("--games-per-side", type=int, default=1_000)
    ap.add_argument("--games-4p", type=int, default=2_400)
    ap.add_argument("--seed", type=int, default=1_000_008)
    a = ap.parse_args()
    warnings.simplefilter("ignore", UserWarning)  # a model trained on another set warns
    point = json.loads(Path(a.point).read_text()) if a.point != "{}" else {}
    rows: list[tuple[str, str, dict[str, float]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        card = str(Path(tmp) / "set.toml")
        ketharmad.export_card_data(card, card_data="draft", params=point, overwrite=True)
        runs: list[tuple[str, str, str | list[str]]] = [
            ("single", f"{i}", m) for i, m in enumerate(a.models, 1)
        ]
        for e in a.ensemble:
            idx = [int(x) for x in e.split(",")]
            if not idx or any(not 1 <= i <= len(a.models) for i in idx):
                raise SystemExit(f"--ensemble {e!r}: numbers 1..{len(a.models)}, comma-separated")
            runs.append(("ensemble", "+".join(map(str, idx)), [a.models[i - 1] for i in idx]))
        for kind, name, model in runs:
            t = time.perf_counter()
            rows.append((kind, name, reading(card, model, a.games_per_side, a.games_4p, a.seed)))
            print(f"{kind} {name}: {time.perf_counter() - t:.1f} s", flush=True)
    metrics = list(rows[0][2])
    table = pl.DataFrame(
        [{"kind": k, "policy": n, **{m: round(r[m], 1) for m in metrics}} for k, n, r in rows]
    )
    with pl.Config(tbl_cols=-1, tbl_width_chars=250, tbl_hide_dataframe_shape=True):
        print(table)
    for kind in ("single", "ensemble"):
        sub = [r for k, _, r in rows if k == kind]
        if len(sub) < 2:
            continue
        spread = {m: max(r[m] for r in sub) - min(r[m] for r in sub) for m in metrics}
        top = max(spread, key=lambda m: spread[m])
        print(
            f"spread of the {len(sub)} {kind} readings: largest {spread[top]:.1f} pts ({top}), "
            f"mean {sum(spread.values()) / len(spread):.1f} pts over the {len(spread)} metrics"
        )
    print(
        f"(a metric's sampling noise: about {100 * (0.25 / (2 * a.games_per_side)) ** 0.5:.1f} pts "
        f"a 2-player pairing, {100 * (0.1875 / a.games_4p) ** 0.5:.1f} a 4-player share, one standard error)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
