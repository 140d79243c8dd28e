"""Command-line entry point: a thin layer over the core, one module per command group.

Every :class:`~interviewer.errors.InterviewerError` becomes one line on stderr and exit
code 2; a batch with some bad lines finishes the good ones and exits 1. ``main`` is the
console script (``interviewer = "interviewer.cli:main"``).
"""

from interviewer.cli.main import build_parser, main

__all__ = ["build_parser", "main"]
