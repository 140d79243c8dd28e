"""Line breaks for Chinese and mixed text: full lines, whole English words, no lone marks."""

from __future__ import annotations

import pytest

from interviewer.linebreak import NO_START, cell_width, line_ranges


def lines(text: str, width: int) -> list[str]:
    return [text[s:e] for s, e in line_ranges(text, width)]


def cells(line: str) -> int:
    return sum(cell_width(c) for c in line)


TEXT = "训练加速：混合精度训练（FP16/BF16），梯度累积减少通信频率。推理加速：KV Cache，PagedAttention，量化 INT8，投机解码。"


@pytest.mark.parametrize("width", range(20, 81))
def test_every_line_fits_nothing_is_lost_and_no_line_starts_with_a_closing_mark(width) -> None:
    out = lines(TEXT, width)
    assert all(cells(line) <= width for line in out)
    assert "".join(out).replace(" ", "") == TEXT.replace(" ", "")
    assert not any(line[:1] in NO_START for line in out[1:])


def test_chinese_is_not_broken_at_the_space_before_a_long_run() -> None:
    text = "推理加速 KV缓存" + "分页注意力连续批处理量化投机解码" * 3
    out = lines(text, 20)  # a word wrapper leaves "推理加速" alone on the first line
    assert cells(out[0]) >= 19 and all(cells(line) >= 18 for line in out[:-1])


def test_a_full_stop_at_the_edge_takes_the_character_before_with_it() -> None:
    out = lines("一二三四五。六七", 10)  # "一二三四五" fills 10 cells; "。" must not start a line
    assert out == ["一二三四", "五。六七"]


def test_english_words_stay_whole_and_newlines_are_kept() -> None:
    assert lines("hello world again\n第二段", 11) == ["hello world", "again", "第二段"]


@pytest.mark.parametrize("text", ["plain ascii, with\ttabs\nand lines", TEXT,
                                  "全角　空格\u00a0nbsp\x1fsep ＡＢＣ half ｶﾅ é\u0301 🙂"])
def test_prefix_widths_are_the_sum_of_each_character_s_width(text) -> None:
    from interviewer.linebreak import _prefix_widths

    assert _prefix_widths(text) == [sum(cell_width(c) for c in text[:i])
                                    for i in range(len(text) + 1)]
