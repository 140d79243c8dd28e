"""One thread that grades the answers submitted, in turn, for the whole run of the app.

A Textual thread worker started per grade reached the grader 10-15 ms after the submit: its
task waits for the event loop to come round, then for a pool thread. This thread is already
waiting on its queue; a submit wakes it at once. Results go back as messages, as before.
"""

from __future__ import annotations

import queue
import threading
from typing import Callable


class GradingThread:
    """Runs the jobs given to :meth:`run` one after another in a daemon thread (it never
    keeps the process alive: quitting quits, even mid-grade)."""

    def __init__(self, name: str = "grading") -> None:
        self._name = name
        self._jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    def run(self, job: Callable[[], None]) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name=self._name, daemon=True)
            self._thread.start()
        self._jobs.put(job)

    def _loop(self) -> None:
        while (job := self._jobs.get()) is not None:
            try:
                job()
            except Exception:  # a job reports its own failures; the next one still runs
                pass

    def close(self) -> None:
        """The thread ends once the jobs already given are done."""
        if self._thread is not None:
            self._jobs.put(None)
            self._thread = None
