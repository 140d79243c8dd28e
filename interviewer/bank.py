"""Question banks: a human-editable Markdown format, its parser, and the plain-text importer.

The format (documented in docs/bank-format.md)::

    ---
    id: ai-infra-zh
    title: AI Infra 综合面经题库
    language: zh
    ---

    ## q01: 大模型训练和推理如何加速？

    tags: training, inference
    difficulty: medium

    ### Answer

    训练加速：混合精度训练（FP16/BF16）、…

Every error names the file and line so that a coach can fix it in an editor.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import yaml

from interviewer.errors import BankError
from interviewer.language import language_of
from interviewer.safe_yaml import load_yaml, text_value

MAX_FRONT_MATTER = 64 << 10  # id, title, language: a few lines
ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_QUESTION_HEADING = re.compile(r"^##(?!#)\s*(.*)$")
_ANSWER_HEADING = re.compile(r"^###\s*(answer|reference answer|参考答案|答案)\s*$", re.IGNORECASE)
_META_LINE = re.compile(r"^(tags|difficulty)\s*[:：]\s*(.*)$", re.IGNORECASE)
_FENCE = re.compile(r"^\s*(```|~~~)")
_PLAIN_Q = re.compile(r"^\s*Q\s*[:：]\s*(.*)$")
LANGUAGES = ("zh", "en")
DIFFICULTIES = ("easy", "medium", "hard")


@dataclass(frozen=True)
class Question:
    id: str
    text: str
    answer: str
    tags: tuple[str, ...] = ()
    difficulty: str | None = None
    line: int = 0


@dataclass(frozen=True)
class Bank:
    id: str
    title: str
    language: str
    questions: tuple[Question, ...]
    path: Path | None = None
    description: str = ""
    parts: tuple[Bank, ...] = ()  # the banks an interview over several banks draws from

    def question(self, question_id: str) -> Question:
        for q in self.questions:
            if q.id == question_id:
                return q
        known = ", ".join(q.id for q in self.questions)
        raise BankError(f"no question '{question_id}' in bank '{self.id}' (known: {known})",
                        path=self.path)


# ---------------------------------------------------------------- reading


def read_text(path: Path, error: type[BankError] = BankError) -> str:
    """Read a UTF-8 file, turning every way it can fail into a one-line error."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise error("file not found", path=path, hint="check the path") from None
    except IsADirectoryError:
        raise error("is a directory, expected a file", path=path) from None
    except OSError as exc:
        raise error(f"cannot read file: {exc.strerror}", path=path) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise error("not valid UTF-8 text", path=path, line=line,
                    hint="save the file as UTF-8") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def load_bank(path: Path | str) -> Bank:
    path = Path(path)
    return parse_bank(read_text(path), path=path)


def parse_bank(text: str, path: Path | None = None) -> Bank:
    lines = text.split("\n")
    meta, body_start = _parse_front_matter(lines, path)
    description: list[str] = []
    questions: list[Question] = []
    seen: dict[str, int] = {}
    i = body_start
    in_fence = False
    current: list[tuple[int, str]] | None = None
    blocks: list[list[tuple[int, str]]] = []
    while i < len(lines):
        line = lines[i]
        if _FENCE.match(line):
            in_fence = not in_fence
        if not in_fence and _QUESTION_HEADING.match(line):
            current = [(i + 1, line)]
            blocks.append(current)
        elif current is not None:
            current.append((i + 1, line))
        else:
            description.append(line)
        i += 1
    for block in blocks:
        q = _parse_question(block, path)
        if q.id in seen:
            raise BankError(f"duplicate question id '{q.id}' (first used on line {seen[q.id]})",
                            path=path, line=q.line, hint="give every question its own id")
        seen[q.id] = q.line
        questions.append(q)
    if not questions:
        raise BankError("no questions found", path=path,
                        hint="each question starts with a line '## <id>: <question>'")
    return Bank(id=meta["id"], title=meta["title"], language=meta["language"],
                questions=tuple(questions), path=path,
                description="\n".join(description).strip())


