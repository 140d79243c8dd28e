"""Pilot tests of the interview flow, with a fast fake embedder and a hand-moved clock."""

from __future__ import annotations

import json
import threading

import pytest
from fakes import BigramEmbedder, BrokenEmbedder, GatedEmbedder
from helpers import (
    asking,
    banks,
    build,
    feedback,
    on,
    points_text,
    stored_answer,
    type_answer,
    wait_for,
)
from textual.widgets import DataTable, Input, Static, TextArea

from interviewer.grading.calibration import Scorer
from interviewer.grading.grader import Grader
from interviewer.sessions.plan import SetupChoices, make_plan
from interviewer.sessions.timer import ManualClock
from interviewer.tui.app import make_app
from interviewer.tui.screens.confirm import ConfirmScreen
from interviewer.tui.screens.help import HelpScreen
from interviewer.tui.screens.setup import SetupScreen
from interviewer.tui.screens.summary import SummaryScreen
from interviewer.tui.widgets import CountdownLabel

SCORER = Scorer(0.6, 0.3, source="test")


async def test_setup_answer_feedback_next_summary(settings, zh_bank) -> None:
    app = build(settings, plan=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: on(app, SetupScreen))
        count = app.screen.query_one("#count", Input)
        count.value = "2"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: asking(app))
        assert str(app.screen.query_one("#question-text", Static).content) == zh_bank.questions[0].text
        assert "of 2" in str(app.screen.query_one("#progress", Static).content)
        await wait_for(pilot, lambda: app.model_status == "ready")
        await type_answer(pilot, "训练加速：混合精度训练（FP16/BF16），梯度累积减少通信频率。")
        assert "characters" in str(app.screen.query_one("#char-count", Static).content)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: feedback(app))
        rows = points_text(app).split("\n\n")
        assert len(rows) == len(app.interview.rubric.question("q01").points)
        assert any(r.startswith(" ✓") and "混合精度训练" in r for r in rows)
        assert any(r.startswith(" ✗") for r in rows)
        assert "confidence" not in points_text(app)
        await pilot.press("s")
        assert "confidence" in points_text(app)
        await pilot.press("n")
        await wait_for(pilot, lambda: asking(app, 1))
        await type_answer(pilot, "DeepSpeed是微软的分布式训练库，ZeRO分片优化器状态。")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: feedback(app))
        await pilot.press("n")
        await wait_for(pilot, lambda: on(app, SummaryScreen))
        table = app.screen.query_one(DataTable)
        assert table.row_count == 2
        assert "%" in str(table.get_row_at(0)[1])
    saved = json.loads((settings.data_dir / "last_setup.json").read_text(encoding="utf-8"))
    assert saved["count"] == 2 and saved["bank"] == "ai-infra-zh"


@pytest.mark.parametrize(("typed", "message"), [
    ("soon", "Time per question"),
    ("10", "needs a unit"),  # a time wants a unit, as on the command line
])
async def test_setup_rejects_a_bad_time_with_a_message(settings, typed: str, message: str) -> None:
    app = build(settings, plan=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: on(app, SetupScreen))
        app.screen.query_one("#time-limit", Input).value = typed
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert on(app, SetupScreen)
        assert message in str(app.screen.query_one("#setup-error", Static).content)


async def test_time_up_on_the_screen_s_own_clock_shows_the_feedback(settings) -> None:
    """The screen's timer, not the test, finds the time up: the submit it makes reaches the
    app (a message created in the screen's timer and posted by the panel stopped at the
    screen, and the interview waited for ever at 0:00)."""
    clock = ManualClock()
    app = build(settings, time_limit=20, clock=clock)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.model_status == "ready")
        await type_answer(pilot, "用混合精度")
        clock.advance(20)
        await wait_for(pilot, lambda: feedback(app))
        assert app.interview.attempts[0].auto_submitted


