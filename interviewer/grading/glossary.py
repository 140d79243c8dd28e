"""Equivalent technical terms across shorthand, English and Chinese.

A rubric point written as "因果掩码" is stated by an answer that says "causal mask", and
"exactly-once" by one that says "恰好一次". ``glossary.json`` holds sets of such terms,
written from general domain knowledge (not fitted to labeled answers); this module finds
the sets a text names and whether another text names any member of the same set.

Plain ``re`` and ``json`` only: no numpy.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from interviewer.content.language import CJK

_FILE = Path(__file__).with_name("glossary.json")
_SHORT = 4  # Latin aliases this short match as whole words only ("EP" is not inside "step")


_UNSQUASHED = re.compile(r"[^a-z0-9\u3400-\u9fff\uf900-\ufaff]")


def squash(text: str) -> str:
    """Lowercase letters, digits and CJK only: ``Flash Attention`` matches ``FlashAttention``."""
    return _UNSQUASHED.sub("", text.lower())


@dataclass(frozen=True)
class Term:
    """One alias of a set: how to find it in a text."""

    set_id: int
    alias: str
    pattern: re.Pattern[str] | None  # whole-word match for short Latin aliases
    squashed: str

    def found_in(self, lowered: str, squashed: str) -> bool:
        if self.pattern is not None:
            return bool(self.pattern.search(lowered))
        return self.squashed in squashed


@dataclass(frozen=True)
class Glossary:
    terms: tuple[Term, ...]  # longest alias first, so "tensor parallelism" wins over "tensor"
    sets: tuple[tuple[str, ...], ...]
    by_set: dict[int, tuple[Term, ...]] = field(default_factory=dict, compare=False, hash=False)
    # term indexes by the first three characters of their squashed name (two for names of
    # two), and those shorter: a text is checked only against the terms that can be in it
    by_start: dict[str, tuple[int, ...]] = field(default_factory=dict, compare=False,
                                                 hash=False, repr=False)
    short: tuple[int, ...] = field(default=(), compare=False, hash=False, repr=False)

    def named_sets(self, text: str) -> list[tuple[int, str]]:
        """``(set id, alias as written)`` for every set ``text`` names, longest alias first;
        an alias inside a longer one already found does not count again."""
        lowered, squashed = text.lower(), squash(text)
        candidates = set(self.short)
        for i in range(len(squashed) - 1):
            candidates.update(self.by_start.get(squashed[i:i + 2], ()))
            candidates.update(self.by_start.get(squashed[i:i + 3], ()))
        found: dict[int, str] = {}
        taken: list[str] = []
        for k in sorted(candidates):  # the terms' order: longest name first
            term = self.terms[k]
            if term.set_id in found or any(term.squashed in t for t in taken):
                continue
            if term.found_in(lowered, squashed):
                found[term.set_id] = term.alias
                taken.append(term.squashed)
        return list(found.items())

    def names_set(self, set_id: int, lowered: str, squashed: str) -> bool:
        """Whether a text (given lower-cased and squashed) names any member of the set."""
        return any(t.found_in(lowered, squashed) for t in self.by_set[set_id])


def _term(set_id: int, alias: str) -> Term | None:
    sq = squash(alias)
    if not sq:
        return None
    pattern = None
    if not CJK.search(alias) and len(sq) <= _SHORT:
        pattern = re.compile(r"(?<![a-z0-9])" + re.escape(alias.lower()) + r"(?![a-z0-9])")
    return Term(set_id, alias, pattern, sq)


@lru_cache(maxsize=1)
def glossary() -> Glossary:
    data = json.loads(_FILE.read_text(encoding="utf-8"))
    sets = tuple(tuple(str(a) for a in s) for s in data["sets"])
    terms = [t for i, s in enumerate(sets) for a in s if (t := _term(i, a)) is not None]
    terms.sort(key=lambda t: -len(t.squashed))
    by_set: dict[int, list[Term]] = {}
    for term in terms:
        by_set.setdefault(term.set_id, []).append(term)
    by_start: dict[str, list[int]] = {}
    short: list[int] = []
    for k, term in enumerate(terms):
        if len(term.squashed) < 2:
            short.append(k)
        else:
            by_start.setdefault(term.squashed[:3], []).append(k)
    return Glossary(tuple(terms), sets, {k: tuple(v) for k, v in by_set.items()},
                    {k: tuple(v) for k, v in by_start.items()}, tuple(short))
