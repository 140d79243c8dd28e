"""Reports: golden Markdown and JSON, escaping of hostile text, and the HTML in a real browser."""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
import zlib
from datetime import datetime, timezone
from pathlib import Path

import pytest

from conftest import DATA, ROOT
from fakes import BigramEmbedder
from interviewer.content.catalog import BankCatalog
from interviewer.grading.calibration import Scorer
from interviewer.grading.grader import Grader
from interviewer.sessions.interview import FollowUpRound, Interview
from interviewer.reports.report import ReportMeta, render, render_html, render_markdown, to_data
from interviewer.content.bank_rubric import rubric_for_bank
from interviewer.sessions.plan import SetupChoices, make_plan

GOLDEN = DATA / "golden"
HOSTILE = "用<script>alert('x')</script>和</table>测试 | *粗* _斜_ `代码` [链接](http://x) ```"
META = ReportMeta(model_id="google/universal-sentence-encoder-multilingual-3",
                  llm={"base_url": "http://127.0.0.1:11434/v1", "model": "qwen2.5"},
                  session_id="20261129-120000-abcdef", mastery={"": 0.25, "training": 0.5})


def sample_interview() -> Interview:
    """Three questions: a good answer, a hostile answer, a skip; then a retake."""
    bank = next(b for b in BankCatalog([ROOT / "bank"]).banks() if b.id == "ai-infra-zh")
    plan = make_plan(bank, SetupChoices(bank=bank.id, count=3, time_limit=300))
    rubric = rubric_for_bank(bank).rubric
    interview = Interview.start(plan, rubric)
    interview.started_at = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)
    grader = Grader(BigramEmbedder(), Scorer(0.6, 0.3, source="test"))
    answers = ["训练加速：混合精度训练（FP16/BF16），梯度累积减少通信频率。推理加速：KV Cache。",
               HOSTILE, ""]
    for attempt, answer, used in zip(interview.attempts, answers, (120, 75.5, 10)):
        attempt.answer, attempt.time_used = answer, used
        if answer:
            attempt.grade = grader.grade(rubric, attempt.question.id, answer)
        else:
            attempt.skipped = True
    interview.attempts[1].auto_submitted = True
    first = interview.attempts[0]
    missed = [p.point_id for p in first.grade.points if p.verdict == "missed"][:2]
    answer = "ZeRO优化器状态分片，Flash Attention。<i>斜</i>"
    first.followups.append(FollowUpRound(
        question="还有哪些节省显存的方法？", targets=tuple(missed), source="llm", answer=answer,
        grade=grader.grade(rubric, "q01", answer, only=missed), time_used=40))
    retake = interview.retry(0)
    interview.attempts[retake].answer = "混合精度训练（FP16/BF16）、数据并行+模型并行+流水线并行。"
    interview.attempts[retake].grade = grader.grade(rubric, "q01", interview.attempts[retake].answer)
    interview.attempts[retake].time_used = 60
    return interview


def _golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{name} changed; UPDATE_GOLDEN=1 to accept"


def test_markdown_matches_golden(utc) -> None:
    _golden("report.md", render_markdown(sample_interview(), META))


