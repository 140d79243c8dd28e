"""Follow-up questions in the app: written in a daemon thread (streamed to the screen as
they arrive, cancelled by a skip or by quitting), answered, graded against the points they
targeted, and kept through the controller."""

from __future__ import annotations

import threading

from textual import work

from interviewer.tui.messages import (
    FollowUpAsked,
    FollowUpChunk,
    FollowUpGraded,
    FollowUpReady,
    Graded,
)


class FollowUpFlow:
    """Mixed into :class:`~interviewer.tui.app.InterviewApp`."""

    def _wants_followup(self, index: int) -> bool:
        assert self.interview is not None
        return self.controller.wants_followup(self.interview.attempts[index],
                                              self.prober is not None)

    def ask_followup(self, index: int) -> None:
        """Write the follow-up in a daemon thread; its text streams to the screen as it
        arrives. F3 or quitting cancels it: a pending call never holds the user or the process."""
        self._cancel_followup()
        cancel = self._followup_cancel = threading.Event()
        threading.Thread(target=self._write_followup, args=(index, cancel), daemon=True,
                         name="follow-up").start()

    def _cancel_followup(self) -> None:
        cancel = getattr(self, "_followup_cancel", None)
        if cancel is not None:
            cancel.set()
        self._followup_cancel = None

    def _write_followup(self, index: int, cancel: threading.Event) -> None:
        from interviewer.followups.prober import followup_language

        assert self.interview is not None and self.prober is not None
        attempt = self.interview.attempts[index]
        question = self.interview.rubric.question(attempt.question.id)
        language = followup_language(question, self.interview.bank.language)

        def stream(text: str) -> None:
            if not cancel.is_set():
                self.call_from_thread(self._tell, FollowUpChunk(text))

        try:
            followup = self.prober.followup(question, attempt.grade, language, stream,
                                            cancel=cancel)
        except Exception as exc:  # the prober falls back itself; this is the last guard
            from interviewer.followups.prober import template_followup

            followup = template_followup(question, attempt.grade, language,
                                         notice=f"follow-up failed ({type(exc).__name__})")
        if not cancel.is_set():
            message = FollowUpReady(index, followup)
            message.cancel = cancel
            self.post_message(message)

    def on_follow_up_ready(self, message: FollowUpReady) -> None:
        assert self.interview is not None
        cancel = getattr(message, "cancel", None)
        if cancel is not None and (cancel.is_set() or cancel is not self._followup_cancel):
            return  # skipped while it was being written
        self._followup_cancel = None
        f = message.followup
        self._check_saving(self.controller.followup_asked(message.index, f.text, f.targets,
                                                          f.source, f.notice))
        if f.notice:
            self.notify(f.notice, severity="warning", markup=False, timeout=8)
        self._tell(FollowUpAsked(message.index, f.text, f.notice))

    def submit_followup(self, index: int, text: str, time_used: float) -> None:
        self.grade_followup(index, self.controller.submit_followup(index, text, time_used))

    @work(thread=True, exclusive=True, group="grade", exit_on_error=False)
    def grade_followup(self, index: int, round_index: int) -> None:
        grade = None
        try:
            grade = self.controller.grade_followup(self.grader, index, round_index)
        except Exception as exc:  # keep going: the answer is saved
            self.call_from_thread(self.notify, f"Grading the follow-up failed: {exc}",
                                  severity="error", markup=False)
        self.post_message(FollowUpGraded(index, round_index, grade))

    def on_follow_up_graded(self, message: FollowUpGraded) -> None:
        self._check_saving(self.controller.followup_graded(message.index, message.round_index,
                                                           message.grade))
        self._after_grade(message.index)

    def skip_followup(self, index: int) -> None:
        """Skip the follow-up, answered or still being written."""
        self._cancel_followup()
        self.controller.skip_followup(index)
        self._tell(Graded(index))
