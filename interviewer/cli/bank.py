"""``interviewer bank``: list, validate, import and export question banks."""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from interviewer import factory
from interviewer.content.bank import load_bank, render_bank
from interviewer.cli.common import EXIT_USAGE, Context, Parser, catalog
from interviewer.cli.registry import command
from interviewer.errors import InputError, InterviewerError
from interviewer.content.import_formats import FORMATS as IMPORT_FORMATS
from interviewer.outpath import check_writable


def _arguments(bank: argparse.ArgumentParser) -> None:
    bank_sub = bank.add_subparsers(dest="bank_command", required=True, parser_class=Parser,
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


@command("bank", "list, validate and import question banks", _arguments)
def bank(ctx: Context, args: argparse.Namespace) -> int:
    return ACTIONS[args.bank_command](ctx, args)


def bank_list(ctx: Context, args: argparse.Namespace) -> int:
    for b in catalog(ctx.settings, ctx.err).banks():
        ctx.out.write(f"{b.id:<20} {b.language}  {len(b.questions):>3} questions  "
                      f"{b.title}  ({b.path})\n")
    return 0


def bank_validate(ctx: Context, args: argparse.Namespace) -> int:
    from interviewer.content.bank_rubric import rubric_for_bank

    out, err = ctx.out, ctx.err
    targets = args.paths or catalog(ctx.settings, err).paths()
    if not targets:
        raise InputError("no bank files found", hint="pass a path to a .md bank file")
    failed = 0
    for path in targets:
        try:
            b = load_bank(path)
            loaded = rubric_for_bank(b)
        except InterviewerError as exc:
            err.write(f"error: {exc}\n")
            failed += 1
            continue
        out.write(f"ok: {path}: bank '{b.id}', {len(b.questions)} questions, "
                  f"{sum(len(q.points) for q in loaded.rubric.questions)} points\n")
        for warning in loaded.warnings:
            err.write(f"warning: {warning}\n")
        note = _topic_note(loaded.rubric)
        if note:
            err.write(f"note: {note}\n")
    return EXIT_USAGE if failed else 0


_NOTED = 3  # points named in the note; the rest are counted


def _topic_note(rubric) -> str | None:
    """Hand-written points that name a topic and state no claim, in one line."""
    from interviewer.grading.naming import states_no_claim

    topics = [p for q in rubric.questions if rubric.is_hand_edited(q.id)
              for p in q.points if states_no_claim(p.text)]
    if not topics:
        return None
    shown = ", ".join(f'{p.id} "{p.text}"' for p in topics[:_NOTED])
    more = f" and {len(topics) - _NOTED} more" if len(topics) > _NOTED else ""
    where = f"{rubric.path}: " if rubric.path else ""
    return (f"{where}{len(topics)} hand-written points name a topic and state no claim ({shown}"
            f"{more}): they are graded for coverage only, and a wrong answer on the topic can "
            "earn them; write what a correct answer says (docs/rubric-format.md)")


def bank_import(ctx: Context, args: argparse.Namespace) -> int:
    from interviewer.content.importers import import_source
    from interviewer.content.importers.fields import parse_columns
    from interviewer.content.importers.write import write_import

    out, err = ctx.out, ctx.err
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


def bank_export(ctx: Context, args: argparse.Namespace) -> int:
    from interviewer.content.importers.export import to_anki_text, to_markdown

    b = catalog(ctx.settings, ctx.err).resolve(args.bank)
    if b.parts:
        raise InputError(f"'{args.bank}' combines banks; export one bank at a time")
    target = Path(args.out) if args.out and args.out != "-" else None
    if target is not None:
        check_writable(target)  # a directory or an unwritable place, before "file exists"
        if target.exists() and not args.force:
            raise InputError("file exists; not overwriting", path=target, hint="use --force")
    missed = _missed_points(ctx, b) if args.missed else None
    if missed is not None:
        b = replace(b, questions=tuple(q for q in b.questions if q.id in missed))
        if not b.questions:
            raise InputError(f"no missed points in bank '{b.id}' yet",
                             hint="answer some questions first, or export without --missed")
    text = to_anki_text(b, missed) if args.format == "anki" else to_markdown(b)
    if target is None:
        ctx.out.write(text)
        return 0
    target.write_text(text, encoding="utf-8")
    ctx.err.write(f"wrote {target}: {len(b.questions)} questions ({args.format})\n")
    return 0


def _missed_points(ctx: Context, b) -> dict[str, list[str]]:
    from interviewer.content.importers.export import missed_points
    from interviewer.content.bank_rubric import rubric_for_bank

    return missed_points(factory.open_store(ctx.settings).review_log(b.id),
                         rubric_for_bank(b).rubric)


ACTIONS = {"list": bank_list, "validate": bank_validate, "import": bank_import,
           "export": bank_export}
