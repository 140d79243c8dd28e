"""Agreement between grades and human labels: the numbers bench/quality.py reports.

Pure functions over arrays, so that they can be tested on hand-made cases.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np


def ranks(x: Sequence[float]) -> np.ndarray:
    """Average ranks (ties share their mean rank), 1-based."""
    x = np.asarray(x, dtype=np.float64)
    order = np.argsort(x, kind="mergesort")
    r = np.empty(len(x))
    r[order] = np.arange(1, len(x) + 1)
    for value in np.unique(x):
        tie = x == value
        if tie.sum() > 1:
            r[tie] = r[tie].mean()
    return r


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    ra, rb = ranks(a), ranks(b)
    if ra.std() == 0 or rb.std() == 0:
        return float("nan")
    return float(np.corrcoef(ra, rb)[0, 1])


def bootstrap_interval(values: Sequence[float], resamples: int = 5000,
                       seed: int = 0) -> tuple[float, float]:
    """95% interval of the mean of ``values``, resampling them with replacement (seeded)."""
    means = np.random.default_rng(seed).choice(values, (resamples, len(values))).mean(axis=1)
    return float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


def auc(scores: Sequence[float], positive: Sequence[bool]) -> float:
    """Probability that a random positive outranks a random negative (ties count half)."""
    s = np.asarray(scores, dtype=np.float64)
    y = np.asarray(positive, dtype=bool)
    pos, neg = s[y], s[~y]
    if not len(pos) or not len(neg):
        return float("nan")
    greater = (pos[:, None] > neg[None, :]).mean()
    equal = (pos[:, None] == neg[None, :]).mean()
    return float(greater + 0.5 * equal)


def f1(pred: Sequence[bool], truth: Sequence[bool]) -> float:
    p, t = np.asarray(pred, bool), np.asarray(truth, bool)
    tp = float(np.sum(p & t))
    return 0.0 if tp == 0 else 2 * tp / (float(p.sum()) + float(t.sum()))


@dataclass
class AnswerOutcome:
    answer_id: str
    kind: str
    lang: str
    score: float
    label: float  # weighted mean of the human point labels


@dataclass
class Report:
    point_f1: float
    point_auc: float
    point_spearman: float
    answer_spearman: float
    answer_mae: float
    n_points: int
    n_answers: int
    by_kind: dict[str, tuple[int, float, float]] = field(default_factory=dict)  # n, score, label


def report(credits: np.ndarray, probabilities: np.ndarray, labels: np.ndarray,
           answers: list[AnswerOutcome]) -> Report:
    """Point metrics over all labeled points, answer metrics over answers."""
    labels = np.asarray(labels, dtype=np.float64)
    probabilities = np.asarray(probabilities, dtype=np.float64)
    decided = labels != 0.5
    by_kind: dict[str, tuple[int, float, float]] = {}
    for kind in sorted({a.kind for a in answers}):
        group = [a for a in answers if a.kind == kind]
        by_kind[kind] = (len(group), float(np.mean([a.score for a in group])),
                         float(np.mean([a.label for a in group])))
    return Report(
        point_f1=f1(np.asarray(credits) >= 1.0, labels >= 1.0),
        point_auc=auc(probabilities[decided], labels[decided] >= 1.0),
        point_spearman=spearman(probabilities, labels),
        answer_spearman=spearman([a.score for a in answers], [a.label for a in answers]),
        answer_mae=float(np.mean([abs(a.score - a.label) for a in answers])),
        n_points=int(len(labels)), n_answers=len(answers), by_kind=by_kind)
