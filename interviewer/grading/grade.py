"""What a grade is: per-point verdicts and the score they add up to.

Kept apart from :mod:`interviewer.grading.grader` (which needs numpy and the encoder) so that the
TUI, the store and the report can hold grades without importing numerics before the first
frame is drawn.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from interviewer.content.rubric import Rubric

CREDIT = {"covered": 1.0, "partial": 0.5, "missed": 0.0, "contradicted": 0.0}
# How each verdict is marked wherever grades are shown (terminal, TUI, reports).
MARK = {"covered": "✓", "partial": "~", "missed": "✗", "contradicted": "≠"}


@dataclass(frozen=True)
class PointResult:
    point_id: str
    text: str
    group: str | None
    weight: float
    verdict: str
    probability: float
    similarity: float
    evidence: str | None
    reason: str
    # a covered point of several claims: the answer's other spans, one for each claim that
    # ``evidence`` does not state, in the answer's order
    also: tuple[str, ...] = ()

    @property
    def credit(self) -> float:
        return CREDIT[self.verdict]

    @property
    def quotes(self) -> tuple[str, ...]:
        """The answer's words shown for this point: its evidence, then ``also``."""
        return (self.evidence, *self.also) if self.evidence else ()


@dataclass(frozen=True)
class Grade:
    question_id: str
    answer: str
    score: float
    points: tuple[PointResult, ...]
    model_id: str
    calibration: str  # where the scorer's weights came from, or "uncalibrated"
    note: str | None = None  # why the score is not the plain weighted mean (a cap)
    checked_by: str | None = None  # the LLM that read the credited points again, if one did

    def to_dict(self, item_id: object = None) -> dict:
        """The batch-output schema, plus what a report needs to be rebuilt without regrading."""
        out: dict = {} if item_id is None else {"id": item_id}
        out.update({
            "question_id": self.question_id,
            "score": round(self.score, 4),
            "model_id": self.model_id,
            "calibration": self.calibration,
            "points": [{"id": p.point_id, "verdict": p.verdict, "score": p.credit,
                        "confidence": round(p.probability, 4),
                        "similarity": round(p.similarity, 4), "evidence": p.evidence,
                        "reason": p.reason, "text": p.text, "group": p.group,
                        "weight": p.weight, **({"also": list(p.also)} if p.also else {})}
                       for p in self.points],
        })
        if self.note:
            out["note"] = self.note
        if self.checked_by:
            out["checked_by"] = self.checked_by
        return out

    @classmethod
    def from_dict(cls, data: dict, answer: str) -> Grade:
        points = tuple(PointResult(
            point_id=str(p["id"]), text=str(p.get("text", p["id"])), group=p.get("group"),
            weight=float(p.get("weight", 1.0)), verdict=str(p["verdict"]),
            probability=float(p.get("confidence", 0.0)), similarity=float(p.get("similarity", 0.0)),
            evidence=p.get("evidence"), reason=str(p.get("reason", "")),
            also=tuple(str(s) for s in p["also"]) if isinstance(p.get("also"), list) else ())
            for p in data.get("points", []))
        return cls(question_id=str(data["question_id"]), answer=answer,
                   score=float(data["score"]), points=points,
                   model_id=str(data.get("model_id", "")),
                   calibration=str(data.get("calibration", "")),
                   note=data.get("note") or None,
                   checked_by=data.get("checked_by") or None)


class AnswerGrader(Protocol):
    """What the TUI needs of a grader: the real one, or one still to be built."""

    @property
    def model_id(self) -> str: ...

    def warm_up(self, rubric: Rubric | None = None) -> None: ...

    def grade(self, rubric: Rubric, question_id: str, answer: str,
              only: Collection[str] | None = None) -> Grade: ...
