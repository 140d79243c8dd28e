"""Importers: the banks people already keep, turned into interviewer banks.

``import_source(path)`` detects the format (or takes one) and returns an
:class:`~interviewer.content.importers.result.ImportResult`: the bank, what was skipped (file:line and
why), the fields not mapped, and the author's key points per question.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from interviewer.content.bank import ID_RE, import_plaintext, load_bank, read_text
from interviewer.errors import BankError
from interviewer.content.importers.detect import FORMATS, detect
from interviewer.content.importers.result import ImportResult, Reading, make_bank, printable

__all__ = ["FORMATS", "ImportResult", "import_source"]

_HEAD_BYTES = 8192


def _head(path: Path) -> str | None:
    if path.is_dir() or path.suffix.lower() in (".apkg", ".colpkg"):
        return None
    try:
        with open(path, "rb") as f:
            data = f.read(_HEAD_BYTES)
    except OSError:
        return None  # read_text below gives the one-line error
    return data.decode("utf-8-sig", "replace").replace("\r\n", "\n").replace("\r", "\n")


def import_source(path: Path | str, fmt: str | None = None, *, columns: dict[str, str] | None = None,
                  bank_id: str | None = None, title: str | None = None,
                  language: str | None = None) -> ImportResult:
    path = Path(path)
    if not path.exists():
        raise BankError("file not found", path=path, hint="check the path")
    fmt = fmt or detect(path, _head(path))
    if fmt not in FORMATS:
        raise BankError(f"unknown format '{fmt}'", hint=f"one of {', '.join(FORMATS)}")
    if path.is_dir() and fmt != "markdown-folder":
        raise BankError(f"is a directory; --format {fmt} reads a file", path=path)
    reading = Reading()
    columns = columns or {}
    if fmt in ("bank", "plain"):
        text = read_text(path)
        if bank_id and not ID_RE.match(bank_id):
            raise BankError(f"bank id '{printable(bank_id)}' may only use letters, digits, '-', '_' and '.'",
                            hint="give another with --id")
        if fmt == "bank":
            bank = load_bank(path)
            bank = replace(bank, id=bank_id or bank.id, title=title or bank.title,
                           language=language or bank.language)
        else:
            bank = import_plaintext(text, path=path, bank_id=bank_id, title=title,
                                    language=language)
        return ImportResult(bank, fmt, [], [], {})
    if fmt == "markdown-folder":
        from interviewer.content.importers.markdown_folder import read_folder, read_question_file

        if path.is_dir():
            read_folder(path, reading)
        else:
            reading.files = 1
            read_question_file(read_text(path), path, reading)
    elif fmt == "anki-apkg":
        from interviewer.content.importers.anki_apkg import read_apkg

        read_apkg(path, reading)
    else:
        text = read_text(path)
        if fmt == "markdown":
            from interviewer.content.importers.markdown_headings import read_headings

            read_headings(text, path, reading)
        elif fmt in ("csv", "tsv"):
            from interviewer.content.importers.tabular import read_table

            read_table(text, path, reading, delimiter="\t" if fmt == "tsv" else ",",
                       columns=columns)
        elif fmt == "json":
            from interviewer.content.importers.jsonfile import read_json

            read_json(text, path, reading, columns=columns)
        elif fmt == "jsonl":
            from interviewer.content.importers.jsonfile import read_jsonl

            read_jsonl(text, path, reading, columns=columns)
        else:
            from interviewer.content.importers.anki_text import read_anki_text

            read_anki_text(text, path, reading)
    return make_bank(reading, fmt, path, bank_id=bank_id, title=title, language=language)
