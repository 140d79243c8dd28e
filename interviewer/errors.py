"""One error type for everything a user can cause.

The CLI turns an :class:`InterviewerError` into a one-line message and exit code 2;
the TUI turns it into a notification. Anything else is a bug and may show a traceback.
"""

from __future__ import annotations

from pathlib import Path


class InterviewerError(Exception):
    """A problem the user can fix; ``str(err)`` is the one line shown to them."""

    def __init__(self, message: str, *, path: Path | str | None = None, line: int | None = None,
                 hint: str | None = None) -> None:
        self.message = message
        self.path = Path(path) if path is not None else None
        self.line = line
        self.hint = hint
        super().__init__(self.format())

    def format(self) -> str:
        where = ""
        if self.path is not None:
            where = f"{self.path}:{self.line}: " if self.line else f"{self.path}: "
        text = f"{where}{self.message}"
        if self.hint:
            text += f" ({self.hint})"
        return text


class BankError(InterviewerError):
    """A bank file is missing, unreadable or malformed."""


class RubricError(InterviewerError):
    """A rubric file is missing, malformed, or would overwrite hand edits."""


class ConfigError(InterviewerError):
    """The config file or an environment variable holds a bad value."""


class ModelError(InterviewerError):
    """The embedding model could not be found or loaded."""


class InputError(InterviewerError):
    """A file of answers or labels given on the command line is malformed."""
