"""Scoring an answer for key-point coverage.

For each rubric point the grader finds the answer span (sentence or clause) that
expresses it best, computes evidence features for that match
(:mod:`interviewer.grading.features`), and lets the model's calibrated scorer turn them into
covered / partial / missed. The score is the weighted mean of credits (covered 1,
partial 0.5). The answer is only ever embedded and compared: nothing in it is read as
an instruction, so asking for a score cannot earn one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from itertools import islice

import numpy as np

from interviewer.grading.calibration import Scorer
from interviewer.grading.claims import contradiction, is_bare, is_term_list, names_neighbour, topic_core
from interviewer.grading.naming import point_parts
from interviewer.grading.encoders.backends import CachingEmbedder, Embedder
from interviewer.grading.features import (
    FEATURES,
    AnswerText,
    feature_row,
    is_cross_lingual,
    lexical_recall,
    names_own_term,
)
from interviewer.grading.grade import CREDIT, Grade, PointResult
from interviewer.grading.reasons import reason
from interviewer.grading.stance import stance_marks
from interviewer.content.rubric import Point, QuestionRubric, Rubric
from interviewer.content.segment import evidence_spans, sentence_of, split_sentences
from interviewer.content.language import CJK as _CJK
from interviewer.content.language import language_of

CONFLICT_CANDIDATES = 3  # the closest spans checked for contradicting a point
TERM_LIST_CAP = 0.25  # an answer that only names things scores at most this
ONE_CLAIM_CHARS = 40  # a clause this short states one thing: it covers one point, unless
# the other points' own terms are in it too
# An answer is graded on its first 8,000 characters (a long spoken answer is 2,000-3,000):
# grading time grows faster than length (50,000 characters took 7 s), and a grade should
# come while the candidate waits. The answer itself is kept whole.
MAX_GRADED_CHARS = 8000
LONG_NOTE = f"only the first {MAX_GRADED_CHARS:,} characters were graded"
_SENTENCE_END = "。！？!?.\n"


def graded_part(answer: str) -> str:
    """The part of an answer that is graded: all of it, or its first ``MAX_GRADED_CHARS``
    characters ending at a sentence end when one is near."""
    if len(answer) <= MAX_GRADED_CHARS:
        return answer
    head = answer[:MAX_GRADED_CHARS]
    end = max(head.rfind(c) for c in _SENTENCE_END)
    return head[:end + 1] if end >= MAX_GRADED_CHARS - 500 else head


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


def _topic_texts(q: QuestionRubric) -> list[str]:
    return [q.question or question_profile(q), question_profile(q), *(p.text for p in q.points)]


def question_profile(q: QuestionRubric) -> str:
    """A question's content as one text: its points joined (used to spot off-topic answers)."""
    return "；".join(p.text for p in q.points)


