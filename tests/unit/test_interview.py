"""What the summary says was missed: counted unprompted, with what probing drew out."""

from __future__ import annotations

import pytest

from interviewer.content.bank import Question
from interviewer.grading.grade import Grade, PointResult
from interviewer.sessions.interview import Attempt, FollowUpRound, Interview, MissedPoint


def _point(pid: str, verdict: str) -> PointResult:
    return PointResult(point_id=pid, text=f"point {pid}", group=None, weight=1.0,
                       verdict=verdict, probability=0.0, similarity=0.0, evidence=None, reason="")


def _grade(qid: str, **verdicts: str) -> Grade:
    return Grade(question_id=qid, answer="", score=0.0,
                 points=tuple(_point(pid, v) for pid, v in verdicts.items()),
                 model_id="m", calibration="test")


def _attempt(qid: str, followup: dict[str, str] | None = None, **verdicts: str) -> Attempt:
    attempt = Attempt(Question(id=qid, text=f"question {qid}", answer=""), grade=_grade(qid, **verdicts))
    if followup is not None:
        attempt.followups.append(FollowUpRound(question="?", targets=tuple(followup),
                                               source="template",
                                               grade=_grade(qid, **followup)))
    return attempt


def _interview(*attempts: Attempt) -> Interview:
    return Interview(plan=None, rubric=None, attempts=list(attempts))  # type: ignore[arg-type]


def test_missed_points_count_unprompted_and_note_what_probing_drew_out() -> None:
    interview = _interview(
        _attempt("q1", followup={"a": "covered"}, a="missed", b="missed", c="covered"),
        _attempt("q1", a="missed", b="partial", c="covered"),  # a retake
        _attempt("q2", followup={"x": "missed"}, x="missed"),
    )
    assert interview.missed_most() == [
        MissedPoint("q1", "point a", times=2, probed=1),
        MissedPoint("q1", "point b", times=1, probed=0),
        MissedPoint("q2", "point x", times=1, probed=0),
    ]


def test_a_partial_answer_in_the_follow_up_also_counts_as_drawn_out() -> None:
    interview = _interview(_attempt("q1", followup={"a": "partial"}, a="missed"))
    assert interview.missed_most() == [MissedPoint("q1", "point a", times=1, probed=1)]


@pytest.mark.parametrize("missed, line", [
    (MissedPoint("q01", "KV Cache", 1, 0), "KV Cache  (q01)"),
    (MissedPoint("q01", "KV Cache", 3, 0), "KV Cache  (q01, 3×)"),
    (MissedPoint("q01", "KV Cache", 1, 1), "KV Cache  (q01, said when probed)"),
    (MissedPoint("q01", "KV Cache", 3, 2), "KV Cache  (q01, 3×, said when probed 2×)"),
])
def test_each_missed_point_is_described_in_one_line(missed: MissedPoint, line: str) -> None:
    assert missed.describe() == line


def test_the_score_counting_follow_ups_has_the_reports_name() -> None:
    attempt = _attempt("q1", followup={"a": "covered"}, a="missed", b="covered")
    assert attempt.score == 0.0 and attempt.score_with_followups == 1.0
    plain = _attempt("q1", a="missed", b="covered")
    assert plain.score_with_followups == 0.5


def test_the_code_uses_the_follow_up_name_for_that_score() -> None:
    from conftest import ROOT

    for path in (ROOT / "interviewer").rglob("*.py"):
        assert "score_with_probing" not in path.read_text(encoding="utf-8"), path
