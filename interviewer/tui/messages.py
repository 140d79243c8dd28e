"""Messages workers send back to the UI thread, named as past events."""

from __future__ import annotations

from textual.message import Message

from interviewer.grading.grade import Grade


class ModelReady(Message):
    """The embedding model is loaded."""


class ModelFailed(Message):
    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


class AnswerGraded(Message):
    def __init__(self, index: int, grade: Grade, seconds: float, submitted: float) -> None:
        super().__init__()
        self.index = index
        self.grade = grade
        self.seconds = seconds  # time the grader itself took
        self.submitted = submitted  # perf_counter() when the user submitted


class GradingFailed(Message):
    def __init__(self, index: int, reason: str) -> None:
        super().__init__()
        self.index = index
        self.reason = reason


class FollowUpReady(Message):
    """The prober has its follow-up question (from the LLM or a template)."""

    def __init__(self, index: int, followup) -> None:
        super().__init__()
        self.index = index
        self.followup = followup


class FollowUpGraded(Message):
    def __init__(self, index: int, round_index: int, grade: Grade | None) -> None:
        super().__init__()
        self.index = index
        self.round_index = round_index
        self.grade = grade


class DraftSaved(Message):
    """A draft that waited for a busy database has reached it."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index
