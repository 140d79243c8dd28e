"""The real `interviewer` command in a real terminal (tmux), driven as a person would."""

from __future__ import annotations

import shutil
import sqlite3
import sys
import time
import uuid
from pathlib import Path

import pytest

from helpers import tmux

pytestmark = [pytest.mark.integration,
              pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]

COMMAND = Path(sys.executable).with_name("interviewer")


def wait_for_screen(session: str, text: str, timeout: float = 60.0) -> str:
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = tmux("capture-pane", "-p", "-t", session)
        if text in screen:
            return screen
        time.sleep(0.2)
    raise AssertionError(f"{text!r} never appeared; last screen:\n{screen}")


@pytest.fixture
def session(tmp_path: Path):
    name = f"iv-{uuid.uuid4().hex[:8]}"
    env = f"INTERVIEWER_HOME={tmp_path / 'home'} HF_HUB_OFFLINE=1 LANG=C.UTF-8 TERM=xterm-256color"
    tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "30",
         f"env {env} {COMMAND} run --bank ai-infra-zh --count 1 --time-limit 5m; sleep 5")
    yield name
    tmux("kill-session", "-t", name, check=False)


@pytest.mark.skipif(not COMMAND.exists(), reason="the console script is not installed")
def test_one_question_in_a_real_terminal(session: str, tmp_path: Path) -> None:
    screen = wait_for_screen(session, "Question 1 of 1")
    assert "大模型训练和推理如何加速" in screen
    assert "05:00" in screen or "04:5" in screen
    wait_for_screen(session, "Model ready")
    tmux("send-keys", "-t", session, "-l",
         "训练加速：混合精度训练（FP16/BF16），梯度累积减少通信频率。推理加速：KV Cache，PagedAttention。")
    wait_for_screen(session, "PagedAttention。")
    tmux("send-keys", "-t", session, "C-s")
    screen = wait_for_screen(session, "Score")
    assert "✓" in screen and "✗" in screen
    tmux("send-keys", "-t", session, "n")
    wait_for_screen(session, "Interview complete")
    tmux("send-keys", "-t", session, "q")
    with sqlite3.connect(tmp_path / "home" / "interviewer.db") as db:
        answer, score = db.execute("SELECT answer, score FROM attempts").fetchone()
        status = db.execute("SELECT status FROM sessions").fetchone()[0]
    assert "梯度累积减少通信频率" in answer and score > 0 and status == "finished"
