"""One score per session: the summary, the report and history read the same number."""

from __future__ import annotations

from interviewer.content.bank import Bank, Question
from interviewer.grading.grade import Grade
from interviewer.sessions.interview import Interview
from interviewer.sessions.recorder import Recorder, interview_from_session
from interviewer.reports.report import ReportMeta, render_markdown, to_data
from interviewer.content.rubric import Rubric
from interviewer.sessions.plan import InterviewPlan
from interviewer.sessions.store import Store


def _grade(qid: str, score: float) -> Grade:
    return Grade(question_id=qid, answer="a", score=score, points=(), model_id="m",
                 calibration="test")


def _recorded(tmp_path, steps) -> tuple[Interview, Store, str]:
    """An interview over q1..q3 played by ``steps`` (index, score or "skip" or "retake"),
    written to a real SQLite store as it happens."""
    questions = tuple(Question(id=f"q{i}", text=f"question {i}", answer="") for i in (1, 2, 3))
    bank = Bank(id="b", title="B", language="en", questions=questions)
    interview = Interview.start(InterviewPlan(bank=bank, questions=questions),
                                Rubric(bank="b", questions=()))
    store = Store.open(tmp_path)
    recorder = Recorder.start(store, interview, "m")
    for index, what in steps:
        if what == "retake":
            recorder.ensure(interview.retry(index))
            continue
        attempt = interview.attempts[index]
        if what == "skip":
            attempt.skipped = True
        else:
            attempt.answer = "a"
            attempt.grade = _grade(attempt.question.id, what)
        recorder.result(index)
    return interview, store, recorder.session_id


def test_summary_report_and_history_agree_and_skips_count_zero(tmp_path) -> None:
    # q1 graded 0.2, then retaken for 0.6; q2 skipped; q3 never reached
    interview, store, sid = _recorded(tmp_path, [(0, 0.2), (1, "skip"), (0, "retake"), (3, 0.6)])
    row = store.session(sid)
    assert interview.overall_score() == row.score == 0.3  # (0.6 + 0) / 2: q3 not asked
    report = to_data(interview_from_session(row, None), ReportMeta())
    assert report["overall_score"] == 0.3
    assert to_data(interview, ReportMeta())["overall_score"] == 0.3


def test_a_session_with_nothing_graded_has_no_score_anywhere(tmp_path) -> None:
    interview, store, sid = _recorded(tmp_path, [(0, "skip")])
    row = store.session(sid)
    assert interview.overall_score() is None and row.score is None
    assert to_data(interview, ReportMeta())["overall_score"] is None
    assert "- Overall score: —" in render_markdown(interview)


def test_the_resume_offer_numbers_the_question_by_its_place_in_the_plan(tmp_path) -> None:
    from interviewer.sessions.recorder import where_it_stopped

    interview, store, sid = _recorded(tmp_path, [(0, 0.2), (0, "retake"), (3, 0.5)])
    interview.attempts[1].answer = "半截"
    from interviewer.sessions.drafts import DraftSaver

    assert Recorder(store, sid, interview, saver=DraftSaver(store, sid)).draft(1)
    assert where_it_stopped(store.session(sid)) == "question 2 of 3, 2 characters typed"


def test_an_interview_cut_short_during_a_retake_resumes_at_the_retake(tmp_path) -> None:
    # q1 graded, then retaken; the terminal closes while the retake is being typed
    interview, store, sid = _recorded(tmp_path, [(0, 0.2), (0, "retake")])
    interview.attempts[3].answer = "重做的答案"
    from interviewer.sessions.drafts import DraftSaver
    from interviewer.sessions.recorder import where_it_stopped

    assert Recorder(store, sid, interview, saver=DraftSaver(store, sid)).draft(3)
    row = store.session(sid)
    assert where_it_stopped(row) == "question 1 of 3 (a retake), 5 characters typed"
    resumed = interview_from_session(row, None)
    assert resumed.index == 3
    assert resumed.current.answer == "重做的答案"
    # ... and once the retake is answered, the interview goes on at q2
    assert resumed.next_index() == 1
