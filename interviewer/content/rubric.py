"""Rubrics: the key points of each reference answer, extracted, stored and checked.

Extraction turns the shapes real reference answers take into atomic points:

* ``- bullet`` and ``1. numbered`` lines;
* ``Label：a、b、c`` (or ``Label: a, b and c``) enumerations, one point per item, grouped
  under the label;
* ``Label：explanation`` bullets, kept whole because the label gives the explanation its subject;
* a line ending in ``Label：`` that introduces the bullets below it (their group);
* plain prose, one point per sentence.

Point ids are a hash of the question id, group and text, so rebuilding from an unchanged
answer gives the same ids, and editing one point leaves the others' history intact.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

import yaml

from interviewer.content.bank import Bank, Question, qualified_id, read_text
from interviewer.errors import RubricError
from interviewer.paths import rubric_path_for
from interviewer.content.reference import best_sentence
from interviewer.content.safe_yaml import load_yaml, text_value
from interviewer.content.segment import (
    BULLET_RE,
    has_cjk,
    has_top_level,
    split_sentences,
    split_top_level,
    strip_punct,
    top_level_positions,
)

GROUP_SEP = " › "
HAND = "hand"
SOURCES = ("extracted", HAND)
_LABEL_COLON = "：:"
_MAX_LABEL_ZH = 24
_MAX_LABEL_EN_WORDS = 6
_MAX_ITEM_EN_WORDS = 6
_INLINE_BULLET = re.compile(r"(?<=[。！？.!?])\s+([-*•])\s+")


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


# ---------------------------------------------------------------- extraction


@dataclass(frozen=True)
class DraftPoint:
    text: str
    group: str | None = None
    source: str | None = None  # where in the reference answer it was said


@dataclass
class _Line:
    text: str
    bullet: bool
    indent: int


def _lines(answer: str) -> list[_Line]:
    """Answer lines with bullets marked; inline `` - `` bullets after a full stop split out."""
    out: list[_Line] = []
    for raw in answer.split("\n"):
        if not raw.strip():
            continue
        indent = len(raw) - len(raw.lstrip())
        pieces = _INLINE_BULLET.split(raw.strip())
        # split() with one group returns [text, marker, text, marker, text...]
        texts = [pieces[0]] + [pieces[i] for i in range(2, len(pieces), 2)]
        for n, piece in enumerate(texts):
            bullet = n > 0 or bool(BULLET_RE.match(piece))
            text = BULLET_RE.sub("", piece, count=1).strip() if BULLET_RE.match(piece) else piece
            if text:
                out.append(_Line(text=text, bullet=bullet, indent=indent))
    return out


def _is_label(text: str) -> bool:
    text = text.strip()
    if not text or has_top_level(text, "。！？!?；;，,"):
        return False
    if has_cjk(text):
        return len(text) <= _MAX_LABEL_ZH
    return len(text.split()) <= _MAX_LABEL_EN_WORDS


def split_label(text: str) -> tuple[str | None, str]:
    """``("Label", "body")`` for ``Label：body``; ``(None, text)`` when there is no label."""
    parts = split_top_level_once(text, _LABEL_COLON)
    if parts is None:
        return None, text
    label, body = parts
    if not _is_label(label):
        return None, text
    return label.strip(), body.strip()


def split_top_level_once(text: str, seps: str) -> tuple[str, str] | None:
    """``text`` split at its first separator outside brackets (the segmenter's own rule)."""
    for i in top_level_positions(text, seps):
        # "torch.compile", "http://", "12:30" are not labels
        if text[i] == ":" and i + 1 < len(text) and not text[i + 1].isspace() and not has_cjk(text[i + 1]):
            continue
        return text[:i], text[i + 1:]
    return None


def enumeration_items(body: str) -> list[str] | None:
    """Items of ``a、b、c`` / ``a, b and c``, or None when the body is prose."""
    body = body.strip().rstrip("。.；;")
    if has_top_level(body, "。！？!?；;"):
        return None
    if has_cjk(body) or "、" in body:
        if has_top_level(body, "，,"):
            return None
        items = split_top_level(body, "、")
        return items if len(items) >= 2 else None
    # English needs a comma: "X and Y" alone is usually one idea, not a list.
    parts = split_top_level(body, ",")
    if len(parts) < 2:
        return None
    oxford = re.match(r"^(?:and|or)\s+", parts[-1])
    if oxford:
        parts[-1] = parts[-1][oxford.end():]
    else:
        parts = parts[:-1] + re.split(r"\s+(?:and|or)\s+", parts[-1], maxsplit=1)
    if len(parts) < 3:
        return None
    if any(len(re.sub(r"\([^)]*\)", "", p).split()) > _MAX_ITEM_EN_WORDS for p in parts):
        return None
    return parts


def _join(*groups: str | None) -> str | None:
    names = [g for g in groups if g]
    return GROUP_SEP.join(names) if names else None


def _sentence_points(text: str, group: str | None) -> list[DraftPoint]:
    return [DraftPoint(strip_punct(s), group, s.strip()) for s in split_sentences(text)
            if strip_punct(s)]


def _ends_with_label(text: str) -> tuple[str | None, str | None]:
    """For ``…，核心功能：`` return (``…`` prose before it, ``核心功能``); else (None, None)."""
    stripped = text.rstrip()
    if not stripped or stripped[-1] not in _LABEL_COLON:
        return None, None
    head = stripped[:-1]
    # the label is the last clause of the line
    cut = max(head.rfind(c) for c in "，,。；;")
    label = head[cut + 1:].strip() if cut >= 0 else head.strip()
    prose = head[:cut].strip() if cut >= 0 else None
    if not _is_label(label):
        return None, None
    return (prose or None), label


def extract_points(answer: str) -> list[DraftPoint]:
    """Atomic key points of one reference answer (see the module docstring for the shapes)."""
    lines = _lines(answer)
    points: list[DraftPoint] = []
    context: list[tuple[int, str]] = []  # (indent, label) of headers introducing bullets
    i = 0
    while i < len(lines):
        line = lines[i]
        nxt = lines[i + 1] if i + 1 < len(lines) else None
        prose, header = _ends_with_label(line.text)
        if header is not None:
            introduces_bullets = nxt is not None and (
                (nxt.bullet and not line.bullet) or (nxt.bullet and nxt.indent > line.indent))
            if not introduces_bullets and nxt is not None and not nxt.bullet:
                # "- GPU利用率：" followed by its explanation on the next line
                lines[i + 1] = _Line(f"{line.text}{nxt.text}", line.bullet, line.indent)
                i += 1
                continue
            if introduces_bullets:
                while context and context[-1][0] >= line.indent and line.bullet:
                    context.pop()
                if not line.bullet:
                    context.clear()
                if prose:
                    points += _sentence_points(prose, _join(*(c[1] for c in context)))
                context.append((line.indent if line.bullet else -1, header))
                i += 1
                continue
        if not line.bullet:
            context.clear()
        else:
            while context and context[-1][0] >= line.indent and context[-1][0] != -1:
                context.pop()
        group = _join(*(c[1] for c in context))
        label, body = split_label(line.text)
        if label and body:
            items = enumeration_items(body)
            if items:
                points += [DraftPoint(strip_punct(it), _join(group, label), line.text)
                           for it in items if strip_punct(it)]
            else:
                # one point per sentence, each keeping the label that gives it its subject
                sep = "：" if has_cjk(line.text) else ": "
                sentences = [s for s in split_sentences(body) if strip_punct(s)]
                points += [DraftPoint(f"{label}{sep}{strip_punct(s)}", group,
                                      line.text if len(sentences) == 1 else s.strip())
                           for s in sentences]
        else:
            points += _sentence_points(line.text, group)
        i += 1
    return [_sourced(p, answer) for p in _dedupe(points)]


def _sourced(point: DraftPoint, answer: str) -> DraftPoint:
    """The point with a source that is really in the answer (a joined line is not)."""
    if point.source and point.source in answer:
        return point
    return replace(point, source=best_sentence(point.text, answer))


def _dedupe(points: list[DraftPoint]) -> list[DraftPoint]:
    seen: set[tuple[str | None, str]] = set()
    out = []
    for p in points:
        key = (p.group, p.text)
        if key not in seen and len(p.text) >= 2:
            seen.add(key)
            out.append(p)
    return out


def point_id(question_id: str, draft: DraftPoint, taken: set[str]) -> str:
    digest = sha256_text(f"{question_id}\x1f{draft.group or ''}\x1f{draft.text}")
    base = f"{question_id}.{digest[:6]}"
    pid, n = base, 2
    while pid in taken:
        pid, n = f"{base}-{n}", n + 1
    taken.add(pid)
    return pid


def rubric_for_question(q: Question) -> QuestionRubric:
    taken: set[str] = set()
    points = tuple(Point(id=point_id(q.id, d, taken), text=d.text, group=d.group,
                         source=d.source)
                   for d in extract_points(q.answer))
    if not points:
        raise RubricError(f"no key points could be extracted from the answer of '{q.id}'")
    return QuestionRubric(id=q.id, question=q.text, source_sha256=sha256_text(q.answer),
                          points=points)


# ---------------------------------------------------------------- build, merge


@dataclass
class BuildReport:
    rubric: Rubric
    kept_hand_edits: list[str] = field(default_factory=list)
    overwritten_hand_edits: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)


