"""Per-model scorers: how evidence features become covered / partial / missed.

Similarities mean different things for different encoders, so each model id has its own
scorer: a logistic model over the features of :mod:`interviewer.grading.features`, fitted to human
labels, and two probability thresholds. Shipped scorers live in
``interviewer/grading/calibration.json``; ``interviewer calibrate`` writes the user's own to
``<data dir>/calibration.json``, which wins. A model nobody calibrated falls back to
thresholds on similarity alone, and the UI says so.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from interviewer.errors import ConfigError
from interviewer.grading.evaluation import f1
from interviewer.grading.features import FEATURES
from interviewer.grading.head import Head
from interviewer.grading.encoders.names import SHIPPED_CALIBRATION, normalise_model_id

SHIPPED = SHIPPED_CALIBRATION

# Similarity cut-offs the grader uses besides the verdict thresholds. What a similarity means
# depends on the encoder, so they are part of each model's calibration; these values were
# tuned for the default model and are what a model without its own uses.
DEFAULT_CUTOFFS = {
    "parrot_similarity": 0.8,  # a span this close to the question is the question said again
    # ... when the span is in the other language than the question (cross-lingual
    # similarities run lower; fitted like the one above, on the dev files' cross-lingual spans)
    "parrot_similarity_cross": 0.5,
    "off_topic_margin": -0.05,  # the answer this much closer to another question: off topic
}


@dataclass(frozen=True)
class Scorer:
    """``p = sigmoid(w · (x - mean) / scale + bias)``; verdict by two thresholds on ``p``."""

    covered: float
    partial: float
    weights: tuple[float, ...] = ()
    mean: tuple[float, ...] = ()
    scale: tuple[float, ...] = ()
    bias: float = 0.0
    features: tuple[str, ...] = FEATURES
    source: str = "uncalibrated"
    metrics: dict = field(default_factory=dict, compare=False)
    cutoffs: dict = field(default_factory=dict, compare=False)
    # the scorer for questions whose points a person wrote, when one was fitted for them
    hand: Scorer | None = None
    # a network over the whole row that replaces the logistic model, and its file's name
    head: Head | None = field(default=None, compare=False)
    head_file: str = ""

    @property
    def calibrated(self) -> bool:
        return bool(self.weights)

    def for_points(self, hand: bool) -> Scorer:
        """The scorer for a question's points: written by a person (``hand``) or extracted."""
        return self.hand if hand and self.hand is not None else self

    @property
    def closeness(self) -> Scorer:
        """The logistic model alone. It reads how close a span's words are to a point, which
        is what says whether a span that contradicts the point is about it at all; a head
        reads the contradiction itself, and would hide it as 'missed'."""
        return self if self.head is None else replace(self, head=None, head_file="")

    def cutoff(self, name: str) -> float:
        """A similarity cut-off fitted for this model, or the default model's value."""
        return float(self.cutoffs.get(name, DEFAULT_CUTOFFS[name]))

    def probability(self, rows: np.ndarray) -> np.ndarray:
        """Probability-like evidence per row; uncalibrated scorers use similarity itself."""
        rows = np.atleast_2d(rows)
        if not self.calibrated:
            return rows[:, FEATURES.index("e")]
        if self.head is not None:
            return self.head.probability(rows)
        x = rows[:, [FEATURES.index(f) for f in self.features]]
        z = (x - np.asarray(self.mean)) / np.asarray(self.scale) @ np.asarray(self.weights)
        return 1.0 / (1.0 + np.exp(-(z + self.bias)))

    def verdict(self, p: float) -> str:
        covered, partial = (self.covered, self.partial) if self.head is None else \
            (self.head.covered, self.head.partial)
        if p >= covered:
            return "covered"
        if p >= partial:
            return "partial"
        return "missed"

    def to_dict(self) -> dict:
        return {"covered": self.covered, "partial": self.partial, "weights": list(self.weights),
                "mean": list(self.mean), "scale": list(self.scale), "bias": self.bias,
                "features": list(self.features), "source": self.source, "metrics": self.metrics,
                "cutoffs": dict(self.cutoffs),
                **({"head": self.head_file} if self.head_file else {}),
                **({"hand": self.hand.to_dict()} if self.hand is not None else {})}

    @classmethod
    def from_dict(cls, data: dict, folder: Path | None = None) -> Scorer:
        """A scorer from its saved form; a head is read from ``folder``, where the
        calibration file that names it is."""
        features = tuple(data.get("features") or FEATURES)
        unknown = set(features) - set(FEATURES)
        if unknown:
            raise ValueError(f"unknown features {sorted(unknown)}; run 'interviewer calibrate' again")
        if data.get("weights") and len(data["weights"]) != len(features):
            raise ValueError("weights and features differ in length")
        hand = data.get("hand")
        if hand is not None and not isinstance(hand, dict):
            raise ValueError("'hand' must be a scorer")
        head_file = data.get("head") or ""
        if head_file and (not isinstance(head_file, str) or Path(head_file).name != head_file
                          or folder is None):
            raise ValueError("'head' must be the name of a file beside the calibration file")
        return cls(covered=float(data["covered"]), partial=float(data["partial"]),
                   weights=tuple(map(float, data.get("weights") or ())),
                   mean=tuple(map(float, data.get("mean") or ())),
                   scale=tuple(map(float, data.get("scale") or ())),
                   bias=float(data.get("bias", 0.0)), features=features,
                   source=str(data.get("source", "")), metrics=dict(data.get("metrics") or {}),
                   cutoffs={k: float(v) for k, v in (data.get("cutoffs") or {}).items()
                            if k in DEFAULT_CUTOFFS},
                   hand=cls.from_dict(hand, folder) if hand is not None else None,
                   head=Head.load(folder / head_file) if head_file else None,
                   head_file=head_file)


