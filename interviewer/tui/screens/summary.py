"""The end of an interview: score and time per question, what was missed most, what next."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.coordinate import Coordinate
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from interviewer.sessions.score import RULE as SCORE_RULE
from interviewer.sessions.score import format_score
from interviewer.sessions.timer import format_elapsed
from interviewer.tui.widgets import score_bar

if TYPE_CHECKING:
    from pathlib import Path

    from interviewer.sessions.interview import Interview


class SummaryScreen(Screen):
    """Posts what the user asks for (export, the feedback on a row, retake, a new interview);
    the app answers by setting :attr:`exported`."""

    DEFAULT_CSS = """
    #summary {
        padding: 1 1;
    }
    #score {
        width: auto;
        text-style: bold;
        padding: 0 1 0 1;
    }
    #score-rule {
        color: $text-muted;
        padding: 0 1;
    }
    #summary-hint {
        color: $text-muted;
    }
    #export-path {
        height: auto;
        color: $success;
    }
    #results {
        height: auto;
        max-height: 60%;
    }
    #missed-title {
        text-style: bold;
        padding-top: 1;
    }
    """

    class ExportRequested(Message):
        """Write the reports."""

    class FeedbackRequested(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index  # the attempt whose feedback to show again

    class RetakeRequested(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index  # the attempt to take again

    class NewInterviewRequested(Message):
        """Back to the setup screen."""

    exported: reactive[tuple[Path, ...]] = reactive((), init=False)  # where the reports went

    BINDINGS = [
        Binding("e", "export", "Export"),
        Binding("r", "retry", "Retake"),
        Binding("n", "new", "New"),
        Binding("h", "app.history", "History"),
        Binding("q", "app.quit", "Quit", show=False),
    ]

    def __init__(self, interview: Interview) -> None:
        super().__init__()
        self.interview = interview
        self._filled_width: int | None = None  # the question column's width when last filled

    def compose(self) -> ComposeResult:
        total = self.interview.overall_score()
        bar = f"  {score_bar(total)}" if total is not None else ""
        yield Header()
        yield Static(f"Interview complete · overall {format_score(total)}{bar}  · "
                     f"time {format_elapsed(self.interview.total_time())}", id="score",
                     markup=False)
        yield Static(f"Overall: {SCORE_RULE}.", id="score-rule", markup=False)
        with VerticalScroll(id="summary"):
            yield DataTable(id="results", cursor_type="row", zebra_stripes=True)
            yield Static("Enter: the feedback on the selected answer", id="summary-hint",
                         markup=False)
            yield Static("", id="export-path", markup=False)
            yield Static("Points missed most", id="missed-title")
            missed = self.interview.missed_most()
            graded = any(a.grade is not None for a in self.interview.attempts)
            text = ("\n".join(f" ✗ {m.describe()}" for m in missed)
                    or (" Nothing missed. Well done." if graded
                        else " Nothing was graded: every question was skipped."))
            yield Static(text, id="missed", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self._fill_table()
        self.query_one(DataTable).focus()

    def on_resize(self) -> None:
        # the question column takes the width left over, so it follows the terminal's
        # (a screen is also resized once as it is first shown: nothing to redo then)
        if self._question_width() != self._filled_width:
            self._fill_table()

    def _question_width(self) -> int:
        return max(20, self.size.width - 32)

    def _fill_table(self) -> None:
        table = self.query_one(DataTable)
        cursor = table.cursor_row
        table.clear(columns=True)
        table.add_column("#")
        table.add_column("Score")
        table.add_column("Time")
        self._filled_width = self._question_width()
        table.add_column("Question", width=self._filled_width)
        for i in self._row_order():
            a = self.interview.attempts[i]
            if a.skipped:
                score = "skipped"
            else:
                score = f"{a.score:.0%}" if a.grade else "—"
                if a.followups and a.grade:
                    score += f" ({a.score_with_followups:.0%})"  # with what the follow-ups drew out
            label = a.question.text + (" (retake)" if a.retry_of is not None else "")
            # cells given as Content are never parsed as markup
            table.add_row(str(self.interview.number(i)), score, format_elapsed(a.time_used),
                          Content(label), key=str(i))
        if table.row_count:
            table.move_cursor(row=min(cursor, table.row_count - 1))

    def _row_order(self) -> list[int]:
        """Attempt indices in the plan's order, each retake under its question (retakes are
        stored after the plan's questions, whenever they were taken)."""
        attempts = range(len(self.interview.attempts))
        return sorted(attempts, key=lambda i: (self.interview.number(i), i))

    def _selected(self, row: int) -> int:
        """The attempt shown in table row ``row``."""
        table = self.query_one(DataTable)
        return int(table.coordinate_to_cell_key(Coordinate(row, 0)).row_key.value)

    def action_export(self) -> None:
        self.post_message(self.ExportRequested())

    def watch_exported(self, paths: tuple[Path, ...]) -> None:
        if paths:  # kept on screen, not in a toast that vanishes
            self.query_one("#export-path", Static).update(
                "Report written to:\n" + "\n".join(f"  {p}" for p in paths))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        index = int(event.row_key.value)
        if self.interview.attempts[index].grade is None:
            self.notify("No feedback: this question was not graded.", timeout=4)
            return
        self.post_message(self.FeedbackRequested(index))

    def action_retry(self) -> None:
        table = self.query_one(DataTable)
        if table.row_count:
            self.post_message(self.RetakeRequested(self._selected(table.cursor_row)))

    def action_new(self) -> None:
        self.post_message(self.NewInterviewRequested())
