"""Text from answers, banks, files and LLMs, made safe to print to a terminal.

A control byte in an answer (``\\x1b[2J`` clears the screen, ``\\x1b]0;…\\x07`` retitles the
window, ``\\a`` rings, ``\\r`` overwrites a line) must show as what it is, not act. Every CLI
print goes through :func:`for_terminal` (by :class:`SafeStream`). Each unsafe character
becomes ``\\uXXXX``: readable, and still valid inside JSON, so JSON printed to a terminal
parses to the exact original text.
"""

from __future__ import annotations

import re
from typing import TextIO

# What acts on a terminal instead of showing: C0 controls but tab and newline, DEL, C1
# controls, and the bidirectional overrides and isolates that reorder what follows them
CONTROLS = "\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"
# ... and lone surrogates, which no UTF-8 terminal can be sent
_UNSAFE = re.compile(f"[{CONTROLS}\ud800-\udfff]")
# text shown on one line: line and paragraph breaks and tabs become spaces, and zero-width
# characters, which can hide text, go with the controls
_BREAKS = re.compile("[\t\n\r\u2028\u2029]")
_HIDDEN = re.compile(f"[{CONTROLS}\u200b-\u200f\ud800-\udfff]")


def for_terminal(text: str) -> str:
    """``text`` with every control character shown as a ``\\uXXXX`` escape."""
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def one_line(text: str, hidden: str = "?") -> str:
    """``text`` on one line: breaks and tabs as spaces, every control or zero-width character
    as ``hidden``."""
    return _HIDDEN.sub(hidden, _BREAKS.sub(" ", text))


class SafeStream:
    """A text stream that escapes what is written to it; ``raw`` is the stream itself, for
    output that is ours alone (a progress bar's carriage return)."""

    def __init__(self, stream: TextIO) -> None:
        self.raw = stream

    def write(self, text: str) -> int:
        return self.raw.write(for_terminal(text))

    def flush(self) -> None:
        self.raw.flush()

    def isatty(self) -> bool:
        return bool(getattr(self.raw, "isatty", lambda: False)())

    def __getattr__(self, name: str):
        return getattr(self.raw, name)
