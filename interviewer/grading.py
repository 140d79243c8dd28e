"""Scoring an answer for key-point coverage.

For each rubric point the grader finds the answer span (sentence or clause) that
expresses it best, computes evidence features for that match
(:mod:`interviewer.features`), and lets the model's calibrated scorer turn them into
covered / partial / missed. The score is the weighted mean of credits (covered 1,
partial 0.5). The answer is only ever embedded and compared: nothing in it is read as
an instruction, so asking for a score cannot earn one.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from interviewer.calibration import Scorer, scorer_for
from interviewer.embedding import CachingEmbedder, Embedder
from interviewer.features import (
    FEATURES,
    AnswerText,
    feature_row,
    is_cross_lingual,
    lexical_recall,
)
from interviewer.grades import Grade, PointResult
from interviewer.rubric import Point, QuestionRubric, Rubric
from interviewer.textseg import evidence_spans

BARE_NAME_RATIO = 0.5  # evidence under half the point's length: a name, not an explanation
RESTATING_SHARE = 0.3  # ... and an answer with this share of such spans mostly restates it


@dataclass(frozen=True)
class Evidence:
    """Per point of one question: feature rows, best span and its similarity."""

    rows: np.ndarray
    spans: list[str | None]
    similarities: np.ndarray
    restating: float = 0.0  # share of the answer's spans that say the question again


def point_texts(point: Point) -> list[str]:
    """The point and its aliases; a match with any of them counts."""
    return [point.text, *point.keywords]


def question_profile(q: QuestionRubric) -> str:
    """A question's content as one text: its points joined (used to spot off-topic answers)."""
    return "；".join(p.text for p in q.points)


