"""What past sessions say: the points missed most and the score trend per bank."""

from __future__ import annotations

from collections import defaultdict

from interviewer.store import SessionRow


def missed_points(rows: list[SessionRow], limit: int = 15) -> list[tuple[str, str, str, int, int]]:
    """``(bank, question id, point, times missed, times asked)``, most missed first."""
    missed: dict[tuple[str, str, str], int] = defaultdict(int)
    seen: dict[tuple[str, str, str], int] = defaultdict(int)
    for row in rows:
        for a in row.attempts:
            for p in (a.grade or {}).get("points", []):
                key = (row.bank_id, a.question_id, str(p.get("text", p.get("id"))))
                seen[key] += 1
                missed[key] += p.get("verdict") in ("missed", "contradicted")
    ranked = sorted((k for k in missed if missed[k]), key=lambda k: (-missed[k], -seen[k], k))
    return [(*k, missed[k], seen[k]) for k in ranked[:limit]]


def trend(rows: list[SessionRow]) -> dict[str, list[float]]:
    """Session scores per bank, oldest first (sessions with no graded answer left out)."""
    out: dict[str, list[float]] = defaultdict(list)
    for row in sorted(rows, key=lambda r: r.started_at):
        if row.score is not None:
            out[row.bank_id].append(row.score)
    return dict(out)
