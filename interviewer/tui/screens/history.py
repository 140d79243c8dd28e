"""Past sessions: scores over time, per bank, and the points missed most."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from interviewer.practice.history import mastery_label, missed_points, score_trend_label, trend
from interviewer.sessions.score import format_score
from interviewer.sessions.rows import SessionRow


class HistoryScreen(Screen):

    DEFAULT_CSS = """
    #history {
        padding: 1 1;
    }
    .trend-label {
        width: 1fr;
        height: auto;
        padding-top: 1;
    }
    #sessions {
        height: auto;
        max-height: 50%;
        margin-top: 1;
    }
    #missed-title {
        text-style: bold;
        padding-top: 1;
    }
    """
    BINDINGS = [Binding("escape,q,h", "close", "Back")]

    def __init__(self, rows: list[SessionRow],
                 mastery: dict[str, tuple[dict[str, float], list[float]]] | None = None) -> None:
        """``mastery``: per bank, (share mastered overall "" and per tag, the share over time)."""
        super().__init__()
        self.rows = rows
        self.mastery = mastery or {}

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="history"):
            if not self.rows:
                yield Static("No sessions yet. Finish an interview and it shows up here.",
                             markup=False)
            for bank_id, scores in trend(self.rows).items():
                yield Static(Content(score_trend_label(bank_id, scores)),
                             classes="trend-label trend-chart")
            for bank_id, (shares, series) in self.mastery.items():
                yield Static(Content(mastery_label(bank_id, shares, series)),
                             classes="trend-label mastery")
            yield DataTable(id="sessions", cursor_type="row", zebra_stripes=True)
            missed = missed_points(self.rows, limit=10)
            if missed:
                yield Static("Points missed most often", id="missed-title")
                yield Static("\n".join(f" ✗ {m}/{s}  {point}  ({bank} {qid})"
                                       for bank, qid, point, m, s in missed),
                             id="missed", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column("Date (UTC)")
        table.add_column("Bank", width=max([4] + [len(r.bank_id) for r in self.rows]))
        table.add_columns("Score", "Graded", "Status")
        for row in self.rows:
            score = format_score(row.score)
            graded = sum(1 for a in row.attempts if a.score is not None)
            table.add_row(row.started_at[:16].replace("T", " "), Content(row.bank_id), score,
                          f"{graded}/{len(row.attempts)}", row.status)

    def action_close(self) -> None:
        self.app.pop_screen()
