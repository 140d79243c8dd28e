"""Grading a file of written answers: line by line, resumable, optionally in parallel.

Results are written as they are done, so a killed batch keeps what it finished, and
``--resume`` skips the ids already in the output. With ``jobs > 1`` each worker process
loads its own model (processes, not threads: the encoder holds the GIL in parts).
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from interviewer.rubric import Rubric

CHUNK = 16  # answers per task sent to a worker process


@dataclass(frozen=True)
class BatchItem:
    line: int
    id: object
    question_id: str
    answer: str


@dataclass(frozen=True)
class BatchError:
    line: int
    id: object
    message: str

    def to_dict(self) -> dict:
        return {"id": self.id, "error": self.message}


def parse_batch(text: str, rubric: Rubric) -> list[BatchItem | BatchError]:
    out: list[BatchItem | BatchError] = []
    for n, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        item_id: object = n
        try:
            raw = _load_line(line)
            if not isinstance(raw, dict):
                raise ValueError("expected a JSON object")
            item_id = raw.get("id", n)
            qid, answer = raw.get("question_id"), raw.get("answer")
            if not isinstance(qid, str) or not rubric.has_question(qid):
                raise ValueError(f"unknown question_id {qid!r}")
            if not isinstance(answer, str) or not answer.strip():
                raise ValueError("empty or missing 'answer'")
            out.append(BatchItem(n, item_id, qid, answer))
        except ValueError as exc:
            msg = f"malformed JSON: {exc.msg}" if isinstance(exc, json.JSONDecodeError) else str(exc)
            out.append(BatchError(n, item_id, msg))
    return out


def _load_line(line: str) -> object:
    """One JSON value; nesting too deep, or a lone surrogate (valid JSON that no UTF-8 output
    can carry), is a ValueError like any other malformed line."""
    try:
        raw = json.loads(line)
        json.dumps(raw, ensure_ascii=False).encode("utf-8")
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    except UnicodeEncodeError:
        raise ValueError("text with a lone surrogate (not valid Unicode)") from None
    return raw


def done_ids(path: Path) -> set[str]:
    """Ids already graded in an output file (lines with an error are graded again)."""
    ids: set[str] = set()
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return ids
    for line in lines:
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by a kill
        if isinstance(row, dict) and "score" in row:
            ids.add(json.dumps(row.get("id")))
    return ids


def drop_partial_line(path: Path) -> None:
    """Cut a last line left unfinished by a kill, so appended results start clean."""
    try:
        data = path.read_bytes()
    except OSError:
        return
    if data and not data.endswith(b"\n"):
        path.write_bytes(data[: data.rfind(b"\n") + 1])


# ---------------------------------------------------------------- workers

_WORKER: dict = {}


def _init_worker(make_grader: Callable, settings, rubric: Rubric) -> None:
    from interviewer.embedding import THREADS_ENV

    os.environ[THREADS_ENV] = "1"  # N processes on N cores, one thread each
    _WORKER["grader"] = make_grader(settings)
    _WORKER["rubric"] = rubric


def _grade_chunk(items: list[BatchItem]) -> list[tuple[BatchItem, dict]]:
    grader, rubric = _WORKER["grader"], _WORKER["rubric"]
    grader.prefetch([it.answer for it in items])
    return [(it, grader.grade(rubric, it.question_id, it.answer).to_dict(it.id)) for it in items]


def grade_items(items: list[BatchItem], *, grade: Callable[[BatchItem], dict], jobs: int,
                make_grader: Callable, settings, rubric: Rubric
                ) -> Iterator[tuple[BatchItem, dict]]:
    """Results as they are done: in order in this process for small batches, else as the
    worker processes complete their chunks."""
    if jobs <= 1 or len(items) <= CHUNK:
        for it in items:
            yield it, grade(it)
        return
    chunks = [items[i:i + CHUNK] for i in range(0, len(items), CHUNK)]
    # each worker builds its grader the way this process did (same model, same calibration)
    with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker,
                             initargs=(make_grader, settings, rubric)) as pool:
        for future in as_completed([pool.submit(_grade_chunk, c) for c in chunks]):
            yield from future.result()


class Progress:
    """A one-line progress bar on a terminal; silent when the stream is not one."""

    def __init__(self, total: int, stream: TextIO = sys.stderr, width: int = 30) -> None:
        self.total, self.stream, self.width = total, stream, width
        self.done = 0
        self.start = time.monotonic()
        self.enabled = total > 0 and hasattr(stream, "isatty") and stream.isatty()
        self._last = 0.0

    def advance(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        if self.enabled and (now - self._last > 0.1 or self.done == self.total):
            self._last = now
            filled = int(self.width * self.done / self.total)
            rate = self.done / max(1e-9, now - self.start)
            self.stream.write(f"\r[{'#' * filled}{'.' * (self.width - filled)}] "
                              f"{self.done}/{self.total}  {rate:.1f}/s ")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()
