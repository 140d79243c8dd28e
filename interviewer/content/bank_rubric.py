"""The rubric a bank gets: its file checked against the bank, missing parts extracted."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from interviewer.content.bank import Bank

from interviewer.content.catalog import qualified_id
from interviewer.content.extract import build_rubric, rubric_for_question
from interviewer.content.rubric import QuestionRubric, Rubric, load_rubric, sha256_text
from interviewer.errors import RubricError
from interviewer.paths import rubric_path_for


def stale_warnings(rubric: Rubric, bank: Bank) -> list[str]:
    """Questions whose rubric no longer matches the bank (changed, missing)."""
    where = f"{rubric.path}: " if rubric.path else ""
    out = []
    for q in bank.questions:
        if not rubric.has_question(q.id):
            out.append(f"{where}no points for question '{q.id}'; run 'interviewer rubric build "
                       f"{bank.id}' (points are extracted on the fly meanwhile)")
        # a hand-written rubric may leave source_sha256 out: no source to compare with
        elif rubric.question(q.id).source_sha256 not in ("", sha256_text(q.answer)):
            out.append(f"{where}the reference answer of '{q.id}' changed since the rubric was "
                       f"built; run 'interviewer rubric build {bank.id}'")
    return out


@dataclass
class LoadedRubric:
    rubric: Rubric
    warnings: list[str]


def _combined_rubric(bank: Bank) -> LoadedRubric:
    questions: list[QuestionRubric] = []
    warnings: list[str] = []
    for part in bank.parts:
        loaded = rubric_for_bank(part)
        warnings += loaded.warnings
        questions += [replace(q, id=qualified_id(part.id, q.id),
                              points=tuple(replace(p, id=qualified_id(part.id, p.id))
                                           for p in q.points))
                      for q in loaded.rubric.questions]
    return LoadedRubric(Rubric(bank=bank.id, questions=tuple(questions)), warnings)


def rubric_for_bank(bank: Bank, rubric_path: Path | None = None) -> LoadedRubric:
    """The bank's rubric file, checked against the bank; missing parts are extracted on the fly.

    A combined bank (:func:`interviewer.content.catalog.combine_banks`) gets its banks' own rubrics,
    with question and point ids prefixed by their bank's id as its questions are.
    """
    if bank.parts:
        return _combined_rubric(bank)
    path = rubric_path or (rubric_path_for(bank.path, bank.id) if bank.path else None)
    if path is None or not path.exists():
        fresh = build_rubric(bank).rubric
        note = (f"no rubric file for bank '{bank.id}'; using points extracted on the fly "
                f"(run 'interviewer rubric build {bank.id}' to save and edit them)")
        return LoadedRubric(fresh, [note])
    rubric = load_rubric(path)
    if rubric.bank != bank.id:
        raise RubricError(f"rubric is for bank '{rubric.bank}', not '{bank.id}'", path=path,
                          hint=f"move it away, or replace it with 'interviewer rubric build "
                               f"{bank.id} --force'")
    warnings = stale_warnings(rubric, bank)
    missing = [q for q in bank.questions if not rubric.has_question(q.id)]
    if missing:
        extra = tuple(rubric_for_question(q) for q in missing)
        rubric = replace(rubric, questions=rubric.questions + extra)
    return LoadedRubric(rubric, warnings)

