"""The feedback panel of the interview screen: the score, the answer with its credited spans
underlined, the change since the last attempt and every point with its verdict. Posts
``NextRequested`` and ``RetakeRequested``."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Static

from interviewer.tui.feedback_view import MARKS, highlighted_answer, points_view, retake_line
from interviewer.tui.widgets import WrappedText, score_bar


class FeedbackPanel(Vertical):
    DEFAULT_CSS = """
    FeedbackPanel {
        height: 1fr;
    }
    FeedbackPanel #feedback-question {
        text-style: bold;
        padding: 0 1;
        height: auto;
        max-height: 6;
    }
    FeedbackPanel #score-bar {
        height: 1;
        padding: 0 1;
    }
    FeedbackPanel #score {
        width: auto;
        text-style: bold;
        padding: 0 1 0 1;
    }
    FeedbackPanel #counts {
        width: 1fr;
        padding-left: 2;
    }
    FeedbackPanel #answer-view {
        height: auto;
        max-height: 30%;
        margin: 1 1 0 1;
        padding: 0 1;
        border: round $primary 50%;
    }
    FeedbackPanel #points {
        height: 1fr;
        padding: 1 1 0 1;
    }
    FeedbackPanel #retake-diff {
        padding: 0 1;
        height: auto;
        color: $accent;
    }
    """

    class NextRequested(Message):
        """On to the next question (or the summary)."""

    class RetakeRequested(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, controller, **kwargs) -> None:
        super().__init__(**kwargs)
        self.controller = controller
        self.index = 0  # the attempt shown
        self.numbers = False  # each point's confidence and sources shown

    @property
    def attempt(self):
        return self.controller.interview.attempts[self.index]

    def compose(self) -> ComposeResult:
        yield WrappedText("", id="feedback-question")
        with Horizontal(id="score-bar"):
            yield Static("", id="score", markup=False)
            yield Static("", id="counts", markup=False)
        yield Static("", id="retake-diff", markup=False)
        with VerticalScroll(id="answer-view"):
            yield WrappedText("", id="answer-text")
        with VerticalScroll(id="points"):
            yield WrappedText("", id="points-text")

    def show(self, index: int) -> None:
        """The feedback on graded attempt ``index``; the list of points takes the keys."""
        self.index = index
        attempt = self.attempt
        grade = attempt.grade
        assert grade is not None
        counts = {v: sum(1 for p in grade.points if p.verdict == v) for v in MARKS}
        counts["missed"] = len(grade.points) - counts["covered"] - counts["partial"]
        self.query_one("#feedback-question", Static).update(attempt.question.text)
        probed = attempt.probed_verdicts()
        with_followups = (f" · with follow-up {attempt.score_with_followups:.0%}"
                        if attempt.followups else "")
        self.query_one("#score", Static).update(
            f"Score {grade.score:4.0%}  {score_bar(grade.score)}{with_followups}")
        self.query_one("#counts", Static).update(
            f"✓ {counts['covered']}   ~ {counts['partial']}   ✗ {counts['missed']}"
            + (f"   ≠ {counts['contradicted']}" if counts["contradicted"] else "")
            + ("   (time ran out)" if attempt.auto_submitted else "")
            + (f"\n{grade.note}" if grade.note else ""))
        self.query_one("#answer-text", Static).update(highlighted_answer(grade))
        diff_line = self.query_one("#retake-diff", Static)
        previous = self.controller.previous_grade(index)
        diff_line.display = previous is not None
        if previous is not None:
            from interviewer.practice.drill import retake_diff  # not needed for the first frame

            diff_line.update(retake_line(retake_diff(previous, grade)))
        self.query_one("#points-text", Static).update(
            points_view(grade, self.numbers, probed, self._sources()))
        self.query_one("#points", VerticalScroll).scroll_home(animate=False)
        # The list takes the keys once the feedback is drawn: moving the focus restyles the
        # answer box and the list, 5-6 ms that would otherwise come before the first frame.
        self.call_after_refresh(self._focus_points)

    def _focus_points(self) -> None:
        if self.display:  # still on screen: a key may already have moved on
            self.query_one("#points", VerticalScroll).focus()

    def _sources(self) -> dict[str, str]:
        """Point id -> the reference answer's sentence for it."""
        return self.controller.interview.reference_sentences(self.index)

    def toggle_numbers(self) -> None:
        self.numbers = not self.numbers
        grade = self.attempt.grade
        if grade is not None:
            self.query_one("#points-text", Static).update(
                points_view(grade, self.numbers, self.attempt.probed_verdicts(), self._sources()))

    def next(self) -> None:
        self.post_message(self.NextRequested())

    def retake(self) -> None:
        self.post_message(self.RetakeRequested(self.index))
