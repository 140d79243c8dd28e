"""YAML as banks and rubrics use it: plain values written out, of a bounded size.

``yaml.safe_load`` builds no objects, but it shares one node among all the places an
alias names it: nine nested levels of nine aliases are a few hundred bytes that turn into
gigabytes as soon as a value is turned into text. Banks and rubrics never need anchors
or aliases, so a file that uses them is refused before it is loaded, as is a file larger
than any real bank or rubric.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from interviewer.errors import InterviewerError

# libyaml's safe loader when present: a rubric loads in milliseconds, not a tenth of a second
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

MAX_BYTES = 8 << 20  # the shipped rubrics are about 12 KB


def load_yaml(text: str, *, path: Path | None, error: type[InterviewerError],
              first_line: int = 1, max_bytes: int = MAX_BYTES) -> object:
    """Parse ``text``; anchors, aliases or more than ``max_bytes`` raise ``error``.

    Syntax errors are left to the caller as :class:`yaml.YAMLError` (it knows the lines).
    ``first_line`` is where ``text`` starts in its file, for the line in the message.
    """
    size = len(text.encode("utf-8", errors="surrogatepass"))
    if size > max_bytes:
        raise error(f"too large for a YAML file here ({size} bytes, at most {max_bytes})",
                    path=path, hint="split it, or remove what does not belong")
    for token in yaml.scan(text, Loader=_Loader):
        if isinstance(token, (yaml.AnchorToken, yaml.AliasToken)):
            kind = "alias" if isinstance(token, yaml.AliasToken) else "anchor"
            raise error(f"YAML {kind} '{token.value}' (& and *): anchors and aliases are not "
                        "allowed", path=path, line=first_line + token.start_mark.line,
                        hint="write each value out in full")
    return yaml.load(text, Loader=_Loader)  # noqa: S506 - a safe loader


def text_value(value: object) -> str | None:
    """A scalar as text (None stays None); None for a list or mapping, which is not text."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return "" if value is None else str(value)
    return None
