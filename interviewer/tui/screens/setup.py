"""Choosing the interview: bank(s), topics, length, order and time limits."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, SelectionList, Static, Switch

from interviewer.content.bank import Bank

from interviewer.content.catalog import combine_banks, combined_ids
from interviewer.config import parse_duration
from interviewer.errors import InterviewerError
from interviewer.sessions.plan import InterviewPlan, SetupChoices, make_plan
from interviewer.tui.checklist import CheckList

if TYPE_CHECKING:
    from interviewer.sessions.controller import InterviewController


def _duration_text(seconds: float | None) -> str:
    if not seconds:
        return ""
    m, s = divmod(int(seconds), 60)
    return f"{m}m{s}s" if s else f"{m}m"


class SetupScreen(Screen):
    """The form; a valid one is posted up as :class:`StartRequested`. What is due for review
    and the drill's questions come from the ``practice`` it is given."""

    DEFAULT_CSS = """
    #setup {
        padding: 1 2;
    }
    #setup-title {
        text-style: bold;
        padding-bottom: 1;
    }
    .field {
        height: auto;
    }
    .field-label {
        width: 22;
        padding: 1 1 0 0;
    }
    .field Select, .field Input {
        width: 1fr;
        max-width: 80;
    }
    .field SelectionList {
        width: 1fr;
        max-width: 80;
        height: auto;
        max-height: 8;
    }
    #due-info {
        width: auto;
        padding: 1 0 0 2;
        color: $text-muted;
    }
    #setup-error {
        color: $error;
        height: auto;
        padding-bottom: 1;
    }
    """

    class StartRequested(Message):
        def __init__(self, plan: InterviewPlan, choices: SetupChoices) -> None:
            super().__init__()
            self.plan = plan
            self.choices = choices

    BINDINGS = [Binding("ctrl+s", "start", "Start", priority=True),
                Binding("f4", "app.history", "History")]

    def __init__(self, banks: list[Bank], choices: SetupChoices,
                 practice: InterviewController) -> None:
        super().__init__()
        self.banks = {b.id: b for b in banks}
        self.choices = choices
        self.practice = practice

    def compose(self) -> ComposeResult:
        c = self.choices
        chosen = {i for i in combined_ids(c.bank) or [c.bank] if i in self.banks}
        chosen = chosen or set(list(self.banks)[:1])
        yield Header()
        with VerticalScroll(id="setup"):
            yield Static("Set up your mock interview", id="setup-title")
            with Horizontal(classes="field"):
                yield Label("Question banks", classes="field-label")
                yield CheckList(
                    *[(Content(f"{b.title} ({b.id}, {len(b.questions)} questions)"), b.id,
                       b.id in chosen) for b in self.banks.values()], id="bank")
            with Horizontal(classes="field"):
                yield Label("Topics (none = all)", classes="field-label")
                yield CheckList(id="tags")
            with Horizontal(classes="field"):
                yield Label("Questions", classes="field-label")
                yield Input(str(c.count) if c.count else "", placeholder="all",
                            id="count", type="integer")
            with Horizontal(classes="field"):
                yield Label("Random order", classes="field-label")
                yield Switch(value=c.shuffle, id="shuffle")
            with Horizontal(classes="field"):
                yield Label("Time per question", classes="field-label")
                yield Input(_duration_text(c.time_limit), placeholder="untimed (e.g. 5m, 90s)",
                            id="time-limit")
            with Horizontal(classes="field"):
                yield Label("Total time", classes="field-label")
                yield Input(_duration_text(c.total_limit), placeholder="no limit (e.g. 30m)",
                            id="total-limit")
            with Horizontal(classes="field"):
                yield Label("Follow-up questions", classes="field-label")
                yield Switch(value=c.followups, id="followups")
            with Horizontal(classes="field"):
                yield Label("Drill weak points", classes="field-label")
                yield Switch(value=c.drill, id="drill")
                yield Static("", id="due-info", markup=False)
            yield Static("", id="setup-error", markup=False)
            yield Button("Start (Ctrl+S)", id="start", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        self._fill_tags()
        self._show_due()
        self.query_one("#bank", SelectionList).focus()

    def _bank(self) -> Bank | None:
        """The chosen banks as one (several are combined), in the order they are listed."""
        selected = set(self.query_one("#bank", SelectionList).selected)
        banks = [b for i, b in self.banks.items() if i in selected]
        return combine_banks(banks) if banks else None

    def _show_due(self) -> None:
        bank = self._bank()
        due, practised = self.practice.due_count(bank) if bank is not None else (0, 0)
        text = (f"{due} points due for review" if practised else "nothing practised yet")
        self.query_one("#due-info", Static).update(text)

    def _fill_tags(self) -> None:
        tags = self.query_one("#tags", SelectionList)
        tags.clear_options()
        bank = self._bank()
        if bank is None:
            return
        known = sorted({t for q in bank.questions for t in q.tags})
        for tag in known:
            n = sum(tag in q.tags for q in bank.questions)
            tags.add_option((Content(f"{tag} ({n})"), tag, tag in self.choices.tags))

    def on_selection_list_selected_changed(self, event: SelectionList.SelectedChanged) -> None:
        if event.selection_list.id == "bank":
            self._fill_tags()
            self._show_due()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()

    def on_input_submitted(self, _: Input.Submitted) -> None:
        self.action_start()

    def _error(self, text: str) -> None:
        self.query_one("#setup-error", Static).update(text)

    def read_choices(self) -> SetupChoices:
        """The form as :class:`SetupChoices`; raises ValueError with a message to show."""
        bank = self._bank()
        if bank is None:
            raise ValueError("Choose at least one question bank.")
        count_text = self.query_one("#count", Input).value.strip()
        count = int(count_text) if count_text else None
        if count is not None and count < 1:
            raise ValueError("Questions: give a number of at least 1, or leave it empty for all.")

        def duration(widget_id: str, name: str) -> float | None:
            text = self.query_one(widget_id, Input).value.strip()
            if not text:
                return None
            try:
                return parse_duration(text, unit_required=True)
            except ValueError as exc:
                raise ValueError(f"{name}: {exc}.") from None

        return SetupChoices(
            bank=bank.id,
            tags=tuple(self.query_one("#tags", SelectionList).selected),
            count=count, shuffle=self.query_one("#shuffle", Switch).value,
            time_limit=duration("#time-limit", "Time per question"),
            total_limit=duration("#total-limit", "Total time"),
            followups=self.query_one("#followups", Switch).value,
            drill=self.query_one("#drill", Switch).value)

    def action_start(self) -> None:
        try:
            choices = self.read_choices()
            bank = self._bank()
            assert bank is not None  # read_choices insists on one
            plan = (self.practice.drill_plan(bank, choices) if choices.drill
                    else make_plan(bank, choices))
        except (ValueError, InterviewerError) as exc:
            self._error(str(exc))
            return
        self._error("")
        self.post_message(self.StartRequested(plan, choices))
