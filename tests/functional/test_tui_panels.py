"""The interview screen's panels on their own: each shows what it is given and posts what the
user did as a message; and the interview screen follows what the app tells it."""

from __future__ import annotations

import asyncio

import pytest
from fakes import BigramEmbedder
from helpers import banks, build, feedback, wait_for
from textual.app import App
from textual.widgets import Static, TextArea

from interviewer import factory
from interviewer.grading.calibration import Scorer
from interviewer.grading.grader import Grader
from interviewer.sessions.controller import InterviewController
from interviewer.sessions.plan import SetupChoices, make_plan
from interviewer.sessions.timer import ManualClock
from interviewer.tui.messages import FollowUpAsked, FollowUpChunk, FollowUpStarted, Graded
from interviewer.tui.screens.feedback_panel import FeedbackPanel
from interviewer.tui.screens.followup_panel import FollowUpPanel
from interviewer.tui.screens.question_panel import QuestionPanel

ANSWER = "梯度累积把大batch拆成多个micro-batch。"


@pytest.fixture
def controller(settings):
    all_banks = banks()
    bank = next(b for b in all_banks if b.id == "ai-infra-zh")
    choices = SetupChoices(bank=bank.id, count=2, time_limit=300)
    controller = InterviewController(banks=all_banks, store=factory.open_store(settings),
                                     settings=settings, model_id="test", clock=ManualClock(),
                                     choices=choices)
    controller.start(make_plan(bank, choices))
    yield controller
    controller.close()


class Host(App[None]):
    """One panel on a screen of its own; every message it posts is kept."""

    def __init__(self, panel) -> None:
        super().__init__()
        self.panel = panel
        self.posted: list = []

    def compose(self):
        yield self.panel

    def on_question_panel_submitted(self, m: QuestionPanel.Submitted) -> None:
        self.posted.append(("submitted", m.index, m.text))

    def on_question_panel_skipped(self, m: QuestionPanel.Skipped) -> None:
        self.posted.append(("skipped", m.index))

    def on_follow_up_panel_submitted(self, m: FollowUpPanel.Submitted) -> None:
        self.posted.append(("follow-up submitted", m.index, m.text, m.time_used))

    def on_follow_up_panel_skipped(self, m: FollowUpPanel.Skipped) -> None:
        self.posted.append(("follow-up skipped", m.index))

    def on_feedback_panel_next_requested(self, _: FeedbackPanel.NextRequested) -> None:
        self.posted.append(("next",))

    def on_feedback_panel_retake_requested(self, m: FeedbackPanel.RetakeRequested) -> None:
        self.posted.append(("retake", m.index))


async def test_question_panel_posts_submitted_with_what_was_typed(controller) -> None:
    panel = QuestionPanel(controller, id="question-panel")
    host = Host(panel)
    async with host.run_test(size=(100, 32)) as pilot:
        panel.ask(1)
        await pilot.pause()
        question = controller.interview.attempts[1].question
        assert str(panel.query_one("#question-text", Static).content) == question.text
        assert str(panel.query_one("#progress", Static).content) == "Question 2 of 2"
        panel.submit(allow_empty=False)  # nothing typed: a warning, no message
        await pilot.pause()
        assert host.posted == [] and not panel.waiting
        panel.query_one(TextArea).insert(ANSWER)
        await pilot.pause()
        panel.submit(allow_empty=False)
        await wait_for(pilot, lambda: host.posted)
        assert host.posted == [("submitted", 1, ANSWER)]
        assert panel.waiting and panel.query_one(TextArea).read_only
        assert controller.interview.attempts[1].answer == ANSWER  # saved before it is sent


async def test_question_panel_skips_an_empty_answer_at_once(controller) -> None:
    panel = QuestionPanel(controller, id="question-panel")
    host = Host(panel)
    async with host.run_test(size=(100, 32)) as pilot:
        panel.ask(0)
        await pilot.pause()
        panel.skip()
        await wait_for(pilot, lambda: host.posted)
        assert host.posted == [("skipped", 0)]


