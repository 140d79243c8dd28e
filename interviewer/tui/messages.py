"""Messages workers send back to the UI thread, named as past events."""

from __future__ import annotations

from textual.message import Message

from interviewer.grading import Grade


class ModelReady(Message):
    """The embedding model is loaded and the rubric points are encoded."""


class ModelFailed(Message):
    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


class AnswerGraded(Message):
    def __init__(self, index: int, grade: Grade) -> None:
        super().__init__()
        self.index = index
        self.grade = grade


class GradingFailed(Message):
    def __init__(self, index: int, reason: str) -> None:
        super().__init__()
        self.index = index
        self.reason = reason
