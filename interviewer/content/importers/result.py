"""What every importer returns: the questions it found, what it skipped and why, and the
fields it could not map; and the one place that turns found questions into a bank.

Ids are stable: an id the source gives (front matter, an ``id`` column) is kept when it is a
valid id; otherwise the id is a hash of the question text, so importing the same source
twice, or after reordering it, gives the same ids.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

from interviewer.content.bank import _FENCE, DIFFICULTIES, ID_RE, Bank, Question, close_fences, slugify, trim_lines
from interviewer.errors import BankError
from interviewer.content.language import language_of
from interviewer.terminal import one_line

_PLACEHOLDER = re.compile(r"^\W*(?:answer here|todo|tbd|to be (?:added|done)|coming soon|"
                          r"待补充|待完善|待更新|略|暂无)\W*$", re.IGNORECASE)
_TRAILING_RULE = re.compile(r"(?:\n\s*(?:-{3,}|\*{3,}|_{3,})\s*)+\s*\Z")  # a closing rule
_HEADING_AT_START = re.compile(r"^(#{1,2})(?!#)")
_DIFFICULTY_WORDS = {
    "easy": "easy", "simple": "easy", "junior": "easy", "简单": "easy", "容易": "easy",
    "初级": "easy", "低": "easy", "medium": "medium", "moderate": "medium", "mid": "medium",
    "intermediate": "medium", "中等": "medium", "中级": "medium", "中": "medium",
    "hard": "hard", "difficult": "hard", "senior": "hard", "expert": "hard", "困难": "hard",
    "难": "hard", "高级": "hard", "高": "hard",
}


def printable(text: str) -> str:
    """``text`` safe for a terminal on one line: line breaks and tabs as spaces, other
    control characters as ``?``."""
    return one_line(text)


@dataclass(frozen=True)
class Found:
    """One question as an importer read it, before ids and duplicates are settled."""

    text: str
    answer: str
    path: Path | None
    line: int
    id: str | None = None
    tags: tuple[str, ...] = ()
    difficulty: str | None = None
    key_points: tuple[str, ...] = ()


@dataclass(frozen=True)
class Skip:
    path: Path | None
    line: int | None
    why: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else f"{self.path}"
        return printable(f"{where}: {self.why}")


@dataclass
class Reading:
    """What an importer read: questions found, places skipped, fields not mapped."""

    found: list[Found] = field(default_factory=list)
    skipped: list[Skip] = field(default_factory=list)
    unmapped: list[str] = field(default_factory=list)
    warnings: list[Skip] = field(default_factory=list)
    title: str | None = None
    bank_id: str | None = None
    files: int = 0

    def warn(self, path: Path | None, line: int | None, what: str) -> None:
        self.warnings.append(Skip(path, line, what))

    def skip(self, path: Path | None, line: int | None, why: str) -> None:
        self.skipped.append(Skip(path, line, why))

    def not_mapped(self, what: str) -> None:
        if what not in self.unmapped:
            self.unmapped.append(what)


@dataclass
class ImportResult:
    bank: Bank
    format: str
    skipped: list[Skip]
    unmapped: list[str]
    key_points: dict[str, tuple[str, ...]]
    files: int = 1
    warnings: list[Skip] = field(default_factory=list)

    def summary(self) -> list[str]:
        """The lines an import prints: counts, each skip with its place, unmapped fields."""
        n = len(self.bank.questions)
        lines = [f"imported {n} question{'s' * (n != 1)} ({self.format}), "
                 f"skipped {len(self.skipped)}"]
        lines += [f"warning: {s}" for s in self.warnings]
        lines += [f"skipped {s}" for s in self.skipped]
        if self.unmapped:
            lines.append("not mapped: " + printable(", ".join(self.unmapped)))
        return lines


def content_id(text: str) -> str:
    """A question's id from its text: the same text always gives the same id."""
    return "q-" + hashlib.sha256(_normal(text).encode("utf-8")).hexdigest()[:8]


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def as_id(value: object) -> str | None:
    """A source's own id made valid (``kotlin/133`` → ``kotlin-133``), or None."""
    text = re.sub(r"[^A-Za-z0-9_.-]+", "-", str(value or "").strip()).strip("-.")
    return text if text and ID_RE.match(text) else None


