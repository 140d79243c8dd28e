"""``interviewer run`` (the default), ``drill`` and ``resume``: the interview in the
terminal. Each works out what to start with, then hands it to :func:`launch`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from interviewer import factory
from interviewer.cli.common import Context, add_uncalibrated, catalog, count, duration, open_store
from interviewer.cli.registry import command
from interviewer.config import Settings
from interviewer.errors import InputError, InterviewerError


def add_run_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--bank", help="bank id or path; a+b mixes the questions of banks a and b")
    p.add_argument("--count", type=count, help="number of questions (default: all)")
    p.add_argument("--time-limit", type=duration,
                   help="per question, with a unit: 5m, 90s or 1m30s (a bare number is refused)")
    p.add_argument("--total-time", type=duration,
                   help="for the whole interview, with a unit, e.g. 30m (default: no limit)")
    p.add_argument("--tag", action="append", default=[], help="only questions with this tag")
    p.add_argument("--shuffle", action="store_true", default=None, help="random order")
    p.add_argument("--model", help="embedding model name or path")
    add_uncalibrated(p)


def _drill_arguments(drill: argparse.ArgumentParser) -> None:
    drill.add_argument("--bank", help="bank id or path")
    drill.add_argument("--count", type=count, default=5, help="number of questions (default 5)")
    drill.add_argument("--time-limit", type=duration,
                       help="per question, with a unit: 5m, 90s or 1m30s")
    drill.add_argument("--total-time", type=duration,
                       help="for the whole interview, with a unit, e.g. 30m (default: no limit)")
    add_uncalibrated(drill)


def need_terminal() -> None:
    """The interview is interactive: without a terminal it would wait for keys for ever."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise InputError("the interview needs a terminal (stdin and stdout are not one)",
                         hint="run it in a terminal; 'interviewer grade' grades answers "
                              "from files")


def launch(settings: Settings, *, explicit: bool, tags: Sequence[str] = (),
           total_time: float | None = None, given=None, store=None, resume=None) -> int:
    """The TUI: straight into the interview when the command line says enough (``explicit``),
    else setup. ``given`` is a ``(plan, choices)`` worked out already (a drill); ``store``
    and ``resume`` carry an interrupted session claimed already."""
    from interviewer.sessions.plan import SetupChoices, load_choices, make_plan

    cat = catalog(settings)
    banks = cat.banks()
    if not banks:
        raise InputError("no question banks found", hint="add a .md bank to "
                         f"{settings.data_dir / 'bank'} or pass --bank PATH")
    plan = None
    choices = load_choices(settings.data_dir, settings.bank)
    if explicit:
        bank = cat.resolve(settings.bank)  # ``a+b``: one interview over banks a and b
        known = {b.id for b in banks}
        banks += [b for b in bank.parts or (bank,) if b.id not in known]
        choices = SetupChoices(bank=bank.id, tags=tuple(tags), count=settings.count,
                               shuffle=bool(settings.shuffle), time_limit=settings.time_limit,
                               total_limit=total_time, followups=settings.llm.enabled)
        plan = make_plan(bank, choices)
    grader = factory.tui_grader(settings)  # a model that cannot work is refused first
    need_terminal()
    from interviewer.tui import prefer_frame_rate

    prefer_frame_rate()  # read when textual is imported, just below
    from interviewer.tui.app import make_app  # textual is imported only here

    if given is not None:
        plan, choices = given
    store = store or factory.open_store(settings)
    app = make_app(banks=banks, grader=grader, settings=settings, plan=plan,
                   choices=choices, store=store, resume=resume)
    app.run()
    return app.return_code or 0


@command("run", "start a mock interview in the terminal (the default)", add_run_args,
         calibrated=True)
def run(ctx: Context, args: argparse.Namespace) -> int:
    explicit = any((args.bank, args.count, args.time_limit, args.total_time, args.tag))
    return launch(ctx.settings, explicit=explicit, tags=args.tag, total_time=args.total_time)


def _drill_plan(settings: Settings, bank, count: int | None, err: TextIO,
                total_limit: float | None = None):
    from interviewer.practice.drill import drill_plan

    store = open_store(settings, err)
    try:
        plan = drill_plan(store.review_log(bank.id), bank, count, time_limit=settings.time_limit,
                          total_limit=total_limit, followups=settings.llm.enabled)
    finally:
        store.close()
    if plan is None:
        raise InputError(f"nothing to drill in bank '{bank.id}' yet",
                         hint="answer some questions first: 'interviewer run'")
    return plan


@command("drill", "practise the questions whose points are due or weakest", _drill_arguments,
         calibrated=True)
def drill(ctx: Context, args: argparse.Namespace) -> int:
    from interviewer.sessions.plan import SetupChoices

    settings = ctx.settings
    bank = catalog(settings, ctx.err).resolve(settings.bank)
    plan = _drill_plan(settings, bank, args.count, ctx.err, args.total_time)
    choices = SetupChoices(bank=bank.id, time_limit=settings.time_limit,
                           total_limit=args.total_time, drill=True)
    # --count has a default, so the command line always says enough
    return launch(settings, explicit=True, total_time=args.total_time, given=(plan, choices))


@command("resume", "go on with the interview that was interrupted last", add_uncalibrated,
         calibrated=True)
def resume(ctx: Context, args: argparse.Namespace) -> int:
    settings, err = ctx.settings, ctx.err
    store = open_store(settings, err)
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
        catalog(settings, err).resolve(row.bank_id)
    except InterviewerError:
        store.release(row.id)
        store.close()
        raise InputError(f"cannot resume: bank '{row.bank_id}' of the interrupted "
                         "interview is no longer available",
                         hint="put its file back in a bank directory; 'interviewer report' "
                              "still shows what was typed") from None
    return launch(settings, explicit=False, store=store, resume=row)
