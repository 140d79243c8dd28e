"""The interview app: wiring between screens, workers and the core.

Build it with :func:`make_app`; the CLI and the tests both do, so what is tested is what
runs. Blocking work (loading the model, grading) happens in thread workers whose results
come back as messages; the UI thread never waits on the model.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen

from interviewer import factory
from interviewer.content.bank import Bank
from interviewer.config import Settings
from interviewer.sessions.controller import InterviewController
from interviewer.errors import InterviewerError
from interviewer.grading.grade import AnswerGrader
from interviewer.sessions.interview import Interview
from interviewer.sessions.recorder import Recorder
from interviewer.sessions.plan import InterviewPlan, SetupChoices, load_choices
from interviewer.sessions.rows import SessionRow
from interviewer.sessions.store import Store
from interviewer.sessions.timer import Clock, MonotonicClock
from interviewer.tui.messages import (
    DraftSaved,
    FollowUpStarted,
    Graded,
    QuestionAsked,
)
from interviewer.tui.followup_flow import FollowUpFlow
from interviewer.tui.grading_flow import GradingFlow
from interviewer.tui.gc_hold import CollectionHold
from interviewer.tui.grading_thread import GradingThread
from interviewer.tui.palette import PaletteCommands
from interviewer.tui.screen_requests import ScreenRequests
from interviewer.tui.screens.confirm import ConfirmScreen
from interviewer.tui.screens.interview import InterviewScreen
from interviewer.tui.signals import quit_cleanly_on_signals

# Imported where used: the report, the follow-up prober and the setup, help, history and
# summary screens are not needed for the first frame, and every import before it delays it.
if TYPE_CHECKING:
    from interviewer.followups.prober import Prober
    from interviewer.tui.screens.setup import SetupScreen



class InterviewApp(GradingFlow, FollowUpFlow, ScreenRequests, PaletteCommands, App[int]):
    CSS_PATH = "styles/app.tcss"
    TITLE = "interviewer"
    BINDINGS = [
        Binding("ctrl+q", "request_quit", "Quit", priority=True),
        Binding("f1", "help", "Help"),
    ]

    model_status: reactive[str] = reactive("loading")  # loading | ready | failed

    def __init__(self, *, banks: list[Bank], grader: AnswerGrader, settings: Settings,
                 choices: SetupChoices, store: Store, plan: InterviewPlan | None = None,
                 resume: SessionRow | None = None, clock: Clock | None = None,
                 prober: Prober | None = None) -> None:
        super().__init__()
        self.prober = prober
        self._followup_cancel: threading.Event | None = None  # set: the pending follow-up is dropped
        self._stop_checks = threading.Event()  # set on quit: an LLM check of a grade stops waiting
        self.grader = grader
        self.initial_plan = plan
        self.initial_resume = resume
        self.controller = InterviewController(
            banks=banks, store=store, settings=settings, model_id=grader.model_id,
            clock=clock or MonotonicClock(), choices=choices,
            # from the draft writer's thread: a draft that waited is in the database now
            on_saved=lambda index: self.post_message(DraftSaved(index)))
        self.model_error: str | None = None
        self.grade_seconds: list[tuple[float, float]] = []  # (grader time, submit→screen has it)
        self._pending: tuple[int, str, float] | None = None
        self._gc = CollectionHold()  # no collection pass between a submit and its feedback
        self._grading = GradingThread()  # grades answers as they are submitted
        self._warmed: object = None  # the rubric the grader was last warmed up with
        # the answer graded ahead of its submit, (index, text, grade, grader seconds), and
        # the (index, text) worth grading ahead now; the grade is read and written only by
        # the grading thread
        self._ahead: tuple = (None, None, None, 0.0)
        self._ahead_wanted: tuple[int, str] | None = None

    @property
    def interview(self) -> Interview | None:
        return self.controller.interview

    @property
    def recorder(self) -> Recorder | None:
        return self.controller.recorder

    @property
    def store(self) -> Store:
        return self.controller.store

    # ------------------------------------------------------------ start

    def on_mount(self) -> None:
        if self.store.notice:
            self.notify(self.store.notice, severity="warning", markup=False, timeout=15)
        if self.initial_resume is not None:
            self.resume_session(self.initial_resume)
        elif self.initial_plan is not None:
            # the same command after a closed terminal: the typed answer comes first
            plan = self.initial_plan
            if not self.offer_resume(otherwise=lambda: self.start_interview(plan)):
                self.start_interview(plan)
        else:
            self.push_screen(self._setup_screen())
            self.offer_resume()
        quit_cleanly_on_signals(self, self.flush_before_exit)
        # Start loading only once the first screen is drawn: the loader competes for the
        # GIL, and the user should see a question before anything else happens.
        self.call_after_refresh(self.load_model)

    def _setup_screen(self) -> SetupScreen:
        from interviewer.tui.screens.setup import SetupScreen  # its widgets cost the first frame

        return SetupScreen(self.controller.banks, self.controller.choices, self.controller)

    def flush_draft(self) -> None:
        """Write the answer being typed now, whichever screen is on top of it."""
        for screen in self.screen_stack:
            if isinstance(screen, InterviewScreen):
                screen.save_now()

    def flush_before_exit(self) -> None:
        """The terminal closed or a signal came: write the draft, then tell a resume started
        meanwhile that this process is ending, not open in another window."""
        self.flush_draft()
        self.store.closing()

    def start_interview(self, plan: InterviewPlan, choices: SetupChoices | None = None) -> None:
        if choices is not None:
            self.controller.remember(choices)
        try:
            warnings = self.controller.start(plan)
        except InterviewerError as exc:
            self.notify(str(exc), severity="error", markup=False, timeout=15)
            return
        for warning in warnings:
            self.notify(warning, severity="warning", markup=False, timeout=8)
        self.sub_title = plan.bank.title
        self._show(InterviewScreen(self.controller, 0))
        self._warm_rubric()

    def offer_resume(self, otherwise: Callable[[], None] | None = None) -> bool:
        """Ask whether to go on with an interview a crash or a kill left unfinished; False
        when there is none. ``otherwise`` runs when the user declines."""
        interrupted = self.controller.interrupted()
        if interrupted is None:
            return False
        row, question = interrupted

        def decide(yes: bool | None) -> None:
            if yes:
                self.resume_session(row)
                return
            self.controller.abandon(row)
            if otherwise is not None:
                otherwise()

        self.push_screen(ConfirmScreen(question), decide)
        return True

    def resume_session(self, row: SessionRow) -> None:
        try:
            outcome = self.controller.resume(row)
        except InterviewerError as exc:  # open in another window: that one keeps it
            self.notify(f"Cannot resume: {exc}", severity="error", markup=False)
            return
        if outcome == "missing":
            if len(self.screen_stack) <= 1:  # started to resume: never leave a blank screen
                self.push_screen(self._setup_screen())
            self.notify(f"Cannot resume: bank '{row.bank_id}' is no longer available.",
                        severity="error", markup=False, timeout=15)
            return
        assert self.interview is not None
        self.sub_title = self.interview.bank.title
        if outcome == "finished":
            self.finish()
        else:
            self._show(InterviewScreen(self.controller, self.interview.index))
            self._warm_rubric()
            self.notify("Resumed: your draft and remaining time are back.", timeout=6)

    def _show(self, screen: Screen) -> None:
        if len(self.screen_stack) > 1:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    # ------------------------------------------------------------ answers

    def on_draft_saved(self, message: DraftSaved) -> None:
        self._tell(DraftSaved(message.index))

    def _tell(self, message: Message) -> bool:
        """Tell the interview screen what happened, on top or under a dialog (help, history,
        a question); False: no interview screen is open."""
        screens = [s for s in self.screen_stack if isinstance(s, InterviewScreen)]
        for screen in screens:
            screen.post_message(message)
        return bool(screens)

    def _check_saving(self, saved: bool | None) -> None:
        problem = self.controller.saving_problem(saved)
        if problem is not None:
            self.notify(problem, severity="error", markup=False, timeout=15)

    def _after_grade(self, index: int) -> None:
        """A follow-up to the graded attempt ``index``, or its feedback."""
        if not self._wants_followup(index):
            self._tell(Graded(index))
        elif self._tell(FollowUpStarted(index)):
            self.ask_followup(index)

    def on_unmount(self) -> None:
        self._grading.close()
        self._gc.release()

    # ------------------------------------------------------------ navigation

    def next_question(self) -> None:
        nxt = self.controller.next_index()
        if nxt is None:
            self.finish()
        else:
            self._ask(nxt)

    def skip_question(self, index: int) -> None:
        self.controller.skip(index)
        self.next_question()

    def retry_question(self, attempt_index: int) -> None:
        self._ask(self.controller.retake(attempt_index))

    def review_feedback(self, index: int) -> None:
        """The feedback on a graded answer again, from the summary; N goes back to it."""
        self.controller.review(index)
        self._show(InterviewScreen(self.controller, index, feedback=True))

    def _ask(self, index: int) -> None:
        """Question ``index`` in the interview screen, reusing it when it is showing."""
        if isinstance(self.screen, InterviewScreen):
            self._tell(QuestionAsked(index))
        else:
            self._show(InterviewScreen(self.controller, index))

    def finish(self) -> None:
        from interviewer.tui.screens.summary import SummaryScreen

        assert self.interview is not None
        self.controller.finish()
        self._show(SummaryScreen(self.interview))

    def new_interview(self) -> None:
        self.controller.close()
        self._show(self._setup_screen())

    def export_report(self) -> list[Path]:
        """Write the HTML and Markdown reports and say where they went."""
        if self.interview is None:
            return []
        try:
            paths = self.controller.write_report()
        except OSError as exc:
            self.notify(f"Could not write the report: {exc.strerror} "
                        f"({self.controller.settings.data_dir / 'reports'})", severity="error",
                        markup=False)
            return []
        self.notify("Report written (HTML and Markdown)", markup=False, timeout=6)
        return paths

    # ------------------------------------------------------------ app-wide actions

    def action_history(self) -> None:
        from interviewer.tui.screens.history import HistoryScreen

        if not isinstance(self.screen, HistoryScreen):
            self.push_screen(HistoryScreen(self.store.sessions(limit=200),
                                           self.controller.mastery_by_bank()))

    def action_help(self) -> None:
        from interviewer.tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_request_quit(self) -> None:
        self._cancel_followup()
        self._stop_checks.set()  # an LLM check still running ends now
        screen = self.screen
        in_progress = isinstance(screen, InterviewScreen) and screen.mode == "question"
        if not in_progress:
            self.flush_draft()  # a dialog may be over the answer being typed
            self.exit(0)
            return

        def decide(quit_now: bool | None) -> None:
            if quit_now:
                screen.save_now()
                self.exit(0)

        self.push_screen(ConfirmScreen("Quit the interview? Your draft is saved either way."),
                         decide)


def make_app(*, banks: list[Bank], grader: AnswerGrader, settings: Settings,
             plan: InterviewPlan | None = None, choices: SetupChoices | None = None,
             store: Store | None = None, resume: SessionRow | None = None,
             clock: Clock | None = None, prober: Prober | None = None) -> InterviewApp:
    """The one way to build the app, from injected parts.

    With a ``plan`` the interview starts at once, with ``resume`` a stored one goes on;
    otherwise the setup screen asks (and offers to resume an interrupted interview).
    """
    if choices is None:
        choices = load_choices(settings.data_dir, settings.bank)
    if store is None:
        store = factory.open_store(settings)
    if prober is None:
        prober = factory.make_prober(settings)
    return InterviewApp(banks=banks, grader=grader, settings=settings, choices=choices,
                        plan=plan, resume=resume, store=store, clock=clock, prober=prober)
