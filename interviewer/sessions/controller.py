"""An interview as a UI runs it: start or resume, answers and their grades, follow-ups,
skips and retakes, the next question, the end; and what practice says about a bank.

No UI here and no waiting on the model: the TUI grades in its workers, hands the results
to this controller and shows what it returns. Saving goes through the recorder; a failure
to save is told once, as a message the UI shows.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from interviewer.content.bank import Bank

from interviewer.content.catalog import BankCatalog
from interviewer.config import Settings
from interviewer.errors import InterviewerError
from interviewer.grading.grade import AnswerGrader, Grade
from interviewer.sessions.interview import Attempt, FollowUpRound, Interview
from interviewer.sessions.recorder import Recorder, interview_from_session, where_it_stopped
from interviewer.content.bank_rubric import rubric_for_bank
from interviewer.sessions.plan import InterviewPlan, SetupChoices, save_choices
from interviewer.sessions.rows import SessionRow
from interviewer.sessions.store import Store
from interviewer.sessions.timer import Clock, Countdown

if TYPE_CHECKING:
    from interviewer.content.rubric import Rubric


class InterviewController:
    def __init__(self, *, banks: list[Bank], store: Store, settings: Settings, model_id: str,
                 clock: Clock, choices: SetupChoices,
                 on_saved: Callable[[int], None] | None = None) -> None:
        """``on_saved(index)``: from the draft writer's thread, a draft that waited for a busy
        database reached it."""
        self.banks = banks
        self.store = store
        self.settings = settings
        self.model_id = model_id
        self.clock = clock
        self.choices = choices
        self.on_saved = on_saved
        self.interview: Interview | None = None
        self.recorder: Recorder | None = None
        self.total: Countdown | None = None  # the interview's own limit, when it has one
        self._save_warned = False

    # ------------------------------------------------------------ start

    def remember(self, choices: SetupChoices) -> None:
        """The setup the user chose, kept for the next interview."""
        self.choices = choices
        save_choices(self.settings.data_dir, choices)

    def start(self, plan: InterviewPlan) -> list[str]:
        """A new interview on ``plan``; the rubric's warnings. InterviewerError: no rubric."""
        loaded = rubric_for_bank(plan.bank)
        self.interview = Interview.start(plan, loaded.rubric)
        self.recorder = Recorder.start(self.store, self.interview, self.model_id,
                                       llm=self.llm_meta() if plan.followups else None,
                                       on_saved=self.on_saved)
        self.total = Countdown(self.clock, plan.total_limit).start() if plan.total_limit else None
        return list(loaded.warnings)

    def resume(self, row: SessionRow) -> str:
        """Go on with a stored interview: "missing" (its bank is gone), "finished" (nothing
        left to answer) or "asking". InterviewerError: it is open in another window."""
        interview = interview_from_session(row, BankCatalog.of(self.banks),
                                           self.store.path.parent if self.store.path else None)
        if not interview.rubric.questions:
            return "missing"
        recorder = Recorder.start(self.store, interview, self.model_id,
                                  session_id=row.id, on_saved=self.on_saved)
        self.interview, self.recorder = interview, recorder
        total = interview.plan.total_limit
        if total:
            self.total = Countdown(self.clock, total, used_before=interview.total_time()).start()
        if all(a.done and not a.followup_pending for a in interview.attempts):
            return "finished"
        return "asking"

    def interrupted(self) -> tuple[SessionRow, str] | None:
        """The interview a crash or a kill left unfinished, with the question to ask about it."""
        rows = self.store.interrupted()
        if not rows:
            return None
        row = rows[0]
        started = row.started_at.replace("T", " ")[:16]
        return row, (f"Resume the interview on {row.bank_title} started {started} UTC "
                     f"({where_it_stopped(row)})?")

    def abandon(self, row: SessionRow) -> None:
        """The user declined to resume ``row``: it is not offered again."""
        if self.store.hold(row.id):  # not if another window has taken it meanwhile
            self.store.finish_session(row.id, status="abandoned")

    # ------------------------------------------------------------ saving

    def saving_problem(self, saved: bool | None) -> str | None:
        """The one message to show when saving first fails (None: nothing to say)."""
        if saved is False and self.store.persistent and not self._save_warned:
            self._save_warned = True
            return (f"Not saving: {self.store.last_error}. Keep this window open; your "
                    "text is still here.")
        return None

    def save_draft(self, index: int, text: str, time_used: float | None = None) -> bool | None:
        """Keep what is typed (and the time used); None: the database is busy and the draft
        waits in a side file (never blocks)."""
        assert self.interview is not None
        attempt = self.interview.attempts[index]
        attempt.answer = text
        if time_used is not None:
            attempt.time_used = time_used
        if self.recorder is None:
            return False
        return self.recorder.draft(index)

    def save_followup_draft(self, index: int, text: str, time_used: float) -> bool | None:
        """What is typed to the open follow-up; None when nothing is recorded."""
        assert self.interview is not None
        round_ = self.interview.attempts[index].followups[-1]
        round_.answer, round_.time_used = text, time_used
        if self.recorder is None:
            return None
        return self.recorder.followup_draft(index)

    # ------------------------------------------------------------ answers

    def grade(self, grader: AnswerGrader, index: int, text: str) -> Grade:
        """``text`` graded as the answer of attempt ``index`` (blocking: call it from a worker)."""
        assert self.interview is not None
        return grader.grade(self.interview.rubric, self.interview.attempts[index].question.id,
                            text)

    def check(self, prober: object, index: int, grade: Grade,
              cancel: threading.Event | None = None) -> tuple[Grade, str | None]:
        """``grade`` with its credited points read again by the LLM when ``llm.check_points``
        asks for it (blocking, bounded by ``llm.timeout``), and a notice when it could not."""
        if not self.settings.llm.check_points or not hasattr(prober, "ask"):
            return grade, None
        from interviewer.grading.llm_check import check_grade

        assert self.interview is not None
        question = self.interview.rubric.question(self.interview.attempts[index].question.id)
        checked = check_grade(prober, question, grade, cancel)
        return checked.grade, checked.notice

    def graded(self, index: int, grade: Grade) -> bool | None:
        """The grade of attempt ``index`` arrived; whether it was saved."""
        assert self.interview is not None
        self.interview.attempts[index].grade = grade
        return self.recorder.result(index) if self.recorder is not None else None

    def wants_followup(self, attempt: Attempt, can_ask: bool) -> bool:
        return (can_ask and self.interview is not None and self.interview.plan.followups
                and attempt.grade is not None
                and len(attempt.followups) < max(0, self.settings.llm.max_followups))

    def followup_asked(self, index: int, question: str, targets, source: str,
                       notice: str | None) -> bool | None:
        """A follow-up question was asked: it is kept from that moment, as a draft."""
        assert self.interview is not None
        self.interview.attempts[index].followups.append(FollowUpRound(
            question=question, targets=targets, source=source, notice=notice, draft=True))
        return self.recorder.followup_draft(index) if self.recorder is not None else None

    def submit_followup(self, index: int, text: str, time_used: float) -> int:
        """The follow-up answer is final; the index of its round, to grade."""
        assert self.interview is not None
        rounds = self.interview.attempts[index].followups
        round_ = rounds[-1]
        round_.answer, round_.time_used, round_.draft = text, time_used, False
        if self.recorder is not None:
            self.recorder.result(index)
        return len(rounds) - 1

    def grade_followup(self, grader: AnswerGrader, index: int, round_index: int) -> Grade | None:
        """The follow-up answer graded against the points it targeted, and only those; None
        if it targeted none or was left empty (blocking: call it from a worker)."""
        assert self.interview is not None
        attempt = self.interview.attempts[index]
        round_ = attempt.followups[round_index]
        if not (round_.targets and round_.answer.strip()):
            return None
        return grader.grade(self.interview.rubric, attempt.question.id, round_.answer,
                            only=round_.targets)

    def followup_graded(self, index: int, round_index: int, grade: Grade | None) -> bool | None:
        assert self.interview is not None
        self.interview.attempts[index].followups[round_index].grade = grade
        return self.recorder.result(index) if self.recorder is not None else None

    def skip_followup(self, index: int) -> None:
        """A follow-up still open is kept as it stands and no longer offered."""
        assert self.interview is not None
        rounds = self.interview.attempts[index].followups
        if rounds and rounds[-1].draft:
            rounds[-1].draft = False
            if self.recorder is not None:
                self.recorder.result(index)

    def previous_grade(self, index: int) -> Grade | None:
        """The last grade of the same question before this attempt, for the retake diff."""
        assert self.interview is not None
        attempt = self.interview.attempts[index]
        earlier = [a for a in self.interview.attempts[:index]
                   if a.question.id == attempt.question.id and a.grade is not None]
        if earlier:
            return earlier[-1].grade
        data = self.store.last_grade(self.interview.bank.id, attempt.question.id,
                                     self.recorder.session_id if self.recorder else None)
        return Grade.from_dict(data, "") if data else None

    # ------------------------------------------------------------ navigation

    def next_index(self) -> int | None:
        """The attempt to ask next (made the current one), or None: the interview is over."""
        assert self.interview is not None
        nxt = self.interview.next_index()
        if (self.total is not None and self.total.expired) or nxt is None:
            return None
        self.interview.index = nxt
        return nxt

    def skip(self, index: int) -> None:
        assert self.interview is not None
        self.interview.attempts[index].skipped = True
        if self.recorder is not None:
            self.recorder.result(index)

    def retake(self, attempt_index: int) -> int:
        """A new attempt at the question of ``attempt_index``, made the current one."""
        assert self.interview is not None
        index = self.interview.retry(attempt_index)
        self.interview.index = index
        if self.recorder is not None:
            self.recorder.ensure(index)
        return index

    def review(self, index: int) -> None:
        """Attempt ``index`` is shown again (from the summary)."""
        assert self.interview is not None
        self.interview.index = index

    def finish(self) -> None:
        if self.recorder is not None:
            self.recorder.finish()

    def close(self) -> None:
        """Leave the interview (resumable if unfinished) for a new one."""
        if self.recorder is not None:
            self.recorder.close()
            self.recorder = None
        self.interview = None
        self.total = None

    # ------------------------------------------------------------ reports

    def llm_meta(self) -> dict[str, str]:
        llm = self.settings.llm
        if not (llm.base_url and llm.model):
            return {"model": "template (no LLM configured)"}
        return {"base_url": llm.base_url, "model": llm.model}

    def write_report(self) -> list[Path]:
        """The interview's HTML and Markdown reports in the data directory. OSError: not written."""
        from interviewer.reports.report import ReportMeta, write_report

        if self.interview is None:
            return []
        stamp = self.interview.started_at.astimezone().strftime("%Y%m%d-%H%M%S")
        base = self.settings.data_dir / "reports" / f"{self.interview.bank.id}-{stamp}"
        meta = ReportMeta(model_id=self.model_id,
                          llm=self.llm_meta() if self.interview.plan.followups else {},
                          session_id=self.recorder.session_id if self.recorder else None,
                          mastery=self.session_mastery())
        return [write_report(self.interview, base.with_suffix(f".{fmt}"), meta)
                for fmt in ("html", "md")]

    # ------------------------------------------------------------ practice

    def due_count(self, bank: Bank) -> tuple[int, int]:
        """(points due now, points ever reviewed), for the setup screen."""
        from interviewer.practice.drill import due_points, point_statuses

        try:
            statuses = point_statuses(self.store.review_log(bank.id), rubric_for_bank(bank).rubric)
        except InterviewerError:
            return 0, 0
        now = datetime.now(timezone.utc)
        return len(due_points(statuses, now)), sum(1 for s in statuses if s.reviews)

    def drill_plan(self, bank: Bank, choices: SetupChoices) -> InterviewPlan:
        from interviewer.practice.drill import drill_plan

        plan = drill_plan(self.store.review_log(bank.id), bank, choices.count, time_limit=choices.time_limit,
                          total_limit=choices.total_limit, followups=choices.followups)
        if plan is None:
            raise InterviewerError("Nothing to drill yet: answer some questions in this bank first.")
        return plan

    def session_mastery(self) -> dict[str, float]:
        """Mastery of the interview's bank and of the tags it asked; empty before practice."""
        from interviewer.practice.drill import session_mastery

        assert self.interview is not None
        try:
            return session_mastery(self.store.review_log(self.interview.bank.id), self.interview.bank,
                                   self.interview.rubric,
                                   list(self.interview.plan.questions))
        except InterviewerError:
            return {}

    def mastery_by_bank(self) -> dict[str, tuple[dict[str, float], list[float]]]:
        """Per practised bank: its mastery and the mastery after each review date."""
        from interviewer.practice.drill import mastery, mastery_over_time

        out = {}
        for bank in self.banks:
            practised = self._practised(bank)
            if practised:
                rubric, statuses = practised
                out[bank.id] = (mastery(statuses, bank),
                                [v for _, v in mastery_over_time(self.store.review_log(bank.id), rubric)])
        return out

    def _practised(self, bank: Bank) -> tuple[Rubric, list] | None:
        """The bank's rubric and point statuses once it has been practised, else None (the
        rubric is read once: the statuses and the mastery series both need it)."""
        from interviewer.practice.drill import point_statuses

        try:
            rubric = rubric_for_bank(bank).rubric
            statuses = point_statuses(self.store.review_log(bank.id), rubric)
        except InterviewerError:
            return None
        return (rubric, statuses) if any(s.reviews for s in statuses) else None
