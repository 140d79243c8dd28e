"""What an answer offers for each rubric point: its best span, feature rows, contradictions.

For each point the answer's spans (sentences and clauses) are matched in the encoder's
space; the closest span that does not contradict the point is its evidence, and the
closest one that does is kept as the contradiction. The verdicts are decided from this
elsewhere (:mod:`interviewer.grading.decision`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from itertools import islice

import numpy as np

from interviewer.content.language import CJK as _CJK
from interviewer.content.language import language_of
from interviewer.content.rubric import Point, QuestionRubric, Rubric
from interviewer.content.segment import evidence_spans, sentence_of, split_sentences
from interviewer.grading.calibration import Scorer
from interviewer.grading.claims import contradiction, is_bare, is_term_list, names_neighbour, topic_core
from interviewer.grading.compared import Compared, compared_things
from interviewer.grading.encoders.backends import CachingEmbedder
from interviewer.grading.features import (
    FEATURES,
    AnswerText,
    feature_row,
    is_cross_lingual,
    lexical_recall,
    names_own_term,
)
from interviewer.grading.naming import point_parts
from interviewer.grading.stance import stance_marks

CONFLICT_CANDIDATES = 3  # the closest spans checked for contradicting a point
A_CONFLICT = FEATURES.index("a_conflict")


@dataclass(frozen=True)
class Evidence:
    """Per point of one question: feature rows, best span and its similarity."""

    rows: np.ndarray
    spans: list[str | None]
    similarities: np.ndarray
    restating: float = 0.0  # share of the answer's spans that say the question again
    # per point: the best span that contradicts it, its feature row and how it contradicts
    conflicts: list[tuple[str, np.ndarray, str] | None] = field(default_factory=list)
    term_list: bool = False  # the whole answer only names things
    unsupported: set[int] = field(default_factory=set)  # every close span contradicts these
    # each span's similarity to the question (what "restates the question" is read from)
    question_similarity: np.ndarray = field(default_factory=lambda: np.zeros(0))
    # each span: whether it is in the other language than the question
    question_cross: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    # points that are only a name, whose best span is a bare name of one of their own terms,
    # not the question's
    named: set[int] = field(default_factory=set)
    # per point of several claims: the answer's other spans that state its other claims
    also: list[tuple[str, ...]] = field(default_factory=list)


# "用混合精度", "use FlashAttention": a name after a verb of use says nothing more about it
_USE = re.compile(r"^\s*(?:(?:可以|可|要|就|再|先|还可以|还要)?"
                  r"(?:使用|采用|启用|开启|打开|用上|用|开|上|加上)"
                  r"|(?:use|using|enable|apply|try|add)\b)", re.IGNORECASE)


def point_texts(point: Point) -> list[str]:
    """The point and its aliases; a match with any of them counts. A point written as a
    topic ("说明 X", "Explain why Y") is also matched by what it is about."""
    core = topic_core(point.text)
    return [point.text, *([core] if core != point.text else []), *point.keywords]


def question_profile(q: QuestionRubric) -> str:
    """A question's content as one text: its points joined (used to spot off-topic answers)."""
    return "；".join(p.text for p in q.points)


def _topic_texts(q: QuestionRubric) -> list[str]:
    return [q.question or question_profile(q), question_profile(q), *(p.text for p in q.points)]


@dataclass(frozen=True)
class _Match:
    """One answer's spans against one question's points in the encoder's space."""

    alias_lists: list[list[str]]  # per point: its texts (point_texts)
    sims: np.ndarray  # point × span: the best of the point's texts
    point_vecs: np.ndarray
    span_vecs: np.ndarray
    question_vec: np.ndarray
    answer_vec: np.ndarray
    off: float  # how much closer the answer is to another question than to its own
    parts: list[tuple[float, float]]  # per point: its claims' best similarities, mean and least
    part_spans: list[list[int]]  # per point: the span closest to each of its claims


