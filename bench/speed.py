"""Speed of the shipped grader, each number against its own baseline in the same run.

    python bench/speed.py [--answers 60] [--batch 1000]

1. floor: the default encoder's forward pass over a typical answer (300-500 characters)
   alone; the first grade of that answer against it, p50 and p95, in a process that has
   already graded 200 other answers (rubric and rules warm, nothing of this answer cached:
   the rules cache what they read of a sentence, so a second grade of the same text would
   be faster than any real one);
2. the naive path (every span encoded in its own call, nothing cached) against the same floor;
3. batch grading: answers per second against the encoder's own throughput on the answer
   texts alone, with 1 and 2 worker processes;
4. peak RSS of the TUI with the model loaded against the bare encoder in a plain process;
5. rubric extraction time for the shipped banks.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def typical_answers() -> list[tuple[str, str, str]]:
    """(bank, question id, answer) for labeled answers of 300-500 characters."""
    out = []
    for path in sorted((ROOT / "bench" / "data").glob("labeled-*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            if 300 <= len(item["answer"]) <= 500:
                out.append((item["bank"], item["question_id"], item["answer"]))
    return out


def bench_grading(n: int) -> dict:
    from interviewer.content.catalog import BankCatalog
    from interviewer.grading.encoders.backends import make_embedder
    from interviewer.factory import build_grader
    from interviewer.content.bank_rubric import rubric_for_bank
    from interviewer.content.segment import evidence_spans

    catalog = BankCatalog([ROOT / "bank"])
    rubrics = {b.id: rubric_for_bank(b).rubric for b in catalog.banks()}
    pool = typical_answers()
    answers, others = pool[:n], pool[n:n + 200]
    encoder = make_embedder("default")
    encoder.load()
    grader = build_grader(make_embedder("default"))
    for rubric in rubrics.values():
        grader.warm_up(rubric)
    for bank, qid, answer in others:  # a process some way into an interview or a batch
        grader.grade(rubrics[bank], qid, answer)
    floor, first, naive, spans = [], [], [], []
    per_answer = []  # first grade / median floor of the same answer
    for bank, qid, answer in answers:
        f = []
        for _ in range(5):
            t = time.perf_counter()
            encoder.embed([answer])
            f.append(time.perf_counter() - t)
        t = time.perf_counter()
        grader.grade(rubrics[bank], qid, answer)
        first.append(time.perf_counter() - t)
        floor.append(statistics.median(f))
        per_answer.append(first[-1] / floor[-1])
        spans.append(len(evidence_spans(answer)))
    for bank, qid, answer in answers:
        q = rubrics[bank].question(qid)
        t = time.perf_counter()
        for text in [p.text for p in q.points] + evidence_spans(answer) + [answer]:
            encoder.embed([text])  # one call per text, nothing cached
        naive.append(time.perf_counter() - t)
    f50 = statistics.median(floor)
    return {"answers": len(answers), "mean_chars": statistics.mean(len(a) for *_, a in answers),
            "mean_spans": statistics.mean(spans),
            "floor_p50_ms": 1000 * f50, "grade_p50_ms": 1000 * pct(first, .5),
            "grade_p95_ms": 1000 * pct(first, .95), "naive_p50_ms": 1000 * pct(naive, .5),
            "grade_over_floor_p50": pct(first, .5) / f50, "grade_over_floor_p95": pct(first, .95) / f50,
            "per_answer_ratio_p50": pct(per_answer, .5), "per_answer_ratio_p95": pct(per_answer, .95),
            "naive_over_floor_p50": pct(naive, .5) / f50}


def bench_batch(n: int, home: str) -> dict:
    from interviewer.grading.encoders.backends import make_embedder

    pool = [a for a in typical_answers() if a[0] == "ai-infra-zh"]
    rows = []
    for i in range(n):  # distinct texts, so no answer is served from a cache
        _bank, qid, answer = pool[i % len(pool)]
        rows.append({"id": i, "question_id": qid, "answer": f"{answer}（{i}）"})
    path = Path(home) / "batch.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    encoder = make_embedder("default")
    encoder.load()
    t = time.perf_counter()
    for start in range(0, len(rows), 64):
        encoder.embed([r["answer"] for r in rows[start:start + 64]])
    floor_rate = len(rows) / (time.perf_counter() - t)
    out = {"answers": len(rows), "floor_answers_per_s": floor_rate}
    env = {**os.environ, "INTERVIEWER_HOME": home}
    for jobs in (1, 2):
        t = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "interviewer", "grade", "--rubric", "ai-infra-zh",
                               "--answers", str(path), "--out", str(Path(home) / f"out{jobs}.jsonl"),
                               "--jobs", str(jobs)], env=env, cwd=ROOT, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr[-2000:]
        rate = len(rows) / (time.perf_counter() - t)
        out[f"jobs{jobs}_answers_per_s"] = rate
        out[f"jobs{jobs}_over_floor"] = rate / floor_rate
    return out


# Peak RSS from /proc/self/status VmHWM (kB): unlike ru_maxrss it starts afresh at exec, so a
# child is not charged with the memory of the (large) benchmark process it was forked from.
PEAK = "int(next(l for l in open('/proc/self/status') if l.startswith('VmHWM')).split()[1])"

RSS_BARE = """
from interviewer.grading.encoders.backends import make_embedder
e = make_embedder("default"); e.embed(["梯度累积把大batch拆成micro-batch。"])
print(%s)
""" % PEAK

RSS_TUI = """
import asyncio
from textual.widgets import TextArea
from interviewer.factory import make_catalog, make_grader
from interviewer.config import discover_settings
from interviewer.sessions.plan import SetupChoices, make_plan
from interviewer.tui.app import make_app
s = discover_settings(); banks = make_catalog(s).banks()
bank = next(b for b in banks if b.id == "ai-infra-zh"); c = SetupChoices(bank=bank.id, count=1)
app = make_app(banks=banks, grader=make_grader(s), settings=s, plan=make_plan(bank, c), choices=c)
async def pilot(p):
    while p.app.model_status != "ready":
        await asyncio.sleep(0.05)
    p.app.screen.query_one("#answer", TextArea).insert("梯度累积把大batch拆成micro-batch。")
    await p.press("ctrl+s")
    while p.app.screen.mode != "feedback":
        await asyncio.sleep(0.05)
    print(%s)
    p.app.exit()