async def test_follow_up_panel_streams_then_posts_the_answer(controller) -> None:
    controller.followup_asked(0, "为什么要梯度累积？", ["p1"], "template", None)
    panel = FollowUpPanel(controller, id="followup-panel")
    host = Host(panel)
    async with host.run_test(size=(100, 32)) as pilot:
        panel.thinking(0)
        panel.stream("为什么")
        await pilot.pause()
        text = panel.query_one("#followup-text", Static)
        assert str(text.content) == "为什么"
        assert panel.countdown is None and panel.query_one(TextArea).read_only
        panel.asked(0, "为什么要梯度累积？", "no LLM configured")
        panel.stream("late text")  # the question is complete: no more streaming into it
        await pilot.pause()
        assert str(text.content) == "为什么要梯度累积？"
        assert "no LLM" in str(panel.query_one("#followup-notice", Static).content)
        panel.query_one(TextArea).insert("省显存")
        await pilot.pause()
        panel.submit(allow_empty=False)
        await wait_for(pilot, lambda: host.posted)
        assert host.posted == [("follow-up submitted", 0, "省显存", 0.0)]
        assert panel.waiting
        panel.skip()  # waiting for its grade: F3 does nothing
        await pilot.pause()
        assert len(host.posted) == 1


async def test_follow_up_panel_posts_skipped_while_it_is_written(controller) -> None:
    panel = FollowUpPanel(controller, id="followup-panel")
    host = Host(panel)
    async with host.run_test(size=(100, 32)) as pilot:
        panel.thinking(1)
        panel.skip()
        await wait_for(pilot, lambda: host.posted)
        assert host.posted == [("follow-up skipped", 1)]


async def test_feedback_panel_shows_the_grade_and_posts_next_and_retake(controller) -> None:
    grader = Grader(BigramEmbedder(), Scorer(0.6, 0.3, source="test"))
    interview = controller.interview
    attempt = interview.attempts[0]
    controller.graded(0, grader.grade(interview.rubric, attempt.question.id, ANSWER))
    panel = FeedbackPanel(controller, id="feedback-panel")
    host = Host(panel)
    async with host.run_test(size=(100, 32)) as pilot:
        panel.show(0)
        await pilot.pause()
        assert str(panel.query_one("#answer-text", Static).content) == ANSWER
        assert str(panel.query_one("#score", Static).content).startswith("Score")
        before = str(panel.query_one("#points-text", Static).content)
        panel.toggle_numbers()
        assert str(panel.query_one("#points-text", Static).content) != before
        panel.next()
        panel.retake()
        await wait_for(pilot, lambda: len(host.posted) == 2)
        assert host.posted == [("next",), ("retake", 0)]


async def test_interview_screen_follows_what_it_is_told(settings) -> None:
    """Told of a grade, a follow-up being written, its text and the whole question, the
    screen shows each; nothing calls into it."""
    app = build(settings)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: getattr(app.screen, "mode", None) == "question")
        screen = app.screen
        grader = Grader(BigramEmbedder(), Scorer(0.6, 0.3, source="test"))
        question = app.interview.attempts[0].question
        app.controller.graded(0, grader.grade(app.interview.rubric, question.id, ANSWER))
        screen.post_message(FollowUpStarted(0))
        screen.post_message(FollowUpChunk("为什么"))
        await wait_for(pilot, lambda: screen.mode == "followup")
        await wait_for(pilot, lambda: str(screen.query_one("#followup-text", Static).content)
                       == "为什么")
        screen.post_message(FollowUpAsked(0, "为什么要梯度累积？", None))
        await wait_for(pilot, lambda: screen.followup_countdown is not None)
        screen.post_message(Graded(0))
        await wait_for(pilot, lambda: feedback(app))
        assert str(screen.query_one("#answer-text", Static).content) == ANSWER


async def test_a_grade_that_arrives_under_the_help_screen_is_shown_when_it_closes(settings) -> None:
    from fakes import GatedEmbedder
    from helpers import asking, on, type_answer

    from interviewer.tui.screens.help import HelpScreen

    embedder = GatedEmbedder()
    app = build(settings, embedder=embedder)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: asking(app))
        await type_answer(pilot, "混合精度训练。")
        await pilot.press("ctrl+s")
        await pilot.press("f1")
        await wait_for(pilot, lambda: on(app, HelpScreen))
        embedder.release()
        await wait_for(pilot, lambda: app.interview.attempts[0].grade is not None, timeout=30)
        await pilot.press("escape")
        await wait_for(pilot, lambda: feedback(app))  # not left waiting for a grade it has


