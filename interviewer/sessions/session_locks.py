"""Which process has a session open: one lock file per session, held while it runs.

A lock is taken with ``flock`` on ``locks/<session id>.lock`` beside the database, so it
ends with the process however the process ends. A process that is saving and about to end
writes ``closing`` into its lock files; a resume started in that moment waits for it.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

CLOSING = "closing\n"  # what a lock file holds while its process saves and ends
CLOSING_WAIT = 6.0  # seconds a resume waits for it: the app ends within 3 s of a signal


class SessionLocks:
    """The sessions this process holds. ``folder`` None (an in-memory store): every
    session is free and nothing is written."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self._held: dict[str, Any] = {}

    def __contains__(self, session_id: str) -> bool:
        return session_id in self._held

    def _path(self, session_id: str) -> Path | None:
        return None if self.folder is None else self.folder / f"{session_id}.lock"

    def hold(self, session_id: str) -> bool:
        """Mark the session as running in this process until it ends or the process dies.

        False when another process holds it. Taking the lock is the check: there is no
        window between asking whether a session is free and claiming it.
        """
        if session_id in self._held:
            return True
        path = self._path(session_id)
        if path is None or fcntl is None:
            return True
        while True:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                handle = path.open("a")
            except OSError:
                return False  # no lock file, no claim: two writers would be worse
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                handle.close()
                return False
            try:  # the holder before us may have unlinked the file as it released it
                same = os.fstat(handle.fileno()).st_ino == path.stat().st_ino
            except OSError:
                same = False
            if same:
                try:  # a holder killed as it closed leaves its word behind: not ours
                    handle.truncate(0)
                except OSError:
                    pass
                self._held[session_id] = handle
                return True
            handle.close()

    def hold_or_wait_for_closing(self, session_id: str) -> bool:
        """``hold``, but a holder that says it is closing is waited for, ``CLOSING_WAIT``
        seconds at most."""
        deadline = time.monotonic() + CLOSING_WAIT
        while not self.hold(session_id):
            path = self._path(session_id)
            try:
                said = path.read_text() if path is not None else ""
            except OSError:
                said = ""
            if said != CLOSING or time.monotonic() > deadline:
                return False
            time.sleep(0.05)
        return True

    def closing(self) -> None:
        """Say in each held lock file that this process is saving and about to end."""
        for handle in self._held.values():
            try:
                handle.write(CLOSING)
                handle.flush()
            except (OSError, ValueError):
                pass

    def release(self, session_id: str) -> None:
        handle = self._held.pop(session_id, None)
        if handle is not None:
            handle.close()
            path = self._path(session_id)
            if path is not None:
                path.unlink(missing_ok=True)

    def release_all(self) -> None:
        """Let go of every lock (the files stay: another process may be waiting on one)."""
        for handle in self._held.values():
            handle.close()
        self._held.clear()

    def is_held_elsewhere(self, session_id: str) -> bool:
        if session_id in self._held:
            return True
        path = self._path(session_id)
        if path is None or fcntl is None or not path.exists():
            return False
        try:
            with path.open("a") as handle:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                fcntl.flock(handle, fcntl.LOCK_UN)
        except OSError:
            return True
        return False
