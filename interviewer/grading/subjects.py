"""Subjects: a point that says one thing of each of several named things ("TCP 面向连接；UDP
是无连接的", "InnoDB 支持外键，而 MyISAM 不支持") is read clause by clause against the answer's
clauses about the same thing, so that what it denies of one is not held against what the
answer asserts of another.

A clause's subject is the Latin name it starts with (TCP, "而 MyISAM"), or one of the things
the question compares, in either language and however it is written ("map 插入不失效" when
the question compares std::map and std::unordered_map); a clause that starts otherwise goes
on about the subject before it ("UDP 是无连接的，即发送数据之前不需要建立连接"). A label before
the first subject ("前缀缓存：PagedAttention 不支持；RadixAttention 支持") says what the point
is about, not of which thing. Only points with two subjects or more, each in clauses of their
own, are read this way: in Chinese a Latin word at the start of a clause is a name; in
English only the compared things are.

Plain ``re`` only.
"""

from __future__ import annotations

import re
from functools import lru_cache

from interviewer.content.language import language_of
from interviewer.grading.compared import Names

_CLAUSE = re.compile(r"[，,；;。!?！？\n]|\.(?!\w)")
# the name a clause starts with, after a word that joins it to the one before ("而 MyISAM");
# a thing's name starts with a capital ("TCP", "InnoDB"): "all-reduce 同步梯度" says what is done
_LEADING = re.compile(r"\s*(?:而且|而|但是|但|and|while|whereas|but)?\s*([A-Z][A-Za-z0-9]+)(?![A-Za-z0-9_\-])")


_JOINER = re.compile(r"\s*(?:(?:而且|而|但是|但|and|while|whereas|but)\s*)?(?:the\s+)?", re.IGNORECASE)
# "前缀缓存：" before the first thing: what the point is about
_LABEL = re.compile(r"^\s*[^：:，,。；;]{1,12}[：:]\s*")

@lru_cache(maxsize=1024)
def _longest_first(names: Names) -> tuple[tuple[int, str], ...]:
    """Every alias with its thing, longest first: "unordered_map" is read before "map"."""
    return tuple(sorted(((i, a) for i, aliases in enumerate(names) for a in aliases),
                        key=lambda p: -len(p[1])))


def _leading_name(clause: str, names: Names = (), latin: bool = True) -> str | None:
    """The thing a clause starts with: a compared thing (as ``#<index>``), else, when
    ``latin``, a capitalised Latin name (lower-cased)."""
    if names:
        lowered = clause.lower()
        at = _JOINER.match(lowered).end()
        for i, alias in _longest_first(names):
            end = at + len(alias)
            if lowered.startswith(alias, at) and not (
                    alias[-1:].isascii() and alias[-1:].isalnum()
                    and lowered[end:end + 1].isascii() and (lowered[end:end + 1].isalnum()
                                                            or lowered[end:end + 1] == "_")):
                return f"#{i}"
    if not latin:
        return None
    m = _LEADING.match(clause)
    return m.group(1).lower() if m else None


def _by_subject(text: str, subjects: frozenset[str] | None = None, names: Names = (),
                latin: bool = True) -> list[tuple[str | None, str]]:
    """Each clause of ``text`` with its subject: the name it starts with (one of ``subjects``
    when given), else the subject before it ("类似 div" goes on about the subject before).
    A label before the first clause's name is left out."""
    out: list[tuple[str | None, str]] = []
    current: str | None = None
    for n, clause in enumerate(_CLAUSE.split(text)):
        if not clause.strip():
            continue
        if n == 0 or current is None:
            label = _LABEL.match(clause)
            if label and _leading_name(clause[label.end():], names, latin):
                clause = clause[label.end():]
        name = _leading_name(clause, names, latin)
        if name and (subjects is None or name in subjects):
            current = name
        out.append((current, clause))
    return out


@lru_cache(maxsize=4096)
def point_subjects(point: str, names: Names = ()) -> tuple[tuple[str, str], ...]:
    """``(subject, its clauses)`` of a point that speaks of two named things or more, each in
    clauses of its own; empty for any other point."""
    latin = language_of(point) == "zh"  # an English clause starts with a word, not a name
    if not latin and not names:
        return ()
    grouped: dict[str, list[str]] = {}
    for subject, clause in _by_subject(point, names=names, latin=latin):
        if subject is None:
            return ()  # a clause before the first subject: about all of them
        grouped.setdefault(subject, []).append(clause)
    if len(grouped) < 2:
        return ()
    return tuple((s, "，".join(c)) for s, c in grouped.items())


def paired_by_subject(point: str, span: str, names: Names = ()) -> list[tuple[str, str]] | None:
    """``(the point's clauses about a thing, the span's clauses about it)`` for each thing
    both speak of, when the point speaks of several in clauses of their own and the span of
    at least one of them; else None (read the two whole). ``names``: the things the
    question compares."""
    subjects = point_subjects(point, names)
    if not subjects:
        return None
    own = dict(subjects)
    said: dict[str, list[str]] = {}
    for subject, clause in _by_subject(span, frozenset(own), names):
        if subject is not None:
            said.setdefault(subject, []).append(clause)
    if not said:
        return None
    return [(own[s], "，".join(c)) for s, c in said.items()]
