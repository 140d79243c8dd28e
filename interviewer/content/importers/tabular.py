"""CSV and TSV with a header row: one question per row."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path

from interviewer.errors import BankError
from interviewer.content.importers.fields import found_from, map_fields
from interviewer.content.importers.result import Reading

csv.field_size_limit(1 << 24)


def csv_rows(reader, path: Path, reading: Reading, *, first: int, offset: int,
             invalid: str) -> Iterator[tuple[int, list[str]]]:
    """``(line, cells)`` of each row that is not blank; a row that is not valid CSV is
    skipped with the reason and ends the reading. ``offset`` is the line the reader began
    after; ``first`` is the line of its next row."""
    at = first
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            reading.skip(path, at, f"{invalid}: {exc}")
            return
        line, at = at, offset + reader.line_num + 1
        if any(cell.strip() for cell in row):
            yield line, row


def read_table(text: str, path: Path, reading: Reading, *, delimiter: str,
               columns: dict[str, str]) -> None:
    first = text.split("\n", 1)[0]
    if delimiter not in first:
        # spreadsheets in many locales separate with ';'; a tab may come in a .csv too
        delimiter = next((d for d in (";", "\t", "|") if d in first), delimiter)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        header = next(reader)
    except StopIteration:
        raise BankError("file is empty", path=path) from None
    except csv.Error as exc:
        raise BankError(f"header is not valid CSV: {exc}", path=path, line=1) from None
    names = [h.strip() for h in header]
    mapping = map_fields(names, columns, path, reading)
    for line, row in csv_rows(reader, path, reading, first=reader.line_num + 1, offset=0,
                              invalid="row is not valid CSV"):
        if len(row) > len(names):
            reading.skip(path, line, f"{len(row)} cells but {len(names)} columns "
                                     "(a field with the separator needs quotes)")
            continue
        found_from(dict(zip(names, row)), mapping, path, line, reading)
