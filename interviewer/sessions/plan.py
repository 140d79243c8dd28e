"""What an interview asks: the plan, and the setup choices it is made from."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from interviewer.content.bank import Bank, Question
from interviewer.errors import InputError

SETUP_FILE = "last_setup.json"


@dataclass(frozen=True)
class SetupChoices:
    """What the setup screen asks; remembered between runs."""

    bank: str
    tags: tuple[str, ...] = ()
    count: int | None = None
    shuffle: bool = False
    time_limit: float | None = 300.0  # seconds per question; None = untimed
    total_limit: float | None = None  # seconds for the whole interview
    followups: bool = False
    drill: bool = False  # questions with due or weak points first, instead of the bank order


@dataclass(frozen=True)
class InterviewPlan:
    bank: Bank
    questions: tuple[Question, ...]
    time_limit: float | None = 300.0
    total_limit: float | None = None
    followups: bool = False
    tags: tuple[str, ...] = field(default=())


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


def make_plan(bank: Bank, choices: SetupChoices, rng: random.Random | None = None) -> InterviewPlan:
    questions = plan_interview(bank, tags=choices.tags, count=choices.count,
                               shuffle=choices.shuffle, rng=rng)
    return InterviewPlan(bank=bank, questions=tuple(questions), time_limit=choices.time_limit,
                         total_limit=choices.total_limit, followups=choices.followups,
                         tags=choices.tags)


def load_choices(data_dir: Path, default_bank: str) -> SetupChoices:
    """The last setup, or defaults; a damaged file is ignored rather than fatal."""
    try:
        raw = json.loads((data_dir / SETUP_FILE).read_text(encoding="utf-8"))
        raw["tags"] = tuple(raw.get("tags") or ())
        for key in ("time_limit", "total_limit"):
            value = raw.get(key)
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                      or not math.isfinite(value) or value <= 0):
                raise ValueError(f"{key} no clock can count down: {value!r}")
        return SetupChoices(**raw)
    except (OSError, ValueError, TypeError):
        return SetupChoices(bank=default_bank)


def save_choices(data_dir: Path, choices: SetupChoices) -> bool:
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        tmp = data_dir / (SETUP_FILE + ".tmp")
        tmp.write_text(json.dumps(asdict(choices), ensure_ascii=False), encoding="utf-8")
        tmp.replace(data_dir / SETUP_FILE)
    except OSError:
        return False
    return True
