"""Whether a span denies preventing what a point says is prevented.

"An idempotent producer doesn't prevent duplicates" against "Idempotent producers prevent
duplicate messages" or "… ensure that messages are not duplicated"; "并不能防止重复" against
"保证消息不重复"; "没法避免梯度消失" against "可以避免梯度消失". Each side's denials are read
as ever (:mod:`interviewer.grading.polarity`): a denial of preventing is a denial of a denial,
so it is read here, as its own claim.

Plain ``re`` only.
"""

from __future__ import annotations

import re
from functools import lru_cache

from interviewer.grading.claim_text import _STOP_EN, _stem

# a denial, a few words of manner at most, then a verb of preventing, then what it prevents
_DENIED_EN = re.compile(
    r"\b(?:doesn't|does\s+not|don't|do\s+not|can't|cannot|can\s+not|won't|will\s+not|didn't|"
    r"did\s+not|never|isn't\s+able\s+to|fails?\s+to)\s+(?:(?:really|actually|fully|always|"
    r"necessarily|completely|entirely)\s+)?(?:prevent|stop|avoid|eliminate)s?\s+(?:the\s+|any\s+)?"
    r"([a-z][a-z\-]+)")
_DENIED_ZH = re.compile(
    r"(?:不能|不会|无法|没法|没办法|并不能|并不会|不一定能|不可能|并没有|没有|不足以|做不到)"
    r"(?:真正|完全|彻底|有效|直接)?(?:地)?(?:防止|避免|阻止|杜绝|消除|规避)(?:掉)?([\u4e00-\u9fff]{2})")
_PREVENTS_EN = re.compile(r"\b(?:prevent|stop|avoid|eliminate)(?:s|ed|ing)?\s+(?:the\s+|any\s+)?"
                          r"([a-z][a-z\-]+)")
_PREVENTS_ZH = re.compile(r"(?:防止|避免|阻止|杜绝|消除|规避)(?:掉)?([\u4e00-\u9fff]{2})")
# the point says X does not happen: "not duplicated", "不重复", "no duplicates"
_NO_EN = re.compile(r"\b(?:not|no|never|without)\s+(?:be\s+|been\s+|being\s+|get\s+)?"
                    r"([a-z][a-z\-]+)")
_NO_ZH = re.compile(r"(?:不会|不再|不|没有|无)([\u4e00-\u9fff]{2})")


def _objects(pattern: re.Pattern[str], text: str) -> set[str]:
    return {_stem(m.group(1)) if m.group(1).isascii() else m.group(1)
            for m in pattern.finditer(text) if m.group(1) not in _STOP_EN}


@lru_cache(maxsize=4096)
def _prevented(point: str) -> frozenset[str]:
    """What the point says is prevented or does not happen; nothing when it denies preventing."""
    lowered = point.lower()
    if _DENIED_EN.search(lowered) or _DENIED_ZH.search(lowered):
        return frozenset()
    return frozenset(_objects(_PREVENTS_EN, lowered) | _objects(_PREVENTS_ZH, lowered)
                     | _objects(_NO_EN, lowered) | _objects(_NO_ZH, lowered))


def denies_preventing(point: str, span: str) -> bool:
    """The span denies preventing something the point says is prevented, and does not say
    elsewhere that it is prevented."""
    prevented = _prevented(point)
    if not prevented:
        return False
    lowered = span.lower()
    denied = _objects(_DENIED_EN, lowered) | _objects(_DENIED_ZH, lowered)
    if not denied & prevented:
        return False
    kept = _DENIED_ZH.sub(" ", _DENIED_EN.sub(" ", lowered))
    return not (_objects(_PREVENTS_EN, kept) | _objects(_PREVENTS_ZH, kept)) & denied & prevented
