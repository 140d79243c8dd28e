"""What many tests share: the CLI run in this process, waiting on a condition with a bounded
deadline (in plain code and in a Pilot), tmux, a graded session in a real store, and the TUI
built with a fast fake model."""

from __future__ import annotations

import atexit
import contextlib
import io
import os
import subprocess
import time
from pathlib import Path

from interviewer import cli


def run_cli(*argv: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``interviewer ARGV`` run in this process."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stderr(err):  # argparse writes to sys.stderr
            code = cli.main(list(argv), out=out, err=err)
    except SystemExit as exc:  # argparse
        code = exc.code
    return code, out.getvalue(), err.getvalue()


def poll(condition, timeout: float = 60.0, what: str = "condition", every: float = 0.02):
    """The first true value of ``condition()``, asked every ``every`` seconds; an
    AssertionError naming ``what`` once ``timeout`` seconds pass. A bound on the wait, not a
    speed requirement."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} not reached in {timeout:g} s")
        time.sleep(every)


async def wait_for(pilot, condition, timeout: float = 10.0) -> None:
    """Wait in a Pilot on a condition, not a fixed sleep: at most ``timeout / 0.02`` pauses
    of 0.02 s (longer on a loaded machine, never shorter)."""
    for _ in range(int(timeout / 0.02)):
        if condition():
            await pilot.pause()  # let the new screen finish mounting
            return
        await pilot.pause(0.02)
    raise AssertionError("condition not reached in time")


# A tmux server of this test run's own: another run or a person using tmux on the machine
# neither sees its sessions nor stops the server under them.
TMUX_SOCKET = f"interviewer-tests-{os.getpid()}"


def tmux(*args: str, check: bool = True) -> str:
    if not _tmux_used:
        _tmux_used.append(True)
        atexit.register(_end_tmux)
    for _ in range(3):
        done = subprocess.run(["tmux", "-L", TMUX_SOCKET, *args], capture_output=True,
                              text=True, timeout=30)
        # a server exits as its last session ends: a new session asked for at that moment
        # meets the exiting server and fails, and the next one starts a server of its own
        if done.returncode == 0 or args[0] != "new-session" or "duplicate" in done.stderr:
            break
        time.sleep(0.5)
    if check and done.returncode:
        raise subprocess.CalledProcessError(done.returncode, done.args, done.stdout, done.stderr)
    return done.stdout


_tmux_used: list[bool] = []


def _end_tmux() -> None:
    """Stop the run's tmux server if a session outlived its test, and remove its socket."""
    subprocess.run(["tmux", "-L", TMUX_SOCKET, "kill-server"], capture_output=True, timeout=30)
    tmpdir = Path(os.environ.get("TMUX_TMPDIR") or "/tmp")
    (tmpdir / f"tmux-{os.getuid()}" / TMUX_SOCKET).unlink(missing_ok=True)


# ---------------------------------------------------------------- the TUI with a fake model

def banks():
    from conftest import ROOT
    from interviewer.content.catalog import BankCatalog

    return BankCatalog([ROOT / "bank"]).banks()


def build(settings, *, embedder=None, n=2, time_limit=300.0, total=None, clock=None, plan=True):
    """The app over the shipped ai-infra-zh bank, graded by a fake model, on a hand-moved clock."""
    from fakes import BigramEmbedder
    from interviewer.grading.calibration import Scorer
    from interviewer.grading.grader import Grader
    from interviewer.sessions.plan import SetupChoices, make_plan
    from interviewer.sessions.timer import ManualClock
    from interviewer.tui.app import make_app

    all_banks = banks()
    bank = next(b for b in all_banks if b.id == "ai-infra-zh")
    choices = SetupChoices(bank=bank.id, count=n, time_limit=time_limit, total_limit=total)
    return make_app(banks=all_banks,
                    grader=Grader(embedder or BigramEmbedder(), Scorer(0.6, 0.3, source="test")),
                    settings=settings, plan=make_plan(bank, choices) if plan else None,
                    choices=choices, clock=clock or ManualClock())


async def type_answer(pilot, text: str) -> None:
    from textual.widgets import TextArea

    pilot.app.screen.query_one(TextArea).insert(text)
    await pilot.pause()


def on(app, screen_type) -> bool:
    return isinstance(app.screen, screen_type)


def asking(app, index: int | None = None) -> bool:
    from interviewer.tui.screens.interview import InterviewScreen

    screen = app.screen
    return (isinstance(screen, InterviewScreen) and screen.mode == "question"
            and (index is None or screen.index == index))


def feedback(app) -> bool:
    from interviewer.tui.screens.interview import InterviewScreen

    return isinstance(app.screen, InterviewScreen) and app.screen.mode == "feedback"


def stored_answer(app, seq: int) -> str | None:
    """What the database holds for attempt ``seq`` of the running session."""
    row = app.store.session(app.recorder.session_id)
    return row.attempts[seq].answer if row and len(row.attempts) > seq else None


def points_text(app) -> str:
    from textual.widgets import Static

    return str(app.screen.query_one("#points-text", Static).content)


# ---------------------------------------------------------------- a session in a real store

def stored_session(home, answers: tuple[str, ...] = ("混合精度训练（FP16/BF16）。",),
                   times: tuple[float, ...] | None = None):
    """A finished session of ai-infra-zh in ``home``'s database, its first ``len(answers)``
    questions answered (in ``times`` seconds each, else none) and graded by the fake model,
    as the TUI would leave it: (session id, the first question's text, its grade)."""
    from conftest import ROOT
    from fakes import BigramEmbedder
    from interviewer.content.catalog import BankCatalog
    from interviewer.grading.calibration import Scorer
    from interviewer.grading.grader import Grader
    from interviewer.sessions.interview import Interview
    from interviewer.sessions.recorder import Recorder
    from interviewer.content.bank_rubric import rubric_for_bank
    from interviewer.sessions.plan import SetupChoices, make_plan
    from interviewer.sessions.store import Store

    bank = next(b for b in BankCatalog([ROOT / "bank"]).banks() if b.id == "ai-infra-zh")
    interview = Interview.start(make_plan(bank, SetupChoices(bank=bank.id, count=len(answers))),
                                rubric_for_bank(bank).rubric)
    store = Store.open(home)
    recorder = Recorder.start(store, interview, "test/bigram")
    grader = Grader(BigramEmbedder(), Scorer(0.6, 0.3, source="test"))
    for seq, text in enumerate(answers):
        attempt = interview.attempts[seq]
        attempt.answer = text
        if times:
            attempt.time_used = times[seq]
        attempt.grade = grader.grade(interview.rubric, attempt.question.id, text)
        recorder.result(seq)
    recorder.finish()
    store.close()
    first = interview.attempts[0]
    return recorder.session_id, first.question.text, first.grade


def alive(pid: int) -> bool:
    """Running, and not a zombie waiting for its parent to reap it."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"
