"""Which way a text moves a quantity, and whether two texts move one the opposite ways.

增加/减少, 提高/降低, 变大/变小, more/less, faster/slower, before/after, and sizes said of a
quantity (:mod:`interviewer.grading.magnitudes`): each direction word with the words of the
quantity it moves, read in its clause. A shorter time is a higher speed. A quantity said
not to change (:mod:`interviewer.grading.effects`) is denied by one said to move.

Plain ``re`` only.
"""

from __future__ import annotations

import re
from functools import lru_cache

from interviewer.content.language import CJK_CHARS, language_of
from interviewer.grading.effects import steady
from interviewer.grading.magnitudes import Order, magnitudes, near_units, order_of, turned

_UP = ("增加", "增大", "提高", "提升", "变大", "增多", "更多", "上升", "扩大", "加大", "变多",
       "升高", "加快", "更快", "变快", "更大", "更高", "翻倍", "增长", "变长", "更长", "之后",
       "increase", "increases", "increased", "more", "higher", "larger", "bigger", "faster",
       "raise", "raises", "grow", "grows", "greater", "longer", "after", "later")
_DOWN = ("减少", "减小", "降低", "下降", "变小", "减半", "更少", "缩小", "减慢", "变慢", "更慢",
         "更小", "更低", "节省", "降到", "缩短", "变短", "更短", "之前", "提前", "只需", "仅需",
         "decrease", "decreases", "decreased", "reduce", "reduces", "reduced", "less", "fewer",
         "lower", "smaller", "slower", "shrink", "shrinks", "save", "saves", "shorter",
         "before", "earlier")
_UP += ("更好", "变好", "改善", "better", "improves", "improved")
# a speed compared by how much: "快得多", "慢很多"
_FASTER_BY = ("快得多", "快很多", "快不少")
_SLOWER_BY = ("慢得多", "慢很多", "慢不少")
_UP += _FASTER_BY
_DOWN += _SLOWER_BY
# "放大 10 倍", "needs extra memory"
_UP += ("放大", "extra")
_UP += ("更频繁", "变频繁", "more frequent", "more frequently", "more often")
_DOWN += ("less frequent", "less frequently", "less often")
_DOWN += ("变差", "更差", "恶化", "略降", "下滑", "worse", "degrades", "degraded")
# a cost said to grow worse grows: "延迟累积越严重" against "延迟反而越小"
_UP += ("更严重", "越严重", "越来越严重")
# one of a thing is fewer than "more" of it: "只用一个 KV 头" against "更多的 KV 头"
_ONE = ("单个", "一个", "1个", "1 个", "a single", "only one", "just one")
_DIRECTION = re.compile("|".join(
    sorted((re.escape(w) if not w.isascii() else rf"\b{re.escape(w)}\b"
            for w in _UP + _DOWN + _ONE), key=len, reverse=True)).replace(
    "一个", "(?<![每第某任同哪另])一个"))
# a comparative right after a verb of moving says how far it moves ("省得更多")
_MOVES_DOWN = ("省", "节省", "降", "降低", "下降", "减", "减少", "缩小", "缩短")
_MOVE_BEFORE = re.compile("(?P<verb>" + "|".join(sorted(
    _MOVES_DOWN + ("增", "增加", "涨", "升", "上升", "提高", "提升", "扩大", "加快"), key=len,
    reverse=True)) + r")[得了]\s*$")
# the benefit of a cost ("显存收益", "成本收益") is how much of it is saved
_SAVED = re.compile(r"(?:显存|内存|存储|带宽|成本|开销|延迟|时延)(?:上的|的)?收益")
_WINDOW = 16  # characters either side of a direction word where its quantity is named


# Chinese verbs name their quantity after them (减少显存); the others before (显存变大).
_VERB_DIRECTIONS = frozenset(("增加", "增大", "提高", "提升", "扩大", "加大", "加快", "减少", "减小",
                              "降低", "节省", "缩小", "减慢", "缩短", "降到", "放大", *_ONE))
# an English word of direction right before a Chinese noun names a thing: "reduce 数", "reduce 端"
_NAMES_A_THING = re.compile(f"\\s*[{CJK_CHARS}]")
# comparatives may stand before their noun ("更多的 KV 头") or after it ("显存更多")
_EITHER_SIDE = frozenset(("更多", "更少"))
_MORE = frozenset(("更多", "增多", "变多", "more"))
_INTENSIFIER = re.compile(r"(?:甚至|乃至|或者|或|\bor|\beven)\s*$")
_AMOUNT_BEFORE = re.compile(r"(?:一半|[0-9.]+\s*[%×x倍]?|[一二两三四五六七八九十百千万]+倍|half|twice)\s*"
                            + _INTENSIFIER.pattern)
