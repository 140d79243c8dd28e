"""``interviewer followup``: the follow-up question a candidate's answer would get."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from interviewer import factory
from interviewer.content.bank import read_text
from interviewer.cli.common import Context, add_uncalibrated, catalog
from interviewer.cli.registry import command
from interviewer.errors import InputError


def _arguments(fol: argparse.ArgumentParser) -> None:
    fol.add_argument("--bank", required=True, help="bank id or path")
    fol.add_argument("--question", required=True, help="question id")
    fol.add_argument("--answer-file", type=Path, required=True, help="the answer text")
    fol.add_argument("--json", action="store_true", help="print JSON")
    fol.add_argument("--model", help="embedding model name or path")
    add_uncalibrated(fol)


@command("followup", "print the follow-up question a candidate would get", _arguments,
         calibrated=True)
def followup(ctx: Context, args: argparse.Namespace) -> int:
    """Grade the answer, then ask the configured LLM (or a template) for the follow-up."""
    from interviewer.followups.prober import followup_language
    from interviewer.content.bank_rubric import rubric_for_bank

    settings, out, err = ctx.settings, ctx.out, ctx.err
    bank = catalog(settings, err).resolve(args.bank)
    question = bank.question(args.question)
    answer = read_text(args.answer_file, InputError)
    if not answer.strip():
        raise InputError("the answer is empty", path=args.answer_file)
    rubric = rubric_for_bank(bank).rubric
    grade = factory.make_grader(settings).grade(rubric, question.id, answer)
    qr = rubric.question(question.id)
    result = factory.make_prober(settings).followup(qr, grade, followup_language(qr, bank.language))
    if result.notice:
        err.write(f"notice: {result.notice}\n")
    if args.json:
        out.write(json.dumps({"followup": result.text, "targets": list(result.targets),
                              "source": result.source, "notice": result.notice},
                             ensure_ascii=False) + "\n")
    else:
        out.write(result.text + "\n")
    return 0
