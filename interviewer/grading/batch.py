"""Grading a file of written answers: line by line, resumable, optionally in parallel.

Results are written as they are done, so a killed batch keeps what it finished, and
``--resume`` skips the ids already in the output. With ``jobs > 1`` each worker process
loads its own model (processes, not threads: the encoder holds the GIL in parts); the
workers die with the batch, however it ends. The output file is locked while a batch
writes it, so two runs never interleave their lines.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from interviewer.errors import InputError
from interviewer.content.rubric import Rubric

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

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
    return {json.dumps(row.get("id")) for row in graded_rows(path)}


def graded_rows(path: Path) -> list[dict]:
    """The graded results in an output file, the last one of each id, in file order."""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    rows: dict[str, dict] = {}
    for line in lines:
        try:
            row = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            continue  # a line cut short by a kill
        if isinstance(row, dict) and "score" in row and isinstance(row.get("points"), list):
            key = json.dumps(row.get("id"))
            rows.pop(key, None)
            rows[key] = row
    return list(rows.values())


def drop_partial_line(path: Path) -> None:
    """Cut a last line left unfinished by a kill, so appended results start clean."""
    try:
        data = path.read_bytes()
    except OSError:
        return
    if data and not data.endswith(b"\n"):
        path.write_bytes(data[: data.rfind(b"\n") + 1])


def same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file (through links, ``..`` or another spelling)."""
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and a.samefile(b))
    except OSError:
        return False


def check_output(answers: Path, out: Path | None) -> None:
    """Refuse an output that would overwrite the answers it is graded from."""
    if out is not None and same_file(answers, out):
        raise InputError("--out is the --answers file; the results would replace the answers",
                         path=out, hint="write the results to another file")


class ResultFile:
    """The batch's output file, held under an exclusive lock from open to close.

    A second batch on the same file is refused before it changes a byte. With ``resume``
    a last line cut short by a kill is removed first, then the finished ids are read, and
    new results are appended; otherwise the file starts empty.
    """

    def __init__(self, path: Path, resume: bool) -> None:
        self.path = path
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise InputError(f"cannot write the results: {exc.strerror}", path=path) from None
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                raise InputError("is being written by another interviewer process", path=path,
                                 hint="wait for that batch to finish, or write elsewhere") from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # a device or a pipe: write, nothing to keep
            self.stream: TextIO = os.fdopen(fd, "w", encoding="utf-8", newline="\n")
            self.done: set[str] = set()
            return
        self.stream = os.fdopen(fd, "r+", encoding="utf-8", newline="\n")
        if resume:
            drop_partial_line(path)
            self.done = done_ids(path)
            self.stream.seek(0, os.SEEK_END)
        else:
            self.stream.truncate(0)
            self.done = set()

    def write(self, text: str) -> None:
        self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()

    def close(self) -> None:
        self.stream.close()  # the lock goes with the descriptor


def report_grades(path: Path, parsed: list[BatchItem | BatchError], rubric: Rubric) -> list:
    """Every graded answer in an output file (earlier runs' too), as grades for a report."""
    from interviewer.grading.grade import Grade

    answers = {json.dumps(e.id): e.answer for e in parsed if isinstance(e, BatchItem)}
    grades = []
    for row in graded_rows(path):
        try:
            if rubric.has_question(str(row.get("question_id"))):
                grades.append(Grade.from_dict(row, answers.get(json.dumps(row.get("id")), "")))
        except (KeyError, TypeError, ValueError):
            continue  # not a result this version wrote; the report covers the rest
    return grades


def cap_jobs(jobs: int, force: bool) -> tuple[int, str | None]:
    """At most one worker per core unless ``force``: more only queue for the same cores
    and each loads its own model. Returns the count and a line saying it was capped."""
    cores = os.cpu_count() or 1
    if jobs <= cores or force:
        return jobs, None
    return cores, (f"--jobs {jobs} capped at {cores}, the number of cores here "
                   f"(--force-jobs runs {jobs})")


# ---------------------------------------------------------------- workers

_WORKER: dict = {}


