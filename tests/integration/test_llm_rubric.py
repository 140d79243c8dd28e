"""`rubric build --llm`: the LLM proposes, it never removes the extracted points, never replaces a
rubric without --force, and a question it cannot answer in time keeps its extracted points.
A real server on 127.0.0.1 serves both the chat model and the embeddings."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from fakes import BigramEmbedder
from helpers import run_cli
from llm_server import ChatServer, Reply
from interviewer import cli
from interviewer.content.bank import load_bank
from interviewer.config import LLMSettings
from interviewer.content.llm_rubric import build_with_llm
from interviewer.followups.prober import LLMProber
from interviewer.content.rubric import load_rubric
from interviewer.content.extract import rubric_for_question
from interviewer.content.rubric import points_fingerprint, sha256_text

BANK = """---
id: b
title: B
language: zh
---

## q1: 梯度累积的原理？

### Answer

梯度累积把大batch拆成多个micro-batch，累加梯度后再更新参数。峰值显存只需一个micro-batch。通信只在更新时做一次AllReduce。

## q2: 什么是KV Cache？

### Answer

KV Cache缓存历史token的K和V，避免重复计算。代价是显存随序列长度线性增长。
"""


run = run_cli


@pytest.fixture
def bank_file(tmp_path: Path) -> Path:
    (tmp_path / "bank").mkdir()
    path = tmp_path / "bank" / "b.md"
    path.write_text(BANK, encoding="utf-8")
    return path


def served(monkeypatch: pytest.MonkeyPatch, server: ChatServer, timeout: float = 5) -> None:
    """Chat model and embeddings model on the one server, as the config would name them."""
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.setenv("INTERVIEWER_LLM_MODEL", "m")
    monkeypatch.setenv("INTERVIEWER_MODEL", "openai:bigram")
    monkeypatch.setenv("INTERVIEWER_EMBEDDING_BASE_URL", server.base_url)
    home = Path(__import__("os").environ["INTERVIEWER_HOME"])
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(f"[llm]\ntimeout = {timeout}\n", encoding="utf-8")


def one_point(text: str) -> Reply:
    return Reply(json.dumps({"points": [{"text": text, "group": None}]}, ensure_ascii=False))


def test_a_collapsed_proposal_never_removes_extracted_points(bank_file: Path) -> None:
    bank = load_bank(bank_file)
    extracted = {q.id: [p.text for p in rubric_for_question(q).points] for q in bank.questions}
    with ChatServer() as server:
        server.script = [one_point("梯度累积把大batch拆成多个micro-batch，累加梯度后再更新参数"),
                         one_point("KV Cache缓存历史token的K和V")]
        prober = LLMProber(LLMSettings(enabled=True, base_url=server.base_url, model="m",
                                       timeout=5), env={})
        report = build_with_llm(bank, prober, BigramEmbedder())
    for q in report.rubric.questions:
        assert len(q.points) >= len(extracted[q.id]) >= 2
    q1 = [p.text for p in report.rubric.question("q1").points]
    assert any("峰值显存" in t for t in q1) and any("AllReduce" in t for t in q1)


def test_the_served_embedding_model_is_used_to_check_grounding(
        bank_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with ChatServer() as server:
        served(monkeypatch, server)
        server.script = [one_point("峰值显存只需一个micro-batch"), one_point("KV Cache避免重复计算")]
        code, _, err = run("rubric", "build", str(bank_file), "--llm")
        embedded = [r for r in server.requests if r["path"].endswith("/embeddings")]
    assert code == 0, err
    assert embedded and embedded[0]["body"]["model"] == "bigram"


def test_an_existing_rubric_is_not_replaced_without_force(
        bank_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert run("rubric", "build", str(bank_file))[0] == 0
    target = bank_file.parent.parent / "rubrics" / "b.yaml"
    before = target.read_text(encoding="utf-8")
    with ChatServer() as server:
        served(monkeypatch, server)
        server.script = [one_point("峰值显存只需一个micro-batch")] * 2
        code, _, err = run("rubric", "build", str(bank_file), "--llm")
        assert server.requests == []  # refused before any work
    assert code == 2 and "--force" in err and str(target) in err
    assert target.read_text(encoding="utf-8") == before


def test_a_result_that_loses_most_points_is_refused_even_with_force(
        bank_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rubric on disk has far more points than the reference answers now give."""
    long = BANK.replace("通信只在更新时做一次AllReduce。", "通信只在更新时做一次AllReduce。" + "".join(
        f"第{i}点：这是一条单独的要点，讲述细节{i}。" for i in range(12)))
    bank_file.write_text(long, encoding="utf-8")
    assert run("rubric", "build", str(bank_file))[0] == 0
    target = bank_file.parent.parent / "rubrics" / "b.yaml"
    before = target.read_text(encoding="utf-8")
    bank_file.write_text(BANK, encoding="utf-8")
    with ChatServer() as server:
        served(monkeypatch, server)
        server.script = [one_point("峰值显存只需一个micro-batch"), one_point("KV Cache避免重复计算")]
        code, _, err = run("rubric", "build", str(bank_file), "--llm", "--force")
    assert code == 2 and "not written" in err and "points" in err
    assert target.read_text(encoding="utf-8") == before


