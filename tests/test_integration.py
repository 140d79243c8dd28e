"""The real bundled model, offline, end to end."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from interviewer.grading import Grader
from interviewer.rubric import rubric_for_bank

pytestmark = pytest.mark.integration

# Any attempt to reach the network fails fast instead of silently downloading.
OFFLINE_ENV = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
               "HTTP_PROXY": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9",
               "NO_PROXY": ""}


def test_real_model_ranks_a_good_answer_above_a_poor_one(real_embedder, zh_bank) -> None:
    rubric = rubric_for_bank(zh_bank).rubric.question("q07")
    grader = Grader(real_embedder)
    good = grader.grade(rubric, "梯度累积把一个大batch拆成多个micro-batch，每个micro-batch做完前向反向后"
                                "把梯度累加起来，先不更新参数；累积N个之后再用累积的梯度更新一次参数。"
                                "效果等价于N倍的batch size，但显存只需要一个micro-batch的量。"
                                "AllReduce通信也只在更新时做一次，通信频率降到1/N。")
    poor = grader.grade(rubric, "不太清楚，好像和学习率有关。")
    assert good.model_id == "sentence-transformers/all-MiniLM-L6-v2"
    assert good.score > poor.score + 0.3
    assert sum(p.verdict == "covered" for p in good.points) >= 3
    assert all(p.evidence for p in good.points if p.verdict != "missed")


def test_real_model_on_english(real_embedder, en_bank) -> None:
    rubric = rubric_for_bank(en_bank).rubric.question("mixed-precision")
    grader = Grader(real_embedder)
    good = grader.grade(rubric, "We run forward and backward in FP16 or BF16 for tensor cores and "
                                "less activation memory, keep an FP32 master copy of the weights for "
                                "the optimizer, and scale the loss so small FP16 gradients don't "
                                "underflow. BF16 has FP32's exponent range so it needs no loss scaling.")
    off = grader.grade(rubric, "A KV cache stores keys and values of previous tokens.")
    assert good.score >= 0.75
    assert off.score <= 0.25


def test_cli_grades_a_batch_offline_with_the_real_model(tmp_path: Path) -> None:
    answers = tmp_path / "a.jsonl"
    answers.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in [
        {"id": "a", "question_id": "kv-cache",
         "answer": "Keys and values of earlier tokens are cached so each decode step only "
                   "computes attention for the new token. The cache costs memory."},
        {"id": "b", "question_id": "nope", "answer": "x"},
    ]) + "\n", encoding="utf-8")
    env = {**os.environ, **OFFLINE_ENV, "INTERVIEWER_HOME": str(tmp_path / "home")}
    proc = subprocess.run([sys.executable, "-m", "interviewer", "grade", "--rubric",
                           "llm-systems-en", "--answers", str(answers)],
                          capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    lines = [json.loads(l) for l in proc.stdout.splitlines()]
    assert lines[0]["id"] == "a" and lines[0]["score"] > 0.2
    assert lines[1] == {"id": "b", "error": "unknown question_id 'nope'"}
    assert "Traceback" not in proc.stderr


def test_an_unknown_model_name_fails_with_one_line_and_no_download(tmp_path: Path) -> None:
    f = tmp_path / "a.txt"
    f.write_text("answer", encoding="utf-8")
    env = {**os.environ, **OFFLINE_ENV, "INTERVIEWER_HOME": str(tmp_path / "home")}
    proc = subprocess.run([sys.executable, "-m", "interviewer", "grade", "--bank", "ai-infra-zh",
                           "--question", "q01", "--answer-file", str(f), "--model",
                           "no-such-org/no-such-model"],
                          capture_output=True, text=True, timeout=300, env=env, cwd=ROOT)
    assert proc.returncode == 2
    assert proc.stderr.startswith("interviewer: error: cannot load embedding model "
                                  "'no-such-org/no-such-model'")
    assert len(proc.stderr.strip().splitlines()) == 1