async def test_time_up_submits_what_was_typed(settings) -> None:
    clock = ManualClock()
    app = build(settings, time_limit=90, clock=clock)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.model_status == "ready")
        screen = app.screen
        label = screen.query_one(CountdownLabel)
        assert "01:30" in str(label.content)
        await type_answer(pilot, "混合精度训练")
        clock.advance(31)
        screen.tick()
        assert "00:59" in str(label.content) and label.has_class("warning")
        clock.advance(50)
        screen.tick()
        assert label.has_class("critical")
        clock.advance(9)
        screen.tick()
        await wait_for(pilot, lambda: feedback(app))
        attempt = app.interview.attempts[0]
        assert attempt.auto_submitted and attempt.answer == "混合精度训练"
        assert attempt.time_used == 90


async def test_pause_stops_the_clock(settings) -> None:
    clock = ManualClock()
    app = build(settings, time_limit=60, clock=clock)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: asking(app))
        screen = app.screen
        clock.advance(10)
        await pilot.press("f2")
        assert screen.paused and screen.query_one("#paused").display
        assert not screen.query_one(TextArea).display
        clock.advance(1000)  # a long break
        screen.tick()
        assert asking(app)
        assert "00:50" in str(screen.query_one(CountdownLabel).content)
        await pilot.press("f2")
        clock.advance(5)
        screen.tick()
        assert "00:45" in str(screen.query_one(CountdownLabel).content)


async def test_skip_moves_on_and_keeps_the_draft(settings) -> None:
    app = build(settings)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: asking(app))
        await type_answer(pilot, "半截答案")
        await pilot.press("f3")
        await wait_for(pilot, lambda: on(app, ConfirmScreen))  # a typed answer: ask first
        await pilot.press("n")
        await wait_for(pilot, lambda: asking(app, 0))
        assert app.screen.query_one(TextArea).text == "半截答案"
        assert not app.interview.attempts[0].skipped
        await pilot.press("f3")
        await wait_for(pilot, lambda: on(app, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: asking(app, 1))
        assert app.interview.attempts[0].skipped
        assert app.interview.attempts[0].answer == "半截答案"


async def test_submit_while_the_model_is_loading_waits_then_grades(settings) -> None:
    embedder = GatedEmbedder()
    app = build(settings, embedder=embedder)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: asking(app))
        assert app.model_status == "loading"
        await type_answer(pilot, "混合精度训练。")
        await pilot.press("ctrl+s")
        await pilot.pause()
        screen = app.screen
        assert screen.waiting and screen.query_one("#waiting").display
        assert screen.query_one(TextArea).read_only
        await pilot.press("f1")  # the UI stays responsive while it waits
        await wait_for(pilot, lambda: on(app, HelpScreen))
        await pilot.press("escape")
        embedder.release()
        await wait_for(pilot, lambda: feedback(app))


async def test_markup_like_input_shows_literally_and_cannot_crash(settings) -> None:
    nasty = "[bold]粗体[/] [link=https://x.invalid]链接[/link] [/] [red on blue 混合精度训练 \\[x]"
    app = build(settings)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.model_status == "ready")
        await type_answer(pilot, nasty)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: feedback(app))
        assert str(app.screen.query_one("#answer-text", Static).content) == nasty
        await pilot.press("n")
        await wait_for(pilot, lambda: asking(app))
        await answer_to_summary(pilot, app, nasty)


async def test_bank_text_with_markup_renders_literally(settings) -> None:
    from interviewer.content.bank import parse_bank

    bank = parse_bank("---\nid: m\ntitle: '[b]T[/b]'\nlanguage: en\n---\n\n"
                      "## q1: What does [red]this[/] do?\n\n### Answer\n\n- [link=x]Point[/link]: it works.\n")
    app = make_app(banks=[bank], grader=Grader(BigramEmbedder(), SCORER), settings=settings,
                   choices=SetupChoices(bank="m"), clock=ManualClock())
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: on(app, SetupScreen))
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: asking(app))
        assert str(app.screen.query_one("#question-text", Static).content) == "What does [red]this[/] do?"
        await wait_for(pilot, lambda: app.model_status == "ready")
        await type_answer(pilot, "[link=x]Point[/link] it works")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: feedback(app))
        assert "[link=x]Point[/link]" in points_text(app)
        await pilot.press("n")
        await wait_for(pilot, lambda: on(app, SummaryScreen))


