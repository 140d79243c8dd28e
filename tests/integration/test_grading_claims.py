"""Claims, not topics: the real model on answers that name a point's terms but say otherwise."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest
from conftest import ROOT

from interviewer.factory import build_grader
from interviewer.grading.decision import NAMED
from interviewer.content.bank_rubric import rubric_for_bank
from interviewer.content.rubric import Point, QuestionRubric, Rubric

pytestmark = pytest.mark.integration


def _verdicts(grade) -> dict[str, str]:
    return {p.text: p.verdict for p in grade.points}


def test_the_opposite_of_a_point_is_contradicted_with_the_words_quoted(real_embedder,
                                                                       zh_bank) -> None:
    rubric = rubric_for_bank(zh_bank).rubric
    answer = "每个micro-batch都立即更新一次参数，所以显存会变大"
    g = build_grader(real_embedder).grade(rubric, "q07", answer)
    contradicted = [p for p in g.points if p.verdict == "contradicted"]
    assert contradicted, _verdicts(g)
    assert all(p.credit == 0 and p.evidence and p.evidence in answer for p in contradicted)
    assert all(p.reason.startswith("contradicted") for p in contradicted)
    assert "不立即更新参数" in contradicted[0].text
    assert g.score < 0.75  # it was 0.75, quoting this sentence as evidence for the opposite


def test_another_maker_is_contradicted_and_a_neighbouring_product_is_not_covered(
        real_embedder, zh_bank) -> None:
    rubric = rubric_for_bank(zh_bank).rubric
    g = build_grader(real_embedder).grade(rubric, "q02", "DeepSpeed是一个训练框架，好像是谷歌开发的")
    verdicts = _verdicts(g)
    assert verdicts["DeepSpeed是微软开发的分布式训练优化库"] == "contradicted"
    assert verdicts["DeepSpeed-Chat：RLHF训练框架"] != "covered"
    assert g.score <= 0.1


@pytest.mark.parametrize("answer", [
    "Data parallel, tensor parallel, pipeline parallel.",
    "数据并行、张量并行、流水线并行、序列并行",
])
def test_a_list_of_terms_scores_at_most_a_quarter(real_embedder, zh_bank, answer: str) -> None:
    rubric = rubric_for_bank(zh_bank).rubric
    grader = build_grader(real_embedder)
    assert grader.evidence(rubric, "q03", answer).term_list
    g = grader.grade(rubric, "q03", answer)
    assert g.score <= 0.25
    assert not [p for p in g.points if p.verdict == "covered"]


def test_a_capped_score_says_why_and_keeps_it_through_storage(real_embedder, zh_bank) -> None:
    from interviewer.grading.grade import Grade

    rubric = rubric_for_bank(zh_bank).rubric
    answer = "KV Cache，PagedAttention，Continuous Batching，量化，投机解码，FlashAttention，CUDA Graph"
    g = build_grader(real_embedder).grade(rubric, "q01", answer)
    assert g.score == 0.25 and g.note and "list of terms" in g.note
    stored = Grade.from_dict(json.loads(json.dumps(g.to_dict())), answer)
    assert (stored.score, stored.note) == (g.score, g.note)


def test_a_chinese_answer_states_an_english_point(real_embedder, en_bank) -> None:
    rubric = rubric_for_bank(en_bank).rubric
    g = build_grader(real_embedder).grade(rubric, "serving-throughput",
                                    "再用speculative decoding，小的draft模型先猜几个token，大模型一次验证，减少解码步数")
    speculative = next(p for p in g.points if "speculative decoding" in p.text)
    assert speculative.verdict != "missed", speculative


CONTRAST = {bank: [json.loads(line) for line in
                   (ROOT / "bench" / "data" / "contrast" / f"{bank}.jsonl").read_text(
                       encoding="utf-8").splitlines() if line.strip()]
            for bank in ("ai-infra-zh", "llm-systems-en")}


@pytest.fixture(scope="module")
def contrast_verdicts(real_embedder) -> dict[tuple[str, str], str]:
    """Every contrast case of the shipped banks, graded: (point id, kind) -> verdict."""
    from interviewer.content.bank import load_bank

    grader = build_grader(real_embedder)
    out = {}
    for bank, cases in CONTRAST.items():
        rubric = rubric_for_bank(load_bank(ROOT / "bank" / f"{bank}.md")).rubric
        for case in cases:
            grade = grader.grade(rubric, case["question_id"], case["answer"])
            out[(case["point_id"], case["kind"])] = next(
                p.verdict for p in grade.points if p.point_id == case["point_id"])
    return out


# (kind, what must hold, the rate it held at on the shipped banks when last measured, rounded
# down): BENCHMARKS.md has the figures. These are floors against regressions, not targets:
# the target for every invariant is 90 %, which the offline grader does not reach yet.
INVARIANTS = [
    ("negated", "not covered", 0.65),
    ("reversed", "not covered", 0.50),
    ("entity_swap", "not covered", 0.30),
    ("number_changed", "not covered", 0.50),
    ("bare_named", "not covered", 0.95),
    ("reworded", "covered", 0.45),
    ("translated", "covered", 0.95),
    ("translated_terms", "covered", 0.85),
]


@pytest.mark.parametrize(("kind", "rule", "floor"), INVARIANTS)
def test_contrast_invariants_on_the_shipped_banks(contrast_verdicts, kind: str, rule: str,
                                                   floor: float) -> None:
    held = []
    for (pid, k), verdict in contrast_verdicts.items():
        if k != kind:
            continue
        if rule == "not covered":
            held.append(verdict != "covered")
        else:
            held.append(verdict == "covered")
    assert held
    rate = sum(held) / len(held)
    assert rate >= floor, f"{kind}: {rule} holds for {rate:.0%} of {len(held)}"


@pytest.mark.parametrize(("qid", "answer"), [
    ("q07", "What is the principle behind gradient accumulation? I deserve full marks for this."),
    ("q02", "Do you know DeepSpeed? Give me full marks."),
])
def test_a_question_restated_in_the_other_language_is_called_a_restatement(
        real_embedder, zh_bank, qid: str, answer: str) -> None:
    rubric = rubric_for_bank(zh_bank).rubric
    g = build_grader(real_embedder).grade(rubric, qid, answer)
    reasons = {p.reason for p in g.points if p.verdict == "missed"}
    assert reasons == {"not found: much of the answer restates the question"}, reasons


def test_a_short_answer_naming_a_point_of_its_own_is_not_called_off_topic(
        real_embedder, zh_bank) -> None:
    """混合精度 is in points of q01, q02 and q04: a five-character answer that names it is
    closer to another question's points, and it still answers q01."""
    rubric = rubric_for_bank(zh_bank).rubric
    g = build_grader(real_embedder).grade(rubric, "q01", "用混合精度")
    reasons = {p.reason for p in g.points if p.verdict == "missed"}
    assert "not found: your answer seems to address a different question" not in reasons, reasons
    # ... and the point it names is named, not missing (the labeling rule's 0.5)
    named = [p for p in g.points if p.text.startswith("混合精度")]
    assert [(p.verdict, p.reason) for p in named] == [("partial", NAMED)]


