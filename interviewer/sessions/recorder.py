"""Between an :class:`Interview` in memory and its rows in the :class:`Store`.

The app tells the recorder what happened (a draft, a grade, a skip); the recorder writes
it. Reading goes the other way: a stored session becomes an Interview again, to resume
it or to report on it.
"""

from __future__ import annotations

import math
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from interviewer.content.bank import Bank, Question

from interviewer.content.catalog import BankCatalog
from interviewer.sessions.drafts import DraftSaver, side_drafts
from interviewer.errors import InterviewerError
from interviewer.grading.grade import Grade
from interviewer.sessions.interview import Attempt, FollowUpRound, Interview
from interviewer.content.rubric import Rubric, points_fingerprint
from interviewer.content.bank_rubric import rubric_for_bank
from interviewer.sessions.plan import InterviewPlan
from interviewer.sessions.locking import SessionBusy
from interviewer.sessions.rows import SessionRow
from interviewer.sessions.store import Store


def new_session_id() -> str:
    return time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]


def plan_to_dict(plan: InterviewPlan) -> dict:
    return {"question_ids": [q.id for q in plan.questions], "time_limit": plan.time_limit,
            "total_limit": plan.total_limit, "followups": plan.followups,
            "tags": list(plan.tags)}


@dataclass
class Recorder:
    """Writes one interview as it happens. Every call is safe when the store cannot write."""

    store: Store
    session_id: str
    interview: Interview
    saver: DraftSaver | None = field(default=None, repr=False)

    @classmethod
    def start(cls, store: Store, interview: Interview, model_id: str | None,
              session_id: str | None = None, llm: dict[str, str] | None = None,
              on_saved: Callable[[int], None] | None = None) -> Recorder:
        """``llm`` names the follow-up server (base_url, model): identifiers, never a key.
        ``on_saved(seq)``: a draft that had to wait for the database has reached it."""
        recorder = cls(store, session_id or new_session_id(), interview)
        recorder.saver = DraftSaver(store, recorder.session_id, on_saved)
        if session_id is None:
            plan = plan_to_dict(interview.plan)
            if llm:
                plan["llm"] = {k: v for k, v in llm.items() if k in ("base_url", "model")}
            store.start_session(recorder.session_id, interview.bank.id, interview.bank.title,
                                plan, model_id)
        elif not store.hold(session_id):  # a resumed session is ours again, or not at all
            raise SessionBusy("this interview is already open in another window",
                              hint="switch to that window")
        for seq in range(len(interview.attempts)):
            recorder.ensure(seq)
        return recorder

    def ensure(self, seq: int) -> None:
        a = self.interview.attempts[seq]
        self.store.ensure_attempt(self.session_id, seq, a.question.id, a.question.text, a.retry_of)

    def draft(self, seq: int) -> bool | None:
        """True only when the draft is in the database (an in-memory store never claims to
        be); None when the database is busy and the draft waits in a side file; never blocks."""
        a = self.interview.attempts[seq]
        saved = self.saver.answer(seq, a.answer, a.time_used) if self.saver else False
        return saved and self.store.persistent if saved is not None else None

    def followup_draft(self, seq: int) -> bool | None:
        """The follow-up rounds of attempt ``seq`` as they stand, the last one still typed."""
        rounds = [f.to_dict() for f in self.interview.attempts[seq].followups]
        saved = self.saver.followups(seq, rounds) if self.saver else False
        return saved and self.store.persistent if saved is not None else None

    def result(self, seq: int) -> bool:
        a = self.interview.attempts[seq]
        if self.store.persistent:
            self.reviews(seq)
        rubric_hash = None
        if a.grade is not None and self.interview.rubric.has_question(a.question.id):
            rubric_hash = points_fingerprint(self.interview.rubric.question(a.question.id).points)
        return self.store.persistent and self.store.save_result(
            self.session_id, seq, answer=a.answer, time_used=a.time_used,
            grade=a.grade.to_dict() if a.grade else None, score=a.grade.score if a.grade else None,
            skipped=a.skipped, auto_submitted=a.auto_submitted, rubric_sha256=rubric_hash,
            followups=[f.to_dict() for f in a.followups])

    def reviews(self, seq: int) -> None:
        """One spaced-repetition review per point of a graded attempt."""
        from interviewer.practice.srs import outcome_for

        a = self.interview.attempts[seq]
        if a.grade is None:
            return
        probed = a.probed_verdicts()
        self.store.record_reviews(
            self.session_id, seq, self.interview.bank.id, a.question.id,
            [(p.point_id, p.text, outcome_for(p.verdict, probed.get(p.point_id)))
             for p in a.grade.points])

    def finish(self) -> None:
        if self.saver is not None:
            self.saver.close()
        self.store.finish_session(self.session_id)

    def close(self) -> None:
        """Leave the session resumable (the app quit mid-interview)."""
        if self.saver is not None:
            self.saver.close()
        self.store.release(self.session_id)