async def test_a_broken_model_keeps_the_answer_and_says_why(settings) -> None:
    app = build(settings, embedder=BrokenEmbedder())
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.model_status == "failed")
        assert "corrupt" in app.model_error
        await type_answer(pilot, "我的回答")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert asking(app)
        assert stored_answer(app, 0) == "我的回答"


async def test_drafts_reach_disk_while_typing(settings) -> None:
    app = build(settings)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: asking(app))
        await type_answer(pilot, "草稿内容")
        await wait_for(pilot, lambda: stored_answer(app, 0) == "草稿内容", timeout=5)


async def test_quitting_mid_question_asks_first(settings) -> None:
    app = build(settings)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: asking(app))
        await type_answer(pilot, "别丢了")
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: on(app, ConfirmScreen))
        await pilot.press("n")
        await wait_for(pilot, lambda: asking(app))
        assert app.screen.query_one(TextArea).text == "别丢了"
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: on(app, ConfirmScreen))
        await pilot.press("y")
        await pilot.pause()
    assert app.return_code == 0


async def answer_to_summary(pilot, app, text: str) -> None:
    """Answer the current (last) question and move on to the summary."""
    await wait_for(pilot, lambda: app.model_status == "ready")
    await type_answer(pilot, text)
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: feedback(app))
    await pilot.press("n")
    await wait_for(pilot, lambda: on(app, SummaryScreen))


async def test_retake_and_export_from_the_summary(settings) -> None:
    app = build(settings, n=1)
    async with app.run_test(size=(100, 32)) as pilot:
        await answer_to_summary(pilot, app, "KV Cache。")
        await pilot.press("e")
        await pilot.pause()
        reports = sorted((settings.data_dir / "reports").iterdir())
        assert [p.suffix for p in reports] == [".html", ".md"]
        assert "KV Cache" in reports[1].read_text(encoding="utf-8")
        await pilot.press("r")
        await wait_for(pilot, lambda: asking(app))
        assert "retake" in str(app.screen.query_one("#progress", Static).content)
        await type_answer(pilot, "KV Cache、量化（INT8/INT4）、PagedAttention。")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: feedback(app))
        await pilot.press("n")
        await wait_for(pilot, lambda: on(app, SummaryScreen))
        assert app.screen.query_one(DataTable).row_count == 2
        await pilot.press("n")
        await wait_for(pilot, lambda: on(app, SetupScreen))


async def test_command_palette_offers_the_main_actions(settings) -> None:
    app = build(settings)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: asking(app))
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert {"Submit answer", "Pause / resume", "Skip question", "Help"} <= set(titles)


async def test_a_new_interview_is_not_offered_while_an_answer_is_being_graded(settings) -> None:
    # starting one then closed the interview the grade was on its way to, and its arrival
    # failed an assertion
    embedder = GatedEmbedder()
    app = build(settings, embedder=embedder)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: asking(app))
        await type_answer(pilot, "混合精度训练。")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen.waiting)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "New interview" not in titles and "Help" in titles
        embedder.release()
        await wait_for(pilot, lambda: feedback(app))
        assert "New interview" in [c.title for c in app.get_system_commands(app.screen)]


async def test_fits_in_80_by_24(settings) -> None:
    app = build(settings)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: asking(app))
        answer = app.screen.query_one(TextArea)
        assert answer.size.height >= 5
        assert app.screen.query_one("#countdown").region.right <= 80


async def test_history_screen_shows_finished_sessions(settings) -> None:
    from interviewer.tui.screens.history import HistoryScreen

    app = build(settings, n=1)
    async with app.run_test(size=(100, 32)) as pilot:
        await answer_to_summary(pilot, app, "KV Cache、量化。")
        await pilot.press("h")
        await wait_for(pilot, lambda: on(app, HistoryScreen))
        table = app.screen.query_one(DataTable)
        assert table.row_count == 1 and str(table.get_row_at(0)[4]) == "finished"
        assert app.screen.query(".trend-chart")
        await pilot.press("escape")
        await wait_for(pilot, lambda: on(app, SummaryScreen))