def build_rubric(bank: Bank, existing: Rubric | None = None, *, force: bool = False) -> BuildReport:
    """Extract every question's points, keeping a person's edits.

    A hand-edited question whose reference answer is unchanged keeps its edits; one whose
    answer changed is a conflict that needs ``force`` (the edit may no longer fit).
    """
    questions: list[QuestionRubric] = []
    generated: dict[str, str] = {}
    kept, overwritten, conflicts = [], [], []
    for q in bank.questions:
        fresh = rubric_for_question(q)
        old = existing.question(q.id) if existing and existing.has_question(q.id) else None
        if old is not None and existing is not None and existing.is_hand_edited(q.id):
            if old.source_sha256 == fresh.source_sha256:
                questions.append(replace(old, question=q.text))
                generated[q.id] = existing.generated.get(q.id, "")
                kept.append(q.id)
                continue
            if not force:
                conflicts.append(q.id)
                continue
            overwritten.append(q.id)
        questions.append(fresh)
        generated[q.id] = points_fingerprint(fresh.points)
    dropped = []
    if existing is not None:
        bank_ids = {q.id for q in bank.questions}
        for old in existing.questions:
            if old.id not in bank_ids:
                if existing.is_hand_edited(old.id) and not force:
                    conflicts.append(old.id)
                dropped.append(old.id)
    if conflicts:
        raise RubricError(
            f"hand-edited points would be lost for {', '.join(conflicts)} (their reference "
            "answer changed or is gone)", path=existing.path if existing else None,
            hint="review them, then rebuild with --force to overwrite")
    rubric = Rubric(bank=bank.id, questions=tuple(questions), generated=generated)
    return BuildReport(rubric, kept, overwritten, dropped)


