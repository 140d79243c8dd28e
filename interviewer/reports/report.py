"""Session reports in Markdown, HTML and JSON, all rendered from one :class:`Interview`.

Every piece of user, bank and model text is escaped for its format: a candidate's answer
containing ``</table>`` or ``<script>`` is shown as typed and does nothing. Reports carry
model ids, never API keys.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from interviewer.errors import InputError
from interviewer.grading.grade import MARK
from interviewer.sessions.interview import Interview
from interviewer.sessions.score import RULE as SCORE_RULE
from interviewer.sessions.score import format_score
from interviewer.sessions.timer import format_clock
from interviewer.sessions.timer import format_elapsed
from interviewer.urls import redact_url

SCHEMA = "interviewer.report/1"
FORMATS = ("md", "html", "json")
MARKS = {verdict: f"{mark} {verdict}" for verdict, mark in MARK.items()}


def _mark(verdict: str) -> str:
    return MARKS.get(verdict, f"✗ {verdict}")  # a verdict added later reads as not covered


@dataclass(frozen=True)
class ReportMeta:
    """What produced the grades. Only identifiers: never a key or a secret."""

    model_id: str | None = None
    llm: dict[str, str] = field(default_factory=dict)  # base_url, model
    session_id: str | None = None
    mastery: dict[str, float] = field(default_factory=dict)  # "" = whole bank, else per tag
    reference_answers: bool = False  # include each question's full reference answer


def _clock(seconds: float) -> str:
    return format_elapsed(seconds)


def study_list(interview: Interview, limit: int = 8) -> list[dict]:
    """Weakest points first: missed and contradicted count double, partial once, over the
    latest attempts."""
    weight: dict[tuple[str, str], float] = {}
    for attempt in interview.final_attempts():
        if attempt.grade is None:
            continue
        for p in attempt.grade.points:
            if p.verdict != "covered":
                key = (attempt.question.id, p.text)
                weight[key] = weight.get(key, 0.0) + (1.0 if p.verdict == "partial" else 2.0)
    ranked = sorted(weight.items(), key=lambda kv: -kv[1])[:limit]
    return [{"question_id": q, "point": t, "weight": w} for (q, t), w in ranked]


def _rounded(score: float | None) -> float | None:
    return None if score is None else round(score, 4)


def to_data(interview: Interview, meta: ReportMeta) -> dict:
    """The report as plain data: the JSON format, and what the other formats render."""
    questions = []
    for n, a in enumerate(interview.attempts, start=1):
        sources = interview.reference_sentences(n - 1)
        extra = {"reference_answer": a.question.answer} if meta.reference_answers else {}
        questions.append({
            "number": n,
            "question_id": a.question.id,
            "question": a.question.text,
            "retake_of": a.retry_of + 1 if a.retry_of is not None else None,
            "status": "skipped" if a.skipped else ("graded" if a.grade else "not graded"),
            "answer": a.answer,
            "score": round(a.grade.score, 4) if a.grade else None,
            "time_used_s": round(a.time_used, 1),
            "auto_submitted": a.auto_submitted,
            "score_with_followups": round(a.score_with_followups, 4) if a.followups else None,
            "points": [{"id": p.point_id, "text": p.text, "group": p.group,
                        "verdict": p.verdict, "evidence": p.evidence, "also": list(p.also),
                        "reason": p.reason,
                        "after_followup": a.probed_verdicts().get(p.point_id),
                        "reference": (sources.get(p.point_id) if p.verdict != "covered"
                                      else None)}
                       for p in (a.grade.points if a.grade else ())],
            "followups": [{"question": f.question, "answer": f.answer, "source": f.source,
                           "targets": list(f.targets), "time_used_s": round(f.time_used, 1)}
                          for f in a.followups],
            **extra,
        })
    return {
        "schema": SCHEMA,
        "generated_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "session": {"id": meta.session_id,
                    "started_at": interview.started_at.isoformat(timespec="seconds"),
                    "bank": {"id": interview.bank.id, "title": interview.bank.title},
                    "duration_s": round(interview.total_time(), 1),
                    "models": {"embedding": redact_url(meta.model_id),
                               "llm": {k: redact_url(v) for k, v in meta.llm.items()} or None}},
        "overall_score": _rounded(interview.overall_score()),
        "mastery": {(k or "bank"): round(v, 4) for k, v in meta.mastery.items()} or None,
        "questions": questions,
        "study": study_list(interview),
    }


# ---------------------------------------------------------------- markdown


def _meta_items(interview: Interview, meta: ReportMeta, d: dict) -> list[tuple[str, str]]:
    """The report's header facts as (label, plain text), for each format to escape its way."""
    s = d["session"]
    items = [("Date", interview.started_at.astimezone().strftime("%Y-%m-%d %H:%M")),
             ("Bank", s["bank"]["id"]), ("Duration", _clock(s["duration_s"]))]
    models = s["models"]
    if models["embedding"]:
        items.append(("Grading model", models["embedding"]))
    if models["llm"]:
        items.append(("Follow-up model",
                      f"{models['llm'].get('model') or ''} at {models['llm'].get('base_url') or ''}"))
    return items


