"""The commands: each command-group module registers its own here, with its arguments and
its handler; :mod:`interviewer.cli.main` builds the parser from them and dispatches."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass

from interviewer.cli.common import Context

Handler = Callable[[Context, argparse.Namespace], int]


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Handler
    calibrated: bool = False  # refuses an uncalibrated served model, unless --uncalibrated
    bank_flag: bool = True  # its ``bank`` argument is the configured bank's override


COMMANDS: dict[str, Command] = {}


def command(name: str, help: str, arguments: Callable[[argparse.ArgumentParser], None],
            *, calibrated: bool = False, bank_flag: bool = True) -> Callable[[Handler], Handler]:
    """Register the decorated function as the handler of ``interviewer NAME``."""

    def register(run: Handler) -> Handler:
        if name in COMMANDS:
            raise ValueError(f"command {name} registered twice")
        COMMANDS[name] = Command(name, help, arguments, run, calibrated, bank_flag)
        return run

    return register
