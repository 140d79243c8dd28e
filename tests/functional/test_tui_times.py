"""The summary screen and the exported report give the same times for the same session."""

from __future__ import annotations

import re

from textual.widgets import DataTable, Static, TextArea

from interviewer.sessions.timer import ManualClock
from interviewer.tui.screens.summary import SummaryScreen
from helpers import build, feedback, on, wait_for


async def test_summary_times_match_the_report(settings) -> None:
    clock = ManualClock()
    app = build(settings, n=1, clock=clock)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.model_status == "ready")
        app.screen.query_one(TextArea).insert("梯度累积把大batch拆成多个micro-batch。")
        clock.advance(6.96)  # 6.96 s: a whole-second display must not say 6 in one place and 7 in another
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: feedback(app))
        await pilot.press("n")
        await wait_for(pilot, lambda: on(app, SummaryScreen))
        row_time = str(app.screen.query_one(DataTable).get_row_at(0)[2])
        header = str(app.screen.query_one("#score", Static).content)
        paths = app.export_report()
    report = next(p for p in paths if p.suffix == ".md").read_text(encoding="utf-8")
    used = re.search(r"time used (\d\d:\d\d)", report).group(1)
    duration = re.search(r"Duration: (\d\d:\d\d)", report).group(1)
    assert row_time == used
    assert f"time {duration}" in header
