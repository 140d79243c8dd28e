"""``interviewer rubric build``: key points extracted from reference answers, or proposed
by the configured LLM and kept where the reference answer backs them."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from interviewer import factory
from interviewer.cli.common import Context, Parser, catalog
from interviewer.cli.registry import command
from interviewer.config import Settings
from interviewer.errors import InputError, RubricError
from interviewer.outpath import check_writable
from interviewer.paths import rubric_path_for


def _arguments(rub: argparse.ArgumentParser) -> None:
    rub_sub = rub.add_subparsers(dest="rubric_command", required=True, parser_class=Parser,
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


@command("rubric", "build rubrics of key points from reference answers", _arguments,
         bank_flag=False)
def rubric_build(ctx: Context, args: argparse.Namespace) -> int:
    from interviewer.content.extract import build_rubric
    from interviewer.content.rubric import load_rubric, save_rubric

    settings, err = ctx.settings, ctx.err
    bank = catalog(settings, err).resolve(args.bank or settings.bank)
    target = check_writable(args.out) if args.out else rubric_path_for(bank.path, bank.id)
    if args.extracted:
        return _build_extracted(bank, target, args, err)
    existing = None
    if target.exists():
        try:
            existing = load_rubric(target)
        except RubricError:
            if not args.force:
                raise
    if existing is not None and existing.bank != bank.id:  # not this bank's points to keep
        if not args.force:
            raise RubricError(f"rubric is for bank '{existing.bank}', not '{bank.id}'; "
                              "not overwriting", path=target,
                              hint="move it away, write elsewhere with -o, or use --force")
        existing = None
    if args.llm:
        return _build_llm(settings, bank, existing, target, args, err)
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


def _build_extracted(bank, target: Path, args: argparse.Namespace, err: TextIO) -> int:
    """The extracted points alone, beside a hand-written rubric, never over one."""
    from interviewer.content.rubric import HAND, load_rubric, save_rubric
    from interviewer.content.extract import build_rubric

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


def _build_llm(settings: Settings, bank, existing, target: Path, args: argparse.Namespace,
               err: TextIO) -> int:
    from interviewer.content.llm_rubric import build_with_llm, lost_points
    from interviewer.content.rubric import save_rubric

    prober = factory.llm_prober(settings)
    if not prober.configured:
        raise InputError(f"--llm needs an LLM: {prober.missing_setting()}",
                         path=settings.config_path)
    if target.exists() and not args.force:
        raise RubricError("a rubric is already here; --llm would replace it", path=target,
                          hint="write the LLM's rubric elsewhere with -o NEW.yaml to compare, "
                               "or use --force to replace it")
    report = build_with_llm(bank, prober, factory.make_embedder(settings))
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