async def interrupt_while_typing(settings, draft: str) -> None:
    """An interview whose process dies mid-answer with ``draft`` typed: its lock goes with it."""
    first = build(settings, n=2)
    async with first.run_test() as pilot:
        await wait_for(pilot, lambda: asking(first))
        await type_answer(pilot, draft)
        first.screen.save_now()
        first.recorder.close()
    first.store.close()


async def test_an_interrupted_session_is_offered_and_resumed(settings) -> None:
    from interviewer.sessions.store import Store

    await interrupt_while_typing(settings, "没写完的答案")
    second = build(settings, plan=False)
    async with second.run_test() as pilot:
        await wait_for(pilot, lambda: on(second, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: asking(second, 0))
        assert second.screen.query_one(TextArea).text == "没写完的答案"
        session_id = second.recorder.session_id
    second.recorder.close()  # quitting mid-question leaves it resumable again
    assert [s.id for s in Store.open(settings.data_dir).interrupted()] == [session_id]


async def test_the_same_command_again_offers_the_interrupted_interview_first(settings) -> None:
    """`interviewer --bank … --count …` after a closed terminal: the typed answer is offered
    before a new interview starts, and declining it starts the one asked for."""
    await interrupt_while_typing(settings, "没写完的答案")
    # accepted: the draft is back (and closing again leaves it resumable); declined: a new one
    for key, draft in (("y", "没写完的答案"), ("n", "")):
        again = build(settings, n=2)
        async with again.run_test() as pilot:
            await wait_for(pilot, lambda: on(again, ConfirmScreen))
            await pilot.press(key)
            await wait_for(pilot, lambda: asking(again, 0))
            assert again.screen.query_one(TextArea).text == draft
            again.recorder.close()
        again.store.close()


async def test_followup_streams_in_and_its_answer_is_graded_apart(settings, zh_bank) -> None:
    """A real openai client against a real chat-completions server on 127.0.0.1."""
    from dataclasses import replace

    from llm_server import ChatServer, Reply

    from interviewer.config import LLMSettings
    from interviewer.content.bank_rubric import rubric_for_bank
    from interviewer.followups.prober import LLMProber

    q07 = rubric_for_bank(zh_bank).rubric.question("q07")
    target = q07.points[3]  # 通信也只在参数更新时进行一次AllReduce，频率降为1/N
    reply = json.dumps({"followup": "那多卡训练时，梯度累积期间的通信是怎么安排的？", "targets": [target.id]},
                       ensure_ascii=False)
    bank = next(b for b in banks() if b.id == "ai-infra-zh")
    choices = SetupChoices(bank=bank.id, count=1, time_limit=300, followups=True)
    plan = make_plan(bank, choices)
    plan = replace(plan, questions=(bank.question("q07"),))
    held = threading.Event()  # the stream stops after 8 pieces until the test has seen them
    with ChatServer() as server:
        server.script = [Reply(reply, chunk_size=3, hold=held, hold_after=8)]
        prober = LLMProber(LLMSettings(enabled=True, base_url=server.base_url, model="m",
                                       timeout=60), env={})
        app = make_app(banks=banks(), grader=Grader(BigramEmbedder(), SCORER), settings=settings,
                       plan=plan, choices=choices, clock=ManualClock(), prober=prober)
        async with app.run_test(size=(100, 32)) as pilot:
            await wait_for(pilot, lambda: app.model_status == "ready")
            await type_answer(pilot, "梯度累积将一个大batch拆分为多个micro-batch，累积N个micro-batch后做一次参数更新。")
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: app.screen.mode == "followup")
            text = app.screen.query_one("#followup-text", Static)
            await wait_for(pilot, lambda: "多卡" in str(text.content), timeout=60)
            partial = str(text.content)
            assert app.screen.followup_countdown is None  # no answer box for half a question
            held.set()
            await wait_for(pilot, lambda: app.screen.followup_countdown is not None, timeout=60)
            assert len(partial) < len(str(text.content))  # it arrived in pieces
            app.screen.query_one("#followup-answer", TextArea).insert(
                "通信也只在参数更新时进行一次AllReduce，频率降为1/N。")
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: feedback(app))
            assert "with follow-up" in str(app.screen.query_one("#score", Static).content)
            assert "covered after the follow-up" in points_text(app)
        attempt = app.interview.attempts[0]
        assert attempt.followups[0].targets == (target.id,)
        assert attempt.probed_verdicts() == {target.id: "covered"}
        assert attempt.score_with_followups > attempt.score
        row = app.store.session(app.recorder.session_id)
        assert row.attempts[0].followups[0]["answer"].startswith("通信也只在")