def _match(embedder: CachingEmbedder, rubric: Rubric, question: QuestionRubric,
           points: Sequence[Point], answer: str, spans: list[str]) -> _Match:
    siblings = [q for q in rubric.questions if q.id != question.id]
    alias_lists = [point_texts(p) for p in points]
    # what each question is about: its wording, its points together, each point alone
    topics = [_topic_texts(q) for q in (question, *siblings)]
    part_lists = [point_parts(p.text) for p in points]
    n_parts = sum(len(t) for t in part_lists)
    fixed = [t for texts in alias_lists for t in texts] + [t for q in topics for t in q] \
        + [t for texts in part_lists for t in texts]
    # rubric texts come from the caches (memory, then disk); only the answer is encoded
    vectors = np.vstack([embedder.embed(fixed, persist=True),
                         embedder.embed_answers([(answer, spans)])[0]])
    n_alias = sum(len(t) for t in alias_lists)
    alias_vecs = vectors[:n_alias]
    span_vecs = vectors[len(fixed):-1]
    answer_vec = vectors[-1]
    start, closeness = n_alias, []
    for texts in topics:
        closeness.append(float((vectors[start:start + len(texts)] @ answer_vec).max()))
        start += len(texts)
    # a one-point answer is close to its own question through that point
    off = closeness[0] - max(closeness[1:]) if siblings else 0.0

    alias_sims = alias_vecs @ span_vecs.T
    sims = np.empty((len(points), len(spans)))
    point_vecs = np.empty((len(points), vectors.shape[1]))
    start = 0
    for i, texts in enumerate(alias_lists):
        sims[i] = alias_sims[start:start + len(texts)].max(axis=0)
        point_vecs[i] = alias_vecs[start]
        start += len(texts)
    # each claim of a compound point, matched on its own: the mean and the least
    part_sims = vectors[len(fixed) - n_parts:len(fixed)] @ span_vecs.T if n_parts \
        else np.zeros((0, len(spans)))
    part_best, part_where = part_sims.max(axis=1), part_sims.argmax(axis=1)
    parts, part_spans, start = [], [], 0
    for i, texts in enumerate(part_lists):
        best = part_best[start:start + len(texts)] if texts else sims[i].max(keepdims=True)
        parts.append((float(best.mean()), float(best.min())))
        part_spans.append([int(k) for k in part_where[start:start + len(texts)]])
        start += len(texts)
    return _Match(alias_lists, sims, point_vecs, span_vecs, vectors[n_alias], answer_vec, off,
                  parts, part_spans)


def _recall(texts: list[str], said: AnswerText) -> float | None:
    """The share of a point's terms in the answer: the best of its texts."""
    return max((v for v in (lexical_recall(t, said) for t in texts) if v is not None),
               default=None)