class Grader:
    """Grades answers against a rubric with one embedder and its calibrated scorer."""

    def __init__(self, embedder: Embedder, scorer: Scorer | Callable[[], Scorer]) -> None:
        """``scorer`` may be given as a function, called on the first grade: the factory
        (:mod:`interviewer.factory`) reads the calibration file only then. The grader opens
        no file itself: a disk cache comes inside a :class:`CachingEmbedder`."""
        self.embedder = embedder if isinstance(embedder, CachingEmbedder) else \
            CachingEmbedder(embedder)
        self._scorer = scorer if isinstance(scorer, Scorer) else None
        self._load_scorer = None if isinstance(scorer, Scorer) else scorer

    @property
    def model_id(self) -> str:
        return self.embedder.model_id

    @property
    def scorer(self) -> Scorer:
        if self._scorer is None:
            self._scorer = self._load_scorer()
        return self._scorer

    def warm_up(self, rubric: Rubric | None = None) -> None:
        """Load the model and encode the rubric, so the first grade is quick."""
        self.embedder.embed(["warm up"])
        if rubric is not None:
            texts = []
            for q in rubric.questions:
                texts += [q.question or question_profile(q), question_profile(q)]
                texts += [t for p in q.points for t in point_texts(p)]
                texts += [t for p in q.points for t in point_parts(p.text)]
            self.embedder.embed(texts, persist=True)
            from interviewer.grading.warm import prepare_rules

            prepare_rules(rubric)

    def prefetch(self, answers: list[str]) -> None:
        """Encode the spans of many answers in one call, so grading them hits the cache.

        The encoder streams its weights once per batch; one batch for several answers is
        cheaper than one per answer (bench/speed.py measures the batch rate).
        """
        if answers:
            parts = [graded_part(a) for a in answers]
            self.embedder.embed_answers([(a, evidence_spans(a)) for a in parts])

    def evidence(self, rubric: Rubric, question_id: str, answer: str,
                 only: Collection[str] | None = None) -> Evidence:
        question = rubric.question(question_id)
        points = tuple(p for p in question.points if only is None or p.id in only)
        spans = evidence_spans(answer)
        if not spans:
            return Evidence(np.zeros((len(points), 0)), [None] * len(points), np.zeros(len(points)),
                            also=[()] * len(points))
        siblings = [q for q in rubric.questions if q.id != question_id]
        alias_lists = [point_texts(p) for p in points]
        # what each question is about: its wording, its points together, each point alone
        topics = [_topic_texts(q) for q in (question, *siblings)]
        part_lists = [point_parts(p.text) for p in points]
        n_parts = sum(len(t) for t in part_lists)
        fixed = [t for texts in alias_lists for t in texts] + [t for q in topics for t in q] \
            + [t for texts in part_lists for t in texts]
        # rubric texts come from the caches (memory, then disk); only the answer is encoded
        vectors = np.vstack([self.embedder.embed(fixed, persist=True),
                             self.embedder.embed_answers([(answer, spans)])[0]])
        n_alias = sum(len(t) for t in alias_lists)
        alias_vecs = vectors[:n_alias]
        q_vec = vectors[n_alias]
        span_vecs = vectors[len(fixed):-1]
        answer_vec = vectors[-1]
        start, closeness = n_alias, []
        for texts in topics:
            closeness.append(float((vectors[start:start + len(texts)] @ answer_vec).max()))
            start += len(texts)
        # how much closer the answer is to another question than to its own; a one-point
        # answer is close to its own question through that point
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

        to_question = span_vecs @ q_vec
        # a span in the other language than the question restates it at a lower similarity
        q_lang = language_of(question.question or question_profile(question))
        cross = np.array([language_of(s) != q_lang for s in spans], dtype=bool)
        parrot = np.where(cross, self.scorer.cutoff("parrot_similarity_cross"),
                          self.scorer.cutoff("parrot_similarity"))
        restating = float(np.mean(to_question >= parrot))
        prepared = AnswerText.of(answer)

        # the share of each point's terms in the answer: the best of its aliases
        lex = [max((v for v in (lexical_recall(t, prepared) for t in texts) if v is not None),
                   default=None) for texts in alias_lists]

        def row(i: int, j: int) -> np.ndarray:
            others = np.delete(sims[:, j], i)
            return feature_row(
                e=float(sims[i, j]), lex=lex[i],
                evidence_len=len(spans[j]), point_len=len(points[i].text), off=off,
                seg_question=float(span_vecs[j] @ q_vec),
                second=float(others.max()) if others.size else 0.0,
                point_question=float(point_vecs[i] @ q_vec),
                cross=is_cross_lingual(points[i].text, prepared),
                into_chinese=not _CJK.search(points[i].text),
                marks=stance_marks(points[i].text, spans[j]), parts=parts[i],
                pair=(point_vecs[i], span_vecs[j], answer_vec))

        context = sentence_of(answer, spans)
        memo: dict[tuple[str, str], str | None] = {}

        def contradicts(point_text: str, text: str) -> str | None:
            """contradiction(), once per pair: a sentence is read for each of its clauses."""
            key = (point_text, text)
            if key not in memo:
                memo[key] = contradiction(point_text, text)
            return memo[key]

        unsupported: set[int] = set()  # points whose every candidate span contradicts them
        rows, best_spans, best_sims, conflicts, claims = [], [], [], [], []
        for i, point in enumerate(points):
            order = np.argsort(-sims[i])
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
                kind = contradicts(point.text, spans[k]) or (
                    contradicts(point.text, context[k]) if context[k] != spans[k] else None)
                if kind is None:
                    j = k
                    break
                against.append(k)
                if conflict is None:
                    conflict = (spans[k], row(i, k), kind)
            else:
                # every close span contradicts the point: the best of the rest that does not
                # is evidence (the sentence holding a contradicting clause contradicts too)
                for k in usable:
                    if not contradicts(point.text, spans[k]):
                        j = k
                        break
                    against.append(k)
                else:
                    unsupported.add(i)  # j stays the closest span
            if against and j not in against:
                # the point's terms in a sentence that says otherwise lend nothing to another
                # sentence: its terms are counted in the answer without those sentences
                said = answer
                for k in against:
                    said = said.replace(context[k], " ")
                kept = AnswerText.of(said)
                lex[i] = max((v for v in (lexical_recall(t, kept) for t in alias_lists[i])
                              if v is not None), default=None)
            rows.append(row(i, j))
            claims.append(_claim_spans(spans, j, [k for k in part_spans[i] if k not in against]))
            best_spans.append(spans[j])
            best_sims.append(float(sims[i, j]))
            conflicts.append(conflict)
        # how much of the answer says its points otherwise, in every row (the conflicts' too)
        share = sum(c is not None for c in conflicts) / len(points)
        rows = np.vstack(rows)
        rows[:, _A_CONFLICT] = share
        for c in conflicts:
            if c is not None:
                c[1][_A_CONFLICT] = share
        sentences = split_sentences(answer)
        term_list = bool(sentences) and (all(is_bare(s) for s in sentences)
                                         or is_term_list(answer))
        named = {i for i, (point, span) in enumerate(zip(points, best_spans))
                 if i not in unsupported and is_bare(point.text)
                 and is_bare(_USE.sub("", span, count=1))
                 and names_own_term(point.text, AnswerText.of(span))}
        if named:
            asked = AnswerText.of(question.question)
            named = {i for i in named if not names_own_term(points[i].text, asked)}
        return Evidence(rows, best_spans, np.asarray(best_sims), restating,
                        conflicts, term_list, unsupported, to_question, cross, named, claims)

    def grade(self, rubric: Rubric, question_id: str, answer: str,
              only: Collection[str] | None = None) -> Grade:
        """Grade an answer; ``only`` limits it to some points (a follow-up's targets)."""
        question = rubric.question(question_id)
        points = tuple(p for p in question.points if only is None or p.id in only)
        ev = self.evidence(rubric, question_id, graded_part(answer), only)
        # points a person wrote read differently from extracted ones (shorter, topics, the
        # author's own words): each kind has the scorer fitted to it
        scorer = self.scorer.for_points(hand=rubric.is_hand_edited(question_id))
        d = decide(points, ev, scorer)
        # an answer that earns something here, or names one of this question's own terms
        # ("用混合精度", which other questions' points name too), is about this question
        # whatever else it says
        earns = any(v in ("covered", "partial") for v in d.verdicts)
        if not earns:
            said = AnswerText.of(graded_part(answer))
            earns = any(names_own_term(p.text, said) for p in points)
        results = tuple(PointResult(
            point_id=point.id, text=point.text, group=point.group, weight=point.weight,
            verdict=d.verdicts[i], probability=float(d.probs[i]),
            similarity=float(ev.similarities[i]),
            evidence=d.evidence[i] if d.verdicts[i] != "missed" else None,
            also=ev.also[i] if d.verdicts[i] == "covered" and not ev.term_list
            and d.evidence[i] == ev.spans[i] else (),
            reason=d.why[i] or reason(d.verdicts[i], ev, i, scorer, earns))
            for i, point in enumerate(points))
        return Grade(question_id=question_id, answer=answer, score=d.score, points=results,
                     model_id=self.model_id,
                     calibration=scorer.source if scorer.calibrated else "uncalibrated",
                     note="; ".join(n for n in (d.note, len(answer) > MAX_GRADED_CHARS
                                                and LONG_NOTE) if n) or None)


