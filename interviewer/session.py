"""Choosing which questions an interview asks."""

from __future__ import annotations

import random
from collections.abc import Sequence

from interviewer.bank import Bank, Question
from interviewer.errors import InputError


def plan_interview(bank: Bank, *, tags: Sequence[str] = (), count: int | None = None,
                   shuffle: bool = False, rng: random.Random | None = None) -> list[Question]:
    """The questions to ask, in order: filtered by tags (any match), shuffled, capped."""
    questions = list(bank.questions)
    if tags:
        wanted = {t.lower() for t in tags}
        questions = [q for q in questions if wanted & {t.lower() for t in q.tags}]
        if not questions:
            known = sorted({t for q in bank.questions for t in q.tags})
            raise InputError(f"no question in bank '{bank.id}' has tag {', '.join(tags)}",
                             hint=f"known tags: {', '.join(known) or 'none'}")
    if shuffle:
        (rng or random.Random()).shuffle(questions)
    if count is not None:
        if count < 1:
            raise InputError("--count must be at least 1")
        questions = questions[:count]
    return questions
