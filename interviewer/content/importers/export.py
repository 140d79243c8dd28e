"""Banks written back out: as a Markdown bank, and as a text file Anki imports.

The Anki file is "Notes in Plain Text" with a header naming its columns: the question id
(as the note's guid, so re-importing updates the same notes), the question, the answer as
HTML, and the tags. An optional list of points per question (the points a candidate
missed) goes on the back, above the reference answer.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from interviewer.content.bank import Bank, render_bank

if TYPE_CHECKING:
    from interviewer.content.rubric import Rubric
    from interviewer.practice.srs import ReviewLog

FORMATS = ("markdown", "anki")


def to_markdown(bank: Bank) -> str:
    return render_bank(bank)


def _html(text: str) -> str:
    return html.escape(text, quote=False).replace("\t", "    ").replace("\n", "<br>")


def _field(value: str) -> str:
    """A field for Anki's tab-separated text: quoted when it holds a quote."""
    if '"' in value:
        return '"' + value.replace('"', '""') + '"'
    return value


def to_anki_text(bank: Bank, points: dict[str, list[str]] | None = None) -> str:
    out = ["#separator:tab", "#html:true", "#guid column:1", "#tags column:4"]
    for q in bank.questions:
        back = _html(q.answer)
        missed = (points or {}).get(q.id)
        if missed:
            items = "".join(f"<li>{_html(p)}</li>" for p in missed)
            back = f"<b>Missed points</b><ul>{items}</ul><hr>{back}"
        tags = " ".join(t.replace(" ", "_") for t in q.tags)
        out.append("\t".join(_field(v) for v in (q.id, _html(q.text), back, tags)))
    return "\n".join(out) + "\n"


def missed_points(log: ReviewLog, rubric: Rubric) -> dict[str, list[str]]:
    """The points of each question that their last review in the practice history missed."""
    from interviewer.practice.drill import histories

    hist = histories(log)
    missed: dict[str, list[str]] = {}
    for q in rubric.questions:
        texts = [p.text for p in q.points
                 if hist.get(p.id) and max(hist[p.id], key=lambda r: r.at).outcome == "lapse"]
        if texts:
            missed[q.id] = texts
    return missed
