"""No garbage collection pass lands between a submit and its feedback on screen.

A full pass over the objects of the model and of Textual took tens of milliseconds, several
times the grader's own time; it runs once the feedback is drawn instead.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Sequence

import numpy as np
from textual.widgets import TextArea

from fakes import BigramEmbedder
from helpers import build, feedback, wait_for


class HeldEmbedder(BigramEmbedder):
    """Encodes at once, until ``hold`` is set: then waits for ``go`` (a slow answer)."""

    def __init__(self) -> None:
        super().__init__()
        self.hold, self.go, self.waiting = threading.Event(), threading.Event(), threading.Event()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if self.hold.is_set():
            self.waiting.set()
            self.go.wait(timeout=30)
        return super().embed(texts)


async def test_no_collection_between_submit_and_feedback_and_collection_resumes_after(settings) -> None:
    embedder = HeldEmbedder()
    app = build(settings, embedder=embedder)
    passes: list[int] = []

    def record(phase: str, info: dict) -> None:
        if phase == "start" and not app.grade_seconds:  # the feedback is not drawn yet
            passes.append(info["generation"])

    assert gc.isenabled()
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.model_status == "ready")
        app.screen.query_one(TextArea).insert("梯度累积把大batch拆成多个micro-batch，减少显存占用。")
        await pilot.pause()
        embedder.hold.set()
        await pilot.press("ctrl+s")
        await wait_for(pilot, embedder.waiting.is_set)
        gc.callbacks.append(record)
        try:
            junk = [[] for _ in range(20_000)]  # far past every generation's threshold
            for item in junk:
                item.append(item)
            del junk
            embedder.go.set()
            await wait_for(pilot, lambda: feedback(app) and len(app.grade_seconds) == 1)
            assert passes == []
            await wait_for(pilot, gc.isenabled)  # and back on once the feedback is drawn
        finally:
            gc.callbacks.remove(record)
    assert gc.isenabled()
