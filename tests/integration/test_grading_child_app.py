"""The app in a real terminal (tmux) grades in a child process, and leaves none behind when it
quits, is terminated, loses its terminal or is killed outright."""

from __future__ import annotations

import os
import shutil
import signal
import sys
import uuid
from pathlib import Path

import pytest

from conftest import ROOT
from helpers import alive, poll, tmux

pytestmark = [pytest.mark.integration,
              pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]

CHILD_MODULE = "interviewer.grading.child"




def grading_children(parent: int) -> list[int]:
    """The grading processes whose parent is ``parent``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().split(")")[-1].split()[1])
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, ValueError, IndexError):
            continue
        if ppid == parent and CHILD_MODULE in cmdline:
            found.append(int(entry.name))
    return found


@pytest.fixture
def app_with_child(tmp_path: Path):
    """The app on its first question with the model ready: (tmux session, app pid, child pid)."""
    name = f"iv-{uuid.uuid4().hex[:8]}"
    home = tmp_path / name
    pidfile = tmp_path / f"{name}.pid"
    env = (f"INTERVIEWER_HOME={home} HF_HUB_OFFLINE=1 LANG=C.UTF-8 TERM=xterm-256color "
           f"PYTHONPATH={ROOT}")
    command = (f"sh -c 'echo $$ > {pidfile}; exec env {env} {sys.executable} -m interviewer "
               f"run --bank ai-infra-zh --count 1 --time-limit 5m'; sleep 60")
    tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "30", command)
    try:
        pid = int(poll(lambda: pidfile.exists() and pidfile.read_text().strip(), what="pid"))
        poll(lambda: "Model ready" in tmux("capture-pane", "-p", "-t", name), timeout=120,
             what="the model")
        children = poll(lambda: grading_children(pid), what="the grading child")
        assert len(children) == 1
        yield name, pid, children[0]
    finally:
        tmux("kill-session", "-t", name, check=False)


@pytest.mark.parametrize("how", ["quit", "sigterm", "sighup", "sigkill"])
def test_no_grading_child_outlives_the_app(app_with_child, how: str) -> None:
    session, pid, child = app_with_child
    if how == "quit":
        tmux("send-keys", "-t", session, "C-q")
        poll(lambda: "Quit the interview?" in tmux("capture-pane", "-p", "-t", session),
             what="the quit question")
        tmux("send-keys", "-t", session, "y")
    elif how == "sighup":
        tmux("kill-session", "-t", session)
    else:
        os.kill(pid, signal.SIGTERM if how == "sigterm" else signal.SIGKILL)
    poll(lambda: not alive(pid), timeout=30, what="the app's exit")
    poll(lambda: not alive(child), timeout=30, what="the grading child's exit")
