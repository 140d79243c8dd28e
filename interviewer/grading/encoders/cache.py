"""Rubric embeddings kept on disk, keyed by model id and text hash.

Points, questions and their profiles are embedded once per model and reused across runs;
a changed rubric re-encodes only the texts that changed. Answers are never written here.
A cache that cannot be opened or written is simply not used: it only saves time.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np


def _key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class DiskCache:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(path, timeout=2.0, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("CREATE TABLE IF NOT EXISTS vectors (model TEXT NOT NULL, "
                         "sha256 TEXT NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (model, sha256))")
            conn.commit()
            self._conn = conn
        except (OSError, sqlite3.Error):
            self._conn = None

    def get(self, model: str, texts: Sequence[str]) -> dict[str, np.ndarray]:
        if self._conn is None or not texts:
            return {}
        keys = {_key(t): t for t in texts}
        found: dict[str, np.ndarray] = {}
        try:
            with self._lock:
                items = list(keys)
                for start in range(0, len(items), 500):
                    chunk = items[start:start + 500]
                    marks = ",".join("?" * len(chunk))
                    for sha, blob in self._conn.execute(
                            f"SELECT sha256, vector FROM vectors WHERE model = ? AND sha256 IN ({marks})",
                            (model, *chunk)):
                        found[keys[sha]] = np.frombuffer(blob, dtype=np.float32).copy()
        except sqlite3.Error:
            return {}
        return found

    def put(self, model: str, texts: Sequence[str], vectors: np.ndarray) -> None:
        if self._conn is None or not len(texts):
            return
        rows = [(model, _key(t), np.asarray(v, dtype=np.float32).tobytes())
                for t, v in zip(texts, vectors)]
        try:
            with self._lock, self._conn:
                self._conn.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)", rows)
        except sqlite3.Error:
            pass
