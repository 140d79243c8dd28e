"""Grading against an OpenAI-compatible /v1/embeddings server (TEI, vLLM, Infinity, Ollama),
through the real openai client and a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest

from fakes import BigramEmbedder
from llm_server import ChatServer
from interviewer import cli
from interviewer.grading.encoders.backends import OpenAIEmbedder, make_embedder
from interviewer.errors import ModelError


def test_vectors_match_the_server_in_input_order_and_are_normalised() -> None:
    texts = ["梯度累积", "gradient accumulation", "KV Cache"] * 50  # more than one batch
    with ChatServer() as server:
        embedder = OpenAIEmbedder("bge-m3", base_url=server.base_url, batch_size=64)
        vectors = embedder.embed(texts)
        calls = [r for r in server.requests if r["path"].endswith("/embeddings")]
    assert vectors.shape == (150, 256)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.allclose(vectors, BigramEmbedder().embed(texts), atol=1e-5)  # order kept
    assert len(calls) == 3 and calls[0]["body"]["model"] == "bge-m3"
    assert embedder.model_id == f"bge-m3@127.0.0.1:{server.httpd.server_address[1]}"


@pytest.mark.parametrize("status, message", [(500, r"failed \(500\)"), (401, r"failed \(401\)")])
def test_server_errors_become_one_line_model_errors(status: int, message: str) -> None:
    with ChatServer() as server:
        server.embedding_status = status
        with pytest.raises(ModelError, match=message):
            OpenAIEmbedder("m", base_url=server.base_url).embed(["x"])


def test_timeouts_and_refused_connections() -> None:
    with ChatServer() as server:
        server.embedding_delay = 5
        start = time.monotonic()
        with pytest.raises(ModelError, match="timed out"):
            OpenAIEmbedder("m", base_url=server.base_url, timeout=0.5).embed(["x"])
        assert time.monotonic() - start < 4
        url = server.base_url
    with pytest.raises(ModelError, match="cannot reach"):
        OpenAIEmbedder("m", base_url=url, timeout=2).embed(["x"])


def test_an_openai_model_needs_a_server() -> None:
    with pytest.raises(ModelError, match="needs an embeddings server"):
        make_embedder("openai:bge-m3")


def test_cli_grades_a_batch_against_the_served_model(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import contextlib
    import io

    answers = tmp_path / "a.jsonl"
    answers.write_text(json.dumps({"id": 1, "question_id": "q07",
                                   "answer": "梯度累积将一个大batch拆分为多个micro-batch。"},
                                  ensure_ascii=False) + "\n", encoding="utf-8")
    with ChatServer() as server:
        monkeypatch.setenv("INTERVIEWER_EMBEDDING_BASE_URL", server.base_url)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err):
            code = cli.main(["grade", "--rubric", "ai-infra-zh", "--answers", str(answers),
                             "--model", "openai:bge-m3", "--uncalibrated"], out=out, err=err)
    assert code == 0, err.getvalue()
    row = json.loads(out.getvalue())
    assert row["model_id"].startswith("bge-m3@127.0.0.1:")
    assert row["calibration"] == "uncalibrated"  # asked for: a new model is calibrated first
    assert row["points"][0]["verdict"] == "covered"
