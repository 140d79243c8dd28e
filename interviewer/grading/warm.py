"""What a first grade would do once, done while the model loads.

The rules read texts with regular expressions made from the glossary's terms, compiled and
cached on first use, and the glossary itself loads on first use: about 100 ms that landed
on the first answer of every interview. :func:`prepare_rules` does that work for a
rubric's own terms ahead of time; a term only an answer names is still compiled once,
when it is first met.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interviewer.grading.claims import contradiction, is_bare, is_term_list, names_neighbour
from interviewer.grading.features import AnswerText, lexical_units

if TYPE_CHECKING:
    from interviewer.content.rubric import Rubric

# Reaches the rules' own patterns: sentences and clauses in both languages, a negation,
# a direction, a number, a list of names, a bracket.
SAMPLE = ("先用数据并行，再把模型切分到多张卡上，这样不会增加显存占用（大约减少一半）。"
          "It does not reduce throughput; latency drops from 20 ms to 10 ms. "
          "DP、TP、PP, and only one of them.")


def prepare_rules(rubric: Rubric) -> None:
    """Load the glossary and compile the patterns a grade against ``rubric`` uses.

    Text only: nothing is encoded, so no cache of the encoder holds more than it would
    without a warm-up (a grade stays the same bits in every process)."""
    from interviewer.content.segment import evidence_spans, sentence_of, split_sentences
    from interviewer.grading.evidence import point_texts

    spans = evidence_spans(SAMPLE)
    sentence_of(SAMPLE, spans)
    for sentence in split_sentences(SAMPLE):
        is_bare(sentence)
    is_term_list(SAMPLE)
    for question in rubric.questions:
        for point in question.points:
            for text in point_texts(point):
                lexical_units(text, AnswerText.of(SAMPLE + text))
                is_bare(text)
                for span in (SAMPLE, text):
                    contradiction(text, span)
                    names_neighbour(text, span)
