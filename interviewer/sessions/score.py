"""The score of a session: one definition for the summary, the reports and history.

Each question counts once, at its latest attempt that was graded or skipped (a retake
replaces the earlier score; a retake left unanswered does not). A skipped question counts
0. A question the interview never reached (it was stopped, or the total time ran out)
is left out. A session in which nothing was graded has no score, shown as "—".
"""

from __future__ import annotations

from collections.abc import Iterable

RULE = ("each question counts once, at its latest graded attempt; skipped questions "
        "count 0; questions not reached are left out")
NO_SCORE = "—"


def session_score(attempts: Iterable[tuple[str, float | None, bool]]) -> float | None:
    """``attempts``: (question id, score or None, skipped), in the order they were made."""
    latest: dict[str, float] = {}
    graded = False
    for question_id, score, skipped in attempts:
        if score is not None:
            latest[question_id] = score
            graded = True
        elif skipped:
            latest[question_id] = 0.0
    if not graded:
        return None
    return sum(latest.values()) / len(latest)


def format_score(score: float | None) -> str:
    return NO_SCORE if score is None else f"{score:.0%}"
