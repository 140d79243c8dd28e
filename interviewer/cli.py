"""Command-line entry point: a thin layer over the core.

Every :class:`InterviewerError` becomes one line on stderr and exit code 2; a batch
with some bad lines finishes the good ones and exits 1.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from interviewer import __version__
from interviewer.bank import BankCatalog, load_bank, read_text, render_bank
from interviewer.config import Settings, discover_settings, parse_duration
from interviewer.errors import InputError, InterviewerError, RubricError
from interviewer.outpath import check_writable
from interviewer.terminal import SafeStream, for_terminal
from interviewer.importers.detect import FORMATS as IMPORT_FORMATS
from interviewer.paths import rubric_path_for

EXIT_USAGE = 2
EXIT_PARTIAL = 1


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error instead of the usage dump."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_USAGE, for_terminal(f"{self.prog}: error: {message} "
                                           f"(see '{self.prog} --help')") + "\n")


def _duration(value: str) -> float:
    try:
        return parse_duration(value, unit_required=True)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _count(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        n = None
    if n is None or n < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number ≥ 1, got {value}")
    return n


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="interviewer", description="Offline mock interviews, graded by key points. "
                "Without a command, 'run' is meant: 'interviewer --bank B' starts an interview.")
    p.add_argument("--version", action="version", version=f"interviewer {__version__}")
    _add_run_args(p)  # run is the default command
    sub = p.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND",
                           help="what to do (default: run)")

    run = sub.add_parser("run", help="start a mock interview in the terminal (the default)")
    _add_run_args(run)

    bank = sub.add_parser("bank", help="list, validate and import question banks")
    bank_sub = bank.add_subparsers(dest="bank_command", required=True, parser_class=_Parser,
                                   metavar="ACTION", help="list, validate or import")
    bank_sub.add_parser("list", help="list the banks the app can see")
    val = bank_sub.add_parser("validate", help="check bank files (all known banks by default)")
    val.add_argument("paths", nargs="*", type=Path, help="bank files (default: every known bank)")
    imp = bank_sub.add_parser("import", help="convert Markdown, a folder of Markdown, CSV/TSV, "
                              "JSON/JSONL, an Anki export or .apkg, or 'Q: …' text into a bank")
    imp.add_argument("path", type=Path, help="the file or folder to import")
    imp.add_argument("--format", choices=IMPORT_FORMATS, help="the source's format "
                     "(default: detected from the name and content)")
    imp.add_argument("--columns", help="which CSV/JSON field holds what, e.g. "
                     "question=题干,answer=解析 (roles: question, answer, tags, id, difficulty, "
                     "key_points)")
    imp.add_argument("--id", dest="bank_id", help="the bank's id (default: from the source)")
    imp.add_argument("--title", help="the bank's title (default: from the source)")
    imp.add_argument("--language", choices=["zh", "en"],
                     help="the bank's language (default: guessed from the text)")
    imp.add_argument("-o", "--out", help="output file, or - for stdout (default: bank/<id>.md)")
    imp.add_argument("--force", action="store_true", help="overwrite an existing file")
    exp = bank_sub.add_parser("export", help="write a bank as Markdown or as a text file Anki "
                              "imports")
    exp.add_argument("bank", help="bank id or path")
    exp.add_argument("--format", choices=["markdown", "anki"], default="markdown",
                     help="markdown (a bank file) or anki (a text file Anki imports); default markdown")
    exp.add_argument("--missed", action="store_true", help="only questions with points you "
                     "missed, listed on the card's back (from your practice history)")
    exp.add_argument("-o", "--out", help="output file, or - for stdout (default: stdout)")
    exp.add_argument("--force", action="store_true", help="overwrite an existing file")

    rub = sub.add_parser("rubric", help="build rubrics of key points from reference answers")
    rub_sub = rub.add_subparsers(dest="rubric_command", required=True, parser_class=_Parser,
                                 metavar="ACTION", help="build")
    build = rub_sub.add_parser("build", help="extract key points and write rubrics/<bank>.yaml")
    build.add_argument("bank", nargs="?", help="bank id or path (default: the configured bank)")
    build.add_argument("-o", "--out", type=Path, help="rubric file (default: rubrics/<bank>.yaml)")
    build.add_argument("--force", action="store_true",
                       help="overwrite hand-edited points whose reference answer changed")
    build.add_argument("--extracted", action="store_true",
                       help="write only the extracted points, beside a hand-written rubric "
                            "(default file: rubrics/<bank>.extracted.yaml)")
    build.add_argument("--llm", action="store_true",
                       help="let the configured LLM propose points; keep those the answer backs")

    grade = sub.add_parser("grade", help="grade written answers without the TUI")
    grade.add_argument("--rubric", help="rubric file or bank id (batch mode)")
    grade.add_argument("--answers", type=Path, help="JSONL: {id, question_id, answer} per line")
    grade.add_argument("--out", type=Path, help="JSONL output (default: stdout)")
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
    _add_uncalibrated(grade)

    _add_uncalibrated(sub.add_parser("resume", help="go on with the interview that was interrupted last"))

    drill = sub.add_parser("drill", help="practise the questions whose points are due or weakest")
    drill.add_argument("--bank", help="bank id or path")
    drill.add_argument("--count", type=_count, default=5, help="number of questions (default 5)")
    drill.add_argument("--time-limit", type=_duration,
                       help="per question, with a unit: 5m, 90s or 1m30s")
    drill.add_argument("--total-time", type=_duration,
                       help="for the whole interview, with a unit, e.g. 30m (default: no limit)")
    _add_uncalibrated(drill)

    pts = sub.add_parser("points", help="spaced-repetition state of key points; suspend some")
    pts.add_argument("action", nargs="?", choices=["list", "suspend", "unsuspend"], default="list",
                     help="list (default), suspend or unsuspend points")
    pts.add_argument("point_ids", nargs="*", help="point ids (for suspend / unsuspend)")
    pts.add_argument("--bank", help="bank id or path")
    pts.add_argument("--due", action="store_true", help="only points due for review")

    fol = sub.add_parser("followup", help="print the follow-up question a candidate would get")
    fol.add_argument("--bank", required=True, help="bank id or path")
    fol.add_argument("--question", required=True, help="question id")
    fol.add_argument("--answer-file", type=Path, required=True, help="the answer text")
    fol.add_argument("--json", action="store_true", help="print JSON")
    fol.add_argument("--model", help="embedding model name or path")
    _add_uncalibrated(fol)

    rep = sub.add_parser("report", help="write the report of a session")
    rep.add_argument("session", nargs="?", help="session id (default: the latest)")
    rep.add_argument("--format", choices=["md", "html", "json"], help="default: from -o, else md")
    rep.add_argument("-o", "--out", type=Path, help="output file (default: stdout)")
    rep.add_argument("--with-reference", action="store_true",
                     help="include each question's full reference answer")

    hist = sub.add_parser("history", help="past sessions and their scores")
    hist.add_argument("--points", action="store_true",
                      help="the points missed most often, and the trend per bank")
    hist.add_argument("--limit", type=int, default=20, help="sessions to list (default 20)")

    cal = sub.add_parser("calibrate", help="fit a model's verdict thresholds from labeled answers")
    cal.add_argument("--labels", type=Path, required=True, action="append",
                     help="labeled JSONL (repeatable)")
    cal.add_argument("--model", help="embedding model name or path (default: configured)")
    cal.add_argument("--out", type=Path, help="calibration file (default: <data dir>/calibration.json)")
    return p


def _add_run_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--bank", help="bank id or path; a+b mixes the questions of banks a and b")
    p.add_argument("--count", type=_count, help="number of questions (default: all)")
    p.add_argument("--time-limit", type=_duration,
                   help="per question, with a unit: 5m, 90s or 1m30s (a bare number is refused)")
    p.add_argument("--total-time", type=_duration,
                   help="for the whole interview, with a unit, e.g. 30m (default: no limit)")
    p.add_argument("--tag", action="append", default=[], help="only questions with this tag")
    p.add_argument("--shuffle", action="store_true", default=None, help="random order")
    p.add_argument("--model", help="embedding model name or path")
    _add_uncalibrated(p)


def _add_uncalibrated(p: argparse.ArgumentParser) -> None:
    p.add_argument("--uncalibrated", action="store_true",
                   help="grade with a model nobody calibrated (its scores mean little)")


# ---------------------------------------------------------------- commands


def _catalog(settings: Settings, err: TextIO | None = None) -> BankCatalog:
    """The banks; a bank file skipped or shadowed is one warning line on ``err``."""
    stream = err if err is not None else SafeStream(sys.stderr)
    return BankCatalog(settings.bank_dirs, warn=lambda m: stream.write(f"warning: {m}\n"))


def _open_store(settings: Settings, err: TextIO):
    """The session database; a corrupt one moved aside is said, with where it went."""
    from interviewer.store import Store

    store = Store.open(settings.data_dir)
    if store.moved_aside is not None:
        err.write(f"interviewer: notice: {store.notice}\n")
    return store


def cmd_bank_list(settings: Settings, out: TextIO, err: TextIO) -> int:
    for bank in _catalog(settings, err).banks():
        out.write(f"{bank.id:<20} {bank.language}  {len(bank.questions):>3} questions  "
                  f"{bank.title}  ({bank.path})\n")
    return 0


def cmd_bank_validate(settings: Settings, paths: list[Path], out: TextIO, err: TextIO) -> int:
    from interviewer.rubric import rubric_for_bank

    targets = paths or _catalog(settings, err).paths()
    if not targets:
        raise InputError("no bank files found", hint="pass a path to a .md bank file")
    failed = 0
    for path in targets:
        try:
            bank = load_bank(path)
            loaded = rubric_for_bank(bank)
        except InterviewerError as exc:
            err.write(f"error: {exc}\n")
            failed += 1
            continue
        out.write(f"ok: {path}: bank '{bank.id}', {len(bank.questions)} questions, "
                  f"{sum(len(q.points) for q in loaded.rubric.questions)} points\n")
        for warning in loaded.warnings:
            err.write(f"warning: {warning}\n")
    return EXIT_USAGE if failed else 0


def cmd_bank_import(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from interviewer.importers import import_source
    from interviewer.importers.fields import parse_columns
    from interviewer.importers.write import write_import

    if args.out and args.out != "-":
        check_writable(Path(args.out))
    result = import_source(args.path, args.format, columns=parse_columns(args.columns),
                           bank_id=args.bank_id, title=args.title, language=args.language)
    for line in result.summary():
        err.write(line + "\n")
    if args.out == "-":
        out.write(render_bank(result.bank))
        if result.key_points:
            err.write(f"warning: the key points of {len(result.key_points)} questions are not "
                      "written to stdout; use -o FILE to keep them as a hand rubric\n")
        return 0
    target = Path(args.out) if args.out else Path("bank") / f"{result.bank.id}.md"
    for line in write_import(result, target, force=args.force):
        err.write(line + "\n")
    return 0


def cmd_bank_export(settings: Settings, args: argparse.Namespace, out: TextIO,
                    err: TextIO) -> int:
    from interviewer.importers.export import to_anki_text, to_markdown

    bank = _catalog(settings, err).resolve(args.bank)
    if bank.parts:
        raise InputError(f"'{args.bank}' combines banks; export one bank at a time")
    target = Path(args.out) if args.out and args.out != "-" else None
    if target is not None and target.exists() and not args.force:
        raise InputError("file exists; not overwriting", path=target, hint="use --force")
    missed = _missed_points(settings, bank) if args.missed else None
    if missed is not None:
        bank = replace(bank, questions=tuple(q for q in bank.questions if q.id in missed))
        if not bank.questions:
            raise InputError(f"no missed points in bank '{bank.id}' yet",
                             hint="answer some questions first, or export without --missed")
    text = to_anki_text(bank, missed) if args.format == "anki" else to_markdown(bank)
    if target is None:
        out.write(text)
        return 0
    check_writable(target)
    target.write_text(text, encoding="utf-8")
    err.write(f"wrote {target}: {len(bank.questions)} questions ({args.format})\n")
    return 0


def _missed_points(settings: Settings, bank) -> dict[str, list[str]]:
    from interviewer.importers.export import missed_points
    from interviewer.rubric import rubric_for_bank
    from interviewer.store import Store

    return missed_points(Store.open(settings.data_dir), bank, rubric_for_bank(bank).rubric)


def cmd_rubric_build(settings: Settings, args: argparse.Namespace, err: TextIO) -> int:
    from interviewer.rubric import build_rubric, load_rubric, save_rubric

    bank = _catalog(settings, err).resolve(args.bank or settings.bank)
    target = check_writable(args.out) if args.out else rubric_path_for(bank.path, bank.id)
    if args.extracted:
        return _rubric_build_extracted(bank, target, args, err)
    existing = None
    if target.exists():
        try:
            existing = load_rubric(target)
        except RubricError:
            if not args.force:
                raise
    if args.llm:
        return _rubric_build_llm(settings, bank, existing, target, args, err)
    report = build_rubric(bank, existing, force=args.force)
    save_rubric(report.rubric, target)
    n_points = sum(len(q.points) for q in report.rubric.questions)
    err.write(f"wrote {target}: {len(report.rubric.questions)} questions, {n_points} points\n")
    if report.kept_hand_edits:
        err.write(f"kept hand-edited points of {', '.join(report.kept_hand_edits)}\n")
    if report.overwritten_hand_edits:
        err.write(f"overwrote hand-edited points of {', '.join(report.overwritten_hand_edits)}\n")
    if report.dropped:
        err.write(f"dropped questions no longer in the bank: {', '.join(report.dropped)}\n")
    return 0


def _rubric_build_extracted(bank, target: Path, args: argparse.Namespace, err: TextIO) -> int:
    """The extracted points alone, beside a hand-written rubric, never over one."""
    from interviewer.rubric import HAND, build_rubric, load_rubric, save_rubric

    if not args.out:
        target = target.with_name(f"{bank.id}.extracted.yaml")
    if target.exists() and not args.force:
        try:
            hand = any(q.source == HAND for q in load_rubric(target).questions)
        except RubricError:
            hand = False
        if hand or args.out:
            raise RubricError("holds hand-written points; not overwriting" if hand else
                              "file exists; not overwriting", path=target,
                              hint="give another file with -o, or use --force")
    rubric = build_rubric(bank).rubric
    save_rubric(rubric, target)
    n_points = sum(len(q.points) for q in rubric.questions)
    err.write(f"wrote {target}: {len(rubric.questions)} questions, {n_points} extracted points\n")
    return 0


def _rubric_build_llm(settings: Settings, bank, existing, target: Path,
                      args: argparse.Namespace, err: TextIO) -> int:
    from interviewer.llm_rubric import build_with_llm, lost_points
    from interviewer.probing import LLMProber
    from interviewer.rubric import save_rubric

    prober = LLMProber(settings.llm)
    if not prober.configured:
        raise InputError(f"--llm needs an LLM: {prober.missing_setting()}",
                         path=settings.config_path)
    if target.exists() and not args.force:
        raise RubricError("a rubric is already here; --llm would replace it", path=target,
                          hint="write the LLM's rubric elsewhere with -o NEW.yaml to compare, "
                               "or use --force to replace it")
    report = build_with_llm(bank, prober, _make_embedder(settings))
    for qid, why in report.fallbacks:
        err.write(f"{qid}: {why}: extracted points kept\n")
    lost = lost_points(report.rubric, existing)
    if lost:
        raise RubricError(f"{lost}: not written, it would lose most of them", path=target,
                          hint="check the LLM's points with -o NEW.yaml")
    save_rubric(report.rubric, target)
    n_points = sum(len(q.points) for q in report.rubric.questions)
    err.write(f"wrote {target}: {len(report.rubric.questions)} questions, {n_points} points "
              f"({report.kept} worded by the LLM, {len(report.dropped)} proposals dropped as not "
              "backed by the reference answer)\n")
    for qid, text in report.dropped:
        err.write(f"dropped {qid}: {text}\n")
    return 0


def _make_embedder(settings: Settings):
    import os

    from interviewer.embedding import make_embedder

    return make_embedder(settings.model, base_url=settings.embedding_base_url,
                         api_key=os.environ.get(settings.embedding_api_key_env))


def _make_grader(settings: Settings):
    from interviewer.grading import Grader

    return Grader(_make_embedder(settings), calibration_file=settings.data_dir / "calibration.json",
                  cache_dir=settings.data_dir / "cache")


def _require_calibrated(settings: Settings) -> None:
    """A model nobody calibrated is refused before any work, with the command that fixes it."""
    from interviewer.models import require_calibrated

    require_calibrated(settings.model, settings.embedding_base_url,
                       settings.data_dir / "calibration.json")


def _deferred_grader(settings: Settings):
    """The TUI's grader, built in its loading worker: numpy and the encoder stay off the first frame.

    The model name is checked now, so a name that cannot work fails before the TUI starts.
    """
    from interviewer.deferred import DeferredGrader
    from interviewer.models import model_id_for

    return DeferredGrader(lambda: _make_grader(settings),
                          model_id_for(settings.model, settings.embedding_base_url))


def _resolve_rubric(settings: Settings, ref: str, err: TextIO):
    from interviewer.rubric import load_rubric, rubric_for_bank

    path = Path(ref)
    if path.suffix in (".yaml", ".yml", ".json") or path.exists():
        return load_rubric(path)
    loaded = rubric_for_bank(_catalog(settings, err).resolve(ref))
    for warning in loaded.warnings:
        err.write(f"warning: {warning}\n")
    return loaded.rubric


def cmd_grade_batch(settings: Settings, args: argparse.Namespace, out: TextIO,
                    err: TextIO) -> int:
    from interviewer.batch import (
        CHUNK,
        BatchError,
        Progress,
        ResultFile,
        cap_jobs,
        check_output,
        grade_items,
        parse_batch,
        report_grades,
    )
    from interviewer.grades import Grade

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
        from interviewer.report import format_of

        format_of(args.report)
    jobs, capped = cap_jobs(args.jobs, args.force_jobs)
    if capped:
        err.write(f"interviewer: {capped}\n")
    rubric = _resolve_rubric(settings, args.rubric, err)
    parsed = parse_batch(read_text(args.answers, InputError), rubric)
    # locked before anything is written or loaded: a second batch on this file stops here
    sink = ResultFile(args.out, args.resume) if args.out else out
    skip = sink.done if isinstance(sink, ResultFile) else set()
    failed = 0
    for entry in parsed:
        if isinstance(entry, BatchError):
            failed += 1
            err.write(f"{args.answers}:{entry.line}: {entry.message}\n")
    todo = [e for e in parsed if not isinstance(e, BatchError) and json.dumps(e.id) not in skip]
    graded: list[Grade] = []
    progress = Progress(len(todo), getattr(err, "raw", err))  # only numbers: no escaping

    def write(result: dict, item=None) -> None:
        sink.write(json.dumps(result, ensure_ascii=False) + "\n")
        sink.flush()
        if item is not None:
            progress.advance()
            if args.report and not args.out:
                graded.append(Grade.from_dict(result, item.answer))

    try:
        grader = _make_grader(settings)

        def grade_one(item) -> dict:
            return grader.grade(rubric, item.question_id, item.answer).to_dict(item.id)

        errors = [e for e in parsed if isinstance(e, BatchError) and json.dumps(e.id) not in skip]
        if jobs == 1:  # one line out per line in, in input order
            wanted = set(map(id, todo))
            for start in range(0, len(parsed), CHUNK):
                chunk = parsed[start:start + CHUNK]
                grader.prefetch([e.answer for e in chunk if id(e) in wanted])
                for entry in chunk:
                    if isinstance(entry, BatchError):
                        if entry in errors:
                            write(entry.to_dict())
                    elif id(entry) in wanted:
                        write(grade_one(entry), entry)
        else:  # errors at once, then results as the workers finish them
            for entry in errors:
                write(entry.to_dict())
            for item, result in grade_items(todo, grade=grade_one, jobs=jobs,
                                            make_grader=_make_grader, settings=settings,
                                            rubric=rubric):
                write(result, item)
    finally:
        progress.close()
        if sink is not out:
            sink.close()
    if args.resume and skip:
        err.write(f"skipped {len(skip)} answers already in {args.out}\n")
    if args.report:
        from interviewer.recorder import interview_from_grades
        from interviewer.report import ReportMeta, write_report

        if args.out:  # the whole file: what earlier runs graded as well as this one
            graded = report_grades(args.out, parsed, rubric)
        try:
            write_report(interview_from_grades(rubric, graded), args.report,
                         ReportMeta(model_id=grader.model_id))
        except OSError as exc:
            raise InputError(f"cannot write the report: {exc.strerror}", path=args.report) from None
        err.write(f"wrote {args.report}: {len(graded)} answers\n")
    return EXIT_PARTIAL if failed else 0


def cmd_grade_one(settings: Settings, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from interviewer.rubric import rubric_for_bank

    missing = [f for f, v in (("--bank", args.bank), ("--question", args.question),
                              ("--answer-file", args.answer_file)) if not v]
    if missing:
        raise InputError(f"missing {', '.join(missing)}",
                         hint="use --bank B --question Q --answer-file F, or --rubric R --answers A.jsonl")
    bank = _catalog(settings, err).resolve(args.bank)
    question = bank.question(args.question)
    answer = read_text(args.answer_file, InputError)
    if not answer.strip():
        raise InputError("the answer is empty", path=args.answer_file)
    loaded = rubric_for_bank(bank)
    for warning in loaded.warnings:
        err.write(f"warning: {warning}\n")
    grade = _make_grader(settings).grade(loaded.rubric, question.id, answer)
    if args.json:
        out.write(json.dumps(grade.to_dict(), ensure_ascii=False, indent=2) + "\n")
        return 0
    out.write(format_grade(question.text, grade))
    return 0


def format_grade(question: str, grade) -> str:
    from interviewer.grades import MARK as marks

    lines = [f"Question: {question}", f"Score: {grade.score:.0%}  (model {grade.model_id}, "
             f"calibration {grade.calibration})", ""]
    if grade.note:
        lines[1:1] = [f"       {grade.note}"]
    for p in grade.points:
        group = f"[{p.group}] " if p.group else ""
        lines.append(f" {marks[p.verdict]} {group}{p.text}")
        if p.evidence:
            lines.append(f"     ← “{p.evidence}”  ({p.probability:.2f})")
        if p.verdict != "covered":
            lines.append(f"     {p.reason}")
    return "\n".join(lines) + "\n"


def cmd_calibrate(settings: Settings, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from dataclasses import replace

    from interviewer.calibration import fit_scorer, save_scorer
    from interviewer.cutoffs import cutoff_samples, fit_cutoffs
    from interviewer.labels import collect_features

    target = check_writable(args.out or settings.data_dir / "calibration.json",
                            make_parents=args.out is None)
    grader = _make_grader(settings)
    evidence: list = []  # one pass over the answers serves the scorer and the cut-offs
    rows, labels = collect_features(grader, args.labels, _catalog(settings, err), err, evidence)
    if labels.size < 2:
        raise InputError("no usable labeled answers", path=args.labels[0])
    scorer = fit_scorer(rows, labels, source=", ".join(p.name for p in args.labels))
    scorer = replace(scorer, cutoffs=fit_cutoffs(*cutoff_samples(evidence)))
    save_scorer(grader.model_id, scorer, target)
    out.write(f"{grader.model_id}: covered if p >= {scorer.covered:.2f}, partial if p >= "
              f"{scorer.partial:.2f} (n={labels.size} points, point MAE "
              f"{scorer.metrics['point_mae']:.3f}, covered F1 {scorer.metrics['covered_f1']:.3f} "
              f"on the labels it was fitted to; restates the question at similarity >= "
              f"{scorer.cutoff('parrot_similarity'):.2f}); saved to {target}\n")
    return 0


def _need_terminal() -> None:
    """The interview is interactive: without a terminal it would wait for keys for ever."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise InputError("the interview needs a terminal (stdin and stdout are not one)",
                         hint="run it in a terminal; 'interviewer grade' grades answers "
                              "from files")


