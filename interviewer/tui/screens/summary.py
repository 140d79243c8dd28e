"""The end of an interview: score per question and overall."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from interviewer.tui.screens.feedback import score_bar

if TYPE_CHECKING:
    from interviewer.tui.app import Interview


class SummaryScreen(Screen):
    BINDINGS = [Binding("q", "app.quit", "Quit")]

    def __init__(self, interview: Interview) -> None:
        super().__init__()
        self.interview = interview

    def compose(self) -> ComposeResult:
        graded = [a for a in self.interview.attempts if a.grade is not None]
        total = sum(a.grade.score for a in graded) / len(graded) if graded else 0.0
        yield Header()
        yield Static(f"Interview complete · overall {total:.0%}  {score_bar(total)}",
                     id="score", markup=False)
        with VerticalScroll(id="points"):
            for n, a in enumerate(self.interview.attempts, start=1):
                score = f"{a.grade.score:4.0%}" if a.grade else "  — "
                yield Static(f"{n:>2}. {score}  {a.question.text}", classes="summary-row",
                             markup=False)
        yield Footer()
