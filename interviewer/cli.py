"""Command-line entry point: a thin layer over the core.

Every :class:`InterviewerError` becomes one line on stderr and exit code 2; a batch
with some bad lines finishes the good ones and exits 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from interviewer import __version__
from interviewer.bank import BankCatalog, import_plaintext, load_bank, read_text, render_bank
from interviewer.config import Settings, discover_settings, parse_duration
from interviewer.errors import InputError, InterviewerError, RubricError
from interviewer.paths import rubric_path_for

EXIT_USAGE = 2
EXIT_PARTIAL = 1


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error instead of the usage dump."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _duration(value: str) -> float:
    try:
        return parse_duration(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="interviewer", description="Offline mock interviews, graded by key points.")
    p.add_argument("--version", action="version", version=f"interviewer {__version__}")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)

    run = sub.add_parser("run", help="start a mock interview in the terminal (the default)")
    _add_run_args(run)

    bank = sub.add_parser("bank", help="list, validate and import question banks")
    bank_sub = bank.add_subparsers(dest="bank_command", required=True, parser_class=_Parser)
    bank_sub.add_parser("list", help="list the banks the app can see")
    val = bank_sub.add_parser("validate", help="check bank files (all known banks by default)")
    val.add_argument("paths", nargs="*", type=Path)
    imp = bank_sub.add_parser("import", help="convert a plain-text 'Q: …' file into a bank")
    imp.add_argument("path", type=Path)
    imp.add_argument("--id", dest="bank_id")
    imp.add_argument("--title")
    imp.add_argument("--language", choices=["zh", "en"])
    imp.add_argument("-o", "--out", help="output file, or - for stdout (default: bank/<id>.md)")
    imp.add_argument("--force", action="store_true", help="overwrite an existing file")

    rub = sub.add_parser("rubric", help="build rubrics of key points from reference answers")
    rub_sub = rub.add_subparsers(dest="rubric_command", required=True, parser_class=_Parser)
    build = rub_sub.add_parser("build", help="extract key points and write rubrics/<bank>.yaml")
    build.add_argument("bank", nargs="?", help="bank id or path (default: the configured bank)")
    build.add_argument("-o", "--out", type=Path)
    build.add_argument("--force", action="store_true",
                       help="overwrite hand-edited points whose reference answer changed")
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
    grade.add_argument("--jobs", type=int, default=1, help="worker processes (batch mode)")
    grade.add_argument("--resume", action="store_true",
                       help="skip ids already graded in --out and append the rest")

    sub.add_parser("resume", help="go on with the interview that was interrupted last")

    drill = sub.add_parser("drill", help="practise the questions whose points are due or weakest")
    drill.add_argument("--bank", help="bank id or path")
    drill.add_argument("--count", type=int, default=5, help="number of questions (default 5)")
    drill.add_argument("--time-limit", type=_duration, help="per question, e.g. 5m")

    pts = sub.add_parser("points", help="spaced-repetition state of key points; suspend some")
    pts.add_argument("action", nargs="?", choices=["list", "suspend", "unsuspend"], default="list")
    pts.add_argument("point_ids", nargs="*", help="point ids (for suspend / unsuspend)")
    pts.add_argument("--bank", help="bank id or path")
    pts.add_argument("--due", action="store_true", help="only points due for review")

    fol = sub.add_parser("followup", help="print the follow-up question a candidate would get")
    fol.add_argument("--bank", required=True, help="bank id or path")
    fol.add_argument("--question", required=True, help="question id")
    fol.add_argument("--answer-file", type=Path, required=True)
    fol.add_argument("--json", action="store_true", help="print JSON")
    fol.add_argument("--model", help="embedding model name or path")

    rep = sub.add_parser("report", help="write the report of a session")
    rep.add_argument("session", nargs="?", help="session id (default: the latest)")
    rep.add_argument("--format", choices=["md", "html", "json"], help="default: from -o, else md")
    rep.add_argument("-o", "--out", type=Path, help="output file (default: stdout)")

    hist = sub.add_parser("history", help="past sessions and their scores")
    hist.add_argument("--points", action="store_true",
                      help="the points missed most often, and the trend per bank")
    hist.add_argument("--limit", type=int, default=20)

    cal = sub.add_parser("calibrate", help="fit a model's verdict thresholds from labeled answers")
    cal.add_argument("--labels", type=Path, required=True, action="append",
                     help="labeled JSONL (repeatable)")
    cal.add_argument("--model", help="embedding model name or path (default: configured)")
    cal.add_argument("--out", type=Path, help="calibration file (default: <data dir>/calibration.json)")
    return p


def _add_run_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--bank", help="bank id or path; a+b mixes the questions of banks a and b")
    p.add_argument("--count", type=int, help="number of questions")
    p.add_argument("--time-limit", type=_duration, help="per question, e.g. 5m or 90s")
    p.add_argument("--tag", action="append", default=[], help="only questions with this tag")
    p.add_argument("--shuffle", action="store_true", default=None, help="random order")
    p.add_argument("--model", help="embedding model name or path")


# ---------------------------------------------------------------- commands


def _catalog(settings: Settings) -> BankCatalog:
    return BankCatalog(settings.bank_dirs)


def cmd_bank_list(settings: Settings, out: TextIO) -> int:
    for bank in _catalog(settings).banks():
        out.write(f"{bank.id:<20} {bank.language}  {len(bank.questions):>3} questions  "
                  f"{bank.title}  ({bank.path})\n")
    return 0


def cmd_bank_validate(settings: Settings, paths: list[Path], out: TextIO, err: TextIO) -> int:
    from interviewer.rubric import rubric_for_bank

    targets = paths or _catalog(settings).paths()
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
    bank = import_plaintext(read_text(args.path), path=args.path, bank_id=args.bank_id,
                            title=args.title, language=args.language)
    text = render_bank(bank)
    if args.out == "-":
        out.write(text)
        return 0
    target = Path(args.out) if args.out else Path("bank") / f"{bank.id}.md"
    if target.exists() and not args.force:
        raise InputError("file exists; not overwriting", path=target,
                         hint="use --force, or -o to write elsewhere")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    err.write(f"wrote {target}: bank '{bank.id}', {len(bank.questions)} questions "
              f"(next: interviewer rubric build {target})\n")
    return 0


def cmd_rubric_build(settings: Settings, args: argparse.Namespace, err: TextIO) -> int:
    from interviewer.rubric import build_rubric, load_rubric, save_rubric

    bank = _catalog(settings).resolve(args.bank or settings.bank)
    target = args.out or rubric_path_for(bank.path, bank.id)
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


def _rubric_build_llm(settings: Settings, bank, existing, target: Path,
                      args: argparse.Namespace, err: TextIO) -> int:
    from interviewer.embedding import make_embedder
    from interviewer.llm_rubric import build_with_llm
    from interviewer.probing import LLMProber
    from interviewer.rubric import save_rubric

    prober = LLMProber(settings.llm)
    if not prober.configured:
        raise InputError("--llm needs an LLM: set base_url and model under [llm] in the config",
                         path=settings.config_path)
    if existing is not None and not args.force and any(
            existing.is_hand_edited(q.id) for q in existing.questions):
        raise RubricError("the rubric has hand-edited points; --llm would replace them",
                          path=target, hint="use --force to replace them")
    report = build_with_llm(bank, prober, make_embedder(settings.model))
    save_rubric(report.rubric, target)
    n_points = sum(len(q.points) for q in report.rubric.questions)
    err.write(f"wrote {target}: {len(report.rubric.questions)} questions, {n_points} points "
              f"({report.kept} from the LLM, {len(report.dropped)} proposals dropped as not "
              "backed by the reference answer)\n")
    for qid, text in report.dropped:
        err.write(f"dropped {qid}: {text}\n")
    for qid, why in report.fallbacks:
        err.write(f"{qid}: extracted instead: {why}\n")
    return 0


def _make_grader(settings: Settings):
    import os

    from interviewer.embedding import make_embedder
    from interviewer.grading import Grader

    embedder = make_embedder(settings.model, base_url=settings.embedding_base_url,
                             api_key=os.environ.get(settings.embedding_api_key_env))
    return Grader(embedder, calibration_file=settings.data_dir / "calibration.json",
                  cache_dir=settings.data_dir / "cache")


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
    loaded = rubric_for_bank(_catalog(settings).resolve(ref))
    for warning in loaded.warnings:
        err.write(f"warning: {warning}\n")
    return loaded.rubric


def cmd_grade_batch(settings: Settings, args: argparse.Namespace, out: TextIO,
                    err: TextIO) -> int:
    from interviewer.batch import (
        CHUNK,
        BatchError,
        Progress,
        done_ids,
        drop_partial_line,
        grade_items,
        parse_batch,
    )
    from interviewer.grades import Grade

    if not args.rubric:
        raise InputError("--answers needs --rubric (a rubric file or bank id)")
    if args.resume and not args.out:
        raise InputError("--resume needs --out (the file whose finished ids are skipped)")
    if args.jobs < 1:
        raise InputError("--jobs must be at least 1")
    rubric = _resolve_rubric(settings, args.rubric, err)
    parsed = parse_batch(read_text(args.answers, InputError), rubric)
    skip = done_ids(args.out) if args.resume else set()
    failed = 0
    for entry in parsed:
        if isinstance(entry, BatchError):
            failed += 1
            err.write(f"{args.answers}:{entry.line}: {entry.message}\n")
    todo = [e for e in parsed if not isinstance(e, BatchError) and json.dumps(e.id) not in skip]
    grader = _make_grader(settings)
    if args.resume:
        drop_partial_line(args.out)
    sink = args.out.open("a" if args.resume else "w", encoding="utf-8") if args.out else out
    graded: list[Grade] = []
    progress = Progress(len(todo), err)
    def grade_one(item) -> dict:
        return grader.grade(rubric, item.question_id, item.answer).to_dict(item.id)

    def write(result: dict, item=None) -> None:
        sink.write(json.dumps(result, ensure_ascii=False) + "\n")
        sink.flush()
        if item is not None:
            progress.advance()
            if args.report:
                graded.append(Grade.from_dict(result, item.answer))

    try:
        errors = [e for e in parsed if isinstance(e, BatchError) and json.dumps(e.id) not in skip]
        if args.jobs == 1:  # one line out per line in, in input order
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
            for item, result in grade_items(todo, grade=grade_one, jobs=args.jobs,
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

        try:
            write_report(interview_from_grades(rubric, graded), args.report,
                         ReportMeta(model_id=grader.model_id))
        except OSError as exc:
            raise InputError(f"cannot write the report: {exc.strerror}", path=args.report) from None
        err.write(f"wrote {args.report}\n")
    return EXIT_PARTIAL if failed else 0


def cmd_grade_one(settings: Settings, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from interviewer.rubric import rubric_for_bank

    missing = [f for f, v in (("--bank", args.bank), ("--question", args.question),
                              ("--answer-file", args.answer_file)) if not v]
    if missing:
        raise InputError(f"missing {', '.join(missing)}",
                         hint="use --bank B --question Q --answer-file F, or --rubric R --answers A.jsonl")
    bank = _catalog(settings).resolve(args.bank)
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
    from interviewer.calibration import fit_scorer, save_scorer
    from interviewer.labels import collect_features

    grader = _make_grader(settings)
    rows, labels = collect_features(grader, args.labels, _catalog(settings), err)
    if labels.size < 2:
        raise InputError("no usable labeled answers", path=args.labels[0])
    scorer = fit_scorer(rows, labels, source=", ".join(p.name for p in args.labels))
    target = args.out or settings.data_dir / "calibration.json"
    save_scorer(grader.model_id, scorer, target)
    out.write(f"{grader.model_id}: covered if p >= {scorer.covered:.2f}, partial if p >= "
              f"{scorer.partial:.2f} (n={labels.size} points, point MAE "
              f"{scorer.metrics['point_mae']:.3f}, covered F1 {scorer.metrics['covered_f1']:.3f} "
              f"on the labels it was fitted to); saved to {target}\n")
    return 0


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
    explicit = any(getattr(args, name, None) for name in ("bank", "count", "time_limit", "tag"))
    if explicit:
        bank = catalog.resolve(settings.bank)  # ``a+b``: one interview over banks a and b
        known = {b.id for b in banks}
        banks += [b for b in bank.parts or (bank,) if b.id not in known]
        choices = SetupChoices(bank=bank.id, tags=tuple(getattr(args, "tag", []) or ()),
                               count=settings.count, shuffle=bool(settings.shuffle),
                               time_limit=settings.time_limit, total_limit=None,
                               followups=settings.llm.enabled)
        plan = make_plan(bank, choices)
    from interviewer.store import Store
    from interviewer.tui.app import make_app  # textual is imported only here

    if getattr(args, "drill_plan", None) is not None:
        plan, choices = args.drill_plan, args.drill_choices
    app = make_app(banks=banks, grader=_deferred_grader(settings), settings=settings, plan=plan,
                   choices=choices, store=Store.open(settings.data_dir),
                   resume=getattr(args, "resume_row", None))
    app.run()
    return app.return_code or 0


def cmd_followup(settings: Settings, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Grade the answer, then ask the configured LLM (or a template) for the follow-up."""
    from interviewer.probing import followup_language, make_prober
    from interviewer.rubric import rubric_for_bank

    bank = _catalog(settings).resolve(args.bank)
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


