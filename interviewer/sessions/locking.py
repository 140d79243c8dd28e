"""What a lock on the session database means: busy, not damaged, and how long to wait."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from interviewer.errors import InterviewerError


class NotSavedError(InterviewerError):
    """A change the user asked for could not be written."""


class DatabaseLocked(InterviewerError):
    """Another process holds the database's lock: it is busy, not damaged."""


class SessionBusy(InterviewerError):
    """The session is open in another window (another process holds its lock)."""


def is_locked(exc: BaseException) -> bool:
    """Whether an SQLite error means another connection holds a lock (not damage)."""
    text = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


def locked_error(path: Path | None) -> DatabaseLocked:
    return DatabaseLocked(f"database is locked by another interviewer process ({path}); "
                          "try again")


def lock_timeout() -> float:
    """Seconds to wait for another process's lock before giving up (INTERVIEWER_DB_TIMEOUT)."""
    try:
        value = float(os.environ.get("INTERVIEWER_DB_TIMEOUT", "5"))
    except ValueError:
        return 5.0
    return value if 0 <= value < 3600 else 5.0

