"""Human-labeled answers: the ground truth that calibration and benchmarks measure against.

One JSON object per line::

    {"id": "...", "bank": "ai-infra-zh", "question_id": "q07", "kind": "good",
     "lang": "zh", "answer": "...", "labels": {"q07.1a2b3c": 1, "q07.4d5e6f": 0.5, ...}}

Labels are 1 (stated), 0.5 (vague, or a bare name where substance is needed), 0 (absent or
wrong), one per rubric point of the question.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import numpy as np

from interviewer.content.catalog import BankCatalog

from interviewer.content.bank import read_text
from interviewer.errors import InputError

ALLOWED = (0, 0.5, 1)


@dataclass(frozen=True)
class LabeledAnswer:
    id: str
    bank: str
    question_id: str
    kind: str
    lang: str
    answer: str
    labels: dict[str, float]


def load_labeled(path: Path) -> list[LabeledAnswer]:
    out: list[LabeledAnswer] = []
    for n, line in enumerate(read_text(path, InputError).split("\n"), start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"malformed JSON: {exc.msg}", path=path, line=n) from None
        if not isinstance(raw, dict):
            raise InputError("expected a JSON object", path=path, line=n)
        missing = [k for k in ("id", "bank", "question_id", "answer", "labels") if k not in raw]
        if missing:
            raise InputError(f"missing {', '.join(missing)}", path=path, line=n)
        labels = raw["labels"]
        if not isinstance(labels, dict) or not labels:
            raise InputError("'labels' must be a non-empty object", path=path, line=n)
        for pid, value in labels.items():
            if value not in ALLOWED or isinstance(value, bool):
                raise InputError(f"label of '{pid}' must be 0, 0.5 or 1", path=path, line=n)
        out.append(LabeledAnswer(id=str(raw["id"]), bank=str(raw["bank"]),
                                 question_id=str(raw["question_id"]),
                                 kind=str(raw.get("kind", "")), lang=str(raw.get("lang", "")),
                                 answer=str(raw["answer"]),
                                 labels={str(k): float(v) for k, v in labels.items()}))
    return out


def rubrics_for(items: list[LabeledAnswer], catalog: BankCatalog) -> dict[str, object]:
    """bank id -> Rubric, loaded once per bank."""
    from interviewer.content.bank_rubric import rubric_for_bank

    return {b: rubric_for_bank(catalog.resolve(b)).rubric for b in {i.bank for i in items}}


def collect_features(grader, paths: list[Path], catalog: BankCatalog, err: TextIO,
                     evidence: list | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Evidence features of every labeled point, paired with its label. Every answer's
    evidence is also appended to ``evidence`` when given (the cut-offs are fitted on it)."""
    rows: list[np.ndarray] = []
    labels: list[float] = []
    for path in paths:
        items = load_labeled(path)
        rubrics = rubrics_for(items, catalog)
        for item in items:
            rubric = rubrics[item.bank]
            qr = rubric.question(item.question_id)
            ev = grader.evidence(rubric, item.question_id, item.answer)
            if evidence is not None:
                evidence.append(ev)
            stale = set(item.labels) - {p.id for p in qr.points}
            if stale:
                err.write(f"{path}: answer '{item.id}': skipped, labels name points not in "
                          f"the rubric ({', '.join(sorted(stale))})\n")
                continue
            if ev.rows.shape[1] == 0:
                continue
            for point, row in zip(qr.points, ev.rows):
                if point.id in item.labels:
                    rows.append(row)
                    labels.append(item.labels[point.id])
    if not rows:
        return np.zeros((0, 0)), np.zeros(0)
    return np.vstack(rows), np.asarray(labels)
