"""Keeping what the user typed on disk, so no crash loses an answer.

A small JSON file per session, written atomically (temp file + rename) so a crash mid-write
leaves the previous version. If the disk refuses, the app keeps going and says so.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class DraftStore:
    directory: Path
    session_id: str = field(default_factory=lambda: time.strftime("%Y%m%d-%H%M%S-")
                            + uuid.uuid4().hex[:6])
    _data: dict = field(default_factory=dict)
    last_error: str | None = None

    @property
    def path(self) -> Path:
        return self.directory / f"{self.session_id}.json"

    def save_draft(self, question_id: str, text: str) -> bool:
        self._data.setdefault("drafts", {})[question_id] = text
        return self._flush()

    def save_answer(self, question_id: str, text: str, score: float | None = None) -> bool:
        self._data.setdefault("answers", {})[question_id] = {"answer": text, "score": score}
        return self._flush()

    def _flush(self) -> bool:
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(self.path.name + ".tmp")
            with tmp.open("w", encoding="utf-8") as fh:
                json.dump(self._data, fh, ensure_ascii=False)
                fh.flush()
                os.fsync(fh.fileno())
            tmp.replace(self.path)
        except OSError as exc:
            self.last_error = f"cannot save to {self.directory}: {exc.strerror}"
            return False
        self.last_error = None
        return True

    def load(self) -> dict:
        try:
            return json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