# Similarity-only thresholds for a model nobody has calibrated.
UNCALIBRATED = Scorer(covered=0.70, partial=0.50, source="uncalibrated")


def _read(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise ConfigError(f"calibration file is unreadable: {exc}", path=path,
                          hint="delete it or run 'interviewer calibrate' again") from None
    return data if isinstance(data, dict) else {}


def _entry(data: dict, model_id: str) -> object:
    """The entry for ``model_id``, also when saved under a served model's full URL."""
    if model_id in data:
        return data[model_id]
    for key, entry in data.items():
        if normalise_model_id(key) == model_id:
            return entry
    return None


def scorer_for(model_id: str, user_file: Path | None = None) -> Scorer:
    model_id = normalise_model_id(model_id)
    for path in (user_file, SHIPPED):
        if path is None:
            continue
        entry = _entry(_read(path), model_id)
        if isinstance(entry, dict):
            try:
                return Scorer.from_dict(entry, path.parent)
            except (KeyError, TypeError, ValueError) as exc:
                raise ConfigError(f"calibration for '{model_id}' is invalid: {exc}",
                                  path=path, hint="mend or delete the entry, or run "
                                  "'interviewer calibrate' again") from None
    return UNCALIBRATED


def save_scorer(model_id: str, scorer: Scorer, path: Path) -> None:
    data = _read(path)
    model_id = normalise_model_id(model_id)
    for key in [k for k in data if k != model_id and normalise_model_id(k) == model_id]:
        del data[key]  # the same model saved under another spelling of its URL
    data[model_id] = scorer.to_dict()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)


# ---------------------------------------------------------------- fitting


def standardizer(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Column means and scales for ``(x - mean) / scale``; a constant column keeps scale 1."""
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    return x.mean(axis=0), scale


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 1e-3,
                 iterations: int = 50) -> tuple[np.ndarray, float]:
    """Logistic regression on soft targets (0, 0.5, 1) by Newton's method, L2 on weights.

    Soft targets let a 0.5 label pull the probability towards the middle instead of being
    dropped or forced to a side. Newton converges in a handful of steps on a few features.
    """
    n, d = x.shape
    xb = np.hstack([x, np.ones((n, 1))])
    w = np.zeros(d + 1)
    reg = np.full(d + 1, 2 * l2 * n)
    reg[-1] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(xb @ w)))
        grad = xb.T @ (p - y) + reg * w
        hess = (xb * (p * (1 - p))[:, None]).T @ xb + np.diag(reg) + 1e-9 * np.eye(d + 1)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return w[:-1], float(w[-1])


def fit_thresholds(p: np.ndarray, labels: np.ndarray) -> tuple[float, float]:
    """The (covered, partial) thresholds whose credits are closest to the labels.

    Exhaustive over a 0.01 grid: minimise mean |credit - label|, ties broken by the F1 of
    "covered" against label 1. Cheap, and it has no local optima to fall into.
    """
    grid = np.round(np.arange(0.01, 1.0, 0.01), 2)
    truth = labels >= 1.0
    best: tuple[float, float, float, float] | None = None
    for hi in grid:
        covered = p >= hi
        covered_f1 = f1(covered, truth)
        for lo in grid[grid <= hi]:
            credit = np.where(covered, 1.0, np.where(p >= lo, 0.5, 0.0))
            mae = round(float(np.mean(np.abs(credit - labels))), 9)
            if best is None or (mae, -covered_f1) < (best[0], -best[1]):
                best = (mae, covered_f1, float(hi), float(lo))
    assert best is not None
    return best[2], best[3]


def fit_scorer(rows: np.ndarray, labels: np.ndarray, source: str,
               features: tuple[str, ...] = FEATURES) -> Scorer:
    """Fit a scorer from full feature rows and human labels (1 / 0.5 / 0), using ``features``."""
    rows = np.asarray(rows, dtype=np.float64)
    labels = np.asarray(labels, dtype=np.float64)
    if rows.ndim != 2 or len(rows) != len(labels) or len(rows) < 2:
        raise ValueError("need at least two labeled points")
    x = rows[:, [FEATURES.index(f) for f in features]]
    mean, scale = standardizer(x)
    weights, bias = fit_logistic((x - mean) / scale, labels)
    draft = Scorer(covered=0.5, partial=0.5, weights=tuple(weights), mean=tuple(mean),
                   scale=tuple(scale), bias=bias, features=features, source=source)
    p = draft.probability(rows)
    covered, partial = fit_thresholds(p, labels)
    credit = np.where(p >= covered, 1.0, np.where(p >= partial, 0.5, 0.0))
    metrics = {"n_points": int(len(labels)),
               "point_mae": round(float(np.mean(np.abs(credit - labels))), 4),
               "covered_f1": round(f1(p >= covered, labels >= 1.0), 4)}
    return Scorer(covered=covered, partial=partial, weights=tuple(map(float, weights)),
                  mean=tuple(map(float, mean)), scale=tuple(map(float, scale)), bias=bias,
                  features=features, source=source, metrics=metrics)