class Grader:
    """Grades answers against a rubric with one embedder and its calibrated scorer."""

    def __init__(self, embedder: Embedder, scorer: Scorer | None = None,
                 calibration_file: Path | None = None, cache_dir: Path | None = None) -> None:
        if not isinstance(embedder, CachingEmbedder):
            disk = None
            if cache_dir is not None:
                from interviewer.embed_cache import DiskCache

                disk = DiskCache(cache_dir / "embeddings.sqlite")
            embedder = CachingEmbedder(embedder, disk=disk)
        self.embedder = embedder
        self._scorer = scorer
        self._calibration_file = calibration_file

    @property
    def model_id(self) -> str:
        return self.embedder.model_id

    @property
    def scorer(self) -> Scorer:
        if self._scorer is None:
            self._scorer = scorer_for(self.model_id, self._calibration_file)
        return self._scorer

    def warm_up(self, rubric: Rubric | None = None) -> None:
        """Load the model and encode the rubric, so the first grade is quick."""
        self.embedder.embed(["warm up"])
        if rubric is not None:
            texts = []
            for q in rubric.questions:
                texts += [q.question or question_profile(q), question_profile(q)]
                texts += [t for p in q.points for t in point_texts(p)]
            self.embedder.embed(texts, persist=True)

    def prefetch(self, answers: list[str]) -> None:
        """Encode the spans of many answers in one call, so grading them hits the cache.

        The encoder streams its weights once per batch; one batch for several answers is
        cheaper than one per answer (bench/speed.py measures the batch rate).
        """
        if answers:
            self.embedder.embed_answers([(a, evidence_spans(a)) for a in answers])

    def evidence(self, rubric: Rubric, question_id: str, answer: str,
                 only: Collection[str] | None = None) -> Evidence:
        question = rubric.question(question_id)
        points = tuple(p for p in question.points if only is None or p.id in only)
        spans = evidence_spans(answer)
        if not spans:
            return Evidence(np.zeros((len(points), 0)), [None] * len(points), np.zeros(len(points)))
        siblings = [q for q in rubric.questions if q.id != question_id]
        alias_lists = [point_texts(p) for p in points]
        fixed = [t for texts in alias_lists for t in texts] + [question.question or question_profile(question),
                                                               question_profile(question)]
        fixed += [question_profile(q) for q in siblings]
        # rubric texts come from the caches (memory, then disk); only the answer is encoded
        vectors = np.vstack([self.embedder.embed(fixed, persist=True),
                             self.embedder.embed_answers([(answer, spans)])[0]])
        n_alias = sum(len(t) for t in alias_lists)
        alias_vecs = vectors[:n_alias]
        q_vec, own_vec = vectors[n_alias], vectors[n_alias + 1]
        sib_vecs = vectors[n_alias + 2:n_alias + 2 + len(siblings)]
        span_vecs = vectors[n_alias + 2 + len(siblings):-1]
        answer_vec = vectors[-1]

        alias_sims = alias_vecs @ span_vecs.T
        sims = np.empty((len(points), len(spans)))
        point_vecs = np.empty((len(points), vectors.shape[1]))
        start = 0
        for i, texts in enumerate(alias_lists):
            sims[i] = alias_sims[start:start + len(texts)].max(axis=0)
            point_vecs[i] = alias_vecs[start]
            start += len(texts)

        off = float(answer_vec @ own_vec - (sib_vecs @ answer_vec).max()) if siblings else 0.0
        restating = float(np.mean(span_vecs @ q_vec >= self.scorer.cutoff("parrot_similarity")))
        prepared = AnswerText.of(answer)
        rows, best_spans, best_sims = [], [], []
        for i, point in enumerate(points):
            j = int(sims[i].argmax())
            e = float(sims[i, j])
            others = np.delete(sims[:, j], i)
            lexes = [v for v in (lexical_recall(t, prepared) for t in alias_lists[i]) if v is not None]
            rows.append(feature_row(
                e=e, lex=max(lexes) if lexes else None, evidence_len=len(spans[j]),
                point_len=len(point.text), off=off, seg_question=float(span_vecs[j] @ q_vec),
                second=float(others.max()) if others.size else 0.0,
                point_question=float(point_vecs[i] @ q_vec),
                cross=is_cross_lingual(point.text, prepared)))
            best_spans.append(spans[j])
            best_sims.append(e)
        return Evidence(np.vstack(rows), best_spans, np.asarray(best_sims), restating)

    def grade(self, rubric: Rubric, question_id: str, answer: str,
              only: Collection[str] | None = None) -> Grade:
        """Grade an answer; ``only`` limits it to some points (a follow-up's targets)."""
        question = rubric.question(question_id)
        points = tuple(p for p in question.points if only is None or p.id in only)
        ev = self.evidence(rubric, question_id, answer, only)
        scorer = self.scorer
        if ev.rows.shape[1] == 0:
            probs = np.zeros(len(points))
        else:
            probs = scorer.probability(ev.rows)
        results = []
        for i, point in enumerate(points):
            p = float(probs[i])
            verdict = scorer.verdict(p) if ev.spans[i] is not None else "missed"
            results.append(PointResult(
                point_id=point.id, text=point.text, group=point.group, weight=point.weight,
                verdict=verdict, probability=p, similarity=float(ev.similarities[i]),
                evidence=ev.spans[i] if verdict != "missed" else None,
                reason=_reason(verdict, point, ev, i, scorer)))
        total = sum(p.weight for p in points)
        score = sum(r.weight * r.credit for r in results) / total if total else 0.0
        return Grade(question_id=question_id, answer=answer, score=score, points=tuple(results),
                     model_id=self.model_id,
                     calibration=scorer.source if scorer.calibrated else "uncalibrated")


def _reason(verdict: str, point: Point, ev: Evidence, i: int, scorer: Scorer) -> str:
    """Why the verdict, in words a candidate can act on."""
    span = ev.spans[i]
    if span is None:
        return "the answer is empty"
    row = dict(zip(FEATURES, ev.rows[i]))
    if verdict == "covered":
        return "stated in your answer"
    if verdict == "partial":
        if row["short"] < BARE_NAME_RATIO:
            return "named, but not explained: say what it does or why it matters"
        return "touched on, but vague or incomplete"
    if ev.restating >= RESTATING_SHARE:
        return "not found: much of the answer restates the question"
    if row["off"] < scorer.cutoff("off_topic_margin"):
        return "not found: your answer seems to address a different question"
    return "not found in your answer"
