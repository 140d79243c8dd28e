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
from interviewer.bank import load_bank
from interviewer.config import LLMSettings
from interviewer.llm_rubric import build_with_llm
from interviewer.probing import LLMProber
from interviewer.rubric import load_rubric, rubric_for_question

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
