"""Where a key point comes from: the sentence of the reference answer that states it.

Shown next to a missed point ("what should I have said?"). A rubric built now keeps each
point's sentence as its ``source``; for an older rubric without one, the sentence of the
reference answer that shares most of the point's wording stands in.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from interviewer.content.segment import BULLET_RE, split_sentences

if TYPE_CHECKING:
    from interviewer.content.rubric import QuestionRubric

_NOISE = re.compile(r"[\W_]+")


def _bigrams(text: str) -> set[str]:
    t = _NOISE.sub("", text.lower())
    return {t[i:i + 2] for i in range(len(t) - 1)} or ({t} if t else set())


def answer_sentences(answer: str) -> list[str]:
    """The reference answer's sentences as written (bullet markers off), in order."""
    out = []
    for raw in answer.split("\n"):
        line = raw.strip()
        if BULLET_RE.match(line):
            line = BULLET_RE.sub("", line, count=1).strip()
        out += [s.strip() for s in split_sentences(line) if s.strip()]
    return out


def best_sentence(text: str, answer: str) -> str | None:
    """The sentence of ``answer`` that shares most of ``text``'s wording (None: none does)."""
    want = _bigrams(text)
    best, best_score = None, 0.0
    for sentence in answer_sentences(answer):
        score = len(want & _bigrams(sentence)) / len(want) if want else 0.0
        if score > best_score or (score == best_score and best is not None
                                  and score > 0 and len(sentence) < len(best)):
            best, best_score = sentence, score
    return best


def point_sources(question: QuestionRubric, answer: str) -> dict[str, str]:
    """Point id -> its reference sentence: the rubric's ``source``, else found in ``answer``."""
    out: dict[str, str] = {}
    for p in question.points:
        source = p.source or (best_sentence(p.text, answer) if answer.strip() else None)
        if source:
            out[p.id] = source
    return out
