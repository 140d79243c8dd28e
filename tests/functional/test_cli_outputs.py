"""Output paths are checked before any work: one line and exit code 2, never a traceback."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from fakes import BigramEmbedder
from interviewer import cli, factory
from interviewer.grading.calibration import Scorer
from interviewer.grading.grader import Grader
from helpers import run_cli

BUILT: list[str] = []


@pytest.fixture(autouse=True)
def fake_grader(monkeypatch: pytest.MonkeyPatch) -> None:
    BUILT.clear()

    def make(settings):
        BUILT.append("grader")
        return Grader(BigramEmbedder(), Scorer(0.6, 0.3, source="test"))

    monkeypatch.setattr(factory, "make_grader", make)


run = run_cli


def _answers(tmp_path: Path) -> Path:
    path = tmp_path / "a.jsonl"
    path.write_text(json.dumps({"id": 1, "question_id": "q07", "answer": "梯度累积。"},
                               ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def _bad_targets(tmp_path: Path) -> list[tuple[Path, str]]:
    a_dir = tmp_path / "a-dir"
    a_dir.mkdir()
    return [(a_dir, "is a directory"), (tmp_path / "missing" / "x.out", "does not exist")]


def _assert_one_line(code: int, err: str, target: Path, fragment: str) -> None:
    assert code == 2, err
    lines = err.strip().split("\n")
    assert len(lines) == 1 and str(target) in lines[0] and fragment in lines[0], err
    assert "Traceback" not in err


def test_grade_out_is_checked_before_the_model_loads(tmp_path: Path) -> None:
    answers = _answers(tmp_path)
    for target, fragment in _bad_targets(tmp_path):
        code, _, err = run("grade", "--rubric", "ai-infra-zh", "--answers", str(answers),
                           "--out", str(target))
        _assert_one_line(code, err, target, fragment)
        code, _, err = run("grade", "--rubric", "ai-infra-zh", "--answers", str(answers),
                           "--report", str(target))
        _assert_one_line(code, err, target, fragment)
    assert BUILT == []


def test_bank_import_out_is_checked(tmp_path: Path) -> None:
    src = tmp_path / "seed.txt"
    src.write_text("My set\nQ: What is ZeRO?\nIt shards optimizer states.\n", encoding="utf-8")
    for target, fragment in _bad_targets(tmp_path):
        code, _, err = run("bank", "import", str(src), "-o", str(target), "--force")
        _assert_one_line(code, err, target, fragment)


def test_rubric_build_out_is_checked(tmp_path: Path) -> None:
    for target, fragment in _bad_targets(tmp_path):
        code, _, err = run("rubric", "build", "llm-systems-en", "-o", str(target))
        _assert_one_line(code, err, target, fragment)


def test_calibrate_out_is_checked_before_the_fit(tmp_path: Path) -> None:
    labels = tmp_path / "labels.jsonl"
    labels.write_text("", encoding="utf-8")
    for target, fragment in _bad_targets(tmp_path):
        code, _, err = run("calibrate", "--labels", str(labels), "--out", str(target))
        _assert_one_line(code, err, target, fragment)
    assert BUILT == []


def test_report_out_is_checked(tmp_path: Path) -> None:
    for target, fragment in _bad_targets(tmp_path):
        code, _, err = run("report", "-o", str(target))
        _assert_one_line(code, err, target, fragment)


@pytest.mark.skipif(shutil.which("unshare") is None or os.geteuid() != 0,
                    reason="a read-only mount needs root and unshare")
def test_grade_out_in_a_read_only_directory_is_one_line(tmp_path: Path) -> None:
    answers = _answers(tmp_path)
    ro = tmp_path / "ro"
    ro.mkdir()
    code = ("import sys; from interviewer import cli; "
            f"sys.exit(cli.main(['grade', '--rubric', 'ai-infra-zh', '--answers', {str(answers)!r},"
            f" '--out', {str(ro / 'out.jsonl')!r}, '--model', '/nonexistent-model']))")
    script = (f'mount --bind "{ro}" "{ro}" && mount -o remount,bind,ro "{ro}" && '
              f'exec "{sys.executable}" -c "$CHILD"')
    env = {**os.environ, "CHILD": code, "PYTHONPATH": str(ROOT),
           "INTERVIEWER_HOME": str(tmp_path / "home")}
    proc = subprocess.run(["unshare", "-m", "sh", "-c", script], env=env, capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "out.jsonl" in proc.stderr, proc.stderr
    assert "cannot be written" in proc.stderr or "read-only" in proc.stderr.lower()


def test_a_lone_surrogate_or_deep_nesting_is_a_bad_line_like_any_other(tmp_path: Path) -> None:
    answers = tmp_path / "a.jsonl"
    good = json.dumps({"id": 1, "question_id": "q07", "answer": "梯度累积。"}, ensure_ascii=False)
    lines = [good,
             '{"id": 2, "question_id": "q07", "answer": "bad \\ud800 text"}',
             '{"id": "\\udfff", "question_id": "q07", "answer": "fine text"}',
             '{"id": 4, "answer": ' + "[" * 100_000 + "]" * 100_000 + "}",
             good.replace('"id": 1', '"id": 5')]
    answers.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    code, stdout, err = run("grade", "--rubric", "ai-infra-zh", "--answers", str(answers),
                            "--out", str(out))
    assert code == 1, err
    assert "Traceback" not in err
    rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [("score" in r, "error" in r) for r in rows] == [
        (True, False), (False, True), (False, True), (False, True), (True, False)]
    assert rows[1]["id"] == 2 and "surrogate" in rows[1]["error"]
    assert "deep" in rows[3]["error"]
    assert [ln.split(":")[1] for ln in err.strip().split("\n")] == ["2", "3", "4"]