def _die_with_parent(parent: int) -> None:
    """Have the kernel kill this worker when the batch process dies (Linux), even by SIGKILL."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # the parent was gone before the line above
        os._exit(1)


def _init_worker(make_grader: Callable, settings, rubric: Rubric, parent: int) -> None:
    from interviewer.grading.encoders.backends import THREADS_ENV

    _die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the batch's to handle
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
    worker processes complete their chunks. Stopped early (Ctrl+C, an error, the consumer
    gone), it ends the workers at once instead of grading the rest."""
    if jobs <= 1 or len(items) <= CHUNK:
        for it in items:
            yield it, grade(it)
        return
    chunks = [items[i:i + CHUNK] for i in range(0, len(items), CHUNK)]
    # each worker builds its grader the way this process did (same model, same calibration)
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker,
                               initargs=(make_grader, settings, rubric, os.getpid()))
    finished = False
    try:
        for future in as_completed([pool.submit(_grade_chunk, c) for c in chunks]):
            yield from future.result()
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            _stop_pool(pool)


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """End the workers now: what they were grading is lost, what was written is kept."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.kill()
    for process in processes:
        process.join(timeout=5)


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


@dataclass
class BatchRun:
    """What a batch did: lines refused, ids skipped as already done, the model's id, and
    the grades (when asked to keep them)."""

    failed: int
    skipped: set[str]
    model_id: str
    grades: list


def run_batch(parsed: list[BatchItem | BatchError], rubric: Rubric, *, answers: Path,
              out: Path | None, resume: bool, jobs: int, stdout: TextIO, err: TextIO,
              settings, make_grader: Callable, keep_grades: bool = False,
              check: Callable | None = None) -> BatchRun:
    """Grade ``parsed`` into ``out`` (or ``stdout``), one JSON line per input line.

    A bad line is said on ``err`` as ``answers:line: why`` and written as ``{id, error}``;
    with ``resume`` the ids already in ``out`` are skipped. One job writes in input order;
    several write as the workers finish. The output file is locked before anything is
    written or loaded, so a second batch on it stops at once. ``check(question_id, grade)
    -> (grade, notice)`` reads each grade again before it is written (the LLM check, in this
    process); a notice is said on ``err`` as ``answers:line: notice``.
    """
    from interviewer.grading.grade import Grade

    sink = ResultFile(out, resume) if out else stdout
    skip = sink.done if isinstance(sink, ResultFile) else set()
    failed = 0
    for entry in parsed:
        if isinstance(entry, BatchError):
            failed += 1
            err.write(f"{answers}:{entry.line}: {entry.message}\n")
    todo = [e for e in parsed if not isinstance(e, BatchError) and json.dumps(e.id) not in skip]
    graded: list[Grade] = []
    progress = Progress(len(todo), getattr(err, "raw", err))  # only numbers: no escaping

    def write(result: dict, item=None) -> None:
        if item is not None and check is not None:
            checked, notice = check(item.question_id, Grade.from_dict(result, item.answer))
            if notice:
                err.write(f"{answers}:{item.line}: {notice}\n")
            result = checked.to_dict(item.id)
        sink.write(json.dumps(result, ensure_ascii=False) + "\n")
        sink.flush()
        if item is not None:
            progress.advance()
            if keep_grades:
                graded.append(Grade.from_dict(result, item.answer))

    try:
        grader = make_grader(settings)

        def grade_one(item) -> dict:
            return grader.grade(rubric, item.question_id, item.answer).to_dict(item.id)

        errors = [e for e in parsed if isinstance(e, BatchError) and json.dumps(e.id) not in skip]
        if jobs == 1:  # one line out per line in, in input order
            wanted = set(map(id, todo))
            for start in range(0, len(parsed), CHUNK):
                chunk = parsed[start:start + CHUNK]
                grader.prefetch([e.answer for e in chunk if id(e) in wanted])
                for entry in chunk:
                    if isinstance(entry, BatchError):
                        if entry in errors:
                            write(entry.to_dict())
                    elif id(entry) in wanted:
                        write(grade_one(entry), entry)
        else:  # errors at once, then results as the workers finish them
            for entry in errors:
                write(entry.to_dict())
            for item, result in grade_items(todo, grade=grade_one, jobs=jobs,
                                            make_grader=make_grader, settings=settings,
                                            rubric=rubric):
                write(result, item)
    finally:
        progress.close()
        if sink is not stdout:
            sink.close()
    return BatchRun(failed, skip, grader.model_id, graded)
