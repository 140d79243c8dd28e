"""An answer the candidate has stopped typing is graded while they read it over: the submit
that follows shows the grade already made, and any change after it is graded as sent."""

from __future__ import annotations

import threading

import pytest

from helpers import build, feedback, type_answer, wait_for

from interviewer.tui.screens.question_panel import AHEAD_DELAY


@pytest.fixture
def counted(settings):
    """The app, and the answers its grader is asked to grade."""
    app = build(settings)
    return app, _count_grades(app)


def _count_grades(app) -> list[str]:
    """The answers the app's grader is asked to grade, in order (from the grading thread)."""
    graded: list[str] = []
    lock = threading.Lock()
    grade = app.grader.grade

    def counting(rubric, question_id, answer, only=None):
        with lock:
            graded.append(answer)
        return grade(rubric, question_id, answer, only)

    app.grader.grade = counting
    return graded


async def _ready(pilot) -> None:
    await wait_for(pilot, lambda: pilot.app.model_status == "ready")


async def _left_alone(pilot, graded: list[str], text: str) -> None:
    """``text`` typed, then nothing until the app has graded it."""
    await type_answer(pilot, text)
    await wait_for(pilot, lambda: text in graded, timeout=10 * AHEAD_DELAY + 5)


async def _submitted(pilot) -> None:
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: feedback(pilot.app))


async def test_an_answer_left_alone_is_graded_before_the_submit_and_not_again(counted) -> None:
    app, graded = counted
    text = "数据并行把数据切分到多张卡上，每张卡有完整模型，梯度用all-reduce同步。"
    async with app.run_test(size=(100, 32)) as pilot:
        await _ready(pilot)
        await _left_alone(pilot, graded, text)
        assert app.screen.mode == "question"  # graded, and nothing shown before the submit
        await _submitted(pilot)
        assert graded.count(text) == 1
        grade = app.interview.attempts[0].grade
        assert grade is not None and grade.answer == text
        expected = app.grader.grade(app.interview.rubric, app.interview.attempts[0].question.id,
                                    text)
        assert grade.to_dict() == expected.to_dict()


async def test_an_answer_changed_after_its_grade_ahead_is_graded_as_sent(counted) -> None:
    app, graded = counted
    first = "数据并行把数据切分到多张卡上。"
    more = "每张卡有完整模型，梯度用all-reduce同步。"
    async with app.run_test(size=(100, 32)) as pilot:
        await _ready(pilot)
        await _left_alone(pilot, graded, first)
        await type_answer(pilot, more)
        await _submitted(pilot)
        grade = app.interview.attempts[0].grade
        assert grade is not None and grade.answer == first + more
        assert graded.count(first + more) == 1


async def test_an_answer_sent_at_once_is_graded_once(counted) -> None:
    app, graded = counted
    text = "张量并行把一层的矩阵切到多张卡上。"
    async with app.run_test(size=(100, 32)) as pilot:
        await _ready(pilot)
        await type_answer(pilot, text)
        await _submitted(pilot)
        await pilot.pause(2 * AHEAD_DELAY)  # a grade ahead still due would have run by now
        assert graded == [text]


async def test_time_up_on_an_answer_graded_ahead_shows_its_feedback(counted) -> None:
    """The clock submits an answer left alone long enough to be graded: that grade, shown."""
    app, graded = counted
    async with app.run_test(size=(100, 32)) as pilot:
        await _ready(pilot)
        await _left_alone(pilot, graded, "混合精度训练用BF16。")
        app.controller.clock.advance(app.interview.plan.time_limit)  # the screen's clock ticks
        await wait_for(pilot, lambda: feedback(app))
        assert app.interview.attempts[0].auto_submitted
        assert graded == ["混合精度训练用BF16。"]