def template_followup_app(settings, clock=None):
    """One question (q09) with follow-ups on and no LLM configured: a template asks them."""
    from dataclasses import replace

    bank = next(b for b in banks() if b.id == "ai-infra-zh")
    choices = SetupChoices(bank=bank.id, count=1, time_limit=300, followups=True)
    plan = make_plan(bank, choices)
    return make_app(banks=banks(), grader=Grader(BigramEmbedder(), SCORER), settings=settings,
                    plan=replace(plan, questions=(bank.question("q09"),)), choices=choices,
                    clock=clock or ManualClock())


async def answer_until_the_followup(pilot, app) -> None:
    await wait_for(pilot, lambda: app.model_status == "ready")
    await type_answer(pilot, "学习率过大：参数更新幅度过大导致在最优点附近震荡。")
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: app.screen.mode == "followup"
                   and app.screen.followup_countdown is not None)


async def test_no_llm_configured_still_asks_a_template_followup_and_says_why(settings) -> None:
    app = template_followup_app(settings)
    async with app.run_test(size=(100, 32)) as pilot:
        await answer_until_the_followup(pilot, app)
        assert "no LLM configured" in str(app.screen.query_one("#followup-notice", Static).content)
        assert "「" in str(app.screen.query_one("#followup-text", Static).content)
        await pilot.press("f3")  # skip the follow-up
        await wait_for(pilot, lambda: feedback(app))
        row = app.store.session(app.recorder.session_id)
        assert row.plan["llm"] == {"model": "template (no LLM configured)"}


async def test_keys_still_queued_when_ctrl_s_arrives_are_part_of_the_answer(settings) -> None:
    """A paste, or a fast typist: Ctrl+S (a priority binding) must not overtake the keys
    typed before it."""
    from textual import events

    text = "梯度累积减少通信频率" * 3
    app = build(settings)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.model_status == "ready")
        for ch in text:
            app.post_message(events.Key(ch, ch))
        app.post_message(events.Key("ctrl+s", None))
        await wait_for(pilot, lambda: feedback(app))
        assert app.interview.attempts[0].answer == text
        assert app.interview.attempts[0].grade.answer == text


async def test_the_summary_table_follows_a_resize(settings) -> None:
    app = build(settings, n=1)
    async with app.run_test(size=(120, 32)) as pilot:
        await answer_to_summary(pilot, app, "KV Cache。")
        table = app.screen.query_one(DataTable)
        question = lambda: table.ordered_columns[-1].width  # noqa: E731
        assert question() == 120 - 32
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: question() == 80 - 32)
        assert table.row_count == 1 and table.has_focus


