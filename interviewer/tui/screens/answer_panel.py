"""What the question and follow-up panels share: a progress line with its clock over the
question asked (styled once for both), an answer box that must not be sent empty, and what
is typed put on disk at every change (a kill -9 cannot be caught: what is on screen must
already be on disk)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.containers import Vertical
from textual.widgets import TextArea

if TYPE_CHECKING:
    from interviewer.sessions.controller import InterviewController
    from interviewer.sessions.interview import Attempt, Interview


class AnswerPanel(Vertical):
    """A panel with one answer box; drafts are saved through the controller it is given."""

    DEFAULT_CSS = """
    AnswerPanel {
        height: 1fr;
    }
    AnswerPanel .question-bar {
        height: 1;
        padding: 0 1;
    }
    AnswerPanel .progress {
        width: 1fr;
        color: $text-muted;
    }
    AnswerPanel .asked {
        text-style: bold;
        padding: 0 1 1 1;
        height: auto;
        max-height: 8;
    }
    """

    def __init__(self, controller: InterviewController, **kwargs) -> None:
        super().__init__(**kwargs)
        self.controller = controller
        self.index = 0  # the attempt being answered
        self.waiting = False  # sent: the answer box waits for the grade

    @property
    def interview(self) -> Interview:
        assert self.controller.interview is not None
        return self.controller.interview

    @property
    def attempt(self) -> Attempt:
        return self.interview.attempts[self.index]

    @property
    def active(self) -> bool:
        """On screen (the interview screen shows one panel at a time): only then is what
        is typed here saved."""
        return self.display

    def typed(self, allow_empty: bool) -> str | None:
        """The answer box's text, or None (with a warning) if it is empty and must not be."""
        text = self.query_one(TextArea).text
        if not text.strip() and not allow_empty:
            self.notify("The answer is empty: type something first, or F3 to skip.",
                        severity="warning")
            return None
        return text

    def submit(self, allow_empty: bool) -> None:
        raise NotImplementedError

    def submit_from_here(self, allow_empty: bool) -> None:
        """Submit from this panel's own message loop. The clock's tick comes from the
        screen's timer: a message created there has the screen as its sender, and Textual
        stops a message at its sender's level, so that submit never reached the app (the
        interview waited at 0:00 for ever)."""
        self.call_later(self.submit, allow_empty=allow_empty)

    def save_now(self) -> None:
        """Write what is typed (and the time used) now; called at every change of the answer.
        A write is an UPDATE of one row, 0.1 ms; while another process holds the database it
        goes to a side file instead, and the writer's thread takes it there later."""
        if self.active:
            self.save_draft()

    def save_draft(self) -> None:
        """Write what is typed; each panel to its own place."""
        raise NotImplementedError

    def told(self, saved: bool | None) -> None:
        """Say once that saving fails."""
        problem = self.controller.saving_problem(saved)
        if problem is not None:
            self.notify(problem, severity="error", markup=False, timeout=15)
