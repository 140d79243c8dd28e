"""The interview app: wiring between screens, workers and the core.

Build it with :func:`make_app`; the CLI and the tests both do, so what is tested is what
runs. Blocking work (loading the model, grading) happens in thread workers whose results
come back as messages; the UI thread never waits on torch.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from textual import work
from textual.app import App
from textual.binding import Binding
from textual.reactive import reactive

from interviewer.bank import Bank, Question
from interviewer.config import Settings
from interviewer.drafts import DraftStore
from interviewer.errors import InterviewerError
from interviewer.grading import Grade, Grader
from interviewer.rubric import Rubric, rubric_for_bank
from interviewer.tui.messages import AnswerGraded, GradingFailed, ModelFailed, ModelReady
from interviewer.tui.screens.feedback import FeedbackScreen
from interviewer.tui.screens.question import QuestionScreen
from interviewer.tui.screens.summary import SummaryScreen


@dataclass
class Attempt:
    question: Question
    answer: str = ""
    grade: Grade | None = None


@dataclass
class Interview:
    bank: Bank
    rubric: Rubric
    attempts: list[Attempt] = field(default_factory=list)
    index: int = 0

    @property
    def current(self) -> Attempt:
        return self.attempts[self.index]


class InterviewApp(App[int]):
    CSS_PATH = "styles/app.tcss"
    TITLE = "interviewer"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    model_status: reactive[str] = reactive("loading")  # loading | ready | failed

    def __init__(self, *, interview: Interview, grader: Grader, settings: Settings,
                 drafts: DraftStore | None = None, warnings: list[str] | None = None) -> None:
        super().__init__()
        self.interview = interview
        self.grader = grader
        self.settings = settings
        self.drafts = drafts
        self.startup_warnings = warnings or []
        self._pending: tuple[int, str] | None = None
        self.model_error: str | None = None

    def on_mount(self) -> None:
        self.sub_title = self.interview.bank.title
        self.push_screen(QuestionScreen(self.interview, 0))
        for warning in self.startup_warnings:
            self.notify(warning, severity="warning", markup=False, timeout=8)
        self.load_model()

    # ------------------------------------------------------------ model

    @work(thread=True, exclusive=True, group="model", exit_on_error=False)
    def load_model(self) -> None:
        try:
            self.grader.warm_up(self.interview.rubric)
        except InterviewerError as exc:
            self.post_message(ModelFailed(str(exc)))
        except Exception as exc:  # the UI must survive any failure of the model stack
            self.post_message(ModelFailed(f"{type(exc).__name__}: {exc}"))
        else:
            self.post_message(ModelReady())

    def on_model_ready(self, _: ModelReady) -> None:
        self.model_status = "ready"
        if self._pending is not None:
            index, text = self._pending
            self._pending = None
            self.grade_answer(index, text)

    def on_model_failed(self, message: ModelFailed) -> None:
        self.model_status = "failed"
        self.model_error = message.reason
        self.notify(f"Grading is unavailable: {message.reason}. Your answers are kept.",
                    severity="error", markup=False, timeout=15)

    # ------------------------------------------------------------ answers

    def save_draft(self, index: int, text: str) -> None:
        self.interview.attempts[index].answer = text
        if self.drafts is not None and not self.drafts.save_draft(
                self.interview.attempts[index].question.id, text):
            self.notify(f"Draft not saved: {self.drafts.last_error}", severity="warning",
                        markup=False)

    def submit_answer(self, index: int, text: str) -> None:
        """Grade now, or as soon as the model is ready."""
        self.save_draft(index, text)
        if self.model_status == "ready":
            self.grade_answer(index, text)
        else:
            self._pending = (index, text)

    @work(thread=True, exclusive=True, group="grade", exit_on_error=False)
    def grade_answer(self, index: int, text: str) -> None:
        attempt = self.interview.attempts[index]
        try:
            grade = self.grader.grade(self.interview.rubric, attempt.question.id, text)
        except Exception as exc:  # shown to the user; the answer is already saved
            self.post_message(GradingFailed(index, f"{type(exc).__name__}: {exc}"))
        else:
            self.post_message(AnswerGraded(index, grade))

    def on_answer_graded(self, message: AnswerGraded) -> None:
        attempt = self.interview.attempts[message.index]
        attempt.grade = message.grade
        if self.drafts is not None:
            self.drafts.save_answer(attempt.question.id, attempt.answer, message.grade.score)
        self.switch_screen(FeedbackScreen(self.interview, message.index))

    def on_grading_failed(self, message: GradingFailed) -> None:
        self.notify(f"Grading failed: {message.reason}. Your answer is saved.",
                    severity="error", markup=False, timeout=15)
        screen = self.screen
        if isinstance(screen, QuestionScreen):
            screen.cancel_waiting()

    # ------------------------------------------------------------ navigation

    def next_question(self) -> None:
        nxt = self.interview.index + 1
        if nxt < len(self.interview.attempts):
            self.interview.index = nxt
            self.switch_screen(QuestionScreen(self.interview, nxt))
        else:
            self.switch_screen(SummaryScreen(self.interview))


def make_app(*, bank: Bank, questions: list[Question] | None = None, grader: Grader,
             settings: Settings, rubric: Rubric | None = None,
             drafts: DraftStore | None = None) -> InterviewApp:
    """The one way to build the app, from injected parts."""
    warnings: list[str] = []
    if rubric is None:
        loaded = rubric_for_bank(bank)
        rubric, warnings = loaded.rubric, loaded.warnings
    chosen = questions if questions is not None else list(bank.questions)
    interview = Interview(bank=bank, rubric=rubric, attempts=[Attempt(q) for q in chosen])
    if drafts is None:
        drafts = DraftStore(settings.data_dir / "drafts")
    return InterviewApp(interview=interview, grader=grader, settings=settings, drafts=drafts,
                        warnings=warnings)
