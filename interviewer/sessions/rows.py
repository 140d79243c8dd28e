"""A stored session and its attempts, as the store reads them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class AttemptRow:
    id: int
    seq: int
    question_id: str
    question_text: str
    answer: str
    score: float | None
    grade: dict | None
    time_used: float
    skipped: bool
    auto_submitted: bool
    retry_of: int | None
    followups: list[dict]


@dataclass
class SessionRow:
    id: str
    started_at: str
    ended_at: str | None
    bank_id: str
    bank_title: str
    model_id: str | None
    status: str
    plan: dict
    attempts: list[AttemptRow]

    @property
    def score(self) -> float | None:
        """The session's score (:mod:`interviewer.sessions.score`), None when nothing was graded."""
        from interviewer.sessions.score import session_score

        return session_score((a.question_id, a.score, a.skipped) for a in self.attempts)

