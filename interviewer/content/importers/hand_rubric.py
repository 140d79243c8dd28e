"""A bank author's key points as a rubric marked hand-written (``source: hand``).

Questions without key points get the points the extractor finds, as ``rubric build`` would
write them, so the file is a complete rubric; ``rubric build`` keeps the hand-written ones.
"""

from __future__ import annotations

from interviewer.content.bank import Bank
from interviewer.content.rubric import HAND, Point, QuestionRubric, Rubric, points_fingerprint, sha256_text
from interviewer.content.extract import DraftPoint, point_id, rubric_for_question


def hand_rubric(bank: Bank, key_points: dict[str, tuple[str, ...]]) -> Rubric:
    questions, generated = [], {}
    for q in bank.questions:
        texts = key_points.get(q.id)
        if texts:
            taken: set[str] = set()
            points = tuple(Point(id=point_id(q.id, DraftPoint(t), taken), text=t)
                           for t in dict.fromkeys(texts))
            questions.append(QuestionRubric(id=q.id, question=q.text,
                                            source_sha256=sha256_text(q.answer), points=points,
                                            source=HAND))
        else:
            fresh = rubric_for_question(q)
            questions.append(fresh)
            generated[q.id] = points_fingerprint(fresh.points)
    return Rubric(bank=bank.id, questions=tuple(questions), generated=generated)
