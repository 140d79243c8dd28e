"""The things a question compares, a closed set of alternatives of its own: "What is the
difference between WHERE clause and HAVING clause?", "Prefill 和 Decode 有什么区别？",
"TCP vs UDP", "Compare MSE and MAE".

A span that says what a point says of one of them, of another one instead ("HAVING can only
be applied on non-aggregated columns" against "WHERE clause can only be applied on a static
non-aggregated column"), says it of the wrong thing: ``swapped_thing``. It is a swap only
when the span's words are the point's, closer to them than to what the question's other
points say of the thing the span names, so a span that states another point is not one.

Plain ``re`` only: no numpy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from interviewer.grading.claim_text import _units

_EN = (
    re.compile(r"\bdiff[ae]rences?\s+(?:between|among|of)\s+(?P<list>.+?)\s*"
               r"(?:\?|$|\.(?!\w)|;|\bin terms of\b|\bwhen\b|\band (?:when|how|why)\b)", re.I),
    re.compile(r"^(?:what(?:'s|’s| is| are)\s+)?(?P<list>[^?]{2,60}?\s+(?:vs\.?|versus)\s+"
               r"[^?]{2,60}?)\s*(?:\?|\.|$|[—–-]\s)", re.I),
    re.compile(r"\bcompare\s+(?P<list>.+?)\s*(?:\?|\.(?!\w)|$|\band (?:explain|describe)\b)", re.I),
    re.compile(r"\bhow\s+(?:does|do|is|are)\s+(?P<a>[^?,]+?)\s+(?:differ|different)\s+from\s+"
               r"(?P<b>[^?,]+?)\s*(?:\?|$)", re.I),
)
_ZH = (
    re.compile(r"(?P<list>(?:[^，,。？?：:；;]|::){2,60}?)(?:之间)?(?:的|有什么|有何|有哪些|存在什么|主要|核心)*"
               r"(?:区别|差异|不同|异同|差别)"),
    re.compile(r"(?:对比|比较)(?:一下)?(?P<list>[^，,。？?；;]{2,60})"),
    # two things asked about together are told apart too ("什么是防抖和节流？")
    re.compile(r"^(?:什么是|何为|请?解释(?:一下)?|说说|谈谈)(?P<list>[^，,。？?；;]{1,30}?(?:和|与|跟|以及|及)"
               r"[^，,。？?；;]{1,30}?)(?:分别是什么|是什么|的概念)?\s*(?:[？?，,]|$)"),
)
_EN += (
    re.compile(r"^what\s+(?:are|is)\s+(?P<list>[^?]{2,50}?\s+and\s+[^?]{2,50}?)\s*\?", re.I),
    # "How do top-k and top-p sampling differ", "use git rebase vs git merge", "Which is
    # faster - subquery or JOIN?"
    re.compile(r"\bhow\s+(?:do|does|are|is)\s+(?P<list>[^?,]{2,40}?\s+and\s+[^?,]{2,40}?)\s+"
               r"(?:differ|compare)\b", re.I),
    re.compile(r"\b(?:use|choose|pick|prefer)\s+(?P<list>[^?,]{2,40}?\s+(?:vs\.?|versus)\s+"
               r"[^?,]{2,40}?)\s*(?:\?|$|\.(?!\w)|[—–]|\s-\s)", re.I),
    re.compile(r"^which\s+is\s+\w+\s*[-—–:,]\s*(?P<list>[^?]{2,40}?\s+or\s+[^?]{2,40}?)\s*\?", re.I),
)
# a title that is the two things ("乐观锁与悲观锁", "InnoDB 和 MyISAM 对比"), or asks which of
# them or what each does ("CLOSE_WAIT 和 TIME_WAIT 哪个更危险？", "TCP与UDP分别有哪些使用场景？")
_TITLE_PART = (r"(?:(?!哪|什么|如何|怎么|怎样|为何|为什么|吗|分别|各|是否|能否|可以|有没有)"
               r"[^，,。？?：:；;的]){1,20}")
_TITLES = (
    re.compile(rf"^\s*(?:什么叫|什么是)?(?P<list>{_TITLE_PART}(?:和|与|跟){_TITLE_PART}?)\s*"
               r"(?:(?:的)?(?:对比|比较))?\s*[？?]?\s*$"),
    re.compile(rf"^\s*(?P<list>{_TITLE_PART}(?:和|与|跟){_TITLE_PART}?)\s*(?:在[^，,。？?]{{1,20}})?"
               r"(?:哪个|哪一个|谁|分别|各自|各)"),
)
# what a title asks about a thing, not a thing ("ReAct 架构原理与失败场景", "复制流程和原理")
_ASPECT = re.compile(r"(?:原理|优势|劣势|优点|缺点|场景|流程|作用|方法|特点|概念|应用|实现|思想|挑战|"
                     r"机制|过程|步骤|影响|意义|区别|联系|因素|问题)$")
_SPLIT = re.compile(r"\s*(?:,\s*and\s+|,\s*or\s+|,|，|、|\band\b|\bor\b|\bvs\.?(?=\s)|\bversus\b|"
                    r"\bwith\b|\bto\b|和|与|跟|及|以及|&|\bVS\b)\s*", re.I)
_LEAD = re.compile(r"^(?:(?:the|a|an|using|between)\s+|请?(?:对比|比较|解释并比较|说说|简述|谈谈|"
                   r"说一下|介绍一下|讲讲|解释一下|解释|说明)\s*)", re.I)
# the first thing may sit after its context ("MySQL 的 Binlog", "PromQL 中 rate()"); the
# last before what is asked of them all ("GPT架构的主要", "bert三者", "deep copy in Rust")
_CONTEXT_BEFORE = re.compile(r"^.*(?:的|\s中\s?|里的?)\s*")
_ASKED_AFTER = re.compile(r"(?:的|三者|二者|两者|之间|各自|有什么|有何|有哪些|是什么|作用|"
                          r"\s+(?:in|for|when|on)\s).*$")
_PRONOUN = re.compile(r"^(?:它|其|他们|它们|二者|两者|三者|they|it|them|these|those|each)$|"
                      r"^(?:why|how|what|when|which|who|does|do|is|are|can|should)\b", re.I)
# a head word the names share, or a generic one, may be left out ("WHERE" for "WHERE clause")
_GENERIC = frozenset("clause clauses index indexes key keys lock locks hook hooks binding model "
                     "models pattern patterns operator operators function functions method "
                     "methods statement statements command commands sampling".split()) | frozenset(
    ("索引", "协议", "模型", "版本", "架构", "函数", "属性", "指标", "方法", "机制", "算法", "模式"))
_BRACKET = re.compile(r"\s*[（(]([^（）()]{1,20})[)）]\s*")
_LATIN = re.compile(r"[a-z0-9]")
_CONTRAST = re.compile(r"(?:而不是|不是|而非|不像|不同于|区别于|相比|unlike|rather than|instead of|"
                       r"\bnot|\bthan|比起?)\s*(?:the\s+|a\s+|an\s+)?[^，,；;。.!?！？\s]{1,24}")
MIN_SHARED = 0.5  # of the point's words (its thing's names aside) the span says
MIN_UNITS = 2  # ... and at least this many of them
MARGIN = 0.15  # closer to the point than to any other point about the span's thing


Names = tuple[tuple[str, ...], ...]  # each compared thing's names, lower-cased


@dataclass(frozen=True)
class Compared:
    """A question's compared things, each with its names, and its points' texts."""
    names: Names = ()
    points: tuple[str, ...] = ()


def _clean(part: str, first: bool, last: bool) -> str:
    part = part.strip(" \"“”'‘’`*")
    part = _LEAD.sub("", part).strip(" \"“”'‘’`")
    if first and re.search(r"的|\s中\s?|里", part):
        part = _CONTEXT_BEFORE.sub("", part)
    if last:
        part = _ASKED_AFTER.sub("", part)
    return part.strip(" \"“”'‘’`*?？。.")


def _aliases(name: str, heads: set[str]) -> tuple[str, ...]:
    """A name, the name and the abbreviation in its brackets apart ("Mean Squared Error
    (MSE)"), and the name without a head word it shares with the others ("WHERE")."""
    out = [name]
    bracket = _BRACKET.search(name)
    if bracket:
        out = [_BRACKET.sub(" ", name).strip(), bracket.group(1).strip()]
    out += [a.rsplit("::", 1)[1] for a in out if "::" in a]  # "std::map": "map"
    for alias in list(out):
        words = alias.split()
        if len(words) >= 2 and words[-1] in heads:
            out.append(" ".join(words[:-1]))
        for head in heads:
            if not head.isascii() and alias.endswith(head) and len(alias) - len(head) >= 2:
                out.append(alias[:-len(head)].strip())
    return tuple(dict.fromkeys(a for a in out if len(a) >= 2))


@lru_cache(maxsize=4096)
def compared_things(question: str) -> tuple[tuple[str, ...], ...]:
    """The things ``question`` compares, each as its names (lower-cased), or ()."""
    for pattern in _EN + _ZH + _TITLES:
        m = pattern.search(question)
        if not m:
            continue
        groups = m.groupdict()
        parts = [groups["a"], groups["b"]] if groups.get("a") else _SPLIT.split(m.group("list"))
        parts = [p for p in parts if p and p.strip()]
        cleaned = [_clean(p, i == 0, i == len(parts) - 1).lower() for i, p in enumerate(parts)]
        names = [p for p in cleaned if p and not _PRONOUN.match(p) and len(p) <= 40
                 and len(p.split()) <= 5]
        if len(set(names)) < 2 or len(names) != len(cleaned):
            continue  # a part that is no name ("explain how they map") is no comparison
        if pattern in _TITLES and any(_ASPECT.search(n) for n in names):
            continue
        if any(set(a.split()) < set(b.split()) for a in names for b in names):
            return ()  # a thing and a part of it ("Aggregate and Aggregate Root") are no pair
        last_words = [n.split()[-1] for n in names if n.isascii()]
        heads = {w for w in last_words if last_words.count(w) > 1} | set(_GENERIC)
        return tuple(_aliases(n, heads) for n in dict.fromkeys(names))
    return ()


def _pattern(alias: str) -> re.Pattern[str]:
    """An alias as its words apart or together ("non clustered", "non-clustered",
    "nonclustered"); a Latin alias never inside another word."""
    words = [re.escape(w) for w in re.split(r"[\s\-_]+", alias) if w]
    body = r"[\s\-_]*".join(words)
    before = r"(?<![a-z0-9])" if _LATIN.match(alias[:1]) else ""
    after = r"(?![a-z0-9])" if _LATIN.match(alias[-1:]) else ""
    return re.compile(before + body + after)


@lru_cache(maxsize=1024)
def _patterns(names: tuple[tuple[str, ...], ...]) -> tuple[tuple[int, re.Pattern[str]], ...]:
    """Every alias's pattern with its thing, longest first: a longer name is read before a
    name inside it ("non-clustered" before "clustered")."""
    pairs = [(i, alias) for i, aliases in enumerate(names) for alias in aliases]
    pairs.sort(key=lambda p: -len(p[1]))
    return tuple((i, _pattern(alias)) for i, alias in pairs)


@lru_cache(maxsize=16384)
def named_things(names: Names, text: str) -> tuple[frozenset[int], str]:
    """Which things ``text`` names, and the text without their names."""
    rest, found = text.lower(), set()
    for i, pattern in _patterns(names):
        if pattern.search(rest):
            found.add(i)
            rest = pattern.sub(" ", rest)
    return frozenset(found), rest


def _shared(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a) if a else 0.0


def states_another_point(point: str, span: str, named: str, compared: Compared) -> bool:
    """The span says more of another point of the question, one about ``named`` (what the
    span names in the point's thing's place), than of ``point``: it states that point
    ("Decode 阶段一次只生成一个 token" is the Decode point's, not a swap of the Prefill one)."""
    s_units = _units(span.lower())
    own = _shared(_units(point.lower()), s_units)
    return any(other != point and named.lower() in other.lower()
               and _shared(_units(other.lower()), s_units) >= own + MARGIN
               for other in compared.points)


def swapped_thing(point: str, span: str, compared: Compared) -> tuple[str, str] | None:
    """``(the point's thing, the span's)`` when the span says what the point says of one
    compared thing of another one, and not of the point's; else None."""
    if not compared.names:
        return None
    mine, p_rest = named_things(compared.names, point)
    # a thing named as the contrast ("而不是 GPT 那种", "unlike WHERE") is not what is said
    said, s_rest = named_things(compared.names, _CONTRAST.sub(" ", span.lower()))
    if len(mine) != 1 or len(said) != 1 or mine == said:
        return None
    p_units, s_units = _units(p_rest), _units(s_rest)
    shared = _shared(p_units, s_units)
    if shared < MIN_SHARED or len(p_units & s_units) < MIN_UNITS:
        return None
    # a span that says what another point says of its thing states that point
    for other in compared.points:
        theirs, o_rest = named_things(compared.names, other)
        if other != point and theirs == said and \
                _shared(_units(o_rest), s_units) + MARGIN > shared:
            return None
    (x,), (y,) = mine, said
    return compared.names[x][0], compared.names[y][0]
