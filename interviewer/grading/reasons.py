"""Why a point got its verdict, in words a candidate can act on.

Read from the feature rows the grader computed and the evidence spans; no model.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from interviewer.content.language import CJK
from interviewer.grading.features import FEATURES
from interviewer.grading.naming import is_bare

if TYPE_CHECKING:
    from interviewer.grading.calibration import Scorer
    from interviewer.grading.evidence import Evidence

BARE_NAME_RATIO = 0.5  # a bare name under half the point's length: named, not explained
RESTATING_SHARE = 0.3  # ... and an answer with this share of such spans mostly restates it
# an answer about another question says something: a span of this many characters at least
# (a Latin word counts two); "不知道，跳过" or "no idea" is about nothing
OFF_TOPIC_MIN_SIZE = 8
_LATIN_WORD = re.compile(r"[A-Za-z0-9]+")


def _says_something(ev: Evidence) -> bool:
    return any(len(CJK.findall(span)) + 2 * len(_LATIN_WORD.findall(span)) >= OFF_TOPIC_MIN_SIZE
               for span in ev.spans if span)


def reason(verdict: str, ev: Evidence, i: int, scorer: Scorer, earns: bool = False) -> str:
    """Why the verdict, in words a candidate can act on."""
    span = ev.spans[i]
    if span is None:
        return "the answer is empty"
    row = dict(zip(FEATURES, ev.rows[i]))
    if verdict == "covered":
        return "stated in your answer"
    if verdict == "partial":
        if row["short"] < BARE_NAME_RATIO and is_bare(span):
            return "named, but not explained: say what it does or why it matters"
        return "touched on, but vague or incomplete"
    if ev.restating >= RESTATING_SHARE:
        return "not found: much of the answer restates the question"
    if not earns and row["off"] < scorer.cutoff("off_topic_margin") and _says_something(ev):
        return "not found: your answer seems to address a different question"
    return "not found in your answer"
