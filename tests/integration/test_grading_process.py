"""The TUI's grader in a child process: the same grades as in-process grading, a grade never
lost when the child cannot start or dies, and no child left behind its parent.

Everything here is real: the default model, a real child process, real signals.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from conftest import ROOT
from helpers import alive, poll

ANSWERS = [
    "KV cache 保存每层的 key 和 value，解码时不再重复计算前面 token 的注意力。",
    "PagedAttention 把 KV cache 分成固定大小的块，按需分配，减少显存碎片。",
    "Gradient accumulation splits a large batch into micro-batches and sums their gradients "
    "before one optimizer step.",
    "我不知道。",
    "张量并行把一层的矩阵切到多张卡上；流水线并行把不同的层放到不同的卡上，用 micro-batch 填满流水线。",
    "ZeRO shards optimizer states, gradients and parameters across data-parallel ranks.",
]




def grade_json(grade) -> str:
    """Every field of a grade, floats unrounded, as one string."""
    return json.dumps([grade.question_id, grade.answer, repr(grade.score), grade.model_id,
                       grade.calibration, grade.note,
                       [[p.point_id, p.text, p.group, repr(p.weight), p.verdict,
                         repr(p.probability), repr(p.similarity), p.evidence, p.reason]
                        for p in grade.points]], ensure_ascii=False)


@pytest.fixture
def process_grader(settings):
    from interviewer.factory import tui_grader

    grader = tui_grader(settings)
    yield grader
    grader.close()


def test_the_child_grades_exactly_as_in_process(settings, rubric, process_grader) -> None:
    from interviewer.factory import make_grader

    process_grader.warm_up(rubric)
    assert process_grader.child_pid is not None and alive(process_grader.child_pid)
    local = make_grader(settings)
    questions = [q.id for q in rubric.questions]
    for i, answer in enumerate(ANSWERS):
        qid = questions[i % len(questions)]
        remote = process_grader.grade(rubric, qid, answer)
        here = local.grade(rubric, qid, answer)
        assert remote == here
        assert grade_json(remote) == grade_json(here)
    only = {p.id for p in rubric.questions[0].points[:2]}
    assert process_grader.grade(rubric, questions[0], ANSWERS[0], only) == \
        local.grade(rubric, questions[0], ANSWERS[0], only)
    assert not process_grader.graded_here  # every grade above came from the child


def test_a_child_killed_by_a_signal_loses_no_grade(settings, rubric, process_grader) -> None:
    from interviewer.factory import make_grader

    process_grader.warm_up(rubric)
    pid = process_grader.child_pid
    first = process_grader.grade(rubric, "q01", ANSWERS[0])
    os.kill(pid, signal.SIGKILL)
    poll(lambda: not alive(pid), timeout=30, what="the child's death")
    second = process_grader.grade(rubric, "q01", ANSWERS[1])
    assert process_grader.graded_here
    # each was the first grade of its grader (the encoder's caches make the last bits of a
    # vector depend on what was encoded before, in any process)
    assert first == make_grader(settings).grade(rubric, "q01", ANSWERS[0])
    assert second == make_grader(settings).grade(rubric, "q01", ANSWERS[1])


def test_a_child_that_cannot_start_grades_in_process(settings, rubric, tmp_path) -> None:
    from interviewer.factory import make_grader, tui_grader

    grader = tui_grader(settings, python=str(tmp_path / "no-such-python"))
    try:
        grader.warm_up(rubric)
        assert grader.child_pid is None
        grade = grader.grade(rubric, "q01", ANSWERS[0])
    finally:
        grader.close()
    assert grade == make_grader(settings).grade(rubric, "q01", ANSWERS[0])


def test_a_child_that_exits_at_once_grades_in_process(settings, rubric, tmp_path) -> None:
    """A Python that runs but whose child exits before answering (a broken install)."""
    from interviewer.factory import make_grader, tui_grader

    python = tmp_path / "python-that-exits"
    python.write_text("#!/bin/sh\nexit 3\n")
    python.chmod(0o755)
    grader = tui_grader(settings, python=str(python))
    try:
        grader.warm_up(rubric)
        grade = grader.grade(rubric, "q01", ANSWERS[0])
    finally:
        grader.close()
    assert grader.graded_here
    assert grade == make_grader(settings).grade(rubric, "q01", ANSWERS[0])


def test_a_grading_error_is_the_in_process_error(rubric, process_grader) -> None:
    from interviewer.errors import InterviewerError

    process_grader.warm_up(rubric)
    with pytest.raises(InterviewerError, match="no question 'q999'"):
        process_grader.grade(rubric, "q999", ANSWERS[0])


PARENT = """
import sys, time
sys.path.insert(0, {root!r})
from interviewer.config import discover_settings
from interviewer.factory import tui_grader
grader = tui_grader(discover_settings())
grader.warm_up()
print(grader.child_pid, flush=True)
if sys.argv[1] == "exit":
    sys.exit(0)
time.sleep(600)
"""


@pytest.mark.parametrize("how", ["exit", signal.SIGTERM, signal.SIGHUP, signal.SIGKILL])
def test_the_child_dies_with_its_parent(how, isolated_home) -> None:
    mode = "exit" if how == "exit" else "wait"
    parent = subprocess.Popen([sys.executable, "-c", PARENT.format(root=str(ROOT)), mode],
                              stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        child = int(parent.stdout.readline())
        assert alive(child)
        if how != "exit":
            os.kill(parent.pid, how)
        parent.wait(timeout=60)
        poll(lambda: not alive(child), timeout=30, what="the child's exit after its parent's")
    finally:
        parent.kill()
        parent.wait()

