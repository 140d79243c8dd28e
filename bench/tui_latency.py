"""How much the TUI adds: launch time and submit-to-feedback latency.

    python bench/tui_latency.py [--runs 15] [--answers 20] [--grader process|thread]
    (0 leaves that part out)

1. Launch: time from process start to the first interactive question, against a bare
   Textual app's time to its first frame, both headless, interleaved, medians over runs;
   both from byte-compiled modules, as a `pip install` leaves them.
2. Submit to feedback: with the model loaded, the time from Ctrl+S to the feedback screen
   being drawn, against the grader's own time for the same answer (warm), p50 and p95, and
   against a bare Textual app drawing the same feedback text (one Static in a scroll view,
   at the same terminal size): the floor any Textual screen of that text costs.

A frame counts as drawn when the app hands the rendered screen to the terminal
(``App._display``, which a headless app also reaches), for both apps and for the launch.
``call_after_refresh`` is not a measure of it: its callback can run as soon as the screen has
handled the messages before it, before the widgets' refresh has reached the screen, and did
so for most feedbacks.

``--read SECONDS[,SECONDS...]``: the time between the answer being typed and Ctrl+S, one
submit measurement per value (default ``0,1``). The app grades an answer once typing has
stopped for ``AHEAD_DELAY`` (0.25 s): with 1 s, as a candidate reads an answer over before
sending it (the Keystroke-Level Model puts 1.35 s of thought before a command), the grade is
made before the submit; with 0, an answer pasted and sent in the same instant, it is not.

Both apps draw at the frame rate the CLI asks Textual for (``interviewer.tui.FRAME_RATE``,
or ``TEXTUAL_FPS`` when it is set).

``--grader``: ``process`` (the default, what ``interviewer run`` uses) grades in a child
process that keeps the model loaded; ``thread`` grades in a worker thread of the app.

Both are ratios measured in one run on the same machine; absolute times are for information.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# A frame is drawn when the app hands the screen's update to the terminal (App._display,
# which a headless app still calls once the update is rendered). ``call_after_refresh`` is
# no measure of it: its callback can run before the widgets' refresh reaches the screen.
BARE = """
import os, time
t0 = float(os.environ["BENCH_T0"])
from textual.app import App
from textual.widgets import Static
class Bare(App):
    def compose(self):
        yield Static("hello")
    def _display(self, screen, renderable):
        super()._display(screen, renderable)
        if renderable is not None and not getattr(self, "done", False):
            self.done = True
            print(f"READY {time.time() - t0:.4f}")
            self.exit()
Bare().run(headless=True)
"""

INTERVIEWER = """
import os, time
t0 = float(os.environ["BENCH_T0"])
from interviewer.tui import prefer_frame_rate
prefer_frame_rate()  # as the CLI does before it imports the app
from interviewer.factory import {grader}, make_catalog
from interviewer.config import discover_settings
from interviewer.sessions.plan import SetupChoices, make_plan
from interviewer.tui.app import InterviewApp, make_app
from interviewer.tui.screens.interview import InterviewScreen
settings = discover_settings()
banks = make_catalog(settings).banks()
bank = next(b for b in banks if b.id == "ai-infra-zh")
choices = SetupChoices(bank=bank.id)
shown = InterviewApp._display
def display(self, screen, renderable):  # the first frame that shows the question
    shown(self, screen, renderable)
    if renderable is not None and isinstance(screen, InterviewScreen) and screen.is_mounted \\
            and not getattr(self, "done", False):
        self.done = True
        print(f"READY {time.time() - t0:.4f}")
        self.exit()
InterviewApp._display = display
app = make_app(banks=banks, grader={grader}(settings), settings=settings,
               plan=make_plan(bank, choices), choices=choices)
