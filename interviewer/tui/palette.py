"""The command palette's entries for the interview app: what can be done from where."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from textual.app import SystemCommand
from textual.screen import Screen

from interviewer.tui.screens.interview import InterviewScreen


class PaletteCommands:
    """Mixed into the app: help and history always; submit, pause and skip while a question
    is open; export on the summary; a new interview once one has started, unless an answer
    is being graded."""

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        from interviewer.tui.screens.summary import SummaryScreen

        yield from super().get_system_commands(screen)  # type: ignore[misc]
        yield SystemCommand("Help", "Keys and what they do", self.action_help)
        yield SystemCommand("History", "Past sessions and scores over time", self.action_history)
        if isinstance(screen, InterviewScreen) and screen.mode == "question":
            yield SystemCommand("Submit answer", "Grade the answer now", screen.action_submit)
            yield SystemCommand("Pause / resume", "Stop or restart the clock", screen.action_pause)
            yield SystemCommand("Skip question", "Move on without grading", screen.action_skip)
        if isinstance(screen, SummaryScreen):
            yield SystemCommand("Export report", "Write HTML and Markdown reports",
                                partial(self._export_to, screen))
        grading = isinstance(screen, InterviewScreen) and screen.waiting
        if self.interview is not None and not grading:
            # not while a grade is on its way: it belongs to the interview this would close
            yield SystemCommand("New interview", "Back to the setup screen", self.new_interview)