def _parse_front_matter(lines: list[str], path: Path | None) -> tuple[dict[str, str], int]:
    first = next((n for n, line in enumerate(lines) if line.strip()), None)
    if first is None:
        raise BankError("file is empty", path=path, hint="see docs/bank-format.md")
    if lines[first].strip() != "---":
        raise BankError("missing front matter: the file must start with '---'", path=path,
                        line=first + 1, hint="see docs/bank-format.md")
    try:
        end = next(n for n in range(first + 1, len(lines)) if lines[n].strip() == "---")
    except StopIteration:
        raise BankError("front matter is not closed with '---'", path=path,
                        line=first + 1) from None
    try:
        meta = load_yaml("\n".join(lines[first + 1:end]), path=path, error=BankError,
                         first_line=first + 2, max_bytes=MAX_FRONT_MATTER) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "context_mark", None) or getattr(exc, "problem_mark", None)
        line = first + 2 + mark.line if mark is not None else first + 1
        raise BankError("front matter is not valid YAML", path=path, line=line) from None
    if not isinstance(meta, dict):
        raise BankError("front matter must be 'key: value' lines", path=path, line=first + 2)
    for key in ("id", "title", "language"):
        value = text_value(meta.get(key))
        if value is None:
            raise BankError(f"front matter '{key}' must be text, not a list or mapping",
                            path=path, line=first + 1)
        meta[key] = value
        if not value.strip():
            raise BankError(f"front matter has no '{key}'", path=path, line=first + 1,
                            hint="id, title and language are required")
    bank_id = str(meta["id"]).strip()
    if not ID_RE.match(bank_id):
        raise BankError(f"bank id '{bank_id}' may only use letters, digits, '-', '_' and '.'",
                        path=path, line=first + 1)
    language = str(meta["language"]).strip().lower()
    if language not in LANGUAGES:
        raise BankError(f"language '{language}' is not one of {', '.join(LANGUAGES)}",
                        path=path, line=first + 1)
    return {"id": bank_id, "title": str(meta["title"]).strip(), "language": language}, end + 1


def _parse_question(block: list[tuple[int, str]], path: Path | None) -> Question:
    line_no, heading = block[0]
    m = re.match(r"^##\s*([^\s:：]+)\s*[:：]\s*(.*)$", heading)
    if not m:
        raise BankError("question heading must be '## <id>: <question>'", path=path, line=line_no)
    qid, first_text = m.group(1), m.group(2).strip()
    if not ID_RE.match(qid):
        raise BankError(f"question id '{qid}' may only use letters, digits, '-', '_' and '.'",
                        path=path, line=line_no)
    text_lines = [first_text] if first_text else []
    tags: tuple[str, ...] = ()
    difficulty: str | None = None
    answer_at = None
    for idx, (n, line) in enumerate(block[1:], start=1):
        if _ANSWER_HEADING.match(line.strip()):
            answer_at = idx
            break
        meta = _META_LINE.match(line.strip())
        if meta:
            key, value = meta.group(1).lower(), meta.group(2).strip()
            if key == "tags":
                tags = tuple(t.strip() for t in re.split(r"[,，、]", value) if t.strip())
            else:
                difficulty = value.lower() or None
                if difficulty not in DIFFICULTIES:
                    raise BankError(f"difficulty '{value}' is not one of "
                                    f"{', '.join(DIFFICULTIES)}", path=path, line=n)
        elif line.strip():
            text_lines.append(line.strip())
    text = "\n".join(text_lines).strip()
    if not text:
        raise BankError(f"question '{qid}' has no text", path=path, line=line_no)
    if answer_at is None:
        raise BankError(f"question '{qid}' has no '### Answer' section", path=path, line=line_no)
    answer = trim_lines("\n".join(line for _, line in block[answer_at + 1:]))
    if not answer:
        raise BankError(f"question '{qid}' has an empty answer", path=path,
                        line=block[answer_at][0])
    return Question(id=qid, text=text, answer=answer, tags=tags, difficulty=difficulty,
                    line=line_no)


