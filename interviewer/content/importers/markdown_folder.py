"""Markdown with one question per file, a folder at a time.

::

    ---
    id: rag-001                 # kept as the question's id
    title: What is RAG?         # the question, unless a Question section gives it
    tags: [rag, retrieval]
    difficulty: medium          # easy/medium/hard, or 简单/中等/困难, junior/senior …
    ---
    ## 题目 / Question
    …
    ## 参考答案 / 标准答案 / Answer
    …
    ## 必答点 / 要点 / Key points
    - …                          (the author's key points: a hand rubric)

Without an answer section, the text after the question is the answer when the file has no
labelled sections at all. Sections that are neither are reported as not mapped.
"""

from __future__ import annotations

from pathlib import Path

from interviewer.content.bank import read_text
from interviewer.errors import BankError
from interviewer.content.importers.markdown_common import (
    HEADING,
    bullet_items,
    label_of,
    scalar,
    scalar_list,
    split_front_matter,
    split_parts,
)
from interviewer.content.importers.markdown_headings import _QUESTION_LOOK, question_title
from interviewer.content.importers.result import Found, Reading, difficulty_of

_KNOWN_KEYS = {"id", "title", "question", "tags", "tag", "difficulty", "level", "aliases",
               "answer"}
_SKIP_NAMES = {"readme.md", "index.md", "_index.md", "summary.md", "license.md",
               "contributing.md", "changelog.md", "_sidebar.md", "_navbar.md"}


def question_files(folder: Path) -> list[Path]:
    """The Markdown files under ``folder``, in a stable order, hidden folders left out."""
    return sorted(p for p in folder.rglob("*.md")
                  if p.is_file() and not any(part.startswith(".") for part in
                                             p.relative_to(folder).parts)
                  and p.name.lower() not in _SKIP_NAMES)


def read_folder(folder: Path, reading: Reading) -> None:
    files = question_files(folder)
    if not files:
        raise BankError("no .md files in this folder", path=folder)
    reading.title = reading.title or folder.resolve().name
    for p in files:
        reading.files += 1
        try:
            text = read_text(p)
        except BankError as exc:
            reading.skip(p, exc.line, exc.message)
            continue
        read_question_file(text, p, reading)


def read_question_file(text: str, path: Path, reading: Reading) -> None:
    lines = text.split("\n")
    meta, start, problem = split_front_matter(lines)
    if problem:
        reading.skip(path, 1, problem)
        return
    meta = meta or {}
    for key in meta:
        if str(key) not in _KNOWN_KEYS:
            reading.not_mapped(f"front matter '{key}'")
    body = lines[start:]
    parts = split_parts(body)
    question = "\n".join(parts.question).strip() or scalar(meta.get("question")) \
        or scalar(meta.get("title")) or ""
    first = next((HEADING.match(line) for line in body if HEADING.match(line)), None)
    if not question and first is not None and label_of(first.group(0)) is None \
            and _QUESTION_LOOK.search(first.group(2)):
        question = question_title(first.group(2))  # "# What is RAG?" then its answer
    if not parts.labelled:
        answer = "\n".join(_after_title(body, question)).strip()
    else:
        answer = "\n".join(parts.answer).strip()
        for name, other in parts.other.items():
            if "\n".join(other).strip() and question_title(name) != question:
                reading.not_mapped(f"section '{name}'")
    line = start + 1
    if not question:
        reading.skip(path, line, "no question: give a title in the front matter or a "
                                 "'Question' section")
        return
    if not answer:
        reading.skip(path, line, "no answer: add an 'Answer' (参考答案) section")
        return
    difficulty = scalar(meta.get("difficulty")) or scalar(meta.get("level"))
    if difficulty and not difficulty_of(difficulty):
        reading.not_mapped(f"difficulty '{difficulty}'")
    reading.found.append(Found(
        text=question, answer=answer, path=path, line=line, id=scalar(meta.get("id")),
        tags=tuple(scalar_list(meta.get("tags")) or scalar_list(meta.get("tag"))),
        difficulty=difficulty_of(difficulty), key_points=tuple(bullet_items(parts.points))))


def _after_title(lines: list[str], title: str) -> list[str]:
    """The body without a first heading that repeats the question."""
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        m = HEADING.match(line)
        if m and question_title(m.group(2)).strip() == title.strip():
            return lines[i + 1:]
        return lines
    return lines
