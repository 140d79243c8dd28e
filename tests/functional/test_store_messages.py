"""What the CLI says about the session database: read-only, moved aside, not saved.

Real SQLite files, a real read-only mount (root) or read-only permissions, real processes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import run_cli, stored_session
from conftest import ROOT
from interviewer.sessions.store import DB_NAME


def _stored_session(home: Path) -> tuple[str, str]:
    sid, _, grade = stored_session(home)
    return sid, grade.points[0].point_id


def _cli_read_only(home: Path, *argv: str) -> subprocess.CompletedProcess:
    """``interviewer ARGV`` in a child process that sees ``home`` read-only."""
    env = {**os.environ, "INTERVIEWER_HOME": str(home), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "interviewer", *argv]
    if os.geteuid() == 0:  # root ignores permission bits: a read-only bind mount instead
        if shutil.which("unshare") is None:
            pytest.skip("root without unshare cannot make a directory read-only")
        script = (f'mount --bind "{home}" "{home}" && mount -o remount,bind,ro "{home}" && '
                  'exec "$@"')
        command = ["unshare", "-m", "sh", "-c", script, "sh", *command]
        return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120,
                              cwd=ROOT)
    for p in [home, *home.rglob("*")]:
        p.chmod(0o500 if p.is_dir() else 0o400)
    try:
        return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120,
                              cwd=ROOT)
    finally:
        for p in [home, *home.rglob("*")]:
            p.chmod(0o700 if p.is_dir() else 0o600)


def test_a_read_only_data_dir_still_shows_history_and_reports(isolated_home: Path) -> None:
    sid, _ = _stored_session(isolated_home)
    before = {p.name: p.read_bytes() for p in isolated_home.glob(f"{DB_NAME}*")}
    proc = _cli_read_only(isolated_home, "history")
    assert proc.returncode == 0, proc.stderr
    assert sid in proc.stdout and "No sessions yet" not in proc.stdout
    proc = _cli_read_only(isolated_home, "report", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert f'"id": "{sid}"' in proc.stdout and "Traceback" not in proc.stderr
    assert {p.name: p.read_bytes() for p in isolated_home.glob(f"{DB_NAME}*")} == before


def test_suspending_a_point_in_a_read_only_data_dir_says_it_was_not_saved(
        isolated_home: Path) -> None:
    _, pid = _stored_session(isolated_home)
    proc = _cli_read_only(isolated_home, "points", "suspend", pid)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "not saved" in proc.stderr and "suspended" not in proc.stdout
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    code, out, _ = run_cli("points")
    assert code == 0 and "(0 suspended)" in out


def test_the_cli_says_where_it_moved_a_corrupt_database(isolated_home: Path) -> None:
    isolated_home.mkdir(parents=True)
    (isolated_home / DB_NAME).write_bytes(b"this is not a database" * 100)
    code, out, err = run_cli("history")
    assert code == 0 and "No sessions yet" in out
    aside = list(isolated_home.glob(f"{DB_NAME}.corrupt-*"))
    assert len(aside) == 1
    lines = err.strip().split("\n")
    assert len(lines) == 1 and str(aside[0]) in lines[0] and "moved" in lines[0]
    assert aside[0].read_bytes() == b"this is not a database" * 100
