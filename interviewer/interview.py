"""The state of one mock interview: what was asked, answered, graded, and how long it took.

UI-free, so the TUI, the reports and the tests share one definition.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone

from interviewer.bank import Question
from interviewer.grading import Grade
from interviewer.rubric import Rubric
from interviewer.session import InterviewPlan


@dataclass
class Attempt:
    question: Question
    answer: str = ""
    grade: Grade | None = None
    time_used: float = 0.0
    skipped: bool = False
    auto_submitted: bool = False
    retry_of: int | None = None  # index of the attempt this one retakes

    @property
    def score(self) -> float:
        return self.grade.score if self.grade is not None else 0.0

    @property
    def done(self) -> bool:
        return self.skipped or self.grade is not None


@dataclass
class Interview:
    plan: InterviewPlan
    rubric: Rubric
    attempts: list[Attempt] = field(default_factory=list)
    index: int = 0
    started_at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))

    @classmethod
    def start(cls, plan: InterviewPlan, rubric: Rubric) -> Interview:
        return cls(plan=plan, rubric=rubric, attempts=[Attempt(q) for q in plan.questions])

    @property
    def bank(self):
        return self.plan.bank

    @property
    def current(self) -> Attempt:
        return self.attempts[self.index]

    def final_attempts(self) -> list[Attempt]:
        """The latest attempt at each question, in the order first asked."""
        latest: dict[str, Attempt] = {}
        for attempt in self.attempts:
            latest[attempt.question.id] = attempt
        return list(latest.values())

    def overall_score(self) -> float:
        finals = self.final_attempts()
        return sum(a.score for a in finals) / len(finals) if finals else 0.0

    def total_time(self) -> float:
        return sum(a.time_used for a in self.attempts)

    def missed_most(self, limit: int = 5) -> list[tuple[str, str, int]]:
        """``(question id, point text, times missed)``, most missed first, over all attempts."""
        counts: Counter[tuple[str, str]] = Counter()
        for attempt in self.attempts:
            if attempt.grade is None:
                continue
            for p in attempt.grade.points:
                if p.verdict == "missed":
                    counts[(attempt.question.id, p.text)] += 1
        return [(qid, text, n) for (qid, text), n in counts.most_common(limit)]

    def retry(self, attempt_index: int) -> int:
        """Append a new attempt at the same question; returns its index."""
        source = self.attempts[attempt_index]
        self.attempts.append(Attempt(source.question, retry_of=attempt_index))
        return len(self.attempts) - 1
