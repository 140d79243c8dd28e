"""A finished, graded session in a real store: what the report and history tests read."""

from __future__ import annotations

from pathlib import Path

from conftest import ROOT
from fakes import BigramEmbedder
from interviewer.grading.calibration import Scorer
from interviewer.grading.grade import Grade
from interviewer.grading.grader import Grader


def stored_session(home: Path) -> tuple[str, str, Grade]:
    """One answered question of ai-infra-zh in ``home``'s database: (session id, question
    text, its grade)."""
    from interviewer.content.bank import BankCatalog
    from interviewer.sessions.interview import Interview
    from interviewer.sessions.recorder import Recorder
    from interviewer.content.bank_rubric import rubric_for_bank
    from interviewer.sessions.plan import SetupChoices, make_plan
    from interviewer.sessions.store import Store

    bank = next(b for b in BankCatalog([ROOT / "bank"]).banks() if b.id == "ai-infra-zh")
    interview = Interview.start(make_plan(bank, SetupChoices(bank=bank.id, count=1)),
                                rubric_for_bank(bank).rubric)
    store = Store.open(home)
    recorder = Recorder.start(store, interview, "test/bigram")
    attempt = interview.attempts[0]
    attempt.answer = "混合精度训练（FP16/BF16）。"
    attempt.grade = Grader(BigramEmbedder(), Scorer(0.6, 0.3, source="test")).grade(
        interview.rubric, attempt.question.id, attempt.answer)
    recorder.result(0)
    recorder.finish()
    store.close()
    return recorder.session_id, attempt.question.text, attempt.grade
