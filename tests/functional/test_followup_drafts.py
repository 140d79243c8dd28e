"""A follow-up's question and the answer typed to it survive a kill, like the main answer."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from textual.widgets import Static, TextArea

from conftest import ROOT
from fakes import BigramEmbedder
from interviewer.content.catalog import BankCatalog
from interviewer.grading.calibration import Scorer
from interviewer.grading.grader import Grader
from interviewer.sessions.store import Store
from interviewer.sessions.timer import ManualClock
from helpers import wait_for
from interviewer.tui.app import make_app
from interviewer.tui.screens.confirm import ConfirmScreen
from interviewer.tui.screens.interview import InterviewScreen

FOLLOWUP_ANSWER = "震荡时先降学习率再加warmup"

KILLED_IN_FOLLOWUP = textwrap.dedent("""
    import asyncio, json, sys
    from dataclasses import replace
    from pathlib import Path
    sys.path.insert(0, {tests!r})
    from fakes import BigramEmbedder
    from interviewer.content.catalog import BankCatalog
    from interviewer.grading.calibration import Scorer
    from interviewer.config import discover_settings
    from interviewer.grading.grader import Grader
    from interviewer.sessions.plan import SetupChoices, make_plan
    from interviewer.sessions.timer import ManualClock
    from interviewer.tui.app import make_app
    from textual.widgets import TextArea

    settings = discover_settings()
    banks = BankCatalog([Path({bank_dir!r})]).banks()
    bank = next(b for b in banks if b.id == "ai-infra-zh")
    choices = SetupChoices(bank=bank.id, count=1, time_limit=300, followups=True)
    plan = replace(make_plan(bank, choices), questions=(bank.question("q09"),))
    clock = ManualClock()
    app = make_app(banks=banks, grader=Grader(BigramEmbedder(), Scorer(0.6, 0.3)),
                   settings=settings, plan=plan, choices=choices, clock=clock)

    async def pilot(p):
        while getattr(p.app.screen, "mode", None) != "question" or p.app.model_status != "ready":
            await asyncio.sleep(0.01)
        p.app.screen.query_one(TextArea).insert("学习率过大会震荡。")
        await p.press("ctrl+s")
        while not (p.app.screen.mode == "followup" and p.app.screen.followup_countdown):
            await asyncio.sleep(0.01)
        print("QUESTION", json.dumps(str(p.app.screen.query_one("#followup-text").content)),
              flush=True)
        clock.advance(20)
        for ch in {answer!r}:
            await p.press(ch)
        while True:  # typing stops; the draft should reach disk within a second
            await asyncio.sleep(0.05)
            row = p.app.store.session(p.app.recorder.session_id)
            rounds = row.attempts[0].followups
            if rounds and rounds[-1].get("answer") == {answer!r}:
                print("SAVED", flush=True)
                break
        await asyncio.sleep(3600)  # killed here

    app.run(headless=True, auto_pilot=pilot)
""")


def _killed_while_answering_the_followup(home: Path) -> str:
    code = KILLED_IN_FOLLOWUP.format(tests=str(ROOT / "tests"), bank_dir=str(ROOT / "bank"),
                                     answer=FOLLOWUP_ANSWER)
    env = {**os.environ, "INTERVIEWER_HOME": str(home), "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, cwd=ROOT)
    question = ""
    try:
        deadline = time.monotonic() + 60  # bounds the wait; not a speed requirement
        line = ""
        while "SAVED" not in line:
            if time.monotonic() > deadline:
                raise AssertionError("the follow-up answer never reached the database")
            if not select.select([child.stdout], [], [], 0.2)[0]:
                continue
            line = child.stdout.readline()
            if not line and child.poll() is not None:
                raise AssertionError(child.stderr.read()[-3000:])
            if line.startswith("QUESTION "):
                import json

                question = json.loads(line.split(" ", 1)[1])
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == -signal.SIGKILL
    return question


async def test_followup_question_and_answer_survive_sigkill_and_are_offered_again(
        tmp_path: Path, settings) -> None:
    question = _killed_while_answering_the_followup(settings.data_dir)
    assert question

    store = Store.open(settings.data_dir)
    (row,) = store.interrupted()
    (round_,) = row.attempts[0].followups
    assert round_["question"] == question and round_["answer"] == FOLLOWUP_ANSWER
    assert row.attempts[0].score is not None
    store.close()

    banks = BankCatalog([ROOT / "bank"]).banks()
    app = make_app(banks=banks, grader=Grader(BigramEmbedder(), Scorer(0.6, 0.3)),
                   settings=settings, clock=ManualClock())
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, InterviewScreen)
                       and app.screen.mode == "followup")
        screen = app.screen
        assert str(screen.query_one("#followup-text", Static).content) == question
        box = screen.query_one("#followup-answer", TextArea)
        assert box.text == FOLLOWUP_ANSWER and not box.read_only
        # and it goes on from there: submitted, graded, kept
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.mode == "feedback")
        (stored,) = app.store.session(row.id).attempts[0].followups
        assert stored["answer"] == FOLLOWUP_ANSWER and "draft" not in stored