def test_json_matches_golden_and_is_versioned() -> None:
    data = json.loads(render(sample_interview(), "json", META))
    assert data["schema"] == "interviewer.report/1"
    data.pop("generated_at")
    _golden("report.json", json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def test_reports_carry_no_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret-123")
    for fmt in ("md", "html", "json"):
        assert "sk-test-secret-123" not in render(sample_interview(), fmt, META)


def test_hostile_text_is_escaped_in_html() -> None:
    page = render_html(sample_interview(), META)
    assert "<script" not in page.lower().replace("&lt;script", "")
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page
    assert "&lt;/table&gt;" in page
    graded = sum(1 for a in sample_interview().attempts if a.grade)
    assert page.count("<table>") == page.count("</table>") == graded
    for fetch in ("<link", " src=", "@import", "url("):
        assert fetch not in page


def test_hostile_text_cannot_break_the_markdown() -> None:
    md = render_markdown(sample_interview(), META)
    for line in md.splitlines():
        if line.startswith("| ") and "verdict" not in line and "---" not in line:
            assert line.count(" | ") == 2, line  # exactly three cells: no injected pipes
    assert "```text" in md and md.count("```") % 2 == 0


def test_study_list_weights_missed_over_partial() -> None:
    data = to_data(sample_interview(), META)
    weights = [s["weight"] for s in data["study"]]
    assert weights == sorted(weights, reverse=True) and weights[0] == 2.0


# ---------------------------------------------------------------- in a real browser

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--force-device-scale-factor=1"]


def read_png(path: Path) -> tuple[int, int, list[bytes]]:
    """Width, height and RGBA rows of an 8-bit RGBA/RGB PNG (what Chromium writes)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and color in (2, 6)
            bpp = 4 if color == 6 else 3
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line) if bpp == 4 else bytes(
            v for px in range(width) for v in (*line[px * 3:px * 3 + 3], 255)))
        prev = line
    return width, height, rows


def near(px: bytes, rgb: tuple[int, int, int], tol: int = 40) -> bool:
    return all(abs(px[i] - rgb[i]) <= tol for i in range(3))


@pytest.mark.integration
@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium")
def test_html_report_renders_in_headless_chromium(tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    page.write_text(render_html(sample_interview(), META), encoding="utf-8")
    profile = tmp_path / "profile"
    url = page.as_uri()
    dom = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--dump-dom", url],
                         capture_output=True, text=True, timeout=120).stdout
    assert "Mock interview: AI Infra" in dom and "Overall score:" in dom
    assert dom.count("<tr class=") >= 15 and "&lt;/table&gt;" in dom
    shot = tmp_path / "shot.png"
    subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", f"--screenshot={shot}",
                    "--window-size=1000,1400", url], capture_output=True, timeout=120)
    width, height, rows = read_png(shot)
    assert (width, height) == (1000, 1400)
    pixels = [rows[y][x * 4:x * 4 + 4] for y in range(0, height, 2) for x in range(0, width, 2)]
    dark_top = sum(1 for y in range(20, 90) for x in range(0, width, 2)
                   if sum(rows[y][x * 4:x * 4 + 3]) < 200)
    assert dark_top > 200  # the title is drawn at the top
    assert any(near(p, (0x1A, 0x7F, 0x37)) for p in pixels)  # a green "✓ covered" verdict
    assert any(near(p, (0xCF, 0x22, 0x2E)) for p in pixels)  # a red "✗ missed" verdict
    assert any(near(p, (0xF6, 0xF8, 0xFA), 2) for p in pixels)  # the table header


def test_followups_show_both_scores_and_stay_escaped() -> None:
    interview = sample_interview()
    first = interview.attempts[0]
    assert first.score_with_followups >= first.score
    data = to_data(interview, META)
    q = data["questions"][0]
    assert q["followups"][0]["question"] == "还有哪些节省显存的方法？"
    assert q["score_with_followups"] == round(first.score_with_followups, 4)
    assert "&lt;i&gt;斜&lt;/i&gt;" in render_html(interview, META)


def test_no_kind_of_line_break_can_leave_a_markdown_table_cell() -> None:
    from dataclasses import replace

    interview = sample_interview()
    attempt = interview.attempts[0]
    breaks = "a\rb|c\r\nd\x0be\x0cf\x1cg\x85h\u2028i\u2029j\n| k |"
    points = list(attempt.grade.points)
    points[0] = replace(points[0], evidence=breaks, text="点" + breaks)
    points[1] = replace(points[1], evidence=None, reason="理由" + breaks, group="组" + breaks)
    attempt.grade = replace(attempt.grade, points=tuple(points))
    md = render_markdown(interview, META)
    rows = [line for line in md.splitlines() if line.startswith("| ")]
    assert len(rows) == sum(len(a.grade.points) + 2 for a in interview.attempts if a.grade)
    for line in rows:
        if "verdict" not in line and "---" not in line:
            assert line.count(" | ") == 2 and line.endswith(" |"), repr(line)
def test_points_not_covered_show_the_reference_sentence_and_partials_their_reason() -> None:
    interview = sample_interview()
    data = to_data(interview, META)
    sources = interview.reference_sentences(0)
    first = data["questions"][0]
    for p in first["points"]:
        assert p["reference"] == (None if p["verdict"] == "covered" else sources[p["id"]])
    md = render_markdown(interview, META)
    page = render_html(interview, META)
    for p in first["points"]:
        if p["verdict"] != "covered":
            assert _md_escaped(sources[p["id"]]) in md and _html_escaped(sources[p["id"]]) in page
    partial = next(p for q in data["questions"] for p in q["points"] if p["verdict"] == "partial")
    row = next(line for line in md.splitlines() if line.startswith("| ~ partial"))
    assert partial["evidence"] in row and partial["reason"] in row
    assert "reference_answer" not in first and "**Reference answer**" not in md


def test_the_report_can_include_each_reference_answer() -> None:
    from dataclasses import replace

    interview = sample_interview()
    meta = replace(META, reference_answers=True)
    data = to_data(interview, meta)
    assert data["questions"][0]["reference_answer"] == interview.attempts[0].question.answer
    assert "**Reference answer**" in render_markdown(interview, meta)
    assert "Reference answer" in render_html(interview, meta)


def _md_escaped(text: str) -> str:
    from interviewer.reports.report import _md

    return _md(text)


def _html_escaped(text: str) -> str:
    import html

    return html.escape(text)


def test_a_retake_is_shown_under_the_question_it_retakes() -> None:
    # the summary screen groups them so; the reports read the same way
    for fmt, heading in (("md", r"^## (\d+)\."), ("html", r'<section class="q"><h2>(\d+)\.')):
        text = render(sample_interview(), fmt, META)
        order = [int(n) for n in re.findall(heading, text, flags=re.MULTILINE)]
        assert order == [1, 4, 2, 3], (fmt, order)


def test_a_point_earned_by_several_sentences_quotes_each_of_them() -> None:
    """A covered point of several claims shows the words for each claim, in every format
    the candidate reads it in: the reports, the terminal and the TUI's highlighted answer."""
    from dataclasses import replace

    from interviewer.cli.grade import format_grade
    from interviewer.tui.feedback_view import highlighted_answer, point_row

    interview = sample_interview()
    attempt = interview.attempts[0]
    first = next(p for p in attempt.grade.points if p.verdict == "covered")
    at = attempt.grade.points.index(first)
    second = "推理加速：KV Cache"
    assert second in attempt.answer and second != first.evidence
    points = tuple(replace(p, also=(second,)) if p is first else p for p in attempt.grade.points)
    attempt.grade = replace(attempt.grade, points=points)
    row = next(p for p in to_data(interview, META)["questions"][0]["points"]
               if p["id"] == first.point_id)
    assert row["evidence"] == first.evidence and row["also"] == [second]
    both = f"“{first.evidence}” · “{second}”"
    assert _md_escaped(first.evidence) in render_markdown(interview, META)
    assert f"· “{_md_escaped(second)}”" in render_markdown(interview, META)
    assert f"“{_html_escaped(first.evidence)}” · “{_html_escaped(second)}”" \
        in render_html(interview, META)
    assert both in format_grade("q", attempt.grade)
    assert both in point_row(points[at], False).plain
    styled = {attempt.answer[s.start:s.end] for s in highlighted_answer(attempt.grade).spans}
    assert {first.evidence, second} <= styled
