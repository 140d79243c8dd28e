"""Drills, retake diffs and mastery, over a real SQLite store and a hand-moved calendar."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from textual.widgets import Static, Switch, TextArea

from conftest import ROOT
from fakes import BigramEmbedder
from interviewer.content.catalog import BankCatalog
from interviewer.grading.calibration import Scorer
from interviewer.grading.grader import Grader
from interviewer.practice.drill import (
    drill_questions,
    due_points,
    mastery,
    mastery_over_time,
    point_statuses,
    retake_diff,
)
from interviewer.content.bank_rubric import rubric_for_bank
from interviewer.practice.srs import GOOD, LAPSE
from interviewer.sessions.store import Store

T0 = datetime(2026, 11, 1, 9, 0, tzinfo=timezone.utc)
GRADER = Grader(BigramEmbedder(), Scorer(0.6, 0.3, source="test"))


@pytest.fixture
def bank():
    return next(b for b in BankCatalog([ROOT / "bank"]).banks() if b.id == "ai-infra-zh")


def review_all(store: Store, bank, qid: str, outcome: str, at: datetime, session: str) -> None:
    q = rubric_for_bank(bank).rubric.question(qid)
    store.record_reviews(session, 0, bank.id, qid, [(p.id, p.text, outcome) for p in q.points],
                         at=at.isoformat())


def test_drill_orders_due_first_then_weak_and_skips_the_unseen(tmp_path: Path, bank) -> None:
    store = Store.open(tmp_path)
    rubric = rubric_for_bank(bank).rubric
    review_all(store, bank, "q07", GOOD, T0, "s1")                    # due day 1
    review_all(store, bank, "q09", LAPSE, T0 + timedelta(days=3), "s2")  # due day 4
    review_all(store, bank, "q02", GOOD, T0 + timedelta(days=4), "s3")
    review_all(store, bank, "q02", GOOD, T0 + timedelta(days=5), "s4")  # mastered, due day 11
    now = T0 + timedelta(days=6)
    statuses = point_statuses(store.review_log(bank.id), rubric)
    order = [q.id for q in drill_questions(bank, statuses, now)]
    assert order[:3] == ["q07", "q09", "q02"]  # most overdue first, then the not-yet-due
    assert "q01" in order[3:]  # never practised: last
    assert len(due_points(statuses, now)) == len(rubric.question("q07").points) + \
        len(rubric.question("q09").points)
    assert drill_questions(bank, statuses, now, count=2)[1].id == "q09"
    share = mastery(statuses, bank)
    n_q02 = len(rubric.question("q02").points)
    assert share[""] == pytest.approx(n_q02 / sum(len(q.points) for q in rubric.questions))
    assert share["deepspeed"] == 1.0
    assert mastery_over_time(store.review_log(bank.id), rubric)[-1][1] == pytest.approx(share[""])


def test_suspended_points_leave_drills_and_mastery(tmp_path: Path, bank) -> None:
    store = Store.open(tmp_path)
    rubric = rubric_for_bank(bank).rubric
    review_all(store, bank, "q07", LAPSE, T0, "s1")
    for p in rubric.question("q07").points:
        store.set_suspended(bank.id, p.id, True)
    statuses = point_statuses(store.review_log(bank.id), rubric)
    assert not due_points(statuses, T0 + timedelta(days=5))
    assert all(s.question_id != "q07" for s in statuses)


def test_retake_diff_names_gained_and_lost_points(bank) -> None:
    rubric = rubric_for_bank(bank).rubric
    before = GRADER.grade(rubric, "q09", "学习率过大：参数更新幅度过大导致在最优点附近震荡。")
    after = GRADER.grade(rubric, "q09", "数据噪声：训练数据质量差或标签有误。batch size太小：梯度估计方差大，导致更新方向不稳定。")
    diff = retake_diff(before, after)
    assert "数据噪声：训练数据质量差或标签有误" in diff.newly_covered
    assert "学习率过大：参数更新幅度过大导致在最优点附近震荡" in diff.lost
    assert diff.delta == pytest.approx(after.score - before.score)


async def test_a_drill_from_the_setup_screen_and_a_retake_diff(settings, bank) -> None:
    from helpers import feedback, wait_for

    from interviewer.sessions.plan import SetupChoices
    from interviewer.sessions.timer import ManualClock
    from interviewer.tui.app import make_app
    from interviewer.tui.screens.setup import SetupScreen

    store = Store.open(settings.data_dir)
    review_all(store, bank, "q09", LAPSE, datetime.now(timezone.utc) - timedelta(days=3), "old")
    store.close()
    app = make_app(banks=[bank], grader=GRADER, settings=settings,
                   choices=SetupChoices(bank=bank.id, count=1), clock=ManualClock())
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
        assert "points due" in str(app.screen.query_one("#due-info", Static).content)
        app.screen.query_one("#drill", Switch).value = True
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: getattr(app.screen, "mode", None) == "question")
        assert app.interview.attempts[0].question.id == "q09"  # the overdue one
        await wait_for(pilot, lambda: app.model_status == "ready")
        app.screen.query_one("#answer", TextArea).insert("学习率过大：参数更新幅度过大导致在最优点附近震荡。")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: feedback(app))
        await pilot.press("r")  # retake at once
        await wait_for(pilot, lambda: getattr(app.screen, "mode", None) == "question")
        app.screen.query_one("#answer", TextArea).insert("数据噪声：训练数据质量差或标签有误。")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: feedback(app))
        line = str(app.screen.query_one("#retake-diff", Static).content)
        assert line.startswith("Since your last attempt:")
        assert "newly covered: 数据噪声" in line and "lost: 学习率过大" in line
    store = Store.open(settings.data_dir)
    outcomes = {o for *_, o, _at in store.reviews(bank.id)}
    assert outcomes == {"good", "lapse"}


def test_points_and_drill_commands(settings, bank, isolated_home) -> None:
    from helpers import run_cli as run

    code, _, err = run("drill", "--bank", "ai-infra-zh")
    assert code == 2 and "nothing to drill" in err
    store = Store.open(settings.data_dir)
    review_all(store, bank, "q07", GOOD, T0, "s1")
    store.close()
    code, out, _ = run("points", "--bank", "ai-infra-zh", "--due")
    assert code == 0 and "points due" in out and "q07." in out
    pid = rubric_for_bank(bank).rubric.question("q07").points[0].id
    assert run("points", "suspend", pid, "--bank", "ai-infra-zh")[0] == 0
    code, out, _ = run("points", "--bank", "ai-infra-zh")
    assert "1 suspended" in out and pid not in out
    code, _, err = run("points", "suspend", "q07.nope", "--bank", "ai-infra-zh")
    assert code == 2 and "no point q07.nope" in err


def test_session_mastery_lists_only_its_tags_as_they_stood_then(tmp_path: Path, bank) -> None:
    from interviewer.practice.drill import session_mastery

    store = Store.open(tmp_path)
    rubric = rubric_for_bank(bank).rubric
    review_all(store, bank, "q01", GOOD, T0, "s1")  # q01: training, inference
    review_all(store, bank, "q01", GOOD, T0 + timedelta(days=2), "s2")  # now mastered
    review_all(store, bank, "q01", LAPSE, T0 + timedelta(days=9), "s3")  # a later lapse
    q01 = next(q for q in bank.questions if q.id == "q01")
    then = session_mastery(store.review_log(bank.id), bank, rubric, [q01], as_of=T0 + timedelta(days=2, hours=1))
    assert set(then) == {"", "training", "inference"}
    n_q01 = len(rubric.question("q01").points)
    training = [q for q in rubric.questions if "training" in
                next(b for b in bank.questions if b.id == q.id).tags]
    assert then["training"] == pytest.approx(n_q01 / sum(len(q.points) for q in training))
    later = session_mastery(store.review_log(bank.id), bank, rubric, [q01], as_of=T0 + timedelta(days=10))
    assert later["training"] == 0.0


def test_sm2_reads_a_review_log_not_the_store(bank) -> None:
    """Practice computes from the log it is given: a log written by hand, no database."""
    from interviewer.practice.srs import ReviewLog

    rubric = rubric_for_bank(bank).rubric
    q07 = rubric.question("q07").points
    rows = tuple((bank.id, "q07", p.id, p.text, GOOD, at.isoformat())
                 for at in (T0, T0 + timedelta(days=2)) for p in q07)
    log = ReviewLog(bank.id, rows, suspended=frozenset({q07[0].id}))
    statuses = point_statuses(log, rubric)
    seen = {s.point_id: s for s in statuses if s.question_id == "q07"}
    assert q07[0].id not in seen  # suspended
    assert all(seen[p.id].reviews == 2 and seen[p.id].mastered for p in q07[1:])
    assert point_statuses(log, rubric, as_of=T0 + timedelta(hours=1))[0].reviews <= 1
    assert mastery_over_time(log, rubric)[-1][1] == pytest.approx(mastery(statuses, bank)[""])


def test_the_store_gives_a_bank_s_review_log(tmp_path: Path, bank) -> None:
    store = Store.open(tmp_path)
    review_all(store, bank, "q07", LAPSE, T0, "s1")
    pid = rubric_for_bank(bank).rubric.question("q07").points[0].id
    store.set_suspended(bank.id, pid, True)
    log = store.review_log(bank.id)
    assert log.bank_id == bank.id and log.suspended == frozenset({pid})
    assert list(log.reviews) == store.reviews(bank.id)
    assert store.review_log("other-bank").reviews == ()
