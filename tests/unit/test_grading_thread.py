"""The app's grading thread: one thread for every grade, in the order given, a failing job
leaving the next ones to run."""

from __future__ import annotations

import threading

from interviewer.tui.grading_thread import GradingThread


def test_jobs_run_in_order_on_one_thread_and_survive_a_failure() -> None:
    grading = GradingThread()
    seen: list[tuple[int, int]] = []
    done = threading.Event()

    def job(n: int):
        def run() -> None:
            seen.append((n, threading.get_ident()))
            if n == 1:
                raise RuntimeError("this one fails")
            if n == 3:
                done.set()
        return run

    for n in range(4):
        grading.run(job(n))
    assert done.wait(10)
    grading.close()
    assert [n for n, _ in seen] == [0, 1, 2, 3]
    assert len({ident for _, ident in seen}) == 1
    assert seen[0][1] != threading.get_ident()
