"""Wrong input on the commands, as a new user types it: one line naming the file and what
to do, exit code 2, no traceback, nothing silently ignored."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from fakes import BigramEmbedder
from helpers import poll, run_cli
from interviewer import factory
from interviewer.grading.calibration import Scorer
from interviewer.grading.grader import Grader


@pytest.fixture(autouse=True)
def fake_grader(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(factory, "make_grader",
                        lambda settings: Grader(BigramEmbedder(), Scorer(0.6, 0.3, source="test")))


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


@pytest.fixture
def answer(tmp_path: Path) -> Path:
    path = tmp_path / "answer.txt"
    path.write_text("The KV cache stores keys and values of earlier tokens.\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("extra", [["--out", "graded.jsonl"], ["--report", "r.md"],
                                   ["--resume"], ["--jobs", "2"]])
def test_batch_options_with_one_answer_are_refused_not_ignored(
        tmp_path: Path, answer: Path, monkeypatch: pytest.MonkeyPatch, extra: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli("grade", "--bank", "llm-systems-en", "--question", "kv-cache",
                             "--answer-file", str(answer), *extra)
    line = _one_line(err)
    assert code == 2 and out == ""
    assert extra[0] in line and "--answers" in line
    assert not (tmp_path / extra[-1]).exists()


def test_an_empty_answers_file_is_one_line_not_a_silent_success(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n", encoding="utf-8")
    code, out, err = run_cli("grade", "--rubric", "llm-systems-en", "--answers", str(empty))
    line = _one_line(err)
    assert code == 2 and out == ""
    assert "empty.jsonl" in line and "no answers" in line


def test_exporting_onto_a_directory_says_it_is_a_directory(tmp_path: Path) -> None:
    folder = tmp_path / "adir"
    folder.mkdir()
    code, _, err = run_cli("bank", "export", "llm-systems-en", "-o", str(folder))
    line = _one_line(err)
    assert code == 2 and "is a directory" in line and "--force" not in line


def test_interviewer_home_naming_a_file_says_so(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home.txt"
    home.write_text("", encoding="utf-8")
    monkeypatch.setenv("INTERVIEWER_HOME", str(home))
    code, _, err = run_cli("history")
    line = _one_line(err)
    assert code == 2
    assert "INTERVIEWER_HOME" in line and str(home) in line and "not a directory" in line


def test_a_write_to_a_locked_database_says_it_is_locked(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        isolated_home: Path) -> None:
    code, out, _ = run_cli("points", "--bank", "llm-systems-en")
    assert code == 0
    point = out.splitlines()[1].split()[0]
    monkeypatch.setenv("INTERVIEWER_DB_TIMEOUT", "0.2")
    ready = tmp_path / "ready"
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sqlite3, sys, pathlib\n"
         "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
         "c.execute('BEGIN IMMEDIATE'); c.execute('CREATE TABLE held (x)')\n"
         "pathlib.Path(sys.argv[2]).touch(); sys.stdin.read()\n",
         str(isolated_home / "interviewer.db"), str(ready)], stdin=subprocess.PIPE)
    try:
        poll(ready.exists, what="the other process's write lock")
        code, _, err = run_cli("points", "suspend", point, "--bank", "llm-systems-en")
    finally:
        holder.communicate(b"")
    line = _one_line(err)
    assert code == 2 and "locked by another interviewer process" in line
    assert "interviewer.db" in line and "try again" in line


def test_an_output_in_a_place_that_cannot_be_written_says_what_to_do(tmp_path: Path) -> None:
    target = Path("/proc/interviewer-cannot-write-here.md")
    code, _, err = run_cli("bank", "export", "llm-systems-en", "-o", str(target))
    line = _one_line(err)
    assert code == 2 and str(target) in line and "cannot be written" in line
    assert "write it elsewhere" in line


def test_a_rubric_of_another_bank_is_neither_used_nor_overwritten(tmp_path: Path) -> None:
    (tmp_path / "rubrics").mkdir()
    bank = tmp_path / "llm-systems-en.md"
    bank.write_bytes((ROOT / "bank" / "llm-systems-en.md").read_bytes())
    other = (ROOT / "rubrics" / "ai-infra-zh.yaml").read_bytes()
    rubric = tmp_path / "rubrics" / "llm-systems-en.yaml"
    rubric.write_bytes(other)
    answer = tmp_path / "answer.txt"
    answer.write_text("Keys and values are cached.\n", encoding="utf-8")
    code, _, err = run_cli("grade", "--bank", str(bank), "--question", "kv-cache",
                           "--answer-file", str(answer))
    line = _one_line(err)
    assert code == 2 and str(rubric) in line and "rubric is for bank 'ai-infra-zh'" in line
    assert "--force" in line  # what to do
    code, _, err = run_cli("rubric", "build", str(bank))
    line = _one_line(err)
    assert code == 2 and str(rubric) in line and "ai-infra-zh" in line and "--force" in line
    assert rubric.read_bytes() == other
    code, _, err = run_cli("rubric", "build", str(bank), "--force")
    assert code == 0 and "dropped" not in err
    assert b"bank: llm-systems-en" in rubric.read_bytes()


def test_a_path_through_a_file_says_what_to_check(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x\n", encoding="utf-8")
    through = tmp_path / "notes.txt" / "bank.md"
    code, _, err = run_cli("bank", "validate", str(through))
    line = _one_line(err)
    assert code == 2 and str(through) in line and "check the path" in line


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="root reads files whatever their mode")
def test_an_unreadable_file_says_to_make_it_readable(tmp_path: Path) -> None:
    locked = tmp_path / "bank.md"
    locked.write_bytes((ROOT / "bank" / "llm-systems-en.md").read_bytes())
    locked.chmod(0)
    code, _, err = run_cli("bank", "validate", str(locked))
    line = _one_line(err)
    assert code == 2 and str(locked) in line and "permission denied" in line
    assert "chmod" in line


@pytest.mark.parametrize("flag", ["--time-limit", "--total-time"])
def test_a_negative_duration_is_read_as_a_value_and_refused(flag: str) -> None:
    code, _, err = run_cli("run", flag, "-5m")
    line = _one_line(err)
    assert code == 2 and flag in line and "expected one argument" not in line
    assert "-5m" in line or "more than 0" in line
