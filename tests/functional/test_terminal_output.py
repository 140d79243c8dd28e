"""Untrusted text (answers, evidence, bank ids, LLM text) never reaches a terminal as control
bytes: every CLI print goes through one function that shows them as visible escapes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from helpers import run_cli
from conftest import ROOT
from fakes import BigramEmbedder
from interviewer import factory
from interviewer.grading.calibration import Scorer
from interviewer.grading.grader import Grader

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
HOSTILE = "混合精度训练\x1b[2J\x07（FP16/BF16）\x9b31m\r覆盖\x1b]0;title\x07"


@pytest.fixture(autouse=True)
def fake_grader(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(factory, "make_grader",
                        lambda settings: Grader(BigramEmbedder(), Scorer(0.6, 0.3, source="test")))


def test_for_terminal_escapes_controls_and_keeps_newlines_and_tabs() -> None:
    from interviewer.terminal import for_terminal

    assert for_terminal("a\tb\nc") == "a\tb\nc"
    assert for_terminal("\x1b[2J\x07\r\x9b\x7f\ud800\u202e") == \
        "\\u001b[2J\\u0007\\u000d\\u009b\\u007f\\ud800\\u202e"
    assert for_terminal("梯度累积 KV Cache") == "梯度累积 KV Cache"


def test_grade_output_shows_control_bytes_as_escapes(tmp_path: Path) -> None:
    answer = tmp_path / "a.txt"
    answer.write_text(HOSTILE, encoding="utf-8")
    code, out, err = run_cli("grade", "--bank", "ai-infra-zh", "--question", "q01",
                             "--answer-file", str(answer))
    assert code == 0, err
    assert "\\u001b[2J" in out and not CONTROL.search(out + err)
    code, out, err = run_cli("grade", "--bank", "ai-infra-zh", "--question", "q01",
                             "--answer-file", str(answer), "--json")
    assert code == 0 and not CONTROL.search(out + err)
    json.loads(out)


def test_an_error_echoing_an_id_shows_its_control_bytes_as_escapes(tmp_path: Path) -> None:
    answer = tmp_path / "a.txt"
    answer.write_text("一个答案", encoding="utf-8")
    code, out, err = run_cli("grade", "--bank", "ai-infra-zh", "--question", "q\x1b[2Jx",
                             "--answer-file", str(answer))
    assert code == 2 and "q\\u001b[2Jx" in err and not CONTROL.search(out + err)
    code, out, err = run_cli("report", "--format", "m\x1b[2Jd")
    assert code == 2 and not CONTROL.search(out + err)
    bank = tmp_path / "b.md"
    bank.write_text("---\nid: b\x1b[31m\ntitle: t\nlanguage: en\n---\n", encoding="utf-8")
    code, out, err = run_cli("bank", "validate", str(bank))
    assert code == 2 and not CONTROL.search(out + err)


def test_a_report_to_stdout_shows_control_bytes_as_escapes(isolated_home: Path) -> None:
    from interviewer.content.catalog import BankCatalog
    from interviewer.sessions.interview import Interview
    from interviewer.sessions.recorder import Recorder
    from interviewer.content.bank_rubric import rubric_for_bank
    from interviewer.sessions.plan import SetupChoices, make_plan
    from interviewer.sessions.store import Store

    bank = next(b for b in BankCatalog([ROOT / "bank"]).banks() if b.id == "ai-infra-zh")
    interview = Interview.start(make_plan(bank, SetupChoices(bank=bank.id, count=1)),
                                rubric_for_bank(bank).rubric)
    store = Store.open(isolated_home)
    recorder = Recorder.start(store, interview, "test/bigram")
    attempt = interview.attempts[0]
    attempt.answer = HOSTILE
    attempt.grade = Grader(BigramEmbedder(), Scorer(0.6, 0.3, source="test")).grade(
        interview.rubric, attempt.question.id, HOSTILE)
    recorder.result(0)
    recorder.finish()
    store.close()
    for fmt in ("md", "html", "json"):
        code, out, err = run_cli("report", "--format", fmt)
        assert code == 0, err
        assert not CONTROL.search(out + err), fmt
    assert json.loads(out)["questions"][0]["answer"] == HOSTILE  # JSON keeps the exact text
