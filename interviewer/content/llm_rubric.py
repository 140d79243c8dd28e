"""Key points proposed by an LLM, kept only where the reference answer backs them.

The extractor in :mod:`interviewer.content.extract` splits what the reference answer says; an LLM can
word points better (atomic, self-contained) but may also invent, or collapse a long answer
into one point. So the LLM only proposes: every proposed point is checked against the spans
of the reference answer (close in meaning, or sharing most of its terms); a backed proposal
rewords the extracted point closest to it, one for one, or is added when it matches none.
No extracted point is ever removed, and a question the LLM cannot answer in time keeps its
extracted points.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from interviewer.content.bank import Bank, Question
from interviewer.grading.encoders.backends import Embedder
from interviewer.grading.features import AnswerText, lexical_recall
from interviewer.followups.prober import InvalidReply, LLMProber, describe_failure, load_json_reply
from interviewer.content.rubric import Point, QuestionRubric, Rubric, points_fingerprint, sha256_text
from interviewer.content.extract import DraftPoint, point_id, rubric_for_question
from interviewer.content.segment import evidence_spans

GROUNDED_SIMILARITY = 0.6
GROUNDED_TERMS = 0.6
REWORDS = 0.7  # a backed proposal this close to an extracted point rewords it
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


def merge(extracted: QuestionRubric, proposed: list[DraftPoint],
          embedder: Embedder) -> tuple[list[DraftPoint], int]:
    """Extracted points, each reworded by the closest backed proposal (one for one), then the
    proposals that reword none; and how many proposals were used. Nothing extracted is lost."""
    drafts = [DraftPoint(p.text, p.group) for p in extracted.points]
    if not proposed:
        return drafts, 0
    vectors = embedder.embed([p.text for p in proposed] + [d.text for d in drafts])
    sims = vectors[: len(proposed)] @ vectors[len(proposed):].T
    pairs = sorted(((float(sims[i, j]), i, j) for i in range(len(proposed))
                    for j in range(len(drafts))), reverse=True)
    taken_p: set[int] = set()
    taken_d: set[int] = set()
    for sim, i, j in pairs:
        if sim < REWORDS:
            break
        if i in taken_p or j in taken_d:
            continue
        taken_p.add(i)
        taken_d.add(j)
        drafts[j] = DraftPoint(proposed[i].text, drafts[j].group or proposed[i].group)
    added = [p for i, p in enumerate(proposed)
             if i not in taken_p and float(sims[i].max()) < REWORDS]
    return drafts + added, len(taken_p) + len(added)


def build_with_llm(bank: Bank, prober: LLMProber, embedder: Embedder) -> LLMRubricReport:
    questions: list[QuestionRubric] = []
    dropped: list[tuple[str, str]] = []
    fallbacks: list[tuple[str, str]] = []
    kept = 0
    for q in bank.questions:
        extracted = rubric_for_question(q)
        try:
            proposed = parse_points(_ask(prober, q))
        except InvalidReply as exc:
            fallbacks.append((q.id, f"the LLM's reply was unusable ({exc})"))
            questions.append(extracted)
            continue
        except Exception as exc:  # network, server, deadline: the extractor still works offline
            fallbacks.append((q.id, describe_failure(exc)))
            questions.append(extracted)
            continue
        ok = grounded(proposed, q.answer, embedder)
        dropped += [(q.id, p.text) for p, good in zip(proposed, ok) if not good]
        keep = [p for p, good in zip(proposed, ok) if good]
        if not keep:
            fallbacks.append((q.id, "no proposed point was backed by the reference answer"))
            questions.append(extracted)
            continue
        drafts, used = merge(extracted, keep, embedder)
        taken: set[str] = set()
        kept += used
        questions.append(QuestionRubric(
            id=q.id, question=q.text, source_sha256=sha256_text(q.answer),
            points=tuple(Point(id=point_id(q.id, d, taken), text=d.text, group=d.group)
                         for d in drafts)))
    rubric = Rubric(bank=bank.id, questions=tuple(questions),
                    generated={q.id: points_fingerprint(q.points) for q in questions})
    return LLMRubricReport(rubric, kept, dropped, fallbacks)


def lost_points(new: Rubric, old: Rubric | None) -> str | None:
    """Why ``new`` must not replace ``old``: it would lose most of its points."""
    if old is None:
        return None
    before = sum(len(q.points) for q in old.questions)
    after = sum(len(q.points) for q in new.questions)
    if before and after * 2 < before:
        return f"the new rubric has {after} points where the current one has {before}"
    return None


def _ask(prober: LLMProber, q: Question) -> str:
    missing = prober.missing_setting()
    if missing:
        raise RuntimeError(missing)
    messages = [{"role": "user", "content": PROMPT % (q.text, q.answer)}]
    return prober.ask(messages, prober.deadline(), max_tokens=1500, temperature=0.0,
                      stream=False)
