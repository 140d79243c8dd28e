"""The CLI's exact output, byte for byte, against the files in tests/functional/golden/.

Each case runs the real ``interviewer`` in a subprocess (``python -m interviewer``) with a
fixed environment: a fresh ``INTERVIEWER_HOME``, ``COLUMNS=80`` (argparse wraps help to it),
``TZ=UTC``, UTF-8 I/O, no LLM or embedding-server variables, stdin from /dev/null. Its exit
code, stdout and stderr (and any file it writes) must equal ``tests/functional/golden/<case>.*``.

There is no clock setting in the CLI, so what depends on the time is fixed or normalised,
and only this way:

- the stored session the report and history read is written through the real Recorder,
  then its id and every timestamp in the database are set to fixed values with plain SQL
  (``SESSION_ID``, ``STARTED``, ``ENDED``);
- in the text compared, the repository root becomes ``<ROOT>`` and the test's temporary
  directory ``<TMP>``;
- the JSON report's ``"generated_at"`` value becomes ``<NOW>``, and the ``Date`` of a
  batch's report (the time the batch ran) becomes ``<DATE>``.

To record the files again after a deliberate change of output:
``GOLDEN_UPDATE=1 python -m pytest tests/functional/test_golden_cli.py``, then read the diff.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from helpers import stored_session

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("GOLDEN_UPDATE") == "1"

SESSION_ID = "20260101-090000-abc123"
STARTED = "2026-01-01T09:00:00+00:00"
ENDED = "2026-01-01T09:05:00+00:00"

HELP = [[], ["run"], ["bank"], ["bank", "list"], ["bank", "validate"], ["bank", "import"],
        ["bank", "export"], ["rubric"], ["rubric", "build"], ["grade"], ["resume"], ["drill"],
        ["points"], ["followup"], ["report"], ["history"], ["calibrate"]]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """A home with one finished session (fixed id and times), and the input files."""
    tmp = tmp_path_factory.mktemp("golden")
    home = tmp / "home"
    session_id, _, _ = stored_session(home)
    conn = sqlite3.connect(home / "interviewer.db")
    with conn:
        conn.execute("UPDATE sessions SET id = ?, started_at = ?, ended_at = ? WHERE id = ?",
                     (SESSION_ID, STARTED, ENDED, session_id))
        conn.execute("UPDATE attempts SET session_id = ?, updated_at = ?, graded_at = ? "
                     "WHERE session_id = ?", (SESSION_ID, ENDED, ENDED, session_id))
        conn.execute("UPDATE point_reviews SET session_id = ?, reviewed_at = ? "
                     "WHERE session_id = ?", (SESSION_ID, ENDED, session_id))
    conn.close()
    for lock in home.glob("**/*.lock"):
        lock.unlink()
    answer = tmp / "answer.txt"
    answer.write_text("梯度累积把大batch拆成多个micro-batch，显存不够时用它。\n", encoding="utf-8")
    (tmp / "empty.txt").write_text("  \n", encoding="utf-8")
    lines = [json.dumps({"id": "a1", "question_id": "q07",
                         "answer": "梯度累积：累积N个micro-batch的梯度后再更新一次参数。"},
                        ensure_ascii=False),
             "{not json",
             json.dumps({"id": "a2", "question_id": "q01", "answer": "混合精度训练。"},
                        ensure_ascii=False),
             json.dumps({"id": "a3", "question_id": "q99", "answer": "x"})]
    (tmp / "answers.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    broken = tmp / "broken.md"
    broken.write_text("# no front matter here\n\n## Q1\n", encoding="utf-8")
    return {"tmp": tmp, "home": home}


def _env(home: Path) -> dict[str, str]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT),
           "INTERVIEWER_HOME": str(home), "HOME": str(home.parent), "COLUMNS": "80",
           "LINES": "24", "TZ": "UTC", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
           "PYTHONIOENCODING": "utf-8", "PYTHONHASHSEED": "0", "NO_COLOR": "1"}
    for var in ("INTERVIEWER_THREADS",):
        if var in os.environ:
            env[var] = os.environ[var]
    return env


def _normalise(text: str, tmp: Path) -> str:
    text = text.replace(str(tmp), "<TMP>").replace(str(ROOT), "<ROOT>")
    return re.sub(r'"generated_at": "[^"]*"', '"generated_at": "<NOW>"', text)


def _check(name: str, actual: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(actual.encode("utf-8"))
        return
    assert path.exists(), f"no golden file {path}; record it with GOLDEN_UPDATE=1"
    expected = path.read_bytes().decode("utf-8")
    assert actual == expected, f"{name} differs from the golden file"


def _run(world: dict, name: str, argv: list[str]) -> None:
    tmp = world["tmp"]
    argv = [a.replace("{TMP}", str(tmp)) for a in argv]
    proc = subprocess.run([sys.executable, "-m", "interviewer", *argv], cwd=tmp,
                          env=_env(world["home"]), stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=600)
    _check(f"{name}.stdout", _normalise(proc.stdout.decode("utf-8"), tmp))
    _check(f"{name}.stderr", _normalise(proc.stderr.decode("utf-8"), tmp))
    _check(f"{name}.exit", f"{proc.returncode}\n")


@pytest.mark.parametrize("words", HELP, ids=lambda w: "-".join(w) or "top")
def test_help(world: dict, words: list[str]) -> None:
    _run(world, "help-" + ("-".join(words) or "top"), [*words, "--help"])


def test_version(world: dict) -> None:
    _run(world, "version", ["--version"])


CASES = {
    "bank-list": ["bank", "list"],
    "bank-validate": ["bank", "validate"],
    "bank-validate-broken": ["bank", "validate", "{TMP}/broken.md"],
    "bank-export": ["bank", "export", "llm-systems-en"],
    "grade-text": ["grade", "--bank", "ai-infra-zh", "--question", "q07",
                   "--answer-file", "{TMP}/answer.txt"],
    "grade-json": ["grade", "--bank", "ai-infra-zh", "--question", "q07",
                   "--answer-file", "{TMP}/answer.txt", "--json"],
    "grade-batch": ["grade", "--rubric", "ai-infra-zh", "--answers", "{TMP}/answers.jsonl"],
    "followup-template": ["followup", "--bank", "ai-infra-zh", "--question", "q07",
                          "--answer-file", "{TMP}/answer.txt"],
    "report-md": ["report"],
    "report-html": ["report", SESSION_ID, "--format", "html"],
    "report-json": ["report", SESSION_ID, "--format", "json", "--with-reference"],
    "history": ["history"],
    "history-points": ["history", "--points"],
    "points-new": ["points", "--bank", "llm-systems-en"],
    # one-line errors
    "error-unknown-question": ["grade", "--bank", "ai-infra-zh", "--question", "q42",
                               "--answer-file", "{TMP}/answer.txt"],
    "error-empty-answer": ["grade", "--bank", "ai-infra-zh", "--question", "q01",
                           "--answer-file", "{TMP}/empty.txt"],
    "error-missing-answer-file": ["grade", "--bank", "ai-infra-zh", "--question", "q01",
                                  "--answer-file", "{TMP}/nope.txt"],
    "error-grade-missing-args": ["grade", "--bank", "ai-infra-zh"],
    "error-answers-without-rubric": ["grade", "--answers", "{TMP}/answers.jsonl"],
    "error-unknown-bank": ["bank", "export", "no-such-bank"],
    "error-bare-time-limit": ["run", "--time-limit", "10"],
    "error-unknown-command": ["frobnicate"],
    "error-unknown-session": ["report", "nope"],
    "error-report-format": ["report", "-o", "{TMP}/r.pdf"],
    "error-no-terminal": ["run", "--bank", "ai-infra-zh", "--count", "1"],
    "error-nothing-to-drill": ["drill", "--bank", "llm-systems-en"],
    "error-nothing-to-resume": ["resume"],
    "error-suspend-without-ids": ["points", "suspend", "--bank", "llm-systems-en"],
    "error-model-not-found": ["grade", "--bank", "ai-infra-zh", "--question", "q07",
                                 "--answer-file", "{TMP}/answer.txt", "--model",
                                 "{TMP}/no-model-here"],
}


@pytest.mark.parametrize("name", CASES)
def test_command(world: dict, name: str) -> None:
    _run(world, name, CASES[name])


def test_rubric_build_output_and_file(world: dict) -> None:
    _run(world, "rubric-build", ["rubric", "build", "llm-systems-en", "-o", "{TMP}/r.yaml"])
    _check("rubric-build.yaml", (world["tmp"] / "r.yaml").read_text(encoding="utf-8"))


def test_batch_report_file(world: dict) -> None:
    _run(world, "grade-batch-report", ["grade", "--rubric", "ai-infra-zh", "--answers",
                                       "{TMP}/answers.jsonl", "--out", "{TMP}/out.jsonl",
                                       "--report", "{TMP}/cohort.md"])
    tmp = world["tmp"]
    _check("grade-batch-report.jsonl", _normalise((tmp / "out.jsonl").read_text("utf-8"), tmp))
    report = (tmp / "cohort.md").read_text(encoding="utf-8")
    report = re.sub(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}", "<DATE>", report)
    _check("grade-batch-report.md", _normalise(report, tmp))
