"""The session database's schema, and the steps that bring an older one up to date."""

from __future__ import annotations

import sqlite3

from interviewer.errors import InterviewerError


SCHEMA_VERSION = 4


# Each entry takes the schema from version N-1 to N. Never edit a released step: add one.
MIGRATIONS: dict[int, list[str]] = {
    1: [
        """CREATE TABLE sessions (
            id TEXT PRIMARY KEY,
            started_at TEXT NOT NULL,
            ended_at TEXT,
            bank_id TEXT NOT NULL,
            bank_title TEXT NOT NULL,
            model_id TEXT,
            status TEXT NOT NULL DEFAULT 'active'
        )""",
        """CREATE TABLE attempts (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            session_id TEXT NOT NULL REFERENCES sessions(id),
            seq INTEGER NOT NULL,
            question_id TEXT NOT NULL,
            question_text TEXT NOT NULL,
            answer TEXT NOT NULL DEFAULT '',
            score REAL,
            grade_json TEXT,
            time_used REAL NOT NULL DEFAULT 0,
            skipped INTEGER NOT NULL DEFAULT 0,
            updated_at TEXT NOT NULL,
            UNIQUE (session_id, seq)
        )""",
    ],
    2: [
        # what resuming and reporting need: the plan, limits, rubric identity, retakes
        "ALTER TABLE sessions ADD COLUMN plan_json TEXT NOT NULL DEFAULT '{}'",
        "ALTER TABLE attempts ADD COLUMN auto_submitted INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE attempts ADD COLUMN retry_of INTEGER",
        "ALTER TABLE attempts ADD COLUMN rubric_sha256 TEXT",
        "ALTER TABLE attempts ADD COLUMN graded_at TEXT",
        "CREATE INDEX attempts_session ON attempts(session_id, seq)",
    ],
    3: [
        # follow-up questions, their answers and grades, per attempt (JSON list)
        "ALTER TABLE attempts ADD COLUMN followups_json TEXT NOT NULL DEFAULT '[]'",
    ],
    4: [
        # spaced repetition: one review per graded point, and points the user set aside
        """CREATE TABLE point_reviews (
            session_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            bank_id TEXT NOT NULL,
            question_id TEXT NOT NULL,
            point_id TEXT NOT NULL,
            point_text TEXT NOT NULL,
            outcome TEXT NOT NULL,
            reviewed_at TEXT NOT NULL,
            PRIMARY KEY (session_id, seq, point_id)
        )""",
        "CREATE INDEX point_reviews_point ON point_reviews(bank_id, point_id, reviewed_at)",
        """CREATE TABLE suspended_points (
            bank_id TEXT NOT NULL,
            point_id TEXT NOT NULL,
            suspended_at TEXT NOT NULL,
            PRIMARY KEY (bank_id, point_id)
        )""",
    ],
}


class NewerSchemaError(InterviewerError):
    """The database was written by a newer interviewer; do not touch it."""


def migrate(conn: sqlite3.Connection) -> int:
    """Bring the schema to :data:`SCHEMA_VERSION`, one transaction per step."""
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise NewerSchemaError(f"the session database is from a newer interviewer (schema "
                               f"{version} > {SCHEMA_VERSION})", hint="upgrade interviewer")
    for target in range(version + 1, SCHEMA_VERSION + 1):
        with conn:
            for statement in MIGRATIONS[target]:
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {target}")
    return SCHEMA_VERSION