def _claim_spans(spans: Sequence[str], main: int, best: list[int]) -> tuple[str, ...]:
    """The spans, besides ``spans[main]``, that match a compound point's claims best, in the
    answer's order: none that holds another or lies inside another (a sentence and its
    clause say one thing once)."""
    chosen = [main]
    for k in sorted(set(best), key=lambda k: (k, -len(spans[k]))):
        if all(spans[k] not in spans[c] and spans[c] not in spans[k] for c in chosen):
            chosen.append(k)
    return tuple(spans[k] for k in sorted(chosen[1:]))


@dataclass
class Decision:
    """Per point: verdict, quoted evidence, a reason when a rule set it; the answer's score."""

    probs: np.ndarray
    verdicts: list[str]
    evidence: list[str | None]
    why: list[str]
    score: float
    note: str | None

    @property
    def credits(self) -> np.ndarray:
        return np.array([CREDIT[v] for v in self.verdicts])


def decide(points: Sequence[Point], ev: Evidence, scorer: Scorer) -> Decision:
    """Verdicts from the scorer's probabilities, then the claim rules on top of them.

    - a point whose closest spans contradict it (:mod:`interviewer.grading.claims`) and that the
      answer does not also state elsewhere is ``contradicted`` (credit 0);
    - a bare name, or any point of an answer that is only a list of names, is at most partial;
      a point that is only a name is at least partial when a bare name names it;
    - a short clause covers one point, unless the others' own terms are in it too;
    - an answer that is only a list of names scores at most ``TERM_LIST_CAP``.
    """
    n = len(points)
    probs = scorer.probability(ev.rows) if ev.rows.shape[1] else np.zeros(n)
    verdicts = [scorer.verdict(float(probs[i]))
                if ev.spans[i] is not None and i not in ev.unsupported else "missed"
                for i in range(n)]
    evidence, why = list(ev.spans), [""] * n
    closeness = scorer.closeness
    for i, conflict in enumerate(ev.conflicts):
        if conflict is None or verdicts[i] == "covered":
            continue
        span, row, kind = conflict
        if closeness.verdict(float(closeness.probability(_unmarked(row))[0])) != "missed":
            # the answer's closest words to the point say otherwise
            verdicts[i], evidence[i], why[i] = "contradicted", span, CONTRADICTION[kind]
    for i in range(n):
        # a bare name states a point that is only a name, inside an answer that says
        # something; it does not state a claim, and a list of names states nothing
        bare = ev.term_list or (evidence[i] is not None and is_bare(evidence[i])
                                and not is_bare(points[i].text))
        if verdicts[i] == "covered" and bare:
            verdicts[i], why[i] = "partial", NAMED
        elif verdicts[i] == "missed" and i in ev.named:
            # only named: what the labeling rule gives a name (混合精度 for 混合精度训练)
            verdicts[i], why[i] = "partial", NAMED
    _one_claim_per_clause(points, verdicts, evidence, why, probs)
    total = sum(p.weight for p in points)
    score = sum(p.weight * CREDIT[v] for p, v in zip(points, verdicts)) / total if total else 0.0
    note = None
    if ev.term_list and score > TERM_LIST_CAP:
        score, note = TERM_LIST_CAP, TERM_LIST_NOTE
    return Decision(probs, verdicts, evidence, why, score, note)


