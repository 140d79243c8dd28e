"""Scoring an answer for key-point coverage.

For each rubric point the grader finds the answer span (sentence or clause) that
expresses it best and the features of that match (:mod:`interviewer.grading.evidence`),
and lets the model's calibrated scorer and the claim rules turn them into covered /
partial / missed / contradicted (:mod:`interviewer.grading.decision`). The score is the weighted mean of credits (covered 1,
partial 0.5). The answer is only ever embedded and compared: nothing in it is read as
an instruction, so asking for a score cannot earn one.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from interviewer.content.rubric import Rubric
from interviewer.content.segment import evidence_spans
from interviewer.grading.calibration import Scorer
from interviewer.grading.decision import decide
from interviewer.grading.encoders.backends import CachingEmbedder, Embedder
from interviewer.grading.evidence import Evidence, point_texts, question_profile, read_evidence
from interviewer.grading.features import AnswerText, names_own_term
from interviewer.grading.grade import Grade, PointResult
from interviewer.grading.naming import point_parts
from interviewer.grading.reasons import reason

# An answer is graded on its first 8,000 characters (a long spoken answer is 2,000-3,000):
# grading time grows faster than length (50,000 characters took 7 s), and a grade should
# come while the candidate waits. The answer itself is kept whole.
MAX_GRADED_CHARS = 8000
LONG_NOTE = f"only the first {MAX_GRADED_CHARS:,} characters were graded"
_SENTENCE_END = "。！？!?.\n"


def graded_part(answer: str) -> str:
    """The part of an answer that is graded: all of it, or its first ``MAX_GRADED_CHARS``
    characters ending at a sentence end when one is near."""
    if len(answer) <= MAX_GRADED_CHARS:
        return answer
    head = answer[:MAX_GRADED_CHARS]
    end = max(head.rfind(c) for c in _SENTENCE_END)
    return head[:end + 1] if end >= MAX_GRADED_CHARS - 500 else head


class Grader:
    """Grades answers against a rubric with one embedder and its calibrated scorer."""

    def __init__(self, embedder: Embedder, scorer: Scorer | Callable[[], Scorer]) -> None:
        """``scorer`` may be given as a function, called on the first grade: the factory
        (:mod:`interviewer.factory`) reads the calibration file only then. The grader opens
        no file itself: a disk cache comes inside a :class:`CachingEmbedder`."""
        self.embedder = embedder if isinstance(embedder, CachingEmbedder) else \
            CachingEmbedder(embedder)
        self._scorer = scorer if isinstance(scorer, Scorer) else None
        self._load_scorer = None if isinstance(scorer, Scorer) else scorer

    @property
    def model_id(self) -> str:
        return self.embedder.model_id

    @property
    def scorer(self) -> Scorer:
        if self._scorer is None:
            self._scorer = self._load_scorer()
        return self._scorer

    def warm_up(self, rubric: Rubric | None = None) -> None:
        """Load the model and encode the rubric, so the first grade is quick."""
        self.embedder.embed(["warm up"])
        if rubric is not None:
            texts = []
            for q in rubric.questions:
                texts += [q.question or question_profile(q), question_profile(q)]
                texts += [t for p in q.points for t in point_texts(p)]
                texts += [t for p in q.points for t in point_parts(p.text)]
            self.embedder.embed(texts, persist=True)
            from interviewer.grading.warm import prepare_rules

            prepare_rules(rubric)

    def prefetch(self, answers: list[str]) -> None:
        """Encode the spans of many answers in one call, so grading them hits the cache.

        The encoder streams its weights once per batch; one batch for several answers is
        cheaper than one per answer (bench/speed.py measures the batch rate).
        """
        if answers:
            parts = [graded_part(a) for a in answers]
            self.embedder.embed_answers([(a, evidence_spans(a)) for a in parts])

    def evidence(self, rubric: Rubric, question_id: str, answer: str,
                 only: Collection[str] | None = None) -> Evidence:
        """What the answer offers for each point (:mod:`interviewer.grading.evidence`)."""
        return read_evidence(self.embedder, self.scorer, rubric, question_id, answer, only)

    def grade(self, rubric: Rubric, question_id: str, answer: str,
              only: Collection[str] | None = None) -> Grade:
        """Grade an answer; ``only`` limits it to some points (a follow-up's targets)."""
        question = rubric.question(question_id)
        points = tuple(p for p in question.points if only is None or p.id in only)
        ev = self.evidence(rubric, question_id, graded_part(answer), only)
        # points a person wrote read differently from extracted ones (shorter, topics, the
        # author's own words): each kind has the scorer fitted to it
        scorer = self.scorer.for_points(hand=rubric.is_hand_edited(question_id))
        d = decide(points, ev, scorer)
        # an answer that earns something here, or names one of this question's own terms
        # ("用混合精度", which other questions' points name too), is about this question
        # whatever else it says
        earns = any(v in ("covered", "partial") for v in d.verdicts)
        if not earns:
            said = AnswerText.of(graded_part(answer))
            earns = any(names_own_term(p.text, said) for p in points)
        results = tuple(PointResult(
            point_id=point.id, text=point.text, group=point.group, weight=point.weight,
            verdict=d.verdicts[i], probability=float(d.probs[i]),
            similarity=float(ev.similarities[i]),
            evidence=d.evidence[i] if d.verdicts[i] != "missed" else None,
            also=ev.also[i] if d.verdicts[i] == "covered" and not ev.term_list
            and d.evidence[i] == ev.spans[i] else (),
            reason=d.why[i] or reason(d.verdicts[i], ev, i, scorer, earns))
            for i, point in enumerate(points))
        return Grade(question_id=question_id, answer=answer, score=d.score, points=results,
                     model_id=self.model_id,
                     calibration=scorer.source if scorer.calibrated else "uncalibrated",
                     note="; ".join(n for n in (d.note, len(answer) > MAX_GRADED_CHARS
                                                and LONG_NOTE) if n) or None)
