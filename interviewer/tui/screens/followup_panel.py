"""The follow-up panel of the interview screen: the question as it streams in, its own
clock and answer box, and what is typed to it."""

from __future__ import annotations

from textual.widgets import ContentSwitcher, Static, TextArea

from interviewer.sessions.timer import Countdown
from interviewer.tui.widgets import CountdownLabel

FOLLOWUP_LIMIT = 120.0  # seconds for a follow-up answer (or the question's limit if shorter)
DRAFT_SAVE_DELAY = 1.0  # at most this long after the first unsaved keystroke


# the panel's layout, part of the screen's DEFAULT_CSS
FOLLOWUP_CSS = """
#followup-progress {
    width: 1fr;
    color: $text-muted;
}
#followup-text {
    text-style: bold;
    padding: 0 1 1 1;
    height: auto;
    max-height: 8;
    color: $accent;
}
#followup-notice {
    padding: 0 1;
    height: auto;
    color: $text-muted;
}
#followup-answer {
    height: 1fr;
    min-height: 5;
    border: tall $accent;
}
"""

class FollowUpPanel:
    """Mixed into :class:`~interviewer.tui.screens.interview.InterviewScreen`."""

    def _followup_changed(self, text: str) -> None:
        rounds = self.attempt.followups
        if self.followup_countdown is None or self.waiting or not rounds or not rounds[-1].draft:
            return
        if text == rounds[-1].answer:
            return
        rounds[-1].answer = text
        if self._save_timer is None:
            self._save_timer = self.set_timer(DRAFT_SAVE_DELAY, self.save_now)

    def show_followup_waiting(self, index: int) -> None:
        """The follow-up panel while the question is being written (it streams in)."""
        self.index = index
        self.followup_countdown = None
        self.query_one("#followup-text", Static).update("The interviewer is thinking of a follow-up…")
        self.query_one("#followup-notice", Static).update("")
        answer = self.query_one("#followup-answer", TextArea)
        answer.load_text("")
        answer.read_only = True
        self.query_one("#followup-countdown", CountdownLabel).update("")
        self.waiting = False
        self.mode = "followup"
        self.query_one(ContentSwitcher).current = "followup-panel"

    def stream_followup(self, text: str) -> None:
        if self.mode == "followup" and self.followup_countdown is None and text:
            self.query_one("#followup-text", Static).update(text)

    def show_followup(self, index: int, text: str, notice: str | None,
                      used_before: float = 0.0) -> None:
        """The follow-up question in full: the answer box opens and its clock starts."""
        self.index = index
        self.query_one("#followup-text", Static).update(text)
        self.query_one("#followup-notice", Static).update(notice or "")
        limit = min(FOLLOWUP_LIMIT, self.interview.plan.time_limit or FOLLOWUP_LIMIT)
        self.followup_countdown = Countdown(self.clock, limit, used_before=used_before).start()
        answer = self.query_one("#followup-answer", TextArea)
        answer.read_only = False
        answer.focus()
        self._tick_followup()

    def show_pending_followup(self, index: int) -> None:
        """A follow-up asked before the app stopped: its question, clock and typed answer."""
        self.show_followup_waiting(index)
        round_ = self.attempt.followups[-1]
        self.show_followup(index, round_.question, round_.notice, used_before=round_.time_used)
        self.query_one("#followup-answer", TextArea).load_text(round_.answer)

    def _tick_followup(self) -> None:
        countdown = getattr(self, "followup_countdown", None)
        if countdown is None or self.waiting:
            return
        remaining = countdown.remaining()
        self.query_one("#followup-countdown", CountdownLabel).show(remaining, countdown.elapsed())
        if remaining is not None and remaining <= 0:
            self.notify("Time is up: your follow-up answer was submitted as it stands.", timeout=6)
            self._submit_followup(allow_empty=True)

    def _submit_followup(self, allow_empty: bool) -> None:
        countdown = getattr(self, "followup_countdown", None)
        if self.waiting or countdown is None:
            return
        text = self._typed("#followup-answer", allow_empty)
        if text is None:
            return
        countdown.pause()
        self.waiting = True
        self.query_one("#followup-answer", TextArea).read_only = True
        self.post_message(self.FollowUpSubmitted(self.index, text, countdown.elapsed()))
