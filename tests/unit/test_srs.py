"""Scheduling is a pure function of review history and time."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from interviewer.practice.srs import GOOD, HARD, LAPSE, MIN_EASE, NEW, Review, mastered, outcome_for, schedule

T0 = datetime(2026, 11, 1, 9, 0, tzinfo=timezone.utc)


def reviews(*outcomes: str, every: float = 1.0) -> list[Review]:
    return [Review(T0 + timedelta(days=i * every), o) for i, o in enumerate(outcomes)]


@pytest.mark.parametrize("outcomes, interval, reps", [
    ((), 0.0, 0),
    ((GOOD,), 1.0, 1),
    ((GOOD, GOOD), 6.0, 2),
    ((GOOD, GOOD, GOOD), 6.0 * 2.8, 3),  # ease 2.5 -> 2.6 -> 2.7 -> 2.8
    ((GOOD, GOOD, LAPSE), 1.0, 0),
    ((GOOD, LAPSE, GOOD), 1.0, 1),
    ((GOOD, HARD), 6.0 * 0.6, 2),
])
def test_sm2_intervals(outcomes, interval, reps) -> None:
    state = schedule(reviews(*outcomes))
    assert state.interval_days == pytest.approx(interval)
    assert state.reps == reps
    if outcomes:
        assert state.due == T0 + timedelta(days=len(outcomes) - 1) + timedelta(days=interval)


def test_due_and_overdue_follow_the_clock() -> None:
    state = schedule(reviews(GOOD, GOOD))  # last review day 1, due day 7
    assert not state.is_due(T0 + timedelta(days=6))
    assert state.is_due(T0 + timedelta(days=7))
    assert state.overdue_days(T0 + timedelta(days=10)) == pytest.approx(3)
    assert NEW.is_due(T0) and NEW.overdue_days(T0) == 0.0


def test_order_of_the_log_does_not_matter() -> None:
    log = reviews(GOOD, LAPSE, GOOD, GOOD)
    assert schedule(log) == schedule(list(reversed(log)))


def test_lapses_lower_ease_but_not_below_the_floor() -> None:
    state = schedule(reviews(*([LAPSE] * 20)))
    assert state.ease == pytest.approx(MIN_EASE) and state.lapses == 20


@pytest.mark.parametrize("verdict, probed, outcome", [
    ("covered", None, GOOD), ("partial", "covered", HARD), ("missed", "covered", HARD),
    ("partial", None, LAPSE), ("missed", "partial", LAPSE), ("missed", None, LAPSE)])
def test_outcomes_from_verdicts(verdict, probed, outcome) -> None:
    assert outcome_for(verdict, probed) == outcome


@pytest.mark.parametrize("outcomes, expected", [
    ((GOOD, GOOD), True), ((LAPSE, GOOD, GOOD), True), ((GOOD,), False),
    ((GOOD, HARD), False), ((GOOD, GOOD, LAPSE), False)])
def test_mastery_is_the_last_two_reviews_covered(outcomes, expected) -> None:
    assert mastered(reviews(*outcomes)) is expected


def test_reviews_inside_one_day_do_not_compound() -> None:
    burst = [Review(T0 + timedelta(minutes=m), GOOD) for m in (0, 2, 4)]
    state = schedule(burst)
    assert state.reps == 1 and state.interval_days == pytest.approx(1.0)
    assert state.due == T0 + timedelta(days=1)
    assert not mastered(burst)  # covered three times in four minutes is one day's recall
    # the next day counts again
    state = schedule(burst + [Review(T0 + timedelta(days=1, minutes=5), GOOD)])
    assert state.reps == 2 and state.interval_days == pytest.approx(6.0)


def test_a_lapse_inside_the_day_still_counts() -> None:
    state = schedule([Review(T0, GOOD), Review(T0 + timedelta(minutes=3), LAPSE)])
    assert state.reps == 0 and state.lapses == 1
