"""From evidence to verdicts: the scorer's probabilities, then the claim rules on top.

The rules are the product's promises about a grade: a contradiction never covers a point,
naming is not explaining, one short clause states one claim, and an answer that is only a
list of names scores at most ``TERM_LIST_CAP``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from interviewer.content.rubric import Point
from interviewer.grading.calibration import Scorer
from interviewer.grading.claims import is_bare
from interviewer.grading.evidence import A_CONFLICT, Evidence
from interviewer.grading.features import FEATURES, AnswerText, names_own_term
from interviewer.grading.grade import CREDIT

TERM_LIST_CAP = 0.25  # an answer that only names things scores at most this
ONE_CLAIM_CHARS = 40  # a clause this short states one thing: it covers one point, unless
# the other points' own terms are in it too


@dataclass
class Decision:
    """Per point: verdict, quoted evidence, a reason when a rule set it; the answer's score."""

    probs: np.ndarray
    verdicts: list[str]
    evidence: list[str | None]
    why: list[str]
    score: float
    note: str | None

    @property
    def credits(self) -> np.ndarray:
        return np.array([CREDIT[v] for v in self.verdicts])


def decide(points: Sequence[Point], ev: Evidence, scorer: Scorer) -> Decision:
    """Verdicts from the scorer's probabilities, then the claim rules on top of them.

    - a point whose closest spans contradict it (:mod:`interviewer.grading.claims`) and that the
      answer does not also state elsewhere is ``contradicted`` (credit 0);
    - a bare name, or any point of an answer that is only a list of names, is at most partial;
      a point that is only a name is at least partial when a bare name names it;
    - a short clause covers one point, unless the others' own terms are in it too;
    - an answer that is only a list of names scores at most ``TERM_LIST_CAP``.
    """
    n = len(points)
    probs = scorer.probability(ev.rows) if ev.rows.shape[1] else np.zeros(n)
    verdicts = [scorer.verdict(float(probs[i]))
                if ev.spans[i] is not None and i not in ev.unsupported else "missed"
                for i in range(n)]
    evidence, why = list(ev.spans), [""] * n
    closeness = scorer.closeness
    for i, conflict in enumerate(ev.conflicts):
        if conflict is None or verdicts[i] == "covered":
            continue
        span, row, kind = conflict
        if closeness.verdict(float(closeness.probability(_unmarked(row))[0])) != "missed":
            # the answer's closest words to the point say otherwise
            verdicts[i], evidence[i], why[i] = "contradicted", span, CONTRADICTION[kind]
    for i in range(n):
        # a bare name states a point that is only a name, inside an answer that says
        # something; it does not state a claim, and a list of names states nothing
        bare = ev.term_list or (evidence[i] is not None and is_bare(evidence[i])
                                and not is_bare(points[i].text))
        if verdicts[i] == "covered" and bare:
            verdicts[i], why[i] = "partial", NAMED
        elif verdicts[i] == "missed" and i in ev.named:
            # only named: what the labeling rule gives a name (混合精度 for 混合精度训练)
            verdicts[i], why[i] = "partial", NAMED
    _one_claim_per_clause(points, verdicts, evidence, why, probs)
    total = sum(p.weight for p in points)
    score = sum(p.weight * CREDIT[v] for p, v in zip(points, verdicts)) / total if total else 0.0
    note = None
    if ev.term_list and score > TERM_LIST_CAP:
        score, note = TERM_LIST_CAP, TERM_LIST_NOTE
    return Decision(probs, verdicts, evidence, why, score, note)


_MARKS = [FEATURES.index("denies"), FEATURES.index("stance"), A_CONFLICT]


def _unmarked(row: np.ndarray) -> np.ndarray:
    """A span's row without its denials and stance words, nor how much of the answer
    contradicts its points: whether the span is about the point closely enough to
    contradict it is asked of its words, not of how it says them (which is what the
    contradiction is)."""
    out = np.array(row, dtype=np.float64, copy=True)
    out[..., _MARKS] = 0.0
    return out


NAMED = "named, but not explained: say what it does or why it matters"
TERM_LIST_NOTE = (f"only a list of terms: at most {TERM_LIST_CAP:.0%}; say what each one does "
                  "or why it matters")
CONTRADICTION = {
    "negated": "contradicted: your answer denies this",
    "reversed": "contradicted: your answer says the opposite direction",
    "swapped": "contradicted: your answer names something else in its place",
    "narrowed": "contradicted: your answer limits to one of them what holds for several",
    "widened": "contradicted: your answer says of several what holds for only one",
    "number": "contradicted: your answer gives another number",
    "roles": "contradicted: your answer says of one of them what holds for another",
}


def _one_claim_per_clause(points, verdicts: list[str], evidence: list[str | None],
                          why: list[str], probs: np.ndarray) -> None:
    """A short clause covers one point, unless the others' own terms are in it too.

    "DeepSpeed是一个训练框架" states one thing; it does not also cover "DeepSpeed-Chat：RLHF
    训练框架" because the two sit close in embedding space.
    """
    by_span: dict[str, list[int]] = {}
    for i, span in enumerate(evidence):
        if verdicts[i] == "covered" and span is not None and len(span) <= ONE_CLAIM_CHARS:
            by_span.setdefault(span, []).append(i)
    for span, members in by_span.items():
        if len(members) < 2:
            continue
        prepared = AnswerText.of(span)
        keep = max(members, key=lambda i: probs[i])
        for i in members:
            if i != keep and not names_own_term(points[i].text, prepared):
                verdicts[i], why[i] = "partial", ("touched on: the clause that comes closest "
                                                  "states another point")
