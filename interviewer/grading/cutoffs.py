"""Fitting a model's similarity cut-offs from labeled answers.

The grader flags a span as "the question said again" above a similarity to the question,
and an answer as "about another question" below a margin. Encoders spread similarities
differently (e5 puts nearly every pair above 0.7), so ``interviewer calibrate`` fits both
for each model from the labeled answers, placing them where they sit for the default model
on ``bench/data/labeled-dev.jsonl`` (which set the shipped 0.8 and -0.05):

- the parrot cut-off as far beyond the 99th percentile of genuine answer spans' similarity
  to their question, measured from the median, as 0.8 is for the default model: 1.26 times
  that spread (median 0.116, 99th percentile 0.661);
- the off-topic margin at the same quantile of answers as -0.05 is for the default model
  (the 22nd percentile).
"""

from __future__ import annotations

import numpy as np

from interviewer.grading.features import FEATURES

PARROT_SPREAD = 1.26  # (0.8 - 0.116) / (0.661 - 0.116) for the default model
OFF_TOPIC_QUANTILE = 0.22  # share of labeled answers under -0.05 for the default model
MAX_PARROT = 0.99


def cutoff_samples(evidence: list) -> tuple[np.ndarray, np.ndarray]:
    """Similarity of every span of every labeled answer to its question, and each answer's
    off-topic feature, from the grader's evidence for those answers."""
    sims = [float(v) for ev in evidence for v in ev.question_similarity]
    offs = [float(ev.rows[0, FEATURES.index("off")]) for ev in evidence
            if ev.rows.shape[0] and ev.rows.shape[1]]
    return np.asarray(sims), np.asarray(offs)


def fit_cutoffs(span_sims: np.ndarray, offs: np.ndarray) -> dict[str, float]:
    """Cut-offs for a model from its samples (see the module's docstring); {} without data."""
    out: dict[str, float] = {}
    if span_sims.size >= 20:
        median, q99 = np.quantile(span_sims, [0.5, 0.99])
        out["parrot_similarity"] = round(float(min(MAX_PARROT,
                                                   median + PARROT_SPREAD * (q99 - median))), 4)
    if offs.size >= 20:
        out["off_topic_margin"] = round(float(min(0.0, np.quantile(offs, OFF_TOPIC_QUANTILE))), 4)
    return out
