"""Fitting a model's similarity cut-offs from labeled answers.

The grader flags a span as "the question said again" above a similarity to the question,
and an answer as "about another question" below a margin. Encoders spread similarities
differently (e5 puts nearly every pair above 0.7), so ``interviewer calibrate`` fits both
for each model from the labeled answers, placing them where they sit for the default model
on ``bench/data/labeled-dev.jsonl`` (which set the shipped 0.8 and -0.05):

- the parrot cut-off as far beyond the 99th percentile of genuine answer spans' similarity
  to their question, measured from the median, as 0.8 is for the default model: 1.26 times
  that spread (median 0.116, 99th percentile 0.661);
- the cross-lingual parrot cut-off (a span in the other language than its question) the same
  way from the cross-lingual spans alone: for the default model median 0.079, 99th percentile
  0.415, cut-off 0.50 (the English restatements of Chinese questions measured 0.53-0.78);
- the off-topic margin at the same quantile of answers as -0.05 is for the default model
  (the 22nd percentile).
"""

from __future__ import annotations

import numpy as np

from interviewer.grading.features import FEATURES

PARROT_SPREAD = 1.26  # (0.8 - 0.116) / (0.661 - 0.116) for the default model
OFF_TOPIC_QUANTILE = 0.22  # share of labeled answers under -0.05 for the default model
MAX_PARROT = 0.99


def cutoff_samples(evidence: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Similarity of every span of every labeled answer to its question (same language, and
    other language), and each answer's off-topic feature, from the grader's evidence."""
    sims, cross = [], []
    for ev in evidence:
        flags = ev.question_cross if len(ev.question_cross) == len(ev.question_similarity) \
            else np.zeros(len(ev.question_similarity), dtype=bool)
        for v, other in zip(ev.question_similarity, flags):
            (cross if other else sims).append(float(v))
    offs = [float(ev.rows[0, FEATURES.index("off")]) for ev in evidence
            if ev.rows.shape[0] and ev.rows.shape[1]]
    return np.asarray(sims), np.asarray(offs), np.asarray(cross)


def _parrot(span_sims: np.ndarray) -> float:
    median, q99 = np.quantile(span_sims, [0.5, 0.99])
    return round(float(min(MAX_PARROT, median + PARROT_SPREAD * (q99 - median))), 4)


def fit_cutoffs(span_sims: np.ndarray, offs: np.ndarray,
                cross_sims: np.ndarray | None = None) -> dict[str, float]:
    """Cut-offs for a model from its samples (see the module's docstring); {} without data."""
    out: dict[str, float] = {}
    if span_sims.size >= 20:
        out["parrot_similarity"] = _parrot(span_sims)
    if cross_sims is not None and cross_sims.size >= 20:
        out["parrot_similarity_cross"] = _parrot(cross_sims)
    if offs.size >= 20:
        out["off_topic_margin"] = round(float(min(0.0, np.quantile(offs, OFF_TOPIC_QUANTILE))), 4)
    return out
