"""Anki: a deck exported as "Notes in Plain Text" (tab-separated fields, ``#key:value``
header lines), and the card HTML both Anki formats hold, made plain text.

The first field is the question, the second the reference answer; a tags column (named by
``#tags column:N``) gives the tags; further fields are reported as not mapped.
"""

from __future__ import annotations

import csv
import io
import html
import re
from pathlib import Path

from interviewer.content.importers.result import Found, Reading, split_tags
from interviewer.content.importers.tabular import csv_rows

_SEPARATORS = {"tab": "\t", "comma": ",", "semicolon": ";", "pipe": "|", "space": " ",
               "colon": ":"}
_BREAK = re.compile(r"<\s*br\s*/?\s*>|<\s*/\s*(?:div|p|li|tr|h[1-6]|pre)\s*>|"
                    r"<\s*(?:ul|ol|hr)\b[^>]*>", re.IGNORECASE)
_ITEM = re.compile(r"<\s*li\b[^>]*>", re.IGNORECASE)
_DROP = re.compile(r"<\s*(script|style)\b.*?<\s*/\s*\1\s*>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]*>")
_SOUND = re.compile(r"\[sound:[^\]]*\]")
_CLOZE = re.compile(r"\{\{c\d+::(.*?)(?:::[^}]*)?\}\}", re.DOTALL)
_IMAGE = re.compile(r"<\s*img\b", re.IGNORECASE)


def html_to_text(value: str, reading: Reading | None = None) -> str:
    """A card field as plain text: line breaks kept, tags dropped, entities decoded."""
    if reading is not None and _IMAGE.search(value):
        reading.not_mapped("images in card fields")
    if reading is not None and _SOUND.search(value):
        reading.not_mapped("sounds in card fields")
    text = _DROP.sub("", value.replace("\r\n", "\n"))
    text = _BREAK.sub("\n", text)
    text = _ITEM.sub("- ", text)
    text = _TAG.sub("", text)
    text = _SOUND.sub("", text)
    text = _CLOZE.sub(r"\1", text)
    text = html.unescape(text).replace("\xa0", " ")
    lines = [line.rstrip() for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n")


def read_anki_text(text: str, path: Path, reading: Reading) -> None:
    lines = text.split("\n")
    header: dict[str, str] = {}
    start = 0
    while start < len(lines) and lines[start].startswith("#") and ":" in lines[start]:
        key, _, value = lines[start][1:].partition(":")
        header[key.strip().lower()] = value.strip()
        start += 1
    sep = _SEPARATORS.get(header.get("separator", "tab").lower(), header.get("separator", "\t"))
    is_html = header.get("html", "true").lower() != "false"
    special = {}
    for key in ("guid", "notetype", "deck", "tags"):
        value = header.get(f"{key} column", "")
        if value.isdigit() and int(value) > 0:
            special[int(value) - 1] = key
    for key in header:
        if key not in ("separator", "html", "guid column", "notetype column", "deck column",
                       "tags column", "columns"):
            reading.not_mapped(f"header '#{key}'")
    body = io.StringIO("\n".join(lines[start:]), newline="")
    reader = csv.reader(body, delimiter=sep[:1] or "\t")
    for line, row in csv_rows(reader, path, reading, first=start + 1, offset=start,
                              invalid="line is not valid"):
        fields = [cell for i, cell in enumerate(row) if i not in special]
        extra = {special[i]: cell for i, cell in enumerate(row) if i in special}
        add_note(fields, extra, path, line, reading, is_html)


def add_note(fields: list[str], extra: dict[str, str], path: Path, line: int,
             reading: Reading, is_html: bool = True) -> None:
    """One note: front, back, tags, and a guid kept as the id when it is a valid one."""
    def clean(value: str) -> str:
        return html_to_text(value, reading) if is_html else value.strip()

    front = clean(fields[0]) if fields else ""
    back = clean(fields[1]) if len(fields) > 1 else ""
    for n, value in enumerate(fields[2:], start=3):
        if value.strip():
            reading.not_mapped(f"note field {n}")
    if not front:
        reading.skip(path, line, "the note's front is empty")
        return
    if not back:
        reading.skip(path, line, f"the note '{front[:40]}' has no back (no answer)")
        return
    reading.found.append(Found(text=front, answer=back, path=path, line=line,
                               id=extra.get("guid"), tags=split_tags(extra.get("tags", "")
                                                                   .split())))