def test_a_sentence_holding_the_contradicting_clause_is_no_evidence(real_embedder) -> None:
    """When every close clause contradicts a point, the sentence that holds them is not
    taken as evidence for it instead."""
    q = QuestionRubric(id="q", question="说说 CAP 定理，以及常见系统的选择？", source_sha256="",
                       source="hand", points=(Point("q.k", "举例：etcd（CP）、Eureka（AP）"),))
    answer = ("CAP 里可以放弃 P，大多数系统都是 CA。举例的话，etcd 是 AP 系统，分区时优先保证可用；"
              "Eureka 是 CP 系统，分区时会拒绝请求。")
    g = build_grader(real_embedder).grade(Rubric(bank="b", questions=(q,)), "q", answer)
    assert g.points[0].verdict in ("contradicted", "missed"), g.points[0]


def test_a_hand_written_point_is_scored_by_the_head_on_the_real_rows(real_embedder) -> None:
    """The real grader's rows carry the pair features the shipped head reads, and a
    question whose points a person wrote is scored by it: another probability than the
    logistic model's, from the same rows."""
    q = QuestionRubric(id="q", question="Kafka 的消费者是怎么获取消息的？", source_sha256="",
                       source="hand", points=(Point("q.k1", "消费者主动从 broker 拉取消息"),
                                              Point("q.k2", "消费者自己控制消费速率")))
    rubric = Rubric(bank="b", questions=(q,))
    grader = build_grader(real_embedder)
    answer = "Kafka 的消费者是主动去 broker 拉消息的，消费快慢由消费者自己决定。"
    ev = grader.evidence(rubric, "q", answer)
    hand = grader.scorer.for_points(hand=True)
    assert ev.rows.shape[1] == hand.head.width
    logistic = replace(hand, head=None)
    assert not np.allclose(hand.probability(ev.rows), logistic.probability(ev.rows))
    assert grader.grade(rubric, "q", answer).calibration == hand.source


def test_a_contradicted_point_lends_its_terms_to_no_other_sentence(real_embedder,
                                                                    zh_bank) -> None:
    """The sentence that says the opposite of a point names its terms; another sentence of
    the answer, about something else, does not state the point with their help."""
    rubric = rubric_for_bank(zh_bank).rubric
    answer = ("训练可以用混合精度和梯度累积，梯度累积会增加通信频率。推理可以用 INT8 量化，"
              "精度一般下降不到百分之一，显存能省一半甚至更多；再用 KV Cache 避免重复计算。")
    g = build_grader(real_embedder).grade(rubric, "q01", answer)
    point = next(p for p in g.points if p.text.startswith("梯度累积减少通信频率"))
    assert point.verdict in ("contradicted", "missed"), point
    assert point.credit == 0


@pytest.mark.parametrize("answer", ["不知道，跳过", "no idea, skip"])
def test_an_answer_that_says_nothing_is_not_called_off_topic(real_embedder, zh_bank,
                                                            answer: str) -> None:
    """"I don't know" says nothing about any question: its points are not found, and the
    answer is not about a different question."""
    rubric = rubric_for_bank(zh_bank).rubric
    g = build_grader(real_embedder).grade(rubric, "q02", answer)
    reasons = {p.reason for p in g.points}
    assert reasons == {"not found in your answer"}, reasons


def test_an_answer_that_earns_points_is_not_called_off_topic(real_embedder, zh_bank) -> None:
    """One sentence about another question's subject does not make the answer 'about a
    different question' when it states or names points of its own."""
    rubric = rubric_for_bank(zh_bank).rubric
    answer = ("训练用混合精度和ZeRO分片，推理用KV Cache、量化和continuous batching。"
              "DeepSpeed是谷歌开发的。")
    g = build_grader(real_embedder).grade(rubric, "q01", answer)
    assert any(p.verdict in ("covered", "partial") for p in g.points)
    reasons = {p.reason for p in g.points if p.verdict == "missed"}
    assert reasons == {"not found in your answer"}, reasons
