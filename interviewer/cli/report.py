"""``interviewer report`` and ``interviewer history``: what past sessions hold."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from interviewer.cli.common import Context, catalog, open_store
from interviewer.cli.registry import command
from interviewer.errors import InputError
from interviewer.outpath import check_writable


def _report_arguments(rep: argparse.ArgumentParser) -> None:
    rep.add_argument("session", nargs="?", help="session id (default: the latest)")
    rep.add_argument("--format", choices=["md", "html", "json"], help="default: from -o, else md")
    rep.add_argument("-o", "--out", type=Path, help="output file (default: stdout)")
    rep.add_argument("--with-reference", action="store_true",
                     help="include each question's full reference answer")


def _history_arguments(hist: argparse.ArgumentParser) -> None:
    hist.add_argument("--points", action="store_true",
                      help="the points missed most often, and the trend per bank")
    hist.add_argument("--limit", type=int, default=20, help="sessions to list (default 20)")


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


@command("report", "write the report of a session", _report_arguments)
def report(ctx: Context, args: argparse.Namespace) -> int:
    from interviewer.sessions.recorder import interview_from_session
    from interviewer.reports.report import ReportMeta, format_of, render

    settings, err = ctx.settings, ctx.err
    if args.out is not None:
        check_writable(args.out)
    fmt = args.format or (format_of(args.out) if args.out else "md")
    store = open_store(settings, err)
    row = _session_or_latest(store, args.session, err)
    # the session's stored question texts and graded points; the bank only where it still
    # holds those questions (for the reference answers)
    interview = interview_from_session(row, catalog(settings, err), settings.data_dir)
    shares: dict[str, float] = {}
    if interview.rubric.questions:
        from datetime import datetime

        from interviewer.practice.drill import session_mastery

        ended = datetime.fromisoformat(row.ended_at) if row.ended_at else None
        shares = session_mastery(store.review_log(interview.bank.id), interview.bank,
                                 interview.rubric, list(interview.plan.questions), as_of=ended)
    meta = ReportMeta(model_id=row.model_id, session_id=row.id, llm=row.plan.get("llm") or {},
                      mastery=shares, reference_answers=args.with_reference)
    text = render(interview, fmt, meta)
    if args.out is None:
        ctx.out.write(text)
        return 0
    try:
        args.out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot write the report: {exc.strerror}", path=args.out) from None
    err.write(f"wrote {args.out}\n")
    return 0


@command("history", "past sessions and their scores", _history_arguments)
def history(ctx: Context, args: argparse.Namespace) -> int:
    from interviewer.practice.history import missed_points, trend
    from interviewer.sessions.score import format_score

    out = ctx.out
    store = open_store(ctx.settings, ctx.err)
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
