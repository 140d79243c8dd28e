"""What the commands share: their context, the parser's one-line errors, the argument
types, and the bank catalog and session store as the CLI opens them (saying what it
skipped or moved)."""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from typing import TextIO

from interviewer import factory
from interviewer.content.catalog import BankCatalog
from interviewer.config import Settings, parse_duration
from interviewer.terminal import SafeStream, for_terminal

EXIT_USAGE = 2
EXIT_PARTIAL = 1


@dataclass(frozen=True)
class Context:
    """What a command's handler gets besides its arguments."""

    settings: Settings
    out: TextIO
    err: TextIO


class Parser(argparse.ArgumentParser):
    """argparse with a one-line error instead of the usage dump."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # "-5m" after --time-limit is a (bad) value to refuse, not an unknown option
        self._negative_number_matcher = re.compile(r"^-\d")

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_USAGE, for_terminal(f"{self.prog}: error: {message} "
                                           f"(see '{self.prog} --help')") + "\n")


def duration(value: str) -> float:
    try:
        return parse_duration(value, unit_required=True)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def count(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        n = None
    if n is None or n < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number ≥ 1, got {value}")
    return n


def add_uncalibrated(p: argparse.ArgumentParser) -> None:
    p.add_argument("--uncalibrated", action="store_true",
                   help="grade with a model nobody calibrated (its scores mean little)")


def catalog(settings: Settings, err: TextIO | None = None) -> BankCatalog:
    """The banks; a bank file skipped or shadowed is one warning line on ``err``."""
    stream = err if err is not None else SafeStream(sys.stderr)
    return factory.make_catalog(settings, warn=lambda m: stream.write(f"warning: {m}\n"))


def open_store(settings: Settings, err: TextIO):
    """The session database; a corrupt one moved aside is said, with where it went."""
    store = factory.open_store(settings)
    if store.moved_aside is not None:
        err.write(f"interviewer: notice: {store.notice}\n")
    return store
