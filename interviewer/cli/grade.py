"""``interviewer grade``: one written answer, or a batch of them from a JSONL file."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TextIO

from interviewer import factory
from interviewer.content.bank import read_text
from interviewer.cli.common import EXIT_PARTIAL, Context, add_uncalibrated, catalog
from interviewer.cli.registry import command
from interviewer.config import Settings
from interviewer.errors import InputError
from interviewer.outpath import check_writable


def _arguments(grade: argparse.ArgumentParser) -> None:
    grade.add_argument("--rubric", help="rubric file or bank id (batch mode)")
    grade.add_argument("--answers", type=Path, help="JSONL: {id, question_id, answer} per line")
    grade.add_argument("--out", type=Path, help="JSONL output of a batch (default: stdout)")
    grade.add_argument("--bank", help="bank id or path (single-answer mode)")
    grade.add_argument("--question", help="question id (single-answer mode)")
    grade.add_argument("--answer-file", type=Path, help="the answer text (single-answer mode)")
    grade.add_argument("--json", action="store_true", help="print JSON instead of a report")
    grade.add_argument("--report", type=Path,
                       help="also write a session report of the batch (.md, .html or .json)")
    grade.add_argument("--model", help="embedding model name or path")
    grade.add_argument("--jobs", type=int, default=1,
                       help="worker processes (batch mode); at most the number of cores")
    grade.add_argument("--force-jobs", action="store_true",
                       help="run --jobs workers even when that is more than the cores")
    grade.add_argument("--resume", action="store_true",
                       help="skip ids already graded in --out and append the rest")
    grade.add_argument("--check", action="store_true",
                       help="the configured LLM reads the credited points again and can take "
                            "credit away, never give it (llm.check_points in the config does it "
                            "always)")
    add_uncalibrated(grade)


@command("grade", "grade written answers without the TUI", _arguments, calibrated=True)
def grade(ctx: Context, args: argparse.Namespace) -> int:
    if args.answers:
        return grade_batch(ctx, args)
    return grade_one(ctx, args)


def _resolve_rubric(settings: Settings, ref: str, err: TextIO):
    from interviewer.content.rubric import load_rubric
    from interviewer.content.bank_rubric import rubric_for_bank

    path = Path(ref)
    if path.suffix in (".yaml", ".yml", ".json") or (path.exists() and path.suffix != ".md"):
        return load_rubric(path)  # a bank's .md file is a bank: its rubric is built from it
    loaded = rubric_for_bank(catalog(settings, err).resolve(ref))
    for warning in loaded.warnings:
        err.write(f"warning: {warning}\n")
    return loaded.rubric


def grade_batch(ctx: Context, args: argparse.Namespace) -> int:
    from interviewer.grading.batch import cap_jobs, check_output, parse_batch, report_grades, run_batch

    settings, err = ctx.settings, ctx.err
    if not args.rubric:
        raise InputError("--answers needs --rubric (a rubric file or bank id)")
    if args.resume and not args.out:
        raise InputError("--resume needs --out (the file whose finished ids are skipped)")
    if args.jobs < 1:
        raise InputError("--jobs must be at least 1")
    check_output(args.answers, args.out)
    for target in (args.out, args.report):
        if target is not None:
            check_writable(target)
    if args.report is not None:
        from interviewer.reports.report import format_of

        format_of(args.report)
    check = _checker(ctx, args)
    jobs, capped = cap_jobs(args.jobs, args.force_jobs)
    if capped:
        err.write(f"interviewer: {capped}\n")
    rubric = _resolve_rubric(settings, args.rubric, err)
    parsed = parse_batch(read_text(args.answers, InputError), rubric)
    if not parsed:
        raise InputError("no answers in this file", path=args.answers,
                         hint='one JSON object per line: {"id": …, "question_id": …, "answer": …}')
    done = run_batch(parsed, rubric, answers=args.answers, out=args.out, resume=args.resume,
                     jobs=jobs, stdout=ctx.out, err=err, settings=settings,
                     make_grader=factory.make_grader,
                     keep_grades=bool(args.report and not args.out),
                     check=check and (lambda qid, g: check(rubric.question(qid), g)))
    if args.resume and done.skipped:
        err.write(f"skipped {len(done.skipped)} answers already in {args.out}\n")
    if args.report:
        from interviewer.sessions.recorder import interview_from_grades
        from interviewer.reports.report import ReportMeta, write_report

        graded = done.grades
        if args.out:  # the whole file: what earlier runs graded as well as this one
            graded = report_grades(args.out, parsed, rubric)
        try:
            write_report(interview_from_grades(rubric, graded), args.report,
                         ReportMeta(model_id=done.model_id))
        except OSError as exc:
            raise InputError(f"cannot write the report: {exc.strerror}", path=args.report) from None
        err.write(f"wrote {args.report}: {len(graded)} answers\n")
    return EXIT_PARTIAL if done.failed else 0


def grade_one(ctx: Context, args: argparse.Namespace) -> int:
    from interviewer.content.bank_rubric import rubric_for_bank

    batch_only = [f for f, v in (("--out", args.out), ("--report", args.report),
                                 ("--resume", args.resume), ("--jobs", args.jobs != 1),
                                 ("--force-jobs", args.force_jobs)) if v]
    if batch_only:
        raise InputError(f"{', '.join(batch_only)} is for a batch (--rubric R --answers A.jsonl)",
                         hint="one answer's grade goes to stdout: add --json and redirect it, "
                              "e.g. > graded.json")
    missing = [f for f, v in (("--bank", args.bank), ("--question", args.question),
                              ("--answer-file", args.answer_file)) if not v]
    if missing:
        raise InputError(f"missing {', '.join(missing)}",
                         hint="use --bank B --question Q --answer-file F, or --rubric R --answers A.jsonl")
    check = _checker(ctx, args)
    bank = catalog(ctx.settings, ctx.err).resolve(args.bank)
    question = bank.question(args.question)
    answer = read_text(args.answer_file, InputError)
    if not answer.strip():
        raise InputError("the answer is empty", path=args.answer_file)
    loaded = rubric_for_bank(bank)
    for warning in loaded.warnings:
        ctx.err.write(f"warning: {warning}\n")
    result = factory.make_grader(ctx.settings).grade(loaded.rubric, question.id, answer)
    if check is not None:
        result, notice = check(loaded.rubric.question(question.id), result)
        if notice:
            ctx.err.write(f"interviewer: {notice}\n")
    if args.json:
        ctx.out.write(json.dumps(result.to_dict(), ensure_ascii=False, indent=2) + "\n")
        return 0
    ctx.out.write(format_grade(question.text, result))
    return 0


def _checker(ctx: Context, args: argparse.Namespace):
    """``(question, grade) -> (grade, notice)`` when the configured LLM is to read the
    credited points again (``--check``, or ``llm.check_points`` in the config), else None.
    ``--check`` with no LLM configured is refused before anything is graded."""
    if not (args.check or ctx.settings.llm.check_points):
        return None
    prober = factory.make_prober(ctx.settings)
    missing = prober.missing_setting()
    if missing and args.check:
        raise InputError(f"--check needs an LLM: {missing}",
                         hint="see README.md, 'Follow-up questions from an LLM'")
    if missing:  # said once, not once per answer of a batch
        ctx.err.write(f"interviewer: {missing}: the points were not checked\n")
        return None

    def check(question, grade):
        from interviewer.grading.llm_check import check_grade

        checked = check_grade(prober, question, grade)
        return checked.grade, checked.notice

    return check


def format_grade(question: str, grade) -> str:
    from interviewer.grading.grade import MARK as marks

    lines = [f"Question: {question}", f"Score: {grade.score:.0%}  (model {grade.model_id}, "
             f"calibration {grade.calibration})", ""]
    if grade.note:
        lines[1:1] = [f"       {grade.note}"]
    if grade.checked_by:
        lines[-1:-1] = [f"       credited points checked by {grade.checked_by}"]
    for p in grade.points:
        group = f"[{p.group}] " if p.group else ""
        lines.append(f" {marks[p.verdict]} {group}{p.text}")
        if p.evidence:
            quoted = " · ".join(f"“{q}”" for q in p.quotes)
            lines.append(f"     ← {quoted}  ({p.probability:.2f})")
        if p.verdict != "covered":
            lines.append(f"     {p.reason}")
    return "\n".join(lines) + "\n"
