"""Banks in the user's bank dir: a broken file is skipped with a warning, an id that shadows
a shipped bank is warned about, and reports of past sessions come from what was stored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import run_cli, stored_session
from conftest import ROOT
from fakes import BigramEmbedder
from interviewer import factory
from interviewer.grading.calibration import Scorer
from interviewer.grading.grader import Grader


@pytest.fixture(autouse=True)
def fake_grader(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(factory, "make_grader",
                        lambda settings: Grader(BigramEmbedder(), Scorer(0.6, 0.3, source="test")))


def _user_bank_dir(home: Path) -> Path:
    path = home / "bank"
    path.mkdir(parents=True, exist_ok=True)
    return path


def test_a_non_utf8_bank_is_skipped_with_a_warning_and_the_others_keep_working(
        isolated_home: Path, tmp_path: Path) -> None:
    broken = _user_bank_dir(isolated_home) / "broken.md"
    broken.write_bytes(b"---\nid: broken\n---\n## q1: caf\xe9?\n")
    code, out, err = run_cli("bank", "list")
    assert code == 0, err
    assert "ai-infra-zh" in out and "llm-systems-en" in out
    assert err.count("\n") == 1 and str(broken) in err and "warning" in err
    answer = tmp_path / "a.txt"
    answer.write_text("The KV cache stores keys and values.", encoding="utf-8")
    code, out, err = run_cli("grade", "--bank", "llm-systems-en", "--question", "kv-cache",
                             "--answer-file", str(answer))
    assert code == 0 and "Score:" in out and str(broken) in err
    code, out, err = run_cli("points", "--bank", "llm-systems-en")
    assert code == 0 and "llm-systems-en:" in out
    code, _, err = run_cli("grade", "--bank", "broken", "--question", "q1",
                           "--answer-file", str(answer))
    assert code == 2 and "no bank with id 'broken'" in err and str(broken) in err


def _stored_session(home: Path) -> tuple[str, str]:
    sid, question, _ = stored_session(home)
    return sid, question


def test_a_user_bank_with_a_shipped_id_is_warned_about_and_old_reports_stay_as_stored(
        isolated_home: Path) -> None:
    sid, question = _stored_session(isolated_home)
    shadow = _user_bank_dir(isolated_home) / "mine.md"
    shadow.write_text("---\nid: ai-infra-zh\ntitle: Mine\nlanguage: en\n---\n\n"
                      "## q01: A different first question?\n\n### Answer\n\nSomething else.\n",
                      encoding="utf-8")
    code, out, err = run_cli("bank", "list")
    assert code == 0
    assert err.count("\n") == 1 and str(shadow) in err and "ai-infra-zh" in err
    assert str(ROOT / "bank" / "ai-infra-zh.md") in err
    for fmt in ("md", "json"):
        code, out, err = run_cli("report", sid, "--format", fmt)
        assert code == 0, err
        assert question in out and "A different first question" not in out
    data = json.loads(out)
    assert data["session"]["bank"]["title"] != "Mine"
