"""Naming a model without loading it, and the grader the TUI builds on first use."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from interviewer.grading.deferred import DeferredGrader
from interviewer.grading.encoders.backends import make_embedder
from interviewer.errors import ModelError
from interviewer.grading.encoders.names import model_id_for


@pytest.mark.parametrize("name, base_url", [
    ("default", None),
    ("use", None),
    ("google/universal-sentence-encoder-multilingual-3", None),
    ("minilm", None),
    ("all-MiniLM-L6-v2", None),
    ("openai:bge-m3", "http://127.0.0.1:8080/v1/"),
    ("openai:bge-m3", "http://127.0.0.1:8080/v1"),
    ("some-org/not-cached-anywhere", None),
])
def test_model_id_for_names_what_make_embedder_builds(name: str, base_url: str | None) -> None:
    assert model_id_for(name, base_url) == make_embedder(name, base_url=base_url).model_id


def test_model_id_for_a_local_path_is_the_resolved_path(tmp_path: Path) -> None:
    assert model_id_for(str(tmp_path)) == str(tmp_path.resolve())


def test_a_served_model_without_a_server_is_refused_before_anything_loads() -> None:
    with pytest.raises(ModelError, match="needs an embeddings server"):
        model_id_for("openai:bge-m3", None)


class _Built:
    model_id = "fake"

    def __init__(self) -> None:
        self.graded: list[str] = []

    def warm_up(self, rubric=None) -> None:
        pass

    def grade(self, rubric, question_id, answer, only=None):
        self.graded.append(answer)
        return answer


def test_deferred_grader_builds_once_on_first_use_from_any_thread() -> None:
    calls: list[int] = []
    built = _Built()

    def build():
        calls.append(1)
        return built

    grader = DeferredGrader(build, "fake")
    assert grader.model_id == "fake" and calls == []  # naming the model builds nothing
    threads = [threading.Thread(target=grader.warm_up) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert calls == [1]
    assert grader.grade(None, "q01", "an answer") == "an answer"
    assert built.graded == ["an answer"] and calls == [1]