async def test_an_interview_over_two_banks_from_setup_to_resume(settings) -> None:
    from textual.widgets import SelectionList

    from interviewer.sessions.store import Store

    first = build(settings, plan=False)
    async with first.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: on(first, SetupScreen))
        first.screen.query_one("#bank", SelectionList).select("llm-systems-en")
        await pilot.pause()
        first.screen.query_one("#count", Input).value = ""  # all questions of both banks
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: asking(first))
        plan = first.interview.plan
        assert plan.bank.id == "ai-infra-zh+llm-systems-en"
        assert {q.id.split(":")[0] for q in plan.questions} == {"ai-infra-zh", "llm-systems-en"}
        await wait_for(pilot, lambda: first.model_status == "ready")
        await type_answer(pilot, "KV Cache、量化。")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: feedback(first))
        assert first.interview.attempts[0].grade.points[0].point_id.startswith("ai-infra-zh:")
        await pilot.press("n")
        await wait_for(pilot, lambda: asking(first, 1))
        await type_answer(pilot, "半句")
        first.screen.save_now()
        first.recorder.close()  # the process dies mid-question
    first.store.close()
    saved = json.loads((settings.data_dir / "last_setup.json").read_text(encoding="utf-8"))
    assert saved["bank"] == "ai-infra-zh+llm-systems-en"
    second = build(settings, plan=False)
    async with second.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: on(second, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: asking(second, 1))
        assert second.screen.query_one(TextArea).text == "半句"
        assert second.interview.rubric.bank == "ai-infra-zh+llm-systems-en"
        assert second.interview.attempts[0].grade is not None
        second.recorder.close()
    assert Store.open(settings.data_dir).interrupted()


async def test_setup_remembers_two_banks_and_needs_at_least_one(settings) -> None:
    from textual.widgets import SelectionList

    choices = SetupChoices(bank="ai-infra-zh+llm-systems-en")
    app = make_app(banks=banks(), grader=Grader(BigramEmbedder(), SCORER), settings=settings,
                   choices=choices, clock=ManualClock())
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: on(app, SetupScreen))
        picker = app.screen.query_one("#bank", SelectionList)
        assert sorted(picker.selected) == ["ai-infra-zh", "llm-systems-en"]
        picker.deselect_all()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert on(app, SetupScreen)
        assert "at least one question bank" in str(app.screen.query_one("#setup-error", Static).content)


async def test_a_summary_of_skipped_questions_does_not_praise(settings) -> None:
    app = build(settings, n=1)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: asking(app))
        await pilot.press("f3")
        await wait_for(pilot, lambda: on(app, SummaryScreen))
        missed = str(app.screen.query_one("#missed", Static).content)
        assert "every question was skipped" in missed and "Well done" not in missed


async def submit_answer(pilot, app, text: str) -> None:
    await type_answer(pilot, text)
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: feedback(app))


async def answer_and_retake(pilot, app) -> None:
    """Answer the first question, then ask to retake it; returns once it is asked again."""
    await wait_for(pilot, lambda: app.model_status == "ready")
    await submit_answer(pilot, app, "KV Cache。")
    await pilot.press("r")
    await wait_for(pilot, lambda: asking(app))


async def test_a_retake_mid_interview_goes_back_to_the_plan(settings, zh_bank) -> None:
    app = build(settings, n=3)
    async with app.run_test(size=(100, 32)) as pilot:
        await answer_and_retake(pilot, app)
        assert str(app.screen.query_one("#progress", Static).content) == "Question 1 of 3 · retake"
        await submit_answer(pilot, app, "KV Cache、量化（INT8/INT4）、PagedAttention。")
        await pilot.press("n")
        await wait_for(pilot, lambda: asking(app))
        assert str(app.screen.query_one("#progress", Static).content) == "Question 2 of 3"
        assert str(app.screen.query_one("#question-text", Static).content) == zh_bank.questions[1].text


async def test_the_summary_lists_a_retake_under_its_question_and_opens_that_attempt(
        settings, zh_bank) -> None:
    # a retake made at question 1 is stored after the plan's questions; the summary listed it
    # after question 3, and Enter on a row opened the attempt of that position
    app = build(settings, n=3)
    async with app.run_test(size=(120, 40)) as pilot:
        await answer_and_retake(pilot, app)
        await submit_answer(pilot, app, "KV Cache、量化（INT8/INT4）、PagedAttention。")
        await pilot.press("n")
        await wait_for(pilot, lambda: asking(app, 1))
        await pilot.press("f3")  # skip questions 2 and 3
        await wait_for(pilot, lambda: asking(app, 2))
        await pilot.press("f3")
        await wait_for(pilot, lambda: on(app, SummaryScreen))
        table = app.screen.query_one(DataTable)
        rows = [[str(c) for c in table.get_row_at(r)] for r in range(table.row_count)]
        assert [r[0] for r in rows] == ["1", "1", "2", "3"]
        assert rows[1][3].endswith("(retake)") and rows[2][1] == rows[3][1] == "skipped"
        await pilot.press("down", "enter")  # the retake, second row
        await wait_for(pilot, lambda: feedback(app))
        assert app.screen.index == 3  # the retake is the fourth attempt stored


