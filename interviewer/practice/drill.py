"""Practice that adapts: what is due, what to drill, how mastered a bank is, what changed.

Everything here computes from a bank's review log (:class:`~interviewer.practice.srs.ReviewLog`, read
by the caller with :meth:`Store.review_log <interviewer.sessions.store.Store.review_log>`); nothing
is cached, so a rubric edit or a suspended point changes the answers at once.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timezone

from interviewer.content.bank import Bank, Question
from interviewer.grading.grade import Grade
from interviewer.content.rubric import Rubric
from interviewer.practice.srs import PointState, Review, ReviewLog, mastered, schedule
from interviewer.content.bank_rubric import rubric_for_bank
from interviewer.sessions.plan import InterviewPlan


def _parse(ts: str) -> datetime:
    at = datetime.fromisoformat(ts)
    return at if at.tzinfo else at.replace(tzinfo=timezone.utc)


def histories(log: ReviewLog, as_of: datetime | None = None) -> dict[str, list[Review]]:
    """Review history per point id of a bank (only reviews up to ``as_of`` when given)."""
    out: dict[str, list[Review]] = defaultdict(list)
    for _bank, _qid, pid, _text, outcome, at in log.reviews:
        when = _parse(at)
        if as_of is None or when <= as_of:
            out[pid].append(Review(when, outcome))
    return dict(out)


@dataclass(frozen=True)
class PointStatus:
    question_id: str
    point_id: str
    text: str
    state: PointState
    reviews: int
    mastered: bool


def point_statuses(log: ReviewLog, rubric: Rubric,
                   as_of: datetime | None = None) -> list[PointStatus]:
    """Every point of the current rubric that is not suspended, with its SM-2 state."""
    hist = histories(log, as_of)
    suspended = log.suspended
    out = []
    for q in rubric.questions:
        for p in q.points:
            if p.id in suspended:
                continue
            h = hist.get(p.id, [])
            out.append(PointStatus(q.id, p.id, p.text, schedule(h), len(h), mastered(h)))
    return out


def due_points(statuses: list[PointStatus], now: datetime) -> list[PointStatus]:
    """Points reviewed before whose next review has come, most overdue first."""
    due = [s for s in statuses if s.reviews and s.state.is_due(now)]
    return sorted(due, key=lambda s: -s.state.overdue_days(now))


def drill_questions(bank: Bank, statuses: list[PointStatus], now: datetime,
                    count: int | None = None) -> list[Question]:
    """Questions with due points (most overdue first), then the weakest practised ones.

    Weakness is the share of a question's points not mastered; never-practised questions
    come last, since a drill is for what you have seen before.
    """
    by_q: dict[str, list[PointStatus]] = defaultdict(list)
    for s in statuses:
        by_q[s.question_id].append(s)

    def key(q: Question) -> tuple:
        points = by_q.get(q.id, [])
        due = [s.state.overdue_days(now) for s in points if s.reviews and s.state.is_due(now)]
        practised = any(s.reviews for s in points)
        weakness = (sum(not s.mastered for s in points) / len(points)) if points else 0.0
        return (0 if due else 1 if practised else 2, -max(due, default=0.0), -weakness)

    ordered = sorted((q for q in bank.questions if by_q.get(q.id)), key=key)
    return ordered[:count] if count else ordered


def drill_plan(log: ReviewLog, bank: Bank, count: int | None, *, time_limit: float | None,
               total_limit: float | None, followups: bool,
               now: datetime | None = None) -> InterviewPlan | None:
    """The interview of a drill: the questions :func:`drill_questions` picks from the bank's
    review log. None when nothing in the bank was ever reviewed (nothing to drill yet)."""
    statuses = point_statuses(log, rubric_for_bank(bank).rubric)
    if not any(s.reviews for s in statuses):
        return None
    questions = drill_questions(bank, statuses, now or datetime.now(timezone.utc), count)
    return InterviewPlan(bank=bank, questions=tuple(questions), time_limit=time_limit,
                         total_limit=total_limit, followups=followups)


def mastery(statuses: list[PointStatus], bank: Bank) -> dict[str, float]:
    """Share of points mastered, for the bank (key "") and per tag."""
    tags = {q.id: q.tags for q in bank.questions}
    groups: dict[str, list[bool]] = defaultdict(list)
    for s in statuses:
        groups[""].append(s.mastered)
        for tag in tags.get(s.question_id, ()):
            groups[tag].append(s.mastered)
    return {k: sum(v) / len(v) for k, v in groups.items() if v}


def session_mastery(log: ReviewLog, bank: Bank, rubric: Rubric, asked: list[Question],
                    as_of: datetime | None = None) -> dict[str, float]:
    """Mastery for a session's report: the bank ("") and the tags of the questions it asked,
    from the reviews made up to ``as_of`` (its end); empty before any review."""
    statuses = point_statuses(log, rubric, as_of)
    if not any(s.reviews for s in statuses):
        return {}
    tags = {t for q in asked for t in q.tags}
    return {k: v for k, v in mastery(statuses, bank).items() if k == "" or k in tags}


def mastery_over_time(log: ReviewLog, rubric: Rubric) -> list[tuple[datetime, float]]:
    """Bank mastery after each review date, for a chart."""
    reviews = log.reviews
    point_ids = {p.id for q in rubric.questions for p in q.points}
    point_ids -= log.suspended
    if not point_ids:
        return []
    out = []
    hist: dict[str, list[Review]] = defaultdict(list)
    for i, (_b, _q, pid, _t, outcome, at) in enumerate(reviews):
        hist[pid].append(Review(_parse(at), outcome))
        if i + 1 == len(reviews) or reviews[i + 1][5] != at:
            share = sum(mastered(hist[p]) for p in point_ids) / len(point_ids)
            out.append((_parse(at), share))
    return out


@dataclass(frozen=True)
class RetakeDiff:
    delta: float
    newly_covered: tuple[str, ...]  # point texts
    lost: tuple[str, ...]


def retake_diff(previous: Grade, current: Grade) -> RetakeDiff:
    """What changed since the last attempt at the same question."""
    before = {p.point_id: p.verdict for p in previous.points}
    gained = tuple(p.text for p in current.points
                   if p.verdict == "covered" and before.get(p.point_id) != "covered")
    lost = tuple(p.text for p in current.points
                 if p.verdict != "covered" and before.get(p.point_id) == "covered")
    return RetakeDiff(current.score - previous.score, gained, lost)
