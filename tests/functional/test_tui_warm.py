"""The interview's rubric is ready before the first answer: its texts encoded and the
rules' patterns compiled while the candidate reads the question, not after the submit."""

from __future__ import annotations

from fakes import BigramEmbedder
from helpers import build, wait_for


def _encoded(embedder: BigramEmbedder) -> set[str]:
    return {t for call in embedder.calls for t in call}


async def test_the_interview_rubric_is_warmed_up_with_the_model(settings) -> None:
    embedder = BigramEmbedder()
    app = build(settings, embedder=embedder)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.model_status == "ready")
        first = app.interview.rubric.questions[0].points[0].text
        await wait_for(pilot, lambda: first in _encoded(embedder))


async def test_an_interview_started_after_the_model_is_ready_is_warmed_up_too(settings) -> None:
    from interviewer.sessions.plan import make_plan

    embedder = BigramEmbedder()
    app = build(settings, embedder=embedder, plan=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.model_status == "ready")
        assert app.interview is None
        bank = next(b for b in app.controller.banks if b.id == "ai-infra-zh")
        app.start_interview(make_plan(bank, app.controller.choices))
        await pilot.pause()
        first = app.interview.rubric.questions[0].points[0].text
        await wait_for(pilot, lambda: first in _encoded(embedder))