async def test_what_is_on_screen_is_on_disk_at_every_change_and_the_label_says_so(
        settings) -> None:
    """No wait between a keystroke and its draft: a kill -9 cannot be caught."""
    app = build(settings)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: asking(app))
        label = app.screen.query_one("#save-status", Static)
        await type_answer(pilot, "第一句。")
        assert stored_answer(app, 0) == "第一句。"
        assert str(label.content) == "✓ draft saved"
        await type_answer(pilot, "第二句")
        assert stored_answer(app, 0) == "第一句。第二句"
        assert str(label.content) == "✓ draft saved"


async def test_the_time_used_reaches_disk_while_idle(settings) -> None:
    clock = ManualClock()
    app = build(settings, clock=clock)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: asking(app))
        await type_answer(pilot, "答了一半")
        await wait_for(pilot, lambda: stored_answer(app, 0) == "答了一半", timeout=5)
        clock.advance(30)  # no key pressed after this

        def stored_time() -> float:
            return app.store.session(app.recorder.session_id).attempts[0].time_used

        await wait_for(pilot, lambda: stored_time() >= 30, timeout=5)


async def test_a_resumed_draft_takes_new_typing_at_its_end(settings) -> None:
    first = build(settings, n=2)
    async with first.run_test() as pilot:
        await wait_for(pilot, lambda: asking(first))
        await type_answer(pilot, "第一行\n没写完的答案")
        first.screen.save_now()
        first.recorder.close()
    first.store.close()
    second = build(settings, plan=False)
    async with second.run_test() as pilot:
        await wait_for(pilot, lambda: on(second, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: asking(second, 0))
        await pilot.press("x")
        assert second.screen.query_one(TextArea).text == "第一行\n没写完的答案x"
    second.recorder.close()


async def test_skipping_an_empty_answer_does_not_ask(settings) -> None:
    app = build(settings)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: asking(app))
        await pilot.press("f3")
        await wait_for(pilot, lambda: asking(app, 1))
        assert app.interview.attempts[0].skipped


def notices(app) -> list[str]:
    return [n.message for n in app._notifications]


async def test_a_one_minute_question_does_not_start_with_a_one_minute_warning(settings) -> None:
    clock = ManualClock()
    app = build(settings, time_limit=60, clock=clock)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: asking(app, 0))
        clock.advance(1)
        app.screen.tick()
        await pilot.press("f3")  # nothing typed: skips at once
        await wait_for(pilot, lambda: asking(app, 1))
        clock.advance(1)
        app.screen.tick()
        await pilot.pause()
        assert "1 minute left" not in notices(app)
        clock.advance(50)
        app.screen.tick()
        await wait_for(pilot, lambda: "10 seconds left" in notices(app))
        assert "1 minute left" not in notices(app)