def difficulty_of(value: object) -> str | None:
    word = str(value or "").strip().lower()
    return _DIFFICULTY_WORDS.get(word)


def split_tags(value: object) -> tuple[str, ...]:
    if isinstance(value, (list, tuple)):
        items = [str(v) for v in value]
    else:
        items = re.split(r"[,，、;；]", str(value or ""))
    # a bank stores tags comma-separated: a tag keeps no separator
    return tuple(dict.fromkeys(t for t in (re.sub(r"[,，、\s]+", " ", i).strip()
                                           for i in items) if t))


def question_text(text: str) -> str:
    """A question's text as a bank can hold it: blank lines dropped, lines trimmed, and a
    line the bank format would read as a heading or a field escaped with a backslash."""
    out = []
    for line in text.split("\n"):
        line = re.sub(r"^(?:>\s?)+", "", line.strip()).strip()  # a quoted question is the question
        if not line:
            continue
        if line.startswith("#") or re.match(r"^(tags|difficulty)\s*[:：]", line, re.I) \
                or _FENCE.match(line):
            line = "\\" + line
        out.append(line)
    return "\n".join(out)


def answer_text(text: str) -> str:
    """An answer as a bank can hold it: a closing rule (``---``) dropped, a ``#``/``##``
    heading outside code made ``###`` (it would start a question), a fence left open closed."""
    text = trim_lines(_TRAILING_RULE.sub("", text))
    out, in_fence = [], False
    for line in text.split("\n"):
        if _FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence and _HEADING_AT_START.match(line):
            line = "###" + line.lstrip("#")
        out.append(line)
    return close_fences("\n".join(out))


def make_bank(reading: Reading, fmt: str, path: Path, *, bank_id: str | None = None,
              title: str | None = None, language: str | None = None) -> ImportResult:
    """The bank of what was read: ids settled, duplicates skipped with where they were first."""
    questions: list[Question] = []
    key_points: dict[str, tuple[str, ...]] = {}
    by_text: dict[str, Found] = {}
    by_id: dict[str, Found] = {}
    for f in reading.found:
        text, answer = question_text(f.text), answer_text(f.answer)
        if not text:
            reading.skip(f.path, f.line, "the question is empty")
            continue
        if not answer.strip():
            reading.skip(f.path, f.line, "no answer")
            continue
        if _PLACEHOLDER.match(answer):
            reading.skip(f.path, f.line, f"the answer is a placeholder ('{answer[:20]}')")
            continue
        first = by_text.get(_normal(text))
        if first is not None:
            reading.skip(f.path, f.line, f"duplicate of the question at {first.path}:{first.line}")
            continue
        qid = as_id(f.id) or content_id(text)
        if qid in by_id:
            other = by_id[qid]
            reading.skip(f.path, f.line, f"id '{qid}' is already used at {other.path}:{other.line}")
            continue
        by_text[_normal(text)] = by_id[qid] = f
        questions.append(Question(id=qid, text=text, answer=answer, tags=split_tags(f.tags),
                                  difficulty=f.difficulty if f.difficulty in DIFFICULTIES
                                  else None, line=f.line))
        points = tuple(p for p in (re.sub(r"\s+", " ", k).strip() for k in f.key_points) if p)
        if points:
            key_points[qid] = points
    if not questions:
        why = f" ({printable(str(reading.skipped[0]))})" if reading.skipped else ""
        raise BankError(f"no questions found as {fmt}{why}", path=path,
                        hint="check the format, or force one with --format")
    title = title or reading.title or path.stem or "Imported bank"
    bank_id = bank_id or reading.bank_id or slugify(title) or slugify(path.stem) or "imported"
    if not ID_RE.match(bank_id):
        raise BankError(f"bank id '{printable(bank_id)}' may only use letters, digits, '-', '_' and '.'",
                        path=path, hint="give one with --id")
    language = language or language_of("\n".join(q.text for q in questions))
    bank = Bank(id=bank_id, title=" ".join(title.split()), language=language,
                questions=tuple(questions), path=path)
    return ImportResult(bank, fmt, reading.skipped, reading.unmapped, key_points,
                        files=max(reading.files, 1), warnings=reading.warnings)
