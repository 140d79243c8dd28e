"""The feedback on an answer as styled text: each point with its verdict, evidence and the
reference sentence it missed; the answer with its credited spans underlined; the change
since the last attempt. User and bank text go in as plain strings, never as markup."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content

from interviewer.grading.grade import MARK

if TYPE_CHECKING:
    from interviewer.grading.grade import Grade, PointResult
    from interviewer.practice.drill import RetakeDiff

MARKS = MARK
STYLES = {"covered": "bold $success", "partial": "bold $warning", "missed": "bold $error",
          "contradicted": "bold $error"}
HIGHLIGHT = {"covered": "underline $success", "partial": "underline $warning",
             "contradicted": "underline $error"}
SAME_SOURCE = object()  # the source was shown at the point above: said once, not quoted


def point_row(p: PointResult, numbers: bool, probed: str | None = None,
              source: str | object | None = None) -> Content:
    """One point as styled content; user and bank text go in as plain strings, never markup.

    ``source``: the reference answer's sentence for the point, shown when it was not covered
    (``SAME_SOURCE``: the point above showed it).
    """
    if probed:
        parts: list = [(f" {MARKS.get(probed, '✗')} ", "bold $accent")]
    else:
        parts = [(f" {MARKS.get(p.verdict, '✗')} ", STYLES.get(p.verdict, "bold $error"))]
    if p.group:
        parts.append((f"{p.group} › ", "dim"))
    parts.append(p.text)
    if numbers:
        parts.append((f"  (confidence {p.probability:.2f}, similarity {p.similarity:.2f})", "dim"))
    for n, quote in enumerate(p.quotes):
        parts += [*([] if n else ["\n     "]), (" · “" if n else "← “", "dim"), (quote, "italic"),
                  ("”", "dim")]
    if probed:
        parts += ["\n     ", (f"{probed} after the follow-up (not in your first answer)", "dim")]
    elif p.verdict != "covered":
        parts += ["\n     ", (p.reason, "dim")]
    if source is SAME_SOURCE and p.verdict != "covered":
        parts += ["\n     ", ("should have said: the same sentence as above", "dim")]
    elif source and p.verdict != "covered":
        parts += ["\n     ", ("should have said: “", "dim"), (source, "$text-muted"), ("”", "dim")]
    return Content.assemble(*parts)


def retake_line(diff: RetakeDiff) -> str:
    parts = [f"Since your last attempt: {diff.delta:+.0%}"]
    if diff.newly_covered:
        parts.append("newly covered: " + "; ".join(diff.newly_covered))
    if diff.lost:
        parts.append("lost: " + "; ".join(diff.lost))
    if not diff.newly_covered and not diff.lost:
        parts.append("same points as before")
    return " · ".join(parts)


def points_view(grade: Grade, numbers: bool, probed: dict[str, str] | None = None,
                sources: dict[str, str] | None = None) -> Content:
    probed, sources = probed or {}, sources or {}
    rows, shown = [], None
    for p in grade.points:
        source = sources.get(p.point_id)
        if source is not None and p.verdict != "covered":
            source, shown = (SAME_SOURCE if source == shown else source), source
        rows.append(point_row(p, numbers, probed.get(p.point_id), source))
    return Content("\n\n").join(rows)


def highlighted_answer(grade: Grade) -> Content:
    """The answer with the spans that earned points underlined."""
    text = grade.answer
    content = Content(text)
    for p in grade.points:
        if p.verdict not in HIGHLIGHT:
            continue
        for quote in p.quotes:
            start = text.find(quote)
            if start >= 0:
                content = content.stylize(HIGHLIGHT[p.verdict], start, start + len(quote))
    return content
