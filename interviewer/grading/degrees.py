"""Degrees: what "不高", "不大", "没那么多" deny, and when that is the point in other words.

``degree_after``       the degree a denial is of, when one follows it
``agreed_degrees``     degrees one text denies of a thing the other gives the opposite of
                       ("带宽要求不高" against "带宽要求低": the same claim)
``degree_of_another``  a denial of a degree that is not a name's worth ("带宽要求不高" denies
                       nothing of 数据并行; "作用不大" does)

Plain ``re`` only.
"""

from __future__ import annotations

import re
from functools import lru_cache

_DEGREE_PAIRS = ("高低", "大小", "多少", "长短", "快慢", "强弱", "重轻", "深浅", "宽窄")
_OPPOSITE = {a: b for pair in _DEGREE_PAIRS for a, b in (pair, pair[::-1])}
_DENIED_DEGREE = re.compile(r"([\u4e00-\u9fff]{2,4}?)(?:的)?(?:并不|不太|不是很|不算|没那么|没有那么|不)"
                            r"([" + "".join(_OPPOSITE) + r"])")
_DEGREE_ADVERB = r"(?:很|较|比较|更|相对|非常|也|都)?"
_DEGREE_AFTER = re.compile(r"(?:太|是很|算|有?那么)?([" + "".join(_OPPOSITE) + r"])")


def degree_after(text: str) -> str:
    """The degree a denial is of, when one follows it ("不高", "没那么大"), else ""."""
    m = _DEGREE_AFTER.match(text)
    return m.group(1) if m else ""


# what a name is worth: "作用不大" denies the name, "带宽要求不高" a degree of something it has
_WORTH_ZH = re.compile(r"(?:用处|作用|意义|效果|帮助|收益|价值|好处|提升|影响|用途|优势|改善|加速)"
                       r"(?:也|都|其实|并|真的|实在)?$")


def degree_of_another(lowered: str, denial: re.Match, point: str) -> bool:
    """The denial is of a degree ("不高", "不多") the point does not give ("开销大" gives
    one), of something other than the name's worth."""
    degree = degree_after(lowered[denial.end():])
    return bool(degree) and degree not in point \
        and not _WORTH_ZH.search(lowered[:denial.start()])


@lru_cache(maxsize=16384)  # a span's clause is read against every point, a point against every span
def agreed_degrees(denier: str, other: str) -> frozenset[str]:
    """The degrees ``denier`` denies of a thing ("通信开销不大") that ``other`` says the
    opposite of, of the same thing ("通信开销小"): the same claim in other words. The thing is
    the four characters before the denial, or the two when ``other`` does not also give the
    denied degree to another thing of that name ("计算开销大")."""
    spared = set()
    for m in _DENIED_DEGREE.finditer(denier):
        thing, degree = m.group(1), m.group(2)
        opposite = _OPPOSITE[degree]
        if re.search(re.escape(thing) + _DEGREE_ADVERB + opposite, other):
            spared.add(degree)
            continue
        short = thing[-2:]
        if re.search(re.escape(short) + _DEGREE_ADVERB + opposite, other) \
                and not re.search(re.escape(short) + _DEGREE_ADVERB + degree, other):
            spared.add(degree)
    return frozenset(spared)
