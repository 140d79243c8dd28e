"""Splitting Chinese and English text into sentences, clauses and list items.

Everything here respects brackets: ``混合精度训练（FP16/BF16）`` and ``GPTQ（权重逐层量化，
Hessian补偿）`` stay whole, because a point cut inside its parentheses means nothing alone.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache

from interviewer.content.language import CJK

_PAIRS = {"(": ")", "（": "）", "[": "]", "【": "】", "「": "」", "『": "』", "“": "”"}

SENTENCE_END = "。！？!?；;"
CLAUSE_SEP = "，,；;：:"
_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "cf.", "approx.", "Dr.", "Mr.", "Ms.", "No.")
BULLET_RE = re.compile(r"^\s*(?:[-*•·]|\d{1,2}[.)、](?!\d)|[（(]\d{1,2}[)）])\s*")


def has_cjk(text: str) -> bool:
    return bool(CJK.search(text))


_BRACKET_RE = re.compile("[" + re.escape("".join(_PAIRS) + "".join(_PAIRS.values())) + "]")


def _bracketed(text: str) -> list[tuple[int, int]]:
    """Character ranges ``[open, close]`` that lie inside brackets (quotes included), brackets
    themselves included; an unclosed bracket runs to the end.

    Grading segments every answer, so this visits only the bracket characters (found by one
    regex) instead of walking the text a character at a time.
    """
    stack: list[str] = []
    ranges: list[tuple[int, int]] = []
    opened = 0
    for m in _BRACKET_RE.finditer(text):
        ch, i = m.group(), m.start()
        if ch in _PAIRS:
            if not stack:
                opened = i
            stack.append(_PAIRS[ch])
        elif stack and ch == stack[-1]:
            stack.pop()
            if not stack:
                ranges.append((opened, i))
    if stack:
        ranges.append((opened, len(text)))
    return ranges


@lru_cache(maxsize=32)
def _char_class(chars: str) -> re.Pattern[str]:
    return re.compile("[" + re.escape(chars) + "]")


def top_level_positions(text: str, chars: str) -> list[int]:
    """Positions of any char of ``chars`` in ``text`` that is not inside brackets."""
    hits = [m.start() for m in _char_class(chars).finditer(text)]
    if not hits:
        return hits
    ranges = _bracketed(text)
    if not ranges:
        return hits
    starts = [lo for lo, _ in ranges]
    out = []
    for i in hits:
        k = bisect_right(starts, i) - 1
        if k < 0 or i > ranges[k][1]:
            out.append(i)
    return out


def split_top_level(text: str, separators: str) -> list[str]:
    """Split on any char of ``separators`` that is not inside brackets; drop empty parts."""
    parts, start = [], 0
    for i in top_level_positions(text, separators):
        parts.append(text[start:i])
        start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def has_top_level(text: str, chars: str) -> bool:
    return bool(top_level_positions(text, chars))


def _english_period_ends(text: str, i: int) -> bool:
    """Whether the '.' at ``i`` ends an English sentence (not 1.5, e.g., torch.compile)."""
    nxt = text[i + 1] if i + 1 < len(text) else ""
    if nxt and not nxt.isspace():
        return False
    before = text[: i + 1]
    return not any(before.endswith(a) for a in _ABBREVIATIONS)


def split_sentences(text: str) -> list[str]:
    """Sentences of mixed Chinese/English text; newlines always end a sentence.

    The terminator stays with its sentence so that quoting the evidence back reads naturally.
    """
    out: list[str] = []
    for line in text.split("\n"):
        start = 0
        for i in top_level_positions(line, SENTENCE_END + "."):
            if line[i] in SENTENCE_END or _english_period_ends(line, i):
                piece = line[start:i + 1].strip()
                if piece:
                    out.append(piece)
                start = i + 1
        tail = line[start:].strip()
        if tail:
            out.append(tail)
    return [s for s in out if strip_punct(s)]


def split_clauses(sentence: str) -> list[str]:
    """Clauses of one sentence, cut at top-level commas, semicolons and colons."""
    return [c for c in split_top_level(sentence, CLAUSE_SEP + SENTENCE_END + "、") if strip_punct(c)]


def strip_punct(text: str) -> str:
    """Text without surrounding whitespace, bullets and sentence punctuation."""
    text = BULLET_RE.sub("", text, count=1) if BULLET_RE.match(text) else text
    return text.strip().strip("。！？!?；;，,、.：: \t")


def segments(text: str) -> list[str]:
    """Candidate evidence spans of an answer: every sentence and every clause, deduplicated.

    Sentences carry context, clauses carry a single idea; a point is matched against
    both so that neither a long sentence nor a lone clause has to stand for the other.
    """
    seen: dict[str, None] = {}
    for sentence in split_sentences(text):
        s = strip_punct(sentence)
        if s:
            seen.setdefault(s, None)
        clauses = split_clauses(sentence)
        if len(clauses) > 1:
            for clause in clauses:
                c = strip_punct(clause)
                if c:
                    seen.setdefault(c, None)
    return list(seen)


def sentence_of(text: str, spans: list[str]) -> list[str]:
    """For each span of ``text``, the sentence it stands in (itself when it is a sentence)."""
    sentences = [strip_punct(s) for s in split_sentences(text)]
    return [next((s for s in sentences if span in s), span) for span in spans]


def evidence_spans(text: str) -> list[str]:
    """Everything a point may be matched against: the sentences and clauses of the text.

    Pairs of adjacent clauses were measured as extra spans (BENCHMARKS.md): no better agreement
    with labels, a third more encoding, so they are not used.
    """
    return segments(text)
