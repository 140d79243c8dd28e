"""The batch module on its own: parsing answer lines, reading back an output file, the
output lock, and the small rules around them. (Whole batches through the CLI, killed and
resumed, are in tests/functional/test_batch_safety.py.)"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from fakes import BigramEmbedder
from interviewer.grading.batch import (
    BatchError,
    BatchItem,
    Progress,
    ResultFile,
    cap_jobs,
    check_output,
    done_ids,
    drop_partial_line,
    grade_items,
    graded_rows,
    parse_batch,
    report_grades,
    same_file,
)
from interviewer.grading.calibration import Scorer
from interviewer.errors import InputError
from interviewer.grading.grader import Grader
from interviewer.content.bank_rubric import rubric_for_bank


@pytest.fixture
def rubric(zh_bank):
    return rubric_for_bank(zh_bank).rubric


def line(**fields) -> str:
    return json.dumps(fields, ensure_ascii=False)


def test_parse_batch_keeps_good_lines_and_names_each_bad_one_by_line(rubric) -> None:
    text = "\n".join([
        line(id="a", question_id="q07", answer="梯度累积。"),
        "",  # blank lines are passed over, not errors
        line(question_id="q01", answer="混合精度。"),  # no id: the line number stands in
        "{not json",
        "[1, 2]",
        line(id="u", question_id="q99", answer="x"),
        line(id="e", question_id="q07", answer="   "),
        "[" * 100_000 + "]" * 100_000,
        '{"id": "s", "question_id": "q07", "answer": "\\ud800"}',
    ])
    parsed = parse_batch(text, rubric)
    assert parsed[:2] == [BatchItem(1, "a", "q07", "梯度累积。"), BatchItem(3, 3, "q01", "混合精度。")]
    errors = parsed[2:]
    assert all(isinstance(e, BatchError) for e in errors)
    # a line that is not valid as a whole has no id to name: its line number stands in
    assert [(e.line, e.id) for e in errors] == [(4, 4), (5, 5), (6, "u"), (7, "e"), (8, 8), (9, 9)]
    messages = [e.message for e in errors]
    assert messages[0].startswith("malformed JSON: ")
    assert messages[1:5] == ["expected a JSON object", "unknown question_id 'q99'",
                             "empty or missing 'answer'", "JSON nested too deeply"]
    assert "lone surrogate" in messages[5]
    assert errors[2].to_dict() == {"id": "u", "error": "unknown question_id 'q99'"}


def _result(item_id, score: float, question_id: str = "q07") -> str:
    return line(id=item_id, question_id=question_id, score=score, points=[])


def test_graded_rows_keep_the_last_result_of_each_id_and_pass_over_the_rest(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text("\n".join([
        _result(1, 0.1),
        line(id=2, error="unknown question_id 'q99'"),  # an error is graded again on resume
        _result("1", 0.2),  # the string "1" is another id than the number 1
        _result(1, 0.3),  # graded again: this one counts
        '{"id": 3, "question_id": "q07", "sco',  # cut short by a kill
    ]) + "\n", encoding="utf-8")
    rows = graded_rows(out)
    assert [(r["id"], r["score"]) for r in rows] == [("1", 0.2), (1, 0.3)]
    assert done_ids(out) == {"1", '"1"'}
    assert graded_rows(tmp_path / "missing.jsonl") == [] and done_ids(tmp_path / "missing") == set()


def test_drop_partial_line_cuts_only_an_unfinished_last_line(tmp_path: Path) -> None:
    path = tmp_path / "out.jsonl"
    path.write_bytes(b'{"id": 1}\n{"id": 2}\n{"id": 3, "sc')
    drop_partial_line(path)
    assert path.read_bytes() == b'{"id": 1}\n{"id": 2}\n'
    drop_partial_line(path)  # a whole file is left as it is
    assert path.read_bytes() == b'{"id": 1}\n{"id": 2}\n'
    path.write_bytes(b'{"id": 1, "sc')  # nothing finished at all
    drop_partial_line(path)
    assert path.read_bytes() == b""
    drop_partial_line(tmp_path / "missing.jsonl")  # nothing to cut, nothing raised


def test_the_answers_file_is_never_the_output(tmp_path: Path) -> None:
    answers = tmp_path / "a.jsonl"
    answers.write_text("", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "link.jsonl").symlink_to(answers)
    for spelling in (answers, tmp_path / "sub" / ".." / "a.jsonl", tmp_path / "link.jsonl"):
        assert same_file(answers, spelling)
        with pytest.raises(InputError, match="--out is the --answers file") as info:
            check_output(answers, spelling)
        assert info.value.path == spelling
    assert not same_file(answers, tmp_path / "b.jsonl")
    check_output(answers, tmp_path / "b.jsonl")
    check_output(answers, None)  # stdout


def test_a_result_file_is_emptied_or_resumed_and_held_against_a_second_writer(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text(_result(1, 0.5) + "\n" + '{"id": 2, "sco', encoding="utf-8")
    resumed = ResultFile(out, resume=True)
    assert resumed.done == {"1"}
    assert out.read_text(encoding="utf-8") == _result(1, 0.5) + "\n"  # the cut line is gone
    with pytest.raises(InputError, match="being written by another interviewer process"):
        ResultFile(out, resume=False)
    assert out.read_text(encoding="utf-8") == _result(1, 0.5) + "\n"  # refused before a byte
    resumed.write(_result(2, 0.7) + "\n")
    resumed.close()
    assert done_ids(out) == {"1", "2"}
    fresh = ResultFile(out, resume=False)  # the lock went with the first writer
    assert fresh.done == set() and out.read_bytes() == b""
    fresh.close()


def test_a_result_file_in_a_missing_directory_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot write the results"):
        ResultFile(tmp_path / "no" / "out.jsonl", resume=False)


def test_report_grades_rebuild_grades_with_their_answers(rubric, tmp_path: Path) -> None:
    grader = Grader(BigramEmbedder(), Scorer(0.6, 0.3, source="test"))
    answers = "\n".join([line(id="a", question_id="q07", answer="梯度累积。"),
                         line(id="b", question_id="q01", answer="混合精度。")])
    parsed = parse_batch(answers, rubric)
    out = tmp_path / "out.jsonl"
    graded = grader.grade(rubric, "q07", "梯度累积。")
    out.write_text("\n".join([
        json.dumps(graded.to_dict("a"), ensure_ascii=False),
        _result("x", 0.9, question_id="q99"),  # a question this rubric does not have
        line(id="b", question_id="q01", score="high", points=[]),  # not a result we wrote
    ]) + "\n", encoding="utf-8")
    (grade,) = report_grades(out, parsed, rubric)
    assert grade.question_id == "q07" and grade.answer == "梯度累积。"
    assert grade.score == round(graded.score, 4)
    assert [p.verdict for p in grade.points] == [p.verdict for p in graded.points]


def test_cap_jobs_at_the_cores_unless_forced() -> None:
    cores = os.cpu_count() or 1
    assert cap_jobs(1, False) == (1, None)
    assert cap_jobs(cores, False) == (cores, None)
    jobs, why = cap_jobs(cores + 3, False)
    assert jobs == cores and f"--jobs {cores + 3} capped at {cores}" in why
    assert "--force-jobs" in why
    assert cap_jobs(cores + 3, True) == (cores + 3, None)


def test_small_batches_are_graded_here_in_order() -> None:
    items = [BatchItem(n, n, "q07", f"answer {n}") for n in range(1, 6)]
    seen = []

    def grade(item):
        seen.append(item.id)
        return {"id": item.id}

    def no_workers(settings):
        raise AssertionError("a small batch started a worker")

    results = list(grade_items(items, grade=grade, jobs=4, make_grader=no_workers,
                               settings=None, rubric=None))
    assert [it.id for it, _ in results] == [1, 2, 3, 4, 5] == seen
    assert [r for _, r in results] == [{"id": n} for n in range(1, 6)]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_draws_on_a_terminal_only() -> None:
    quiet = io.StringIO()
    bar = Progress(3, quiet)
    bar.advance()
    bar.close()
    assert quiet.getvalue() == ""
    term = _Terminal()
    bar = Progress(4, term, width=8)
    for _ in range(4):
        bar.advance()
    bar.close()
    drawn = term.getvalue()
    assert "\r[##......] 1/4" in drawn  # the first step is always drawn
    assert drawn.rstrip("\n").rsplit("\r", 1)[-1].startswith("[########] 4/4")  # so is the last
    assert drawn.endswith("\n")