app.run(headless=True)
"""


LAUNCH_GRADER = {"process": "tui_grader", "thread": "deferred_grader"}


def launch(code: str, home: str) -> float:
    env = {**os.environ, "BENCH_T0": repr(time.time()), "INTERVIEWER_HOME": home}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, cwd=ROOT, timeout=300)
    for line in out.stdout.splitlines():
        if line.startswith("READY"):
            return float(line.split()[1])
    raise RuntimeError(out.stderr[-2000:])


def bench_launch(runs: int, home: str, grader: str = "process") -> dict:
    # Measure the app as installed: `pip install .` (the README) byte-compiles the package, as
    # it did Textual for the bare app. A checkout run with PYTHONDONTWRITEBYTECODE=1 (set on
    # the development machine) would otherwise compile every interviewer module at each launch.
    import compileall

    compileall.compile_dir(ROOT / "interviewer", quiet=1)
    bare, full = [], []
    interviewer = INTERVIEWER.replace("{grader}", LAUNCH_GRADER[grader])
    launch(BARE, home)  # warm the file cache for both
    launch(interviewer, home)
    for _ in range(runs):
        bare.append(launch(BARE, home))
        full.append(launch(interviewer, home))
    mb, mf = statistics.median(bare), statistics.median(full)
    # each launch against the bare launch just before it: less sensitive to slow stretches
    paired = statistics.median(f / b for b, f in zip(bare, full))
    return {"bare_first_frame_s": mb, "interviewer_first_question_s": mf, "ratio": mf / mb,
            "paired_ratio_median": paired, "runs": runs}


def bench_submit(n: int, home: str, grader_kind: str = "process", quiet_wait: bool = False,
                 read: float = 0.0) -> dict:
    import asyncio

    os.environ["INTERVIEWER_HOME"] = home
    sys.path.insert(0, str(ROOT))
    from interviewer.tui import prefer_frame_rate

    prefer_frame_rate()  # as the CLI does, before textual is imported (the bare app too)
    from textual.widgets import TextArea

    from interviewer.factory import make_catalog, make_grader, tui_grader
    from interviewer.config import discover_settings
    from interviewer.sessions.plan import SetupChoices, make_plan
    from interviewer.tui.app import make_app
    from interviewer.tui.screens.interview import InterviewScreen

    # distinct real answers, so neither run finds an answer already encoded
    answers = []
    for path in sorted((ROOT / "bench" / "data").glob("labeled-*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            if item["question_id"] == "q01" and item["answer"].strip() and item["answer"] not in answers:
                answers.append(item["answer"])
    answers = answers[:n]
    n = len(answers)
    shown: list[str] = []  # the feedback each answer got, as text, for the bare app
    settings = discover_settings()
    banks = make_catalog(settings).banks()
    bank = next(b for b in banks if b.id == "ai-infra-zh")
    choices = SetupChoices(bank=bank.id, count=1, time_limit=None)
    grader = tui_grader(settings) if grader_kind == "process" else make_grader(settings)
    app = make_app(banks=banks, grader=grader, settings=settings, plan=make_plan(bank, choices),
                   choices=choices)

    # when each answer was submitted, its grade reached the screen, and each frame was drawn
    submits: list[float] = []
    graded: list[float] = []
    frames = _frames(app)
    submit, on_graded = app.submit_answer, InterviewScreen.on_graded

    def submitting(index: int, text: str) -> None:
        submits.append(time.perf_counter())
        submit(index, text)

    def grade_shown(screen, message) -> None:
        on_graded(screen, message)
        graded.append(time.perf_counter())

    app.submit_answer = submitting
    InterviewScreen.on_graded = grade_shown
    drawn: list[float] = []

    async def run() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            while app.model_status != "ready":
                await pilot.pause(0.01)
            for i, text in enumerate(answers):
                while not (isinstance(app.screen, InterviewScreen) and app.screen.mode == "question"):
                    await pilot.pause(0.001)
                app.screen.query_one(TextArea).load_text(text)
                await pilot.pause()
                if read:  # the candidate reads the answer over, and the app is left to itself
                    await asyncio.sleep(read)
                await pilot.press("ctrl+s")
                # the first frame drawn after the grade reached the screen shows the feedback
                while len(graded) <= i or frames[-1] <= graded[i]:
                    if quiet_wait:  # the app left to itself, as while a person waits
                        await asyncio.sleep(0.001)
                    else:  # Pilot.pause: a message to every widget and a forced refresh
                        await pilot.pause(0.001)
                drawn.append(next(t for t in frames if t > graded[i]))
                assert app.screen.mode == "feedback"
                shown.append(feedback_text(app.screen))
                await pilot.press("r")  # retake: back to a fresh question screen

    try:
        asyncio.run(run())
    finally:
        InterviewScreen.on_graded = on_graded
    if grader_kind == "process":
        assert not grader.graded_here, "the child process did not grade"
        grader.close()
    # the grader alone on the same answers: a fresh grader, warm on the rubric only
    from interviewer.factory import build_grader, make_embedder

    grader = build_grader(make_embedder(settings))
    grader.warm_up(app.interview.rubric)
    own = []
    for text in answers:
        start = time.perf_counter()
        grader.grade(app.interview.rubric, "q01", text)
        own.append(time.perf_counter() - start)
    ui = [d - t for d, t in zip(drawn, submits)]
    bare = bare_draw(shown)
    ratios = sorted(u / g for u, g in zip(ui, own))

    def pct(xs, q):
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]

    return {"answers": n, "grader": grader_kind, "quiet_wait": quiet_wait, "read_s": read,
            "grader_p50_ms": 1000 * pct(own, 0.5), "grader_p95_ms": 1000 * pct(own, 0.95),
            "submit_to_feedback_p50_ms": 1000 * pct(ui, 0.5),
            "submit_to_feedback_p95_ms": 1000 * pct(ui, 0.95),
            "grader_in_app_p50_ms": 1000 * pct([g for g, _ in app.grade_seconds], 0.5),
            "bare_app_draw_p50_ms": 1000 * pct(bare, 0.5),
            "bare_app_draw_p95_ms": 1000 * pct(bare, 0.95),
            "ratio_p50": pct(ratios, 0.5), "ratio_p95": pct(ratios, 0.95),
            "p95_over_p95": pct(ui, 0.95) / pct(own, 0.95)}


def _frames(app) -> list[float]:
    """When ``app`` draws each frame from now on (perf_counter), in a list that grows."""
    frames = [0.0]
    display = app._display

    def drawn(screen, renderable) -> None:
        display(screen, renderable)
        if renderable is not None:
            frames.append(time.perf_counter())

    app._display = drawn
    return frames


def feedback_text(screen) -> str:
    """The text of the feedback on screen, top to bottom, as one string."""
    from textual.widgets import Static

    parts = [str(w.content) for w in screen.query(Static)
             if w.id in FEEDBACK_IDS and w.display and str(w.content)]
    return "\n".join(parts)


FEEDBACK_IDS = ("feedback-question", "score", "counts", "retake-diff", "answer-text", "points-text")


def bare_draw(texts: list[str]) -> list[float]:
    """Seconds a bare Textual app takes from updating one Static with ``text`` to drawing it."""
    import asyncio

    from textual.app import App
    from textual.containers import VerticalScroll
    from textual.widgets import Static

    class Bare(App):
        def compose(self):
            with VerticalScroll():
                yield Static("", id="text", markup=False)

    app, out = Bare(), []
    frames = _frames(app)

    async def run() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            static = app.query_one("#text", Static)
            for text in texts:
                static.update("")  # start from an empty screen, as a new panel does
                await pilot.pause()
                start = time.perf_counter()
                static.update(text)
                while frames[-1] <= start:
                    await asyncio.sleep(0.001)
                out.append(next(t for t in frames if t > start) - start)

    asyncio.run(run())
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--answers", type=int, default=20)
    parser.add_argument("--grader", choices=("process", "thread"), default="process",
                        help="grade in a child process (as the app does) or a worker thread")
    parser.add_argument("--quiet-wait", action="store_true",
                        help="wait for each feedback with a plain sleep, not Pilot.pause")
    parser.add_argument("--read", default="0,1", metavar="SECONDS[,SECONDS...]",
                        help="wait this long between typing the answer and Ctrl+S; one "
                             "measurement per value (default 0,1)")
    args = parser.parse_args()
    import tempfile

    with tempfile.TemporaryDirectory() as home:
        result = {"launch": bench_launch(args.runs, home, args.grader) if args.runs > 0 else None,
                  "submit": [bench_submit(args.answers, home, args.grader, args.quiet_wait,
                                          float(read)) for read in args.read.split(",")]
                  if args.answers > 0 else None}
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