class _Reader:
    """The evidence of one answer for one question's points, point by point."""

    def __init__(self, scorer: Scorer, question: QuestionRubric, points: Sequence[Point],
                 answer: str, spans: list[str], match: _Match) -> None:
        self.points, self.answer, self.spans, self.m = points, answer, spans, match
        self.alias_lists = match.alias_lists
        self.prepared = AnswerText.of(answer)
        self.lex = [_recall(texts, self.prepared) for texts in self.alias_lists]
        self.to_question = match.span_vecs @ match.question_vec
        # a span in the other language than the question restates it at a lower similarity
        q_lang = language_of(question.question or question_profile(question))
        self.cross = np.array([language_of(s) != q_lang for s in spans], dtype=bool)
        parrot = np.where(self.cross, scorer.cutoff("parrot_similarity_cross"),
                          scorer.cutoff("parrot_similarity"))
        self.restating = float(np.mean(self.to_question >= parrot))
        self.context = sentence_of(answer, spans)
        self.compared = Compared(compared_things(question.question),
                                 tuple(p.text for p in question.points))
        self._memo: dict[tuple[str, str], str | None] = {}

    def row(self, i: int, j: int) -> np.ndarray:
        m, point = self.m, self.points[i]
        others = np.delete(m.sims[:, j], i)
        return feature_row(
            e=float(m.sims[i, j]), lex=self.lex[i],
            evidence_len=len(self.spans[j]), point_len=len(point.text), off=m.off,
            seg_question=float(m.span_vecs[j] @ m.question_vec),
            second=float(others.max()) if others.size else 0.0,
            point_question=float(m.point_vecs[i] @ m.question_vec),
            cross=is_cross_lingual(point.text, self.prepared),
            into_chinese=not _CJK.search(point.text),
            marks=stance_marks(point.text, self.spans[j]), parts=m.parts[i],
            pair=(m.point_vecs[i], m.span_vecs[j], m.answer_vec))

    def contradicts(self, point_text: str, text: str) -> str | None:
        """contradiction(), once per pair: a sentence is read for each of its clauses."""
        key = (point_text, text)
        if key not in self._memo:
            self._memo[key] = contradiction(point_text, text, self.compared)
        return self._memo[key]

    def choose(self, i: int) -> tuple[int, tuple[str, np.ndarray, str] | None, list[int], bool]:
        """The point's evidence span, its first contradiction, the spans that contradict it,
        and whether every span that could be evidence contradicts it."""
        point, spans, context = self.points[i], self.spans, self.context
        order = np.argsort(-self.m.sims[i])
        conflict, against = None, []
        # the closest spans that do not name a neighbour in its place, read lazily: the
        # rest are needed only when every candidate contradicts the point
        usable = (int(k) for k in order if not names_neighbour(point.text, spans[int(k)]))
        candidates = list(islice(usable, CONFLICT_CANDIDATES))
        j = candidates[0] if candidates else int(order[0])
        for k in candidates:
            # a clause is read with its sentence: "DeepSpeed是一个训练框架" says who made
            # it in the clause after, and "每张卡还是保存完整的优化器状态" follows "ZeRO
            # 不会对优化器状态做分片"
            kind = self.contradicts(point.text, spans[k]) or (
                self.contradicts(point.text, context[k]) if context[k] != spans[k] else None)
            if kind is None:
                return k, conflict, against, False
            against.append(k)
            if conflict is None:
                conflict = (spans[k], self.row(i, k), kind)
        # every close span contradicts the point: the best of the rest that does not is
        # evidence (the sentence holding a contradicting clause contradicts too)
        for k in usable:
            if not self.contradicts(point.text, spans[k]):
                return k, conflict, against, False
            against.append(k)
        return j, conflict, against, True  # j stays the closest span

    def without(self, i: int, against: list[int]) -> None:
        """The point's terms in sentences that say otherwise lend nothing to another
        sentence: its terms are counted in the answer without those sentences."""
        said = self.answer
        for k in against:
            said = said.replace(self.context[k], " ")
        self.lex[i] = _recall(self.alias_lists[i], AnswerText.of(said))

    def named(self, question: QuestionRubric, best_spans: list[str],
              unsupported: set[int]) -> set[int]:
        """Points that are only a name whose best span is a bare name of one of their own
        terms, and not of the question's."""
        named = {i for i, (point, span) in enumerate(zip(self.points, best_spans))
                 if i not in unsupported and is_bare(point.text)
                 and is_bare(_USE.sub("", span, count=1))
                 and names_own_term(point.text, AnswerText.of(span))}
        if named:
            asked = AnswerText.of(question.question)
            named = {i for i in named if not names_own_term(self.points[i].text, asked)}
        return named

    def evidence(self, question: QuestionRubric) -> Evidence:
        unsupported: set[int] = set()
        rows, best_spans, best_sims, conflicts, claims = [], [], [], [], []
        for i in range(len(self.points)):
            j, conflict, against, unsupported_i = self.choose(i)
            if unsupported_i:
                unsupported.add(i)
            if against and j not in against:
                self.without(i, against)
            rows.append(self.row(i, j))
            claims.append(_claim_spans(self.spans, j,
                                       [k for k in self.m.part_spans[i] if k not in against]))
            best_spans.append(self.spans[j])
            best_sims.append(float(self.m.sims[i, j]))
            conflicts.append(conflict)
        # how much of the answer says its points otherwise, in every row (the conflicts' too)
        share = sum(c is not None for c in conflicts) / len(self.points)
        rows = np.vstack(rows)
        rows[:, A_CONFLICT] = share
        for c in conflicts:
            if c is not None:
                c[1][A_CONFLICT] = share
        sentences = split_sentences(self.answer)
        term_list = bool(sentences) and (all(is_bare(s) for s in sentences)
                                         or is_term_list(self.answer))
        return Evidence(rows, best_spans, np.asarray(best_sims), self.restating, conflicts,
                        term_list, unsupported, self.to_question, self.cross,
                        self.named(question, best_spans, unsupported), claims)


def read_evidence(embedder: CachingEmbedder, scorer: Scorer, rubric: Rubric, question_id: str,
                  answer: str, only: Collection[str] | None = None) -> Evidence:
    """The evidence ``answer`` offers for each point of the question (``only``: some)."""
    question = rubric.question(question_id)
    points = tuple(p for p in question.points if only is None or p.id in only)
    spans = evidence_spans(answer)
    if not spans:
        return Evidence(np.zeros((len(points), 0)), [None] * len(points), np.zeros(len(points)),
                        also=[()] * len(points))
    match = _match(embedder, rubric, question, points, answer, spans)
    return _Reader(scorer, question, points, answer, spans, match).evidence(question)


def _claim_spans(spans: Sequence[str], main: int, best: list[int]) -> tuple[str, ...]:
    """The spans, besides ``spans[main]``, that match a compound point's claims best, in the
    answer's order: none that holds another or lies inside another (a sentence and its
    clause say one thing once)."""
    chosen = [main]
    for k in sorted(set(best), key=lambda k: (k, -len(spans[k]))):
        if all(spans[k] not in spans[c] and spans[c] not in spans[k] for c in chosen):
            chosen.append(k)
    return tuple(spans[k] for k in sorted(chosen[1:]))
