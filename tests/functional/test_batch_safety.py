"""Batches never lose or mix results: real processes, real files, real signals."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from conftest import ROOT
from helpers import poll

CHILD = ROOT / "tests" / "batch_child.py"


def answers_file(path: Path, n: int) -> Path:
    qids = ("q07", "q09", "q01")
    path.write_text("".join(json.dumps({"id": i, "question_id": qids[i % 3],
                                        "answer": f"梯度累积把大batch拆成micro-batch，第{i}个回答。"},
                                       ensure_ascii=False) + "\n" for i in range(n)),
                    encoding="utf-8")
    return path


def start(*argv: str, delay: float = 0.0, home: Path, log: Path | None = None
          ) -> subprocess.Popen:
    env = {**os.environ, "INTERVIEWER_HOME": str(home), "BATCH_DELAY": str(delay),
           "PYTHONPATH": str(ROOT), "BATCH_LOG": str(log or "")}
    return subprocess.Popen([sys.executable, str(CHILD), *argv], env=env, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def grade(*argv: str, home: Path, delay: float = 0.0) -> tuple[int, str, str]:
    proc = start("grade", "--rubric", "ai-infra-zh", *argv, delay=delay, home=home)
    out, err = proc.communicate(timeout=300)
    return proc.returncode, out, err


def rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def lines_in(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except OSError:
        return 0


def test_out_naming_the_answers_file_is_refused_and_the_answers_kept(tmp_path: Path) -> None:
    answers = answers_file(tmp_path / "s.jsonl", 3)
    before = answers.read_bytes()
    (tmp_path / "sub").mkdir()
    for out in (answers, tmp_path / "sub" / ".." / "s.jsonl"):
        code, _, err = grade("--answers", str(answers), "--out", str(out), home=tmp_path / "h")
        assert code == 2, err
        assert err.count("\n") == 1 and "would replace the answers" in err
        assert answers.read_bytes() == before
    link = tmp_path / "link.jsonl"
    link.symlink_to(answers)
    code, _, err = grade("--answers", str(answers), "--out", str(link), "--resume",
                         home=tmp_path / "h")
    assert code == 2 and answers.read_bytes() == before


def test_resume_keeps_a_last_result_that_lacks_only_its_newline(tmp_path: Path) -> None:
    answers = answers_file(tmp_path / "a.jsonl", 5)
    out = tmp_path / "o.jsonl"
    assert grade("--answers", str(answers), "--out", str(out), home=tmp_path / "h")[0] == 0
    full = rows(out)
    # killed right after writing the second result, before its newline
    out.write_text(json.dumps(full[0]) + "\n" + json.dumps(full[1]), encoding="utf-8")
    code, _, err = grade("--answers", str(answers), "--out", str(out), "--resume",
                         home=tmp_path / "h")
    assert code == 0, err
    assert sorted(r["id"] for r in rows(out)) == [0, 1, 2, 3, 4]
    assert all("score" in r for r in rows(out))


def test_a_second_run_on_the_same_out_is_refused_and_the_first_is_intact(tmp_path: Path) -> None:
    answers = answers_file(tmp_path / "a.jsonl", 60)
    out = tmp_path / "o.jsonl"
    first = start("grade", "--rubric", "ai-infra-zh", "--answers", str(answers), "--out",
                  str(out), delay=0.2, home=tmp_path / "h")
    try:
        poll(lambda: lines_in(out) >= 1, 120, "the first run wrote a result")
        for extra in ((), ("--resume",)):
            code, _, err = grade("--answers", str(answers), "--out", str(out), *extra,
                                 home=tmp_path / "h")
            assert code == 2, err
            assert err.count("\n") == 1 and "is being written by another interviewer process" \
                in err
        assert first.wait(timeout=300) == 0, first.stderr.read()
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    got = rows(out)
    assert [r["id"] for r in got] == list(range(60))
    # once it is done the file is free again
    code, _, err = grade("--answers", str(answers), "--out", str(out), "--resume",
                         home=tmp_path / "h")
    assert code == 0 and "skipped 60 answers" in err


def test_resume_report_covers_the_whole_output_file(tmp_path: Path) -> None:
    answers = answers_file(tmp_path / "a.jsonl", 6)
    out, report = tmp_path / "o.jsonl", tmp_path / "r.json"
    assert grade("--answers", str(answers), "--out", str(out), home=tmp_path / "h")[0] == 0
    full = out.read_text(encoding="utf-8").splitlines()
    out.write_text("\n".join(full[:4]) + "\n", encoding="utf-8")  # an earlier run did 4
    code, _, err = grade("--answers", str(answers), "--out", str(out), "--resume",
                         "--report", str(report), home=tmp_path / "h")
    assert code == 0, err
    data = json.loads(report.read_text(encoding="utf-8"))
    graded = [q for q in data["questions"] if q["status"] == "graded"]
    assert len(graded) == 6, data["questions"]
    assert all(q["answer"].startswith("梯度累积") for q in graded)


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text()
        found.update(int(x) for x in text.split())
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_ctrl_c_stops_a_parallel_batch_keeping_what_was_written(tmp_path: Path) -> None:
    # long enough (a minute and more) that a loaded machine cannot finish it before the
    # signal: with 400 answers the batch once ended, exit 0, while this test waited its turn
    n = 4000
    answers = answers_file(tmp_path / "a.jsonl", n)
    out, log = tmp_path / "o.jsonl", tmp_path / "calls.log"
    proc = start("grade", "--rubric", "ai-infra-zh", "--answers", str(answers), "--out",
                 str(out), "--jobs", "2", "--force-jobs", delay=0.3, home=tmp_path / "h",
                 log=log)
    try:
        poll(lambda: lines_in(out) >= 16, 120, "the first chunk was written")
        workers = _children(proc.pid)
        calls_before = lines_in(log)
        proc.send_signal(signal.SIGINT)
        try:
            code = proc.wait(timeout=300)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGUSR1)  # where it waits, for the failure's message
            time.sleep(2)
            proc.kill()
            _, err = proc.communicate()
            raise AssertionError(f"the batch lived on after Ctrl+C:\n{err[-6000:]}") from None
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert code == 130, proc.stderr.read()
    got = rows(out)  # every line whole
    assert 16 <= len(got) < n and len({r["id"] for r in got}) == len(got)
    poll(lambda: not any(_alive(w) for w in workers), 120, "the workers ended")
    # the rest of the batch was not graded: at most a call per worker began after the signal
    assert lines_in(log) - calls_before <= 2, (calls_before, lines_in(log))


def test_workers_die_with_a_killed_batch(tmp_path: Path) -> None:
    answers = answers_file(tmp_path / "a.jsonl", 400)
    out = tmp_path / "o.jsonl"
    proc = start("grade", "--rubric", "ai-infra-zh", "--answers", str(answers), "--out",
                 str(out), "--jobs", "2", "--force-jobs", delay=0.3, home=tmp_path / "h")
    try:
        poll(lambda: lines_in(out) >= 16, 120, "the first chunk was written")
        workers = _children(proc.pid)
        assert workers
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    try:
        poll(lambda: not any(_alive(w) for w in workers), 60, "the orphaned workers ended")
    finally:
        for w in workers:  # never leave them behind, even when the test fails
            try:
                os.kill(w, signal.SIGKILL)
            except ProcessLookupError:
                pass


def test_jobs_beyond_the_cores_are_capped_unless_forced(tmp_path: Path) -> None:
    answers = answers_file(tmp_path / "a.jsonl", 3)
    many = str((os.cpu_count() or 1) + 7)
    code, _, err = grade("--answers", str(answers), "--out", str(tmp_path / "o.jsonl"),
                         "--jobs", many, home=tmp_path / "h")
    assert code == 0 and f"--jobs {many} capped at {os.cpu_count()}" in err
    code, _, err = grade("--answers", str(answers), "--out", str(tmp_path / "o.jsonl"),
                         "--jobs", many, "--force-jobs", home=tmp_path / "h")
    assert code == 0 and "capped" not in err


def test_out_may_be_a_device_or_a_pipe(tmp_path: Path) -> None:
    answers = answers_file(tmp_path / "a.jsonl", 2)
    code, _, err = grade("--answers", str(answers), "--out", os.devnull, home=tmp_path / "h")
    assert code == 0, err
    code, out, err = grade("--answers", str(answers), "--out", "/dev/stdout", home=tmp_path / "h")
    assert code == 0, err
    assert [json.loads(line)["id"] for line in out.splitlines()] == [0, 1]
