"""The state of one mock interview: what was asked, answered, graded, and how long it took.

UI-free, so the TUI, the reports and the tests share one definition.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone

from interviewer.content.bank import Question
from interviewer.grading.grade import CREDIT, Grade
from interviewer.content.reference import point_sources
from interviewer.content.rubric import Rubric
from interviewer.sessions.score import session_score
from interviewer.sessions.plan import InterviewPlan


@dataclass
class FollowUpRound:
    """One follow-up question, its answer, and the grade of the points it targeted."""

    question: str
    targets: tuple[str, ...]
    source: str  # "llm" or "template"
    notice: str | None = None
    answer: str = ""
    grade: Grade | None = None
    time_used: float = 0.0
    draft: bool = False  # asked, its answer still being typed

    def to_dict(self) -> dict:
        out = {"question": self.question, "targets": list(self.targets), "source": self.source,
               "notice": self.notice, "answer": self.answer, "time_used": self.time_used,
               "grade": self.grade.to_dict() if self.grade else None}
        if self.draft:
            out["draft"] = True
        return out

    @classmethod
    def from_dict(cls, data: dict) -> FollowUpRound:
        grade = Grade.from_dict(data["grade"], data.get("answer", "")) if data.get("grade") else None
        return cls(question=str(data.get("question", "")), targets=tuple(data.get("targets") or ()),
                   source=str(data.get("source", "")), notice=data.get("notice"),
                   answer=str(data.get("answer", "")), grade=grade,
                   time_used=float(data.get("time_used", 0.0)), draft=data.get("draft") is True)


@dataclass(frozen=True)
class MissedPoint:
    question_id: str
    text: str
    times: int  # attempts that missed it unprompted
    probed: int  # of those, how many a follow-up drew it out in

    def describe(self) -> str:
        """One line for the summary: the point, where, how often, and if probing helped."""
        where = self.question_id + (f", {self.times}×" if self.times > 1 else "")
        if self.probed:
            where += ", said when probed" + (f" {self.probed}×" if self.times > 1 else "")
        return f"{self.text}  ({where})"


@dataclass
class Attempt:
    question: Question
    answer: str = ""
    grade: Grade | None = None
    time_used: float = 0.0
    skipped: bool = False
    auto_submitted: bool = False
    retry_of: int | None = None  # index of the attempt this one retakes
    followups: list[FollowUpRound] = field(default_factory=list)

    @property
    def score(self) -> float:
        """The score of the answer as given, unprompted."""
        return self.grade.score if self.grade is not None else 0.0

    def probed_verdicts(self) -> dict[str, str]:
        """Points that did better in a follow-up than unprompted: id -> best verdict there."""
        if self.grade is None:
            return {}
        base = {p.point_id: p.verdict for p in self.grade.points}
        better: dict[str, str] = {}
        for round_ in self.followups:
            for p in (round_.grade.points if round_.grade else ()):
                best = better.get(p.point_id, base.get(p.point_id, "missed"))
                if CREDIT[p.verdict] > CREDIT[best]:
                    better[p.point_id] = p.verdict
        return {k: v for k, v in better.items() if CREDIT[v] > CREDIT[base.get(k, "missed")]}

    @property
    def score_with_followups(self) -> float:
        """The score counting what the follow-ups drew out (kept apart from ``score``); the
        reports' ``score_with_followups``."""
        if self.grade is None:
            return 0.0
        drawn_out = self.probed_verdicts()
        total = sum(p.weight for p in self.grade.points)
        credit = sum(p.weight * CREDIT[drawn_out.get(p.point_id, p.verdict)]
                     for p in self.grade.points)
        return credit / total if total else 0.0


    @property
    def followup_pending(self) -> bool:
        """A follow-up was asked and its answer is not submitted yet."""
        return self.grade is not None and bool(self.followups) and self.followups[-1].draft

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

    def overall_score(self) -> float | None:
        """The session's score (:mod:`interviewer.sessions.score`), None when nothing was graded."""
        return session_score((a.question.id, a.grade.score if a.grade else None, a.skipped)
                             for a in self.attempts)

    def total_time(self) -> float:
        return sum(a.time_used for a in self.attempts)

    def missed_most(self, limit: int = 5) -> list[MissedPoint]:
        """Points missed unprompted, most often first, over all attempts.

        A point a follow-up drew out still counts as missed (the candidate did not say it
        unprompted), but ``probed`` says how often that happened, so the summary can tell
        "never said" from "said when asked".
        """
        counts: Counter[tuple[str, str]] = Counter()
        probed: Counter[tuple[str, str]] = Counter()
        for attempt in self.attempts:
            if attempt.grade is None:
                continue
            drawn_out = attempt.probed_verdicts()
            for p in attempt.grade.points:
                if p.verdict == "missed":
                    counts[(attempt.question.id, p.text)] += 1
                    probed[(attempt.question.id, p.text)] += p.point_id in drawn_out
        return [MissedPoint(qid, text, n, probed[(qid, text)])
                for (qid, text), n in counts.most_common(limit)]

    def reference_sentences(self, attempt_index: int) -> dict[str, str]:
        """Point id -> the reference answer's sentence for it, for attempt ``attempt_index``."""
        question = self.attempts[attempt_index].question
        if self.rubric is None or not self.rubric.has_question(question.id):
            return {}
        return point_sources(self.rubric.question(question.id), question.answer)

    def next_index(self) -> int | None:
        """The attempt to ask next: the first question of the plan not yet answered or skipped.

        Retakes are appended after the plan's questions, so the position in the plan is not
        the position in ``attempts``: after a retake the interview goes on where it was.
        """
        for i, attempt in enumerate(self.attempts):
            if attempt.retry_of is None and not attempt.done:
                return i
        return None

    def number(self, attempt_index: int) -> int:
        """The 1-based place in the plan of the question attempt ``attempt_index`` asks."""
        qid = self.attempts[attempt_index].question.id
        ids = [q.id for q in self.plan.questions]
        return ids.index(qid) + 1 if qid in ids else min(attempt_index, len(ids) - 1) + 1

    def retry(self, attempt_index: int) -> int:
        """Append a new attempt at the same question; returns its index."""
        source = self.attempts[attempt_index]
        self.attempts.append(Attempt(source.question, retry_of=attempt_index))
        return len(self.attempts) - 1
