"""The grading process: the model loaded once, answers graded on request, over a pipe.

    python -m interviewer.grading.child

The TUI starts it (:class:`interviewer.grading.process.ProcessGrader`) so that grading does
not share the interface's interpreter lock. Only plain data crosses: the settings that name
the model and the data directory, a rubric as a dict (sent once, then named by a key), the
question id, the answer text, and back a grade as a dict with its floats unrounded, so the
grade rebuilt by :meth:`Grade.from_dict` equals the one the child made.

One JSON object per line each way. The child exits when its stdin closes, which happens
however its parent ends (a quit, a signal, kill -9): no grading process outlives the app.
"""

from __future__ import annotations

import dataclasses
import gc
import json
import os
import sys
import threading
from pathlib import Path
from queue import Queue
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from interviewer.content.rubric import Rubric
    from interviewer.grading.grade import Grade

SETTINGS_FIELDS = ("model", "embedding_base_url", "embedding_api_key_env", "data_dir")


def rubric_to_dict(rubric: Rubric) -> dict:
    data = dataclasses.asdict(rubric)
    data["path"] = None if rubric.path is None else str(rubric.path)
    return data


def rubric_from_dict(data: dict) -> Rubric:
    from interviewer.content.rubric import Point, QuestionRubric, Rubric

    questions = tuple(
        QuestionRubric(**{**q, "points": tuple(Point(**{**p, "keywords": tuple(p["keywords"])})
                                               for p in q["points"])})
        for q in data["questions"])
    return Rubric(bank=data["bank"], questions=questions, generated=dict(data["generated"]),
                  path=None if data["path"] is None else Path(data["path"]))


def grade_to_dict(grade: Grade) -> dict:
    """What :meth:`Grade.from_dict` reads, every number as it is (``to_dict`` rounds)."""
    return {"question_id": grade.question_id, "score": float(grade.score),
            "model_id": grade.model_id, "calibration": grade.calibration, "note": grade.note,
            "points": [{"id": p.point_id, "verdict": p.verdict,
                        "confidence": float(p.probability), "similarity": float(p.similarity),
                        "evidence": p.evidence, "reason": p.reason, "text": p.text,
                        "group": p.group, "weight": p.weight, "also": list(p.also)}
                       for p in grade.points]}


def _read_requests(stream, queue: Queue) -> None:
    """Each request line onto ``queue``; at end of input, exit the process at once, even in
    the middle of loading the model: the parent is gone."""
    for line in stream:
        queue.put(line)
    os._exit(0)


def serve(requests: Queue, reply) -> None:
    """Answer requests until the process exits: the first line is the settings."""
    from interviewer.config import Settings
    from interviewer.factory import make_grader

    spec = json.loads(requests.get())
    settings = Settings(**{k: Path(v) if k == "data_dir" else v
                           for k, v in spec.items() if k in SETTINGS_FIELDS})
    grader = make_grader(settings)
    rubrics: dict[str, Rubric] = {}
    while True:
        request = json.loads(requests.get())
        try:
            if "rubric" in request:
                rubrics[request["key"]] = rubric_from_dict(request["rubric"])
            rubric = rubrics.get(request.get("key", ""))
            if request["op"] == "warm":
                grader.warm_up(rubric)
                gc.freeze()  # the model's objects live as long as the process
                out: dict = {"ok": True}
            else:
                only = request.get("only")
                grade = grader.grade(rubric, request["question_id"], request["answer"],
                                     None if only is None else set(only))
                out = {"ok": True, "grade": grade_to_dict(grade)}
        except Exception as exc:  # the parent grades in-process, where it raises the same
            out = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        reply.write(json.dumps(out, ensure_ascii=False).encode("utf-8") + b"\n")
        reply.flush()


def main() -> int:
    # The replies get a descriptor of their own; anything a library prints goes to stderr.
    reply = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    requests: Queue = Queue()
    threading.Thread(target=_read_requests, args=(sys.stdin.buffer, requests),
                     daemon=True).start()
    serve(requests, reply)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
