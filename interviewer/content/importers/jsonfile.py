"""JSON (a list of objects, or an object holding one under ``questions``/``items``/``data``)
and JSON Lines (one object per line)."""

from __future__ import annotations

import json
from pathlib import Path

from interviewer.errors import BankError
from interviewer.content.importers.fields import found_from, map_fields
from interviewer.content.importers.result import Reading

_MAX_DEPTH = 64


def read_json(text: str, path: Path, reading: Reading, *, columns: dict[str, str]) -> None:
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        line = getattr(exc, "lineno", None)
        raise BankError("not valid JSON", path=path, line=line,
                        hint="for one object per line use --format jsonl") from None
    if isinstance(data, dict):
        if isinstance(data.get("title"), str):
            reading.title = data["title"]
        data = next((data[k] for k in ("questions", "items", "data", "cards")
                     if isinstance(data.get(k), list)), data)
    if not isinstance(data, list):
        raise BankError("expected a list of objects with question and answer fields", path=path)
    _records([(None, f"item {i + 1}: ", r) for i, r in enumerate(data)], path, reading, columns)


def read_jsonl(text: str, path: Path, reading: Reading, *, columns: dict[str, str]) -> None:
    records = []
    for n, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            records.append((n, "", json.loads(line)))
        except (json.JSONDecodeError, RecursionError):
            reading.skip(path, n, "not valid JSON")
    _records(records, path, reading, columns)


def _records(records: list[tuple[int | None, str, object]], path: Path, reading: Reading,
             columns: dict[str, str]) -> None:
    names: list[str] = []
    for _, _, r in records:
        if isinstance(r, dict):
            names += [str(k) for k in r if str(k) not in names]
    mapping = map_fields(names, columns, path, reading)
    for line, where, record in records:
        if not isinstance(record, dict):
            reading.skip(path, line, f"{where}not an object")
            continue
        found_from({str(k): v for k, v in record.items()}, mapping, path, line, reading, where)