def stale_warnings(rubric: Rubric, bank: Bank) -> list[str]:
    """Questions whose rubric no longer matches the bank (changed, missing)."""
    where = f"{rubric.path}: " if rubric.path else ""
    out = []
    for q in bank.questions:
        if not rubric.has_question(q.id):
            out.append(f"{where}no points for question '{q.id}'; run 'interviewer rubric build "
                       f"{bank.id}' (points are extracted on the fly meanwhile)")
        elif rubric.question(q.id).source_sha256 != sha256_text(q.answer):
            out.append(f"{where}the reference answer of '{q.id}' changed since the rubric was "
                       f"built; run 'interviewer rubric build {bank.id}'")
    return out


# ---------------------------------------------------------------- file I/O

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


@dataclass
class LoadedRubric:
    rubric: Rubric
    warnings: list[str]


def _combined_rubric(bank: Bank) -> LoadedRubric:
    questions: list[QuestionRubric] = []
    warnings: list[str] = []
    for part in bank.parts:
        loaded = rubric_for_bank(part)
        warnings += loaded.warnings
        questions += [replace(q, id=qualified_id(part.id, q.id),
                              points=tuple(replace(p, id=qualified_id(part.id, p.id))
                                           for p in q.points))
                      for q in loaded.rubric.questions]
    return LoadedRubric(Rubric(bank=bank.id, questions=tuple(questions)), warnings)


def rubric_for_bank(bank: Bank, rubric_path: Path | None = None) -> LoadedRubric:
    """The bank's rubric file, checked against the bank; missing parts are extracted on the fly.

    A combined bank (:func:`interviewer.content.bank.combine_banks`) gets its banks' own rubrics,
    with question and point ids prefixed by their bank's id as its questions are.
    """
    if bank.parts:
        return _combined_rubric(bank)
    path = rubric_path or (rubric_path_for(bank.path, bank.id) if bank.path else None)
    if path is None or not path.exists():
        fresh = build_rubric(bank).rubric
        note = (f"no rubric file for bank '{bank.id}'; using points extracted on the fly "
                f"(run 'interviewer rubric build {bank.id}' to save and edit them)")
        return LoadedRubric(fresh, [note])
    rubric = load_rubric(path)
    if rubric.bank != bank.id:
        raise RubricError(f"rubric is for bank '{rubric.bank}', not '{bank.id}'", path=path)
    warnings = stale_warnings(rubric, bank)
    missing = [q for q in bank.questions if not rubric.has_question(q.id)]
    if missing:
        extra = tuple(rubric_for_question(q) for q in missing)
        rubric = replace(rubric, questions=rubric.questions + extra)
    return LoadedRubric(rubric, warnings)
