"""Writing an import: the bank file, and beside it the hand rubric of its author's key points.

Both targets are checked before either is written, so a refused import writes nothing.
"""

from __future__ import annotations

from pathlib import Path

from interviewer.content.bank import render_bank
from interviewer.errors import InputError
from interviewer.content.importers.hand_rubric import hand_rubric
from interviewer.content.importers.result import ImportResult
from interviewer.paths import rubric_path_for


def _writable(target: Path, force: bool) -> None:
    if target.is_dir():
        raise InputError("is a directory, expected a file", path=target,
                         hint="give a file name with -o")
    if target.exists() and not force:
        raise InputError("file exists; not overwriting", path=target,
                         hint="use --force, or -o to write elsewhere")


def write_import(result: ImportResult, target: Path, *, force: bool) -> list[str]:
    """Write the bank (and its hand rubric when the source has key points); the lines to show."""
    rubric_target = rubric_path_for(target, result.bank.id) if result.key_points else None
    _writable(target, force)
    if rubric_target is not None:
        _writable(rubric_target, force)
    text = render_bank(result.bank)
    from interviewer.content.rubric import save_rubric

    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        lines = [f"wrote {target}: bank '{result.bank.id}', {len(result.bank.questions)} "
                 "questions"]
        if rubric_target is not None:
            save_rubric(hand_rubric(result.bank, result.key_points), rubric_target)
            lines.append(f"wrote {rubric_target}: the author's key points of "
                         f"{len(result.key_points)} questions (source: hand; 'rubric build' "
                         "keeps them)")
    except OSError as exc:
        raise InputError(f"cannot write: {exc.strerror}", path=Path(exc.filename or target)) \
            from None
    if rubric_target is None:
        lines.append(f"next: interviewer rubric build {target}")
    return lines
