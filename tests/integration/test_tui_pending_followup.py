"""A follow-up the LLM is still writing never holds the user: F3 skips it, quitting quits.

The server behaves like llama-cpp-python thinking for a long time: headers at once, then a
': ping' comment every 0.2 s for a minute. The LLM's own deadline is a minute too, so only
the skip or the quit can end the wait.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

from textual.widgets import Static, TextArea

from conftest import ROOT
from fakes import BigramEmbedder
from helpers import wait_for
from llm_server import ChatServer, Reply
from interviewer.content.catalog import BankCatalog
from interviewer.grading.calibration import Scorer
from interviewer.config import LLMSettings
from interviewer.grading.grader import Grader
from interviewer.followups.prober import LLMProber
from interviewer.sessions.plan import SetupChoices, make_plan
from interviewer.sessions.timer import ManualClock
from interviewer.tui.app import make_app
from interviewer.tui.screens.interview import InterviewScreen

REPLY = json.dumps({"followup": "参数具体在什么时候更新？", "targets": []}, ensure_ascii=False)
ANSWER = "梯度累积将一个大batch拆分为多个micro-batch，累积N个micro-batch后做一次参数更新。"


def pending(app) -> bool:
    screen = app.screen
    return (isinstance(screen, InterviewScreen) and screen.mode == "followup"
            and screen.followup_countdown is None)


async def test_f3_skips_a_follow_up_still_being_written(settings) -> None:
    catalog = BankCatalog([ROOT / "bank"])
    bank = catalog.resolve("ai-infra-zh")
    choices = SetupChoices(bank=bank.id, count=1, time_limit=300, followups=True)
    plan = replace(make_plan(bank, choices), questions=(bank.question("q07"),))
    with ChatServer() as server:
        server.script = [Reply(REPLY, pings_for=60)]
        prober = LLMProber(LLMSettings(enabled=True, base_url=server.base_url, model="m",
                                       timeout=60), env={})
        app = make_app(banks=catalog.banks(), grader=Grader(BigramEmbedder(), Scorer(0.6, 0.3)),
                       settings=settings, plan=plan, choices=choices, clock=ManualClock(),
                       prober=prober)
        async with app.run_test(size=(100, 32)) as pilot:
            await wait_for(pilot, lambda: app.model_status == "ready")
            app.screen.query_one("#answer", TextArea).insert(ANSWER)
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: pending(app) and len(server.requests) == 1)
            assert "thinking" in str(app.screen.query_one("#followup-text", Static).content)
            await pilot.press("f3")
            await wait_for(pilot, lambda: app.screen.mode == "feedback")
            assert app.interview.attempts[0].followups == []  # nothing was asked


SCRIPT = """
import asyncio, sys
from dataclasses import replace
from pathlib import Path
sys.path[:0] = [{root!r}, {tests!r}]
from fakes import BigramEmbedder
from interviewer.content.catalog import BankCatalog
from interviewer.grading.calibration import Scorer
from helpers import wait_for
from interviewer.content.catalog import BankCatalog
from interviewer.grading.calibration import Scorer
from interviewer.config import LLMSettings, discover_settings
from interviewer.grading.grader import Grader
from interviewer.followups.prober import LLMProber
from interviewer.sessions.plan import SetupChoices, make_plan
from interviewer.sessions.timer import ManualClock
from interviewer.tui.app import make_app
from interviewer.tui.screens.interview import InterviewScreen

async def main():
    catalog = BankCatalog([Path({bank_dir!r})])
    bank = catalog.resolve("ai-infra-zh")
    choices = SetupChoices(bank=bank.id, count=1, time_limit=300, followups=True)
    plan = replace(make_plan(bank, choices), questions=(bank.question("q07"),))
    prober = LLMProber(LLMSettings(enabled=True, base_url={url!r}, model="m", timeout=120), env={{}})
    app = make_app(banks=catalog.banks(), grader=Grader(BigramEmbedder(), Scorer(0.6, 0.3)),
                   settings=discover_settings(), plan=plan, choices=choices, clock=ManualClock(),
                   prober=prober)
    async with app.run_test(size=(100, 32)) as pilot:
        for _ in range(500):
            if app.model_status == "ready":
                break
            await pilot.pause(0.02)
        app.screen.query_one("#answer").insert({answer!r})
        await pilot.press("ctrl+s")
        for _ in range(500):
            s = app.screen
            if isinstance(s, InterviewScreen) and s.mode == "followup":
                break
            await pilot.pause(0.02)
        # quit only once the server holds the call, so the quit meets a call in flight
        go = Path({go!r})
        for _ in range(1500):
            if go.exists():
                break
            await pilot.pause(0.02)
        print("pending", flush=True)
        await pilot.press("ctrl+q")
    print("left the app", flush=True)

asyncio.run(main())
"""


def wait_until(condition, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.05)


def test_quitting_while_a_follow_up_is_pending_ends_the_process(tmp_path: Path) -> None:
    with ChatServer() as server:
        server.script = [Reply(REPLY, pings_for=120)]
        script = tmp_path / "quit.py"
        script.write_text(SCRIPT.format(root=str(ROOT), tests=str(ROOT / "tests"),
                                        bank_dir=str(ROOT / "bank"), url=server.base_url,
                                        answer=ANSWER, go=str(tmp_path / "go")),
                          encoding="utf-8")
        env = {"INTERVIEWER_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin",
               "HF_HUB_OFFLINE": "1"}
        proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=env)
        try:
            wait_until(lambda: len(server.requests) == 1 or proc.poll() is not None, 60)
            (tmp_path / "go").touch()
            # the server keeps the call alive for two minutes; the process must not wait
            deadline = time.monotonic() + 60
            while proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.1)
            alive = proc.poll() is None
        finally:
            if proc.poll() is None:
                proc.kill()
            out, err = proc.communicate()
    assert not alive, f"the process lived on after quitting; stdout: {out!r}"
    assert "pending" in out and "left the app" in out, err[-2000:]
    assert proc.returncode == 0, err[-2000:]
    assert len(server.requests) == 1
