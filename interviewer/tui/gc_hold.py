"""Garbage collection held off while the user waits for a result on screen.

A collection pass stops every thread; the older generations hold the objects of Textual
and of the model, and a pass over them took tens of milliseconds, several times the
grader's own time. From a submit until its feedback is drawn none runs; the deferred work
is done once the frame is out, while the user reads.
"""

from __future__ import annotations

import gc


class CollectionHold:
    """Turns the collector off, and back on only if it was this hold that turned it off."""

    def __init__(self) -> None:
        self._held = False

    def hold(self) -> None:
        if not self._held and gc.isenabled():
            gc.disable()
            self._held = True

    def release(self) -> None:
        if self._held:
            self._held = False
            gc.enable()
