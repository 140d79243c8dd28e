"""The question clock on screen: what the countdown shows and when it changes colour, read
through the real app with its clock injected and moved by hand."""

from __future__ import annotations

from helpers import asking, build, type_answer, wait_for
from interviewer.sessions.timer import ManualClock
from interviewer.tui.widgets import CountdownLabel


async def _shown(pilot, clock: ManualClock, seconds: float) -> CountdownLabel:
    """The label after the clock moves ``seconds`` and the screen redraws it."""
    clock.advance(seconds)
    pilot.app.screen.tick()
    await pilot.pause()  # the new classes restyle the label
    return pilot.app.screen.query_one(CountdownLabel)


async def test_the_clock_warns_at_one_minute_and_turns_red_at_ten_seconds(settings) -> None:
    clock = ManualClock()
    app = build(settings, time_limit=90, clock=clock)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: asking(app))
        await type_answer(pilot, "混合精度")
        label = await _shown(pilot, clock, 0)
        assert str(label.content) == "⏳ 01:30"
        calm = label.styles.color
        assert not label.has_class("warning") and not label.has_class("critical")

        label = await _shown(pilot, clock, 29.5)  # 60.5 s left: shown rounded up, still calm
        assert str(label.content) == "⏳ 01:01" and not label.has_class("warning")

        label = await _shown(pilot, clock, 0.5)  # one minute left
        assert str(label.content) == "⏳ 01:00" and label.has_class("warning")
        warning = label.styles.color
        assert warning != calm and not label.styles.text_style.reverse

        label = await _shown(pilot, clock, 49.99)  # 10.01 s left
        assert str(label.content) == "⏳ 00:11"
        assert label.has_class("warning") and not label.has_class("critical")

        label = await _shown(pilot, clock, 0.01)  # ten seconds left
        assert str(label.content) == "⏳ 00:10"
        assert label.has_class("critical") and not label.has_class("warning")
        assert label.styles.color not in (calm, warning)
        assert label.styles.text_style.bold and label.styles.text_style.reverse

        await pilot.press("f2")  # paused: the clock says so and stops
        label = await _shown(pilot, clock, 300)
        assert str(label.content) == "⏳ 00:10 ⏸" and label.has_class("critical")


async def test_an_untimed_question_counts_up_and_never_warns(settings) -> None:
    clock = ManualClock()
    app = build(settings, time_limit=None, clock=clock)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: asking(app))
        label = await _shown(pilot, clock, 0)
        assert str(label.content) == "⏱ 00:00"
        label = await _shown(pilot, clock, 75.4)
        assert str(label.content) == "⏱ 01:15"
        label = await _shown(pilot, clock, 3600)
        assert str(label.content) == "⏱ 1:01:15"
        assert not label.has_class("warning") and not label.has_class("critical")
        assert asking(app)  # no deadline: nothing was submitted
