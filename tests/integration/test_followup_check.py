"""A follow-up from an LLM is used only if it reads as an interviewer's question: the junk a
small model produced (placeholders, echoes, the wrong language, a revealed point, a URL,
bare numbers) falls back to a template, with the reason."""

from __future__ import annotations

import json

import pytest

from fakes import BigramEmbedder
from llm_server import ChatServer, Reply
from interviewer.grading.calibration import Scorer
from interviewer.config import LLMSettings
from interviewer.followups.check import unusable_reason
from interviewer.grading.grader import Grader
from interviewer.followups.prober import LLMProber, template_followup
from interviewer.content.bank_rubric import rubric_for_bank

ANSWER = "梯度累积将一个大batch拆分为多个micro-batch。"


def check(text: str, rubric, language: str = "zh", answer: str = ANSWER) -> str | None:
    return unusable_reason(text, rubric.question("q07"), answer, language)


@pytest.mark.parametrize("text, why", [
    ("<your question>", "placeholder"),
    ("[point id]", "placeholder"),
    ("<你的追问>？", "placeholder"),
    ("Your question?", "placeholder"),
    ("梯度累积将一个大batch拆分为多个micro-batch。", "answer"),
    ("梯度累积将一个大batch拆分为多个micro-batch？", "answer"),
    ("When are the parameters updated after N micro-batches?", "English"),
    ("累积N个micro-batch后，用累积的梯度做一次参数更新，对吗？", "reference"),
    ("通信也只在参数更新时进行一次AllReduce，频率降为1/N吗？", "reference"),
    ("请看 https://example.com/grad-accum 然后回答？", "link"),
    ("10", "not a question"),
    ("][", "not a question"),
    ("？？？", "not a question"),
    ("梯度累积很重要。", "not a question"),
])
def test_junk_follow_ups_are_unusable_and_say_why(rubric, text, why) -> None:
    reason = check(text, rubric)
    assert reason is not None and why in reason


@pytest.mark.parametrize("text, language", [
    ("累积N个micro-batch之后，参数具体在什么时候更新？通信发生几次？", "zh"),
    ("如果显存足够，你还会用梯度累积吗？为什么", "zh"),
    ("请解释一下，为什么梯度累积可以降低峰值显存。", "zh"),
    ("How does gradient accumulation change the number of AllReduce calls per step?", "en"),
    ("Walk me through when the optimizer step happens with 4 micro-batches.", "en"),
])
def test_real_questions_pass(rubric, text, language) -> None:
    assert check(text, rubric, language) is None


def test_every_template_reads_as_a_question_in_its_language(rubric, zh_bank, en_bank) -> None:
    grader = Grader(BigramEmbedder(), Scorer(0.6, 0.3))
    for bank, language in ((zh_bank, "zh"), (en_bank, "en")):
        rub = rubric_for_bank(bank).rubric
        for q in rub.questions:
            for answer in ("x", "任何内容" if language == "zh" else "anything"):
                for scorer in (Scorer(0.6, 0.3), Scorer(0.0, 0.0)):
                    grade = Grader(BigramEmbedder(), scorer).grade(rub, q.id, answer)
                    f = template_followup(q, grade, language)
                    assert unusable_reason(f.text, q, answer, language, check_points=False) \
                        is None, f.text
    assert grader  # the shipped banks were read


def test_templates_do_not_read_oddly(rubric, zh_bank) -> None:
    grade = Grader(BigramEmbedder(), Scorer(0.6, 0.3)).grade(
        rubric_for_bank(zh_bank).rubric, "q02", "不了解")
    text = template_followup(rubric.question("q02"), grade, "zh").text
    assert "没有展开" not in text and text.endswith("？")


@pytest.mark.parametrize("junk", ["<your question>", ANSWER, "10",
                                  "When are the parameters updated after N micro-batches?"])
def test_a_junk_reply_from_the_server_falls_back_with_the_reason(rubric, graded, junk) -> None:
    ids = [p.id for p in rubric.question("q07").points][1:2]
    reply = json.dumps({"followup": junk, "targets": ids}, ensure_ascii=False)
    with ChatServer() as server:
        server.script = [Reply(reply), Reply(reply)]
        result = LLMProber(LLMSettings(enabled=True, base_url=server.base_url, model="m",
                                       timeout=5), env={}).followup(
            rubric.question("q07"), graded, "zh")
        assert len(server.requests) == 2  # asked again once, with the reason
        assert "invalid" in server.requests[1]["body"]["messages"][-1]["content"]
    assert result.source == "template" and "unusable" in result.notice
