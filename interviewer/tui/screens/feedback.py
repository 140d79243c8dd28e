"""Per-point feedback for one graded answer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

if TYPE_CHECKING:
    from interviewer.grading import PointResult
    from interviewer.tui.app import Interview

MARKS = {"covered": ("✓", "covered"), "partial": ("~", "partial"), "missed": ("✗", "missed")}


def score_bar(score: float, width: int = 20) -> str:
    filled = round(max(0.0, min(1.0, score)) * width)
    return "█" * filled + "░" * (width - filled)


def point_row(p: PointResult) -> Content:
    """One point as styled content; user and bank text go in as plain strings, never markup."""
    mark, cls = MARKS[p.verdict]
    parts: list = [(f" {mark} ", f"bold ${'success' if cls == 'covered' else 'warning' if cls == 'partial' else 'error'}")]
    if p.group:
        parts.append((f"{p.group} › ", "dim"))
    parts.append(p.text)
    if p.evidence:
        parts += ["\n     ", ("← “", "dim"), (p.evidence, "italic"), ("”", "dim")]
    return Content.assemble(*parts)


class FeedbackScreen(Screen):
    BINDINGS = [Binding("n", "next", "Next question"), Binding("enter", "next", show=False)]

    def __init__(self, interview: Interview, index: int) -> None:
        super().__init__()
        self.interview = interview
        self.index = index

    def compose(self) -> ComposeResult:
        attempt = self.interview.attempts[self.index]
        grade = attempt.grade
        assert grade is not None
        yield Header()
        yield Static(attempt.question.text, id="question-text", markup=False)
        counts = {v: sum(1 for p in grade.points if p.verdict == v) for v in MARKS}
        yield Static(f"Score {grade.score:4.0%}  {score_bar(grade.score)}   "
                     f"✓ {counts['covered']}  ~ {counts['partial']}  ✗ {counts['missed']}",
                     id="score", markup=False)
        with VerticalScroll(id="points"):
            for p in grade.points:
                yield Static(point_row(p), classes=f"point {p.verdict}")
        yield Footer()

    def action_next(self) -> None:
        self.app.next_question()  # type: ignore[attr-defined]
