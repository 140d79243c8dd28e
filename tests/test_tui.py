"""Pilot tests of the interview flow, with a fast fake embedder."""

from __future__ import annotations

import json

import pytest
from textual.widgets import Static, TextArea

from fakes import BigramEmbedder, BrokenEmbedder, GatedEmbedder
from interviewer.calibration import Scorer
from interviewer.grading import Grader
from interviewer.tui.app import make_app
from interviewer.tui.screens.feedback import FeedbackScreen
from interviewer.tui.screens.question import QuestionScreen
from interviewer.tui.screens.summary import SummaryScreen

TH = Scorer(0.6, 0.3, source="test")


async def wait_for(pilot, condition, timeout: float = 10.0) -> None:
    """Wait on a condition, not a fixed sleep."""
    steps = int(timeout / 0.02)
    for _ in range(steps):
        if condition():
            await pilot.pause()  # let the new screen finish mounting
            return
        await pilot.pause(0.02)
    raise AssertionError("condition not reached in time")


def build(zh_bank, settings, embedder=None, n=2):
    return make_app(bank=zh_bank, questions=list(zh_bank.questions[:n]),
                    grader=Grader(embedder or BigramEmbedder(), TH), settings=settings)


async def type_answer(pilot, text: str) -> None:
    pilot.app.screen.query_one(TextArea).insert(text)
    await pilot.pause()


async def test_question_submit_feedback_next_summary(zh_bank, settings) -> None:
    app = build(zh_bank, settings)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, QuestionScreen))
        assert app.screen.query_one("#question-text", Static).content == zh_bank.questions[0].text
        await wait_for(pilot, lambda: app.model_status == "ready")
        await type_answer(pilot, "训练加速：混合精度训练（FP16/BF16），梯度累积减少通信频率。")
        assert "characters" in str(app.screen.query_one("#char-count", Static).content)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, FeedbackScreen))
        rows = [str(w.content) for w in app.screen.query(".point")]
        assert len(rows) == len(app.interview.rubric.question("q01").points)
        assert any(r.startswith(" ✓") and "混合精度训练" in r for r in rows)
        assert any(r.startswith(" ✗") for r in rows)
        assert "Score" in str(app.screen.query_one("#score", Static).content)
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, QuestionScreen))
        assert app.screen.index == 1
        await type_answer(pilot, "DeepSpeed是微软的分布式训练库，ZeRO分片优化器状态。")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, FeedbackScreen))
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen))
        rows = [str(w.content) for w in app.screen.query(".summary-row")]
        assert len(rows) == 2 and "%" in rows[0]


async def test_empty_answer_is_not_submitted(zh_bank, settings) -> None:
    app = build(zh_bank, settings)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.model_status == "ready")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, QuestionScreen) and not app.screen.waiting


async def test_submit_while_the_model_is_loading_waits_then_grades(zh_bank, settings) -> None:
    embedder = GatedEmbedder()
    app = build(zh_bank, settings, embedder)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, QuestionScreen))
        assert app.model_status == "loading"
        await type_answer(pilot, "混合精度训练。")
        await pilot.press("ctrl+s")
        await pilot.pause()
        screen = app.screen
        assert screen.waiting and screen.query_one("#waiting").display
        assert screen.query_one(TextArea).read_only
        # the UI stays responsive while it waits
        await pilot.press("a")
        assert screen.query_one(TextArea).text == "混合精度训练。"
        embedder.release()
        await wait_for(pilot, lambda: isinstance(app.screen, FeedbackScreen))


async def test_markup_like_input_shows_literally_and_cannot_crash(zh_bank, settings) -> None:
    nasty = "[bold]粗体[/] [link=https://x.invalid]链接[/link] [/] [red on blue 混合精度训练 \\[x]"
    app = build(zh_bank, settings)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.model_status == "ready")
        await type_answer(pilot, nasty)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, FeedbackScreen))
        evidence = [str(w.content) for w in app.screen.query(".point")]
        assert any("[bold]粗体[/]" in e for e in evidence)


async def test_a_broken_model_keeps_the_answer_and_says_why(zh_bank, settings) -> None:
    app = build(zh_bank, settings, BrokenEmbedder())
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.model_status == "failed")
        assert "corrupt" in app.model_error
        await type_answer(pilot, "我的回答")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, QuestionScreen)
        assert app.interview.attempts[0].answer == "我的回答"
        saved = json.loads(app.drafts.path.read_text(encoding="utf-8"))
        assert saved["drafts"]["q01"] == "我的回答"


async def test_drafts_reach_disk_while_typing(zh_bank, settings) -> None:
    app = build(zh_bank, settings)
    async with app.run_test() as pilot:
        await type_answer(pilot, "草稿内容")
        await wait_for(pilot, lambda: app.drafts.path.exists(), timeout=5)
        saved = json.loads(app.drafts.path.read_text(encoding="utf-8"))
        assert saved["drafts"]["q01"] == "草稿内容"


async def test_bank_text_with_markup_renders_literally(settings, tmp_path) -> None:
    from interviewer.bank import parse_bank

    bank = parse_bank("---\nid: m\ntitle: '[b]T'\nlanguage: en\n---\n\n"
                      "## q1: What does [red]this[/] do?\n\n### Answer\n\n- [link=x]Point[/link]: it works.\n")
    app = make_app(bank=bank, grader=Grader(BigramEmbedder(), TH), settings=settings)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, QuestionScreen))
        assert str(app.screen.query_one("#question-text", Static).content) == "What does [red]this[/] do?"
        await wait_for(pilot, lambda: app.model_status == "ready")
        await type_answer(pilot, "[link=x]Point[/link] it works")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, FeedbackScreen))
        assert "[link=x]Point[/link]" in str(app.screen.query_one(".point", Static).content)
