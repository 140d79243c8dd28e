"""Per-model verdict thresholds, and fitting them from labeled answers.

Cosine similarities mean different things for different encoders, so the thresholds
that turn a similarity into covered / partial / missed belong to a model id. Shipped
calibrations live in ``interviewer/calibration.json``; ``interviewer calibrate`` writes
the user's own to ``<data dir>/calibration.json``, which wins.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from interviewer.errors import ConfigError

SHIPPED = Path(__file__).with_name("calibration.json")


@dataclass(frozen=True)
class Thresholds:
    covered: float
    partial: float
    source: str = "uncalibrated"

    def verdict(self, similarity: float) -> str:
        if similarity >= self.covered:
            return "covered"
        if similarity >= self.partial:
            return "partial"
        return "missed"


# Used for a model nobody has calibrated; the UI says so.
UNCALIBRATED = Thresholds(covered=0.70, partial=0.50, source="uncalibrated")
CREDIT = {"covered": 1.0, "partial": 0.5, "missed": 0.0}


def _read(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise ConfigError(f"calibration file is unreadable: {exc}", path=path,
                          hint="delete it or run 'interviewer calibrate' again") from None
    return data if isinstance(data, dict) else {}


def thresholds_for(model_id: str, user_file: Path | None = None) -> Thresholds:
    for path in (user_file, SHIPPED):
        if path is None:
            continue
        entry = _read(path).get(model_id)
        if isinstance(entry, dict) and {"covered", "partial"} <= entry.keys():
            return Thresholds(float(entry["covered"]), float(entry["partial"]),
                              source=str(entry.get("source", path.name)))
    return UNCALIBRATED


def save_thresholds(model_id: str, thresholds: Thresholds, path: Path, **extra: object) -> None:
    data = _read(path)
    data[model_id] = {**asdict(thresholds), **extra}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)


@dataclass(frozen=True)
class Fit:
    thresholds: Thresholds
    mae: float  # mean |credit - label| over points
    covered_f1: float  # "covered" against label 1
    n: int


def _f1(pred: np.ndarray, truth: np.ndarray) -> float:
    tp = float(np.sum(pred & truth))
    if tp == 0:
        return 0.0
    precision = tp / float(np.sum(pred))
    recall = tp / float(np.sum(truth))
    return 2 * precision * recall / (precision + recall)


def fit_thresholds(similarities: np.ndarray, labels: np.ndarray, source: str) -> Fit:
    """Thresholds that make verdict credits closest to human labels (1 / 0.5 / 0).

    Grid search: minimise mean absolute error of the credit, break ties by the F1 of
    "covered" against label 1. Exhaustive over a 0.01 grid, which is cheap and has no
    local optima to fall into.
    """
    sims = np.asarray(similarities, dtype=np.float64)
    labels = np.asarray(labels, dtype=np.float64)
    if sims.size == 0 or sims.size != labels.size:
        raise ValueError("need as many similarities as labels, at least one")
    grid = np.round(np.arange(0.0, 1.0001, 0.01), 2)
    truth = labels >= 1.0
    best: tuple[float, float, float, float] | None = None
    for hi in grid:
        covered = sims >= hi
        for lo in grid[grid <= hi]:
            credit = np.where(covered, 1.0, np.where(sims >= lo, 0.5, 0.0))
            mae = float(np.mean(np.abs(credit - labels)))
            f1 = _f1(covered, truth)
            key = (round(mae, 6), -f1)
            if best is None or key < (round(best[0], 6), -best[1]):
                best = (mae, f1, float(hi), float(lo))
    mae, f1, hi, lo = best  # type: ignore[misc]
    return Fit(Thresholds(covered=hi, partial=lo, source=source), mae, f1, int(sims.size))