# a time said to shrink is a speed said to grow: "缩短处理时间" is "处理变快"
_SPEED = frozenset(("加快", "更快", "变快", "减慢", "变慢", "更慢", *_FASTER_BY, *_SLOWER_BY,
                    "faster", "slower"))
_ORDER = frozenset(("之后", "之前", "提前", "after", "later", "before", "earlier"))
_TIME_ZH = r"(?:时间|耗时|时长|时延|延迟|等待)"
# first-token and per-token latencies are times too, in either language's text
_TIME_EN = r"(?:time|latency|duration|wait|waiting|ttft|tpot|itl)"
_TIME_END = re.compile(f"(?:{_TIME_ZH}|(?<![a-z0-9]){_TIME_EN})(?:[的了会将也就都还要能可\\s]|反而|往往|通常|一般)*"
                       f"(?:(?:压|降|减|缩|控制)(?:到|在))?$")  # "把停机时间压到最低"
# a time first in a list of what a verb moves ("降低延迟和数据库负载")
_LISTED = f"([^，,；;。、和与及]{{0,10}}?{_TIME_ZH})\\s*(?:、|和|与|及|以及)"
_LISTED_TIME = re.compile(_LISTED)
_LISTED_TIME_BEFORE = re.compile(_LISTED + "(?=[^，,；;。]*$)")  # ... the last list before the word
_QUALITY = frozenset(("更好", "变好", "改善", "better", "improves", "improved", "变差", "更差", "恶化",
                      "略降", "下滑", "worse", "degrades", "degraded"))


# "more (memory) efficient" compares a property, it counts nothing
_COMPARATIVE = re.compile(r"\s*(?:[a-z]+[\s-]+)?[a-z]+(?:ient|ent|ant|ive|able|ible|ful|ous|ic|ical"
                          r"|less|ly)\b")
# "takes (much) longer": the time of what it takes
_TAKES = re.compile(r"\btak(?:e|es|ing|en)\s+(?:(?:much|far|a lot|a bit|even|way)\s+)?$")


def _times(word: str, before: str, after: str) -> bool:
    """The quantity a direction word moves is a time: the noun it ends on ("缩短处理的时间",
    "时间更长"), or for English the word right after it or before it ("reduces training
    time", "latency lower")."""
    if word.isascii():
        if word in ("longer", "shorter") and _TAKES.search(before):
            return True
        return bool(re.match(f"\\s*(?:[a-z-]+\\s+){{0,2}}{_TIME_EN}\\b", after)
                    or re.search(f"\\b{_TIME_EN}\\s*(?:is|are|gets?)?\\s*$", before))
    if _names_after(word, after):
        return bool(re.match(f"[^，,；;。、和与及]{{0,10}}?{_TIME_ZH}(?![一-龥])", after))
    return bool(_TIME_END.search(before))


def _names_after(word: str, after: str) -> bool:
    """A Chinese verb names its quantity after it, unless only a number follows ("提升 2-4×")."""
    return word in _VERB_DIRECTIONS and bool(re.search(f"[{CJK_CHARS}A-Za-z]", after))


_NAME_CHAR = re.compile(r"[a-z0-9_.\-]")


def _whole_words(text: str, lo: int, hi: int) -> tuple[int, int]:
    """A window widened so that it cuts no Latin name in two ("max.poll.records")."""
    while 0 < lo < len(text) and _NAME_CHAR.match(text[lo - 1]) and _NAME_CHAR.match(text[lo]):
        lo -= 1
    while 0 < hi < len(text) and _NAME_CHAR.match(text[hi - 1]) and _NAME_CHAR.match(text[hi]):
        hi += 1
    return lo, hi