def trim_lines(text: str) -> str:
    """``text`` without trailing spaces and leading or trailing blank lines; the first
    line keeps its indent (an indented ``## x`` is text, unindented it is a heading)."""
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def close_fences(answer: str) -> str:
    """``answer`` with a code fence left open closed at its end, so that it cannot swallow
    the questions after it when the bank is written and read back."""
    opener = None
    for line in answer.split("\n"):
        m = _FENCE.match(line)
        if m:
            opener = None if opener else m.group(1)
    return f"{answer}\n{opener}" if opener else answer


# ---------------------------------------------------------------- writing


def render_bank(bank: Bank) -> str:
    """The Markdown text of a bank; ``parse_bank(render_bank(b))`` gives ``b`` back."""
    head = yaml.safe_dump({"id": bank.id, "title": bank.title, "language": bank.language},
                          allow_unicode=True, sort_keys=False).strip()
    out = ["---", head, "---", ""]
    if bank.description:
        out += [bank.description, ""]
    for q in bank.questions:
        text_lines = q.text.split("\n")
        out.append(f"## {q.id}: {text_lines[0]}")
        out += text_lines[1:]
        out.append("")
        if q.tags:
            out.append("tags: " + ", ".join(q.tags))
        if q.difficulty:
            out.append(f"difficulty: {q.difficulty}")
        if q.tags or q.difficulty:
            out.append("")
        out += ["### Answer", "", q.answer, ""]
    return "\n".join(out)


# ---------------------------------------------------------------- plain-text import


def detect_language(text: str) -> str:
    """``zh`` or ``en`` for an imported bank: the grader's own language rule."""
    return language_of(text)


def slugify(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^A-Za-z0-9]+", "-", ascii_text).strip("-").lower()
    return slug


_COPY_COUNTER = re.compile(r"\s*\(\d+\)$")


def import_plaintext(text: str, *, path: Path | None = None, bank_id: str | None = None,
                     title: str | None = None, language: str | None = None) -> Bank:
    """Convert the ``Q: question`` / answer-lines format into a :class:`Bank`.

    The first non-empty line before the first ``Q:`` is the title. Answers are kept
    verbatim (only trailing whitespace is trimmed) because rubric extraction and
    human review both depend on the original wording.
    """
    lines = text.replace("\r\n", "\n").split("\n")
    header: list[str] = []
    raw: list[tuple[int, str, list[str]]] = []
    for n, line in enumerate(lines, start=1):
        m = _PLAIN_Q.match(line)
        if m:
            raw.append((n, m.group(1).strip(), []))
        elif raw:
            if _QUESTION_HEADING.match(line) or _ANSWER_HEADING.match(line):
                raise BankError("answer line looks like a Markdown heading; indent it or "
                                "remove the leading '#'", path=path, line=n)
            raw[-1][2].append(line.rstrip())
        elif line.strip():
            header.append(line.strip())
    if not raw:
        raise BankError("no questions found", path=path,
                        hint="each question starts with a line 'Q: <question>'")
    width = max(2, len(str(len(raw))))
    questions = []
    for index, (n, qtext, answer_lines) in enumerate(raw, start=1):
        if not qtext:
            raise BankError("question text is empty after 'Q:'", path=path, line=n)
        answer = close_fences(trim_lines("\n".join(answer_lines)))
        if not answer:
            raise BankError(f"question '{qtext[:30]}' has no answer lines", path=path, line=n)
        questions.append(Question(id=f"q{index:0{width}d}", text=qtext, answer=answer, line=n))
    # " (7)" is what a browser or a file manager appends to a second copy: not a title
    title = title or _COPY_COUNTER.sub("", header[0] if header else
                                       (path.stem if path else "Imported bank")) or "Imported bank"
    bank_id = bank_id or slugify(title) or (slugify(path.stem) if path else "") or "bank"
    if not ID_RE.match(bank_id):
        raise BankError(f"bank id '{bank_id}' may only use letters, digits, '-', '_' and '.'",
                        path=path)
    language = language or detect_language(text)
    return Bank(id=bank_id, title=title, language=language, questions=tuple(questions),
                path=path, description="\n".join(header[1:]))


# ---------------------------------------------------------------- several banks at once

