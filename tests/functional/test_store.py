"""The session database: migrations, damage, permissions, concurrency, and SIGKILL."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from conftest import ROOT
from interviewer.errors import InterviewerError
from interviewer.sessions.store import DB_NAME, Store
from interviewer.sessions.schema import MIGRATIONS, SCHEMA_VERSION


def v1_database(path: Path) -> None:
    """A database exactly as the first schema version left it, with one finished session."""
    conn = sqlite3.connect(path)
    with conn:
        for statement in MIGRATIONS[1]:
            conn.execute(statement)
        conn.execute("PRAGMA user_version = 1")
        conn.execute("INSERT INTO sessions VALUES ('s1', '2026-11-01T10:00:00+00:00', NULL, "
                     "'ai-infra-zh', 'AI Infra', 'm', 'finished')")
        conn.execute("INSERT INTO attempts (session_id, seq, question_id, question_text, answer, "
                     "score, time_used, updated_at) VALUES ('s1', 0, 'q07', '梯度累积？', '旧答案', "
                     "0.5, 42, '2026-11-01T10:01:00+00:00')")
    conn.close()


def test_migrates_from_the_first_schema_keeping_data(tmp_path: Path) -> None:
    v1_database(tmp_path / DB_NAME)
    store = Store.open(tmp_path)
    assert store.schema_version() == SCHEMA_VERSION == 4
    assert store.notice is None
    row = store.session("s1")
    assert row is not None and row.plan == {} and row.attempts[0].answer == "旧答案"
    assert row.attempts[0].score == 0.5 and row.attempts[0].retry_of is None
    assert row.attempts[0].followups == []
    store.save_result("s1", 0, answer="新答案", time_used=50, grade=None, score=None,
                      auto_submitted=True)
    assert store.session("s1").attempts[0].auto_submitted


def test_a_corrupt_database_is_moved_aside_and_a_fresh_one_started(tmp_path: Path) -> None:
    (tmp_path / DB_NAME).write_bytes(b"this is not sqlite" * 100)
    store = Store.open(tmp_path)
    assert store.persistent and "moved to" in store.notice
    aside = [p for p in tmp_path.iterdir() if ".corrupt-" in p.name]
    assert len(aside) == 1 and aside[0].read_bytes().startswith(b"this is not sqlite")
    store.start_session("s", "b", "B", {}, None)
    assert store.session("s") is not None


def test_a_database_from_a_newer_version_is_left_alone(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / DB_NAME)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(InterviewerError, match="newer interviewer"):
        Store.open(tmp_path)
    assert not [p for p in tmp_path.iterdir() if ".corrupt-" in p.name]


# What both child processes below start with: the real app, a fast fake model, the shipped bank.
CHILD_PREAMBLE = """
import asyncio, sys, time
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
"""

READ_ONLY_CHILD = CHILD_PREAMBLE + textwrap.dedent("""
    choices = SetupChoices(bank=bank.id, count=1, time_limit=300)
    app = make_app(banks=banks, grader=Grader(BigramEmbedder(), Scorer(0.6, 0.3)),
                   settings=settings, plan=make_plan(bank, choices), choices=choices)

    async def pilot(p):
        while getattr(p.app.screen, "mode", None) != "question":
            await asyncio.sleep(0.01)
        print("NOTICE", p.app.store.persistent, p.app.store.notice, flush=True)
        p.app.screen.query_one(TextArea).insert("只读目录里的答案。")
        status = p.app.screen.query_one("#save-status")
        deadline = time.monotonic() + 30  # the draft is tried within a second; this bounds it
        while not str(status.content) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        print("STATUS", str(status.content), flush=True)
        await p.press("ctrl+s")
        while p.app.screen.mode != "feedback":
            await asyncio.sleep(0.01)
        print("GRADED", p.app.interview.attempts[0].grade is not None, flush=True)
        p.app.exit()

    app.run(headless=True, auto_pilot=pilot)
