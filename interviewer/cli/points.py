"""``interviewer points``: the spaced-repetition state of each key point; suspend some."""

from __future__ import annotations

import argparse

from interviewer.cli.common import Context, catalog, open_store
from interviewer.cli.registry import command
from interviewer.errors import InputError


def _arguments(pts: argparse.ArgumentParser) -> None:
    pts.add_argument("action", nargs="?", choices=["list", "suspend", "unsuspend"], default="list",
                     help="list (default), suspend or unsuspend points")
    pts.add_argument("point_ids", nargs="*", help="point ids (for suspend / unsuspend)")
    pts.add_argument("--bank", help="bank id or path")
    pts.add_argument("--due", action="store_true", help="only points due for review")


@command("points", "spaced-repetition state of key points; suspend some", _arguments)
def points(ctx: Context, args: argparse.Namespace) -> int:
    from datetime import datetime, timezone

    from interviewer.practice.drill import due_points, mastery, point_statuses
    from interviewer.content.bank_rubric import rubric_for_bank
    from interviewer.sessions.locking import NotSavedError, locked_error

    settings, out = ctx.settings, ctx.out
    bank = catalog(settings, ctx.err).resolve(settings.bank)
    rubric = rubric_for_bank(bank).rubric
    known = {p.id for q in rubric.questions for p in q.points}
    store = open_store(settings, ctx.err)
    if args.action in ("suspend", "unsuspend"):
        if not args.point_ids:
            raise InputError(f"{args.action} needs point ids", hint="'interviewer points' lists them")
        unknown = [p for p in args.point_ids if p not in known]
        if unknown:
            raise InputError(f"no point {', '.join(unknown)} in bank '{bank.id}'")
        for pid in args.point_ids:
            store.set_suspended(bank.id, pid, args.action == "suspend")
            if store.last_locked:
                raise locked_error(store.path)
            if not store.persistent or store.last_error:
                why = store.last_error or f"{settings.data_dir} cannot be written"
                raise NotSavedError(f"could not {args.action} {pid}: not saved ({why})")
        out.write(f"{args.action}ed {len(args.point_ids)} point(s) in {bank.id}\n")
        return 0
    now = datetime.now(timezone.utc)
    statuses = point_statuses(store.review_log(bank.id), rubric)
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
