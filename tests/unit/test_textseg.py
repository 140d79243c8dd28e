from __future__ import annotations

import pytest

from interviewer.content.segment import segments, split_clauses, split_sentences, split_top_level


@pytest.mark.parametrize("text, expected", [
    ("学习率过大。batch太小！真的吗？", ["学习率过大。", "batch太小！", "真的吗？"]),
    ("Use FP16. It halves memory! Right?", ["Use FP16.", "It halves memory!", "Right?"]),
    ("Version 1.5 uses torch.compile. Done", ["Version 1.5 uses torch.compile.", "Done"]),
    ("e.g. ZeRO shards states. Next", ["e.g. ZeRO shards states.", "Next"]),
    ("第一行\n第二行", ["第一行", "第二行"]),
    ("GPTQ（逐层量化。Hessian补偿）很好。", ["GPTQ（逐层量化。Hessian补偿）很好。"]),
    ("先A；再B", ["先A；", "再B"]),
    ("", []),
    ("。。。", []),
])
def test_split_sentences(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("梯度累积将大batch拆分，每个micro-batch累加梯度，不立即更新",
     ["梯度累积将大batch拆分", "每个micro-batch累加梯度", "不立即更新"]),
    ("It shards states, gradients; and parameters",
     ["It shards states", "gradients", "and parameters"]),
    ("数据加载（CPU预处理慢、磁盘读取慢），增加workers",
     ["数据加载（CPU预处理慢、磁盘读取慢）", "增加workers"]),
])
def test_split_clauses_keeps_brackets_whole(text: str, expected: list[str]) -> None:
    assert split_clauses(text) == expected


def test_split_top_level_ignores_separators_inside_brackets() -> None:
    assert split_top_level("GPTQ（权重，Hessian）、AWQ（保护、通道）、SmoothQuant", "、") == \
        ["GPTQ（权重，Hessian）", "AWQ（保护、通道）", "SmoothQuant"]


def test_segments_include_sentences_and_clauses_once() -> None:
    segs = segments("用混合精度，省显存。用混合精度，省显存。- 梯度累积")
    assert segs == ["用混合精度，省显存", "用混合精度", "省显存", "梯度累积"]


def _reference_top_level(text: str, chars: str) -> list[int]:
    """The character-by-character bracket walk the fast path replaced, kept as the oracle."""
    from interviewer.content.segment import _PAIRS

    stack: list[str] = []
    out = []
    for i, ch in enumerate(text):
        if ch in _PAIRS:
            stack.append(_PAIRS[ch])
        elif stack and ch == stack[-1]:
            stack.pop()
        elif not stack and ch in chars:
            out.append(i)
    return out


def test_top_level_positions_match_a_plain_bracket_walk() -> None:
    import random

    from interviewer.content.segment import top_level_positions

    rng = random.Random(7)
    alphabet = "（）()【】「」『』“”[]，。；;:：、.!? a中\n"
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        for chars in ("，,；;：:、", "。！？!?；;."):
            assert top_level_positions(text, chars) == _reference_top_level(text, chars), text


@pytest.mark.parametrize("text, expected", [
    ("1.6 开始默认就是 sort", "1.6 开始默认就是 sort"),
    ("2.0 以后去掉了 hash", "2.0 以后去掉了 hash"),
    ("1. 先做数据并行", "先做数据并行"),
    ("2) use bf16", "use bf16"),
])
def test_a_version_number_that_starts_a_sentence_is_not_a_bullet(text: str, expected: str) -> None:
    from interviewer.content.segment import strip_punct

    assert strip_punct(text) == expected
