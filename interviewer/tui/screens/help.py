"""Every key, on one screen."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

HELP = """\
Everywhere
  F1             this help
  Ctrl+P         command palette (submit, pause, skip, export, new interview, theme)
  Ctrl+Q         quit (asks first during a question; drafts are always kept)

Setup
  Tab / Shift+Tab  move between fields
  Ctrl+S / Enter   start the interview
  F4               history of past sessions

Question
  Ctrl+S         submit the answer
  F2             pause / resume the clock
  F3             skip the question
  Ctrl+Z / Ctrl+Y  undo / redo in the answer box
  (the answer is submitted automatically when the time is up; nothing typed is lost)

Feedback
  N / Enter      next question
  S              show or hide the confidence and similarity numbers
  R              retake this question

Summary
  E              export the report (HTML and Markdown)
  R              retake the selected question
  N              new interview
  H              history of past sessions
  Q              quit

Press Escape to close."""


class HelpScreen(ModalScreen[None]):

    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
    }
    #help {
        width: 80;
        max-width: 95%;
        height: 80%;
        padding: 1 2;
        border: thick $primary;
        background: $surface;
    }
    """
    BINDINGS = [Binding("escape,f1,q", "dismiss", "Close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(HELP, markup=False)

    def action_dismiss(self) -> None:
        self.dismiss(None)
