"""Key points extracted from reference answers.

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

import re
from dataclasses import dataclass, field, replace

from interviewer.content.bank import Bank, Question
from interviewer.content.reference import best_sentence
from interviewer.content.rubric import GROUP_SEP, Point, QuestionRubric, Rubric, points_fingerprint, sha256_text
from interviewer.content.segment import (
    BULLET_RE,
    has_cjk,
    has_top_level,
    split_sentences,
    split_top_level,
    strip_punct,
    top_level_positions,
)
from interviewer.errors import RubricError

_LABEL_COLON = "：:"


_MAX_LABEL_ZH = 24


_MAX_LABEL_EN_WORDS = 6


_MAX_ITEM_EN_WORDS = 6


_INLINE_BULLET = re.compile(r"(?<=[。！？.!?])\s+([-*•])\s+")


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
            if old.source_sha256 in ("", fresh.source_sha256):
                # a rubric written by hand may leave source_sha256 out: it is kept, and from
                # now on records the answer it was kept for
                questions.append(replace(old, question=q.text, source_sha256=fresh.source_sha256))
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

