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
from interviewer.store import DB_NAME, DatabaseLocked, SessionBusy, Store

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
