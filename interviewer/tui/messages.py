"""Messages named as past events: what workers send back to the UI thread, and what the app
tells the interview screen (these do not bubble back up to the app)."""

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
    def __init__(self, index: int, grade: Grade, seconds: float, submitted: float,
                 notice: str | None = None) -> None:
        super().__init__()
        self.index = index
        self.grade = grade
        self.seconds = seconds  # time the grader itself took
        self.submitted = submitted  # perf_counter() when the user submitted
        self.notice = notice  # why the LLM could not check the credited points


class GradingFailed(Message, bubble=False):
    """Also told to the interview screen: the answer goes back to being typed."""

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


class DraftSaved(Message, bubble=False):
    """A draft that waited for a busy database has reached it (told to the screen too)."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index


# ---------------------------------------------------------------- told to the interview screen

class QuestionAsked(Message, bubble=False):
    """Attempt ``index`` is the current question, with a fresh clock."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index


class Graded(Message, bubble=False):
    """Attempt ``index`` has all the grading it will get: its feedback is due."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index


class FollowUpStarted(Message, bubble=False):
    """A follow-up to attempt ``index`` is being written."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index


class FollowUpChunk(Message, bubble=False):
    """The follow-up being written, as far as it has arrived."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class FollowUpAsked(Message, bubble=False):
    """The follow-up question in full: its answer can be typed."""

    def __init__(self, index: int, text: str, notice: str | None) -> None:
        super().__init__()
        self.index, self.text, self.notice = index, text, notice