def cmd_run(settings: Settings, args: argparse.Namespace) -> int:
    """The TUI: straight into the interview when the command line says enough, else setup."""
    from interviewer.session import SetupChoices, load_choices, make_plan

    catalog = _catalog(settings)
    banks = catalog.banks()
    if not banks:
        raise InputError("no question banks found", hint="add a .md bank to "
                         f"{settings.data_dir / 'bank'} or pass --bank PATH")
    plan = None
    choices = load_choices(settings.data_dir, settings.bank)
    explicit = any(getattr(args, name, None)
                   for name in ("bank", "count", "time_limit", "total_time", "tag"))
    if explicit:
        bank = catalog.resolve(settings.bank)  # ``a+b``: one interview over banks a and b
        known = {b.id for b in banks}
        banks += [b for b in bank.parts or (bank,) if b.id not in known]
        choices = SetupChoices(bank=bank.id, tags=tuple(getattr(args, "tag", []) or ()),
                               count=settings.count, shuffle=bool(settings.shuffle),
                               time_limit=settings.time_limit,
                               total_limit=getattr(args, "total_time", None),
                               followups=settings.llm.enabled)
        plan = make_plan(bank, choices)
    grader = _deferred_grader(settings)  # a model that cannot work is refused first
    _need_terminal()
    from interviewer.store import Store
    from interviewer.tui.app import make_app  # textual is imported only here

    if getattr(args, "drill_plan", None) is not None:
        plan, choices = args.drill_plan, args.drill_choices
    store = getattr(args, "store", None) or Store.open(settings.data_dir)
    app = make_app(banks=banks, grader=grader, settings=settings, plan=plan,
                   choices=choices, store=store,
                   resume=getattr(args, "resume_row", None))
    app.run()
    return app.return_code or 0


