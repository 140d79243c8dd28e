"""What each screen looks like, frozen: a fake model that is ready at once and a clock
that does not move. Update with ``pytest tests/functional/test_snapshots.py --snapshot-update``
after a deliberate change, and look at the report before committing."""

from __future__ import annotations

import pytest
from textual.widgets import TextArea

from conftest import ROOT
from fakes import BigramEmbedder
from interviewer.content.catalog import BankCatalog
from interviewer.grading.calibration import Scorer
from interviewer.grading.grader import Grader
from interviewer.sessions.plan import SetupChoices, make_plan
from interviewer.sessions.timer import ManualClock
from interviewer.tui.app import make_app

SIZE = (100, 32)
ANSWER = ("训练加速：混合精度训练（FP16/BF16）可以省显存，数据并行+流水线并行，梯度累积减少通信频率。"
          "推理加速：KV Cache、量化（INT8/INT4）、PagedAttention。[bold]不是标记[/]")


def app(settings, plan: bool = True, n: int = 2):
    banks = BankCatalog([ROOT / "bank"]).banks()
    bank = next(b for b in banks if b.id == "ai-infra-zh")
    choices = SetupChoices(bank=bank.id, count=n, time_limit=300)
    return make_app(banks=banks, grader=Grader(BigramEmbedder(), Scorer(0.6, 0.3, source="test")),
                    settings=settings, plan=make_plan(bank, choices) if plan else None,
                    choices=choices, clock=ManualClock())


async def settle(pilot, condition) -> None:
    for _ in range(500):
        if condition():
            break
        await pilot.pause(0.02)
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


async def answered(pilot) -> None:
    await settle(pilot, lambda: pilot.app.model_status == "ready")
    pilot.app.screen.query_one(TextArea).insert(ANSWER)
    await pilot.press("ctrl+s")
    await settle(pilot, lambda: getattr(pilot.app.screen, "mode", None) == "feedback")


@pytest.fixture
def frozen(settings):
    return settings


def test_setup_screen(snap_compare, frozen) -> None:
    async def ready(pilot):
        await settle(pilot, lambda: pilot.app.model_status == "ready")
    assert snap_compare(app(frozen, plan=False), terminal_size=SIZE, run_before=ready)


def test_question_screen(snap_compare, frozen) -> None:
    async def typed(pilot):
        await settle(pilot, lambda: pilot.app.model_status == "ready")
        pilot.app.screen.query_one(TextArea).insert("梯度累积：把大batch拆成micro-batch。")
        pilot.app.screen.save_now()  # not left to the 1 s timer: the frame must not depend on it
        await pilot.pause()
    assert snap_compare(app(frozen), terminal_size=SIZE, run_before=typed)


def test_question_screen_at_80x24(snap_compare, frozen) -> None:
    async def ready(pilot):
        await settle(pilot, lambda: pilot.app.model_status == "ready")
        pilot.app.screen.query_one(TextArea).cursor_blink = False  # the frame must not blink
        await pilot.pause()
    assert snap_compare(app(frozen), terminal_size=(80, 24), run_before=ready)


def test_feedback_screen(snap_compare, frozen) -> None:
    assert snap_compare(app(frozen), terminal_size=SIZE, run_before=answered)


def test_feedback_screen_light_theme(snap_compare, frozen) -> None:
    async def light(pilot):
        pilot.app.theme = "textual-light"
        await answered(pilot)
    assert snap_compare(app(frozen), terminal_size=SIZE, run_before=light)


def test_summary_screen(snap_compare, frozen) -> None:
    async def done(pilot):
        await answered(pilot)
        await pilot.press("n")
        await settle(pilot, lambda: type(pilot.app.screen).__name__ == "SummaryScreen")
    assert snap_compare(app(frozen, n=1), terminal_size=SIZE, run_before=done)


def test_help_screen(snap_compare, frozen) -> None:
    async def helped(pilot):
        from interviewer.tui.screens.help import HelpScreen

        await settle(pilot, lambda: pilot.app.model_status == "ready")
        await pilot.press("f1")
        await settle(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))
    assert snap_compare(app(frozen), terminal_size=SIZE, run_before=helped)
