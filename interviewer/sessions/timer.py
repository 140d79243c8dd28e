"""Countdowns that do not drift: remaining time is computed from a monotonic clock.

The UI only *reads* a countdown on each refresh; it never counts ticks, so a busy event
loop can delay a redraw but never the deadline. The clock is injected so tests can move
time by hand.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float: ...


class MonotonicClock:
    def now(self) -> float:
        return time.monotonic()


@dataclass
class ManualClock:
    """A clock that moves only when told: for tests and frozen snapshots."""

    t: float = 1000.0

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@dataclass
class Countdown:
    """A pausable countdown; ``limit=None`` counts up without a deadline."""

    clock: Clock
    limit: float | None
    used_before: float = 0.0
    _started_at: float | None = field(default=None)

    def start(self) -> Countdown:
        if self._started_at is None:
            self._started_at = self.clock.now()
        return self

    @property
    def running(self) -> bool:
        return self._started_at is not None

    def pause(self) -> None:
        if self._started_at is not None:
            self.used_before += self.clock.now() - self._started_at
            self._started_at = None

    def resume(self) -> None:
        self.start()

    def elapsed(self) -> float:
        running = self.clock.now() - self._started_at if self._started_at is not None else 0.0
        return self.used_before + running

    def remaining(self) -> float | None:
        if self.limit is None:
            return None
        return max(0.0, self.limit - self.elapsed())

    @property
    def expired(self) -> bool:
        remaining = self.remaining()
        return remaining is not None and remaining <= 0.0


def marks_crossed(marks: tuple[float, ...], before: float | None,
                  now: float | None) -> list[float]:
    """The marks the remaining time went past between two readings, largest first.

    A countdown that starts below a mark (a one-minute question, a resumed one) has not
    crossed it: ``before`` is its remaining time when it started.
    """
    if before is None or now is None:
        return []
    return [m for m in sorted(marks, reverse=True) if before > m >= now]


def format_elapsed(seconds: float) -> str:
    """A time used, as the summary and the reports show it: kept to 0.1 s, shown in whole
    seconds (6.96 s is 00:07 everywhere)."""
    return format_clock(int(round(seconds, 1)))


def format_clock(seconds: float) -> str:
    """``mm:ss`` (``h:mm:ss`` past an hour); partial seconds round up while counting down."""
    whole = int(-(-seconds // 1)) if seconds > 0 else 0
    h, rest = divmod(whole, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"
