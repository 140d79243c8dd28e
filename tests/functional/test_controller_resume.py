"""What the interview controller offers to resume: the interview a crash left unfinished,
with the question the user is asked about it."""

from __future__ import annotations

from helpers import banks

from interviewer.sessions.controller import InterviewController
from interviewer.sessions.plan import SetupChoices
from interviewer.sessions.store import Store
from interviewer.sessions.timer import ManualClock


def _controller(settings, store: Store) -> InterviewController:
    return InterviewController(banks=banks(), store=store, settings=settings, model_id="test",
                               clock=ManualClock(),
                               choices=SetupChoices(bank="ai-infra-zh", count=2, time_limit=300))


def test_an_interrupted_interview_is_offered_with_where_it_stopped(settings) -> None:
    store = Store.open(settings.data_dir)
    store.start_session("s1", "ai-infra-zh", "AI Infra", {"question_ids": ["q01", "q02"]}, None)
    store.ensure_attempt("s1", 0, "q01", "?")
    store.save_draft("s1", 0, "半句", 12.0)
    store.close()  # the process dies mid-interview: the session stays active, unheld
    store = Store.open(settings.data_dir)
    offered = _controller(settings, store).interrupted()
    assert offered is not None
    row, question = offered
    started = row.started_at.replace("T", " ")[:16]
    assert row.id == "s1"
    assert question == (f"Resume the interview on AI Infra started {started} UTC "
                        "(question 1 of 2, 2 characters typed)?")


def test_nothing_is_offered_when_every_interview_ended(settings) -> None:
    assert _controller(settings, Store.open(settings.data_dir)).interrupted() is None


def test_a_follow_up_answer_is_graded_on_the_points_it_targeted_only(settings, zh_bank) -> None:
    from fakes import BigramEmbedder

    from interviewer.grading.calibration import Scorer
    from interviewer.grading.grader import Grader
    from interviewer.sessions.plan import make_plan

    grader = Grader(BigramEmbedder(), Scorer(0.6, 0.3, source="test"))
    controller = _controller(settings, Store.open(settings.data_dir))
    controller.start(make_plan(zh_bank, controller.choices))
    question = controller.interview.attempts[0].question
    controller.graded(0, controller.grade(grader, 0, "梯度累积把大batch拆成多个micro-batch。"))
    assert controller.interview.attempts[0].grade.question_id == question.id
    targets = [p.id for p in controller.interview.rubric.question(question.id).points[:1]]
    controller.followup_asked(0, "为什么？", targets, "template", None)
    assert controller.grade_followup(grader, 0, controller.submit_followup(0, " ", 3.0)) is None
    controller.followup_asked(0, "还有呢？", [], "template", None)
    assert controller.grade_followup(grader, 0, controller.submit_followup(0, "省显存", 3.0)) \
        is None  # nothing targeted: nothing to grade
    controller.followup_asked(0, "再说说？", targets, "template", None)
    grade = controller.grade_followup(grader, 0, controller.submit_followup(0, "省显存", 3.0))
    assert [p.point_id for p in grade.points] == targets
    controller.close()
