"""``ketharmad.learn.train``: record self-play positions, fit a value model, report its
calibration on held-out games, and write the model with its report. Each stage's result is
kept in the output directory and reused when the run is repeated with the same settings, so
an interrupted run resumes where it stopped."""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

from ..game.data import CardDataSource
from ..game.spec import spec_of
from . import model_file
from .positions import card_hash, positions
from .value import calibration, fit, split_games


@dataclass
class TrainResult:
    """Where the model is, its calibration on held-out games, the loss curves, and costs."""

    model_path: str
    report_path: str
    calibration: dict[str, Any]
    train_loss: list[float]
    holdout_loss: list[float]
    rows: int
    seconds: dict[str, float] = field(default_factory=dict)
    resumed: list[str] = field(default_factory=list)

    def summary(self) -> str:
        c = self.calibration
        return (
            f"value model {self.model_path}: {self.rows} positions; held-out log-loss {c['log_loss']:.4f} "
            f"(base rate {c['base_log_loss']:.4f}), Brier {c['brier']:.4f} (base {c['base_brier']:.4f})"
        )


def reliability_plot(cal: Mapping[str, Any], path: str, title: str = "") -> Optional[str]:
    """A reliability plot of a calibration (``value.calibration``): the observed win rate with
    its 95 % interval against the mean prediction, per bin, and the diagonal. Written to
    ``path`` when matplotlib (the ``plot`` extra) is installed; returns the path or None."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    rows = cal["reliability"]
    fig, ax = plt.subplots(figsize=(4.5, 4.5))
    ax.plot([0, 1], [0, 1], color="#999", lw=1, ls="--", label="perfect")
    px = [r["predicted"] for r in rows]
    py = [r["observed"] for r in rows]
    err = [[r["observed"] - r["lo"] for r in rows], [r["hi"] - r["observed"] for r in rows]]
    ax.errorbar(px, py, yerr=err, fmt="o-", ms=4, capsize=2, label="held-out positions")
    ax.set_xlabel("predicted win chance")
    ax.set_ylabel("observed win rate")
    ax.set_title(
        f"{title}\nlog-loss {cal['log_loss']:.3f} (base {cal['base_log_loss']:.3f}), Brier {cal['brier']:.3f}",
        fontsize=9,
    )
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _settings_key(settings: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(settings, sort_keys=True, default=str).encode()).hexdigest()[
        :16
    ]


def train_value(
    *,
    game: str = "ketharmad",
    out: str | os.PathLike[str] = "models/value",
    games: int = 20_000,
    bots: Sequence[str] | str | None = None,
    seats: Sequence[int] = (2,),
    rate: float = 0.25,
    seed: int = 0,
    card_data: CardDataSource = None,
    params: Optional[Mapping[str, Any]] = None,
    hidden: Sequence[int] = (64, 32),
    epochs: int = 12,
    holdout: float = 0.1,
    threads: Optional[int] = None,
    progress: bool = False,
) -> TrainResult:
    """Train a value model for ``game`` into directory ``out`` (``value.khnn``,
    ``positions.npz``, ``report.json``). ``games`` self-play games of ``bots`` per entry of
    ``seats`` are recorded at a ``rate`` sample of the key decisions; a ``holdout`` share of
    the games is kept out of the fit to measure calibration (``reliability.png`` too when
    matplotlib is installed). ``bots`` default: ``tuned`` (Kétharmad), else the game's search
    rollout bot. Reproducible from ``seed``."""
    spec = spec_of(game)
    if bots is None:
        bots = "tuned" if spec.is_ketharmad else str(spec.info.get("search_rollout", "random"))
    if not 0 < holdout < 1:
        raise ValueError(f"holdout must be in (0, 1), got {holdout}")
    d = os.fspath(out)
    os.makedirs(d, exist_ok=True)
    settings = {
        "game": game,
        "games": games,
        "bots": bots,
        "seats": list(seats),
        "rate": rate,
        "seed": seed,
        "card": card_hash(card_data, params) if spec.is_ketharmad else "0",
        "params": {k: str(v) for k, v in sorted((params or {}).items())},
    }
    key = _settings_key(settings)
    secs: dict[str, float] = {}
    resumed: list[str] = []
    pos_path = os.path.join(d, "positions.npz")
    t = time.perf_counter()
    data = None
    if os.path.exists(pos_path):
        with np.load(pos_path, allow_pickle=False) as z:
            if str(z["key"]) == key:
                data = {k: z[k] for k in z.files}
                resumed.append("positions")
    if data is None:
        parts = [
            positions(
                game=game,
                bots=bots,
                games=games,
                seed=seed,
                rate=rate,
                seats=s,
                card_data=card_data,
                params=params,
                threads=threads,
            )
            for s in seats
        ]
        offset, gs = 0, []
        for p in parts:
            gs.append(p["game"].astype(np.int64) + offset)
            offset += int(p["game"].max()) + 1 if len(p["game"]) else 0
        data = {
            "x": np.concatenate([p["x"] for p in parts]),
            "y": np.concatenate([p["y"] for p in parts]),
            "game": np.concatenate(gs),
            "names": np.array(parts[0]["names"]),
            "layout": np.array(parts[0]["layout"]),
            "layout_hash": np.array(parts[0]["layout_hash"]),
            "key": np.array(key),
        }
        np.savez(pos_path + ".tmp.npz", **data)
        os.replace(pos_path + ".tmp.npz", pos_path)
    secs["positions"] = time.perf_counter() - t
    held = split_games(data["game"], holdout, seed)
    meta = {
        "game": game,
        "kind": "value",
        "features": str(data["layout"]),
        "layout": str(data["layout_hash"]),
        "card_hash": str(settings["card"]),
    }

    def show(e: int, lt: float, lh: float) -> None:
        if progress:
            print(f"epoch {e + 1}/{epochs}: train log-loss {lt:.4f}, held-out {lh:.4f}", flush=True)

    t = time.perf_counter()
    model, rep = fit(
        data["x"],
        data["y"],
        held,
        hidden=tuple(hidden),
        epochs=epochs,
        seed=seed,
        meta=meta,
        progress=show,
    )
    secs["fit"] = time.perf_counter() - t
    model_path = os.path.join(d, "value.khnn")
    model_file.save(model, model_path)
    cal = calibration(model.win_chance(data["x"][held]), data["y"][held])
    report = {
        "settings": settings,
        "rows": int(len(data["y"])),
        "holdout_rows": int(held.sum()),
        "dims": model.dims,
        "train_loss": rep.train_loss,
        "holdout_loss": rep.holdout_loss,
        "best_epoch": rep.best_epoch,
        "calibration": cal,
        "seconds": secs,
        "model_bytes": os.path.getsize(model_path),
    }
    report_path = os.path.join(d, "report.json")
    with open(report_path, "w") as f:
        json.dump(report, f, indent=1)
    reliability_plot(
        cal, os.path.join(d, "reliability.png"), title=f"{game} value model, held-out games"
    )
    return TrainResult(
        model_path,
        report_path,
        cal,
        rep.train_loss,
        rep.holdout_loss,
        int(len(data["y"])),
        secs,
        resumed,
    )


@dataclass
class PolicyTrainResult:
    """Where the last generation's policy is, and per generation: decisions labelled, the
    held-out agreement with the teacher, and the win rate against the heuristic."""

    model_path: str
    report_path: str
    generations: list[dict[str, Any]]
    resumed: list[str] = field(default_factory=list)

    def summary(self) -> str:
        g = self.generations[-1]
        return (
            f"policy {self.model_path}: generation {g['generation']}, {g['decisions']} labelled decisions in all, "
            f"held-out agreement with the teacher {g['agreement']:.1%}, "
            f"against the heuristic {g['vs_heuristic']:.1%} of {g['eval_games']} games"
        )


TEACHER = "ismcts:iterations=225,halving=1,width=6"


def _vs_heuristic(
    model_path: str,
    games: int,
    seed: int,
    card_data: CardDataSource,
    params: Optional[Mapping[str, Any]],
) -> float:
    """The learned bot's share of points against the heuristic over all 12 ordered pairs, both seats."""
    from ..api import simulate
    from .positions import pairings

    pts, n = 0.0, 0
    per = max(1, games // 24)
    bot = {"kind": "learned", "model": model_path}
    for decks in pairings(2):
        for seat in (0, 1):
            bots: list[Any] = [bot, "heuristic"] if seat == 0 else ["heuristic", bot]
            r = simulate(
                decks,
                bots,
                games=per,
                seed=seed,
                card_data=card_data,
                params=dict(params or {}) or None,
            )
            w = r.games["winner"].to_numpy()
            pts += float((w == seat).sum()) + 0.5 * float((w < 0).sum())
            n += per
    return pts / n


def _vs_baseline_roles(
    game: str, model_path: str, baseline: str, games: int, seed: int
) -> dict[str, float]:
    """A two-sided harness game: the learned bot's win rate in each role against ``baseline``,
    and the baseline's own win rate in each role against itself (what it must beat)."""
    from ..results.sim import SimResult
    from ..run.harness import simulate_game

    me = f"learned:model={model_path}"
    per = max(1, games // 2)

    def rate(bots: list[str], seat: int) -> float:
        r = simulate_game(game, bots=bots, games=per, seed=seed)
        assert isinstance(r, SimResult)  # output="rows"
        w = r.games["winner"].to_numpy()
        return (float((w == seat).sum()) + 0.5 * float((w < 0).sum())) / per

    base0 = rate([baseline, baseline], 0)
    return {
        "seat0": rate([me, baseline], 0),
        "seat1": rate([baseline, me], 1),
        "baseline_seat0": base0,
        "baseline_seat1": 1.0 - base0,
    }


def train_policy(
    *,
    game: str = "ketharmad",
    out: str | os.PathLike[str] = "models/policy",
    generations: int = 2,
    games: int = 720,
    teacher: Optional[str] = None,
    rate: float = 1.0,
    seed: int = 0,
    card_data: CardDataSource = None,
    params: Optional[Mapping[str, Any]] = None,
    hidden: Sequence[int] = (64, 32),
    epochs: int = 10,
    holdout: float = 0.1,
    eval_games: int = 2016,
    threads: Optional[int] = None,
    progress: bool = False,
) -> PolicyTrainResult:
    """Train Kétharmad's fast policy by expert iteration into directory ``out``: generation
    0 plays ``tuned`` and labels each main-priority decision with the ``teacher``'s choice;
    generation ``k`` plays the policy of generation ``k - 1`` (DAgger: its own positions,
    the teacher's answers); each generation fits a policy on every label so far
    (``policy_gK.khnn``, ``policy.khnn`` the last) and plays ``eval_games`` games against the
    heuristic. A finished generation is kept and skipped when the run is repeated (resume).

    ``game="schotten_totten_2"`` (any harness game with features): the teacher defaults to
    the game's ``search``, generation 0 plays the game's search rollout bot (``greedy``), the
    policy plays as ``learned:model=PATH`` and each generation plays ``eval_games`` games
    against that bot in each role."""
    from .policy import fit_policy
    from .positions import choices

    ketharmad = spec_of(game).is_ketharmad
    info_row = spec_of(game).info
    if teacher is None:
        teacher = TEACHER if ketharmad else "search"
    baseline = "tuned" if ketharmad else str(info_row.get("search_rollout", "random"))
    d = os.fspath(out)
    os.makedirs(d, exist_ok=True)
    settings = {
        "game": game,
        "games": games,
        "teacher": teacher,
        "rate": rate,
        "seed": seed,
        "card": card_hash(card_data, params) if ketharmad else "0",
        "params": {k: str(v) for k, v in sorted((params or {}).items())},
        "hidden": list(hidden),
        "epochs": epochs,
        "holdout": holdout,
        "eval_games": eval_games,
    }
    key = _settings_key(settings)
    report_path = os.path.join(d, "report.json")
    gens: list[dict[str, Any]] = []
    resumed: list[str] = []
    data: list[dict[str, np.ndarray]] = []
    model_path = ""
    for g in range(generations):
        gpath = os.path.join(d, f"choices_g{g}.npz")
        mpath = os.path.join(d, f"policy_g{g}.khnn")
        jpath = os.path.join(d, f"generation_g{g}.json")
        done = None
        if os.path.exists(gpath) and os.path.exists(mpath) and os.path.exists(jpath):
            with open(jpath) as f:
                done = json.load(f)
            if done.get("key") != key:
                done = None
        if done is not None:
            with np.load(gpath, allow_pickle=False) as z:
                data.append({k: z[k] for k in z.files})
            gens.append(done)
            resumed.append(f"generation {g}")
            model_path = mpath
            continue
        t = time.perf_counter()
        player = baseline if g == 0 else f"learned:model={model_path}"
        c = choices(
            game=game,
            bots=player,
            teachers=teacher,
            games=games,
            seed=seed + 1000 * g,
            rate=rate,
            card_data=card_data if ketharmad else None,
            params=params,
            threads=threads,
        )
        part = {
            k: np.asarray(c[k])
            for k in (
                "x",
                "opt_x",
                "offsets",
                "choice",
                "y",
                "game",
                "names",
                "layout",
                "layout_hash",
            )
        }
        part["game"] = part["game"].astype(np.int64) + g * 10**9
        np.savez(gpath + ".tmp.npz", **part)  # type: ignore[arg-type]
        os.replace(gpath + ".tmp.npz", gpath)
        data.append(part)
        t_label = time.perf_counter() - t
        # every generation's labels together
        xs = np.concatenate([p["x"] for p in data])
        ox = np.concatenate([p["opt_x"] for p in data])
        offs, base = [np.zeros(1, dtype=np.int64)], 0
        for p in data:
            offs.append(p["offsets"][1:].astype(np.int64) + base)
            base += int(p["offsets"][-1])
        offsets = np.concatenate(offs)
        choice = np.concatenate([p["choice"] for p in data])
        held = split_games(np.concatenate([p["game"] for p in data]), holdout, seed)
        meta = {
            "game": game,
            "features": f"{c['layout']}+{c['opt_layout']}",
            "layout": str(c["layout_hash"]),
            "card_hash": str(settings["card"]),
        }

        def show(e: int, lt: float, lh: float, ah: float, g: int = g) -> None:
            if progress:
                print(
                    f"generation {g} epoch {e + 1}/{epochs}: train {lt:.4f}, held-out {lh:.4f}, agreement {ah:.1%}",
                    flush=True,
                )

        t = time.perf_counter()
        model, rep = fit_policy(
            xs,
            offsets,
            ox,
            choice,
            held,
            hidden=tuple(hidden),
            epochs=epochs,
            seed=seed + g,
            meta=meta,
            progress=show,
        )
        t_fit = time.perf_counter() - t
        model_file.save(model, mpath)
        t = time.perf_counter()
        roles: dict[str, float] = {}
        if eval_games <= 0:
            vs = float("nan")
        elif ketharmad:
            vs = _vs_heuristic(mpath, eval_games, seed + 7, card_data, params)
        else:
            roles = _vs_baseline_roles(game, mpath, baseline, eval_games, seed + 7)
            vs = (roles["seat0"] + roles["seat1"]) / 2
        info = {
            "key": key,
            "generation": g,
            "player": player,
            "decisions": int(len(choice)),
            "new_decisions": int(len(part["choice"])),
            "agreement": rep.holdout_agreement[rep.best_epoch],
            "holdout_loss": rep.holdout_loss,
            "train_loss": rep.train_loss,
            # Kétharmad: against the heuristic; a harness game: against its rollout bot, the
            # mean of both roles (each role's rate in "roles", with the bot's own against itself)
            "vs_heuristic": vs,
            "roles": roles,
            # the generation's rating against the heuristic's (Elo scale: 400 log10(p / (1 - p)))
            "elo_over_heuristic": 400 * float(np.log10(vs / (1 - vs)))
            if 0 < vs < 1
            else float("nan"),
            "eval_games": (eval_games // 24) * 24 if ketharmad else 2 * max(1, eval_games // 2),
            "seconds": {"label": t_label, "fit": t_fit, "eval": time.perf_counter() - t},
        }
        with open(jpath, "w") as f:
            json.dump(info, f, indent=1)
        gens.append(info)
        model_path = mpath
        if progress:
            print(
                f"generation {g}: {info['decisions']} decisions, agreement {info['agreement']:.1%}, vs heuristic {vs:.1%}",
                flush=True,
            )
    final = os.path.join(d, "policy.khnn")
    with open(model_path, "rb") as src, open(final + ".tmp", "wb") as dst:
        dst.write(src.read())
    os.replace(final + ".tmp", final)
    with open(report_path, "w") as f:
        json.dump(
            {"settings": settings, "generations": gens, "model_bytes": os.path.getsize(final)},
            f,
            indent=1,
        )
    return PolicyTrainResult(final, report_path, gens, resumed)


@dataclass
class TrainAllResult:
    """``train``'s two stages: the value model's result and the policy's."""

    value: TrainResult
    policy: PolicyTrainResult

    def summary(self) -> str:
        return self.value.summary() + "\n" + self.policy.summary()


def train(
    *,
    game: str = "ketharmad",
    out: str | os.PathLike[str] = "models",
    value_games: int = 24_000,
    policy_games: int = 720,
    generations: int = 3,
    teacher: Optional[str] = None,
    rate: float = 1.0,
    seed: int = 1,
    card_data: CardDataSource = None,
    params: Optional[Mapping[str, Any]] = None,
) -> TrainAllResult:
    """Train ``game``'s learned bots into directory ``out``: a value model on ``value_games``
    self-play games (``out/value``, :func:`ketharmad.learn.train_value`; one hidden layer of
    16: the search evaluates it at every cut rollout, so it is kept cheap), then a policy by
    expert iteration, ``generations`` generations of ``policy_games`` games labelled by
    ``teacher`` (default: the game's strongest affordable search) at a ``rate`` sample of the
    decisions (``out/policy``, :func:`ketharmad.learn.train_policy`). Reproducible from
    ``seed``; a repeated call resumes where the last one stopped. The defaults are the shipped
    Kétharmad run (``scripts/train_models.py``): about ten minutes on 2 cores. The stage
    functions take the rest (threads, progress, network sizes)."""
    return _train_both(
        game,
        out,
        value_games,
        policy_games,
        generations,
        teacher,
        rate,
        seed,
        card_data,
        params,
        False,
    )


def _train_both(
    game: str,
    out: str | os.PathLike[str],
    value_games: int,
    policy_games: int,
    generations: int,
    teacher: Optional[str],
    rate: float,
    seed: int,
    card_data: CardDataSource,
    params: Optional[Mapping[str, Any]],
    progress: bool,
) -> TrainAllResult:
    """``train`` with progress lines (the CLI)."""
    d = os.fspath(out)
    v = train_value(game=game, out=os.path.join(d, "value"), games=value_games, seed=seed, epochs=8, hidden=(16,),
                    card_data=card_data, params=params, progress=progress)  # fmt: skip
    if progress:
        print(v.summary(), flush=True)
    p = train_policy(game=game, out=os.path.join(d, "policy"), generations=generations, games=policy_games, teacher=teacher,
                     rate=rate, seed=seed, card_data=card_data, params=params, progress=progress)  # fmt: skip
    if progress:
        print(p.summary(), flush=True)
    return TrainAllResult(v, p)
