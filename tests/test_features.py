"""Term matching between a point and an answer, and the language rule they share."""

from __future__ import annotations

import pytest

from interviewer.features import AnswerText, is_cross_lingual, lexical_recall, lexical_units
from interviewer.language import language_of


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
    # a Latin name inside a Chinese point is one unit, matched whole and space-insensitively
    ("Flash Attention", "推理用FlashAttention加速", [("r:flashattention", True)]),
    # an English point is matched word by word on stems, stop words left out
    ("Shards the optimizer states", "it shards optimizer states across ranks",
     [("w:shard", True), ("w:optimizer", True), ("w:stat", True)]),
    # Chinese by character bigrams
    ("梯度累积", "先做梯度累加", [("g:梯度", True), ("g:度累", True), ("g:累积", False)]),
    # Chinese terms are not compared with an answer that has too little Chinese to match
    ("梯度累积", "gradient accumulation", []),
])
def test_lexical_units(point: str, answer: str, units: list[tuple[str, bool]]) -> None:
    assert lexical_units(point, AnswerText.of(answer)) == units


def test_lexical_recall_is_the_share_of_units_found_or_none() -> None:
    assert lexical_recall("梯度累积", AnswerText.of("先做梯度累加")) == pytest.approx(2 / 3)
    assert lexical_recall("梯度累积", AnswerText.of("gradient accumulation")) is None
    assert lexical_recall("the of and", AnswerText.of("the of and")) is None  # stop words only


@pytest.mark.parametrize("point, answer, cross", [
    ("梯度累积", "gradient accumulation", True),
    ("梯度累积", "梯度累积把大batch拆开", False),
    ("Gradient accumulation", "梯度累积把大batch拆开", True),
    ("Gradient accumulation", "sum over micro-batches", False),
])
def test_cross_lingual(point: str, answer: str, cross: bool) -> None:
    assert is_cross_lingual(point, AnswerText.of(answer)) is cross
