"""Session reports. Markdown for now: readable as text, renders anywhere."""

from __future__ import annotations

from pathlib import Path

from interviewer.interview import Interview
from interviewer.timer import format_clock

MARKS = {"covered": "✓ covered", "partial": "~ partial", "missed": "✗ missed"}


def _cell(text: str | None) -> str:
    """Table-safe text: pipes escaped, newlines folded."""
    return (text or "").replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def render_markdown(interview: Interview, model_id: str | None = None) -> str:
    bank = interview.bank
    lines = [f"# Mock interview: {bank.title}", "",
             f"- Date: {interview.started_at.astimezone().strftime('%Y-%m-%d %H:%M')}",
             f"- Bank: {bank.id}",
             f"- Time: {format_clock(interview.total_time())}"]
    if model_id:
        lines.append(f"- Grading model: {model_id}")
    lines += [f"- Overall score: {interview.overall_score():.0%}", ""]
    for n, attempt in enumerate(interview.attempts, start=1):
        retry = " (retake)" if attempt.retry_of is not None else ""
        lines += [f"## {n}. {attempt.question.text}{retry}", ""]
        if attempt.skipped:
            lines += ["Skipped.", ""]
            continue
        status = f"{attempt.score:.0%}" if attempt.grade else "not graded"
        lines += [f"Score: {status} · time used {format_clock(attempt.time_used)}"
                  + (" · submitted when time ran out" if attempt.auto_submitted else ""), "",
                  "**Answer**", ""]
        lines += [f"> {line}" if line else ">" for line in attempt.answer.split("\n")] + [""]
        if attempt.grade:
            lines += ["| verdict | point | evidence |", "| --- | --- | --- |"]
            for p in attempt.grade.points:
                evidence = f"“{p.evidence}”" if p.evidence else _cell(p.reason)
                lines.append(f"| {MARKS[p.verdict]} | {_cell(p.text)} | {_cell(evidence)} |")
            lines.append("")
    missed = interview.missed_most()
    if missed:
        lines += ["## What to study", ""]
        lines += [f"- {text} ({qid}, missed {n}×)" for qid, text, n in missed]
        lines.append("")
    return "\n".join(lines)


def write_report(interview: Interview, path: Path, model_id: str | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_markdown(interview, model_id), encoding="utf-8")
    return path
