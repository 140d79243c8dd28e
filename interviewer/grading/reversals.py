"""Three orders a span can turn round: a transition, a move and a trade.

``reversed_transition``: both texts move from one state to another ("从 HBM 加载到 SRAM",
"O(n^2) → O(n)", "从高精度转换为低精度"), and the span starts where the point ends and ends
where it starts. States are read as members of the sets of alternatives
(:mod:`interviewer.grading.alternatives`), so "FP32/FP16" and "INT8/INT4" are told apart.

``reversed_move``: the span moves a thing to another place than the point's, out of the
point's ("把 CPU 上的数据搬进 GPU" against "卸载到 CPU").

``reversed_trade``: both trade one of time and space for the other ("以时间换空间", "空间换
时间", "trades compute for memory"), the other way round.

``reversed_mapping``: both map one thing to another ("maps IP to MAC", "domain → IP",
"把域名解析成 IP"), and the span maps the point's target to its source.

``reversed_steps``: both name two steps in order ("先更新数据库，然后再删除缓存", "update the
cache first and then the database"), and the span puts the point's second first.

Plain ``re`` only: no numpy.
"""

from __future__ import annotations

import re
from functools import lru_cache

from interviewer.content.language import language_of
from interviewer.grading.alternatives import _TRANSITION, ALTERNATIVES, _members
from interviewer.grading.claim_text import _terms, _units

_CONNECTOR = re.compile(r"\s*(?:(?:下降|上升|降低|提升|增加|减少|缩小|扩大)?(?:到|至|为|成)|→|->|=>|⇒|"
                        r"\b(?:down to|up to|to|into)\b)")
_CLAUSE_END = re.compile(r"[，,；;。!?！？]|\.(?!\w)")
_REACH = 30  # characters of an end state


@lru_cache(maxsize=16384)
def _named(text: str) -> frozenset[tuple[int, int]]:
    """``(set, member)`` of every alternative the (lower-cased) text names."""
    return frozenset((g, i) for g in range(len(ALTERNATIVES)) for i in _members(text, g))


@lru_cache(maxsize=16384)
def transitions(text: str) -> tuple[tuple[frozenset, frozenset], ...]:
    """``(members of the start, members of the end)`` of each transition in ``text``."""
    lowered = text.lower()
    out = []
    for pattern in _TRANSITION:
        for m in pattern.finditer(lowered):
            rest = lowered[m.end():]
            joint = _CONNECTOR.match(rest)
            if not joint:
                continue
            end = _CLAUSE_END.split(rest[joint.end():joint.end() + _REACH], maxsplit=1)[0]
            start, stop = _named(m.group(1)), _named(end)
            if start and stop and not start & stop:
                out.append((start, stop))
    return tuple(out)


def reversed_transition(point: str, span: str) -> bool:
    """The span goes from the point's end state to its start state."""
    return any(s_start & p_end and s_stop & p_start and not s_stop & p_end
               for p_start, p_end in transitions(point)
               for s_start, s_stop in transitions(span))


# a move and where it goes: "卸载到 CPU", "搬进 GPU 显存", "moves … to CPU", "loads … into GPU"
_MOVE = re.compile(r"(?:卸载|搬|移|挪|放|加载|拷贝|复制|offload(?:s|ed)?|mov(?:e|es|ed)|"
                   r"load(?:s|ed)?|cop(?:y|ies|ied))[^，,；;。!?！？]{0,40}?(?:到|进|入|至|\binto\b|\bto\b)"
                   r"\s*([^，,；;。!?！？]{1,12})")


@lru_cache(maxsize=16384)
def _destinations(text: str) -> frozenset[tuple[int, int]]:
    return frozenset().union(*(_named(m.group(1)) for m in _MOVE.finditer(text.lower())))


def reversed_move(point: str, span: str) -> bool:
    """The span moves a thing to another place of the same set, out of the place the point
    moves it to ("搬进 GPU" from "CPU" against "卸载到 CPU")."""
    mine, theirs = _destinations(point), _destinations(span)
    if not mine or not theirs or mine & theirs:
        return False
    sets = {g for g, _ in mine}
    return any(g in sets for g, _ in theirs) and bool(mine & _named(span.lower()))


# ---------------------------------------------------------------- trades

_TRADE_ZH = re.compile(r"(?:以|用|拿)?([一-龥]{1,3})换([一-龥]{1,3})")
_TRADE_EN = re.compile(r"\btrad(?:e|es|ed|ing)\s+(?:off\s+)?(?:some\s+|extra\s+|more\s+)?"
                       r"([a-z]+)\s+for\s+(?:some\s+|less\s+|more\s+)?([a-z]+)"
                       r"|\b([a-z]+)-for-([a-z]+)\b")
_SIDES = (("space", re.compile(r"空间|显存|内存|存储|memory|space|storage")),
          ("time", re.compile(r"时间|计算|算力|速度|compute|computation|time|speed")))


