"""Whether a follow-up an LLM wrote can be put to a candidate.

Small local models, even with JSON forced, reply with the prompt's own placeholder, the
candidate's answer echoed back, the wrong language, a reference point nearly verbatim, a
URL or a bare number. A follow-up is used only if it is a question, in the question's
language, and neither repeats the answer nor gives away a reference point's wording;
:func:`unusable_reason` says which rule it broke. Plain ``re``: no numpy, no network.
"""

from __future__ import annotations

import re

from interviewer.content.language import CJK_CHARS, language_of
from interviewer.content.rubric import QuestionRubric

LANGUAGE_NAMES = {"zh": "Chinese", "en": "English"}
ECHO_SHARE = 0.7  # this share of the follow-up's token pairs found in the answer: an echo
REVEAL_SHARE = 0.7  # this share of a point's token pairs in the follow-up: the point told
REVEAL_RUN = 0.6  # ... or a shared run of tokens this long relative to the point
MIN_PAIRS = 4  # shorter texts are names, not wording to repeat or reveal

_TOKEN = re.compile(f"[{CJK_CHARS}]|[a-z0-9]+")
_URL = re.compile(r"https?://|www\.|\b[a-z0-9-]+\.(?:com|org|net|io|ai|cn)\b", re.I)
_LETTER = re.compile(f"[A-Za-z{CJK_CHARS}]")
_PLACEHOLDER = re.compile(
    r"<[^<>]{0,60}>|\[[^\[\]]{0,60}\]|\byour (?:question|follow-?up)\b|\bpoint ids?\b"
    r"|你的(?:问题|追问)|追问内容|问题内容", re.I)
_ZH_ASKING = re.compile(r"吗|呢|什么|为什么|如何|怎么|怎样|哪|是否|多少|几|请|说说|谈谈|讲讲|解释|介绍|比较")
_EN_ASKING = re.compile(
    r"^(?:what|why|how|when|where|which|who|whom|whose|can|could|would|will|do|does|did|is|"
    r"are|was|were|should|shall|may|might|have|has|explain|describe|walk|tell|compare|"
    r"suppose|imagine|give|in what|if)\b", re.I)


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def _pairs(tokens: list[str]) -> set[tuple[str, str]]:
    return set(zip(tokens, tokens[1:]))


def _longest_run(a: list[str], b: list[str]) -> int:
    """Length of the longest run of tokens the two share."""
    best, prev = 0, [0] * (len(b) + 1)
    for x in a:
        cur = [0] * (len(b) + 1)
        for j, y in enumerate(b, 1):
            if x == y:
                cur[j] = prev[j - 1] + 1
                best = max(best, cur[j])
        prev = cur
    return best


def is_question(text: str, language: str) -> bool:
    """Ends with a question mark, or asks (a question word, or a request to explain)."""
    body = text.strip().rstrip("\"'”’」』）) ")
    if body.endswith(("?", "？")):
        return True
    if language == "zh":
        return bool(_ZH_ASKING.search(body))
    return bool(_EN_ASKING.match(body.lstrip("\"'“‘(")))


def unusable_reason(text: str, question: QuestionRubric, answer: str, language: str,
                    check_points: bool = True) -> str | None:
    """Why ``text`` cannot be asked as the follow-up; None when it can."""
    if _URL.search(text):
        return "the follow-up contains a link"
    if not _LETTER.search(text):
        return "the follow-up is not a question"
    if _PLACEHOLDER.search(text):
        return "the follow-up is the prompt's placeholder"
    written = language_of(text)
    if written != language:
        return (f"the follow-up is in {LANGUAGE_NAMES.get(written, written)}, not in the "
                f"question's language ({LANGUAGE_NAMES.get(language, language)})")
    tokens = _tokens(text)
    own = _pairs(tokens)
    if len(own) >= MIN_PAIRS and len(own & _pairs(_tokens(answer))) >= ECHO_SHARE * len(own):
        return "the follow-up repeats the candidate's answer"
    if check_points:
        for point in question.points:
            theirs_tokens = _tokens(point.text)
            theirs = _pairs(theirs_tokens)
            if len(theirs) < MIN_PAIRS:
                continue
            if (len(theirs & own) >= REVEAL_SHARE * len(theirs)
                    or _longest_run(theirs_tokens, tokens) >= max(MIN_PAIRS + 1,
                                                                   REVEAL_RUN * len(theirs_tokens))):
                return "the follow-up gives away a reference point's wording"
    if not is_question(text, language):
        return "the follow-up is not a question"
    return None