# every character that some reader takes for the end of a line
_LINE_BREAKS = re.compile("\r\n|[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def _should_have_said(points: list[dict]) -> list[tuple[str, list[str]]]:
    """Each reference sentence once, with the points not covered that it states."""
    said: dict[str, list[str]] = {}
    for p in points:
        if p["verdict"] != "covered" and p.get("reference"):
            said.setdefault(p["reference"], []).append(p["text"])
    return list(said.items())


def _grouped(questions: list[dict]) -> list[dict]:
    """Each question followed by its retakes, as the summary screen shows them (the JSON
    keeps the order they were asked in)."""
    by_number = {q["number"]: q for q in questions}

    def root(q: dict) -> int:
        seen = set()
        while q["retake_of"] in by_number and q["number"] not in seen:
            seen.add(q["number"])
            q = by_number[q["retake_of"]]
        return q["number"]

    return sorted(questions, key=lambda q: (root(q), q["number"]))


def _quotes(point: dict) -> tuple[str, ...]:
    """A report point's quoted words: its evidence, then the words for its other claims
    (what ``PointResult.quotes`` is for a grade)."""
    return (point["evidence"], *point.get("also", ()))


def _md(text: str | None) -> str:
    """Inline Markdown-safe text: specials escaped, every kind of line break folded to a
    space (for tables and lists)."""
    out = (text or "").replace("\\", "\\\\")
    for ch in "|*_`[]<>#":
        out = out.replace(ch, "\\" + ch)
    return _LINE_BREAKS.sub(" ", out)


def render_markdown(interview: Interview, meta: ReportMeta = ReportMeta()) -> str:
    d = to_data(interview, meta)
    s = d["session"]
    lines = [f"# Mock interview: {_md(s['bank']['title'])}", ""]
    lines += [f"- {label}: {_md(value)}" for label, value in _meta_items(interview, meta, d)]
    lines += [f"- Overall score: {format_score(d['overall_score'])} ({SCORE_RULE})"]
    if d["mastery"]:
        lines.append("- Mastery (points whose last two counted reviews, on different days, "
                     "were covered; this session's tags, as of its end): "
                     + ", ".join(f"{_md(k)} {v:.0%}" for k, v in d["mastery"].items()))
    lines.append("")
    for q in _grouped(d["questions"]):
        retake = f" (retake of {q['retake_of']})" if q["retake_of"] else ""
        lines += [f"## {q['number']}. {_md(q['question'])}{retake}", ""]
        if q["status"] == "skipped":
            lines += [f"Skipped after {_clock(q['time_used_s'])}.", ""]
            if not q["answer"].strip():
                continue
        else:
            score = f"{q['score']:.0%}" if q["score"] is not None else "not graded"
            with_followups = (f" · with follow-ups {q['score_with_followups']:.0%}"
                              if q["score_with_followups"] is not None else "")
            lines += [f"Score: {score}{with_followups} · time used {_clock(q['time_used_s'])}"
                      + (" · submitted when time ran out" if q["auto_submitted"] else ""), ""]
        lines += ["**Answer**", "", "```text", q["answer"].replace("```", "ʼʼʼ"), "```", ""]
        if q["points"]:
            lines += ["| verdict | point | evidence or reason |", "| --- | --- | --- |"]
            for p in q["points"]:
                why = (" · ".join(f"“{_md(s)}”" for s in _quotes(p))
                       if p["evidence"] else _md(p["reason"]))
                if p["evidence"] and p["verdict"] != "covered" and p["reason"]:
                    why += f" — {_md(p['reason'])}"
                if p["after_followup"]:
                    why += f" · {p['after_followup']} after the follow-up"
                group = f"{_md(p['group'])} › " if p["group"] else ""
                lines.append(f"| {_mark(p['verdict'])} | {group}{_md(p['text'])} | {why} |")
            lines.append("")
            said = _should_have_said(q["points"])
            if said:
                lines += ["**What the reference answer says for the points not covered**", ""]
                lines += [f"- “{_md(sentence)}” ({'; '.join(_md(t) for t in texts)})"
                          for sentence, texts in said]
                lines.append("")
        if "reference_answer" in q:
            lines += ["**Reference answer**", "", "```text",
                      q["reference_answer"].replace("```", "ʼʼʼ"), "```", ""]
        for f in q["followups"]:
            lines += [f"**Follow-up:** {_md(f['question'])}", "", "```text",
                      f["answer"].replace("```", "ʼʼʼ"), "```", ""]
    if d["study"]:
        lines += ["## What to study", ""]
        lines += [f"- {_md(s['point'])} ({_md(s['question_id'])})" for s in d["study"]]
        lines.append("")
    return "\n".join(lines)


# ---------------------------------------------------------------- html

_CSS = """
:root { --ok: #1a7f37; --part: #9a6700; --miss: #cf222e; --muted: #57606a; --line: #d0d7de; }
* { box-sizing: border-box; }
body { font-family: system-ui, -apple-system, "Segoe UI", "Noto Sans CJK SC", "Noto Sans SC",
       "PingFang SC", "Microsoft YaHei", "Source Han Sans SC", sans-serif;
       max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1f2328; line-height: 1.5; }
h1 { font-size: 1.6rem; margin-bottom: .25rem; }
.meta { color: var(--muted); margin: 0 0 1.5rem; padding: 0; list-style: none; }
.meta li { display: inline; margin-right: 1.25rem; }
.overall { font-size: 1.25rem; font-weight: 600; }
.bar { display: inline-block; width: 12rem; height: .8rem; background: #eaeef2; border-radius: .4rem;
       vertical-align: middle; margin-left: .5rem; overflow: hidden; }
.bar span { display: block; height: 100%; background: var(--ok); }
section.q { border-top: 1px solid var(--line); padding-top: 1rem; margin-top: 1.5rem; }
section.q h2 { font-size: 1.15rem; }
.score { font-weight: 600; }
pre.answer { white-space: pre-wrap; word-break: break-word; background: #f6f8fa; padding: .75rem;
             border-radius: .4rem; font-family: inherit; }
table { border-collapse: collapse; width: 100%; margin: .75rem 0; }
th, td { border: 1px solid var(--line); padding: .35rem .5rem; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
td.v { white-space: nowrap; font-weight: 600; }
tr.covered td.v { color: var(--ok); } tr.partial td.v { color: var(--part); }
tr.missed td.v { color: var(--miss); }
.group { color: var(--muted); }
.why { color: var(--muted); }
.study li { margin-bottom: .25rem; }
@media print {
  body { margin: 0; max-width: none; }
  section.q { page-break-before: always; break-before: page; border-top: none; }
  tr { page-break-inside: avoid; break-inside: avoid; }
  .bar { border: 1px solid #999; }
}
"""


def _e(text: object) -> str:
    return html.escape("" if text is None else str(text), quote=True)


def render_html(interview: Interview, meta: ReportMeta = ReportMeta()) -> str:
    d = to_data(interview, meta)
    s = d["session"]
    title = f"Mock interview: {s['bank']['title']}"
    out = ["<!DOCTYPE html>", '<html lang="zh"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           # no scripts, no external fetches: the report must open anywhere, offline
           "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
           "style-src 'unsafe-inline'\">",
           f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>",
           f"<h1>{_e(title)}</h1>", '<ul class="meta">']
    out += [f"<li>{label}: {_e(value)}</li>" for label, value in _meta_items(interview, meta, d)]
    if d["mastery"]:
        out.append("<li>Mastery: " + _e(", ".join(f"{k} {v:.0%}" for k, v in d["mastery"].items()))
                   + "</li>")
    pct = d["overall_score"]
    bar = ("" if pct is None else
           f'<span class="bar"><span style="width:{pct * 100:.0f}%"></span></span>')
    out += ["</ul>", f'<p class="overall">Overall score: {format_score(pct)}{bar}</p>',
            f'<p class="rule">{_e(SCORE_RULE.capitalize())}.</p>']
    for q in _grouped(d["questions"]):
        retake = f" (retake of {q['retake_of']})" if q["retake_of"] else ""
        out.append(f'<section class="q"><h2>{q["number"]}. {_e(q["question"])}{_e(retake)}</h2>')
        if q["status"] == "skipped":
            out.append(f"<p>Skipped after {_e(_clock(q['time_used_s']))}.</p>")
        else:
            score = f"{q['score']:.0%}" if q["score"] is not None else "not graded"
            late = " · submitted when time ran out" if q["auto_submitted"] else ""
            with_followups = (f" · with follow-ups {q['score_with_followups']:.0%}"
                              if q["score_with_followups"] is not None else "")
            out.append(f'<p><span class="score">Score: {_e(score)}{_e(with_followups)}</span> · time used '
                       f"{_e(_clock(q['time_used_s']))}{_e(late)}</p>")
        if q["answer"].strip():
            out.append(f'<pre class="answer">{_e(q["answer"])}</pre>')
        if q["points"]:
            out.append("<table><thead><tr><th>Verdict</th><th>Point</th>"
                       "<th>Evidence or reason</th></tr></thead><tbody>")
            for p in q["points"]:
                group = f'<span class="group">{_e(p["group"])} › </span>' if p["group"] else ""
                why = (" · ".join(f"“{_e(s)}”" for s in _quotes(p))
                       if p["evidence"] else f'<span class="why">{_e(p["reason"])}</span>')
                if p["evidence"] and p["verdict"] != "covered" and p["reason"]:
                    why += f' <span class="why">— {_e(p["reason"])}</span>'
                if p["after_followup"]:
                    why += f' <span class="why">· {_e(p["after_followup"])} after the follow-up</span>'

                out.append(f'<tr class="{_e(p["verdict"])}"><td class="v">{_e(_mark(p["verdict"]))}'
                           f"</td><td>{group}{_e(p['text'])}</td><td>{why}</td></tr>")
            out.append("</tbody></table>")
            said = _should_have_said(q["points"])
            if said:
                out.append('<p><strong>What the reference answer says for the points not '
                           'covered</strong></p><ul class="said">')
                out += [f'<li>“{_e(sentence)}” <span class="group">({_e("; ".join(texts))})'
                        "</span></li>" for sentence, texts in said]
                out.append("</ul>")
        if "reference_answer" in q:
            out.append("<p><strong>Reference answer</strong></p>")
            out.append(f'<pre class="answer">{_e(q["reference_answer"])}</pre>')
        for f in q["followups"]:
            out.append(f"<p><strong>Follow-up:</strong> {_e(f['question'])}</p>")
            out.append(f'<pre class="answer">{_e(f["answer"])}</pre>')
        out.append("</section>")
    if d["study"]:
        out.append('<section class="q"><h2>What to study</h2><ul class="study">')
        out += [f"<li>{_e(x['point'])} <span class=\"group\">({_e(x['question_id'])})</span></li>"
                for x in d["study"]]
        out.append("</ul></section>")
    out.append("</body></html>")
    return "\n".join(out)


def render(interview: Interview, fmt: str, meta: ReportMeta = ReportMeta()) -> str:
    if fmt == "md":
        return render_markdown(interview, meta)
    if fmt == "html":
        return render_html(interview, meta)
    if fmt == "json":
        return json.dumps(to_data(interview, meta), ensure_ascii=False, indent=2) + "\n"
    raise InputError(f"unknown report format '{fmt}'", hint=f"use one of {', '.join(FORMATS)}")


def format_for(path: Path, default: str = "md") -> str:
    suffix = path.suffix.lower().lstrip(".")
    return {"htm": "html", "markdown": "md"}.get(suffix, suffix) if suffix in (*FORMATS, "htm", "markdown") else default


def format_of(path: Path) -> str:
    """The format a file name asks for; a name that asks for none we write is refused."""
    suffix = path.suffix.lower().lstrip(".")
    fmt = {"htm": "html", "markdown": "md"}.get(suffix, suffix)
    if fmt not in FORMATS:
        what = f"a '{path.suffix}' report" if path.suffix else "a report without a file extension"
        raise InputError(f"cannot write {what}; the formats are {', '.join(FORMATS)}", path=path,
                         hint="name the file .md, .html or .json, or give --format")
    return fmt


def write_report(interview: Interview, path: Path, meta: ReportMeta = ReportMeta(),
                 fmt: str | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(interview, fmt or format_for(path), meta), encoding="utf-8")
    return path