def _drill_plan(settings: Settings, bank, count: int | None):
    from datetime import datetime, timezone

    from interviewer.practice import drill_questions, point_statuses
    from interviewer.rubric import rubric_for_bank
    from interviewer.session import InterviewPlan
    from interviewer.store import Store

    store = Store.open(settings.data_dir)
    try:
        statuses = point_statuses(store, bank, rubric_for_bank(bank).rubric)
    finally:
        store.close()
    questions = drill_questions(bank, statuses, datetime.now(timezone.utc), count)
    if not any(s.reviews for s in statuses):
        raise InputError(f"nothing to drill in bank '{bank.id}' yet",
                         hint="answer some questions first: 'interviewer run'")
    return InterviewPlan(bank=bank, questions=tuple(questions), time_limit=settings.time_limit,
                         followups=settings.llm.enabled)


def cmd_drill(settings: Settings, args: argparse.Namespace) -> int:
    from interviewer.session import SetupChoices

    bank = _catalog(settings).resolve(settings.bank)
    args.drill_plan = _drill_plan(settings, bank, args.count)
    args.drill_choices = SetupChoices(bank=bank.id, time_limit=settings.time_limit, drill=True)
    return cmd_run(settings, args)


def cmd_points(settings: Settings, args: argparse.Namespace, out: TextIO) -> int:
    from datetime import datetime, timezone

    from interviewer.practice import due_points, mastery, point_statuses
    from interviewer.rubric import rubric_for_bank
    from interviewer.store import Store

    bank = _catalog(settings).resolve(settings.bank)
    rubric = rubric_for_bank(bank).rubric
    known = {p.id for q in rubric.questions for p in q.points}
    store = Store.open(settings.data_dir)
    if args.action in ("suspend", "unsuspend"):
        if not args.point_ids:
            raise InputError(f"{args.action} needs point ids", hint="'interviewer points' lists them")
        unknown = [p for p in args.point_ids if p not in known]
        if unknown:
            raise InputError(f"no point {', '.join(unknown)} in bank '{bank.id}'")
        for pid in args.point_ids:
            store.set_suspended(bank.id, pid, args.action == "suspend")
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


