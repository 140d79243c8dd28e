"""A small network that reads a point's whole row, for points a person wrote.

The logistic scorer sees one cosine per point: how close the evidence is, not what it says
differently. The head also sees the vectors: the point and its evidence multiplied and
subtracted dimension by dimension, and the point multiplied by the whole answer
(:func:`interviewer.grading.features.pair_features`). Fitted on answers labeled against the
authors' own points of many public banks, it learns which directions of the encoder's space
a confident wrong answer moves along, which no single similarity can show. One hidden layer
of rectified units, its weights in a ``.npz`` file beside the calibration that names it;
numpy only, at grading time and when fitting (``bench/hand_scorer.py --head``). A head
may hold several such networks, fitted from different seeds, and says what they say on
average: one network's verdicts on a bank it never saw move with its seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

_KEYS = ("mean", "scale", "w1", "b1", "w2", "b2", "thresholds")


@dataclass(frozen=True, eq=False)
class Head:
    """``p = mean over members of sigmoid(w2 · relu(w1 · (x - mean) / scale + b1) + b2)``
    over a whole row, and its own thresholds for covered and partial. The weights carry the
    members on their first axis; one member may be given without it."""

    mean: np.ndarray
    scale: np.ndarray
    w1: np.ndarray  # (members, columns, hidden)
    b1: np.ndarray  # (members, hidden)
    w2: np.ndarray  # (members, hidden)
    b2: np.ndarray  # (members,)
    covered: float = 0.5
    partial: float = 0.5

    def __post_init__(self) -> None:
        w1 = np.asarray(self.w1, dtype=np.float64)
        if w1.ndim == 2:  # one member
            object.__setattr__(self, "w1", w1[None])
            object.__setattr__(self, "b1", np.asarray(self.b1, dtype=np.float64)[None])
            object.__setattr__(self, "w2", np.asarray(self.w2, dtype=np.float64)[None])
        object.__setattr__(self, "b2", np.asarray(self.b2, dtype=np.float64).reshape(-1))
        # the members side by side: one product of matrices for all of them
        k, d, h = self.w1.shape
        object.__setattr__(self, "_wide", self.w1.transpose(1, 0, 2).reshape(d, k * h))

    @property
    def members(self) -> int:
        return int(self.w1.shape[0])

    @property
    def width(self) -> int:
        """How many columns a row must have: the features and the pair features."""
        return int(self.mean.shape[0])

    def probability(self, rows: np.ndarray) -> np.ndarray:
        rows = np.atleast_2d(np.asarray(rows, dtype=np.float64))
        if rows.shape[1] != self.width:
            raise ValueError(f"the head reads rows of {self.width} columns, not {rows.shape[1]}: "
                             "it was fitted for another encoder")
        x = (rows - self.mean) / self.scale
        k, _, h = self.w1.shape
        hidden = np.maximum(x @ self._wide + self.b1.reshape(-1), 0.0).reshape(len(x), k, h)
        z = (hidden * self.w2).sum(axis=2) + self.b2
        return (1.0 / (1.0 + np.exp(-z))).mean(axis=1)

    def save(self, path: Path) -> None:
        arrays = {k: np.asarray(getattr(self, k), dtype=np.float32) for k in _KEYS[:-1]}
        arrays["thresholds"] = np.array([self.covered, self.partial], dtype=np.float64)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez_compressed(tmp, **arrays)
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path) -> Head:
        """The head stored at ``path``; ``ValueError`` when it is missing or malformed."""
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {k: np.asarray(data[k], dtype=np.float64) for k in _KEYS}
        except (OSError, KeyError, ValueError) as exc:
            raise ValueError(f"cannot read the scorer's head {path.name}: {exc}") from None
        k, d, h = arrays["w1"].shape if arrays["w1"].ndim == 3 else (0, 0, 0)
        if not d or arrays["mean"].shape != (d,) or arrays["scale"].shape != (d,) \
                or arrays["b1"].shape != (k, h) or arrays["w2"].shape != (k, h) \
                or arrays["b2"].shape != (k,) or arrays["thresholds"].shape != (2,) \
                or not all(np.isfinite(a).all() for a in arrays.values()):
            raise ValueError(f"the scorer's head {path.name} has arrays of the wrong shape")
        covered, partial = (float(t) for t in arrays["thresholds"])
        return cls(arrays["mean"], arrays["scale"], arrays["w1"], arrays["b1"], arrays["w2"],
                   arrays["b2"], covered, partial)


def fit_head(rows: np.ndarray, labels: np.ndarray, *, hidden: int = 32, epochs: int = 20,
             dropout: float = 0.2, weight_decay: float = 0.05, rate: float = 1e-3,
             batch: int = 256, seed: int = 0, members: int = 1) -> Head:
    """Fit a head to soft labels (1, 0.5, 0) by AdamW on the logistic loss, dropping each
    input column with probability ``dropout`` while fitting (the rows have far more columns
    than a bank has points: without it the head learns the banks it saw). Its thresholds
    are fitted after, on the same rows (:func:`~interviewer.grading.calibration.fit_thresholds`
    is the caller's: this module knows nothing of verdicts)."""
    rows = np.asarray(rows, dtype=np.float64)
    labels = np.asarray(labels, dtype=np.float64)
    if rows.ndim != 2 or len(rows) != len(labels) or len(rows) < 2:
        raise ValueError("need at least two labeled rows")
    mean = rows.mean(axis=0)
    scale = rows.std(axis=0)
    scale[scale < 1e-9] = 1.0
    x_all = (rows - mean) / scale
    fitted = [_fit_member(x_all, labels, np.random.default_rng(seed + m), hidden=hidden,
                          epochs=epochs, dropout=dropout, weight_decay=weight_decay, rate=rate,
                          batch=batch) for m in range(members)]
    return Head(mean, scale, *(np.stack(arrays) for arrays in zip(*fitted)))


def _fit_member(x_all: np.ndarray, labels: np.ndarray, rng: np.random.Generator, *,
                hidden: int, epochs: int, dropout: float, weight_decay: float, rate: float,
                batch: int) -> tuple[np.ndarray, ...]:
    """One network's ``(w1, b1, w2, b2)`` on standardized rows."""
    n, d = x_all.shape
    bound1, bound2 = 1.0 / np.sqrt(d), 1.0 / np.sqrt(hidden)
    params = [rng.uniform(-bound1, bound1, (d, hidden)), rng.uniform(-bound1, bound1, hidden),
              rng.uniform(-bound2, bound2, hidden), rng.uniform(-bound2, bound2, 1)]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    beta1, beta2, eps, step = 0.9, 0.999, 1e-8, 0
    for _ in range(epochs):
        order = rng.permutation(n)
        for start in range(0, n, batch):
            idx = order[start:start + batch]
            x, y = x_all[idx], labels[idx]
            if dropout:
                x = x * (rng.random(x.shape) >= dropout) / (1.0 - dropout)
            w1, b1, w2, b2 = params
            pre = x @ w1 + b1
            h = np.maximum(pre, 0.0)
            z = h @ w2 + b2[0]
            dz = (1.0 / (1.0 + np.exp(-z)) - y) / len(idx)
            dh = np.outer(dz, w2) * (pre > 0)
            grads = [x.T @ dh, dh.sum(axis=0), h.T @ dz, np.array([dz.sum()])]
            step += 1
            for p, g, m, v in zip(params, grads, first, second):
                p *= 1.0 - rate * weight_decay
                m *= beta1
                m += (1 - beta1) * g
                v *= beta2
                v += (1 - beta2) * g * g
                p -= rate * (m / (1 - beta1 ** step)) / (np.sqrt(v / (1 - beta2 ** step)) + eps)
    w1, b1, w2, b2 = params
    return w1, b1, w2, b2[0]
