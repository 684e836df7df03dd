"""Fitting a policy model: the same dense network as the value model, scoring each option of
a decision from the position's features followed by the option's, trained with numpy (Adam)
on the softmax cross-entropy of each decision's options against the teacher's choice."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

from .model_file import Model
from .value import check_widths


@dataclass
class PolicyReport:
    """Per epoch: training and held-out cross-entropy, held-out agreement with the teacher."""

    train_loss: list[float] = field(default_factory=list)
    holdout_loss: list[float] = field(default_factory=list)
    holdout_agreement: list[float] = field(default_factory=list)
    best_epoch: int = 0
    seconds: float = 0.0


def _rows(offsets: np.ndarray, decisions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The option rows of ``decisions`` and, for each row, its position in the list of those decisions."""
    sizes = (offsets[decisions + 1] - offsets[decisions]).astype(np.int64)
    group = np.repeat(np.arange(len(decisions)), sizes)
    starts = np.repeat(
        offsets[decisions].astype(np.int64) - np.concatenate([[0], np.cumsum(sizes)[:-1]]), sizes
    )
    return starts + np.arange(sizes.sum()), group


def fit_policy(
    x: np.ndarray,
    offsets: np.ndarray,
    opt_x: np.ndarray,
    choice: np.ndarray,
    holdout_mask: np.ndarray,
    *,
    hidden: tuple[int, ...] = (64, 32),
    epochs: int = 10,
    batch: int = 256,
    lr: float = 2e-3,
    l2: float = 1e-5,
    seed: int = 0,
    meta: Optional[dict[str, str]] = None,
    progress: Optional[Callable[[int, float, float, float], Any]] = None,
) -> tuple[Model, PolicyReport]:
    """Fit a network ``[position, option] → hidden… → 1`` whose softmax over each
    decision's options predicts the teacher's ``choice``; the epoch with the lowest held-out
    cross-entropy is kept. ``x``: decisions × position features; ``opt_x``: options ×
    option features, decision ``d``'s rows ``offsets[d]:offsets[d + 1]``."""
    t0 = time.perf_counter()
    x = np.asarray(x, dtype=np.float32)
    opt_x = np.asarray(opt_x, dtype=np.float32)
    offsets = np.asarray(offsets, dtype=np.int64)
    choice = np.asarray(choice, dtype=np.int64)
    check_widths([x.shape[1] + opt_x.shape[1], *hidden])
    tr = np.flatnonzero(~holdout_mask)
    ho = np.flatnonzero(holdout_mask)
    # standardise position and option features on the training rows (folded into layer 1 later)
    rows_tr, group_tr = _rows(offsets, tr)
    full_tr = np.concatenate([x[tr][group_tr], opt_x[rows_tr]], axis=1)
    mu = full_tr.mean(axis=0)
    sd = full_tr.std(axis=0)
    sd[sd < 1e-6] = 1.0
    del full_tr
    rng = np.random.default_rng(seed)
    dims = [x.shape[1] + opt_x.shape[1], *hidden, 1]
    ws = [
        rng.normal(0, np.sqrt(2.0 / a), size=(b, a)).astype(np.float32)
        for a, b in zip(dims, dims[1:], strict=False)
    ]
    bs = [np.zeros(b, dtype=np.float32) for b in dims[1:]]
    params = ws + bs
    m: list[np.ndarray] = [np.zeros_like(p) for p in params]
    v: list[np.ndarray] = [np.zeros_like(p) for p in params]
    step = 0

    def inputs(ds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rows, group = _rows(offsets, ds)
        a = (np.concatenate([x[ds][group], opt_x[rows]], axis=1) - mu) / sd
        return a.astype(np.float32), group

    def forward(a: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
        acts = [a]
        for i, (w, b) in enumerate(zip(ws, bs, strict=True)):
            a = a @ w.T + b
            if i < len(ws) - 1:
                a = np.maximum(a, 0.0)
            acts.append(a)
        return acts, a[:, 0]

    def softmax(z: np.ndarray, group: np.ndarray, k: int) -> np.ndarray:
        zmax = np.full(k, -np.inf)
        np.maximum.at(zmax, group, z)
        e = np.exp(z - zmax[group])
        tot = np.zeros(k)
        np.add.at(tot, group, e)
        return e / tot[group]

    def evaluate(ds: np.ndarray) -> tuple[float, float]:
        if len(ds) == 0:
            return float("nan"), float("nan")
        loss, agree = 0.0, 0
        for i in range(0, len(ds), 4096):
            part = ds[i : i + 4096]
            a, group = inputs(part)
            z = forward(a)[1].astype(np.float64)
            p = softmax(z, group, len(part))
            first = np.concatenate([[0], np.cumsum(offsets[part + 1] - offsets[part])[:-1]])
            loss -= float(np.log(np.clip(p[first + choice[part]], 1e-12, 1)).sum())
            zmax = np.full(len(part), -np.inf)
            np.maximum.at(zmax, group, z)
            agree += int((z[first + choice[part]] >= zmax).sum())
        return loss / len(ds), agree / len(ds)

    rep = PolicyReport()
    best_loss = np.inf
    bw = [w.copy() for w in ws]
    bb = [b.copy() for b in bs]
    for epoch in range(epochs):
        order = rng.permutation(tr)
        for i in range(0, len(order), batch):
            ds = order[i : i + batch]
            a, group = inputs(ds)
            acts, z = forward(a)
            p = softmax(z.astype(np.float64), group, len(ds))
            first = np.concatenate([[0], np.cumsum(offsets[ds + 1] - offsets[ds])[:-1]])
            g = p.copy()
            g[first + choice[ds]] -= 1.0
            g = (g / len(ds))[:, None].astype(np.float32)
            gw: list[np.ndarray] = [np.empty(0)] * len(ws)
            gb: list[np.ndarray] = [np.empty(0)] * len(ws)
            for L in range(len(ws) - 1, -1, -1):
                gw[L] = g.T @ acts[L] + l2 * ws[L]
                gb[L] = g.sum(axis=0)
                if L > 0:
                    g = (g @ ws[L]) * (acts[L] > 0)
            step += 1
            for j, (pp, gg) in enumerate(zip(params, gw + gb, strict=True)):
                m[j] = 0.9 * m[j] + 0.1 * gg
                v[j] = 0.999 * v[j] + 0.001 * gg * gg
                pp -= (
                    lr * (m[j] / (1 - 0.9**step)) / (np.sqrt(v[j] / (1 - 0.999**step)) + 1e-8)
                ).astype(np.float32)
        lt, _ = evaluate(tr[: min(len(tr), 50_000)])
        lh, ah = evaluate(ho)
        rep.train_loss.append(lt)
        rep.holdout_loss.append(lh)
        rep.holdout_agreement.append(ah)
        if progress is not None:
            progress(epoch, lt, lh, ah)
        if (
            not lh >= best_loss
        ):  # with nothing held out (nan) every epoch replaces the last: the last is kept
            best_loss = lh if lh == lh else best_loss
            bw, bb = [w.copy() for w in ws], [b.copy() for b in bs]
            rep.best_epoch = epoch
    w0 = bw[0] / sd[None, :]
    b0 = bb[0] - (bw[0] * (mu / sd)[None, :]).sum(axis=1)
    layers = [(w0.astype(np.float32), b0.astype(np.float32))] + list(
        zip(bw[1:], bb[1:], strict=True)
    )
    meta = meta or {}
    model = Model(
        meta.get("game", ""),
        "policy",
        meta.get("features", ""),
        meta.get("layout", "0"),
        meta.get("card_hash", "0"),
        layers,
    )
    rep.seconds = time.perf_counter() - t0
    return model, rep
