"""Sessions on disk: SQLite in the data directory, so that nothing a user typed is lost.

One writer connection per process (the UI thread), WAL so a second app instance and the
``history``/``report`` commands can read while an interview writes. Every draft is committed
as it is saved; a session killed by SIGKILL leaves its last draft and elapsed time behind,
and the next start offers to resume it.

A running app holds an advisory lock on ``<data>/locks/<session>.lock``; the kernel drops
it when the process dies, however it dies, which is how an *interrupted* session is told
from one that another instance is still running.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path

from interviewer.practice.srs import ReviewLog
from interviewer.sessions.locking import (
    SessionBusy,
    is_locked,
    lock_timeout,
    locked_error,
)
from interviewer.sessions.session_locks import SessionLocks
from interviewer.sessions.rows import AttemptRow, SessionRow
from interviewer.sessions.schema import NewerSchemaError, migrate
from interviewer.sessions.statements import draft_write, utc_now
from interviewer.urls import redact_url

DB_NAME = "interviewer.db"


class Store:
    """The session database. ``persistent`` is False when nothing can be written."""

    def __init__(self, conn: sqlite3.Connection, path: Path | None, notice: str | None = None,
                 persistent: bool = True) -> None:
        self.conn = conn
        self.path = path
        self.notice = notice  # one line for the user about what happened on open
        self.persistent = persistent
        self.last_error: str | None = None
        self.last_locked = False  # whether that error was another process's lock
        self.moved_aside: Path | None = None  # where a corrupt database was moved on open
        self.locks = SessionLocks(path.parent / "locks" if path is not None else None)
        self.busy_ms = 5000

    # ------------------------------------------------------------ opening

    @classmethod
    def open(cls, data_dir: Path, timeout: float | None = None) -> Store:
        """Open or create the database; a corrupt one is moved aside, never deleted.

        A database another process holds locked is healthy: after waiting ``timeout``
        seconds this raises :class:`DatabaseLocked` and leaves the file where it is.
        """
        timeout = lock_timeout() if timeout is None else timeout
        path = data_dir / DB_NAME
        try:
            data_dir.mkdir(parents=True, exist_ok=True)
            if not os.access(data_dir, os.W_OK):
                raise PermissionError(data_dir)
        except OSError:
            return cls.read_only(path, f"{data_dir} is not writable: this interview will not "
                                       "be saved (fix the permissions or set INTERVIEWER_HOME)")
        try:
            conn = cls._connect(path, timeout)
            store = cls(conn, path)
            store.busy_ms = int(timeout * 1000)
            return store
        except NewerSchemaError as exc:
            raise NewerSchemaError(exc.message, path=path, hint=exc.hint) from None
        except sqlite3.DatabaseError as exc:
            if is_locked(exc):
                raise locked_error(path) from None
            if "readonly" in str(exc) or "unable to open" in str(exc):
                return cls.read_only(path, f"{path} cannot be written ({exc}): this interview "
                                           "will not be saved")
            aside = path.with_name(f"{path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
            for suffix in ("", "-wal", "-shm"):
                src = Path(str(path) + suffix)
                if src.exists():
                    src.replace(Path(str(aside) + suffix))
            conn = cls._connect(path, timeout)
            store = cls(conn, path, notice=f"the session database was unreadable ({exc}); it "
                                           f"was moved to {aside} and a new one started")
            store.moved_aside = aside
            return store

    @classmethod
    def read_only(cls, path: Path, notice: str) -> Store:
        """What can be read of a database that cannot be written, copied into memory: past
        sessions stay visible, and nothing claims to be saved (``persistent`` is False)."""
        memory = sqlite3.connect(":memory:", check_same_thread=False)
        if path.is_file():
            for query in ("mode=ro", "immutable=1"):  # immutable: a WAL file we may not create
                try:
                    source = sqlite3.connect(f"{path.resolve().as_uri()}?{query}", uri=True)
                    try:
                        source.backup(memory)
                    finally:
                        source.close()
                    break
                except sqlite3.Error:
                    continue
        try:
            migrate(memory)
        except (sqlite3.Error, NewerSchemaError):
            memory.close()
            return cls.in_memory(notice)
        return cls(memory, None, notice=notice, persistent=False)

    @classmethod
    def in_memory(cls, notice: str | None = None) -> Store:
        conn = sqlite3.connect(":memory:", check_same_thread=False)
        migrate(conn)
        return cls(conn, None, notice=notice, persistent=notice is None)

    @staticmethod
    def _connect(path: Path, timeout: float = 5.0) -> sqlite3.Connection:
        conn = sqlite3.connect(path, timeout=timeout, check_same_thread=False)
        try:
            conn.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            result = conn.execute("PRAGMA quick_check").fetchone()
            if result is None or result[0] != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {result}")
            migrate(conn)
        except (sqlite3.DatabaseError, NewerSchemaError):
            conn.close()
            raise
        return conn

    def close(self) -> None:
        self.locks.release_all()
        self.conn.close()

    # ------------------------------------------------------------ writing

    def _write(self, sql: str, args: tuple = ()) -> sqlite3.Cursor | None:
        try:
            with self.conn:
                cur = self.conn.execute(sql, args)
        except sqlite3.Error as exc:
            self.last_error = f"cannot save: {exc}"
            self.last_locked = is_locked(exc)
            return None
        self.last_error = None
        self.last_locked = False
        return cur

    def start_session(self, session_id: str, bank_id: str, bank_title: str, plan: dict,
                      model_id: str | None) -> str:
        self._write("INSERT INTO sessions (id, started_at, bank_id, bank_title, model_id, "
                    "status, plan_json) VALUES (?, ?, ?, ?, ?, 'active', ?)",
                    (session_id, utc_now(), bank_id, bank_title, redact_url(model_id),
                     redact_url(json.dumps(plan, ensure_ascii=False))))
        self.hold(session_id)
        return session_id

    def ensure_attempt(self, session_id: str, seq: int, question_id: str, question_text: str,
                       retry_of: int | None = None) -> None:
        self._write("INSERT OR IGNORE INTO attempts (session_id, seq, question_id, "
                    "question_text, retry_of, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (session_id, seq, question_id, question_text, retry_of, utc_now()))

    def try_write(self, sql: str, args: tuple = ()) -> bool | None:
        """Write now or not at all, never waiting: True when written, False when another
        connection holds the write lock, None when it failed (``last_error`` says why)."""
        try:
            self.conn.execute("PRAGMA busy_timeout=0")
            try:
                with self.conn:
                    self.conn.execute(sql, args)
            finally:
                self.conn.execute(f"PRAGMA busy_timeout={self.busy_ms}")
        except sqlite3.Error as exc:
            if is_locked(exc):
                return False
            self.last_error = f"cannot save: {exc}"
            return None
        self.last_error = None
        return True

    def save_draft(self, session_id: str, seq: int, answer: str, time_used: float) -> bool:
        cur = self._write(*draft_write(session_id, seq, answer, time_used))
        return cur is not None

    def save_result(self, session_id: str, seq: int, *, answer: str, time_used: float,
                    grade: dict | None, score: float | None, skipped: bool = False,
                    auto_submitted: bool = False, rubric_sha256: str | None = None,
                    followups: list[dict] | None = None) -> bool:
        cur = self._write(
            "UPDATE attempts SET answer = ?, time_used = ?, grade_json = ?, score = ?, "
            "skipped = ?, auto_submitted = ?, rubric_sha256 = ?, graded_at = ?, updated_at = ?, "
            "followups_json = ? WHERE session_id = ? AND seq = ?",
            (answer, time_used, json.dumps(grade, ensure_ascii=False) if grade else None, score,
             int(skipped), int(auto_submitted), rubric_sha256, utc_now() if grade else None,
             utc_now(), json.dumps(followups or [], ensure_ascii=False), session_id, seq))
        return cur is not None

    def finish_session(self, session_id: str, status: str = "finished") -> None:
        self._write("UPDATE sessions SET status = ?, ended_at = ? WHERE id = ?",
                    (status, utc_now(), session_id))
        self.release(session_id)

    # ------------------------------------------------------------ locks

    def hold(self, session_id: str) -> bool:
        """Mark the session as running in this process (False: another process has it)."""
        return self.locks.hold(session_id)

    def closing(self) -> None:
        """This process is saving and about to end: a resume started now waits for it."""
        self.locks.closing()

    def claim_interrupted(self) -> SessionRow | None:
        """The newest interrupted session, now held by this process; None if there is none.

        :class:`SessionBusy` when every unfinished session is open in another window.
        """
        busy = False
        for (session_id,) in self.conn.execute(
                "SELECT id FROM sessions WHERE status = 'active' ORDER BY started_at DESC").fetchall():
            if session_id in self.locks:
                continue
            if self.locks.hold_or_wait_for_closing(session_id):
                row = self.session(session_id)
                if row is not None and row.status == "active":
                    return row
                self.release(session_id)
                continue
            busy = True
        if busy:
            raise SessionBusy("the interrupted interview is already open in another window",
                              hint="switch to that window, or finish it there first")
        return None

    def release(self, session_id: str) -> None:
        self.locks.release(session_id)

    def is_running_elsewhere(self, session_id: str) -> bool:
        return self.locks.is_held_elsewhere(session_id)

    # ------------------------------------------------------------ reading

    def session(self, session_id: str) -> SessionRow | None:
        row = self.conn.execute(
            "SELECT id, started_at, ended_at, bank_id, bank_title, model_id, status, plan_json "
            "FROM sessions WHERE id = ?", (session_id,)).fetchone()
        if row is None:
            return None
        attempts = [
            AttemptRow(id=r[0], seq=r[1], question_id=r[2], question_text=r[3], answer=r[4],
                       score=r[5], grade=json.loads(r[6]) if r[6] else None, time_used=r[7],
                       skipped=bool(r[8]), auto_submitted=bool(r[9]), retry_of=r[10],
                       followups=json.loads(r[11] or "[]"))
            for r in self.conn.execute(
                "SELECT id, seq, question_id, question_text, answer, score, grade_json, "
                "time_used, skipped, auto_submitted, retry_of, followups_json FROM attempts "
                "WHERE session_id = ? ORDER BY seq", (session_id,))]
        return SessionRow(id=row[0], started_at=row[1], ended_at=row[2], bank_id=row[3],
                          bank_title=row[4], model_id=row[5], status=row[6],
                          plan=json.loads(row[7] or "{}"), attempts=attempts)

    def sessions(self, limit: int | None = None) -> list[SessionRow]:
        ids = [r[0] for r in self.conn.execute(
            "SELECT id FROM sessions ORDER BY started_at DESC, id DESC"
            + (f" LIMIT {int(limit)}" if limit else ""))]
        return [s for s in (self.session(i) for i in ids) if s is not None]

    def interrupted(self) -> list[SessionRow]:
        """Sessions left active by a process that is gone, newest first."""
        ids = [r[0] for r in self.conn.execute(
            "SELECT id FROM sessions WHERE status = 'active' ORDER BY started_at DESC")]
        return [s for s in (self.session(i) for i in ids if not self.is_running_elsewhere(i))
                if s is not None]

    # ------------------------------------------------------------ reviews

    def record_reviews(self, session_id: str, seq: int, bank_id: str, question_id: str,
                       reviews: list[tuple[str, str, str]], at: str | None = None) -> None:
        """``reviews``: (point id, point text, outcome); a later call for the same attempt
        replaces its reviews (a follow-up can turn a lapse into a hard recall)."""
        at = at or utc_now()
        try:
            with self.conn:
                self.conn.executemany(
                    "INSERT OR REPLACE INTO point_reviews VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [(session_id, seq, bank_id, question_id, pid, text, outcome, at)
                     for pid, text, outcome in reviews])
        except sqlite3.Error as exc:
            self.last_error = f"cannot save: {exc}"

    def reviews(self, bank_id: str | None = None) -> list[tuple[str, str, str, str, str, str]]:
        """(bank, question, point id, point text, outcome, reviewed_at), oldest first."""
        sql = ("SELECT bank_id, question_id, point_id, point_text, outcome, reviewed_at "
               "FROM point_reviews")
        args: tuple = ()
        if bank_id is not None:
            sql += " WHERE bank_id = ?"
            args = (bank_id,)
        return list(self.conn.execute(sql + " ORDER BY reviewed_at, session_id, seq", args))

    def review_log(self, bank_id: str) -> ReviewLog:
        """A bank's reviews and suspended points, for :mod:`interviewer.practice.drill`."""
        return ReviewLog(bank_id, tuple(self.reviews(bank_id)),
                         frozenset(p for _b, p in self.suspended(bank_id)))

    def set_suspended(self, bank_id: str, point_id: str, suspended: bool) -> None:
        if suspended:
            self._write("INSERT OR REPLACE INTO suspended_points VALUES (?, ?, ?)",
                        (bank_id, point_id, utc_now()))
        else:
            self._write("DELETE FROM suspended_points WHERE bank_id = ? AND point_id = ?",
                        (bank_id, point_id))

    def suspended(self, bank_id: str | None = None) -> set[tuple[str, str]]:
        sql, args = "SELECT bank_id, point_id FROM suspended_points", ()
        if bank_id is not None:
            sql, args = sql + " WHERE bank_id = ?", (bank_id,)
        return {(b, p) for b, p in self.conn.execute(sql, args)}

    def last_grade(self, bank_id: str, question_id: str, before_session: str | None = None
                   ) -> dict | None:
        """The latest stored grade of a question in another session (for retake diffs)."""
        row = self.conn.execute(
            "SELECT a.grade_json FROM attempts a JOIN sessions s ON s.id = a.session_id "
            "WHERE s.bank_id = ? AND a.question_id = ? AND a.grade_json IS NOT NULL "
            "AND s.id IS NOT ? ORDER BY a.graded_at DESC, a.updated_at DESC LIMIT 1",
            (bank_id, question_id, before_session)).fetchone()
        return json.loads(row[0]) if row else None

    def schema_version(self) -> int:
        return int(self.conn.execute("PRAGMA user_version").fetchone()[0])


