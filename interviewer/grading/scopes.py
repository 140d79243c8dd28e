"""Whether two texts speak of one thing's inside and of what lies across many of it.

"Kafka guarantees ordering within a partition" and "across partitions you get no ordering
guarantee" agree: the denial holds of another scope. Within, inside, in a single, 分区内,
单个分区里 name the inside of a thing; across, between, among, 跨分区, 分区之间 what lies
across several of it.

Plain ``re`` only.
"""

from __future__ import annotations

import re
from functools import lru_cache

from interviewer.grading.polarity import _PLAIN_CLAUSE

_FILL_EN = r"(?:(?:a|an|the|one|single|each|given|same|different|multiple|several|all|many)\s+)*"
_INSIDE_EN = re.compile(r"\b(?:within|inside)\s+" + _FILL_EN + r"([a-z][a-z0-9\-]+)|"
                               r"\bin\s+(?:a\s+single|one|a\s+given|the\s+same|each)\s+"
                               r"([a-z][a-z0-9\-]+)")
_ACROSS_EN = re.compile(r"\b(?:across|between|among|amongst)\s+" + _FILL_EN + r"([a-z][a-z0-9\-]+)")
# 内 of 内存, 内容, 内核 is no inside
_INSIDE_ZH = re.compile(r"([一-龥]{2})(?:的)?(?:内部|之内|里面|内(?![存容核置网涵]))")
_ACROSS_ZH = re.compile(r"跨(?:不同的?|多个|各个?)?([一-龥]{2})|([一-龥]{2})之间")


def _noun(word: str) -> str:
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def _scopes(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The things whose inside ``text`` speaks of, and those it speaks across."""
    lowered = text.lower()
    inside = {_noun(m.group(1) or m.group(2)) for m in _INSIDE_EN.finditer(lowered)}
    inside |= {m.group(1) for m in _INSIDE_ZH.finditer(lowered)}
    across = {_noun(m.group(1)) for m in _ACROSS_EN.finditer(lowered)}
    across |= {m.group(1) or m.group(2) for m in _ACROSS_ZH.finditer(lowered)}
    return frozenset(inside), frozenset(across)


_point_scopes = lru_cache(maxsize=4096)(_scopes)
_span_scopes = lru_cache(maxsize=16384)(_scopes)


_DENIES = re.compile(r"[不没无非]|\b(?:no|not|never|none|without)\b|n't\b")


def _denying_clauses(span: str) -> str:
    """The clauses of ``span`` that deny something: where a scope spares a denial."""
    return "，".join(c for c in _PLAIN_CLAUSE.split(span) if _DENIES.search(c.lower()))


def other_scope(point: str, span: str) -> bool:
    """One side speaks of the inside of a thing the other speaks across (the span in a clause
    that denies), and neither speaks of it the other's way too."""
    p_in, p_across = _point_scopes(point)
    s_in, s_across = _span_scopes(_denying_clauses(span))
    return bool((p_in & s_across) - s_in - p_across or (p_across & s_in) - s_across - p_in)
