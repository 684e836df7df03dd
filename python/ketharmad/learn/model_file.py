"""The model file format (``.khnn``), shared with the Rust reader (``rust/learn/mlp.rs``).

``KHNN0001``, a little-endian ``u32`` header length, a UTF-8 header of ``key=value`` lines
(``game``, ``kind``, ``features``, ``layout``, ``card_hash``, ``dims``, ``activation``), then
the weights as little-endian ``float32``, layer by layer: each layer's matrix (outputs ×
inputs, row-major), then its bias.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass, field

import numpy as np

MAGIC = b"KHNN0001"


@dataclass
class Model:
    """A dense ReLU network with one output (a logit), and what it was trained for."""

    game: str
    kind: str
    features: str
    layout: str
    card_hash: str
    layers: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)

    @property
    def dims(self) -> list[int]:
        return [self.layers[0][0].shape[1]] + [w.shape[0] for w, _ in self.layers]

    def logit(self, x: np.ndarray) -> np.ndarray:
        """The network's logits for rows ``x`` (float32 arithmetic, as in Rust)."""
        a = np.asarray(x, dtype=np.float32)
        for i, (w, b) in enumerate(self.layers):
            a = a @ w.T + b
            if i < len(self.layers) - 1:
                a = np.maximum(a, 0.0)
        return a[:, 0]

    def win_chance(self, x: np.ndarray) -> np.ndarray:
        """The predicted chance that the seat of each row wins."""
        return 1.0 / (1.0 + np.exp(-self.logit(x).astype(np.float64)))


def save(model: Model, path: str | os.PathLike[str]) -> None:
    """Write ``model`` to ``path`` (atomically: a half-written file never replaces a good one)."""
    header = (
        f"game={model.game}\nkind={model.kind}\nfeatures={model.features}\nlayout={model.layout}\n"
        f"card_hash={model.card_hash}\ndims={','.join(str(d) for d in model.dims)}\nactivation=relu\n"
    ).encode()
    body = b"".join(
        np.ascontiguousarray(w, dtype="<f4").tobytes()
        + np.ascontiguousarray(b, dtype="<f4").tobytes()
        for w, b in model.layers
    )
    tmp = f"{os.fspath(path)}.tmp"
    with open(tmp, "wb") as f:
        f.write(MAGIC + struct.pack("<I", len(header)) + header + body)
    os.replace(tmp, path)


def load(path: str | os.PathLike[str]) -> Model:
    """Read a model file; a missing, truncated or foreign file is a ``ValueError`` naming it."""
    p = os.fspath(path)
    try:
        with open(p, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ValueError(f"model file '{p}': {e.strerror or e}") from None
    if len(data) < 12 or data[:8] != MAGIC:
        raise ValueError(
            f"model file '{p}': not a ketharmad model (it does not start with KHNN0001)"
        )
    (hl,) = struct.unpack("<I", data[8:12])
    if len(data) < 12 + hl:
        raise ValueError(f"model file '{p}': truncated in its header")
    try:
        kv = dict(
            line.split("=", 1) for line in data[12 : 12 + hl].decode().splitlines() if line.strip()
        )
    except (UnicodeDecodeError, ValueError):
        raise ValueError(f"model file '{p}': its header is not key=value lines") from None
    for k in ("game", "kind", "features", "layout", "card_hash", "dims", "activation"):
        if k not in kv:
            raise ValueError(f"model file '{p}': its header has no '{k}'")
    try:
        dims = [int(d) for d in kv["dims"].split(",")]
    except ValueError:
        raise ValueError(f"model file '{p}': header 'dims' is not a list of widths") from None
    if len(dims) < 2 or dims[-1] != 1 or min(dims) < 1:
        raise ValueError(
            f"model file '{p}': header 'dims' {dims} must be 2 or more widths ending in 1"
        )
    need = sum(a * b + b for a, b in zip(dims, dims[1:], strict=False))
    if len(data) - 12 - hl != need * 4:
        raise ValueError(
            f"model file '{p}': holds {len(data) - 12 - hl} weight bytes, its dims {dims} need {need * 4} (truncated or corrupt)"
        )
    w = np.frombuffer(data[12 + hl :], dtype="<f4")
    layers, off = [], 0
    for a, b in zip(dims, dims[1:], strict=False):
        layers.append(
            (
                w[off : off + a * b].reshape(b, a).astype(np.float32),
                w[off + a * b : off + a * b + b].astype(np.float32),
            )
        )
        off += a * b + b
    return Model(kv["game"], kv["kind"], kv["features"], kv["layout"], kv["card_hash"], layers)
