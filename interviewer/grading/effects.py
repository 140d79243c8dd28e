"""A quantity said to stay as it is: "不会影响吞吐", "对精度没有任何影响", "X 保持不变",
"doesn't affect memory", "no impact on latency", "quality stays the same".

Read against a direction said of the same quantity (降低, 略降, reduces, slower: see
:func:`interviewer.grading.claims.direction_conflict`): one side says it moves, the other
that it does not. The quantity is compared in the words the direction check uses
(:func:`interviewer.grading.magnitudes.near_units`).

Plain ``re`` only: no numpy.
"""

from __future__ import annotations

import re
from functools import lru_cache

from interviewer.grading.magnitudes import near_units

_ZH_QUANTITY = r"([^，,；;。.!?！？、]{1,10}?)"
_EN_QUANTITY = r"((?:[\w-]+\s*){1,4})"
_STEADY = (
    # 不会影响吞吐, 不改变数学结果
    re.compile(r"(?:不会|不太会|并不会|并不|丝毫不|完全不|不|没有|没)(?:影响|改变)(?:到)?\s*"
               r"([^，,；;。.!?！？、]{1,10})"),
    # 对精度没有任何影响
    re.compile(r"对\s*" + _ZH_QUANTITY + r"\s*(?:并|都|也)?(?:没有|没|无|毫无)(?:任何)?(?:影响|改变)"),
    # 精度保持不变
    re.compile(_ZH_QUANTITY + r"\s*(?:保持|维持|基本)?不变"),
    re.compile(r"\b(?:does not|doesn't|do not|don't|won't|will not|did not|didn't|never|not)\s+"
               r"(?:really\s+|actually\s+)?(?:affect|impact|change|alter)s?\s+" + _EN_QUANTITY),
    re.compile(r"\bno\s+(?:real\s+|significant\s+|measurable\s+)?(?:impact|effect|change)\s+"
               r"(?:on|in|to)\s+" + _EN_QUANTITY),
    re.compile(r"((?:[\w-]+\s+){1,3})(?:stays?|remains?|is|are)\s+(?:the same|unchanged|"
               r"constant|unaffected)\b"),
)


@lru_cache(maxsize=16384)
def steady(text: str) -> tuple[frozenset[str], ...]:
    """The words of each quantity ``text`` says does not change."""
    lowered = text.lower()
    return tuple(frozenset(units) for pattern in _STEADY for m in pattern.finditer(lowered)
                 if (units := near_units(m.group(1))))