""")


def _read_only_run(home: Path) -> str:
    """Run an interview with ``home`` read-only: a read-only bind mount when root (root
    ignores permission bits), plain permissions otherwise."""
    code = READ_ONLY_CHILD.format(tests=str(ROOT / "tests"), bank_dir=str(ROOT / "bank"))
    env = {**os.environ, "INTERVIEWER_HOME": str(home)}
    if os.geteuid() == 0:
        if shutil.which("unshare") is None:
            pytest.skip("root without unshare cannot make a directory read-only")
        script = (f'mount --bind "{home}" "{home}" && mount -o remount,bind,ro "{home}" && '
                  f'exec "{sys.executable}" -c "$CHILD"')
        argv = ["unshare", "-m", "sh", "-c", script]
        env["CHILD"] = code
    else:
        home.chmod(0o500)
        argv = [sys.executable, "-c", code]
    try:
        proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120, cwd=ROOT)
    finally:
        home.chmod(0o700)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def test_a_read_only_directory_still_runs_and_claims_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    out = _read_only_run(home)
    assert "NOTICE False" in out and "will not be saved" in out
    assert "STATUS ⚠ not saved" in out
    assert "GRADED True" in out
    assert not (home / DB_NAME).exists()


def test_two_instances_write_at_once_and_do_not_steal_each_others_session(tmp_path: Path) -> None:
    a, b = Store.open(tmp_path), Store.open(tmp_path)
    a.start_session("sa", "b", "B", {}, None)
    b.start_session("sb", "b", "B", {}, None)
    for seq in range(20):
        a.ensure_attempt("sa", seq, f"q{seq}", "?")
        b.ensure_attempt("sb", seq, f"q{seq}", "?")
        assert a.save_draft("sa", seq, f"a{seq}", seq)
        assert b.save_draft("sb", seq, f"b{seq}", seq)
    assert [x.answer for x in a.session("sb").attempts][-1] == "b19"
    # both are running: neither is offered for resuming
    c = Store.open(tmp_path)
    assert c.interrupted() == []
    b.close()  # b's process "ends" without finishing its session
    assert [s.id for s in c.interrupted()] == ["sb"]


KILLED_CHILD = CHILD_PREAMBLE + textwrap.dedent("""
    choices = SetupChoices(bank=bank.id, count=3, time_limit=300)
    clock = ManualClock()
    app = make_app(banks=banks, grader=Grader(BigramEmbedder(), Scorer(0.6, 0.3)),
                   settings=settings, plan=make_plan(bank, choices), choices=choices, clock=clock)

    async def pilot(p):
        while getattr(p.app.screen, "mode", None) != "question":
            await asyncio.sleep(0.01)
        p.app.screen.query_one(TextArea).insert("第一题的答案。")
        await p.press("ctrl+s")
        while p.app.screen.mode != "feedback":
            await asyncio.sleep(0.01)
        await p.press("n")
        while p.app.screen.mode != "question":
            await asyncio.sleep(0.01)
        clock.advance(100)  # 100 s into question 2
        for ch in "DeepSpeed是微软的库":
            await p.press(ch)
        while True:  # typing stops; the draft reaches disk within a second
            await asyncio.sleep(0.05)
            row = p.app.store.session(p.app.recorder.session_id)
            if row.attempts[1].answer == "DeepSpeed是微软的库":
                print("SAVED", flush=True)
                break
        await asyncio.sleep(3600)  # killed here

    app.run(headless=True, auto_pilot=pilot)
""")


def test_sigkill_while_typing_then_resume_restores_draft_question_and_time(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {**os.environ, "INTERVIEWER_HOME": str(home)}
    code = KILLED_CHILD.format(tests=str(ROOT / "tests"), bank_dir=str(ROOT / "bank"))
    child = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        line = ""
        while time.monotonic() < deadline and "SAVED" not in line:
            line = child.stdout.readline()
            if not line and child.poll() is not None:
                raise AssertionError(child.stderr.read())
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == -signal.SIGKILL

    store = Store.open(home)
    (row,) = store.interrupted()
    assert row.status == "active"
    assert [a.answer for a in row.attempts] == ["第一题的答案。", "DeepSpeed是微软的库", ""]
    assert row.attempts[0].score is not None
    assert row.attempts[1].time_used == pytest.approx(100, abs=1)

    from interviewer.content.catalog import BankCatalog
    from interviewer.sessions.recorder import interview_from_session

    interview = interview_from_session(row, BankCatalog([ROOT / "bank"]))
    assert interview.index == 1
    assert interview.current.answer == "DeepSpeed是微软的库"
    assert interview.plan.time_limit - interview.current.time_used == pytest.approx(200, abs=1)