app.run(headless=True, auto_pilot=pilot)
""" % PEAK


def bench_rss(home: str) -> dict:
    env = {**os.environ, "INTERVIEWER_HOME": home}

    def run(code: str) -> int:
        proc = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True,
                              text=True, timeout=300)
        return int(proc.stdout.strip().splitlines()[-1])

    bare, tui = run(RSS_BARE), run(RSS_TUI)
    return {"bare_encoder_mb": bare / 1024, "tui_mb": tui / 1024, "ratio": tui / bare}


def bench_rubric_build() -> dict:
    from interviewer.content.catalog import BankCatalog
    from interviewer.content.extract import build_rubric

    out = {}
    for bank in BankCatalog([ROOT / "bank"]).banks():
        times = []
        for _ in range(5):
            t = time.perf_counter()
            build_rubric(bank)
            times.append(time.perf_counter() - t)
        out[bank.id] = {"points": sum(len(q.points) for q in build_rubric(bank).rubric.questions),
                        "ms": 1000 * statistics.median(times)}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--answers", type=int, default=60)
    parser.add_argument("--batch", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        os.environ["INTERVIEWER_HOME"] = home
        result = {"grading": bench_grading(args.answers), "batch": bench_batch(args.batch, home),
                  "rss": bench_rss(home), "rubric_build": bench_rubric_build()}
    print(json.dumps(result, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