def test_a_question_that_times_out_keeps_its_extracted_points_and_says_so(
        bank_file: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A body trickled a byte at a time: each question gets its own 1 s deadline."""
    out = tmp_path / "r.yaml"
    with ChatServer() as server:
        served(monkeypatch, server, timeout=1)
        slow = one_point("梯度累积把大batch拆成多个micro-batch，累加梯度后再更新参数" * 3)
        slow.trickle = 0.2
        server.script = [slow, one_point("KV Cache避免重复计算")]
        result: list = []
        thread = threading.Thread(target=lambda: result.append(
            run("rubric", "build", str(bank_file), "--llm", "-o", str(out))), daemon=True)
        thread.start()
        thread.join(30)
    assert result, "the build outlived its per-question deadline by far"
    code, _, err = result[0]
    assert code == 0, err
    assert "q1: the LLM did not finish within 1 s (llm.timeout): extracted points kept" in err
    bank = load_bank(bank_file)
    extracted = [p.text for p in rubric_for_question(bank.question("q1")).points]
    assert [p.text for p in load_rubric(out).question("q1").points] == extracted


# ---------------------------------------------------------------- build_with_llm on its own

def _build(bank_file: Path, replies: list[Reply], timeout: float = 5):
    """build_with_llm against the server answering ``replies`` in turn: (report, requests)."""
    bank = load_bank(bank_file)
    with ChatServer() as server:
        server.script = list(replies)
        prober = LLMProber(LLMSettings(enabled=True, base_url=server.base_url, model="m",
                                       timeout=timeout), env={})
        report = build_with_llm(bank, prober, BigramEmbedder())
        return report, server.requests


def _points(*texts: str) -> Reply:
    return Reply(json.dumps({"points": [{"text": t, "group": None} for t in texts]},
                            ensure_ascii=False))


def _extracted(bank_file: Path) -> dict[str, list[str]]:
    return {q.id: [p.text for p in rubric_for_question(q).points]
            for q in load_bank(bank_file).questions}


def test_a_good_reply_rewords_backed_points_and_drops_invented_ones(bank_file: Path) -> None:
    reworded = "梯度累积：把大batch拆成多个micro-batch，累加梯度之后再更新参数"
    invented = "量子计算机让所有矩阵乘法瞬间完成"
    report, requests = _build(bank_file, [_points(reworded, invented),
                                          _points("KV Cache缓存历史token的K和V，避免重复计算")])
    extracted = _extracted(bank_file)
    assert report.fallbacks == []
    assert report.dropped == [("q1", invented)]
    assert report.kept == 2
    assert [p.text for p in report.rubric.question("q1").points] == [reworded, *extracted["q1"][1:]]
    assert [p.text for p in report.rubric.question("q2").points] == extracted["q2"]
    bank = load_bank(bank_file)
    for q in report.rubric.questions:
        assert q.source_sha256 == sha256_text(bank.question(q.id).answer)
        assert report.rubric.generated[q.id] == points_fingerprint(q.points)
    # one plain request per question, the reference answer inside its tags
    assert len(requests) == 2
    body = requests[0]["body"]
    assert body["stream"] is False and body["temperature"] == 0.0 and body["max_tokens"] == 1500
    prompt = body["messages"][0]["content"]
    assert "<reference_answer>\n" + bank.question("q1").answer + "\n</reference_answer>" in prompt


def test_junk_replies_keep_the_extracted_points_and_say_why(bank_file: Path) -> None:
    report, _ = _build(bank_file, [Reply("这不是JSON"), Reply(json.dumps({"points": []})),
                                   Reply("这不是JSON"), Reply("这不是JSON")])
    extracted = _extracted(bank_file)
    assert [q for q, _ in report.fallbacks] == ["q1", "q2"]
    assert all(why.startswith("the LLM's reply was unusable (") for _, why in report.fallbacks)
    assert "no points" in report.fallbacks[1][1]
    assert report.kept == 0 and report.dropped == []
    assert {q.id: [p.text for p in q.points] for q in report.rubric.questions} == extracted


def test_proposals_the_reference_does_not_back_are_all_dropped(bank_file: Path) -> None:
    report, _ = _build(bank_file, [_points("量子计算机让所有矩阵乘法瞬间完成"),
                                   _points("KV Cache缓存历史token的K和V")])
    assert report.fallbacks == [("q1", "no proposed point was backed by the reference answer")]
    assert report.dropped == [("q1", "量子计算机让所有矩阵乘法瞬间完成")]
    assert [p.text for p in report.rubric.question("q1").points] == _extracted(bank_file)["q1"]


def test_a_question_past_its_deadline_keeps_its_points_and_the_next_is_still_asked(
        bank_file: Path) -> None:
    """The server would answer q1 after 30 s; each question has its own 3 s."""
    report, requests = _build(bank_file, [Reply(json.dumps({"points": []}), delay=30),
                                          _points("KV Cache缓存历史token的K和V，避免重复计算")],
                              timeout=3)
    assert report.fallbacks == [("q1", "the LLM did not finish within 3 s (llm.timeout)")]
    assert [p.text for p in report.rubric.question("q1").points] == _extracted(bank_file)["q1"]
    assert report.kept == 1 and len(requests) == 2


def test_without_a_model_every_question_keeps_its_points(bank_file: Path) -> None:
    bank = load_bank(bank_file)
    prober = LLMProber(LLMSettings(enabled=True, base_url="http://127.0.0.1:9/v1", model=None),
                       env={})
    report = build_with_llm(bank, prober, BigramEmbedder())
    assert [q for q, _ in report.fallbacks] == ["q1", "q2"]
    assert report.kept == 0
    assert {q.id: [p.text for p in q.points] for q in report.rubric.questions} == \
        _extracted(bank_file)


def test_a_new_rubric_that_loses_most_points_is_named_as_such(bank_file: Path) -> None:
    from dataclasses import replace

    from interviewer.content.llm_rubric import lost_points

    full = build_with_llm(load_bank(bank_file), LLMProber(LLMSettings(enabled=True), env={}),
                          BigramEmbedder()).rubric  # no LLM: the extracted points, 5 of them
    one = replace(full, questions=(replace(full.questions[0], points=full.questions[0].points[:1]),))
    assert lost_points(full, None) is None
    assert lost_points(full, full) is None
    assert lost_points(one, full) == "the new rubric has 1 points where the current one has 5"
