"""Which format a path holds, from its name and its first lines."""

from __future__ import annotations

import re
from pathlib import Path

from interviewer.content.bank import _PLAIN_Q
from interviewer.content.import_formats import FORMATS
from interviewer.errors import BankError
from interviewer.content.importers.markdown_common import label_of

_BANK_HEADING = re.compile(r"^##\s*[A-Za-z0-9][A-Za-z0-9_.-]*\s*[:：]", re.MULTILINE)
_ANKI_HEADER = re.compile(r"^#(?:separator|html|tags column|deck column|notetype column|"
                          r"guid column|columns):", re.MULTILINE)


def detect(path: Path, head: str | None) -> str:
    """The format of ``path``; ``head`` is the start of its text (None for a directory or a
    binary package)."""
    suffix = path.suffix.lower()
    if path.is_dir():
        return "markdown-folder"
    if suffix in (".apkg", ".colpkg"):
        return "anki-apkg"
    if suffix == ".csv":
        return "csv"
    if suffix == ".tsv":
        return "tsv"
    if suffix == ".jsonl" or suffix == ".ndjson":
        return "jsonl"
    if suffix == ".json":
        return "json"
    text = head or ""
    if _ANKI_HEADER.search(text[:2000]):
        return "anki-text"
    if suffix in (".md", ".markdown"):
        if text.startswith("---\n") and "language:" in text[:2000] and _BANK_HEADING.search(text):
            return "bank"
        answers = sum(1 for line in text.split("\n") if (label_of(line) or ("",))[0] == "answer")
        return "markdown-folder" if text.startswith("---\n") and answers == 1 else "markdown"
    lines = [line for line in text.split("\n")[:50] if line.strip()]
    if any(_PLAIN_Q.match(line) for line in lines):
        return "plain"
    if lines and sum("\t" in line for line in lines) >= max(1, len(lines) // 2):
        return "anki-text"
    if any(line.lstrip().startswith("#") for line in lines):
        return "markdown"
    if suffix in (".txt", ""):
        return "plain"  # the 'Q: …' format this command always read: its errors fit best
    raise BankError("cannot tell the format of this file", path=path,
                    hint=f"give one with --format ({', '.join(FORMATS)})")
