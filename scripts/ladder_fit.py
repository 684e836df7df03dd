"""Fit a few moves that bring a point inside every rung's bands (issue 27, seventh try).

The ladder runs stopped 2.6-3.5 points out with the same three metrics out under every
learned policy (docs/balance.md): they need moves chosen for how *differently* the rungs
read them, and the balance run's screen (744 games a rung a point) is too noisy to see that.
This measures, at one point, every allowed one-step move (each number of the targets'
allow list one step up and one down within its reach, and every edit of the point undone)
on every metric of every rung, with common random numbers (each move plays the start's
games), then fits the fewest moves whose predicted metrics sit inside every band's inner
band (the targets' margin), and plays the best fits on fresh blocks no fit used.

1. **Screen** every move under the fast rungs (``--screen-rungs``; default every rung
   but the learned one), ``--blocks`` blocks a point; the start itself on
   ``--start-blocks`` blocks (its reading is what the effects are added to).
2. **Learned** rung: the ``--learned-top`` moves the screen rates most useful (the moves of
   the screen rungs' own fits, then the best alone) are measured under the rest of the
   rungs too; a fit only takes moves measured under every rung.
3. **Fit**: for each size 1 .. ``--max-moves``, the ``--finalists`` sets of moves (one a
   number; the edit cap counted against the draft, so at the cap a new number needs an
   edit undone) whose predicted metrics have the smallest worst excess over the inner
   bands, then the smallest mean excess, plus ``--move-cost`` a move: a mixed-integer
   program (SciPy's HiGHS; each effect shrunk towards 0 by its noise,
   ``e * e^2 / (e^2 + se^2)``; effects added).
4. **Refine** (``--refine`` rounds): the moves the fits use (and with ``--refine-top N``
   the N moves best alone) measured again on fresh blocks under every rung, and the fits
   made again on those moves alone: a fit among hundreds of noisy effects favours the
   moves whose games were luckiest (measured at ``cont2_s15``: predicted 0.9 points out,
   5.1 on fresh seeds; docs/balance.md, "Seventh try").
5. **Holdout**: the ``--finalists`` best fits of each size and the start, on
   ``--holdout-blocks`` fresh blocks under every rung; each one's worst excess over the
   bands themselves. The best lands in ``OUT/point.json``.

    python scripts/ladder_fit.py --targets scripts/ladder_targets_wide.toml \\
        --start scripts/ladder_points/cont2_s15.json --model A.khnn B.khnn --out runs/fit
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from ketharmad import _core
from ketharmad.game.data import load_card_data
from ketharmad.lab.balance.evaluate import Journal, LadderEvaluator, card_text_hash
from ketharmad.lab.balance.targets import load_targets
from ketharmad.results.frames import parameter_frame

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ladder_retrain import with_model


def bands(metrics: list[Any], margin: float) -> tuple[np.ndarray, ...]:
    lo = np.array([m.low for m in metrics])
    hi = np.array([m.high for m in metrics])
    half = (hi - lo) / 2
    return lo, hi, lo + margin * half, hi - margin * half


def excess(x: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """How far each value (last axis: the metrics) is outside [lo, hi]; 0 inside."""
    return np.maximum(np.maximum(lo - x, x - hi), 0.0)


def moves_of(space: list[Any], start: dict[str, int]) -> list[tuple[str, int]]:
    """Every number one step up and down within its reach, and every edit undone."""
    out = []
    for p in space:
        cur = start.get(p.name, p.default)
        for v in (cur - p.step, cur + p.step):
            if p.contains(v):
                out.append((p.name, int(v)))
        if cur != p.default and abs(cur - p.default) > p.step:
            out.append((p.name, int(p.default)))
    return out


def moved(start: dict[str, int], default: dict[str, int], moves: Any) -> dict[str, int]:
    pt = dict(start)
    for name, v in moves:
        if v == default[name]:
            pt.pop(name, None)
        else:
            pt[name] = v
    return pt


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--targets", default="scripts/ladder_targets_wide.toml")
    ap.add_argument("--start", required=True, help="JSON {parameter: value} on the draft")
    ap.add_argument("--model", nargs="+", help="the learned rung's model file(s) (an ensemble)")
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--games-2p", type=int, default=250, help="games a 2-player cell a block")
    ap.add_argument("--games-4p", type=int, default=25, help="games a 4-player seating a block")
    ap.add_argument("--blocks", type=int, default=2)
    ap.add_argument("--screen-rungs", help="comma list (default: every rung but 'learned')")
    ap.add_argument("--learned-top", type=int, default=250)
    ap.add_argument(
        "--start-blocks", type=int, default=16, help="blocks of the start's own reading"
    )
    ap.add_argument("--max-moves", type=int, default=7)
    ap.add_argument("--move-cost", type=float, default=0.02, help="in band half-widths")
    ap.add_argument("--finalists", type=int, default=3)
    ap.add_argument("--refine", type=int, default=1, help="rounds of re-measuring the fits' moves")
    ap.add_argument(
        "--refine-top", type=int, default=0, help="and the N moves best alone, measured again too"
    )
    ap.add_argument("--holdout-blocks", type=int, default=4)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    warnings.simplefilter("ignore", UserWarning)  # the learned model's "other card numbers"

    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    import tomllib

    doc = tomllib.loads(Path(a.targets).read_text())
    if a.model:
        doc = with_model(doc, a.model[0] if len(a.model) == 1 else a.model)
    tg = load_targets(doc)
    if tg.ladder is None:
        raise SystemExit(f"{a.targets}: the targets need a [ladder] (the rungs to fit under)")
    text = load_card_data(None)
    space = tg.space(parameter_frame(_core.parameter_table(text)))
    default = {p.name: int(p.default) for p in space}
    try:
        start = {k: int(v) for k, v in json.loads(Path(a.start).read_text()).items()}
    except (OSError, ValueError, TypeError, AttributeError) as e:
        raise SystemExit(
            f"--start {a.start}: not a JSON object of parameter values ({e})"
        ) from None
    known = set(parameter_frame(_core.parameter_table(text))["name"].to_list())
    unknown = sorted(set(start) - known)
    if unknown:
        raise SystemExit(f"--start {a.start}: no such parameter: {', '.join(unknown)}")
    header = {"card_data_hash": card_text_hash(text), "seed": a.seed, "games_2p": a.games_2p,
              "games_4p": a.games_4p, "params": "{}", "fit": 1}  # fmt: skip
    jr = Journal(out / "journal.jsonl", header)
    ev = LadderEvaluator(text, tg, a.seed, None, a.games_2p, a.games_4p, {}, journal=jr)
    rungs = [r.name for r in ev.rungs]
    screen = a.screen_rungs.split(",") if a.screen_rungs else [r for r in rungs if r != "learned"]
    rest = [r for r in rungs if r not in screen]
    metrics = ev.all_metrics  # every rung's, named "<rung>: <metric>"
    names = [m.name for m in metrics]
    col = {n: j for j, n in enumerate(names)}
    lo, hi, ilo, ihi = bands(metrics, tg.margin)

    def vec(point: dict[str, int], rung: str, b0: int, b1: int) -> dict[str, np.ndarray]:
        i = rungs.index(rung)
        v = ev.subs[i].vectors(point, [(b0, b1)])
        return {f"{rung}: {k}": x for k, x in v.items()}

    def values(point: dict[str, int], rs: list[str], b0: int, b1: int) -> np.ndarray:
        x = np.full(len(names), np.nan)
        for r in rs:
            for k, v in vec(point, r, b0, b1).items():
                x[col[k]] = v.mean()
        return x

    t0 = time.perf_counter()
    B = a.blocks
    base = {r: vec(start, r, 0, B) for r in rungs}
    # the start's metrics on more blocks (the effects pair on blocks 0 .. B - 1; the fit
    # adds them to this reading, so its noise is not fitted)
    x0 = values(start, rungs, 0, max(B, a.start_blocks))
    print(f"start ({len(start)} edits): worst excess {100 * excess(x0, lo, hi).max():.1f} pts; "
          f"over the inner bands {100 * excess(x0, ilo, ihi).max():.1f}", flush=True)  # fmt: skip
    for j in np.argsort(-excess(x0, ilo, ihi))[:6]:
        print(f"  {names[j]} {100 * x0[j]:.1f} % (band {100 * lo[j]:.0f}-{100 * hi[j]:.0f})")

    mv = moves_of(space, start)
    eff = np.full((len(mv), len(names)), np.nan)
    se = np.full((len(mv), len(names)), np.nan)

    def measure(k: int, rs: list[str], b0: int = 0, b1: int = B) -> None:
        pt = moved(start, default, [mv[k]])
        for r in rs:
            ref = base[r] if (b0, b1) == (0, B) else vec(start, r, b0, b1)
            for key, v in vec(pt, r, b0, b1).items():
                d = v - ref[key]
                eff[k, col[key]] = d.mean()
                se[k, col[key]] = d.std(ddof=1) / np.sqrt(len(d))

    print(f"{len(mv)} moves; screening under {', '.join(screen)}", flush=True)
    for k in range(len(mv)):
        measure(k, screen)
        if (k + 1) % 50 == 0:
            print(f"  {k + 1}/{len(mv)} moves, {time.perf_counter() - t0:.0f} s", flush=True)

    def shrink(e: np.ndarray, s: np.ndarray) -> np.ndarray:
        """Each effect shrunk towards 0 by its noise (a move measured at 1 standard error
        keeps half of it): the fit otherwise favours the moves whose games were luckiest."""
        e2 = np.nan_to_num(e) ** 2
        return np.nan_to_num(e) * e2 / (e2 + np.nan_to_num(s, nan=1.0) ** 2 + 1e-12)

    def fit(cols: np.ndarray, usable: np.ndarray, k: int, cuts: list[set[int]]) -> list[int]:
        """The set of at most ``k`` moves (of ``usable``) whose predicted metrics ``cols``
        have the smallest worst excess over the inner bands (in band half-widths), plus
        ``--move-cost`` a move; one move a number, the edit cap kept, no set of ``cuts``
        again. A mixed-integer program (HiGHS through SciPy)."""
        from scipy.optimize import Bounds, LinearConstraint, milp

        E = shrink(eff[usable][:, cols], se[usable][:, cols])
        half = (hi[cols] - lo[cols]) / 2
        En = (E / half).T  # metrics x moves, in band half-widths
        m, n = En.shape
        # variables: the moves (0/1), each metric's excess e_j >= 0, the worst t >= e_j;
        # objective t + mean(e) + move cost: the worst first, then every other metric (a
        # metric no move can bring in does not stop the fit from helping the rest)
        eye = np.eye(m)
        rows = [
            np.c_[En, eye, np.zeros(m)],  # x + e >= inner low
            np.c_[-En, eye, np.zeros(m)],  # e - x >= - inner high
            np.c_[np.zeros((m, n)), -eye, np.ones(m)],  # t - e >= 0
        ]
        lb = [(ilo[cols] - x0[cols]) / half, (x0[cols] - ihi[cols]) / half, np.zeros(m)]
        ub = [np.full(m, np.inf)] * 3

        def at_most(move_part: list[float], bound: float) -> None:
            """A row over the moves alone: sum(move_part * b) <= bound."""
            rows.append(np.r_[np.array(move_part, dtype=float), np.zeros(m + 1)][None])
            lb.append(np.array([-np.inf]))
            ub.append(np.array([bound]))

        par = [mv[i][0] for i in usable]
        for p in set(par):  # one move a number
            r = [1.0 if q == p else 0.0 for q in par]
            if sum(r) > 1:
                at_most(r, 1.0)
        # the edit cap: a new number adds an edit, an edit undone removes one
        delta = [
            -1.0 if mv[i][1] == default[mv[i][0]] else 0.0 if mv[i][0] in start else 1.0
            for i in usable
        ]
        at_most(delta, tg.max_edits - len(start))
        at_most([1.0] * n, k)
        for c in cuts:  # not a set found before
            at_most([1.0 if i in c else 0.0 for i in usable], len(c) - 1.0)
        cost = np.r_[np.full(n, a.move_cost), np.full(m, 1.0 / m), 1.0]
        res = milp(cost, integrality=np.r_[np.ones(n), np.zeros(m + 1)],
                   constraints=LinearConstraint(np.vstack(rows), np.concatenate(lb), np.concatenate(ub)),
                   bounds=Bounds(np.zeros(n + m + 1), np.r_[np.ones(n), np.full(m + 1, np.inf)]),
                   options={"time_limit": 60})  # fmt: skip
        if res.x is None:
            return []
        return [int(i) for i, b in zip(usable, res.x[:n], strict=True) if b > 0.5]

    def fits(cols: np.ndarray, usable: np.ndarray) -> list[list[int]]:
        """For each size 1 .. --max-moves, the --finalists best sets (each excluded in turn)."""
        out: list[list[int]] = []
        for k in range(1, a.max_moves + 1):
            cuts: list[set[int]] = []
            for _ in range(a.finalists):
                s = fit(cols, usable, k, cuts)
                if not s or set(s) in cuts:
                    break
                cuts.append(set(s))
                if s not in out:
                    out.append(s)
        return out

    # the learned (slow) rungs: the moves the screen fit uses most, then the best alone
    if rest:
        scols = np.array([col[n] for n in names if n.split(":")[0] in screen])
        pick: list[int] = []
        for s in fits(scols, np.arange(len(mv))):
            for i in s:
                if i not in pick:
                    pick.append(i)
        print(f"  the screen's fits use {len(pick)} moves", flush=True)
        sx = x0[None, scols] + shrink(eff[:, scols], se[:, scols])
        alone = np.argsort((excess(sx, ilo[scols], ihi[scols]) ** 2).sum(axis=1))
        for i in alone:
            if len(pick) >= a.learned_top:
                break
            if int(i) not in pick:
                pick.append(int(i))
        pick = pick[: a.learned_top]
        print(f"{time.perf_counter() - t0:.0f} s; measuring {len(pick)} moves under "
              f"{', '.join(rest)}", flush=True)  # fmt: skip
        for n, k in enumerate(pick):
            measure(k, rest)
            if (n + 1) % 20 == 0:
                print(f"  {n + 1}/{len(pick)}, {time.perf_counter() - t0:.0f} s", flush=True)
    full = np.where(~np.isnan(eff).any(axis=1))[0]

    def dump(path: Path) -> None:
        rows = [{"parameter": p, "value": v, "from": start.get(p, default[p]), "printed": default[p],
                 **{n: float(eff[k, j]) for j, n in enumerate(names)},
                 **{f"se {n}": float(se[k, j]) for j, n in enumerate(names)}}
                for k, (p, v) in enumerate(mv)]  # fmt: skip
        pl.DataFrame(rows).write_parquet(path)

    dump(out / "effects.parquet")
    (out / "start.json").write_text(
        json.dumps(
            {"point": start, "values": {n: float(v) for n, v in zip(names, x0, strict=True)}},
            indent=1,
        )
    )

    def show(s_: list[int]) -> None:
        x = x0 + shrink(eff, se)[s_].sum(axis=0)
        print(f"  {len(s_)} moves: {100 * excess(x, lo, hi).max():.1f} pts, inner "
              f"{100 * excess(x, ilo, ihi).max():.1f}: "
              + ", ".join(f"{mv[i][0]} {start.get(mv[i][0], default[mv[i][0]])}->{mv[i][1]}" for i in s_),
              flush=True)  # fmt: skip

    print(
        f"{time.perf_counter() - t0:.0f} s; fits on {len(full)} moves (predicted worst excess over the bands):"
    )
    found = fits(np.arange(len(names)), full)
    for s_ in found:
        show(s_)
    # the winner's curse: a fit picks the moves whose games were luckiest among hundreds, so
    # their effects are measured again on fresh blocks (``--refine`` rounds, each
    # 2 x --blocks blocks from 100 r on) and the fit is made again on those moves alone
    usable = full
    # with --refine-top N, the N moves best alone (every metric) are measured again too, so
    # the refit chooses among more than the moves the first fit favoured
    alone_x = x0[None, :] + shrink(eff[full], se[full])
    ranked = [int(full[i]) for i in np.argsort((excess(alone_x, ilo, ihi) ** 2).sum(axis=1))]
    for r in range(1, a.refine + 1):
        chosen = sorted({i for s_ in found for i in s_} | set(ranked[: a.refine_top]))
        b0, b1 = 100 * r, 100 * r + 2 * B
        print(f"{time.perf_counter() - t0:.0f} s; refine {r}: the {len(chosen)} moves of the fits "
              f"again on blocks {b0}..{b1 - 1}", flush=True)  # fmt: skip
        for k in chosen:
            measure(k, rungs, b0, b1)
        usable = np.array(chosen, dtype=np.int64)
        found = fits(np.arange(len(names)), usable)
        for s_ in found:
            show(s_)
    finalists: list[list[int]] = [[], *found]
    dump(out / "effects_refined.parquet")  # the refined moves' effects from their fresh blocks
    h0, h1 = 1000, 1000 + a.holdout_blocks
    print(f"holdout: blocks {h0}..{h1 - 1} under every rung", flush=True)
    held = []
    for s in finalists:
        pt = moved(start, default, [mv[i] for i in s])
        x = values(pt, rungs, h0, h1)
        w = excess(x, lo, hi)
        j = int(np.argmax(w))
        held.append({"moves": [list(mv[i]) for i in s], "point": pt, "edits": len(pt),
                     "worst": float(w.max()), "worst_metric": names[j], "value": float(x[j]),
                     "values": {n: float(v) for n, v in zip(names, x, strict=True)}})  # fmt: skip
        print(f"  {len(s)} moves ({len(pt)} edits): worst {100 * w.max():.1f} pts out "
              f"({names[j]} {100 * x[j]:.1f} %)", flush=True)  # fmt: skip
    best = min(held, key=lambda h: (h["worst"], h["edits"]))
    (out / "holdout.json").write_text(json.dumps(held, indent=1))
    (out / "point.json").write_text(json.dumps(best["point"], indent=1, sort_keys=True))
    print(f"best on the holdout: {len(best['moves'])} moves, {best['edits']} edits, "
          f"{100 * best['worst']:.1f} pts out; {out / 'point.json'}; "
          f"{ev.games_played:,} games, {time.perf_counter() - t0:.0f} s", flush=True)  # fmt: skip
    jr.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
