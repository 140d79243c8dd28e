"""The interview app: wiring between screens, workers and the core.

Build it with :func:`make_app`; the CLI and the tests both do, so what is tested is what
runs. Blocking work (loading the model, grading) happens in thread workers whose results
come back as messages; the UI thread never waits on the model.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from pathlib import Path

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.reactive import reactive
from textual.screen import Screen

from interviewer.bank import Bank
from interviewer.config import Settings
from interviewer.drafts import DraftStore
from interviewer.errors import InterviewerError
from interviewer.grading import Grader
from interviewer.interview import Interview
from interviewer.report import write_report
from interviewer.rubric import rubric_for_bank
from interviewer.session import InterviewPlan, SetupChoices, load_choices, save_choices
from interviewer.timer import Clock, Countdown, MonotonicClock
from interviewer.tui.messages import AnswerGraded, GradingFailed, ModelFailed, ModelReady
from interviewer.tui.screens.confirm import ConfirmScreen
from interviewer.tui.screens.help import HelpScreen
from interviewer.tui.screens.interview import InterviewScreen
from interviewer.tui.screens.setup import SetupScreen
from interviewer.tui.screens.summary import SummaryScreen


class InterviewApp(App[int]):
    CSS_PATH = "styles/app.tcss"
    TITLE = "interviewer"
    BINDINGS = [
        Binding("ctrl+q", "request_quit", "Quit", priority=True),
        Binding("f1", "help", "Help"),
    ]

    model_status: reactive[str] = reactive("loading")  # loading | ready | failed

    def __init__(self, *, banks: list[Bank], grader: Grader, settings: Settings,
                 choices: SetupChoices, plan: InterviewPlan | None = None,
                 drafts: DraftStore | None = None, clock: Clock | None = None) -> None:
        super().__init__()
        self.banks = banks
        self.grader = grader
        self.settings = settings
        self.choices = choices
        self.initial_plan = plan
        self.drafts = drafts
        self.clock: Clock = clock or MonotonicClock()
        self.interview: Interview | None = None
        self.total: Countdown | None = None
        self.model_error: str | None = None
        self.grade_seconds: list[tuple[float, float]] = []  # (grader time, submit→feedback)
        self._pending: tuple[int, str, float] | None = None

    # ------------------------------------------------------------ start

    def on_mount(self) -> None:
        if self.initial_plan is not None:
            self.start_interview(self.initial_plan)
        else:
            self.push_screen(SetupScreen(self.banks, self.choices))
        # Start loading only once the first screen is drawn: the loader competes for the
        # GIL, and the user should see a question before anything else happens.
        self.call_after_refresh(self.load_model)

    def start_interview(self, plan: InterviewPlan, choices: SetupChoices | None = None) -> None:
        if choices is not None:
            self.choices = choices
            save_choices(self.settings.data_dir, choices)
        try:
            loaded = rubric_for_bank(plan.bank)
        except InterviewerError as exc:
            self.notify(str(exc), severity="error", markup=False, timeout=15)
            return
        for warning in loaded.warnings:
            self.notify(warning, severity="warning", markup=False, timeout=8)
        self.interview = Interview.start(plan, loaded.rubric)
        self.sub_title = plan.bank.title
        self.total = Countdown(self.clock, plan.total_limit).start() if plan.total_limit else None
        self._show(InterviewScreen(self.interview, 0, self.clock))

    def _show(self, screen: Screen) -> None:
        if len(self.screen_stack) > 1:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    # ------------------------------------------------------------ model

    @work(thread=True, exclusive=True, group="model", exit_on_error=False)
    def load_model(self) -> None:
        try:
            self.grader.warm_up()
        except InterviewerError as exc:
            self.post_message(ModelFailed(str(exc)))
        except Exception as exc:  # the UI must survive any failure of the model stack
            self.post_message(ModelFailed(f"{type(exc).__name__}: {exc}"))
        else:
            self.post_message(ModelReady())

    def on_model_ready(self, _: ModelReady) -> None:
        self.model_status = "ready"
        if self._pending is not None:
            index, text, submitted = self._pending
            self._pending = None
            self.grade_answer(index, text, submitted)

    def on_model_failed(self, message: ModelFailed) -> None:
        self.model_status = "failed"
        self.model_error = message.reason
        self.notify(f"Grading is unavailable: {message.reason}. Your answers are kept.",
                    severity="error", markup=False, timeout=15)

    # ------------------------------------------------------------ answers

    def save_draft(self, index: int, text: str) -> None:
        assert self.interview is not None
        attempt = self.interview.attempts[index]
        attempt.answer = text
        if self.drafts is not None and not self.drafts.save_draft(attempt.question.id, text):
            self.notify(f"Draft not saved: {self.drafts.last_error}", severity="warning",
                        markup=False)

    def submit_answer(self, index: int, text: str) -> None:
        """Grade now, or as soon as the model is ready."""
        self.save_draft(index, text)
        submitted = time.perf_counter()
        if self.model_status == "ready":
            self.grade_answer(index, text, submitted)
        else:
            self._pending = (index, text, submitted)

    @work(thread=True, exclusive=True, group="grade", exit_on_error=False)
    def grade_answer(self, index: int, text: str, submitted: float) -> None:
        assert self.interview is not None
        attempt = self.interview.attempts[index]
        start = time.perf_counter()
        try:
            grade = self.grader.grade(self.interview.rubric, attempt.question.id, text)
        except Exception as exc:  # shown to the user; the answer is already saved
            self.post_message(GradingFailed(index, f"{type(exc).__name__}: {exc}"))
        else:
            self.post_message(AnswerGraded(index, grade, time.perf_counter() - start, submitted))

    def on_answer_graded(self, message: AnswerGraded) -> None:
        assert self.interview is not None
        attempt = self.interview.attempts[message.index]
        attempt.grade = message.grade
        if self.drafts is not None:
            self.drafts.save_answer(attempt.question.id, attempt.answer, message.grade.score)
        screen = self.screen
        if isinstance(screen, InterviewScreen):
            screen.show_feedback(message.index)
        self.call_after_refresh(self._record_latency, message.seconds, message.submitted)

    def _record_latency(self, grader_seconds: float, submitted: float) -> None:
        self.grade_seconds.append((grader_seconds, time.perf_counter() - submitted))

    def on_grading_failed(self, message: GradingFailed) -> None:
        self.notify(f"Grading failed: {message.reason}. Your answer is saved.",
                    severity="error", markup=False, timeout=15)
        if isinstance(self.screen, InterviewScreen):
            self.screen.cancel_waiting()

    # ------------------------------------------------------------ navigation

    def next_question(self) -> None:
        assert self.interview is not None
        nxt = self.interview.index + 1
        if self.total is not None and self.total.expired:
            self.finish()
        elif nxt < len(self.interview.plan.questions) and nxt < len(self.interview.attempts) \
                and self.interview.attempts[nxt].retry_of is None:
            self.interview.index = nxt
            self._ask(nxt)
        else:
            self.finish()

    def skip_question(self, index: int) -> None:
        assert self.interview is not None
        self.interview.attempts[index].skipped = True
        self.next_question()

    def retry_question(self, attempt_index: int) -> None:
        assert self.interview is not None
        index = self.interview.retry(attempt_index)
        self.interview.index = index
        self._ask(index)

    def _ask(self, index: int) -> None:
        """Question ``index`` in the interview screen, reusing it when it is showing."""
        assert self.interview is not None
        if isinstance(self.screen, InterviewScreen):
            self.screen.show_question(index)
        else:
            self._show(InterviewScreen(self.interview, index, self.clock))

    def finish(self) -> None:
        assert self.interview is not None
        self._show(SummaryScreen(self.interview))

    def new_interview(self) -> None:
        self.interview = None
        self.total = None
        self._show(SetupScreen(self.banks, self.choices))

    def export_report(self) -> Path | None:
        if self.interview is None:
            return None
        stamp = self.interview.started_at.astimezone().strftime("%Y%m%d-%H%M%S")
        path = self.settings.data_dir / "reports" / f"{self.interview.bank.id}-{stamp}.md"
        try:
            write_report(self.interview, path, self.grader.model_id)
        except OSError as exc:
            self.notify(f"Could not write the report: {exc.strerror} ({path})", severity="error",
                        markup=False)
            return None
        self.notify(f"Report written to {path}", markup=False, timeout=10)
        return path

    # ------------------------------------------------------------ app-wide actions

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_request_quit(self) -> None:
        screen = self.screen
        in_progress = isinstance(screen, InterviewScreen) and screen.mode == "question"
        if not in_progress:
            self.exit(0)
            return

        def decide(quit_now: bool | None) -> None:
            if quit_now:
                self.exit(0)

        self.push_screen(ConfirmScreen("Quit the interview? Your draft is saved either way."),
                         decide)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Help", "Keys and what they do", self.action_help)
        if isinstance(screen, InterviewScreen) and screen.mode == "question":
            yield SystemCommand("Submit answer", "Grade the answer now", screen.action_submit)
            yield SystemCommand("Pause / resume", "Stop or restart the clock", screen.action_pause)
            yield SystemCommand("Skip question", "Move on without grading", screen.action_skip)
        if isinstance(screen, SummaryScreen):
            yield SystemCommand("Export report", "Write a Markdown report", self.export_report)
        if self.interview is not None:
            yield SystemCommand("New interview", "Back to the setup screen", self.new_interview)


def make_app(*, banks: list[Bank], grader: Grader, settings: Settings,
             plan: InterviewPlan | None = None, choices: SetupChoices | None = None,
             drafts: DraftStore | None = None, clock: Clock | None = None) -> InterviewApp:
    """The one way to build the app, from injected parts.

    With a ``plan`` the interview starts at once; without one the setup screen asks.
    """
    if choices is None:
        choices = load_choices(settings.data_dir, settings.bank)
    if drafts is None:
        drafts = DraftStore(settings.data_dir / "drafts")
    return InterviewApp(banks=banks, grader=grader, settings=settings, choices=choices,
                        plan=plan, drafts=drafts, clock=clock)
