"""The follow-up panel of the interview screen: the question as it streams in, its own
clock and answer box, and what is typed to it. Posts ``Submitted`` and ``Skipped``."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Static, TextArea

from interviewer.sessions.timer import Countdown
from interviewer.tui.screens.answer_panel import AnswerPanel
from interviewer.tui.widgets import CountdownLabel

FOLLOWUP_LIMIT = 120.0  # seconds for a follow-up answer (or the question's limit if shorter)


class FollowUpPanel(AnswerPanel):
    DEFAULT_CSS = """
    FollowUpPanel #followup-text {
        color: $accent;
    }
    FollowUpPanel #followup-notice {
        padding: 0 1;
        height: auto;
        color: $text-muted;
    }
    FollowUpPanel #followup-answer {
        height: 1fr;
        min-height: 5;
        border: tall $accent;
    }
    """

    class Submitted(Message):
        def __init__(self, index: int, text: str, time_used: float) -> None:
            super().__init__()
            self.index, self.text, self.time_used = index, text, time_used

    class Skipped(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, controller, **kwargs) -> None:
        super().__init__(controller, **kwargs)
        self.countdown: Countdown | None = None  # None: the question is still being written

    def compose(self) -> ComposeResult:
        with Horizontal(classes="question-bar"):
            yield Static("Follow-up question", id="followup-progress", classes="progress",
                         markup=False)
            yield CountdownLabel("", id="followup-countdown")
        yield Static("", id="followup-text", classes="asked", markup=False)
        yield Static("", id="followup-notice", markup=False)
        yield TextArea("", id="followup-answer", soft_wrap=True,
                       placeholder="Answer the follow-up. Ctrl+S submits; F3 skips it.")

    def thinking(self, index: int) -> None:
        """The panel while the question is being written (it streams in)."""
        self.index = index
        self.countdown = None
        self.query_one("#followup-text", Static).update("The interviewer is thinking of a follow-up…")
        self.query_one("#followup-notice", Static).update("")
        answer = self.query_one("#followup-answer", TextArea)
        answer.load_text("")
        answer.read_only = True
        self.query_one("#followup-countdown", CountdownLabel).update("")
        self.waiting = False

    def stream(self, text: str) -> None:
        if self.active and self.countdown is None and text:
            self.query_one("#followup-text", Static).update(text)

    def asked(self, index: int, text: str, notice: str | None, used_before: float = 0.0) -> None:
        """The follow-up question in full: the answer box opens and its clock starts."""
        self.index = index
        self.query_one("#followup-text", Static).update(text)
        self.query_one("#followup-notice", Static).update(notice or "")
        limit = min(FOLLOWUP_LIMIT, self.interview.plan.time_limit or FOLLOWUP_LIMIT)
        self.countdown = Countdown(self.controller.clock, limit, used_before=used_before).start()
        answer = self.query_one("#followup-answer", TextArea)
        answer.read_only = False
        answer.focus()
        self.tick()

    def reopen(self, index: int) -> None:
        """A follow-up asked before the app stopped: its question, clock and typed answer."""
        self.thinking(index)
        round_ = self.attempt.followups[-1]
        self.asked(index, round_.question, round_.notice, used_before=round_.time_used)
        self.query_one("#followup-answer", TextArea).load_text(round_.answer)

    def tick(self) -> None:
        countdown = self.countdown
        if countdown is None or self.waiting:
            return
        remaining = countdown.remaining()
        self.query_one("#followup-countdown", CountdownLabel).show(remaining, countdown.elapsed())
        if remaining is not None and remaining <= 0:
            self.notify("Time is up: your follow-up answer was submitted as it stands.", timeout=6)
            self.submit_from_here(allow_empty=True)

    def _open(self) -> bool:
        """Its answer is being typed: the question is in full and not sent yet."""
        rounds = self.attempt.followups
        return self.countdown is not None and not self.waiting and bool(rounds) \
            and rounds[-1].draft

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        event.stop()
        rounds = self.attempt.followups
        if not self.active or not self._open() or event.text_area.text == rounds[-1].answer:
            return
        rounds[-1].answer = event.text_area.text
        self.save_now()

    def save_draft(self) -> None:
        if self._open():
            assert self.countdown is not None
            self.told(self.controller.save_followup_draft(
                self.index, self.query_one("#followup-answer", TextArea).text,
                self.countdown.elapsed()))

    def submit(self, allow_empty: bool) -> None:
        countdown = self.countdown
        if self.waiting or countdown is None:
            return
        text = self.typed(allow_empty)
        if text is None:
            return
        countdown.pause()
        self.waiting = True
        self.query_one("#followup-answer", TextArea).read_only = True
        self.post_message(self.Submitted(self.index, text, countdown.elapsed()))

    def skip(self) -> None:
        if not self.waiting:  # answering it, or still waiting for it to be written
            self.post_message(self.Skipped(self.index))
