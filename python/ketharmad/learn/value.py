"""Fitting a value model: a small dense network trained on self-play positions with numpy
(Adam on the logistic loss), and its calibration on held-out games.

numpy is a core dependency and a network of this size (tens of inputs, two hidden layers of
tens of units, about 10^5–10^6 positions) trains in seconds to minutes on 2 cores, so no deep
learning library is needed; docs/learning.md measures it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

from .model_file import Model


@dataclass
class FitReport:
    """Loss curves (per epoch, train and held-out log-loss) and the epoch kept."""

    train_loss: list[float] = field(default_factory=list)
    holdout_loss: list[float] = field(default_factory=list)
    best_epoch: int = 0
    seconds: float = 0.0


def _log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-7, 1 - 1e-7)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def split_games(game: np.ndarray, holdout: float, seed: int) -> np.ndarray:
    """A boolean mask of the rows whose game is held out (a ``holdout`` share of the games,
    drawn by ``seed``): positions of one game never sit on both sides."""
    games = np.unique(game)
    rng = np.random.default_rng(seed)
    k = max(1, int(round(len(games) * holdout)))
    held = rng.choice(games, size=k, replace=False)
    return np.isin(game, held)


def fit(
    x: np.ndarray,
    y: np.ndarray,
    holdout_mask: np.ndarray,
    *,
    hidden: tuple[int, ...] = (64, 32),
    epochs: int = 12,
    batch: int = 512,
    lr: float = 2e-3,
    l2: float = 1e-5,
    seed: int = 0,
    meta: Optional[dict[str, str]] = None,
    progress: Optional[Callable[[int, float, float], Any]] = None,
) -> tuple[Model, FitReport]:
    """Fit a ReLU network ``x → hidden… → 1`` to the results ``y`` (0..1) by Adam on the
    logistic loss, keeping the epoch with the lowest held-out log-loss. The inputs are
    standardised inside the first layer, so the model reads raw features. ``meta`` gives the
    model's ``game``, ``kind``, ``features``, ``layout`` and ``card_hash``."""
    import time

    t0 = time.perf_counter()
    x = np.asarray(x, dtype=np.float32)
    y = np.asarray(y, dtype=np.float32)
    check_widths([x.shape[1], *hidden])
    tr, ho = ~holdout_mask, holdout_mask
    mu = x[tr].mean(axis=0)
    sd = x[tr].std(axis=0)
    sd[sd < 1e-6] = 1.0
    xs = (x - mu) / sd
    rng = np.random.default_rng(seed)
    dims = [x.shape[1], *hidden, 1]
    ws = [
        rng.normal(0, np.sqrt(2.0 / a), size=(b, a)).astype(np.float32)
        for a, b in zip(dims, dims[1:], strict=False)
    ]
    bs = [np.zeros(b, dtype=np.float32) for b in dims[1:]]
    params = ws + bs
    m: list[np.ndarray] = [np.zeros_like(p) for p in params]
    v: list[np.ndarray] = [np.zeros_like(p) for p in params]
    step = 0
    xt, yt, xh, yh = xs[tr], y[tr], xs[ho], y[ho]
    rep = FitReport()
    best_loss = np.inf
    bw: list[np.ndarray] = [w.copy() for w in ws]
    bb: list[np.ndarray] = [b.copy() for b in bs]

    def forward(a: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
        acts = [a]
        for i, (w, b) in enumerate(zip(ws, bs, strict=False)):
            a = a @ w.T + b
            if i < len(ws) - 1:
                a = np.maximum(a, 0.0)
            acts.append(a)
        return acts, a[:, 0]

    def predict(a: np.ndarray) -> np.ndarray:
        out = np.empty(len(a), dtype=np.float64)
        for i in range(0, len(a), 65536):
            z = forward(a[i : i + 65536])[1].astype(np.float64)
            out[i : i + 65536] = 1 / (1 + np.exp(-z))
        return out

    for epoch in range(epochs):
        order = rng.permutation(len(xt))
        for i in range(0, len(order), batch):
            idx = order[i : i + batch]
            acts, z = forward(xt[idx])
            p = 1 / (1 + np.exp(-z))
            g = ((p - yt[idx]) / len(idx))[:, None].astype(np.float32)
            gw: list[np.ndarray] = [np.empty(0)] * len(ws)
            gb: list[np.ndarray] = [np.empty(0)] * len(ws)
            for L in range(len(ws) - 1, -1, -1):
                gw[L] = g.T @ acts[L] + l2 * ws[L]
                gb[L] = g.sum(axis=0)
                if L > 0:
                    g = (g @ ws[L]) * (acts[L] > 0)
            grads = gw + gb
            step += 1
            for j, (pp, gg) in enumerate(zip(params, grads, strict=False)):
                m[j] = 0.9 * m[j] + 0.1 * gg
                v[j] = 0.999 * v[j] + 0.001 * gg * gg
                mh = m[j] / (1 - 0.9**step)
                vh = v[j] / (1 - 0.999**step)
                pp -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        lt = _log_loss(predict(xt[: min(len(xt), 200_000)]), yt[: min(len(xt), 200_000)])
        lh = _log_loss(predict(xh), yh) if len(xh) else lt
        rep.train_loss.append(lt)
        rep.holdout_loss.append(lh)
        if progress is not None:
            progress(epoch, lt, lh)
        if lh < best_loss:
            best_loss = lh
            bw, bb = [w.copy() for w in ws], [b.copy() for b in bs]
            rep.best_epoch = epoch
    # fold the standardisation into the first layer: w (x - mu) / sd + b = (w / sd) x + (b - w mu / sd)
    w0 = bw[0] / sd[None, :]
    b0 = bb[0] - (bw[0] * (mu / sd)[None, :]).sum(axis=1)
    layers = [(w0.astype(np.float32), b0.astype(np.float32))] + [
        (w, b) for w, b in zip(bw[1:], bb[1:], strict=False)
    ]
    meta = meta or {}
    model = Model(
        meta.get("game", ""),
        meta.get("kind", "value"),
        meta.get("features", ""),
        meta.get("layout", "0"),
        meta.get("card_hash", "0"),
        layers,
    )
    rep.seconds = time.perf_counter() - t0
    return model, rep


#: The widest layer the Rust inference takes (rust/learn/mlp.rs MAX_WIDTH).
MAX_WIDTH = 256


def check_widths(widths: list[int]) -> None:
    """Error unless every layer width is in 1..=MAX_WIDTH (before any training)."""
    bad = [w for w in widths if not 1 <= int(w) <= MAX_WIDTH]
    if bad:
        raise ValueError(
            f"layer widths must be in 1..={MAX_WIDTH} (the Rust inference's limit), got {bad}"
        )


def calibration(p: np.ndarray, y: np.ndarray, bins: int = 10) -> dict[str, Any]:
    """Log-loss, Brier score, the constant predictor's log-loss (the base rate's), and a
    reliability table (per bin of the prediction: rows, mean prediction, observed rate with a
    Wilson 95 % interval) of predictions ``p`` for results ``y``."""
    from ..stats import wilson_interval as wilson

    p = np.asarray(p, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    base = float(np.clip(y.mean(), 1e-7, 1 - 1e-7))
    rows = []
    edges = np.linspace(0, 1, bins + 1)
    which = np.clip(np.digitize(p, edges) - 1, 0, bins - 1)
    for b in range(bins):
        sel = which == b
        n = int(sel.sum())
        if n == 0:
            continue
        wins = float(y[sel].sum())
        lo, hi = wilson(int(round(wins)), n)
        rows.append(
            {
                "bin": f"{edges[b]:.1f}-{edges[b + 1]:.1f}",
                "rows": n,
                "predicted": float(p[sel].mean()),
                "observed": wins / n,
                "lo": lo,
                "hi": hi,
            }
        )
    return {
        "rows": int(len(y)),
        "log_loss": _log_loss(p, y),
        "brier": float(np.mean((p - y) ** 2)),
        "base_log_loss": _log_loss(np.full_like(y, base), y),
        "base_brier": float(np.mean((base - y) ** 2)),
        "reliability": rows,
    }
