"""Term matching between a point and an answer, and the language rule they share."""

from __future__ import annotations

import pytest

from interviewer.grading.features import AnswerText, is_cross_lingual, lexical_recall, lexical_units
from interviewer.content.language import language_of


@pytest.mark.parametrize("text, language", [
    ("梯度累积减少通信频率", "zh"),
    ("Gradient accumulation sums gradients over micro-batches", "en"),
    ("用ZeRO和FSDP", "zh"),  # 3 CJK characters against 2 Latin words
    ("ZeRO stage 3 shards 参数", "en"),
    ("", "en"),
])
def test_language_is_the_script_with_more_units(text: str, language: str) -> None:
    assert language_of(text) == language


@pytest.mark.parametrize("point, answer, units", [
    # a glossary term is one unit, found in any of its equivalents ("t" stands for "t:<set>")
    ("Flash Attention", "推理用FlashAttention加速", [("t", True)]),
    ("梯度累积", "先做梯度累加", [("t", True)]),
    ("梯度累积", "gradient accumulation", [("t", True)]),  # across languages
    ("Kafka 的 exactly-once", "卡夫卡做到恰好一次", [("t", True), ("r:kafka", False), ("g:的", False)]),
    # a neighbouring term is not the point's: clipping is not accumulation
    ("梯度裁剪", "先做梯度累加", [("t", False)]),
    ("梯度裁剪", "clip it", [("t", False)]),
    # a Latin name inside a Chinese point is one unit, matched whole and space-insensitively;
    # Chinese is not compared with an answer that has too little Chinese to match
    ("用Megatron训练", "megatron 跑训练", [("r:megatron", True)]),
    # an English point is matched word by word on stems, stop words left out
    ("Shards the optimizer states", "it shards optimizer states across ranks",
     [("t", True), ("w:shard", True)]),
    # Chinese by character bigrams
    ("显存碎片整理", "先做显存整理", [("t", False), ("g:整理", True)]),
])
def test_lexical_units(point: str, answer: str, units: list[tuple[str, bool]]) -> None:
    found = lexical_units(point, AnswerText.of(answer))
    assert [("t" if key.startswith("t:") else key, hit) for key, hit in found] == units


def test_lexical_recall_is_the_share_of_units_found_or_none() -> None:
    assert lexical_recall("显存碎片整理", AnswerText.of("先做显存整理")) == pytest.approx(1 / 2)
    assert lexical_recall("梯度裁剪", AnswerText.of("gradient clipping")) == 1.0
    assert lexical_recall("训练很慢", AnswerText.of("slow")) is None  # nothing comparable
    assert lexical_recall("the of and", AnswerText.of("the of and")) is None  # stop words only


@pytest.mark.parametrize("point, answer, cross", [
    ("梯度累积", "gradient accumulation", True),
    ("梯度累积", "梯度累积把大batch拆开", False),
    ("Gradient accumulation", "梯度累积把大batch拆开", True),
    ("Gradient accumulation", "sum over micro-batches", False),
])
def test_cross_lingual(point: str, answer: str, cross: bool) -> None:
    assert is_cross_lingual(point, AnswerText.of(answer)) is cross
