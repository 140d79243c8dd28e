"""Scoring an answer for key-point coverage.

Each rubric point is compared with every segment of the answer (sentences and clauses);
the best match is the point's evidence, and the model's calibrated thresholds turn its
similarity into covered / partial / missed. The score is the weighted mean of credits
(covered 1, partial 0.5). Nothing in the answer is ever read as an instruction: the
text only ever meets a dot product.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from interviewer.calibration import CREDIT, Thresholds, thresholds_for
from interviewer.embedding import CachingEmbedder, Embedder
from interviewer.rubric import Point, QuestionRubric
from interviewer.textseg import segments

VERDICTS = ("covered", "partial", "missed")


@dataclass(frozen=True)
class PointResult:
    point_id: str
    text: str
    group: str | None
    weight: float
    verdict: str
    similarity: float
    evidence: str | None
    reason: str

    @property
    def credit(self) -> float:
        return CREDIT[self.verdict]


@dataclass(frozen=True)
class Grade:
    question_id: str
    answer: str
    score: float
    points: tuple[PointResult, ...]
    model_id: str
    thresholds: Thresholds

    def to_dict(self, item_id: object = None) -> dict:
        out: dict = {} if item_id is None else {"id": item_id}
        out.update({
            "question_id": self.question_id,
            "score": round(self.score, 4),
            "points": [{"id": p.point_id, "verdict": p.verdict, "score": p.credit,
                        "similarity": round(p.similarity, 4), "evidence": p.evidence}
                       for p in self.points],
        })
        return out


def point_text(point: Point) -> str:
    """What is embedded for a point: its text (the group label is display-only)."""
    return point.text


def similarity_matrix(embedder: Embedder, points: tuple[Point, ...],
                      segs: list[str]) -> np.ndarray:
    """Cosine similarities, points × segments (vectors are unit length)."""
    if not segs:
        return np.zeros((len(points), 0), dtype=np.float32)
    vectors = embedder.embed([point_text(p) for p in points] + segs)
    return vectors[: len(points)] @ vectors[len(points):].T


def best_matches(embedder: Embedder, rubric: QuestionRubric,
                 answer: str) -> list[tuple[float, str | None]]:
    """For each point: (best similarity, the segment that achieved it)."""
    segs = segments(answer)
    sims = similarity_matrix(embedder, rubric.points, segs)
    if sims.shape[1] == 0:
        return [(0.0, None) for _ in rubric.points]
    idx = sims.argmax(axis=1)
    return [(float(sims[i, j]), segs[j]) for i, j in enumerate(idx)]


class Grader:
    """Grades answers against question rubrics with one embedder and its thresholds."""

    def __init__(self, embedder: Embedder, thresholds: Thresholds | None = None,
                 calibration_file: Path | None = None) -> None:
        self.embedder = embedder if isinstance(embedder, CachingEmbedder) else CachingEmbedder(embedder)
        self._thresholds = thresholds
        self._calibration_file = calibration_file

    @property
    def model_id(self) -> str:
        return self.embedder.model_id

    @property
    def thresholds(self) -> Thresholds:
        if self._thresholds is None:
            self._thresholds = thresholds_for(self.model_id, self._calibration_file)
        return self._thresholds

    def warm_up(self, rubrics: list[QuestionRubric] | tuple[QuestionRubric, ...] = ()) -> None:
        """Load the model and encode the rubric points, so the first grade is quick."""
        texts = [point_text(p) for r in rubrics for p in r.points] or ["warm up"]
        self.embedder.embed(texts)

    def grade(self, rubric: QuestionRubric, answer: str) -> Grade:
        th = self.thresholds
        results = []
        for point, (sim, seg) in zip(rubric.points, best_matches(self.embedder, rubric, answer)):
            verdict = th.verdict(sim)
            if verdict == "missed":
                reason = f"no sentence comes close (best {sim:.2f} < {th.partial:.2f})"
            elif verdict == "partial":
                reason = f"related but not stated clearly ({th.partial:.2f} ≤ {sim:.2f} < {th.covered:.2f})"
            else:
                reason = f"stated ({sim:.2f} ≥ {th.covered:.2f})"
            results.append(PointResult(point_id=point.id, text=point.text, group=point.group,
                                       weight=point.weight, verdict=verdict, similarity=sim,
                                       evidence=seg if verdict != "missed" else None,
                                       reason=reason))
        total = sum(p.weight for p in rubric.points)
        score = sum(r.weight * r.credit for r in results) / total if total else 0.0
        return Grade(question_id=rubric.id, answer=answer, score=score, points=tuple(results),
                     model_id=self.model_id, thresholds=th)