async def test_history_after_one_session_reads_right_at_80_columns(settings) -> None:
    from interviewer.tui.screens.history import HistoryScreen

    app = build(settings, n=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await answer_to_summary(pilot, app, "KV Cache、量化（INT8/INT4）、PagedAttention。")
        await pilot.press("h")
        await wait_for(pilot, lambda: on(app, HistoryScreen))
        table = app.screen.query_one(DataTable)
        bank_column = table.ordered_columns[1]
        assert bank_column.get_render_width(table) >= len("ai-infra-zh")
        texts = " ".join(str(s.content) for s in app.screen.query(".trend-label"))
        assert "1 session," in texts and "1 sessions" not in texts
        assert "one session so far" in texts  # no chart that reads as 100 %
        assert "different days" in texts  # why mastery is 0 % after one good answer
        for label in app.screen.query(".trend-label"):  # height auto: wraps, never clipped
            assert label.region.right <= 80 and label.styles.height.is_auto


async def test_summary_reopens_feedback_keeps_the_export_path_and_fits_80_columns(settings) -> None:
    from textual.widgets import Footer

    app = build(settings, n=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await answer_to_summary(pilot, app, "KV Cache、量化（INT8/INT4）、PagedAttention。")
        footer = app.screen.query_one(Footer)
        *keys, palette = footer.query("FooterKey")  # the palette key is drawn last, at the right
        assert keys and all(k.region.right <= palette.region.x for k in keys)
        await pilot.press("e")
        await pilot.pause()
        html = next((settings.data_dir / "reports").glob("*.html"))
        assert str(html) in str(app.screen.query_one("#export-path", Static).content)
        await pilot.press("enter")
        await wait_for(pilot, lambda: feedback(app))
        assert app.screen.index == 0 and "PagedAttention" in str(
            app.screen.query_one("#answer-text", Static).content)
        await pilot.press("n")
        await wait_for(pilot, lambda: on(app, SummaryScreen))
        assert app.screen.query_one(DataTable).row_count == 1


async def test_setup_check_boxes_show_their_state_by_a_mark_not_only_colour(settings) -> None:
    from textual.widgets import SelectionList

    app = build(settings, plan=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: on(app, SetupScreen))
        banks_list = app.screen.query_one("#bank", SelectionList)
        selected = set(banks_list.selected)
        lines = {banks_list.get_option_at_index(i).value: banks_list.render_line(i).text
                 for i in range(banks_list.option_count)}
        assert selected and len(lines) > len(selected)
        for value, line in lines.items():
            assert ("✓" in line[:4]) == (value in selected), line


async def test_chinese_answer_wraps_between_characters_and_no_line_starts_with_a_mark(settings) -> None:
    from interviewer.linebreak import NO_START, cell_width

    answer = ("训练加速：混合精度训练（FP16/BF16），梯度累积减少通信频率，数据并行加模型并行。推理"
              "加速 KV缓存分页注意力连续批处理量化投机解码算子融合编译优化通信与计算重叠，还有更多。")
    app = build(settings, n=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.model_status == "ready")
        await type_answer(pilot, answer)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: feedback(app))
        view = app.screen.query_one("#answer-text")
        width = view.content_size.width
        lines = [line.text.rstrip() for line in view.render_lines(view.content_region.reset_offset)]
        lines = [line for line in lines if line]
        assert "".join(lines).replace(" ", "") == answer.replace(" ", "")
        assert not any(line[:1] in NO_START for line in lines)
        cells = [sum(cell_width(c) for c in line) for line in lines]
        assert all(c >= width - 3 for c in cells[:-1]), (width, cells)  # no short lines


async def test_feedback_shows_what_should_have_been_said_for_points_not_covered(settings) -> None:
    app = build(settings, n=1)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.model_status == "ready")
        await type_answer(pilot, "训练加速：混合精度训练（FP16/BF16）。")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: feedback(app))
        rubric = app.interview.rubric.question("q01")
        rows = points_text(app).split("\n\n")
        grade = app.interview.attempts[0].grade
        shown = None
        for row, p in zip(rows, grade.points):
            source = rubric.point(p.point_id).source
            if p.verdict == "covered":
                assert "should have said" not in row
            elif source == shown:  # a sentence stating several points is printed once
                assert "should have said: the same sentence as above" in row
                assert "“" not in row.split("should have said")[1]  # not words to quote
            else:
                assert f"should have said: “{source}”" in row
                shown = source
        assert any(p.verdict != "covered" for p in grade.points)


async def test_time_up_on_a_follow_up_submits_it_from_the_screen_s_own_clock(settings) -> None:
    clock = ManualClock()
    app = template_followup_app(settings, clock)
    async with app.run_test(size=(100, 32)) as pilot:
        await answer_until_the_followup(pilot, app)
        app.screen.query_one("#followup-answer", TextArea).insert("学习率太小收敛慢。")
        clock.advance(3600)
        await wait_for(pilot, lambda: feedback(app))
        assert app.interview.attempts[0].followups[0].answer == "学习率太小收敛慢。"
