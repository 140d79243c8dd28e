"""Rubrics: the key points of each question, and their YAML file.

A rubric holds, per question, its key points (text, weight, group, where each came from).
Points are extracted from reference answers by :mod:`interviewer.content.extract` or written
by hand (docs/rubric-format.md); :mod:`interviewer.content.bank_rubric` finds the rubric a bank
gets.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from interviewer.content.bank import read_text
from interviewer.content.safe_yaml import load_yaml, text_value
from interviewer.errors import RubricError

GROUP_SEP = " › "


HAND = "hand"


SOURCES = ("extracted", HAND)


@dataclass(frozen=True)
class Point:
    id: str
    text: str
    group: str | None = None
    weight: float = 1.0
    keywords: tuple[str, ...] = ()
    source: str | None = None  # the reference answer's sentence the point was taken from


@dataclass(frozen=True)
class QuestionRubric:
    id: str
    question: str
    source_sha256: str
    points: tuple[Point, ...]
    # "hand": written by a person (a bank author's key points); "rubric build" keeps it
    source: str = "extracted"

    def point(self, point_id: str) -> Point:
        for p in self.points:
            if p.id == point_id:
                return p
        raise KeyError(point_id)


@dataclass(frozen=True)
class Rubric:
    bank: str
    questions: tuple[QuestionRubric, ...]
    # Fingerprint of each question's points as the extractor wrote them; a mismatch
    # means a person edited the points by hand.
    generated: dict[str, str] = field(default_factory=dict)
    path: Path | None = None

    def question(self, question_id: str) -> QuestionRubric:
        for q in self.questions:
            if q.id == question_id:
                return q
        raise RubricError(f"no question '{question_id}' in rubric for bank '{self.bank}'",
                          path=self.path)

    def has_question(self, question_id: str) -> bool:
        return any(q.id == question_id for q in self.questions)

    def is_hand_edited(self, question_id: str) -> bool:
        q = self.question(question_id)
        return q.source == HAND or self.generated.get(question_id) != points_fingerprint(q.points)


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def points_fingerprint(points: tuple[Point, ...] | list[Point]) -> str:
    data = [[p.id, p.text, p.group, float(p.weight), list(p.keywords)] for p in points]
    return sha256_text(json.dumps(data, ensure_ascii=False, sort_keys=True))


_HEADER = ("# Key points per question, extracted by `interviewer rubric build`.\n"
           "# Edit freely: points you edit are kept when the rubric is rebuilt.\n")


_HAND_HEADER = ("# Key points per question. Questions marked 'source: hand' hold the points their\n"
                "# author wrote; `interviewer rubric build` keeps them (the points it extracts\n"
                "# stay available: `interviewer rubric build --extracted`).\n")


def rubric_to_data(rubric: Rubric) -> dict:
    return {
        "bank": rubric.bank,
        "questions": [
            {
                "id": q.id,
                "question": q.question,
                "source_sha256": q.source_sha256,
                **({"source": q.source} if q.source != "extracted" else {}),
                "points": [
                    {"id": p.id, "text": p.text, "group": p.group, "weight": p.weight,
                     "keywords": list(p.keywords), **({"source": p.source} if p.source else {})}
                    for p in q.points
                ],
            }
            for q in rubric.questions
        ],
        "generated": dict(rubric.generated),
    }


def save_rubric(rubric: Rubric, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    header = _HAND_HEADER if any(q.source == HAND for q in rubric.questions) else _HEADER
    text = header + yaml.safe_dump(rubric_to_data(rubric), allow_unicode=True, sort_keys=False,
                                    width=100)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def load_rubric(path: Path | str) -> Rubric:
    path = Path(path)
    text = read_text(path, RubricError)
    try:
        data = load_yaml(text, path=path, error=RubricError)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "context_mark", None) or getattr(exc, "problem_mark", None)
        raise RubricError("not valid YAML", path=path,
                          line=mark.line + 1 if mark is not None else None) from None
    return rubric_from_data(data, path)


def rubric_from_data(data: object, path: Path | None = None) -> Rubric:
    def fail(msg: str) -> RubricError:
        return RubricError(msg, path=path, hint="see the schema in docs/rubric-format.md")

    if not isinstance(data, dict) or not isinstance(data.get("bank"), str):
        raise fail("expected a mapping with 'bank' and 'questions'")
    raw_questions = data.get("questions")
    if not isinstance(raw_questions, list) or not raw_questions:
        raise fail("'questions' must be a non-empty list")
    questions = []
    seen_q: set[str] = set()
    for qi, rq in enumerate(raw_questions):
        where = f"questions[{qi}]"
        if not isinstance(rq, dict) or not isinstance(rq.get("id"), str) or not rq["id"]:
            raise fail(f"{where}: needs an 'id'")
        if rq["id"] in seen_q:
            raise fail(f"{where}: duplicate question id '{rq['id']}'")
        seen_q.add(rq["id"])
        raw_points = rq.get("points")
        if not isinstance(raw_points, list) or not raw_points:
            raise fail(f"{where} ({rq['id']}): 'points' must be a non-empty list")
        points, seen_p = [], set()
        for pi, rp in enumerate(raw_points):
            pw = f"{where}.points[{pi}]"
            if not isinstance(rp, dict):
                raise fail(f"{pw}: expected a mapping")
            pid, text = rp.get("id"), rp.get("text")
            if not isinstance(pid, str) or not pid:
                raise fail(f"{pw}: needs an 'id'")
            if pid in seen_p:
                raise fail(f"{pw}: duplicate point id '{pid}'")
            seen_p.add(pid)
            if not isinstance(text, str) or not text.strip():
                raise fail(f"{pw} ({pid}): needs a non-empty 'text'")
            weight = rp.get("weight", 1.0)
            if weight is None:
                weight = 1.0
            if isinstance(weight, bool) or not isinstance(weight, (int, float)) \
                    or not math.isfinite(weight) or weight <= 0:
                raise fail(f"{pw} ({pid}): 'weight' must be a finite number > 0, got {weight!r}")
            keywords = rp.get("keywords") or []
            if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
                raise fail(f"{pw} ({pid}): 'keywords' must be a list of strings")
            group = text_value(rp.get("group"))
            if group is None:
                raise fail(f"{pw} ({pid}): 'group' must be text, not a list or mapping")
            source = rp.get("source")
            if source is not None and not isinstance(source, str):
                raise fail(f"{pw} ({pid}): 'source' must be text (the reference answer's "
                           "sentence the point comes from)")
            points.append(Point(id=pid, text=text.strip(), group=group or None,
                                weight=float(weight), keywords=tuple(keywords),
                                source=source.strip() if source and source.strip() else None))
        if sum(p.weight for p in points) <= 0:
            raise fail(f"{where} ({rq['id']}): the point weights add up to 0")
        origin = rq.get("source", "extracted")
        if origin not in SOURCES:
            raise fail(f"{where} ({rq['id']}): 'source' must be one of {', '.join(SOURCES)}")
        question, sha = text_value(rq.get("question")), text_value(rq.get("source_sha256"))
        if question is None or sha is None:
            field = "question" if question is None else "source_sha256"
            raise fail(f"{where} ({rq['id']}): '{field}' must be text, not a list or mapping")
        questions.append(QuestionRubric(id=rq["id"], question=question,
                                        source_sha256=sha,
                                        points=tuple(points), source=origin))
    generated = data.get("generated") or {}
    if not isinstance(generated, dict):
        generated = {}
    return Rubric(bank=data["bank"], questions=tuple(questions),
                  generated={str(k): text_value(v) or "" for k, v in generated.items()
                             if text_value(k) is not None}, path=path)

