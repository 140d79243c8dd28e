"""The question panel of the interview screen: pausing the clock, skipping the question
(asking first when something is typed), and going back to typing when grading failed."""

from __future__ import annotations

from textual.widgets import TextArea

# the panel's layout, part of the screen's DEFAULT_CSS
QUESTION_CSS = """
.question-bar {
    height: 1;
    padding: 0 1;
}
#progress {
    width: 1fr;
    color: $text-muted;
}
#question-text {
    text-style: bold;
    padding: 0 1 1 1;
    height: auto;
    max-height: 8;
}
#answer {
    height: 1fr;
    min-height: 5;
    border: tall $primary;
}
#waiting {
    height: 5;
    align: center middle;
}
#waiting Static, #paused Static {
    width: auto;
    color: $text-muted;
}
#paused {
    height: 1fr;
    align: center middle;
    border: tall $warning;
}
#status-bar {
    height: 1;
    padding: 0 1;
    color: $text-muted;
}
#char-count {
    width: 1fr;
}
#save-status {
    width: auto;
    padding-right: 2;
}
#model-status {
    width: auto;
}
#panels, #question-panel, #followup-panel, #feedback-panel {
    height: 1fr;
}
"""


class QuestionPanel:
    """Mixed into :class:`~interviewer.tui.screens.interview.InterviewScreen`."""

    def action_pause(self) -> None:
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

    def action_skip(self) -> None:
        if self.mode == "followup":
            if not self.waiting:  # answering it, or still waiting for it to be written
                self.post_message(self.FollowUpSkipped(self.index))
            return
        self.query_one("#answer", TextArea).call_later(self._skip)

    def _skip(self) -> None:
        if self.waiting or self.mode != "question":
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
        if self.waiting or self.mode != "question":
            return
        self._stop_clocks()
        self.save_now()
        self.post_message(self.Skipped(self.index))

    def cancel_waiting(self) -> None:
        self.waiting = False
        self.query_one("#waiting").display = False
        self.query_one("#answer", TextArea).read_only = False
        self.countdown.resume()
        if self.total is not None:
            self.total.resume()
