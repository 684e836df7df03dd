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


def _settings_key(settings: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(settings, sort_keys=True, default=str).encode()).hexdigest()[
        :16
    ]


def train(
    *,
    game: str = "ketharmad",
    out: str | os.PathLike[str] = "models/value",
    games: int = 20_000,
    bots: Sequence[str] | str = "tuned",
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
    the games is kept out of the fit to measure calibration. Reproducible from ``seed``."""
    if game != "ketharmad":
        raise ValueError(
            f"value models are built for ketharmad only so far, not '{game}' (docs/learning.md)"
        )
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
        "card": card_hash(card_data, params),
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