def cmd_followup(settings: Settings, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Grade the answer, then ask the configured LLM (or a template) for the follow-up."""
    from interviewer.probing import followup_language, make_prober
    from interviewer.rubric import rubric_for_bank

    bank = _catalog(settings, err).resolve(args.bank)
    question = bank.question(args.question)
    answer = read_text(args.answer_file, InputError)
    if not answer.strip():
        raise InputError("the answer is empty", path=args.answer_file)
    rubric = rubric_for_bank(bank).rubric
    grade = _make_grader(settings).grade(rubric, question.id, answer)
    qr = rubric.question(question.id)
    result = make_prober(settings.llm).followup(qr, grade, followup_language(qr, bank.language))
    if result.notice:
        err.write(f"notice: {result.notice}\n")
    if args.json:
        out.write(json.dumps({"followup": result.text, "targets": list(result.targets),
                              "source": result.source, "notice": result.notice},
                             ensure_ascii=False) + "\n")
    else:
        out.write(result.text + "\n")
    return 0


def _drill_plan(settings: Settings, bank, count: int | None, err: TextIO,
                total_limit: float | None = None):
    from interviewer.practice import drill_plan

    store = _open_store(settings, err)
    try:
        plan = drill_plan(store, bank, count, time_limit=settings.time_limit,
                          total_limit=total_limit, followups=settings.llm.enabled)
    finally:
        store.close()
    if plan is None:
        raise InputError(f"nothing to drill in bank '{bank.id}' yet",
                         hint="answer some questions first: 'interviewer run'")
    return plan


def cmd_drill(settings: Settings, args: argparse.Namespace, err: TextIO) -> int:
    from interviewer.session import SetupChoices

    bank = _catalog(settings, err).resolve(settings.bank)
    args.drill_plan = _drill_plan(settings, bank, args.count, err, args.total_time)
    args.drill_choices = SetupChoices(bank=bank.id, time_limit=settings.time_limit,
                                      total_limit=args.total_time, drill=True)
    return cmd_run(settings, args)


def cmd_points(settings: Settings, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from datetime import datetime, timezone

    from interviewer.practice import due_points, mastery, point_statuses
    from interviewer.rubric import rubric_for_bank
    from interviewer.store import NotSavedError

    bank = _catalog(settings, err).resolve(settings.bank)
    rubric = rubric_for_bank(bank).rubric
    known = {p.id for q in rubric.questions for p in q.points}
    store = _open_store(settings, err)
    if args.action in ("suspend", "unsuspend"):
        if not args.point_ids:
            raise InputError(f"{args.action} needs point ids", hint="'interviewer points' lists them")
        unknown = [p for p in args.point_ids if p not in known]
        if unknown:
            raise InputError(f"no point {', '.join(unknown)} in bank '{bank.id}'")
        for pid in args.point_ids:
            store.set_suspended(bank.id, pid, args.action == "suspend")
            if not store.persistent or store.last_error:
                why = store.last_error or f"{settings.data_dir} cannot be written"
                raise NotSavedError(f"could not {args.action} {pid}: not saved ({why})")
        out.write(f"{args.action}ed {len(args.point_ids)} point(s) in {bank.id}\n")
        return 0
    now = datetime.now(timezone.utc)
    statuses = point_statuses(store, bank, rubric)
    shown = due_points(statuses, now) if args.due else statuses
    m = mastery(statuses, bank)
    out.write(f"{bank.id}: {len(due_points(statuses, now))} points due, mastery "
              f"{m.get('', 0.0):.0%} ({len(store.suspended(bank.id))} suspended)\n")
    for s in shown:
        if s.state.due is None:
            when = "new"
        else:
            days = -s.state.overdue_days(now)
            when = f"due in {days:.1f} d" if days > 0 else f"due {-days:.1f} d ago"
        flag = "✓" if s.mastered else " "
        out.write(f" {flag} {s.point_id:<14} {when:<16} {s.text}\n")
    return 0


def cmd_resume(settings: Settings, args: argparse.Namespace, err: TextIO) -> int:
    store = _open_store(settings, err)
    try:
        row = store.claim_interrupted()  # held from here on: a second resume is refused
    except InterviewerError:
        store.close()
        raise
    if row is None:
        store.close()
        raise InputError("no interrupted interview to resume",
                         hint="'interviewer history' lists past sessions")
    try:
        _catalog(settings, err).resolve(row.bank_id)
    except InterviewerError:
        store.release(row.id)
        store.close()
        raise InputError(f"cannot resume: bank '{row.bank_id}' of the interrupted "
                         "interview is no longer available",
                         hint="put its file back in a bank directory; 'interviewer report' "
                              "still shows what was typed") from None
    args.resume_row, args.store = row, store
    return cmd_run(settings, args)


def _session_or_latest(store, session_id: str | None, err: TextIO):
    """The session asked for, else the latest one with an answer in it (saying which)."""
    if session_id:
        row = store.session(session_id)
        if row is None:
            raise InputError(f"no session '{session_id}'", hint="'interviewer history' lists them")
        return row
    rows = store.sessions()
    if not rows:
        raise InputError("no sessions yet", hint="run an interview first")
    answered = [r for r in rows if any(a.answer.strip() or a.grade for a in r.attempts)]
    row = answered[0] if answered else rows[0]
    which = "the latest session with an answer" if answered else "the latest session (no answers)"
    err.write(f"report of session {row.id}, started {row.started_at[:16].replace('T', ' ')} "
              f"UTC: {which}\n")
    return row


def cmd_report(settings: Settings, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from interviewer.recorder import interview_from_session
    from interviewer.report import ReportMeta, format_of, render

    if args.out is not None:
        check_writable(args.out)
    fmt = args.format or (format_of(args.out) if args.out else "md")
    store = _open_store(settings, err)
    row = _session_or_latest(store, args.session, err)
    # the session's stored question texts and graded points; the bank only where it still
    # holds those questions (for the reference answers)
    interview = interview_from_session(row, _catalog(settings, err), settings.data_dir)
    shares: dict[str, float] = {}
    if interview.rubric.questions:
        from datetime import datetime

        from interviewer.practice import session_mastery

        ended = datetime.fromisoformat(row.ended_at) if row.ended_at else None
        shares = session_mastery(store, interview.bank, interview.rubric,
                                 list(interview.plan.questions), as_of=ended)
    meta = ReportMeta(model_id=row.model_id, session_id=row.id, llm=row.plan.get("llm") or {},
                      mastery=shares, reference_answers=args.with_reference)
    text = render(interview, fmt, meta)
    if args.out is None:
        out.write(text)
        return 0
    try:
        args.out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot write the report: {exc.strerror}", path=args.out) from None
    err.write(f"wrote {args.out}\n")
    return 0


def cmd_history(settings: Settings, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from interviewer.history import missed_points, trend
    from interviewer.scoring import format_score

    store = _open_store(settings, err)
    rows = store.sessions(limit=None if args.points else args.limit)
    if not rows:
        out.write("No sessions yet. Start one with: interviewer\n")
        return 0
    if args.points:
        out.write("Points missed most often:\n")
        for bank_id, qid, point, missed, seen in missed_points(rows):
            out.write(f"  {missed:>2}/{seen:<2} {bank_id} {qid}  {point}\n")
        out.write("\nTrend per bank (session scores, oldest first):\n")
        for bank_id, scores in trend(rows).items():
            series = " ".join(f"{s:.0%}" for s in scores)
            out.write(f"  {bank_id:<20} {series}\n")
        return 0
    for row in rows:
        score = f"{format_score(row.score):>4}"
        answered = sum(1 for a in row.attempts if a.score is not None)
        out.write(f"{row.id}  {row.started_at[:16].replace('T', ' ')}  {score}  "
                  f"{answered}/{len(row.attempts)} graded  {row.status:<9}  {row.bank_id}\n")
    return 0


# ---------------------------------------------------------------- entry


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None,
         err: TextIO | None = None) -> int:
    # everything printed passes through for_terminal: answers, evidence, ids, LLM text
    out = SafeStream(out or sys.stdout)
    err = SafeStream(err or sys.stderr)
    args = build_parser().parse_args(argv)
    try:
        overrides = {"bank": getattr(args, "bank", None), "model": getattr(args, "model", None),
                     "count": getattr(args, "count", None),
                     "time_limit": getattr(args, "time_limit", None),
                     "shuffle": getattr(args, "shuffle", None)}
        if args.command == "rubric":
            overrides["bank"] = None
        settings = discover_settings(overrides=overrides)
        command = args.command or "run"
        if command in ("run", "grade", "followup", "drill", "resume") and not getattr(
                args, "uncalibrated", False):
            _require_calibrated(settings)
        if command == "run":
            return cmd_run(settings, args)
        if command == "bank":
            if args.bank_command == "list":
                return cmd_bank_list(settings, out, err)
            if args.bank_command == "validate":
                return cmd_bank_validate(settings, args.paths, out, err)
            if args.bank_command == "export":
                return cmd_bank_export(settings, args, out, err)
            return cmd_bank_import(args, out, err)
        if command == "rubric":
            return cmd_rubric_build(settings, args, err)
        if command == "grade":
            if args.answers:
                return cmd_grade_batch(settings, args, out, err)
            return cmd_grade_one(settings, args, out, err)
        if command == "calibrate":
            return cmd_calibrate(settings, args, out, err)
        if command == "resume":
            return cmd_resume(settings, args, err)
        if command == "followup":
            return cmd_followup(settings, args, out, err)
        if command == "drill":
            return cmd_drill(settings, args, err)
        if command == "points":
            return cmd_points(settings, args, out, err)
        if command == "report":
            return cmd_report(settings, args, out, err)
        if command == "history":
            return cmd_history(settings, args, out, err)
    except InterviewerError as exc:
        err.write(f"interviewer: error: {exc}\n")
        return EXIT_USAGE
    except sqlite3.OperationalError as exc:  # locked after it was opened: busy, not broken
        from interviewer.store import DB_NAME, is_locked, locked_error

        if not is_locked(exc):
            raise
        err.write(f"interviewer: error: {locked_error(settings.data_dir / DB_NAME)}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        err.write("interviewer: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0
    raise AssertionError(f"unhandled command {args.command}")
