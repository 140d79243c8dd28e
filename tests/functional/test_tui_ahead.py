"""An answer the candidate has stopped typing is graded while they read it over: the submit
that follows shows the grade already made, and any change after it is graded as sent."""

from __future__ import annotations

import threading

from helpers import build, feedback, type_answer, wait_for

from interviewer.tui.screens.question_panel import AHEAD_DELAY


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


async def test_an_answer_left_alone_is_graded_before_the_submit_and_not_again(settings) -> None:
    app = build(settings)
    graded = _count_grades(app)
    text = "数据并行把数据切分到多张卡上，每张卡有完整模型，梯度用all-reduce同步。"
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.model_status == "ready")
        await type_answer(pilot, text)
        await wait_for(pilot, lambda: text in graded, timeout=10 * AHEAD_DELAY + 5)
        assert app.screen.mode == "question"  # graded, and nothing shown before the submit
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: feedback(app))
        assert graded.count(text) == 1
        grade = app.interview.attempts[0].grade
        assert grade is not None and grade.answer == text
        expected = app.grader.grade(app.interview.rubric, app.interview.attempts[0].question.id,
                                    text)
        assert grade.to_dict() == expected.to_dict()


async def test_an_answer_changed_after_its_grade_ahead_is_graded_as_sent(settings) -> None:
    app = build(settings)
    graded = _count_grades(app)
    first = "数据并行把数据切分到多张卡上。"
    more = "每张卡有完整模型，梯度用all-reduce同步。"
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.model_status == "ready")
        await type_answer(pilot, first)
        await wait_for(pilot, lambda: first in graded, timeout=10 * AHEAD_DELAY + 5)
        await type_answer(pilot, more)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: feedback(app))
        grade = app.interview.attempts[0].grade
        assert grade is not None and grade.answer == first + more
        assert graded.count(first + more) == 1


async def test_an_answer_sent_at_once_is_graded_once(settings) -> None:
    app = build(settings)
    graded = _count_grades(app)
    text = "张量并行把一层的矩阵切到多张卡上。"
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.model_status == "ready")
        await type_answer(pilot, text)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: feedback(app))
        await pilot.pause(2 * AHEAD_DELAY)  # a grade ahead still due would have run by now
        assert graded == [text]
