"""What past sessions say: the points missed most and the score trend per bank."""

from __future__ import annotations

from collections import defaultdict

from interviewer.grading.grade import Grade
from interviewer.sessions.rows import SessionRow


def missed_points(rows: list[SessionRow], limit: int = 15) -> list[tuple[str, str, str, int, int]]:
    """``(bank, question id, point, times missed, times asked)``, most missed first."""
    missed: dict[tuple[str, str, str], int] = defaultdict(int)
    seen: dict[tuple[str, str, str], int] = defaultdict(int)
    for row in rows:
        for a in row.attempts:
            grade = Grade.from_dict(a.grade, a.answer) if a.grade else None
            for p in grade.points if grade else ():
                key = (row.bank_id, a.question_id, p.text)
                seen[key] += 1
                missed[key] += p.verdict in ("missed", "contradicted")
    ranked = sorted((k for k in missed if missed[k]), key=lambda k: (-missed[k], -seen[k], k))
    return [(*k, missed[k], seen[k]) for k in ranked[:limit]]


def trend(rows: list[SessionRow]) -> dict[str, list[float]]:
    """Session scores per bank, oldest first (sessions with no graded answer left out)."""
    out: dict[str, list[float]] = defaultdict(list)
    for row in sorted(rows, key=lambda r: r.started_at):
        if row.score is not None:
            out[row.bank_id].append(row.score)
    return dict(out)


BARS = "▁▂▃▄▅▆▇█"
MASTERED_RULE = "a point is mastered once covered in its last two reviews, on different days"


def spark(values: list[float]) -> str:
    """One bar per value on a fixed 0-100 % scale (a lone 40 % is a low bar, not a block)."""
    return "".join(BARS[round(max(0.0, min(1.0, v)) * (len(BARS) - 1))] for v in values)


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def score_trend_label(bank_id: str, scores: list[float]) -> str:
    """What the trend of a bank's session scores says, in words and a labelled chart."""
    head = (f"{bank_id}: {plural(len(scores), 'session')}, latest {scores[-1]:.0%}, "
            f"best {max(scores):.0%}")
    return head + "\n" + series_line("score per session", scores)


def series_line(name: str, values: list[float]) -> str:
    if len(values) < 2:
        return f"  {name}: {values[0]:.0%} (one session so far)" if values else ""
    return (f"  {name}, oldest → newest (scale 0–100%): {spark(values)}  "
            f"{values[0]:.0%} → {values[-1]:.0%}")


def mastery_label(bank_id: str, shares: dict[str, float], series: list[float]) -> str:
    """The mastery of a bank and its tags, with what mastered means (why it can be 0 %)."""
    lines = [f"{bank_id} mastery {shares.get('', 0.0):.0%} ({MASTERED_RULE})"]
    tags = ", ".join(f"{t} {v:.0%}" for t, v in sorted(shares.items()) if t)
    if tags:
        lines.append(f"  by tag: {tags}")
    if len(series) >= 2:
        lines.append(f"  mastery after each review (scale 0–100%): {spark(series)}")
    return "\n".join(lines)