def _directions(text: str) -> list[tuple[int, set[str], Order]]:
    """``(+1 or -1, units of the quantity it moves, the sides of its comparison)`` for every
    direction word in ``text``, and every size said of a quantity (:mod:`magnitudes`)."""
    lowered = text.lower()
    out = [(-sign if _TIME_END.search(near) else sign, near_units(near), order_of(near))
           for sign, near in magnitudes(text)]
    chinese = language_of(text) == "zh"
    for m in _DIRECTION.finditer(lowered):
        word = m.group()
        if chinese and word.isascii() and _NAMES_A_THING.match(lowered, m.end()):
            continue
        if word in _MORE and _INTENSIFIER.search(lowered, 0, m.start()) and (
                _AMOUNT_BEFORE.search(lowered, 0, m.start()) or _DIRECTION.search(
                    re.split(r"[，,；;。：:]", lowered[:m.start()])[-1])):
            continue  # "省一半甚至更多", "reduces it by half or more": more of the move just said
        sign = 1 if word in _UP else -1  # _DOWN and _ONE
        reach = _WINDOW * (3 if word.isascii() else 1)  # English words are longer
        lo, hi = _whole_words(lowered, max(0, m.start() - reach), m.end() + reach)
        before = re.split(r"[，,；;。：:—–→]|(?<![之以然最])后(?![端台续面])", lowered[lo:m.start()])[-1]
        after = re.split(r"[，,；;。：:—–→]", lowered[m.end():hi])[0]
        moved = _MOVE_BEFORE.search(before) if word in _EITHER_SIDE else None
        if moved:
            # "显存省得更多" saves more: the move's way, said of what comes before the verb;
            # "降得更少" says how much less it moves, no way of its own
            if word == "更多":
                sign = -1 if moved.group("verb") in _MOVES_DOWN else 1
                out.append((sign, near_units(before[:moved.start()]), None))
            continue
        if word.isascii() and word in _ONE:
            near = " ".join(after.split()[:4])  # "a single network" counts networks
        elif word.isascii():
            near = " ".join(before.split()[-3:] + after.split()[:4])
        elif word in _EITHER_SIDE:
            near = before + " " + after
        else:
            forward = _names_after(word, after)
            near = after if forward else before
            if word not in _SPEED | frozenset(_ONE):
                # "降低延迟和数据库负载", "延迟和成本都下降": a shorter time, and less of the rest
                listed = (_LISTED_TIME.match(after) if forward
                          else _LISTED_TIME_BEFORE.search(before))
                if listed:
                    out.append((-sign, near_units(listed.group(1)), None))
                    near = after[listed.end():] if forward else before[listed.end():]
        # "一个" is a count: it only meets "更多/more" of the same thing
        sign = sign * (2 if word in _ONE else 3 if word in _MORE
                       and not _COMPARATIVE.match(after) else 1)
        if word not in _SPEED | _ORDER | _QUALITY | frozenset(_ONE) and _times(word, before, after):
            sign = -sign  # a shorter time is a higher speed
        if _SAVED.search(near):
            sign = -sign  # "显存收益更大": a larger saving of memory is less memory
        out.append((sign, near_units(near), None if word.isascii() else order_of(before)))
    return out


def changed_against_steady(point: str, span: str) -> bool:
    """One side says a quantity does not change ("不会影响吞吐"), the other moves it ("吞吐量
    大幅度降低"), and the first does not move it too."""
    for still, moving, own in ((steady(point), _span_directions(span), _point_directions(point)),
                               (steady(span), _point_directions(point), _span_directions(span))):
        for units in still:
            if any(units & near for _, near, _ in moving) \
                    and not any(units & near for _, near, _ in own):
                return True
    return False


_BOTH_WAYS = re.compile(r"反之|反过来|\b(?:vice versa|conversely)\b")


def direction_conflict(point: str, span: str) -> bool:
    """The span moves one of the point's quantities the other way, and never the point's way
    (nor says both: "…上升，反之下降")."""
    if _BOTH_WAYS.search(span.lower()):
        return False
    pd, sd = _point_directions(point), _span_directions(span)
    if not pd or not sd:
        return False
    for p_sign, p_near, p_order in pd:
        if any(q * p_sign < 0 and p_near & q_near for q, q_near, _ in pd):
            continue  # the point moves it both ways ("更大的窗口保留更早的轮次")
        signed = [(-s_sign if turned(p_order, s_order) else s_sign, s_near)
                  for s_sign, s_near, s_order in sd]
        same = [s_near for s_sign, s_near in signed if s_sign * p_sign > 0]
        # a count (一个, a single) is opposed only by "更多/more", and the other way round
        opposite = [s_near for s_sign, s_near in signed if s_sign * p_sign < 0
                    and {abs(s_sign), abs(p_sign)} != {1, 2}]
        if any(p_near & near for near in same):
            continue
        if any(p_near & near for near in opposite):
            return True
    return False



# What a point says is read once per process; a span is read against every point.
_point_directions = lru_cache(maxsize=4096)(lambda point: _directions(point))
_span_directions = lru_cache(maxsize=4096)(lambda span: _directions(span))
