"""Evidence features for one (point, answer) pair, and the lexical and language helpers.

Embedding similarity alone confuses "talks about the same topic" with "states the point":
a bare list of buzzwords, a parroted question or a confident answer to another question
all sit close to the points in embedding space. Each feature here targets one of those
failure modes, and a calibrated scorer (:mod:`interviewer.grading.calibration`) weighs them:

``e``       best cosine between the point (or an alias) and any answer segment
``lex``     share of the point's terms found in the answer (technical names matched
            space-insensitively, Chinese by character bigrams, English by word stems)
``has_lex`` whether the point has any terms comparable in the answer's script
``short``   evidence length / point length, capped at 1: a bare name is short
``off``     how much closer the whole answer is to *another* question's points (<= 0)
``qpar``    how much more the evidence resembles the question than the point (parroting)
``margin``  how much better the evidence fits this point than the next-best point
``pq``      how close the point itself is to the question (generic points match anything)
``xl``      the answer is in the other language than the point (lexical is mute there)
``e_xl``    ``e`` when ``xl``: cross-lingual similarities run lower
``xl_zh``   ``xl`` one way: a Chinese answer to an English point (the two directions
            measure differently: English terms survive in Chinese answers, not back)
``e_xl_zh`` ``e`` when ``xl_zh``
``denies``  the evidence has more denials than the point (:mod:`interviewer.grading.stance`)
``stance``  ... or more words taking a stance (其实, 反而, 不用, actually, no need)
``parts``   for a point of several claims (:func:`~interviewer.grading.naming.point_parts`),
            the mean over its claims of each one's best cosine with any span; else the
            point's own best cosine
``parts_min`` ... the least of them: the claim the answer says least
``a_conflict`` the share of the question's points that the answer's spans closest to them
            contradict (:mod:`interviewer.grading.claims`), the same in every row of an
            answer: a confident wrong answer says several of its points otherwise, and its
            words for the others are no better evidence
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from interviewer.grading.glossary import glossary
from interviewer.grading.glossary import squash as _squash
from interviewer.content.language import CJK as _CJK
from interviewer.content.language import CJK_RUN as _CJK_RUN
from interviewer.content.language import cjk_count, language_of

FEATURES = ("e", "lex", "has_lex", "short", "off", "qpar", "margin", "pq", "xl", "e_xl",
            "xl_zh", "e_xl_zh", "denies", "stance", "parts", "parts_min", "a_conflict")
# the features of the scorers fitted before the direction of a cross-language answer was one
BASE_FEATURES = FEATURES[:10]

_LATIN_RUN = re.compile(r"[A-Za-z0-9][A-Za-z0-9+\-_/. ]*[A-Za-z0-9+]|[A-Za-z]")
_WORD = re.compile(r"[a-z][a-z0-9]*|[0-9]+")
_STOP = frozenset(
    "a an the of to in on for and or is are be by with as at it its this that from into so "
    "than then can per each all any use used using when which what how do does not no".split())
MIN_CJK_FOR_BIGRAMS = 4  # an answer with fewer CJK characters is read as English


def _stem(word: str) -> str:
    """Suffix stripping, deliberately crude: ``states`` and ``state`` do not meet.

    A fuller stemmer that joins such pairs measured worse (in the history of BENCHMARKS.md): more
    term matches in poor answers. Measure before making it smarter.
    """
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > 4 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


@dataclass(frozen=True)
class AnswerText:
    """An answer prepared once for lexical matching against many points."""

    raw: str
    squashed: str
    stems: frozenset[str]
    language: str
    cjk: int
    lowered: str = ""

    @classmethod
    def of(cls, answer: str) -> AnswerText:
        return cls(raw=answer, squashed=_squash(answer),
                   stems=frozenset(_stem(w) for w in _WORD.findall(answer.lower())),
                   language=language_of(answer), cjk=cjk_count(answer),
                   lowered=answer.lower())


def lexical_units(point: str, answer: AnswerText) -> list[tuple[str, bool]]:
    """The point's terms comparable with this answer, each with whether the answer has it.

    Latin runs inside a Chinese point (``Flash Attention``, ``torch.compile``) are names and
    match whole; an English point is matched word by word (stems, no stop words); Chinese is
    matched by character bigrams, but only when the answer itself has Chinese in it. Keys
    name the term and how it was matched (``r:`` a whole run, ``w:`` a stem, ``g:`` a bigram).
    """
    units: list[tuple[str, bool]] = []
    chinese_point = bool(_CJK.search(point))
    named = point_terms(point)
    for set_id, alias in named:
        # a glossary term counts when the answer names it in any of its equivalents
        units.append((f"t:{set_id}", glossary().names_set(set_id, answer.lowered,
                                                          answer.squashed)))
        point = _loose(alias).sub(" ", point)
    for run in _LATIN_RUN.findall(point):
        words = [w for w in _WORD.findall(run.lower()) if w not in _STOP]
        if not words:
            continue
        if chinese_point:
            units.append(("r:" + _squash(run), _squash(run) in answer.squashed))
        else:
            # an English point is matched word by word, whatever the answer's language:
            # "再用speculative decoding" states "Use speculative decoding" in Chinese
            units += [("w:" + _stem(w), _stem(w) in answer.stems
                       or (len(w) > 3 and w in answer.squashed)) for w in words]
    if answer.cjk >= MIN_CJK_FOR_BIGRAMS:
        for run in _CJK_RUN.findall(point):
            grams = [run[i:i + 2] for i in range(len(run) - 1)] or [run]
            units += [("g:" + g, g in answer.raw) for g in grams]
    return units


@lru_cache(maxsize=4096)
def _loose(alias: str) -> re.Pattern[str]:
    """``alias`` as written in any spacing or case: "FlashAttention" finds "Flash Attention"."""
    chars = [re.escape(c) for c in _squash(alias)]
    return re.compile(r"[\s\-_./]*".join(chars), re.IGNORECASE)


@lru_cache(maxsize=4096)
def point_terms(point: str) -> tuple[tuple[int, str], ...]:
    """The glossary terms a point names (cached: points repeat across answers)."""
    return tuple(glossary().named_sets(point))


def lexical_recall(point: str, answer: AnswerText) -> float | None:
    """Share of the point's terms present in the answer; None when none are comparable."""
    units = lexical_units(point, answer)
    return sum(hit for _, hit in units) / len(units) if units else None


