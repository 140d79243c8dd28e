"""Running the CLI in this process and capturing what it prints."""

from __future__ import annotations

import contextlib
import io

from interviewer import cli


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stderr(err):  # argparse writes to sys.stderr
            code = cli.main(list(argv), out=out, err=err)
    except SystemExit as exc:  # argparse
        code = exc.code
    return code, out.getvalue(), err.getvalue()
