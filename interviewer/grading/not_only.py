""""Only X" against "not only X": "评测只看最终答案" says the other way of "评测不能只看最终答案，
还要看中间步骤", and "evaluation only looks at the final answer" of "must not look only at the
final answer".

"Not only" (不只, 不能只, 别只, not only, not just, rather than just) affirms X and more; "only" (只, 仅, only,
just) limits to X. Each is read with what follows it in its clause; the two contradict when
they share two of those words, or the one word of one side.

Plain ``re`` only.
"""

from __future__ import annotations

import re
from functools import lru_cache

from interviewer.grading.claim_text import _units
from interviewer.grading.polarity import _CLAUSE_END

_NOT_ONLY_ZH = re.compile(r"(?:不|别)(?:能|要|应该?|该|可以?|会)?(?:只|仅仅?|光|单(?!独))")
_ONLY_ZH = re.compile(r"(?<![不别能要该以会])(?:只|仅仅?)(?![要是有])")
_NOT_ONLY_EN = re.compile(r"(?:\bnot|n't|\brather than|\binstead of|\bmore than|\bbeyond)\s+(?:\w+\s+)?"
                          r"(?:only|just|merely|solely)\b")
_ONLY_EN = re.compile(r"\b(?:only|just|merely|solely)\b")
_REACH = 10  # Chinese characters after the cue that it limits (Latin words between them too)


def _after(text: str, end: int) -> frozenset[str]:
    tail = _CLAUSE_END.split(text[end:], maxsplit=1)[0]
    if not tail[:1].isascii() or re.match(r"\s*[\u4e00-\u9fff]", tail):
        cjk = [m.end() for m in re.finditer(r"[\u4e00-\u9fff]", tail)]
        tail = tail[:cjk[_REACH - 1]] if len(cjk) >= _REACH else tail
    else:
        tail = " ".join(tail.split()[:5])
    return frozenset(u for u in _units(tail) if len(u) > 1)  # 是, 在: no word of what is limited


@lru_cache(maxsize=4096)
def _readings(text: str) -> tuple[tuple[frozenset[str], ...], tuple[frozenset[str], ...]]:
    """What ``text`` says "not only" of, and what it says "only" of."""
    lowered = text.lower()
    not_only, only, taken = [], [], []
    for pattern in (_NOT_ONLY_ZH, _NOT_ONLY_EN):
        for m in pattern.finditer(lowered):
            not_only.append(_after(lowered, m.end()))
            taken.append((m.start(), m.end()))
    for pattern in (_ONLY_ZH, _ONLY_EN):
        for m in pattern.finditer(lowered):
            if any(lo <= m.start() < hi for lo, hi in taken):
                continue
            only.append(_after(lowered, m.end()))
    return tuple(not_only), tuple(only)


def _shared(a: frozenset[str], b: frozenset[str]) -> bool:
    """Two words in common, or the one word of a side ("只在 FLOPs" against "不只是 FLOPs")."""
    common = a & b
    return len(common) >= 2 or (len(common) == 1 and min(len(a), len(b)) == 1)


def only_against_not_only(point: str, span: str) -> bool:
    """One side says "only" of what the other says "not only" of, and not "not only" itself."""
    p_not, p_only = _readings(point)
    s_not, s_only = _readings(span)
    for nots, onlys, own_nots in ((p_not, s_only, s_not), (s_not, p_only, p_not)):
        for limited in onlys:
            if any(_shared(limited, n) for n in nots) and not any(_shared(limited, n)
                                                                   for n in own_nots):
                return True
    return False
