"""Magnitudes: a quantity called high or low, large or small, with no comparative.

"shuffle 其实开销不大" says the opposite of "shuffle 是高成本的重分布边界", and "学习率太小" of
"学习率过大"; "The KV cache is tiny" of "The KV cache is large". The direction check
(:func:`interviewer.grading.claims.direction_conflict`) reads these beside its comparatives
(更大, 降低, more, lower) as a sign and the words of the quantity it is said of.

Read only where a size is predicated of something, so that names are left alone:
- Chinese: 大/高/多 and 小/低/少 after their quantity, led by a degree word (很, 太, 过, 还,
  最 …), followed by 得多, or at the end of a clause ("方差大，"); 不/并不 before one turns it
  round (开销不大 is small). 高/低/大/小 before a noun of cost, time or capacity (高成本,
  低延迟) is said of that noun. Never inside a word (大模型, 小 batch, 多卡, 差不多).
- English: a size adjective after a copula ("is tiny", "are not cheap").
"足够大" and "big enough" ask for a size; they do not assert one.

A comparison is read with its order: "A 比 B 低" says what "B 比 A 高" says
(:func:`comparison`). Plain ``re`` only.
"""

from __future__ import annotations

import re

from interviewer.content.language import CJK_CHARS
from interviewer.grading.claim_text import _terms, _units

_DEGREE = "很|非常|比较|相当|特别|极其|极|太|过于|过|偏|较|挺|巨|超|还|最|更为|更加|远|都"
_NEGATE = "不太|并不是|并不|并没有那么|没有那么|没那么|不算|算不上|不是|不"  # 不算大, 不是很大: small
_TAIL = "得多|很多|不少|得很"
# ... a space ends it too, unless a Latin noun follows, which the size modifies ("切成小 chunk")
_END = r"(?=$|[，,。；;！!？?）)、：:]|\s(?!\s*[a-z0-9])|的话)"
_ZH = re.compile(
    rf"(?P<neg>{_NEGATE})?(?P<deg>{_DEGREE})?(?P<adj>[大高多小低少])(?:了(?={_TAIL}))?"
    rf"(?P<tail>{_TAIL})?{_END}"
    # 太/过/偏 make a predicate whatever follows ("batch size太小梯度方差大")
    rf"|(?P<neg2>{_NEGATE})?(?P<deg2>太|过于|过|偏)(?P<adj2>[大高多小低少])")
# characters that make a word with the size after them, not a predicate about a quantity
_WORD_BEFORE = frozenset("变更扩加增放降提升减缩至强庞巨伟重宽许好诸最够")
_ADJECTIVES = frozenset("慢快好差高低大小多少长短强弱贵")
_WORDS = re.compile("差不多|至少|至多|多少|大小|高低")
# a size right after a verb that moves a quantity is how far it moves it ("省不少", "降了很多")
_MOVED = re.compile("(?:省|节省|降|降低|下降|减|减少|增|增加|涨|升|上升|提高|提升|缩小|扩大|加快)了?$")
_NOUNS = ("成本|开销|代价|延迟|时延|吞吐量|吞吐|带宽|显存占用|显存|内存占用|内存|精度|并发|"
          "负载|功耗|风险|通信量|通信开销|方差|偏差|利用率|命中率|准确率")
_PREFIX = re.compile(rf"(?P<adj>[高低大小])(?P<noun>{_NOUNS})")
_UP = frozenset("大高多")

_EN_UP = frozenset(("high", "large", "big", "huge", "expensive", "costly", "massive", "heavy",
                    "significant", "substantial"))
_EN_DOWN = frozenset(("low", "small", "tiny", "cheap", "negligible", "minimal", "light",
                      "trivial", "minor"))
_EN = re.compile(
    r"\b(?P<cop>is|are|was|were|be|being|been|stays?|remains?|gets?|becomes?|seems?|looks?|"
    r"isn't|aren't|wasn't|weren't)\s+(?P<mods>(?:(?:very|quite|too|so|extremely|relatively|"
    r"fairly|pretty|much|far|still|really|rather|usually|often|always|actually|not|never|"
    r"only|just)\s+)*)(?P<adj>" + "|".join(sorted(_EN_UP | _EN_DOWN)) + r")\b")

