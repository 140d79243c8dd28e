"""Numbers in a point and in a span: another number for the same unit is another claim.

``numbers`` reads each standalone number with its unit (倍, × and "times" are one unit;
English number words count; a year, an enumerator "(1)" and the 2 of "N/2" do not), and
``number_conflict`` compares a point's with a span's, reading a transition ("从 200ms 到
20ms") for the state it ends in.

Plain ``re`` only: no numpy.
"""

from __future__ import annotations

import re
from functools import lru_cache

from interviewer.grading.alternatives import _endpoints, _point_endpoints, _STILL

_ZH_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
              "九": 9, "十": 10, "半": 0.5}
_NUMBER = re.compile(
    r"(?<![A-Za-z0-9.,\-])(?<![A-Za-z]/)(\d{1,3}(?:,\d{3})+(?![\d,])|\d+(?:\.\d+)?)"
    r"(?:-(?=bit|byte)|\s*)"  # "128-bit"
    r"(%|倍|xx\b|x\b|×|times\b|gb|mb|tb|kb|ms|秒|s\b|个|次|层|张|台|位|种|bits?\b|bytes?\b|b\b|k\b|"
    r"m\b)?", re.IGNORECASE)
# "8–23×", "60-80%", "3~5 倍": a value anywhere in the range is the point's
_RANGE = re.compile(r"(?<![A-Za-z0-9.\-])(\d+(?:\.\d+)?)\s*(?:%\s*)?[–—~～-]\s*(\d+(?:\.\d+)?)\s*"
                    r"(%|倍|x\b|×|times\b)", re.IGNORECASE)
_ZH_NUMBER = re.compile(r"([一二两三四五六七八九十])(倍|个|次|层|张|台|份|位|种)(?!性)")  # 一次性: at once
_ONLY = re.compile(r"[只仅唯单就]")
_NOUN_AFTER = re.compile(r"\s*[A-Za-z\u4e00-\u9fff]")
_ENUMERATOR = re.compile(r"[（(]\d{1,2}[)）]")  # "(1) the serving stack …" counts nothing
_WORD_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10, "twenty": 20, "fifty": 50, "hundred": 100,
                 "thousand": 1000}
_EN_NUMBER = re.compile(r"\b(?:a |one )?(" + "|".join(_WORD_NUMBERS)
                        + r")\b\s*(times\b|x\b|percent\b)?", re.IGNORECASE)
_SAME_UNIT = {"×": "x", "倍": "x", "times": "x", "percent": "%", "bits": "bit"}
_BITS_PER = {"byte": 8, "bytes": 8}  # "16 bytes" is "128-bit"
_YEAR = re.compile(r"(19|20)\d\d")
_NAMED = re.compile(r"\b[A-Z][A-Z0-9]{1,}\s?$")  # an acronym right before the number


def numbers(text: str) -> set[tuple[float, str]]:
    """``(value, unit)`` of each standalone number (not the 8 of INT8 nor the 3 of ZeRO-3,
    nor a year, nor the 2 of N/2); 倍, × and "times" are one unit."""
    out = set()
    text = _ENUMERATOR.sub(" ", text)
    for m in _NUMBER.finditer(text):
        unit = (m.group(2) or "").lower()
        if not unit and _YEAR.fullmatch(m.group(1)):
            continue  # "Rajbhandari et al. 2020" says when, not how many
        if not unit and (re.match(r"[a-z]", text[m.end(1):m.end(1) + 1], re.IGNORECASE)
                         or _NAMED.search(text, 0, m.start())):
            continue  # a number in a name: "3D", "RAID 1", "HTTP 2" ("4xx" is a class, unit xx)
        value = float(m.group(1).replace(",", ""))
        if unit in _BITS_PER:
            value, unit = value * _BITS_PER[unit], "bit"
        out.add((value, _SAME_UNIT.get(unit, unit)))
    for m in _ZH_NUMBER.finditer(text):
        if m.group(1) == "一" and not _ONLY.search(text, max(0, m.start() - 3), m.start()) \
                and _NOUN_AFTER.match(text, m.end()):
            continue  # "一个模型" is an article; "只有一种", "能挂一个，" are counts
        out.add((float(_ZH_DIGITS[m.group(1)]), _SAME_UNIT.get(m.group(2), m.group(2))))
    for m in _EN_NUMBER.finditer(text):
        unit = (m.group(2) or "").lower()
        out.add((float(_WORD_NUMBERS[m.group(1).lower()]), _SAME_UNIT.get(unit, unit)))
    return out


def _same_value(a: float, b: float) -> bool:
    """Equal, or one the other rounded ("about 9%" for 8.7 %)."""
    return a == b or (min(a, b) >= 5 and (round(a) == b or round(b) == a))


def number_conflict(point: str, span: str) -> bool:
    """Both give a number in the same unit, and the span never gives the point's value (in
    its unit, or with none: "乘 1024" and "放大 1024 倍")."""
    lp, pn = _point_side(point, transition=False)
    if not pn and not _point_side(point, transition=True)[1]:
        return False  # the point gives no number
    if _point_endpoints(point)[1] and not _STILL.search(span.lower()):
        # "从 200ms 到 20ms" is said by an answer that names either
        lp, pn = _point_side(point, transition=True)
    sn = numbers(_cased(_endpoints(span.lower())[0], span))
    if not pn or not sn or any(_same_value(a, b) and (u == v or not u or not v)
                               for a, u in pn for b, v in sn):
        return False
    if any(lo <= b <= hi and _SAME_UNIT.get(u, u) == v for lo, hi, u in _ranges(lp)
           for b, v in sn):
        return False  # "20x" is in "8–23×"
    return bool({u for _, u in pn} & {u for _, u in sn})


def _cased(lowered: str, original: str) -> str:
    """``lowered`` (a blanked copy of ``original``) in the original's case, so that an acronym
    before a number ("RAID 1") is seen."""
    if len(lowered) != len(original):
        return lowered
    return "".join(o if c != " " or o == " " else " " for c, o in zip(lowered, original))


def _ranges(text: str) -> list[tuple[float, float, str]]:
    return [(float(m.group(1)), float(m.group(2)), m.group(3).lower())
            for m in _RANGE.finditer(text)]


# what a point says is read once per process: rubric points are graded against every answer
@lru_cache(maxsize=4096)
def _point_side(point: str, transition: bool) -> tuple[str, frozenset[tuple[float, str]]]:
    """The point as compared (lowered; with a transition's start blanked unless ``transition``)
    and its numbers."""
    lp = point.lower() if transition else _point_endpoints(point)[0]
    return lp, frozenset(numbers(_EXAMPLE.sub(_blank, _cased(lp, point))))


# an example of what the point says ("(e.g., ?limit=10)", "比如 batch size 取 64") gives a
# value for illustration: an answer's other example contradicts nothing. A range or an
# approximate value in it ("for example τ≈0.7–1.0") is what the point recommends: kept
_EXAMPLE = re.compile(r"[（(]\s*(?:e\.g\.|eg\b|for example|for instance|such as|例如|比如|譬如)"
                      r"[^（）()]*[)）]|(?:\be\.g\.|\bfor (?:example|instance)\b),?"
                      r"[^，,;；。!?！？\n]*|(?:例如|比如|譬如)[^，,;；。!?！？\n]*", re.IGNORECASE)


_RECOMMENDED = re.compile(r"[≈~～约]|左右|\b(?:about|around|roughly)\b")


def _blank(m: re.Match) -> str:
    if _RANGE.search(m.group()) or _RECOMMENDED.search(m.group()):
        return m.group()
    return " " * len(m.group())
