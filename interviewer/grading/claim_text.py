"""Reading claim texts: content units (Chinese bigrams, English stems, glossary terms) and
a point's topic label. Shared by the contradiction checks (:mod:`interviewer.grading.claims`,
:mod:`interviewer.grading.alternatives`) and the bare-name checks (:mod:`interviewer.grading.naming`).

Plain ``re`` only: no numpy.
"""

from __future__ import annotations

import re
from functools import lru_cache

from interviewer.content.language import CJK_CHARS

_CJK_RUN = re.compile(f"[{CJK_CHARS}]+")
CJK_RUN_START = re.compile(f"[{CJK_CHARS}]")
_WORD = re.compile(r"[a-z][a-z0-9'\-]*|[0-9]+")
_DOTTED = re.compile(r"\b[a-z][a-z0-9_\-]*(?:\.[a-z][a-z0-9_\-]*){2,}\b")
_BRACKETS = re.compile(r"[（(][^（）()]*[)）]")

_STOP_EN = frozenset(
    "a an the of to in on for and or is are be by with as at it its this that from into so "
    "than then can per each all any use used using when which what how do does did not no "
    "will would should could may might must has have had been being was were there their "
    "they them only just also very much more less".split())


_DOUBLED = re.compile(r"(?<=..)([b-df-hj-km-rtv-y])\1$")  # not ll, ss, zz, ff, nor "add"


def _stem(word: str) -> str:
    """Enough stemming that "stores", "stored", "storing" and "store" meet, and "preferred",
    "prefers"; "queries", "copied" and "query", "copy"."""
    if len(word) > 4 and word.endswith(("ies", "ied")):
        return word[:-3] + "y"
    if len(word) > 5 and word.endswith("ing"):
        word = _DOUBLED.sub(r"\1", word[:-3])
    elif len(word) > 4 and word.endswith("ed"):
        word = _DOUBLED.sub(r"\1", word[:-2])
    elif len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes")):
        word = word[:-2]
    elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    return word[:-1] if len(word) > 4 and word.endswith("e") else word


def _units(text: str) -> set[str]:
    """Content units of a piece of text: CJK bigrams and stemmed English words."""
    out: set[str] = set()
    for run in _CJK_RUN.findall(text):
        out.update(run[i:i + 2] for i in range(len(run) - 1))
        if len(run) == 1:
            out.add(run)
    lowered = text.lower()
    # a setting's dotted name is one thing: max.poll.records is not max.poll.interval.ms
    out.update(_DOTTED.findall(lowered))
    lowered = _DOTTED.sub(" ", lowered)
    out.update(_stem(w) for w in _WORD.findall(lowered) if w not in _STOP_EN)
    return out


# "不支持删除：…" starts with a claim, not a topic ("不可抢占：…" names one)
_DENYING_HEAD = re.compile(r"\s*不(?!可)")


def _body(point: str) -> str:
    """A point without its topic label: "拓扑感知：未充分利用…" asserts only what follows."""
    head, sep, rest = point.partition("：") if "：" in point else point.partition(": ")
    return rest if sep and rest.strip() and len(head) <= 12 and not _DENYING_HEAD.match(head) \
        else point


def _label(point: str) -> str | None:
    """The topic label of a point written "label：claim" ("负载均衡：避免…")."""
    body = _body(point)
    return point[:len(point) - len(body)].rstrip("：: ") if body != point else None


@lru_cache(maxsize=16384)
def _terms(text: str) -> frozenset[str]:
    """The glossary sets a short text names, as units that meet across languages ("显存占用"
    and "memory usage" are one term)."""

    return frozenset(f"t:{set_id}" for set_id, _ in named_sets(text))


@lru_cache(maxsize=16384)
def named_sets(text: str) -> tuple[tuple[int, str], ...]:
    """``glossary().named_sets(text)``, kept per text: answers' clauses are read many times."""
    from interviewer.grading.glossary import glossary

    return tuple(glossary().named_sets(text))