COMBINE_SEP = "+"  # ``ai-infra-zh+llm-systems-en``: one interview over both banks
QUESTION_SEP = ":"  # a question of a combined bank is ``<bank id>:<question id>``


def combined_ids(ref: str) -> list[str] | None:
    """The bank ids in a combined reference ``a+b``; None when ``ref`` names one bank or a
    path (a path may have a ``+`` in it, an id may not)."""
    parts = ref.split(COMBINE_SEP)
    return parts if len(parts) > 1 and all(ID_RE.match(part) for part in parts) else None


def qualified_id(bank_id: str, local_id: str) -> str:
    """A question's or point's id inside a combined bank: its own, after its bank's."""
    return f"{bank_id}{QUESTION_SEP}{local_id}"


def combine_banks(banks: list[Bank]) -> Bank:
    """One bank over several, for an interview that mixes them; a single bank is itself.

    Question ids get their bank's id in front, so that ``q01`` of two banks stay apart in the
    plan, the session record and the rubric (:func:`interviewer.rubric.rubric_for_bank`
    combines the banks' own rubric files the same way).
    """
    unique = list({b.id: b for b in banks}.values())
    if len(unique) == 1:
        return unique[0]
    if not unique:
        raise BankError("no banks to combine")
    languages = {b.language for b in unique}
    questions = tuple(replace(q, id=qualified_id(b.id, q.id))
                      for b in unique for q in b.questions)
    return Bank(id=COMBINE_SEP.join(b.id for b in unique),
                title=" + ".join(b.title for b in unique),
                language=languages.pop() if len(languages) == 1 else unique[0].language,
                questions=questions, parts=tuple(unique))


# ---------------------------------------------------------------- discovery


@dataclass
class BankCatalog:
    """All banks the app can see: shipped, in the user's bank dir, and extra paths.

    A bank file that cannot be read is skipped, and a bank whose id another one already has
    replaces it; both are said once each through ``warn``.
    """

    dirs: list[Path] = field(default_factory=list)
    warn: Callable[[str], None] | None = None
    _warned: set[str] = field(default_factory=set, repr=False, compare=False)
    _fixed: tuple[Bank, ...] | None = field(default=None, repr=False)

    @classmethod
    def of(cls, banks: Sequence[Bank]) -> BankCatalog:
        """A catalog of banks already loaded (the app's), resolved like any other."""
        return cls(_fixed=tuple(banks))

    def _warning(self, message: str) -> None:
        if message not in self._warned:
            self._warned.add(message)
            if self.warn is not None:
                self.warn(message)

    def paths(self) -> list[Path]:
        found: list[Path] = []
        for d in self.dirs:
            if d.is_dir():
                found += sorted(p for p in d.glob("*.md") if p.is_file())
        return found

    def banks(self) -> list[Bank]:
        """Every readable bank; later directories override earlier ones by id."""
        if self._fixed is not None:
            return list(self._fixed)
        by_id: dict[str, Bank] = {}
        for p in self.paths():
            try:
                bank = load_bank(p)
            except BankError as exc:
                self._warning(f"skipped a bank that cannot be read: {exc}")
                continue
            if bank.id in by_id:
                self._warning(f"{p}: bank id '{bank.id}' is also the id of {by_id[bank.id].path}; "
                              f"{p.name} is used (give it another id to keep both)")
            by_id[bank.id] = bank
        return list(by_id.values())

    def resolve(self, ref: str) -> Bank:
        """A bank by path, or by id among the catalog's banks; ``a+b`` combines banks a and b."""
        parts = combined_ids(ref)
        if parts:
            return combine_banks([self.resolve(part) for part in parts])
        candidate = Path(ref).expanduser()
        if self._fixed is None and (candidate.suffix == ".md" or candidate.exists() or "/" in ref):
            return load_bank(candidate)  # a catalog of loaded banks resolves ids only
        for bank in reversed(self.banks()):
            if bank.id == ref:
                return bank
        known = ", ".join(sorted(b.id for b in self.banks())) or "none"
        raise BankError(f"no bank with id '{ref}' (known: {known})",
                        hint="give a bank id from 'interviewer bank list' or a path to a .md file")
