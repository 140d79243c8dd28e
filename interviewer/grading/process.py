"""The TUI's grader: grades in a child process that keeps the model loaded.

A grade computed in a thread of the TUI's process holds the interpreter lock for most of
its time, and the event loop drawing the screen waits for it (a 25 ms grade took about 60 ms
in the app). In a child process (:mod:`interviewer.grading.child`) the grade runs beside
the event loop; the thread that waits for it sleeps on a pipe.

The child starts in :meth:`ProcessGrader.warm_up`, which the app calls from its loading
worker after the first frame. Whatever goes wrong with the child (it cannot start, it
exits, it is killed, it answers with an error) the answer is graded in this process by
the fallback grader, built then if need be: a grade is never lost, and an error is the one
in-process grading raises.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import subprocess

    from interviewer.content.rubric import Rubric
    from interviewer.grading.deferred import DeferredGrader
    from interviewer.grading.grade import Grade

CHILD_MODULE = "interviewer.grading.child"
PACKAGE_ROOT = Path(__file__).resolve().parent.parent.parent  # holds the interviewer package


class ProcessGrader:
    """Grades in a child process started with ``python``; ``fallback`` grades here when the
    child cannot. ``settings`` is plain data: the model, its server, the data directory."""

    def __init__(self, settings: dict, fallback: DeferredGrader, python: str | None = None) -> None:
        self._settings = settings
        self._fallback = fallback
        self._python = python or sys.executable
        self._child: subprocess.Popen | None = None
        self._started = False
        self._rubric_keys: dict[int, tuple[Rubric, str]] = {}  # id -> (rubric kept alive, key)
        self._lock = threading.Lock()
        self.graded_here = False  # the fallback has graded (or warmed up) in this process

    @property
    def model_id(self) -> str:
        return self._fallback.model_id

    @property
    def child_pid(self) -> int | None:
        """The child's process id while it serves, else None."""
        return None if self._child is None else self._child.pid

    def warm_up(self, rubric: Rubric | None = None) -> None:
        with self._lock:
            if self._ensure_child() and self._ask({"op": "warm", **self._rubric(rubric)}):
                return
        self.graded_here = True
        self._fallback.warm_up(rubric)

    def grade(self, rubric: Rubric, question_id: str, answer: str,
              only: Collection[str] | None = None) -> Grade:
        from interviewer.grading.grade import Grade

        with self._lock:
            if self._ensure_child():
                reply = self._ask({"op": "grade", **self._rubric(rubric),
                                   "question_id": question_id, "answer": answer,
                                   "only": None if only is None else sorted(only)})
                if reply is not None and "grade" in reply:
                    return Grade.from_dict(reply["grade"], answer)
        self.graded_here = True
        return self._fallback.grade(rubric, question_id, answer, only)

    def close(self) -> None:
        """Stop the child (closing its input is enough; it is killed if it lingers)."""
        with self._lock:
            self._stop()

    # ------------------------------------------------------------ the child

    def _ensure_child(self) -> bool:
        """Whether a child serves, starting it the first time."""
        if not self._started:
            self._started = True
            self._start()
        return self._child is not None and self._child.poll() is None

    def _start(self) -> None:
        import subprocess

        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(PACKAGE_ROOT), env.get("PYTHONPATH", "")) if p)
        try:
            self._child = subprocess.Popen(
                [self._python, "-m", CHILD_MODULE], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                start_new_session=True)  # no signal meant for the terminal's jobs reaches it
            self._send(self._settings)
        except OSError:
            self._stop()

    def _rubric(self, rubric: Rubric | None) -> dict:
        """The request's reference to ``rubric``; the rubric itself the first time."""
        if rubric is None:
            return {}
        known = self._rubric_keys.get(id(rubric))
        if known is not None and known[0] is rubric:
            return {"key": known[1]}
        from interviewer.grading.child import rubric_to_dict

        key = str(len(self._rubric_keys))
        self._rubric_keys[id(rubric)] = (rubric, key)
        return {"key": key, "rubric": rubric_to_dict(rubric)}

    def _send(self, data: dict) -> None:
        assert self._child is not None and self._child.stdin is not None
        self._child.stdin.write(json.dumps(data, ensure_ascii=False).encode("utf-8") + b"\n")
        self._child.stdin.flush()

    def _ask(self, request: dict) -> dict | None:
        """The child's reply, or None when it failed (the child is stopped if it is broken)."""
        try:
            self._send(request)
            assert self._child is not None and self._child.stdout is not None
            line = self._child.stdout.readline()
            reply = json.loads(line) if line else None
        except (OSError, ValueError):
            reply = None
        if reply is None:  # gone, or not speaking the protocol: never asked again
            self._stop()
            return None
        return reply if reply.get("ok") else None

    def _stop(self) -> None:
        child, self._child = self._child, None
        self._rubric_keys.clear()
        if child is None:
            return
        for stream in (child.stdin, child.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        try:
            child.wait(timeout=2)
        except Exception:
            child.kill()
            child.wait()
