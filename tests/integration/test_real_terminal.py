"""The app from this checkout in a real terminal (tmux), driven and killed as a person would.

Killed by SIGHUP, SIGTERM or SIGKILL right after typing, nothing typed may be lost (a
SIGKILL cannot be caught: what is on screen must already be on disk), and after SIGTERM the
terminal must be usable again: out of the alternate screen, mouse tracking off,
the cursor shown. tmux keeps track of those modes for each pane, so the tests read them
from tmux rather than parsing escape sequences.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import sys
import uuid
from pathlib import Path

import pytest

from conftest import ROOT
from helpers import poll, tmux

pytestmark = [pytest.mark.integration,
              pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]

TYPED = "kv cache and paged attention keep decoding fast zqx"


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie still answers kill(0): read its state
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.fixture
def start(tmp_path: Path):
    """``start(*args)``: the app asking its first question in a tmux pane; (session, pid, home)."""
    names = []

    def _start(*args: str) -> tuple[str, int, Path]:
        name = f"iv-{uuid.uuid4().hex[:8]}"
        names.append(name)
        home = tmp_path / name
        pidfile = tmp_path / f"{name}.pid"
        env = (f"INTERVIEWER_HOME={home} HF_HUB_OFFLINE=1 LANG=C.UTF-8 TERM=xterm-256color "
               f"PYTHONPATH={ROOT}")
        command = (f"sh -c 'echo $$ > {pidfile}; exec env {env} {sys.executable} -m "
                   f"interviewer {' '.join(args)}'; sleep 60")
        tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "30", command)
        pid = int(poll(lambda: pidfile.exists() and pidfile.read_text().strip(), what="pid"))
        poll(lambda: "Question 1 of" in tmux("capture-pane", "-p", "-t", name),
             what="the first question")
        return name, pid, home

    yield _start
    for name in names:
        tmux("kill-session", "-t", name, check=False)


@pytest.fixture
def running(start):
    return start("run", "--bank", "ai-infra-zh", "--count", "1", "--time-limit", "5m")


def type_then(session: str, pid: int, send) -> None:
    """Type the sentence and, as soon as it is on screen, call ``send``."""
    tmux("send-keys", "-t", session, "-l", TYPED)
    poll(lambda: TYPED[-12:] in tmux("capture-pane", "-p", "-t", session), what="the typed text")
    send()
    poll(lambda: not alive(pid), timeout=30, what="the app's exit")


def stored_answer(home: Path) -> str:
    with sqlite3.connect(home / "interviewer.db") as db:
        return db.execute("SELECT answer FROM attempts").fetchone()[0]


def test_sigterm_right_after_typing_keeps_every_character_and_restores_the_terminal(
        running) -> None:
    session, pid, home = running
    type_then(session, pid, lambda: os.kill(pid, signal.SIGTERM))
    assert stored_answer(home) == TYPED
    modes = tmux("display-message", "-p", "-t", session,
                 "#{alternate_on} #{cursor_flag} #{mouse_any_flag} #{mouse_button_flag} "
                 "#{mouse_standard_flag} #{mouse_sgr_flag}").split()
    assert modes == ["0", "1", "0", "0", "0", "0"], modes


def test_closing_the_terminal_right_after_typing_keeps_every_character(running) -> None:
    session, pid, home = running
    type_then(session, pid, lambda: tmux("kill-session", "-t", session))
    assert stored_answer(home) == TYPED


def test_sigkill_right_after_typing_keeps_every_character(running) -> None:
    session, pid, home = running
    type_then(session, pid, lambda: os.kill(pid, signal.SIGKILL))
    assert stored_answer(home) == TYPED


def test_total_time_from_the_command_line(start) -> None:
    session, pid, home = start("--bank", "ai-infra-zh", "--count", "2", "--time-limit", "5m",
                               "--total-time", "2m")
    poll(lambda: "02:00" in tmux("capture-pane", "-p", "-t", session) or
         "01:59" in tmux("capture-pane", "-p", "-t", session), what="the total time's clock")
    with sqlite3.connect(home / "interviewer.db") as db:
        plan = json.loads(db.execute("SELECT plan_json FROM sessions").fetchone()[0])
    assert plan["total_limit"] == 120 and plan["time_limit"] == 300


def test_resume_right_after_closing_the_terminal_gets_the_interview_back(start) -> None:
    """The closed window is still saving as the user types ``interviewer resume``: the
    resume waits for it rather than calling the interview open in another window."""
    session, pid, home = start("run", "--bank", "ai-infra-zh", "--count", "1",
                               "--time-limit", "5m")
    tmux("send-keys", "-t", session, "-l", TYPED)
    poll(lambda: TYPED[-12:] in tmux("capture-pane", "-p", "-t", session), what="the typed text")
    tmux("kill-session", "-t", session)  # no wait for the old app to finish
    name = f"iv-{uuid.uuid4().hex[:8]}"
    env = (f"INTERVIEWER_HOME={home} HF_HUB_OFFLINE=1 LANG=C.UTF-8 TERM=xterm-256color "
           f"PYTHONPATH={ROOT}")
    tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "30",
         f"sh -c 'exec env {env} {sys.executable} -m interviewer resume'; sleep 60")
    try:
        screen = poll(lambda: (lambda s: s if ("Question 1 of" in s or "rror" in s
                                               or "already open" in s) else "")(
            tmux("capture-pane", "-p", "-t", name)), timeout=60, what="the resumed interview")
        assert "Question 1 of" in screen and TYPED[-12:] in screen, screen
    finally:
        tmux("kill-session", "-t", name, check=False)