def _side(text: str) -> str | None:
    return next((name for name, pattern in _SIDES if pattern.search(text)), None)


@lru_cache(maxsize=16384)
def _trades(text: str) -> frozenset[tuple[str, str]]:
    """``(what is given, what is got)`` of each time-for-space trade in ``text``."""
    lowered = text.lower()
    out = set()
    for m in [*_TRADE_ZH.finditer(lowered), *_TRADE_EN.finditer(lowered)]:
        given, got = (g for g in m.groups() if g is not None)
        sides = _side(given), _side(got)
        if None not in sides and sides[0] != sides[1]:
            out.add(sides)
    return frozenset(out)


def reversed_trade(point: str, span: str) -> bool:
    """The span gives what the point gets for what the point gives, and never the same."""
    mine, theirs = _trades(point), _trades(span)
    return bool(theirs) and not mine & theirs and any((b, a) in theirs for a, b in mine)


# ---------------------------------------------------------------- steps

_STEP = r"[^，,；;。!?！？]{1,20}?"
_STEPS_ZH = re.compile(f"先({_STEP})[，,]?\\s*(?:然后再|然后|之后再|之后|随后|接着|再|(?<![之然以])后(?![端台续面]))"
                       r"([^，,；;。!?！？]{1,20})")
_STEPS_EN = re.compile(r"\bfirst\s+([^,;.!?]{1,60}?)\s*,?\s*(?:and\s+)?then\s+([^,;.!?]{1,60})"
                       r"|((?:\b[\w'-]+\s+){1,6}?)first\s*,?\s*(?:and\s+)?then\s+([^,;.!?]{1,60})")


@lru_cache(maxsize=16384)
def steps(text: str) -> tuple[tuple[str, str], ...]:
    """``(first step, second step)`` of each "先 A 再 B", "first A, then B", "A first, then B"."""
    lowered = text.lower()
    out = [(m.group(1), m.group(2)) for m in _STEPS_ZH.finditer(lowered)]
    out += [tuple(g for g in m.groups() if g is not None) for m in _STEPS_EN.finditer(lowered)]
    return tuple((a, b) for a, b in out if a.strip() and b.strip())


def reversed_steps(point: str, span: str) -> bool:
    """The span puts first what the point does second, and second what it does first."""
    return _crossed(steps(point), steps(span), language_of(point) == language_of(span))


def _crossed(mine: tuple[tuple[str, str], ...], theirs: tuple[tuple[str, str], ...],
             same_language: bool) -> bool:
    """One of ``theirs`` pairs holds each side of one of ``mine`` on the other side: read in
    content units within one language, in glossary terms and Latin words across languages;
    what both sides of a pair name tells no order."""
    def read(text: str) -> set[str]:
        return _units(text) if same_language else set(_terms(text)) | _latin(text)

    for p_first, p_then in mine:
        pa, pb = read(p_first), read(p_then)
        pa, pb = pa - pb, pb - pa
        for s_first, s_then in theirs:
            sa, sb = read(s_first), read(s_then)
            sa, sb = sa - sb, sb - sa
            crossed, straight = (len(pa & sb), len(pb & sa)), len(pa & sa) + len(pb & sb)
            if min(crossed) and sum(crossed) > straight:
                return True
    return False


def _latin(text: str) -> set[str]:
    return {u for u in _units(text) if u.isascii()}


# a mapping from one thing to another: "maps IP to MAC", "domain → IP", "把域名解析成 IP"
_MAPS_EN = re.compile(r"\b(?:maps?|mapping|mapped|translat(?:e|es|ed|ing)|convert(?:s|ed|ing)?|"
                      r"resolv(?:e|es|ed|ing)|turn(?:s|ed|ing)?)\s+([^,;.!?]{1,40}?)\s+(?:to|into)\s+"
                      r"([^,;.!?]{1,40})")
_MAPS_ARROW = re.compile(r"(?:^|[=:：，,;；])\s*([^=:：，,;；→]{1,30}?)\s*(?:→|->|=>)\s*([^,;。，；!?→]{1,30})")
_MAPS_ZH = re.compile(r"把([^，,；;。]{1,20}?)(?:映射|转换|解析|翻译|转化|变)(?:成|为|到)([^，,；;。]{1,20})")


@lru_cache(maxsize=16384)
def mappings(text: str) -> tuple[tuple[str, str], ...]:
    """``(from, to)`` of each mapping ``text`` states."""
    lowered = text.lower()
    return tuple((m.group(1), m.group(2)) for pattern in (_MAPS_EN, _MAPS_ARROW, _MAPS_ZH)
                 for m in pattern.finditer(lowered) if m.group(1).strip() and m.group(2).strip())


def reversed_mapping(point: str, span: str) -> bool:
    """The span maps the point's target to its source."""
    return _crossed(mappings(point), mappings(span), language_of(point) == language_of(span))