def cmd_resume(settings: Settings, args: argparse.Namespace) -> int:
    from interviewer.store import Store

    store = Store.open(settings.data_dir)
    interrupted = store.interrupted()
    if not interrupted:
        raise InputError("no interrupted interview to resume",
                         hint="'interviewer history' lists past sessions")
    args.resume_row = interrupted[0]
    store.close()
    return cmd_run(settings, args)


def _session_or_latest(store, session_id: str | None):
    if session_id:
        row = store.session(session_id)
        if row is None:
            raise InputError(f"no session '{session_id}'", hint="'interviewer history' lists them")
        return row
    rows = store.sessions(limit=1)
    if not rows:
        raise InputError("no sessions yet", hint="run an interview first")
    return rows[0]


def cmd_report(settings: Settings, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from interviewer.recorder import interview_from_session
    from interviewer.report import ReportMeta, format_for, render
    from interviewer.store import Store

    store = Store.open(settings.data_dir)
    row = _session_or_latest(store, args.session)
    interview = interview_from_session(row, _catalog(settings))
    fmt = args.format or (format_for(args.out) if args.out else "md")
    shares: dict[str, float] = {}
    if interview.rubric.questions:
        from interviewer.practice import mastery, point_statuses

        shares = mastery(point_statuses(store, interview.bank, interview.rubric), interview.bank)
    meta = ReportMeta(model_id=row.model_id, session_id=row.id, llm=row.plan.get("llm") or {},
                      mastery=shares)
    text = render(interview, fmt, meta)
    if args.out is None:
        out.write(text)
        return 0
    try:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot write the report: {exc.strerror}", path=args.out) from None
    err.write(f"wrote {args.out}\n")
    return 0


def cmd_history(settings: Settings, args: argparse.Namespace, out: TextIO) -> int:
    from interviewer.history import missed_points, trend
    from interviewer.store import Store

    store = Store.open(settings.data_dir)
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
        score = f"{row.score:4.0%}" if row.score is not None else "   —"
        answered = sum(1 for a in row.attempts if a.score is not None)
        out.write(f"{row.id}  {row.started_at[:16].replace('T', ' ')}  {score}  "
                  f"{answered}/{len(row.attempts)} graded  {row.status:<9}  {row.bank_id}\n")
    return 0


# ---------------------------------------------------------------- entry


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None,
         err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
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
        if command == "run":
            return cmd_run(settings, args)
        if command == "bank":
            if args.bank_command == "list":
                return cmd_bank_list(settings, out)
            if args.bank_command == "validate":
                return cmd_bank_validate(settings, args.paths, out, err)
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
            return cmd_resume(settings, args)
        if command == "followup":
            return cmd_followup(settings, args, out, err)
        if command == "drill":
            return cmd_drill(settings, args)
        if command == "points":
            return cmd_points(settings, args, out)
        if command == "report":
            return cmd_report(settings, args, out, err)
        if command == "history":
            return cmd_history(settings, args, out)
    except InterviewerError as exc:
        err.write(f"interviewer: error: {exc}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        err.write("interviewer: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0
    raise AssertionError(f"unhandled command {args.command}")
