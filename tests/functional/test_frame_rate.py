"""The interview asks Textual for 120 frames a second (a change waits at most 8.3 ms for its
frame instead of 16.7), unless the user's TEXTUAL_FPS says otherwise."""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import ROOT

# `interviewer run` up to the app, whose stand-in reports the rate textual was imported with
LAUNCH = """
import sys, types
app = types.ModuleType("interviewer.tui.app")
def make_app(**kwargs):
    import textual.constants
    print("FPS", textual.constants.MAX_FPS)
    raise SystemExit(0)
app.make_app = make_app
import interviewer.tui
sys.modules["interviewer.tui.app"] = app
from interviewer.cli import run
run.need_terminal = lambda: None
from interviewer.cli.main import main
main(["run", "--bank", "ai-infra-zh", "--count", "1"])
"""


def _rate(tmp_path, **env) -> str:
    clean = {k: v for k, v in os.environ.items() if k != "TEXTUAL_FPS"}
    out = subprocess.run([sys.executable, "-c", LAUNCH], capture_output=True, text=True,
                         cwd=ROOT, timeout=120,
                         env={**clean, "INTERVIEWER_HOME": str(tmp_path), **env})
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.split("FPS", 1)[1].strip()


def test_the_interview_draws_at_up_to_120_frames_a_second(tmp_path) -> None:
    assert _rate(tmp_path) == "120"


def test_a_frame_rate_the_user_set_wins(tmp_path) -> None:
    assert _rate(tmp_path, TEXTUAL_FPS="30") == "30"
