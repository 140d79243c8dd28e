"""docs/guarantees.md names, for each promise of the README, the tests that back it: every
test it names must exist, or the list would vouch for nothing."""

from __future__ import annotations

import re

from conftest import ROOT


def test_every_test_the_guarantees_name_exists() -> None:
    text = (ROOT / "docs" / "guarantees.md").read_text(encoding="utf-8")
    refs = re.findall(r"`(test_\w+\.py)::(\w+)`", text)
    assert len(refs) > 50
    missing = []
    files = {p.name: p for p in (ROOT / "tests").glob("*/test_*.py")}
    for file, name in refs:
        path = files.get(file)
        source = path.read_text(encoding="utf-8") if path else ""
        if not re.search(rf"^(?:async )?def {name}\(", source, re.M):
            missing.append(f"{file}::{name}")
    assert missing == []


def test_one_line_text_hides_what_acts_or_hides_in_every_place_it_is_used() -> None:
    # one character class for the terminal, the import summary and an LLM's reason
    from interviewer.content.importers.result import printable
    from interviewer.terminal import for_terminal, one_line

    text = "a\u202eb\u200bc\x1b[2J\td\u2028e"
    assert printable(text) == "a?b?c?[2J d e"
    assert " ".join(one_line(text, " ").split()) == "a b c [2J d e"
    assert "\x1b" not in for_terminal(text) and "\u202e" not in for_terminal(text)
