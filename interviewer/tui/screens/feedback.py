"""Per-point feedback for one graded answer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from interviewer.tui.widgets import score_bar

if TYPE_CHECKING:
    from interviewer.grading import Grade, PointResult
    from interviewer.interview import Interview

MARKS = {"covered": "✓", "partial": "~", "missed": "✗"}
STYLES = {"covered": "bold $success", "partial": "bold $warning", "missed": "bold $error"}
HIGHLIGHT = {"covered": "underline $success", "partial": "underline $warning"}


def point_row(p: PointResult, numbers: bool) -> Content:
    """One point as styled content; user and bank text go in as plain strings, never markup."""
    parts: list = [(f" {MARKS[p.verdict]} ", STYLES[p.verdict])]
    if p.group:
        parts.append((f"{p.group} › ", "dim"))
    parts.append(p.text)
    if numbers:
        parts.append((f"  (confidence {p.probability:.2f}, similarity {p.similarity:.2f})", "dim"))
    if p.evidence:
        parts += ["\n     ", ("← “", "dim"), (p.evidence, "italic"), ("”", "dim")]
    if p.verdict != "covered":
        parts += ["\n     ", (p.reason, "dim")]
    return Content.assemble(*parts)


def highlighted_answer(grade: Grade) -> Content:
    """The answer with the spans that earned points underlined."""
    text = grade.answer
    content = Content(text)
    for p in grade.points:
        if p.evidence and p.verdict in HIGHLIGHT:
            start = text.find(p.evidence)
            if start >= 0:
                content = content.stylize(HIGHLIGHT[p.verdict], start, start + len(p.evidence))
    return content


class FeedbackScreen(Screen):
    BINDINGS = [
        Binding("n,enter", "next", "Next"),
        Binding("s", "toggle_numbers", "Numbers"),
        Binding("r", "retry", "Retake"),
    ]

    def __init__(self, interview: Interview, index: int) -> None:
        super().__init__()
        self.interview = interview
        self.index = index
        self.numbers = False

    @property
    def grade(self) -> Grade:
        grade = self.interview.attempts[self.index].grade
        assert grade is not None
        return grade

    def compose(self) -> ComposeResult:
        attempt = self.interview.attempts[self.index]
        grade = self.grade
        counts = {v: sum(1 for p in grade.points if p.verdict == v) for v in MARKS}
        yield Header()
        yield Static(attempt.question.text, id="question-text", markup=False)
        with Horizontal(id="score-bar"):
            yield Static(f"Score {grade.score:4.0%}  {score_bar(grade.score)}", id="score",
                         markup=False)
            yield Static(f"✓ {counts['covered']}   ~ {counts['partial']}   ✗ {counts['missed']}"
                         + ("   (time ran out)" if attempt.auto_submitted else ""),
                         id="counts", markup=False)
        with VerticalScroll(id="answer-view"):
            yield Static(highlighted_answer(grade), id="answer-text")
        with VerticalScroll(id="points"):
            for p in grade.points:
                yield Static(point_row(p, self.numbers), classes=f"point {p.verdict}")
        yield Footer()

    def action_toggle_numbers(self) -> None:
        self.numbers = not self.numbers
        for widget, p in zip(self.query(".point").results(Static), self.grade.points):
            widget.update(point_row(p, self.numbers))

    def action_next(self) -> None:
        self.app.next_question()  # type: ignore[attr-defined]

    def action_retry(self) -> None:
        self.app.retry_question(self.index)  # type: ignore[attr-defined]
