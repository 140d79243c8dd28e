"""YAML in banks and rubrics is bounded: no alias bombs, no containers where text belongs."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

# Nine levels of nine aliases: a few hundred bytes that name 9**9 strings.
LEVELS = "abcdefghi"
BOMB = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'] + [
    f"{x}: &{x} [" + ", ".join([f"*{prev}"] * 9) + "]" for prev, x in zip(LEVELS, LEVELS[1:])]


def bank_with_title(title_yaml: str, extra: list[str] = ()) -> str:
    return "\n".join(["---", "id: bomb", *extra, f"title: {title_yaml}", "language: en", "---",
                      "", "## q1: What is a KV cache?", "", "### Answer", "",
                      "It stores the keys and values of past tokens.", ""])


def rubric_text(group_yaml: str = "null", question_yaml: str = "What?", head: list[str] = ()) -> str:
    return "\n".join([*head, "bank: bomb", "questions:", "- id: q1",
                      f"  question: {question_yaml}", "  points:", "  - id: q1.aaaaaa",
                      "    text: keys and values are stored", f"    group: {group_yaml}", ""])


def _limit_memory() -> None:  # the old behaviour was to grow to gigabytes: stop it at 1 GB
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def interviewer(*argv: str, home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "INTERVIEWER_HOME": str(home), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "interviewer", *argv], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120, preexec_fn=_limit_memory)


def one_line(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-2000:])
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    return lines[0]


def test_an_alias_bomb_in_a_banks_front_matter_is_refused(tmp_path: Path) -> None:
    bank = tmp_path / "bomb.md"
    bank.write_text(bank_with_title("*i", BOMB), encoding="utf-8")
    line = one_line(interviewer("bank", "validate", str(bank), home=tmp_path / "h"))
    assert str(bank) in line and "alias" in line


def test_an_alias_bomb_in_a_rubric_group_is_refused(tmp_path: Path) -> None:
    rubric = tmp_path / "bomb.yaml"
    rubric.write_text(rubric_text(group_yaml="*i", head=BOMB), encoding="utf-8")
    answers = tmp_path / "a.jsonl"
    answers.write_text(json.dumps({"id": 1, "question_id": "q1", "answer": "x"}) + "\n")
    line = one_line(interviewer("grade", "--rubric", str(rubric), "--answers", str(answers),
                                home=tmp_path / "h"))
    assert str(rubric) in line and "alias" in line


def test_an_alias_bomb_in_a_rubric_question_next_to_its_bank_is_refused(tmp_path: Path) -> None:
    (tmp_path / "bank").mkdir()
    (tmp_path / "rubrics").mkdir()
    bank = tmp_path / "bank" / "bomb.md"
    bank.write_text(bank_with_title("Bomb"), encoding="utf-8")
    rubric = tmp_path / "rubrics" / "bomb.yaml"
    rubric.write_text(rubric_text(question_yaml="*i", head=BOMB), encoding="utf-8")
    line = one_line(interviewer("bank", "validate", str(bank), home=tmp_path / "h"))
    assert str(rubric) in line and "alias" in line


@pytest.mark.parametrize("title", ["[a, b]", "{x: 1}"])
def test_front_matter_text_that_is_not_text_is_refused(tmp_path: Path, title: str) -> None:
    from interviewer.content.bank import load_bank
    from interviewer.errors import BankError

    bank = tmp_path / "b.md"
    bank.write_text(bank_with_title(title), encoding="utf-8")
    with pytest.raises(BankError, match="'title' must be text"):
        load_bank(bank)


@pytest.mark.parametrize("field", ["group", "question"])
def test_rubric_text_that_is_not_text_is_refused(tmp_path: Path, field: str) -> None:
    from interviewer.errors import RubricError
    from interviewer.content.rubric import load_rubric

    rubric = tmp_path / "r.yaml"
    rubric.write_text(rubric_text(**{f"{field}_yaml": "[a, [b, c]]"}), encoding="utf-8")
    with pytest.raises(RubricError, match=f"'{field}' must be text"):
        load_rubric(rubric)


def test_an_oversized_rubric_is_refused_naming_the_file(tmp_path: Path) -> None:
    from interviewer.errors import RubricError
    from interviewer.content.rubric import load_rubric

    rubric = tmp_path / "big.yaml"
    rubric.write_text(rubric_text() + "# " + "x" * (9 << 20) + "\n", encoding="utf-8")
    with pytest.raises(RubricError, match="too large") as info:
        load_rubric(rubric)
    assert str(rubric) in str(info.value)


def test_shipped_banks_and_rubrics_still_load() -> None:
    from interviewer.content.catalog import BankCatalog
    from interviewer.content.bank_rubric import rubric_for_bank

    for bank in BankCatalog([ROOT / "bank"]).banks():
        assert rubric_for_bank(bank).rubric.questions
