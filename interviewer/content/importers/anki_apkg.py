"""Anki ``.apkg`` packages: a zip holding a SQLite collection, read with the standard library.

Each note's first field is the question and its second the reference answer (a field named
Front/Back or Question/Answer is preferred); the HTML is made plain text; tags are kept.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
import zipfile
from pathlib import Path

from interviewer.errors import BankError
from interviewer.content.importers.anki_text import add_note
from interviewer.content.importers.result import Reading

_COLLECTIONS = ("collection.anki21", "collection.anki2")
_FRONT = ("front", "question", "正面", "问题", "text")
_BACK = ("back", "answer", "背面", "答案", "back extra", "extra")
_MAX_COLLECTION = 512 * 1024 * 1024


def read_apkg(path: Path, reading: Reading) -> None:
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise BankError(f"not an Anki package (a zip file): {exc}", path=path) from None
    with archive:
        names = set(archive.namelist())
        member = next((n for n in _COLLECTIONS if n in names), None)
        if "collection.anki21b" in names and member != "collection.anki21":
            # beside it, collection.anki2 is a stub whose one note says to update Anki
            raise BankError("this package uses Anki's newer compressed format", path=path,
                            hint="in Anki, export with 'Support older Anki versions' ticked")
        if member is None:
            raise BankError("no collection inside this package", path=path)
        if archive.getinfo(member).file_size > _MAX_COLLECTION:
            raise BankError("the collection inside this package is too large", path=path)
        with tempfile.TemporaryDirectory(prefix="interviewer-apkg-") as tmp:
            db_path = Path(tmp) / "collection.sqlite"
            with archive.open(member) as src, open(db_path, "wb") as dst:
                while chunk := src.read(1 << 20):
                    dst.write(chunk)
            _read_collection(db_path, path, reading)
        if "media" in names and archive.getinfo("media").file_size > 2:  # "{}" when empty
            reading.not_mapped("media files")


def _read_collection(db_path: Path, path: Path, reading: Reading) -> None:
    try:
        con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise BankError(f"cannot open the collection: {exc}", path=path) from None
    try:
        models = _models(con)
        rows = con.execute("SELECT id, guid, mid, tags, flds FROM notes ORDER BY id").fetchall()
    except sqlite3.Error as exc:
        raise BankError(f"the collection is not readable: {exc}", path=path) from None
    finally:
        con.close()
    for n, (_, guid, mid, tags, flds) in enumerate(rows, start=1):
        fields = str(flds or "").split("\x1f")
        order = _field_order(models.get(str(mid)), len(fields))
        fields = [fields[i] for i in order] + [f for i, f in enumerate(fields) if i not in order]
        # a note's number stands for its line
        add_note(fields, {"guid": str(guid or ""), "tags": str(tags or "")}, path, n, reading)


def _models(con: sqlite3.Connection) -> dict[str, list[str]]:
    """Field names per note type, from the collection's ``models`` JSON (older schema) or the
    ``fields`` table (newer schema)."""
    out: dict[str, list[str]] = {}
    try:
        (raw,) = con.execute("SELECT models FROM col").fetchone() or ("",)
        for mid, model in (json.loads(raw or "{}") or {}).items():
            out[str(mid)] = [str(f.get("name", "")) for f in model.get("flds", [])]
    except (sqlite3.Error, ValueError, TypeError, AttributeError):
        pass
    if not out:
        try:
            for ntid, name in con.execute("SELECT ntid, name FROM fields ORDER BY ntid, ord"):
                out.setdefault(str(ntid), []).append(str(name))
        except sqlite3.Error:
            pass
    return out


def _field_order(names: list[str] | None, count: int) -> list[int]:
    """Indexes of the front and back fields: by name when the note type names them."""
    lower = [n.strip().lower() for n in names or []]
    front = next((i for i, n in enumerate(lower) if n in _FRONT and i < count), 0)
    back = next((i for i, n in enumerate(lower) if n in _BACK and i < count and i != front),
                1 if front != 1 else 0)
    return [front, back] if count > 1 else [0]
