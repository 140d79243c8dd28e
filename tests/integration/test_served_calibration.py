"""A served embedding model grades only once calibrated; its calibration follows the model,
not the spelling of its URL, and holds every similarity cut-off the grader uses.
A real server on 127.0.0.1 serves the embeddings; the CLI is run as a user would."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import ROOT
from helpers import run_cli
from llm_server import ChatServer
from interviewer import cli
from interviewer.grading.calibration import DEFAULT_CUTOFFS, scorer_for
from interviewer.grading.encoders.names import USE_ID, openai_model_id

LABELS = ROOT / "bench" / "data" / "labeled-dev.jsonl"
GENUINE = "梯度累积的原理：梯度先累加，不马上更新参数。梯度累积的作用：显存不够时也能用大batch。"


run = run_cli


@pytest.fixture
def answer(tmp_path: Path) -> Path:
    path = tmp_path / "a.txt"
    path.write_text(GENUINE, encoding="utf-8")
    return path


def grade(answer: Path, *extra: str) -> tuple[int, str, str]:
    return run("grade", "--bank", "ai-infra-zh", "--question", "q07", "--answer-file",
               str(answer), "--model", "openai:e5", "--json", *extra)


def test_an_uncalibrated_served_model_refuses_to_grade(answer: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    batch = tmp_path / "b.jsonl"
    batch.write_text(json.dumps({"id": 1, "question_id": "q07", "answer": GENUINE},
                                ensure_ascii=False) + "\n", encoding="utf-8")
    with ChatServer() as server:
        monkeypatch.setenv("INTERVIEWER_EMBEDDING_BASE_URL", server.base_url)
        for argv in (["grade", "--bank", "ai-infra-zh", "--question", "q07", "--answer-file",
                      str(answer), "--model", "openai:e5"],
                     ["grade", "--rubric", "ai-infra-zh", "--answers", str(batch),
                      "--model", "openai:e5"],
                     ["followup", "--bank", "ai-infra-zh", "--question", "q07",
                      "--answer-file", str(answer), "--model", "openai:e5"]):
            code, out, err = run(*argv)
            assert code == 2 and out == "", err
            assert len(err.strip().splitlines()) == 1
            assert "not calibrated" in err and "--uncalibrated" in err
            assert "interviewer calibrate --labels" in err and "--model openai:e5" in err
        assert server.requests == []  # refused before any work
        code, out, err = grade(answer, "--uncalibrated")
    assert code == 0, err
    assert json.loads(out)["calibration"] == "uncalibrated"


def test_the_identity_of_a_served_model_is_its_name_and_host() -> None:
    a = openai_model_id("bge-m3", "http://user:sk-secret@LOCALHOST:8080/v1/")
    b = openai_model_id("bge-m3", "http://127.0.0.1:8080/v1")
    assert a == b and "sk-secret" not in a and "user" not in a
    assert openai_model_id("bge-m3", "http://[::1]:8080/v1") == b
    assert openai_model_id("other", "http://127.0.0.1:8080/v1") != b
    assert openai_model_id("bge-m3", "http://gpu-box:8080/v1") != b


def test_a_calibration_saved_under_a_url_is_found_by_identity(tmp_path: Path) -> None:
    shipped = json.loads((ROOT / "interviewer" / "grading" / "calibration.json").read_text())[USE_ID]
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps({"e5@http://localhost:8080/v1": shipped}), encoding="utf-8")
    # the head its scorer of hand-written points names travels beside it
    head = shipped["hand"]["head"]
    (tmp_path / head).write_bytes((ROOT / "interviewer" / "grading" / head).read_bytes())
    assert scorer_for(openai_model_id("e5", "http://127.0.0.1:8080/v1"), path).calibrated


def test_a_calibration_follows_the_model_not_the_spelling_of_its_url(
        answer: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with ChatServer() as server:
        port = server.httpd.server_address[1]
        monkeypatch.setenv("INTERVIEWER_EMBEDDING_BASE_URL", f"http://localhost:{port}/v1")
        code, out, err = run("calibrate", "--labels", str(LABELS), "--model", "openai:e5")
        assert code == 0, err
        monkeypatch.setenv("INTERVIEWER_EMBEDDING_BASE_URL", f"http://127.0.0.1:{port}/v1/")
        code, out, err = grade(answer)
    assert code == 0, err
    assert json.loads(out)["calibration"] == LABELS.name


def test_similarity_cut_offs_are_part_of_a_models_calibration(
        answer: Path, monkeypatch: pytest.MonkeyPatch, isolated_home: Path) -> None:
    """An encoder whose similarities all run high, like e5: the default model's 0.8
    'restates the question' cut-off calls a genuine answer a restatement."""
    assert scorer_for(USE_ID).cutoff("parrot_similarity") == 0.8 == \
        DEFAULT_CUTOFFS["parrot_similarity"]
    calibration = isolated_home / "calibration.json"

    def reasons() -> list[str]:
        code, out, err = grade(answer)
        assert code == 0, err
        return [p["reason"] or "" for p in json.loads(out)["points"]]

    with ChatServer() as server:
        server.embedding_floor = 0.7
        monkeypatch.setenv("INTERVIEWER_EMBEDDING_BASE_URL", server.base_url)
        code, _, err = run("calibrate", "--labels", str(LABELS), "--model", "openai:e5")
        assert code == 0, err
        fitted = reasons()
        saved = json.loads(calibration.read_text(encoding="utf-8"))
        (entry,) = saved.values()
        assert entry["cutoffs"]["parrot_similarity"] > 0.8
        del entry["cutoffs"]  # the same calibration with the default model's cut-offs
        calibration.write_text(json.dumps(saved), encoding="utf-8")
        default = reasons()
    assert not any("restates the question" in r for r in fitted), fitted
    assert any("restates the question" in r for r in default), default  # the fault, shown


def test_the_calibration_check_keeps_numpy_off_the_first_frame() -> None:
    import subprocess
    import sys

    code = ("import sys\n"
            "from interviewer.factory import require_calibrated\n"
            "from interviewer.config import discover_settings\n"
            "require_calibrated(discover_settings())\n"
            "print('numpy' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert proc.stdout.strip() == "False", proc.stderr
