"""A session stored with a time limit no clock can show (inf, nan, ≤ 0, as an older version
could store from its config) resumes untimed instead of crashing on every start."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from conftest import ROOT
from fakes import BigramEmbedder
from interviewer.grading.calibration import Scorer
from interviewer.grading.grader import Grader
from helpers import wait_for


def _session_with_limits(home: Path, time_limit, total_limit) -> None:
    from interviewer.content.catalog import BankCatalog
    from interviewer.sessions.interview import Interview
    from interviewer.sessions.recorder import Recorder
    from interviewer.content.bank_rubric import rubric_for_bank
    from interviewer.sessions.plan import SetupChoices, make_plan
    from interviewer.sessions.store import DB_NAME, Store

    bank = next(b for b in BankCatalog([ROOT / "bank"]).banks() if b.id == "ai-infra-zh")
    interview = Interview.start(make_plan(bank, SetupChoices(bank=bank.id, count=1)),
                                rubric_for_bank(bank).rubric)
    store = Store.open(home)
    recorder = Recorder.start(store, interview, "test/bigram")
    recorder.close()
    store.close()
    with sqlite3.connect(home / DB_NAME) as conn:
        plan = json.loads(conn.execute("SELECT plan_json FROM sessions").fetchone()[0])
        plan.update(time_limit=time_limit, total_limit=total_limit)
        conn.execute("UPDATE sessions SET plan_json = ?", (json.dumps(plan),))


@pytest.mark.parametrize("limit", [float("inf"), float("nan"), -5, 0])
def test_an_unusable_stored_limit_reads_back_as_untimed(isolated_home: Path, limit) -> None:
    from interviewer.sessions.recorder import interview_from_session
    from interviewer.content.catalog import BankCatalog
    from interviewer.sessions.store import Store

    _session_with_limits(isolated_home, limit, limit)
    store = Store.open(isolated_home)
    plan = interview_from_session(store.interrupted()[0], BankCatalog([ROOT / "bank"])).plan
    assert plan.time_limit is None and plan.total_limit is None


async def test_resuming_a_session_stored_with_an_infinite_limit_does_not_crash(settings) -> None:
    from textual.widgets import TextArea

    from interviewer.content.catalog import BankCatalog
    from interviewer.sessions.store import Store
    from interviewer.sessions.timer import ManualClock
    from interviewer.tui.app import make_app
    from interviewer.tui.screens.interview import InterviewScreen
    from interviewer.tui.widgets import CountdownLabel

    _session_with_limits(settings.data_dir, float("inf"), None)
    store = Store.open(settings.data_dir)
    clock = ManualClock()
    app = make_app(banks=BankCatalog([ROOT / "bank"]).banks(),
                   grader=Grader(BigramEmbedder(), Scorer(0.6, 0.3, source="test")),
                   settings=settings, store=store, resume=store.interrupted()[0], clock=clock)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, InterviewScreen))
        clock.advance(5)
        # the screen's own timers redraw the clock (every 0.25 s) and keep the time used
        # (every second): both have run on the stored limit once the clock shows 5 s counted
        # up and the store has them
        label = app.screen.query_one(CountdownLabel)

        def stored_time() -> float:
            return app.store.session(app.recorder.session_id).attempts[0].time_used

        await wait_for(pilot, lambda: str(label.content) == "⏱ 00:05" and stored_time() >= 5,
                       timeout=30)
        app.screen.query_one(TextArea).insert("still typing")
        await pilot.pause()
        assert app.is_running and app.screen.query_one(TextArea).text == "still typing"


@pytest.mark.parametrize("limit", ["Infinity", "NaN", "-5", "0", '"soon"'])
def test_remembered_setup_choices_with_an_unusable_limit_are_ignored(tmp_path: Path,
                                                                     limit: str) -> None:
    from interviewer.sessions.plan import SETUP_FILE, load_choices

    (tmp_path / SETUP_FILE).write_text(
        '{"bank": "llm-systems-en", "count": 2, "time_limit": %s, "total_limit": null}' % limit,
        encoding="utf-8")
    choices = load_choices(tmp_path, "ai-infra-zh")
    assert choices.bank == "ai-infra-zh" and choices.time_limit == 300.0
