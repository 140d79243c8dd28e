"""A grader that is built on first use.

Building the real :class:`~interviewer.grading.grader.Grader` imports numpy (about 0.12 s on the
development machine) and the encoder's package. The TUI gets this stand-in instead, so that
cost is paid in the model-loading worker after the first frame is drawn, not before it. The
model id is known up front (:func:`interviewer.grading.encoders.names.model_id_for`), because the session
record names it when the interview starts.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from interviewer.grading.grade import Grade
    from interviewer.grading.grader import Grader
    from interviewer.content.rubric import Rubric


class DeferredGrader:
    """Builds the grader with ``build`` the first time it is needed, once, thread-safely."""

    def __init__(self, build: Callable[[], Grader], model_id: str) -> None:
        self._build = build
        self._model_id = model_id
        self._grader: Grader | None = None
        self._lock = threading.Lock()

    @property
    def model_id(self) -> str:
        return self._model_id

    def get(self) -> Grader:
        with self._lock:
            if self._grader is None:
                self._grader = self._build()
            return self._grader

    def warm_up(self, rubric: Rubric | None = None) -> None:
        self.get().warm_up(rubric)

    def grade(self, rubric: Rubric, question_id: str, answer: str,
              only: Collection[str] | None = None) -> Grade:
        return self.get().grade(rubric, question_id, answer, only)
