"""Credentials written into a server URL are used for the request and never stored or shown.

A real HTTP server on 127.0.0.1, the real openai client, real SQLite files.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from interviewer.grading.encoders.names import server_identity

from helpers import run_cli
from conftest import ROOT
from llm_server import ChatServer, Reply

SECRET = "sk-urlsecret42"
BASIC = "Basic " + base64.b64encode(f"alice:{SECRET}".encode()).decode()


def _with_userinfo(url: str) -> str:
    return url.replace("http://", f"http://alice:{SECRET}@")


def _all_bytes(root: Path) -> bytes:
    return b"".join(p.read_bytes() for p in root.rglob("*") if p.is_file())


def test_redact_url_drops_userinfo_only() -> None:
    from interviewer.urls import redact_url

    assert redact_url(f"http://alice:{SECRET}@host:8080/v1?x=1") == "http://host:8080/v1?x=1"
    assert redact_url(f"https://{SECRET}@api.example.com/v1") == "https://api.example.com/v1"
    assert redact_url("http://localhost:11434/v1") == "http://localhost:11434/v1"
    assert redact_url(None) is None


def test_served_embeddings_use_the_credentials_but_never_name_them(
        tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    answers = tmp_path / "a.jsonl"
    answers.write_text(json.dumps({"id": 1, "question_id": "q07", "answer": "梯度累积。"},
                                  ensure_ascii=False) + "\n", encoding="utf-8")
    out, report = tmp_path / "out.jsonl", tmp_path / "cohort.json"
    with ChatServer() as server:
        monkeypatch.setenv("INTERVIEWER_EMBEDDING_BASE_URL", _with_userinfo(server.base_url))
        code, stdout, err = run_cli("grade", "--rubric", "ai-infra-zh", "--answers", str(answers),
                                    "--out", str(out), "--report", str(report),
                                    "--model", "openai:bge-m3", "--uncalibrated")
        sent = [r["headers"].get("authorization") for r in server.requests]
        url = server.base_url
        server.embedding_status = 500
        code_failed, _, err_failed = run_cli(
            "grade", "--bank", "ai-infra-zh", "--question", "q07", "--answer-file",
            str(_text(tmp_path, "一个新的答案，缓存里没有。")), "--model", "openai:other", "--uncalibrated")
    assert code == 0, err
    assert sent and all(h == BASIC for h in sent)  # the server still gets the credentials
    row = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert row["model_id"] == f"bge-m3@{server_identity(url)}"
    assert SECRET not in out.read_text(encoding="utf-8") + report.read_text(encoding="utf-8")
    assert SECRET.encode() not in _all_bytes(isolated_home)  # the embedding cache
    assert code_failed == 2 and "failed (500)" in err_failed and SECRET not in err_failed
    assert SECRET not in stdout + err


def test_an_unreachable_embeddings_server_is_named_without_credentials() -> None:
    from interviewer.grading.encoders.backends import OpenAIEmbedder
    from interviewer.errors import ModelError

    with ChatServer() as server:
        url = server.base_url
    with pytest.raises(ModelError) as info:
        OpenAIEmbedder("m", base_url=_with_userinfo(url), timeout=2).embed(["x"])
    assert "cannot reach" in str(info.value) and SECRET not in str(info.value)


def _text(tmp_path: Path, text: str) -> Path:
    path = tmp_path / f"answer-{abs(hash(text))}.txt"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_llm_gets_the_credentials_and_no_session_or_report_keeps_them(
        tmp_path: Path, isolated_home: Path) -> None:
    from fakes import BigramEmbedder
    from interviewer.content.catalog import BankCatalog
    from interviewer.grading.calibration import Scorer
    from interviewer.config import LLMSettings
    from interviewer.grading.grader import Grader
    from interviewer.sessions.interview import Interview
    from interviewer.followups.prober import LLMProber, followup_language
    from interviewer.sessions.recorder import Recorder
    from interviewer.content.bank_rubric import rubric_for_bank
    from interviewer.sessions.plan import SetupChoices, make_plan
    from interviewer.sessions.store import Store

    bank = next(b for b in BankCatalog([ROOT / "bank"]).banks() if b.id == "ai-infra-zh")
    rubric = rubric_for_bank(bank).rubric
    interview = Interview.start(make_plan(bank, SetupChoices(bank=bank.id, count=1)), rubric)
    grade = Grader(BigramEmbedder(), Scorer(0.6, 0.3, source="test")).grade(
        rubric, interview.attempts[0].question.id, "混合精度训练。")
    with ChatServer() as server:
        base_url = _with_userinfo(server.base_url)
        pid = grade.points[0].point_id
        server.script = [Reply(json.dumps({"followup": "为什么？", "targets": [pid]}))]
        prober = LLMProber(LLMSettings(enabled=True, base_url=base_url, model="m"), env={})
        qr = rubric.question(grade.question_id)
        result = prober.followup(qr, grade, followup_language(qr, bank.language))
        sent = server.requests[-1]["headers"].get("authorization")
    assert result.source == "llm", result.notice
    assert sent == BASIC
    store = Store.open(isolated_home)
    recorder = Recorder.start(store, interview, "test/bigram",
                              llm={"base_url": base_url, "model": "m"})
    interview.attempts[0].answer, interview.attempts[0].grade = "混合精度训练。", grade
    recorder.result(0)
    recorder.finish()
    store.close()
    assert SECRET.encode() not in _all_bytes(isolated_home)
    for fmt in ("md", "html", "json"):
        code, out, err = run_cli("report", "--format", fmt)
        assert code == 0, err
        assert SECRET not in out and "127.0.0.1" in out


def test_a_report_of_an_old_session_that_stored_credentials_does_not_show_them(
        isolated_home: Path) -> None:
    import sqlite3

    from interviewer.sessions.store import DB_NAME, Store

    store = Store.open(isolated_home)
    store.close()
    with sqlite3.connect(isolated_home / DB_NAME) as conn:  # as an older version stored it
        conn.execute(
            "INSERT INTO sessions (id, started_at, bank_id, bank_title, model_id, status, "
            "plan_json) VALUES ('s1', '2026-01-01T00:00:00+00:00', 'ai-infra-zh', 'AI Infra', ?, "
            "'finished', ?)", (f"bge@http://alice:{SECRET}@h/v1", json.dumps(
                {"question_ids": [], "llm": {"base_url": f"http://alice:{SECRET}@h/v1",
                                             "model": "m"}})))
    for fmt in ("md", "html", "json"):
        code, out, err = run_cli("report", "s1", "--format", fmt)
        assert code == 0, err
        assert SECRET not in out and "h/v1" in out
