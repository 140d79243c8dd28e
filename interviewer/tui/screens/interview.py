"""The interview screen: a question under a countdown, then its feedback, in one screen.

Question and feedback are two panels of one ContentSwitcher rather than two screens:
switching screens costs Textual 60-120 ms of composition, flipping a panel and updating
three widgets costs about 10, so the feedback appears as fast as the grader allows
(bench/tui_latency.py measures it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Footer, Header, LoadingIndicator, Static, TextArea

from interviewer.sessions.timer import Clock, Countdown, marks_crossed
from interviewer.tui.screens.feedback_panel import FEEDBACK_CSS, FeedbackPanel
from interviewer.tui.screens.followup_panel import DRAFT_SAVE_DELAY, FOLLOWUP_CSS, FollowUpPanel
from interviewer.tui.screens.question_panel import QUESTION_CSS, QuestionPanel
from interviewer.tui.widgets import CRITICAL_AT, WARN_AT, CountdownLabel, WrappedText

if TYPE_CHECKING:
    from interviewer.sessions.controller import InterviewController
    from interviewer.sessions.interview import Attempt, Interview
    from interviewer.sessions.timer import Countdown as TotalClock

_MODEL_STATUS = {
    "loading": "Loading the grading model…",
    "ready": "Model ready",
    "failed": "Grading unavailable (answers are still saved)",
}
TICK = 0.25  # how often the clock is redrawn; the deadline itself comes from the clock
TIME_SAVE_EVERY = 1.0  # the time used reaches disk this often while the clock runs
QUESTION_ACTIONS = {"submit", "pause", "skip"}
FOLLOWUP_ACTIONS = {"submit", "skip"}
FEEDBACK_ACTIONS = {"next", "toggle_numbers", "retry"}
WARNINGS = {WARN_AT: "1 minute left", CRITICAL_AT: "10 seconds left"}


class InterviewScreen(QuestionPanel, FeedbackPanel, FollowUpPanel, Screen):
    """Posts what the user did (Submitted, Skipped, FollowUpSubmitted, FollowUpSkipped,
    NextRequested, RetakeRequested); drafts are saved through the controller it is given."""

    DEFAULT_CSS = QUESTION_CSS + FOLLOWUP_CSS + FEEDBACK_CSS

    class Submitted(Message):
        def __init__(self, index: int, text: str) -> None:
            super().__init__()
            self.index, self.text = index, text

    class Skipped(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    class FollowUpSubmitted(Message):
        def __init__(self, index: int, text: str, time_used: float) -> None:
            super().__init__()
            self.index, self.text, self.time_used = index, text, time_used

    class FollowUpSkipped(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    class NextRequested(Message):
        """On to the next question (or the summary)."""

    class RetakeRequested(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    BINDINGS = [
        Binding("ctrl+s", "submit", "Submit", priority=True),
        Binding("f2", "pause", "Pause/resume"),
        Binding("f3", "skip", "Skip"),
        Binding("n,enter", "next", "Next"),
        Binding("s", "toggle_numbers", "Numbers"),
        Binding("r", "retry", "Retake"),
    ]

    mode: reactive[str] = reactive("question", init=False)  # question | feedback

    def __init__(self, interview: Interview, index: int, clock: Clock,
                 feedback: bool = False, *, controller: InterviewController) -> None:
        """``feedback``: open on the feedback of attempt ``index`` (from the summary)."""
        super().__init__()
        self.controller = controller
        self.model_status = "loading"
        self.opens_on_feedback = feedback
        self.interview = interview
        self.clock = clock
        self.index = index
        self.countdown = Countdown(clock, interview.plan.time_limit)
        self.waiting = False
        self.paused = False
        self.numbers = False
        self.followup_countdown: Countdown | None = None
        self._last_remaining: float | None = None
        self._save_timer = None

    @property
    def total(self) -> TotalClock | None:
        """The interview's own clock, when it has a limit."""
        return self.controller.total

    @property
    def attempt(self) -> Attempt:
        return self.interview.attempts[self.index]

    # ------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Header()
        with ContentSwitcher(initial="question-panel", id="panels"):
            with Vertical(id="question-panel"):
                with Horizontal(id="question-bar", classes="question-bar"):
                    yield Static("", id="progress", markup=False)
                    yield CountdownLabel("", id="countdown")
                yield WrappedText("", id="question-text")
                yield TextArea("", id="answer", soft_wrap=True,
                               placeholder="Type your answer. Ctrl+S submits; F2 pauses the clock.")
                with Vertical(id="waiting"):
                    yield LoadingIndicator()
                    yield Static("Grading as soon as the model is ready…", markup=False)
                with Vertical(id="paused"):
                    yield Static("Paused. The clock is stopped. Press F2 to resume.", markup=False)
                with Horizontal(id="status-bar"):
                    yield Static("", id="char-count", markup=False)
                    yield Static("", id="save-status", markup=False)
                    yield Static("", id="model-status", markup=False)
            with Vertical(id="followup-panel"):
                with Horizontal(classes="question-bar"):
                    yield Static("Follow-up question", id="followup-progress", markup=False)
                    yield CountdownLabel("", id="followup-countdown")
                yield Static("", id="followup-text", markup=False)
                yield Static("", id="followup-notice", markup=False)
                yield TextArea("", id="followup-answer", soft_wrap=True,
                               placeholder="Answer the follow-up. Ctrl+S submits; F3 skips it.")
            with Vertical(id="feedback-panel"):
                yield WrappedText("", id="feedback-question")
                with Horizontal(id="score-bar"):
                    yield Static("", id="score", markup=False)
                    yield Static("", id="counts", markup=False)
                yield Static("", id="retake-diff", markup=False)
                with VerticalScroll(id="answer-view"):
                    yield WrappedText("", id="answer-text")
                with VerticalScroll(id="points"):
                    yield WrappedText("", id="points-text")
        yield Footer()

    def on_mount(self) -> None:
        self.watch(self.app, "model_status", self._show_model_status)
        self.set_interval(TICK, self.tick)
        self.set_interval(TIME_SAVE_EVERY, self._save_time)
        if self.opens_on_feedback:
            self.show_feedback(self.index)
        elif self.attempt.followup_pending:  # resumed while a follow-up was being answered
            self.show_pending_followup(self.index)
        else:
            self.show_question(self.index)

    # ------------------------------------------------------------ panels

    def show_question(self, index: int) -> None:
        """Put question ``index`` on screen with a fresh clock."""
        self.index = index
        attempt = self.attempt
        total = len(self.interview.plan.questions)
        number = self.interview.number(index)
        retake = " · retake" if attempt.retry_of is not None else ""
        self.query_one("#progress", Static).update(f"Question {number} of {total}{retake}")
        self.query_one("#question-text", Static).update(attempt.question.text)
        answer = self.query_one("#answer", TextArea)
        answer.load_text(attempt.answer)
        answer.move_cursor(answer.document.end)  # a restored draft goes on where it stopped
        answer.read_only = False
        answer.display = True
        self.query_one("#waiting").display = False
        self.query_one("#paused").display = False
        self.waiting = self.paused = False
        self.query_one("#save-status", Static).update("")
        # a resumed attempt keeps the time it had already used
        self.countdown = Countdown(self.clock, self.interview.plan.time_limit,
                                   used_before=attempt.time_used).start()
        if self.total is not None:
            self.total.resume()  # the interview clock runs only while a question is open
        self._update_count()
        self.mode = "question"
        self.query_one(ContentSwitcher).current = "question-panel"
        answer.focus()
        self._last_remaining = self._remaining()  # warn only at marks crossed from here
        self.tick()

    def watch_mode(self) -> None:
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.mode == "followup":
            return action in FOLLOWUP_ACTIONS or action not in QUESTION_ACTIONS | FEEDBACK_ACTIONS
        if action in QUESTION_ACTIONS:
            return self.mode == "question"
        if action in FEEDBACK_ACTIONS:
            return self.mode == "feedback"
        return True

    # ------------------------------------------------------------ clock

    def tick(self) -> None:
        """Redraw the clock; warn at 1 minute and 10 seconds; submit at zero."""
        if self.mode == "followup":
            self._tick_followup()
            return
        if self.mode != "question":
            return
        remaining = self._remaining()
        self.query_one(CountdownLabel).show(remaining, self.countdown.elapsed(), self.paused)
        if remaining is None or self.waiting:
            return
        if remaining > 0:
            for mark in marks_crossed((WARN_AT, CRITICAL_AT), self._last_remaining, remaining):
                self.notify(WARNINGS[mark], severity="warning" if mark == WARN_AT else "error",
                            timeout=4)
        self._last_remaining = remaining
        if remaining <= 0:
            self.attempt.auto_submitted = True
            self.notify("Time is up: your answer was submitted as it stands.", timeout=6)
            self._submit(allow_empty=True)

    def _remaining(self) -> float | None:
        remaining = self.countdown.remaining()
        total = self.total
        if total is not None and (remaining is None or total.remaining() < remaining):
            remaining = total.remaining()  # the interview's limit is the nearer deadline
        return remaining

    def _show_model_status(self, status: str) -> None:
        self.model_status = status
        self.query_one("#model-status", Static).update(_MODEL_STATUS.get(status, status))

    def _stop_clocks(self) -> None:
        self.countdown.pause()
        if self.total is not None:
            self.total.pause()

    # ------------------------------------------------------------ typing

    def _update_count(self) -> None:
        n = len(self.query_one("#answer", TextArea).text)
        self.query_one("#char-count", Static).update(f"{n} characters")

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        if self.mode == "followup" and event.text_area.id == "followup-answer":
            self._followup_changed(event.text_area.text)
            return
        if self.mode != "question" or event.text_area.id != "answer":
            return
        if event.text_area.text == self.attempt.answer:
            return  # the screen loaded it; nothing new to save
        # the attempt always holds what is on screen; the disk copy follows within a second
        # of the first unsaved keystroke (a throttle, not a debounce: steady typing saves too)
        self.attempt.answer = event.text_area.text
        self._update_count()
        self.query_one("#save-status", Static).update("")  # what is shown is not saved yet
        if self._save_timer is None:
            self._save_timer = self.set_timer(DRAFT_SAVE_DELAY, self.save_now)

    def save_now(self) -> None:
        """Write the draft and the time used so far (never waits on a busy database)."""
        if self._save_timer is not None:
            self._save_timer.stop()
            self._save_timer = None
        if self.mode == "followup":
            rounds = self.attempt.followups
            if self.followup_countdown is not None and not self.waiting and rounds \
                    and rounds[-1].draft:
                self._told(self.controller.save_followup_draft(
                    self.index, self.query_one("#followup-answer", TextArea).text,
                    self.followup_countdown.elapsed()))
            return
        if self.mode != "question":
            return
        saved = self.controller.save_draft(self.index, self.query_one("#answer", TextArea).text,
                                           self.countdown.elapsed())
        self._told(saved)
        status = self.query_one("#save-status", Static)
        if saved:
            status.update("✓ draft saved")
        elif saved is None:
            status.update("… kept aside: the database is busy")
        else:
            status.update("⚠ not saved")

    def _told(self, saved: bool | None) -> None:
        """Say once that saving fails."""
        problem = self.controller.saving_problem(saved)
        if problem is not None:
            self.notify(problem, severity="error", markup=False, timeout=15)

    def _save_time(self) -> None:
        """Keep the stored time used current while nobody types (a kill then loses < 1 s)."""
        if self.mode == "question" and not self.waiting and \
                self.countdown.elapsed() - self.attempt.time_used >= TIME_SAVE_EVERY:
            self.save_now()

    def draft_saved(self, index: int) -> None:
        """A draft that waited for the database reached it."""
        if index == self.index and self.mode == "question":
            self.query_one("#save-status", Static).update("✓ draft saved")

    # ------------------------------------------------------------ question actions

    def action_submit(self) -> None:
        # Ctrl+S is a priority binding, handled before keys still queued for the answer box
        # (a paste, a fast typist). Queue the submit behind them so none is left out.
        if self.mode == "followup":
            self.query_one("#followup-answer", TextArea).call_later(self._submit_followup, False)
        else:
            self.query_one("#answer", TextArea).call_later(self._submit, allow_empty=False)

    def _typed(self, box: str, allow_empty: bool) -> str | None:
        """The text of answer box ``box``, or None (with a warning) if it is empty and must not be."""
        text = self.query_one(box, TextArea).text
        if not text.strip() and not allow_empty:
            self.notify("The answer is empty: type something first, or F3 to skip.",
                        severity="warning")
            return None
        return text

    def _submit(self, allow_empty: bool) -> None:
        if self.waiting or self.mode != "question":
            return
        text = self._typed("#answer", allow_empty)
        if text is None:
            return
        self._stop_clocks()
        self.save_now()
        if not text.strip():
            self.post_message(self.Skipped(self.index))
            return
        self.waiting = True
        self.query_one("#answer", TextArea).read_only = True
        if self.model_status != "ready":
            self.query_one("#waiting").display = True
        self.post_message(self.Submitted(self.index, text))

