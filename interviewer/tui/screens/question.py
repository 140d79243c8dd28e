"""The question screen: the question, an answer box under a countdown, and submit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, LoadingIndicator, Static, TextArea

from interviewer.timer import Clock, Countdown
from interviewer.tui.widgets import CRITICAL_AT, WARN_AT, CountdownLabel

if TYPE_CHECKING:
    from interviewer.interview import Interview
    from interviewer.tui.app import InterviewApp

_MODEL_STATUS = {
    "loading": "Loading the grading model…",
    "ready": "Model ready",
    "failed": "Grading unavailable (answers are still saved)",
}
DRAFT_SAVE_DELAY = 1.0  # seconds after the last keystroke
TICK = 0.25  # how often the clock is redrawn; the deadline itself comes from the clock


class QuestionScreen(Screen):
    BINDINGS = [
        Binding("ctrl+s", "submit", "Submit", priority=True),
        Binding("f2", "pause", "Pause/resume"),
        Binding("f3", "skip", "Skip"),
    ]

    def __init__(self, interview: Interview, index: int, clock: Clock) -> None:
        super().__init__()
        self.interview = interview
        self.index = index
        self.attempt = interview.attempts[index]
        self.countdown = Countdown(clock, interview.plan.time_limit)
        self.waiting = False
        self.paused = False
        self._warned: set[float] = set()
        self._save_timer = None

    @property
    def app_(self) -> InterviewApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        total = len(self.interview.plan.questions)
        number = min(self.index, total - 1) + 1
        retake = " · retake" if self.attempt.retry_of is not None else ""
        yield Header()
        with Horizontal(id="question-bar"):
            yield Static(f"Question {number} of {total}{retake}", id="progress", markup=False)
            yield CountdownLabel("", id="countdown")
        yield Static(self.attempt.question.text, id="question-text", markup=False)
        yield TextArea(self.attempt.answer, id="answer", soft_wrap=True,
                       placeholder="Type your answer. Ctrl+S submits; F2 pauses the clock.")
        with Vertical(id="waiting"):
            yield LoadingIndicator()
            yield Static("Grading as soon as the model is ready…", markup=False)
        with Vertical(id="paused"):
            yield Static("Paused. The clock is stopped. Press F2 to resume.", markup=False)
        with Horizontal(id="status-bar"):
            yield Static("", id="char-count", markup=False)
            yield Static("", id="model-status", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#waiting").display = False
        self.query_one("#paused").display = False
        self.query_one(TextArea).focus()
        self._update_count()
        self.watch(self.app, "model_status", self._show_model_status)
        self.countdown.start()
        if self.app_.total is not None:
            self.app_.total.resume()  # the interview clock runs only while a question is open
        self.tick()
        self.set_interval(TICK, self.tick)

    # ------------------------------------------------------------ clock

    def tick(self) -> None:
        """Redraw the clock; warn at 1 minute and 10 seconds; submit at zero."""
        remaining = self.countdown.remaining()
        total = self.app_.total
        if total is not None and (remaining is None or total.remaining() < remaining):
            remaining = total.remaining()  # the interview's limit is the nearer deadline
        self.query_one(CountdownLabel).show(remaining, self.countdown.elapsed(), self.paused)
        if remaining is None or self.waiting:
            return
        for mark, text in ((WARN_AT, "1 minute left"), (CRITICAL_AT, "10 seconds left")):
            if remaining <= mark and mark not in self._warned and remaining > 0:
                self._warned.add(mark)
                self.notify(text, severity="warning" if mark == WARN_AT else "error", timeout=4)
        if remaining <= 0:
            self.attempt.auto_submitted = True
            self.notify("Time is up: your answer was submitted as it stands.", timeout=6)
            self._submit(allow_empty=True)

    def _show_model_status(self, status: str) -> None:
        self.query_one("#model-status", Static).update(_MODEL_STATUS.get(status, status))

    # ------------------------------------------------------------ typing

    def _update_count(self) -> None:
        n = len(self.query_one(TextArea).text)
        self.query_one("#char-count", Static).update(f"{n} characters")

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        # the attempt always holds what is on screen; the disk copy follows within a second
        self.attempt.answer = event.text_area.text
        self._update_count()
        if self._save_timer is not None:
            self._save_timer.stop()
        self._save_timer = self.set_timer(DRAFT_SAVE_DELAY, self._save_draft)

    def _save_draft(self) -> None:
        self.app_.save_draft(self.index, self.query_one(TextArea).text)

    # ------------------------------------------------------------ actions

    def action_submit(self) -> None:
        self._submit(allow_empty=False)

    def _stop_clocks(self) -> None:
        self.countdown.pause()
        if self.app_.total is not None:
            self.app_.total.pause()

    def _submit(self, allow_empty: bool) -> None:
        if self.waiting:
            return
        text = self.query_one(TextArea).text
        if not text.strip() and not allow_empty:
            self.notify("The answer is empty: type something first, or F3 to skip.",
                        severity="warning")
            return
        self._stop_clocks()
        self.attempt.time_used = self.countdown.elapsed()
        if not text.strip():
            self.app_.save_draft(self.index, text)
            self.app_.skip_question(self.index)
            return
        self.waiting = True
        self.query_one(TextArea).read_only = True
        if self.app_.model_status != "ready":
            self.query_one("#waiting").display = True
        self.app_.submit_answer(self.index, text)

    def action_pause(self) -> None:
        if self.waiting:
            return
        self.paused = not self.paused
        if self.paused:
            self.countdown.pause()
            if self.app_.total is not None:
                self.app_.total.pause()
        else:
            self.countdown.resume()
            if self.app_.total is not None:
                self.app_.total.resume()
        answer = self.query_one(TextArea)
        answer.display = not self.paused  # no typing on a stopped clock
        self.query_one("#paused").display = self.paused
        if not self.paused:
            answer.focus()
        self.tick()

    def action_skip(self) -> None:
        if self.waiting:
            return
        self._stop_clocks()
        self.attempt.time_used = self.countdown.elapsed()
        self.app_.save_draft(self.index, self.query_one(TextArea).text)
        self.app_.skip_question(self.index)

    def cancel_waiting(self) -> None:
        self.waiting = False
        self.query_one("#waiting").display = False
        self.query_one(TextArea).read_only = False
        self.countdown.resume()
        if self.app_.total is not None:
            self.app_.total.resume()