def _stored_limit(value: object) -> float | None:
    """A stored time limit, or None (untimed) for one no clock can count down (inf, nan,
    ≤ 0, not a number), as an older version could store from its config."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) and value > 0 else None


def _resume_at(attempts: Sequence, pending: list[int]) -> int | None:
    """Where an interrupted interview goes on, of the ``pending`` indexes into ``attempts``
    (stored rows or attempts: both say what they retake): a retake left unanswered (it was
    being typed: the plan's next question comes only after it), else the first."""
    return next((i for i in reversed(pending) if attempts[i].retry_of is not None),
                pending[0] if pending else None)


def where_it_stopped(row: SessionRow) -> str:
    """Where an interrupted session stands, numbered by the plan ("question 2 of 3, …")."""
    pending = [i for i, a in enumerate(row.attempts) if a.score is None and not a.skipped]
    index = _resume_at(row.attempts, pending)
    if index is None:
        return "all questions answered"
    at = row.attempts[index]
    ids = row.plan.get("question_ids") or [a.question_id for a in row.attempts
                                           if a.retry_of is None]
    number = ids.index(at.question_id) + 1 if at.question_id in ids else at.seq + 1
    retake = " (a retake)" if at.retry_of is not None else ""
    return (f"question {number} of {max(len(ids), number)}{retake}, {len(at.answer)} "
            "characters typed")


def interview_from_session(row: SessionRow, catalog: BankCatalog | None,
                           data_dir: Path | None = None) -> Interview:
    """Rebuild an interview from its stored rows.

    The bank and rubric are loaded when they still exist (needed to go on grading); a report
    needs neither, so a deleted bank still gives one from the stored question texts.
    """
    bank: Bank | None = None
    rubric = Rubric(bank=row.bank_id, questions=())
    if catalog is not None:
        try:
            bank = catalog.resolve(row.bank_id)
            rubric = rubric_for_bank(bank).rubric
        except InterviewerError:
            bank = None
    by_id = {q.id: q for q in bank.questions} if bank else {}
    if any(a.question_text and a.question_id in by_id
           and by_id[a.question_id].text != a.question_text for a in row.attempts):
        # a bank of that id now holds other questions: the session keeps what it stored
        bank, by_id = None, {}
        rubric = Rubric(bank=row.bank_id, questions=())
    aside = side_drafts(data_dir, row.id) if data_dir is not None else {}
    attempts = []
    for a in row.attempts:
        question = by_id.get(a.question_id) or Question(id=a.question_id, text=a.question_text,
                                                        answer="")
        answer, time_used, followups = a.answer, a.time_used, a.followups
        side = aside.get((a.seq, "answer"))
        if side is not None and a.grade is None and not a.skipped:  # newer than the database
            answer, time_used = str(side.get("answer", answer)), float(side.get("time_used", 0))
        side = aside.get((a.seq, "followups"))
        if side is not None and isinstance(side.get("followups"), list) and (
                not followups or followups[-1].get("draft") is True):
            followups = side["followups"]
        attempts.append(Attempt(
            question=question, answer=answer,
            grade=Grade.from_dict(a.grade, a.answer) if a.grade else None,
            time_used=time_used, skipped=a.skipped, auto_submitted=a.auto_submitted,
            retry_of=a.retry_of, followups=[FollowUpRound.from_dict(f) for f in followups]))
    plan_ids = row.plan.get("question_ids") or [a.question_id for a in row.attempts
                                                if a.retry_of is None]
    questions = tuple(by_id.get(q) or next(a.question for a in attempts if a.question.id == q)
                      for q in plan_ids if q in by_id or any(a.question.id == q for a in attempts))
    if bank is None:
        bank = Bank(id=row.bank_id, title=row.bank_title, language="zh", questions=questions)
    plan = InterviewPlan(bank=bank, questions=questions,
                         time_limit=_stored_limit(row.plan.get("time_limit")),
                         total_limit=_stored_limit(row.plan.get("total_limit")),
                         followups=bool(row.plan.get("followups")),
                         tags=tuple(row.plan.get("tags") or ()))
    interview = Interview(plan=plan, rubric=rubric, attempts=attempts,
                          started_at=datetime.fromisoformat(row.started_at))
    pending = [i for i, a in enumerate(attempts) if not a.done or a.followup_pending]
    index = _resume_at(attempts, pending)
    interview.index = index if index is not None else max(0, len(attempts) - 1)
    return interview


def interview_from_grades(rubric: Rubric, grades: list[Grade]) -> Interview:
    """A batch of written answers as an interview, so it gets the same report."""
    questions = {q.id: Question(id=q.id, text=q.question or q.id, answer="")
                 for q in rubric.questions}
    asked = tuple(dict.fromkeys(questions[g.question_id] for g in grades))
    bank = Bank(id=rubric.bank, title=rubric.bank, language="zh", questions=asked)
    plan = InterviewPlan(bank=bank, questions=asked, time_limit=None)
    attempts = [Attempt(question=questions[g.question_id], answer=g.answer, grade=g)
                for g in grades]
    return Interview(plan=plan, rubric=rubric, attempts=attempts)