WINDOW = 16  # characters before a Chinese size where its quantity is named
# ... within its clause: "参数量大但激活量小" says 小 of 激活量 only
_CLAUSE = re.compile(r"[，,；;。：:]|但是|但|(?<!反)而|却|可是|不过")  # 反而 (instead) goes on


def magnitudes(text: str) -> list[tuple[int, str]]:
    """``(+1 or -1, the words of the quantity)`` for every size said of a quantity."""
    lowered = text.lower()
    out: list[tuple[int, str]] = []
    last = 0  # a quantity is named after the size before it ("太小的话梯度方差很大")
    words = [(w.start(), w.end()) for w in _WORDS.finditer(lowered)]
    for m in _ZH.finditer(lowered):
        if any(lo < m.end() and m.start() < hi for lo, hi in words):
            continue
        neg, deg = m.group("neg") or m.group("neg2"), m.group("deg") or m.group("deg2")
        adj, tail = m.group("adj") or m.group("adj2"), m.group("tail")
        before_char = lowered[m.start() - 1:m.start()]
        if deg and before_char in _ADJECTIVES:
            continue  # "慢太多了", "好很多": how much, after another adjective
        if adj == "多" and not (neg or deg) and before_char == "得":
            continue  # "便宜得多": how much, after any adjective
        if not (neg or deg or tail):
            # a bare size ends a clause after its quantity ("方差大，"), never a word
            if not re.match(f"[{CJK_CHARS}A-Za-z0-9]", before_char) or \
                    before_char in _WORD_BEFORE:
                continue
        elif not neg and not deg and before_char in _WORD_BEFORE:
            continue
        if deg == "最" and before_char in "至":
            continue
        if _MOVED.search(lowered, 0, m.start()):
            continue
        sign = 1 if adj in _UP else -1
        if neg:
            sign = -sign
        before = _CLAUSE.split(lowered[max(last, m.start() - WINDOW):m.start()])[-1]
        last = m.end()
        out.append((sign, before))
    for m in _PREFIX.finditer(lowered):
        if m.start() and lowered[m.start() - 1] in _WORD_BEFORE:
            continue
        out.append((1 if m.group("adj") in _UP else -1, m.group("noun")))
    for m in _EN.finditer(lowered):
        if lowered[m.end():].lstrip().startswith("enough"):
            continue  # "big enough" asks for a size
        sign = 1 if m.group("adj") in _EN_UP else -1
        if re.search(r"\b(?:not|never)\b", m.group("mods")) or m.group("cop").endswith("n't"):
            sign = -sign
        before = re.split(r"[,;.:]", lowered[:m.start()])[-1]
        out.append((sign, " ".join(before.split()[-4:])))
    return out


def comparison(near: str) -> tuple[str, str] | None:
    """The two sides of a comparison in the words before a size ("A 比 B"), or None."""
    if "比" in near:
        subject, _, other = near.rpartition("比")
        return subject, other
    return None


# words for one quantity that the glossary keeps apart ("开销" is overhead, "成本" cost)
_SAME_QUANTITY = (("q:cost", ("成本", "开销", "代价", "花费", "费用", "cost", "overhead",
                              "expense")),)


def quantity_units(near: str) -> set[str]:
    """One unit per quantity named in ``near`` under any of its words."""
    return {unit for unit, words in _SAME_QUANTITY if any(w in near for w in words)}


Order = tuple[set[str], set[str]] | None  # the two sides of a comparison ("A 比 B")


def near_units(near: str) -> set[str]:
    """The words of a quantity as the direction check compares them: Chinese bigrams,
    English stems, glossary terms, and one unit per quantity of several names."""
    return _units(near) | _terms(near) | quantity_units(near)


def order_of(near: str) -> Order:
    """The two sides of the comparison in ``near``, as units, or None."""
    sides = comparison(near)
    return None if sides is None else (near_units(sides[0]), near_units(sides[1]))


def turned(p_order: Order, s_order: Order) -> bool:
    """The span compares the point's two sides the other way round ("B 比 A 高" against
    "A 比 B 低"): its direction is read turned round."""
    if p_order is None or s_order is None:
        return False
    (p_a, p_b), (s_a, s_b) = p_order, s_order
    # what a thing is compared with stands alone after 比; the quantity often sits on the
    # first side of both ("A 的带宽比 B", "B 的带宽比 A")
    return bool(p_a & s_b and p_b & s_a and not p_b & s_b)
