"""Grading in the app: the model loaded in a worker after the first frame, warmed up with
the interview's rubric, and each submitted answer graded by one long-lived thread whose
results come back as past-tense messages (``AnswerGraded``, ``GradingFailed``).

An answer is also graded *ahead* of its submit, once typing has stopped for a moment
(``QuestionPanel.Settled``): a candidate reads an answer over before sending it, and the
grade of the text they then send is already made. Nothing of it is shown before the submit;
a submit of any other text is graded as it comes. A grade depends on nothing but the rubric,
the question and the text, so the two are the same grade.
"""

from __future__ import annotations

import gc
import time

from textual import work

from interviewer.errors import InterviewerError
from interviewer.tui.messages import AnswerGraded, GradingFailed, ModelFailed, ModelReady

GC_RELEASE_DELAY = 0.2  # seconds after the screen has the grade: its frame is drawn by then


class GradingFlow:
    """Mixed into :class:`~interviewer.tui.app.InterviewApp`."""

    # ------------------------------------------------------------ the model

    @work(thread=True, exclusive=True, group="model", exit_on_error=False)
    def load_model(self) -> None:
        rubric = self.interview.rubric if self.interview is not None else None
        try:
            # with the interview's rubric when there is one: "ready" means the first
            # answer is graded as fast as the others
            self.grader.warm_up(rubric)
            self._warmed = rubric
        except InterviewerError as exc:
            self.post_message(ModelFailed(str(exc)))
        except Exception as exc:  # the UI must survive any failure of the model stack
            self.post_message(ModelFailed(f"{type(exc).__name__}: {exc}"))
        else:
            # The model's objects live as long as the app. Frozen, the garbage collector
            # stops walking them: its full passes took up to 130 ms each, landing on grades.
            gc.freeze()
            self.post_message(ModelReady())

    def on_model_ready(self, _: ModelReady) -> None:
        self.model_status = "ready"
        self._warm_rubric()
        if self._pending is not None:
            index, text, submitted = self._pending
            self._pending = None
            self._start_grade(index, text, submitted)

    def on_model_failed(self, message: ModelFailed) -> None:
        self.model_status = "failed"
        self.model_error = message.reason
        self.notify(f"Grading is unavailable: {message.reason}. Your answers are kept.",
                    severity="error", markup=False, timeout=15)

    # ------------------------------------------------------------ grades

    def submit_answer(self, index: int, text: str) -> None:
        """Grade now, or as soon as the model is ready."""
        self._check_saving(self.controller.save_draft(index, text))
        submitted = time.perf_counter()
        self._ahead_wanted = (index, text)  # grades ahead of other texts are not needed now
        if self.model_status == "ready":
            self._start_grade(index, text, submitted)
        else:
            self._pending = (index, text, submitted)

    def grade_ahead(self, index: int, text: str) -> None:
        """Grade the answer as it stands in the grading thread, for a submit of it to use."""
        if self.model_status != "ready":
            return
        self._ahead_wanted = (index, text)
        self._grading.run(lambda: self._grade_ahead(index, text))

    def _grade_ahead(self, index: int, text: str) -> None:
        """In the grading thread. Skipped when typing or a submit has overtaken it, so that a
        submit waits behind at most the one grade already running."""
        if self._ahead_wanted != (index, text) or self._ahead[:2] == (index, text):
            return
        start = time.perf_counter()
        try:
            grade = self.controller.grade(self.grader, index, text)
        except Exception:  # the submit grades it again and reports what went wrong
            return
        self._ahead = (index, text, grade, time.perf_counter() - start)

    def _warm_rubric(self) -> None:
        """Encode the interview's rubric and prepare its rules before the first answer, in
        the grading thread (a submit waits behind it, never beside it)."""
        rubric = self.interview.rubric if self.interview is not None else None
        if self.model_status != "ready" or rubric is None or rubric is self._warmed:
            return
        self._warmed = rubric

        def warm() -> None:
            try:
                self.grader.warm_up(rubric)
            except Exception:  # the first grade does the same work, and reports its failure
                pass

        self._grading.run(warm)

    def _start_grade(self, index: int, text: str, submitted: float) -> None:
        self._gc.hold()
        self._grading.run(lambda: self.grade_answer(index, text, submitted))

    def grade_answer(self, index: int, text: str, submitted: float) -> None:
        """In the grading thread: the grade, or why there is none, comes back as a message."""
        start = time.perf_counter()
        try:
            ahead, self._ahead = self._ahead, (None, None, None, 0.0)
            if ahead[:2] == (index, text):  # graded while the candidate read it over
                grade, seconds = ahead[2], ahead[3]
            else:
                grade = self.controller.grade(self.grader, index, text)
                seconds = time.perf_counter() - start
            grade, notice = self.controller.check(self.prober, index, grade, self._stop_checks)
        except Exception as exc:  # shown to the user; the answer is already saved
            self.post_message(GradingFailed(index, f"{type(exc).__name__}: {exc}"))
        else:
            self.post_message(AnswerGraded(index, grade, seconds, submitted, notice))

    def on_answer_graded(self, message: AnswerGraded) -> None:
        self._check_saving(self.controller.graded(message.index, message.grade))
        if message.notice:
            self.notify(message.notice, severity="warning", markup=False, timeout=10)
        self._after_grade(message.index)
        # queued behind what the screen was told: called once the screen has handled it,
        # which is often before the frame that shows it (50-70 ms later here; the frame
        # itself is what bench/tui_latency.py times)
        self.screen.call_after_refresh(self._record_latency, message.seconds, message.submitted)

    def _record_latency(self, grader_seconds: float, submitted: float) -> None:
        self.grade_seconds.append((grader_seconds, time.perf_counter() - submitted))
        self.set_timer(GC_RELEASE_DELAY, self._gc.release)

    def on_grading_failed(self, message: GradingFailed) -> None:
        self._gc.release()
        self.notify(f"Grading failed: {message.reason}. Your answer is saved.",
                    severity="error", markup=False, timeout=15)
        self._tell(GradingFailed(message.index, message.reason))

