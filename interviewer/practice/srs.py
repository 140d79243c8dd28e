"""Spaced repetition of key points: SM-2, as a pure function of review history and time.

Why SM-2 and not FSRS: FSRS predicts recall better once its weights are fitted to a
person's review log, but a new user of a mock-interview tool has a few dozen reviews, not
thousands, and FSRS's default weights were fitted to flashcards, not to explaining a system
design out loud. SM-2 needs no fitted weights, is easy to reason about ("covered twice in a
row: next in 6 days"), and its state is recomputed from the log, so nothing drifts.

Outcomes: a point covered unprompted is a good recall (quality 5), one covered only after a
follow-up a hard recall (quality 3), partial or missed a lapse (quality 1): the interval
starts over.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

GOOD, HARD, LAPSE = "good", "hard", "lapse"
QUALITY = {GOOD: 5, HARD: 3, LAPSE: 1}
START_EASE = 2.5
MIN_EASE = 1.3
SAME_DAY_DAYS = 1.0  # recalls closer than this to the last counted review do not count


@dataclass(frozen=True)
class Review:
    at: datetime
    outcome: str  # good | hard | lapse


@dataclass(frozen=True)
class ReviewLog:
    """A bank's practice history as read from the store: what SM-2 and mastery are computed
    from. ``reviews`` rows are (bank, question id, point id, point text, outcome,
    reviewed_at), oldest first; ``suspended`` holds the ids of the points set aside."""

    bank_id: str
    reviews: tuple[tuple[str, str, str, str, str, str], ...] = ()
    suspended: frozenset[str] = frozenset()


@dataclass(frozen=True)
class PointState:
    reps: int  # successful reviews in a row
    interval_days: float
    ease: float
    due: datetime | None  # None: never reviewed
    last: datetime | None
    lapses: int

    def overdue_days(self, now: datetime) -> float:
        """How late the review is (negative: not due yet; never reviewed counts as due now)."""
        if self.due is None:
            return 0.0
        return (now - self.due).total_seconds() / 86400

    def is_due(self, now: datetime) -> bool:
        return self.due is None or self.due <= now


NEW = PointState(reps=0, interval_days=0.0, ease=START_EASE, due=None, last=None, lapses=0)


def outcome_for(verdict: str, probed_verdict: str | None = None) -> str:
    """The review outcome of one graded point."""
    if verdict == "covered":
        return GOOD
    if probed_verdict == "covered":
        return HARD
    return LAPSE


def counted(history: Iterable[Review]) -> list[Review]:
    """The reviews that move the schedule, in time order.

    A recall less than a day after the last counted review says nothing new about
    memory (a retake minutes later, the same point in two questions): it does not count,
    or three reviews in four minutes would push a point weeks out. A lapse always counts.
    """
    out: list[Review] = []
    for review in sorted(history, key=lambda r: r.at):
        if (review.outcome != LAPSE and out
                and review.at - out[-1].at < timedelta(days=SAME_DAY_DAYS)):
            continue
        out.append(review)
    return out


def schedule(history: Iterable[Review]) -> PointState:
    """The state after these reviews (in time order), by SM-2."""
    state = NEW
    for review in counted(history):
        q = QUALITY[review.outcome]
        ease = max(MIN_EASE, state.ease + 0.1 - (5 - q) * (0.08 + (5 - q) * 0.02))
        if q < 3:
            reps, interval, lapses = 0, 1.0, state.lapses + 1
        else:
            reps = state.reps + 1
            interval = 1.0 if reps == 1 else 6.0 if reps == 2 else state.interval_days * ease
            if review.outcome == HARD:
                interval = max(1.0, interval * 0.6)  # recalled with help: come back sooner
            lapses = state.lapses
        state = PointState(reps=reps, interval_days=interval, ease=ease,
                           due=review.at + timedelta(days=interval), last=review.at,
                           lapses=lapses)
    return state


def mastered(history: Iterable[Review]) -> bool:
    """A point is mastered when its last two counted reviews were covered unprompted."""
    last_two = counted(history)[-2:]
    return len(last_two) == 2 and all(r.outcome == GOOD for r in last_two)
