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
