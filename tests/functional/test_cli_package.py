"""The CLI as a package: one module per command group, each registering its handlers, and
the batch run in the batch module."""

from __future__ import annotations

import io
import json
from pathlib import Path

from conftest import ROOT
from fakes import BigramEmbedder
from interviewer.grading.calibration import Scorer
from interviewer.grading.grader import Grader

CLI = ROOT / "interviewer" / "cli"


def test_the_cli_is_a_package_of_small_modules() -> None:
    modules = sorted(p.name for p in CLI.glob("*.py"))
    assert {"__init__.py", "main.py", "registry.py", "run.py", "grade.py", "report.py",
            "bank.py", "rubric.py"} <= set(modules)
    for path in CLI.glob("*.py"):
        assert len(path.read_text(encoding="utf-8").splitlines()) <= 300, path.name


def test_every_command_is_registered_with_its_handler() -> None:
    from interviewer.cli import build_parser
    from interviewer.cli.registry import COMMANDS

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    assert list(sub.choices) == ["run", "bank", "rubric", "grade", "resume", "drill", "points",
                                 "followup", "report", "history", "calibrate"]
    assert set(COMMANDS) == set(sub.choices)
    assert all(callable(c.run) for c in COMMANDS.values())


def test_main_has_no_if_chain_over_command_names() -> None:
    text = (CLI / "main.py").read_text(encoding="utf-8")
    assert "if command ==" not in text and "args.command ==" not in text


def test_no_state_is_passed_between_commands_on_the_namespace() -> None:
    for path in CLI.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "args.drill_plan" not in text and "args.resume_row" not in text, path.name
        assert "args.store" not in text, path.name


def test_the_console_script_entry_point_still_resolves() -> None:
    from interviewer import cli
    from interviewer.cli.main import main

    assert cli.main is main


def test_a_batch_runs_from_the_batch_module(tmp_path: Path) -> None:
    from interviewer.content.bank import load_bank
    from interviewer.grading.batch import parse_batch, run_batch
    from interviewer.config import discover_settings
    from interviewer.content.bank_rubric import rubric_for_bank

    rubric = rubric_for_bank(load_bank(ROOT / "bank" / "ai-infra-zh.md")).rubric
    answers = tmp_path / "a.jsonl"
    answers.write_text("\n".join([
        json.dumps({"id": "a", "question_id": "q07", "answer": "梯度累积。"}, ensure_ascii=False),
        "{broken",
        json.dumps({"id": "b", "question_id": "q01", "answer": "混合精度训练。"},
                   ensure_ascii=False)]) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    err = io.StringIO()
    done = run_batch(parse_batch(answers.read_text(encoding="utf-8"), rubric), rubric,
                     answers=answers, out=out, resume=False, jobs=1, stdout=io.StringIO(),
                     err=err, settings=discover_settings(),
                     make_grader=lambda s: Grader(BigramEmbedder(), Scorer(0.6, 0.3)))
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [line["id"] for line in lines] == ["a", 2, "b"]
    assert "error" in lines[1] and "score" in lines[0] and "score" in lines[2]
    assert done.failed == 1 and done.model_id == "test/bigram"
    assert err.getvalue().startswith(f"{answers}:2: malformed JSON")
