from __future__ import annotations

import pytest

from interviewer.grading.claim_text import _units


@pytest.mark.parametrize(("one", "other"), [
    ("stores", "stored"), ("storing", "store"),
    # a consonant doubled before -ed or -ing is the word's own once
    ("preferred", "prefers"), ("committed", "commits"), ("stopped", "stop"), ("running", "runs"),
    ("added", "adds"),
    # -ies and -ied are the word's -y
    ("queries", "query"), ("copied", "copy"),
    # ... and the doubled consonants English keeps
    ("passed", "passes"), ("called", "calls"), ("buffered", "buffer"),
])
def test_forms_of_one_word_are_one_unit(one: str, other: str) -> None:
    assert _units(one) == _units(other)


@pytest.mark.parametrize(("one", "other"), [("bed", "be"), ("need", "ne"), ("ties", "ty"), ("all", "al")])
def test_other_words_stay_apart(one: str, other: str) -> None:
    assert _units(one) != _units(other)