class AnswerGate(BigramEmbedder):
    """A loaded model that holds (or fails) the grade of any answer containing ``marker``."""

    def __init__(self, marker: str, fail: bool = False) -> None:
        super().__init__()
        import threading

        self.marker, self.fail, self.gate = marker, fail, threading.Event()

    def embed(self, texts):
        if any(self.marker in t for t in texts):
            if self.fail:
                raise RuntimeError("the model stopped")
            self.gate.wait(timeout=30)
        return super().embed(texts)


async def test_the_key_bar_shows_the_feedback_keys_in_the_frame_that_shows_the_feedback(
        settings) -> None:
    """The question's keys become the feedback's as the feedback is put on screen, not in a
    later frame; and back again for the next question. The bar is one widget, one line."""
    from helpers import asking, type_answer
    from interviewer.tui.widgets import KeyBar

    app = build(settings)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: asking(app) and app.model_status == "ready")
        screen = app.screen
        bar = screen.query_one(KeyBar)
        assert not bar.children and bar.region.height == 1
        assert {"Submit", "Skip"} <= set(bar.descriptions)
        await type_answer(pilot, "门：混合精度训练。")
        await pilot.press("ctrl+s")
        for _ in range(30_000):  # not Pilot.pause: it lets a deferred update run first
            if feedback(app):
                break
            await asyncio.sleep(0.001)
        assert {"Next", "Numbers", "Retake"} <= set(bar.descriptions)
        assert "Submit" not in bar.descriptions
        await pilot.pause()
        line = "".join(s.text for s in bar.render_line(0))
        assert "Next" in line and "Retake" in line and "Submit" not in line
        await pilot.press("n")
        await wait_for(pilot, lambda: asking(app, 1))
        assert {"Submit", "Skip"} <= set(bar.descriptions)


async def test_a_click_on_a_key_of_the_key_bar_presses_it(settings) -> None:
    from helpers import asking, type_answer
    from interviewer.tui.widgets import KeyBar

    app = build(settings)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: asking(app) and app.model_status == "ready")
        bar = app.screen.query_one(KeyBar)
        await type_answer(pilot, "门：混合精度训练。")
        x = bar.key_offsets()["ctrl+s"]
        await pilot.click(KeyBar, offset=(x, 0))
        await wait_for(pilot, lambda: feedback(app))


async def test_a_failed_grade_puts_the_answer_back_to_be_edited(settings) -> None:
    from helpers import asking, type_answer
    from textual.widgets import ContentSwitcher

    app = build(settings, embedder=AnswerGate("坏", fail=True))
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: asking(app) and app.model_status == "ready")
        screen = app.screen
        await type_answer(pilot, "坏的回答")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not screen.waiting)
        await pilot.pause()
        answer = screen.query_one(TextArea)
        assert asking(app, 0) and screen.query_one(ContentSwitcher).current == "question-panel"
        assert not answer.read_only and screen.focused is answer
        assert {"Submit", "Skip"} <= set(screen.query_one("KeyBar").descriptions)
        await type_answer(pilot, "，再写一句")
        assert app.interview.attempts[0].answer == "坏的回答，再写一句"


async def test_the_feedback_s_points_take_the_keys_once_it_is_shown(settings) -> None:
    """The list of points is focused once the feedback is on screen (after its first frame):
    the arrow and page keys scroll it, and the answer box no longer has the focus."""
    from textual.containers import VerticalScroll

    from helpers import asking, type_answer

    app = build(settings)
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_for(pilot, lambda: asking(app) and app.model_status == "ready")
        await type_answer(pilot, "门：混合精度训练。")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: feedback(app))
        points = app.screen.query_one("#points", VerticalScroll)
        await wait_for(pilot, lambda: app.focused is points)
        assert points.max_scroll_y > 0  # the list runs below the fold at this size
        await pilot.press("pagedown")
        await wait_for(pilot, lambda: points.scroll_y > 0)