def names_own_term(point: str, answer: AnswerText) -> bool:
    """Whether the answer names one of the point's terms (a glossary term or a Latin name)."""
    return any(hit for key, hit in lexical_units(point, answer) if key[:2] in ("t:", "r:", "w:"))


def is_cross_lingual(point: str, answer: AnswerText) -> bool:
    if _CJK.search(point):
        return answer.cjk < MIN_CJK_FOR_BIGRAMS
    return answer.language == "zh"


def feature_row(*, e: float, lex: float | None, evidence_len: int, point_len: int, off: float,
                seg_question: float, second: float, point_question: float,
                cross: bool, into_chinese: bool = False,
                marks: tuple[float, float] = (0.0, 0.0),
                parts: tuple[float, float] | None = None,
                conflicts: float = 0.0,
                pair: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    xl = 1.0 if cross else 0.0
    xl_zh = 1.0 if cross and into_chinese else 0.0
    return np.array([
        e,
        0.0 if lex is None else lex,
        0.0 if lex is None else 1.0,
        min(1.0, evidence_len / max(1, point_len)),
        min(0.0, off),
        max(0.0, seg_question - e),
        e - second,
        point_question,
        xl,
        e * xl,
        xl_zh,
        e * xl_zh,
        *marks,
        *((e, e) if parts is None else parts),
        conflicts,
        *(() if pair is None else pair_features(*pair)),
    ], dtype=np.float64)


def pair_features(point: np.ndarray, span: np.ndarray, answer: np.ndarray) -> np.ndarray:
    """What the vectors say beyond one cosine: where the point and its evidence agree and
    differ, dimension by dimension, and where the point and the whole answer agree."""
    return np.concatenate([point * span, np.abs(point - span), point * answer])
