"""What the evidence asserts beyond its point's words: a denial, or a stance word.

A confident wrong answer in the point's own terms reads close to the point, and the claim
rules (:mod:`interviewer.grading.claims`) catch only the contradictions whose shape they know.
What such answers share, in Chinese and English, is how they are said: a denial the point
does not make ("CBO 不需要统计信息" against "CBO 依赖统计信息"), or a word that takes a stance
against what is expected or waves it away (其实, 反而, 根本, 不用, 无所谓, actually, just,
no need, negligible). Two features carry them to the scorer of hand-written points, which
weighs them against everything else it sees (``denies`` and ``stance`` in
:mod:`interviewer.grading.features`): a correct answer says "不需要" too.

Plain ``re`` only: no numpy.
"""

from __future__ import annotations

import re
from functools import lru_cache

from interviewer.grading.polarity import _NEG_EN, _NEG_ZH

# against what is expected (其实, 反而, actually), or waving it away (不用, 随便, no need)
_STANCE = re.compile(
    r"反而|其实|实际上|纯粹|根本(?!上)|不用|无需|不需要|没必要|不必|无所谓|随便|都行|都可以|完全可以|"
    r"\b(?:actually|in fact|just|merely|simply|anyway|no need|unnecessary|irrelevant|"
    r"negligible|doesn't matter|don't need|not a concern|isn't a concern)\b",
    re.IGNORECASE)


def _denials(text: str) -> int:
    return len(_NEG_ZH.findall(text)) + len(_NEG_EN.findall(text.lower()))


@lru_cache(maxsize=8192)
def _counts(text: str) -> tuple[int, int]:
    return _denials(text), len(_STANCE.findall(text))


def stance_marks(point: str, span: str | None) -> tuple[float, float]:
    """(1.0 if the span has more denials than the point, 1.0 if more stance words)."""
    if not span:
        return 0.0, 0.0
    (p_neg, p_stance), (s_neg, s_stance) = _counts(point), _counts(span)
    return float(s_neg > p_neg), float(s_stance > p_stance)
