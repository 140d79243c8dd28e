"""The question panel of the interview screen: the question under its countdown, the answer
box, pausing the clock, submitting and skipping (asking first when something is typed), and
going back to typing when grading failed. Posts ``Submitted`` and ``Skipped``, and
``Settled`` when typing has stopped for ``AHEAD_DELAY`` seconds: the answer as it stands can
be graded while the candidate reads it over, so that its submit shows the grade at once."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import LoadingIndicator, Static, TextArea

from interviewer.sessions.timer import Countdown, marks_crossed
from interviewer.tui.screens.answer_panel import AnswerPanel
from interviewer.tui.widgets import CRITICAL_AT, WARN_AT, CountdownLabel, WrappedText

MODEL_STATUS = {
    "loading": "Loading the grading model…",
    "ready": "Model ready",
    "failed": "Grading unavailable (answers are still saved)",
}
WARNINGS = {WARN_AT: "1 minute left", CRITICAL_AT: "10 seconds left"}
# Seconds without typing after which the answer is graded ahead of its submit: about one
# keystroke of steady typing (0.12-0.28 s), well under the pause before a command (1.35 s in
# the Keystroke-Level Model). A grade costs the grading process 25-30 ms of one core.
AHEAD_DELAY = 0.25


class QuestionPanel(AnswerPanel):
    DEFAULT_CSS = """
    QuestionPanel #answer {
        height: 1fr;
        min-height: 5;
        border: tall $primary;
    }
    QuestionPanel #waiting {
        height: 5;
        align: center middle;
    }
    QuestionPanel #waiting Static, QuestionPanel #paused Static {
        width: auto;
        color: $text-muted;
    }
    QuestionPanel #paused {
        height: 1fr;
        align: center middle;
        border: tall $warning;
    }
    QuestionPanel #status-bar {
        height: 1;
        padding: 0 1;
        color: $text-muted;
    }
    QuestionPanel #char-count {
        width: 1fr;
    }
    QuestionPanel #save-status {
        width: auto;
        padding-right: 2;
    }
    QuestionPanel #model-status {
        width: auto;
    }
    """

    class Submitted(Message):
        def __init__(self, index: int, text: str) -> None:
            super().__init__()
            self.index, self.text = index, text

    class Skipped(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    class Settled(Message):
        """Nothing typed for ``AHEAD_DELAY`` seconds; ``text`` is the answer as it stands."""

        def __init__(self, index: int, text: str) -> None:
            super().__init__()
            self.index, self.text = index, text

    def __init__(self, controller, **kwargs) -> None:
        super().__init__(controller, **kwargs)
        self.countdown = Countdown(controller.clock, self.interview.plan.time_limit)
        self.paused = False
        self.model_status = "loading"
        self._last_remaining: float | None = None
        self._settle_timer = None

    @property
    def total(self) -> Countdown | None:
        """The interview's own clock, when it has a limit."""
        return self.controller.total

    def compose(self) -> ComposeResult:
        with Horizontal(id="question-bar", classes="question-bar"):
            yield Static("", id="progress", classes="progress", markup=False)
            yield CountdownLabel("", id="countdown")
        yield WrappedText("", id="question-text", classes="asked")
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

    def ask(self, index: int) -> None:
        """Put question ``index`` on the panel with a fresh clock."""
        self._stop_settling()
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
        self.countdown = Countdown(self.controller.clock, self.interview.plan.time_limit,
                                   used_before=attempt.time_used).start()
        if self.total is not None:
            self.total.resume()  # the interview clock runs only while a question is open
        self._update_count()
        answer.focus()
        self._last_remaining = self._remaining()  # warn only at marks crossed from here
        self.tick()

    # ------------------------------------------------------------ clock

    def tick(self) -> None:
        """Redraw the clock; warn at 1 minute and 10 seconds; submit at zero."""
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
            self.submit_from_here(allow_empty=True)

    def _remaining(self) -> float | None:
        remaining = self.countdown.remaining()
        total = self.total
        if total is not None and (remaining is None or total.remaining() < remaining):
            remaining = total.remaining()  # the interview's limit is the nearer deadline
        return remaining

    def _stop_clocks(self) -> None:
        self.countdown.pause()
        if self.total is not None:
            self.total.pause()

    def toggle_pause(self) -> None:
        if self.waiting:
            return
        self.paused = not self.paused
        if self.paused:
            self._stop_clocks()
            self.save_now()
        else:
            self.countdown.resume()
            if self.total is not None:
                self.total.resume()
        answer = self.query_one("#answer", TextArea)
        answer.display = not self.paused  # no typing on a stopped clock
        self.query_one("#paused").display = self.paused
        if not self.paused:
            answer.focus()
        self.tick()

    def show_model_status(self, status: str) -> None:
        self.model_status = status
        self.query_one("#model-status", Static).update(MODEL_STATUS.get(status, status))

    # ------------------------------------------------------------ typing

    def _update_count(self) -> None:
        n = len(self.query_one("#answer", TextArea).text)
        self.query_one("#char-count", Static).update(f"{n} characters")

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        event.stop()
        if not self.active or event.text_area.text == self.attempt.answer:
            return  # the panel loaded it; nothing new to save
        # the attempt always holds what is on screen, and so does the disk
        self.attempt.answer = event.text_area.text
        self._update_count()
        self.save_now()
        self._settle_soon()

    def _settle_soon(self) -> None:
        """A debounce: ``Settled`` once the typing has stopped for ``AHEAD_DELAY`` seconds."""
        self._stop_settling()
        self._settle_timer = self.set_timer(AHEAD_DELAY, self._settled)

    def _stop_settling(self) -> None:
        if self._settle_timer is not None:
            self._settle_timer.stop()
            self._settle_timer = None

    def _settled(self) -> None:
        self._settle_timer = None
        text = self.query_one("#answer", TextArea).text
        if self.active and not (self.waiting or self.paused) and text.strip():
            self.post_message(self.Settled(self.index, text))

    def save_draft(self) -> None:
        """Write the draft and the time used so far (never waits on a busy database)."""
        saved = self.controller.save_draft(self.index, self.query_one("#answer", TextArea).text,
                                           self.countdown.elapsed())
        self.told(saved)
        self._save_status("✓ draft saved" if saved else "⚠ not saved" if saved is False
                          else "… kept aside: the database is busy")

    def _save_status(self, text: str) -> None:
        status = self.query_one("#save-status", Static)
        if str(status.content) != text:  # the same words at every keystroke: no new layout
            status.update(text)

    def save_time(self, every: float) -> None:
        """Keep the stored time used current while nobody types (a kill then loses < 1 s)."""
        if self.active and not self.waiting and \
                self.countdown.elapsed() - self.attempt.time_used >= every:
            self.save_now()

    def draft_saved(self, index: int) -> None:
        """A draft that waited for the database reached it."""
        if index == self.index and self.active:
            self._save_status("✓ draft saved")

    # ------------------------------------------------------------ submit, skip

    def submit(self, allow_empty: bool) -> None:
        if self.waiting or not self.active:
            return
        text = self.typed(allow_empty)
        if text is None:
            return
        self._stop_settling()
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

    def skip(self) -> None:
        if self.waiting or not self.active:
            return
        self.save_now()
        if not self.query_one("#answer", TextArea).text.strip():
            self._skip_now()
            return
        from interviewer.tui.screens.confirm import ConfirmScreen

        def decide(skip: bool | None) -> None:
            if skip:
                self._skip_now()
            else:
                self.query_one("#answer", TextArea).focus()

        self.app.push_screen(ConfirmScreen("Skip this question? What you typed is kept, "
                                           "but not graded."), decide)

    def _skip_now(self) -> None:
        if self.waiting or not self.active:
            return
        self._stop_settling()
        self._stop_clocks()
        self.save_now()
        self.post_message(self.Skipped(self.index))

    def type_again(self) -> None:
        """Grading failed: the answer can be edited and sent again."""
        self.waiting = False
        self.query_one("#waiting").display = False
        answer = self.query_one("#answer", TextArea)
        answer.read_only = False
        answer.focus()
        self.countdown.resume()
        if self.total is not None:
            self.total.resume()
