"""Resuming an interview whose bank is gone, and asking for a report format that does not
exist: one clear line (CLI) or a clear message on a usable screen (TUI), never a blank one."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import run_cli, wait_for
from conftest import ROOT
from fakes import BigramEmbedder
from interviewer.content.bank import parse_bank
from interviewer.grading.calibration import Scorer
from interviewer.grading.grader import Grader

SCORER = Scorer(0.6, 0.3, source="test")


def _interrupted_session_on_a_deleted_bank(home: Path):
    """An interview on a user bank, killed mid-answer; then the bank file is deleted."""
    from interviewer.sessions.interview import Interview
    from interviewer.sessions.recorder import Recorder
    from interviewer.content.bank_rubric import rubric_for_bank
    from interviewer.sessions.plan import SetupChoices, make_plan
    from interviewer.sessions.store import Store

    source = (ROOT / "bank" / "llm-systems-en.md").read_text(encoding="utf-8")
    path = home / "bank" / "gone-bank.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source.replace("id: llm-systems-en", "id: gone-bank"), encoding="utf-8")
    bank = parse_bank(path.read_text(encoding="utf-8"), path=path)
    interview = Interview.start(make_plan(bank, SetupChoices(bank=bank.id, count=2)),
                                rubric_for_bank(bank).rubric)
    store = Store.open(home)
    recorder = Recorder.start(store, interview, "test/bigram")
    interview.attempts[0].answer = "half an answer"
    recorder.draft(0)
    recorder.close()  # the process died
    store.close()
    path.unlink()
    (home / "rubrics").exists() and [p.unlink() for p in (home / "rubrics").glob("gone-bank*")]


def test_cli_resume_when_the_bank_is_gone_is_one_line_and_exit_2(isolated_home: Path) -> None:
    _interrupted_session_on_a_deleted_bank(isolated_home)
    env = {**os.environ, "INTERVIEWER_HOME": str(isolated_home), "PYTHONPATH": str(ROOT),
           "TERM": "dumb"}
    try:
        proc = subprocess.run([sys.executable, "-m", "interviewer", "resume"], env=env,
                              capture_output=True, text=True, timeout=60, cwd=ROOT,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail("resume started an interview on a bank that is gone")
    assert proc.returncode == 2, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert proc.stderr.count("\n") == 1 and "gone-bank" in proc.stderr
    assert "no longer available" in proc.stderr and "Traceback" not in proc.stderr


async def test_tui_resume_when_the_bank_is_gone_shows_setup_and_says_why(settings) -> None:
    from interviewer.content.catalog import BankCatalog
    from interviewer.sessions.store import Store
    from interviewer.sessions.timer import ManualClock
    from interviewer.tui.app import make_app
    from interviewer.tui.screens.setup import SetupScreen

    _interrupted_session_on_a_deleted_bank(settings.data_dir)
    store = Store.open(settings.data_dir)
    row = store.interrupted()[0]
    app = make_app(banks=BankCatalog([ROOT / "bank"]).banks(),
                   grader=Grader(BigramEmbedder(), SCORER), settings=settings, store=store,
                   resume=row, clock=ManualClock())
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen) and app._notifications)
        messages = [str(n.message) for n in app._notifications]
        assert any("gone-bank" in m and "no longer available" in m for m in messages), messages


def test_report_to_an_unknown_format_is_refused_with_the_supported_ones(
        isolated_home: Path, tmp_path: Path) -> None:
    _interrupted_session_on_a_deleted_bank(isolated_home)
    for name in ("x.pdf", "x.txt", "x"):
        target = tmp_path / name
        code, _, err = run_cli("report", "-o", str(target))
        assert code == 2 and "md, html, json" in err and str(target) in err, err
        assert not target.exists()
    for name, start in (("x.md", "# Mock"), ("x.html", "<!DOCTYPE"), ("x.json", "{")):
        code, _, err = run_cli("report", "-o", str(tmp_path / name))
        assert code == 0, err
        assert (tmp_path / name).read_text(encoding="utf-8").startswith(start)
    code, _, err = run_cli("report", "-o", str(tmp_path / "y.pdf"), "--format", "html")
    assert code == 0 and (tmp_path / "y.pdf").read_text(encoding="utf-8").startswith("<!DOCTYPE")


def test_a_batch_report_to_an_unknown_format_is_refused_before_grading(tmp_path: Path) -> None:
    answers = tmp_path / "a.jsonl"
    answers.write_text('{"id": 1, "question_id": "q07", "answer": "梯度累积。"}\n', encoding="utf-8")
    code, _, err = run_cli("grade", "--rubric", "ai-infra-zh", "--answers", str(answers),
                           "--report", str(tmp_path / "cohort.pdf"), "--model", "/nonexistent")
    assert code == 2 and "md, html, json" in err and not (tmp_path / "cohort.pdf").exists()
