"""The question screen: the question, an answer box, and submit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, LoadingIndicator, Static, TextArea

if TYPE_CHECKING:
    from interviewer.tui.app import Interview, InterviewApp

_MODEL_STATUS = {
    "loading": "Loading the grading model…",
    "ready": "Model ready",
    "failed": "Grading unavailable (answers are still saved)",
}
DRAFT_SAVE_DELAY = 1.0  # seconds after the last keystroke


class QuestionScreen(Screen):
    BINDINGS = [Binding("ctrl+s", "submit", "Submit", priority=True)]

    def __init__(self, interview: Interview, index: int) -> None:
        super().__init__()
        self.interview = interview
        self.index = index
        self.waiting = False
        self._save_timer = None

    @property
    def app_(self) -> InterviewApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        attempt = self.interview.attempts[self.index]
        yield Header()
        with Vertical(id="question-pane"):
            yield Static(f"Question {self.index + 1} of {len(self.interview.attempts)}",
                         id="progress", markup=False)
            yield Static(attempt.question.text, id="question-text", markup=False)
        yield TextArea(attempt.answer, id="answer", soft_wrap=True,
                       placeholder="Type your answer. Ctrl+S submits.")
        with Vertical(id="waiting"):
            yield LoadingIndicator()
            yield Static("Grading as soon as the model is ready…", markup=False)
        with Horizontal(id="status-bar"):
            yield Static("", id="char-count", markup=False)
            yield Static("", id="model-status", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#waiting").display = False
        self.query_one(TextArea).focus()
        self._update_count()
        self.watch(self.app, "model_status", self._show_model_status)

    def _show_model_status(self, status: str) -> None:
        self.query_one("#model-status", Static).update(_MODEL_STATUS.get(status, status))

    def _update_count(self) -> None:
        n = len(self.query_one(TextArea).text)
        self.query_one("#char-count", Static).update(f"{n} characters")

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        # the attempt always holds what is on screen; the disk copy follows within a second
        self.interview.attempts[self.index].answer = event.text_area.text
        self._update_count()
        if self._save_timer is not None:
            self._save_timer.stop()
        self._save_timer = self.set_timer(DRAFT_SAVE_DELAY, self._save_draft)

    def _save_draft(self) -> None:
        self.app_.save_draft(self.index, self.query_one(TextArea).text)

    def action_submit(self) -> None:
        if self.waiting:
            return
        text = self.query_one(TextArea).text
        if not text.strip():
            self.notify("The answer is empty: type something first.", severity="warning")
            return
        self.waiting = True
        self.query_one(TextArea).read_only = True
        if self.app_.model_status != "ready":
            self.query_one("#waiting").display = True
        self.app_.submit_answer(self.index, text)

    def cancel_waiting(self) -> None:
        self.waiting = False
        self.query_one("#waiting").display = False
        self.query_one(TextArea).read_only = False
