"""The parser, built from the registered commands, and the one dispatch to their handlers.

Without a command, ``run`` is meant. Errors are converted here, at the edge: an
:class:`InterviewerError` is one line on stderr and exit code 2.
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Sequence
from typing import TextIO

from interviewer import __version__, factory
# each command-group module registers its commands when imported
from interviewer.cli import (  # noqa: F401
    bank,
    calibrate,
    followup,
    grade,
    points,
    report,
    rubric,
    run,
)
from interviewer.cli.common import EXIT_USAGE, Context, Parser
from interviewer.cli.registry import COMMANDS
from interviewer.config import discover_settings
from interviewer.errors import InterviewerError
from interviewer.terminal import SafeStream

DEFAULT = "run"
# the order ``--help`` lists them in
ORDER = ("run", "bank", "rubric", "grade", "resume", "drill", "points", "followup", "report",
         "history", "calibrate")


def build_parser() -> Parser:
    assert sorted(ORDER) == sorted(COMMANDS), "every registered command has its place"
    p = Parser(prog="interviewer", description="Offline mock interviews, graded by key points. "
               "Without a command, 'run' is meant: 'interviewer --bank B' starts an interview.")
    p.add_argument("--version", action="version", version=f"interviewer {__version__}")
    COMMANDS[DEFAULT].arguments(p)  # run is the default command
    sub = p.add_subparsers(dest="command", parser_class=Parser, metavar="COMMAND",
                           help="what to do (default: run)")
    for name in ORDER:
        COMMANDS[name].arguments(sub.add_parser(name, help=COMMANDS[name].help))
    return p


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None,
         err: TextIO | None = None) -> int:
    # everything printed passes through for_terminal: answers, evidence, ids, LLM text
    out = SafeStream(out or sys.stdout)
    err = SafeStream(err or sys.stderr)
    args = build_parser().parse_args(argv)
    command = COMMANDS[args.command or DEFAULT]
    try:
        overrides = {"bank": getattr(args, "bank", None) if command.bank_flag else None,
                     "model": getattr(args, "model", None),
                     "count": getattr(args, "count", None),
                     "time_limit": getattr(args, "time_limit", None),
                     "shuffle": getattr(args, "shuffle", None)}
        settings = discover_settings(overrides=overrides)
        if command.calibrated and not getattr(args, "uncalibrated", False):
            factory.require_calibrated(settings)
        return command.run(Context(settings, out, err), args)
    except InterviewerError as exc:
        err.write(f"interviewer: error: {exc}\n")
        return EXIT_USAGE
    except sqlite3.OperationalError as exc:  # locked after it was opened: busy, not broken
        from interviewer.sessions.store import DB_NAME
        from interviewer.sessions.locking import is_locked, locked_error

        if not is_locked(exc):
            raise
        err.write(f"interviewer: error: {locked_error(settings.data_dir / DB_NAME)}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        err.write("interviewer: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0
