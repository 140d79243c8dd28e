"""A database another process holds is busy, not broken; a session is held by one process."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from conftest import ROOT
from interviewer.sessions.store import DB_NAME, Store
from interviewer.sessions.locking import DatabaseLocked, SessionBusy

# Another process with a write transaction that also keeps readers out (exclusive locking
# mode): what a second interviewer in the middle of a migration or a checkpoint looks like.
HOLDER = textwrap.dedent("""
    import sqlite3, sys
    conn = sqlite3.connect(sys.argv[1], isolation_level=None)
    conn.execute("PRAGMA locking_mode=EXCLUSIVE")
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO suspended_points VALUES ('bank', 'held-point', 'now')")
    print("LOCKED", flush=True)
    sys.stdin.readline()  # hold the lock until told to commit
    conn.execute("COMMIT")
    print("COMMITTED", flush=True)
""")


@contextmanager
def write_lock_held(db: Path) -> Iterator[subprocess.Popen]:
    """A real second process holding ``db``'s write lock until the block ends (then commits)."""
    child = subprocess.Popen([sys.executable, "-c", HOLDER, str(db)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = child.stdout.readline()
        assert line.strip() == "LOCKED", child.stderr.read()
        yield child
        child.stdin.write("go\n")
        child.stdin.flush()
        assert child.stdout.readline().strip() == "COMMITTED", child.stderr.read()
        child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def _aside(home: Path) -> list[Path]:
    return [p for p in home.iterdir() if ".corrupt-" in p.name]


def test_a_locked_database_is_reported_busy_and_never_moved_aside(tmp_path: Path) -> None:
    Store.open(tmp_path).close()
    with write_lock_held(tmp_path / DB_NAME):
        with pytest.raises(DatabaseLocked, match="database is locked by another interviewer"):
            Store.open(tmp_path, timeout=0.3)
        assert _aside(tmp_path) == []
    # the other process's commit landed in the one database there is
    store = Store.open(tmp_path)
    assert store.suspended() == {("bank", "held-point")}
    assert store.notice is None and _aside(tmp_path) == []


def test_cli_on_a_locked_database_says_so_in_one_line_and_exits_2(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    Store.open(home).close()
    env = {**os.environ, "INTERVIEWER_HOME": str(home), "INTERVIEWER_DB_TIMEOUT": "0.3",
           "PYTHONPATH": str(ROOT)}
    with write_lock_held(home / DB_NAME):
        for argv in (["history"], ["report"], ["points", "--bank", "ai-infra-zh"]):
            proc = subprocess.run([sys.executable, "-m", "interviewer", *argv], env=env,
                                  capture_output=True, text=True, timeout=120, cwd=ROOT)
            assert proc.returncode == 2, (argv, proc.stdout, proc.stderr)
            lines = proc.stderr.strip().splitlines()
            assert len(lines) == 1 and "database is locked by another interviewer process" \
                in lines[0] and "try again" in lines[0], proc.stderr
            assert "No sessions" not in proc.stdout
        assert _aside(home) == []
    assert Store.open(home).suspended() == {("bank", "held-point")}


# A process that claims the interrupted session the way ``interviewer resume`` does, at a
# moment set by a shared start file, and keeps it until told to stop.
CLAIMER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from interviewer.sessions.store import Store
    from interviewer.errors import InterviewerError
    home, go = Path(sys.argv[1]), Path(sys.argv[2])
    store = Store.open(home)
    print("READY", flush=True)
    while not go.exists():
        time.sleep(0.001)
    try:
        row = store.claim_interrupted()
        print("GOT", row.id if row else None, flush=True)
    except InterviewerError as exc:
        print("BUSY", exc, flush=True)
    sys.stdin.readline()
""")


def _interrupted_session(home: Path) -> None:
    store = Store.open(home)
    store.start_session("s1", "ai-infra-zh", "AI Infra", {"question_ids": ["q01"]}, None)
    store.ensure_attempt("s1", 0, "q01", "?")
    store.save_draft("s1", 0, "半句", 12.0)
    store.close()  # the process dies mid-interview: the session stays active, unheld


def _claimer(home: Path, go: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-c", CLAIMER, str(home), str(go)], env=env,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "READY", child.stderr.read()
    return child


@pytest.mark.parametrize("round_", range(3))
def test_two_resumes_at_once_exactly_one_gets_the_session(tmp_path: Path, round_: int) -> None:
    _interrupted_session(tmp_path)
    go = tmp_path / "go"
    children = [_claimer(tmp_path, go) for _ in range(2)]
    try:
        go.touch()
        answers = sorted(c.stdout.readline().strip() for c in children)
    finally:
        for c in children:
            c.kill()
            c.wait()
    assert answers[0] == "BUSY the interrupted interview is already open in another window " \
                         "(switch to that window, or finish it there first)", answers
    assert answers[1] == "GOT s1", answers


def test_resume_refuses_a_session_open_elsewhere_in_one_line(tmp_path: Path) -> None:
    home = tmp_path / "home"
    _interrupted_session(home)
    go = tmp_path / "go"
    go.touch()
    holder = _claimer(home, go)
    try:
        assert holder.stdout.readline().strip() == "GOT s1"
        env = {**os.environ, "INTERVIEWER_HOME": str(home), "PYTHONPATH": str(ROOT)}
        proc = subprocess.run([sys.executable, "-m", "interviewer", "resume"], env=env,
                              capture_output=True, text=True, timeout=120, cwd=ROOT)
    finally:
        holder.kill()
        holder.wait()
    assert proc.returncode == 2, proc.stderr
    assert "already open in another window" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_a_session_held_by_another_process_is_not_taken_over(tmp_path: Path) -> None:
    from interviewer.content.catalog import BankCatalog
    from interviewer.sessions.recorder import Recorder, interview_from_session

    _interrupted_session(tmp_path)
    go = tmp_path / "go"
    go.touch()
    holder = _claimer(tmp_path, go)
    try:
        assert holder.stdout.readline().strip() == "GOT s1"
        store = Store.open(tmp_path)
        assert store.hold("s1") is False
        interview = interview_from_session(store.session("s1"), BankCatalog([ROOT / "bank"]))
        with pytest.raises(SessionBusy, match="already open in another window"):
            Recorder.start(store, interview, None, session_id="s1")
    finally:
        holder.kill()
        holder.wait()
    # once that process is gone, the session is free to take
    assert Store.open(tmp_path).hold("s1") is True


async def test_declining_to_resume_does_not_abandon_a_session_another_window_took(
        tmp_path: Path, settings) -> None:
    from helpers import build, on, wait_for

    from interviewer.tui.screens.confirm import ConfirmScreen

    home = settings.data_dir
    _interrupted_session(home)
    app = build(settings, plan=False)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: on(app, ConfirmScreen))  # "Resume …?" asked here
        go = tmp_path / "go"
        go.touch()
        other = _claimer(home, go)  # meanwhile another window resumes it
        try:
            assert other.stdout.readline().strip() == "GOT s1"
            await pilot.press("n")
            await pilot.pause()
            assert app.store.session("s1").status == "active"
        finally:
            other.kill()
            other.wait()


# A process that holds the interrupted session, says it is closing, and ends a second later:
# a window whose terminal was closed, still saving.
CLOSER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from interviewer.sessions.store import Store
    store = Store.open(Path(sys.argv[1]))
    assert store.claim_interrupted() is not None
    store.closing()
    print("CLOSING", flush=True)
    time.sleep(1.0)
""")


def test_a_resume_waits_for_a_window_that_is_closing(tmp_path: Path) -> None:
    _interrupted_session(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    closer = subprocess.Popen([sys.executable, "-c", CLOSER, str(tmp_path)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert closer.stdout.readline().strip() == "CLOSING", closer.stderr.read()
        row = Store.open(tmp_path).claim_interrupted()
        # it was waited for, not taken from under it: the closer, which still had a second
        # to sleep had it been, is ending (its lock goes with its files, just before it is
        # reaped, so it is waited for rather than polled)
        assert closer.wait(timeout=0.5) is not None
    finally:
        closer.kill()
        closer.wait()
    assert row is not None and row.id == "s1"


def test_a_lock_file_left_saying_closing_does_not_make_its_next_holder_look_closing(
        tmp_path: Path) -> None:
    from interviewer.sessions.session_locks import CLOSING

    _interrupted_session(tmp_path)
    locks = tmp_path / "locks"
    locks.mkdir(exist_ok=True)
    (locks / "s1.lock").write_text(CLOSING)  # its writer was killed as it closed
    go = tmp_path / "go"
    go.touch()
    holder = _claimer(tmp_path, go)
    try:
        assert holder.stdout.readline().strip() == "GOT s1"
        assert (locks / "s1.lock").read_text() == ""
        with pytest.raises(SessionBusy, match="already open in another window"):
            Store.open(tmp_path).claim_interrupted()
    finally:
        holder.kill()
        holder.wait()
