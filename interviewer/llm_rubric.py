"""Key points proposed by an LLM, kept only where the reference answer backs them.

The extractor in :mod:`interviewer.rubric` splits what the reference answer says; an LLM can
word points better (atomic, self-contained) but may also invent. Every proposed point is
checked against the spans of the reference answer: it stays only if some span is close in
meaning (embedding similarity) or shares most of its terms. A question whose proposals all
fail keeps the extractor's points.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from interviewer.bank import Bank, Question
from interviewer.embedding import Embedder
from interviewer.features import AnswerText, lexical_recall
from interviewer.probing import InvalidReply, LLMProber, describe_failure, load_json_reply
from interviewer.rubric import (
    DraftPoint,
    Point,
    QuestionRubric,
    Rubric,
    point_id,
    points_fingerprint,
    rubric_for_question,
    sha256_text,
)
from interviewer.textseg import evidence_spans

GROUNDED_SIMILARITY = 0.6
GROUNDED_TERMS = 0.6
MAX_POINTS = 20

PROMPT = """\
Split the reference answer below into atomic key points for grading interview answers.
Each point states one idea that a candidate could say in their own words, self-contained
(name its subject), in the language of the reference answer. Use only what the reference
answer says; add nothing. Optionally give a short group label for points from one list.
Reply with JSON only: {"points": [{"text": "...", "group": "..." or null}, ...]}

Question: %s

<reference_answer>
%s
</reference_answer>
"""


@dataclass
class LLMRubricReport:
    rubric: Rubric
    kept: int
    dropped: list[tuple[str, str]]  # (question id, point text) not backed by the reference
    fallbacks: list[tuple[str, str]]  # (question id, why the extractor was used)


def parse_points(text: str) -> list[DraftPoint]:
    data = load_json_reply(text)
    raw = data.get("points") if isinstance(data, dict) else None
    if not isinstance(raw, list) or not raw:
        raise InvalidReply("the reply has no points")
    out = []
    for item in raw[:MAX_POINTS]:
        if not isinstance(item, dict) or not isinstance(item.get("text"), str):
            continue
        text = " ".join(item["text"].split()).strip("。.;； ")
        group = item.get("group") if isinstance(item.get("group"), str) else None
        if 2 <= len(text) <= 200:
            out.append(DraftPoint(text, (group or "").strip() or None))
    if not out:
        raise InvalidReply("no usable points")
    return out


def grounded(points: list[DraftPoint], reference: str, embedder: Embedder) -> list[bool]:
    spans = evidence_spans(reference) or [reference]
    vectors = embedder.embed([p.text for p in points] + spans)
    sims = vectors[: len(points)] @ vectors[len(points):].T
    prepared = AnswerText.of(reference)
    out = []
    for i, p in enumerate(points):
        lex = lexical_recall(p.text, prepared) or 0.0
        out.append(bool(np.max(sims[i]) >= GROUNDED_SIMILARITY or lex >= GROUNDED_TERMS))
    return out


def build_with_llm(bank: Bank, prober: LLMProber, embedder: Embedder) -> LLMRubricReport:
    questions: list[QuestionRubric] = []
    dropped: list[tuple[str, str]] = []
    fallbacks: list[tuple[str, str]] = []
    kept = 0
    for q in bank.questions:
        try:
            proposed = parse_points(_ask(prober, q))
        except InvalidReply as exc:
            fallbacks.append((q.id, f"unusable reply ({exc})"))
            questions.append(rubric_for_question(q))
            continue
        except Exception as exc:  # network, server: the extractor still works offline
            fallbacks.append((q.id, describe_failure(exc)))
            questions.append(rubric_for_question(q))
            continue
        ok = grounded(proposed, q.answer, embedder)
        dropped += [(q.id, p.text) for p, good in zip(proposed, ok) if not good]
        keep = [p for p, good in zip(proposed, ok) if good]
        if not keep:
            fallbacks.append((q.id, "no proposed point was backed by the reference answer"))
            questions.append(rubric_for_question(q))
            continue
        taken: set[str] = set()
        kept += len(keep)
        questions.append(QuestionRubric(
            id=q.id, question=q.text, source_sha256=sha256_text(q.answer),
            points=tuple(Point(id=point_id(q.id, d, taken), text=d.text, group=d.group)
                         for d in keep)))
    rubric = Rubric(bank=bank.id, questions=tuple(questions),
                    generated={q.id: points_fingerprint(q.points) for q in questions})
    return LLMRubricReport(rubric, kept, dropped, fallbacks)


def _ask(prober: LLMProber, q: Question) -> str:
    if not prober.configured:
        raise RuntimeError("no LLM configured")
    client = prober._get_client()
    response = client.chat.completions.create(
        model=prober.settings.model, temperature=0.0, max_tokens=1500,
        messages=[{"role": "user", "content": PROMPT % (q.text, q.answer)}])
    return (response.choices[0].message.content or "") if response.choices else ""