_A_CONFLICT = FEATURES.index("a_conflict")
_MARKS = [FEATURES.index("denies"), FEATURES.index("stance"), _A_CONFLICT]


def _unmarked(row: np.ndarray) -> np.ndarray:
    """A span's row without its denials and stance words, nor how much of the answer
    contradicts its points: whether the span is about the point closely enough to
    contradict it is asked of its words, not of how it says them (which is what the
    contradiction is)."""
    out = np.array(row, dtype=np.float64, copy=True)
    out[..., _MARKS] = 0.0
    return out


NAMED = "named, but not explained: say what it does or why it matters"
TERM_LIST_NOTE = (f"only a list of terms: at most {TERM_LIST_CAP:.0%}; say what each one does "
                  "or why it matters")
CONTRADICTION = {
    "negated": "contradicted: your answer denies this",
    "reversed": "contradicted: your answer says the opposite direction",
    "swapped": "contradicted: your answer names something else in its place",
    "narrowed": "contradicted: your answer limits to one of them what holds for several",
    "widened": "contradicted: your answer says of several what holds for only one",
    "number": "contradicted: your answer gives another number",
    "roles": "contradicted: your answer says of one of them what holds for another",
}


def _one_claim_per_clause(points, verdicts: list[str], evidence: list[str | None],
                          why: list[str], probs: np.ndarray) -> None:
    """A short clause covers one point, unless the others' own terms are in it too.

    "DeepSpeed是一个训练框架" states one thing; it does not also cover "DeepSpeed-Chat：RLHF
    训练框架" because the two sit close in embedding space.
    """
    by_span: dict[str, list[int]] = {}
    for i, span in enumerate(evidence):
        if verdicts[i] == "covered" and span is not None and len(span) <= ONE_CLAIM_CHARS:
            by_span.setdefault(span, []).append(i)
    for span, members in by_span.items():
        if len(members) < 2:
            continue
        prepared = AnswerText.of(span)
        keep = max(members, key=lambda i: probs[i])
        for i in members:
            if i != keep and not names_own_term(points[i].text, prepared):
                verdicts[i], why[i] = "partial", ("touched on: the clause that comes closest "
                                                  "states another point")
