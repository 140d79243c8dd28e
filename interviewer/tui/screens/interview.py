"""The interview screen: a question under a countdown, its follow-ups, then its feedback.

Question, follow-up and feedback are three panels of one ContentSwitcher rather than
screens: switching screens costs Textual 60-120 ms of composition, flipping a panel and
updating three widgets costs about 10, so the feedback appears as fast as the grader allows
(bench/tui_latency.py measures it). The panels post what the user did (their ``Submitted``,
``Skipped``, ``NextRequested``, ``RetakeRequested`` messages bubble up to the app); the app
tells the screen what happened (the past-tense messages of :mod:`interviewer.tui.messages`)
and the screen puts the matching panel on top.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Header, TextArea

from interviewer.tui.messages import (
    DraftSaved,
    FollowUpAsked,
    FollowUpChunk,
    FollowUpStarted,
    Graded,
    GradingFailed,
    QuestionAsked,
)
from interviewer.tui.screens.feedback_panel import FeedbackPanel
from interviewer.tui.screens.followup_panel import FollowUpPanel
from interviewer.tui.screens.question_panel import QuestionPanel
from interviewer.tui.widgets import KeyBar

if TYPE_CHECKING:
    from interviewer.sessions.controller import InterviewController
    from interviewer.sessions.timer import Countdown

TICK = 0.25  # how often the clock is redrawn; the deadline itself comes from the clock
TIME_SAVE_EVERY = 1.0  # the time used reaches disk this often while the clock runs
QUESTION_ACTIONS = {"submit", "pause", "skip"}
FOLLOWUP_ACTIONS = {"submit", "skip"}
FEEDBACK_ACTIONS = {"next", "toggle_numbers", "retry"}


class InterviewScreen(Screen):
    """Composes the three panels and shows one at a time (``mode``); keys go to the one shown."""

    DEFAULT_CSS = """
    #panels {
        height: 1fr;
    }
    """

    BINDINGS = [
        Binding("ctrl+s", "submit", "Submit", priority=True),
        Binding("f2", "pause", "Pause/resume"),
        Binding("f3", "skip", "Skip"),
        Binding("n,enter", "next", "Next"),
        Binding("s", "toggle_numbers", "Numbers"),
        Binding("r", "retry", "Retake"),
    ]

    # question | followup | feedback: the panel on top. A var: setting it does not repaint
    # the whole screen, and the key bar is told only when it changes (_show).
    mode: var[str] = var("question", init=False)

    def __init__(self, controller: InterviewController, index: int,
                 feedback: bool = False) -> None:
        """``feedback``: open on the feedback of attempt ``index`` (from the summary)."""
        super().__init__()
        self.controller = controller
        self.opens_on_feedback = feedback
        self.index = index
        self.question = QuestionPanel(controller, id="question-panel")
        self.followup = FollowUpPanel(controller, id="followup-panel")
        self.feedback = FeedbackPanel(controller, id="feedback-panel")

    # what tests and the app read of the panel on top
    @property
    def waiting(self) -> bool:
        panel = {"question": self.question, "followup": self.followup}.get(self.mode)
        return panel is not None and panel.waiting

    @property
    def paused(self) -> bool:
        return self.question.paused

    @property
    def followup_countdown(self) -> Countdown | None:
        return self.followup.countdown

    def compose(self) -> ComposeResult:
        yield Header()
        with ContentSwitcher(initial="question-panel", id="panels"):
            yield self.question
            yield self.followup
            yield self.feedback
        yield KeyBar()

    def on_mount(self) -> None:
        self.watch(self.app, "model_status", self.question.show_model_status)
        self.set_interval(TICK, self.tick)
        self.set_interval(TIME_SAVE_EVERY, self._save_time)
        attempt = self.controller.interview.attempts[self.index]
        if self.opens_on_feedback:
            self._show_feedback(self.index)
        elif attempt.followup_pending:  # resumed while a follow-up was being answered
            self._show("followup", self.index)
            self.followup.reopen(self.index)
        else:
            self._ask(self.index)

    def _show(self, mode: str, index: int) -> None:
        self.index = index
        changed = mode != self.mode
        self.mode = mode
        self.query_one(ContentSwitcher).current = f"{mode}-panel"
        if changed:
            self.refresh_bindings()

    def _ask(self, index: int) -> None:
        self._show("question", index)
        self.question.ask(index)

    def _show_feedback(self, index: int) -> None:
        self._show("feedback", index)
        self.feedback.show(index)

    # ------------------------------------------------------------ what the app tells

    def on_question_asked(self, message: QuestionAsked) -> None:
        self._ask(message.index)

    def on_graded(self, message: Graded) -> None:
        self._show_feedback(message.index)

    def on_follow_up_started(self, message: FollowUpStarted) -> None:
        self._show("followup", message.index)
        self.followup.thinking(message.index)

    def on_follow_up_chunk(self, message: FollowUpChunk) -> None:
        self.followup.stream(message.text)

    def on_follow_up_asked(self, message: FollowUpAsked) -> None:
        self.followup.asked(message.index, message.text, message.notice)

    def on_draft_saved(self, message: DraftSaved) -> None:
        self.question.draft_saved(message.index)

    def on_grading_failed(self, _: GradingFailed) -> None:
        self.question.type_again()

    # ------------------------------------------------------------ keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.mode == "followup":
            return action in FOLLOWUP_ACTIONS or action not in QUESTION_ACTIONS | FEEDBACK_ACTIONS
        if action in QUESTION_ACTIONS:
            return self.mode == "question"
        if action in FEEDBACK_ACTIONS:
            return self.mode == "feedback"
        return True

    def action_submit(self) -> None:
        # Ctrl+S is a priority binding, handled before keys still queued for the answer box
        # (a paste, a fast typist). Queue the submit behind them so none is left out.
        panel = self.followup if self.mode == "followup" else self.question
        panel.query_one(TextArea).call_later(panel.submit, allow_empty=False)

    def action_pause(self) -> None:
        self.question.toggle_pause()

    def action_skip(self) -> None:
        if self.mode == "followup":
            self.followup.skip()
        else:
            self.question.query_one(TextArea).call_later(self.question.skip)

    def action_next(self) -> None:
        self.feedback.next()

    def action_toggle_numbers(self) -> None:
        self.feedback.toggle_numbers()

    def action_retry(self) -> None:
        self.feedback.retake()

    # ------------------------------------------------------------ clock and drafts

    def tick(self) -> None:
        """Redraw the clock of the panel on top (it submits at zero)."""
        if self.mode == "followup":
            self.followup.tick()
        elif self.mode == "question":
            self.question.tick()

    def save_now(self) -> None:
        """Write the answer being typed, and the time used (never waits on a busy database)."""
        self.question.save_now()
        self.followup.save_now()

    def _save_time(self) -> None:
        self.question.save_time(TIME_SAVE_EVERY)
