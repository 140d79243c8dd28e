"""The statements that save a draft, shared by the store and the draft writer."""

from __future__ import annotations

import json
from datetime import datetime, timezone


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def draft_write(session_id: str, seq: int, answer: str, time_used: float) -> tuple[str, tuple]:
    """The statement that saves a typed answer; a graded or skipped attempt keeps its own."""
    return ("UPDATE attempts SET answer = ?, time_used = ?, updated_at = ? WHERE session_id = ? "
            "AND seq = ? AND grade_json IS NULL AND skipped = 0",
            (answer, time_used, utc_now(), session_id, seq))


def followup_draft_write(session_id: str, seq: int, followups: list[dict]) -> tuple[str, tuple]:
    """The statement that saves follow-up rounds while the last one is typed; a round
    already submitted (stored without its draft mark) is never overwritten by a draft."""
    last = len(followups) - 1
    return ("UPDATE attempts SET followups_json = ?, updated_at = ? WHERE session_id = ? "
            "AND seq = ? AND (json_array_length(followups_json) <= ? "
            "OR json_extract(followups_json, '$[' || ? || '].draft') = 1)",
            (json.dumps(followups, ensure_ascii=False), utc_now(), session_id, seq, last, last))

