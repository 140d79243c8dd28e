"""Drafts saved without making the typist wait.

A draft is written at once when the database is free. When another process holds its
write lock, the draft is kept in memory and in a side file (``<data>/drafts/``), and a
background thread with its own connection retries until the database takes it; only the
newest draft of each answer is kept. Whatever happens, what was typed is on disk in one of
the two places, and resuming reads both.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from interviewer.sessions.store import Store

from interviewer.sessions.statements import draft_write, followup_draft_write

from interviewer.sessions.locking import is_locked

RETRY_SECONDS = 0.5


@dataclass(frozen=True)
class _Draft:
    sql: str
    args: tuple
    side: dict  # what the side file holds


def side_dir(store: Store) -> Path | None:
    return store.path.parent / "drafts" if store.path is not None else None


def side_drafts(data_dir: Path, session_id: str) -> dict[tuple[int, str], dict]:
    """Side-file drafts of a session: (seq, "answer" | "followups") -> what was saved."""
    out: dict[tuple[int, str], dict] = {}
    folder = data_dir / "drafts"
    if not folder.is_dir():
        return out
    for path in folder.glob(f"{session_id}.*.json"):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            out[(int(data["seq"]), str(data["kind"]))] = data
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return out


class DraftSaver:
    """Saves drafts of one session; ``on_saved(seq)`` is called (from the background
    thread) when a draft that had to wait reaches the database."""

    def __init__(self, store: Store, session_id: str,
                 on_saved: Callable[[int], None] | None = None) -> None:
        self.store, self.session_id, self.on_saved = store, session_id, on_saved
        self._pending: dict[tuple[int, str], _Draft] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._closed = False

    @property
    def waiting(self) -> bool:
        with self._lock:
            return bool(self._pending)

    def answer(self, seq: int, answer: str, time_used: float) -> bool | None:
        sql, args = draft_write(self.session_id, seq, answer, time_used)
        return self._save((seq, "answer"), _Draft(sql, args, {
            "seq": seq, "kind": "answer", "answer": answer, "time_used": time_used}))

    def followups(self, seq: int, rounds: list[dict]) -> bool | None:
        sql, args = followup_draft_write(self.session_id, seq, rounds)
        return self._save((seq, "followups"), _Draft(sql, args, {
            "seq": seq, "kind": "followups", "followups": rounds}))

    def _save(self, key: tuple[int, str], draft: _Draft) -> bool | None:
        """True: in the database now; None: kept aside until it is free; False: failed."""
        with self._lock:
            queued = key in self._pending  # keep the order: newer after older, never before
            if queued:
                self._pending[key] = draft
        if not queued:
            written = self.store.try_write(draft.sql, draft.args)
            if written is not False:  # in the database, or failed for a reason waiting won't fix
                return bool(written)
            with self._lock:
                self._pending[key] = draft
        self._write_side(key, draft)
        self._start()
        self._wake.set()
        return None

    # ------------------------------------------------------------ side files

    def _side_path(self, key: tuple[int, str]) -> Path | None:
        folder = side_dir(self.store)
        return folder / f"{self.session_id}.{key[0]}.{key[1]}.json" if folder else None

    def _write_side(self, key: tuple[int, str], draft: _Draft) -> None:
        path = self._side_path(key)
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(draft.side, ensure_ascii=False), encoding="utf-8")
            os.replace(tmp, path)
        except OSError:
            pass  # the draft is still in memory and queued for the database

    def _drop_side(self, key: tuple[int, str]) -> None:
        path = self._side_path(key)
        if path is not None:
            path.unlink(missing_ok=True)

    # ------------------------------------------------------------ the background writer

    def _start(self) -> None:
        if self._thread is None and self.store.path is not None:
            self._thread = threading.Thread(target=self._run, name="draft-saver", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        conn = sqlite3.connect(self.store.path, timeout=RETRY_SECONDS, check_same_thread=False)
        try:
            while True:
                self._wake.wait(RETRY_SECONDS)
                self._wake.clear()
                with self._lock:
                    items = list(self._pending.items())
                for key, draft in items:
                    try:
                        with conn:
                            conn.execute(draft.sql, draft.args)
                    except sqlite3.Error as exc:
                        if is_locked(exc):
                            break  # still held: try again in a moment
                        continue  # kept in the side file; a later draft may succeed
                    with self._lock:
                        if self._pending.get(key) is draft:
                            del self._pending[key]
                            self._drop_side(key)
                    if self.on_saved is not None:
                        self.on_saved(key[0])
                with self._lock:
                    if self._closed and (not self._pending or self._give_up):
                        return
        finally:
            conn.close()

    _give_up = False

    def close(self, wait: float = 2.0) -> None:
        """Stop the writer after one last try; what it could not write stays in side files."""
        self._closed = True
        thread = self._thread
        if thread is None:
            return
        self._wake.set()
        thread.join(wait)
        self._give_up = True
        self._wake.set()
