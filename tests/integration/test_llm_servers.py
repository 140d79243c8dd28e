"""Follow-ups against servers that behave like real ones (llama-cpp-python, OpenAI's reasoning
models, a base URL without /v1), through the real openai client on 127.0.0.1."""

from __future__ import annotations

import json
import threading

import pytest

from helpers import poll
from llm_server import ChatServer, Reply
from interviewer.config import LLMSettings
from interviewer.followups.prober import LLMProber


def good_json(rubric) -> str:
    ids = [p.id for p in rubric.question("q07").points][1:2]
    return json.dumps({"followup": "累积N个micro-batch之后，参数具体在什么时候更新？通信发生几次？",
                       "targets": ids}, ensure_ascii=False)


def prober(base_url: str, timeout: float = 30.0, model: str | None = "test-model") -> LLMProber:
    return LLMProber(LLMSettings(enabled=True, base_url=base_url, model=model, timeout=timeout),
                     env={})


def run_bounded(fn, limit: float):
    """Run ``fn`` in a thread; its result, or None if it is still running after ``limit`` s.

    The servers below would keep the call going for a minute: the bound is far from the
    deadline under test, not a speed target."""
    out: list = []
    thread = threading.Thread(target=lambda: out.append(fn()), daemon=True)
    thread.start()
    thread.join(limit)
    return out[0] if out else None


def test_ping_comments_do_not_extend_the_deadline(rubric, graded) -> None:
    """llama-cpp-python sends the headers at once, then ': ping' while it thinks."""
    with ChatServer() as server:
        server.script = [Reply(good_json(rubric), pings_for=60, ping_every=0.2)] * 2
        result = run_bounded(lambda: prober(server.base_url, timeout=1.0).followup(
            rubric.question("q07"), graded, "zh"), limit=20)
    assert result is not None, "the call outlived its 1 s deadline by far"
    assert result.source == "template" and "did not finish within 1 s" in result.notice


def test_a_trickled_body_does_not_extend_the_deadline(rubric, graded) -> None:
    """A plain body, one byte every 0.2 s: each read succeeds, the whole never ends in time."""
    with ChatServer() as server:
        server.script = [Reply(good_json(rubric), stream=False, trickle=0.2)] * 3
        result = run_bounded(lambda: prober(server.base_url, timeout=1.0).followup(
            rubric.question("q07"), graded, "zh"), limit=20)
    assert result is not None, "the call outlived its 1 s deadline by far"
    assert result.source == "template" and "did not finish" in result.notice


def test_a_pending_call_can_be_cancelled(rubric, graded) -> None:
    cancel = threading.Event()
    with ChatServer() as server:
        server.script = [Reply(good_json(rubric), pings_for=60)]
        p = prober(server.base_url, timeout=60.0)
        threading.Timer(0.5, cancel.set).start()
        result = run_bounded(lambda: p.followup(rubric.question("q07"), graded, "zh",
                                                cancel=cancel), limit=20)
    assert result is not None and result.source == "template"
    assert "cancelled" in result.notice


def test_json_is_asked_for_as_json_object_not_json_schema(rubric, graded) -> None:
    with ChatServer() as server:  # a llama-cpp-python server: json_schema would be a 500
        server.script = [Reply(good_json(rubric))]
        result = prober(server.base_url).followup(rubric.question("q07"), graded, "zh")
        body = server.requests[0]["body"]
    assert result.source == "llm"
    assert body["response_format"] == {"type": "json_object"}


def test_a_server_without_response_format_is_asked_again_without_it(rubric, graded) -> None:
    with ChatServer() as server:
        server.reject_response_format = True
        server.script = [Reply(good_json(rubric))]
        result = prober(server.base_url).followup(rubric.question("q07"), graded, "zh")
        bodies = [r["body"] for r in server.requests]
    assert result.source == "llm", result.notice
    assert "response_format" in bodies[0] and "response_format" not in bodies[-1]


def test_a_cut_stream_is_asked_again_not_called_invalid(rubric, graded) -> None:
    """llama-cpp-python ends one stream when a second one starts: no finish_reason."""
    text = good_json(rubric)
    with ChatServer() as server:
        server.script = [Reply(text[:30], cut=True), Reply(text)]
        result = prober(server.base_url).followup(rubric.question("q07"), graded, "zh")
        messages = [r["body"]["messages"] for r in server.requests]
    assert result.source == "llm", result.notice
    assert len(messages) == 2 and messages[0] == messages[1]  # the same question again


def test_a_stream_cut_twice_says_so(rubric, graded) -> None:
    text = good_json(rubric)
    with ChatServer() as server:
        server.script = [Reply(text[:30], cut=True), Reply(text[:30], cut=True)]
        result = prober(server.base_url).followup(rubric.question("q07"), graded, "zh")
    assert result.source == "template"
    assert "cut off" in result.notice and "JSON" not in result.notice


def test_a_reply_stopped_by_the_token_limit_says_so(rubric, graded) -> None:
    text = good_json(rubric)
    with ChatServer() as server:
        server.script = [Reply(text[:30], finish_reason="length")] * 2
        result = prober(server.base_url).followup(rubric.question("q07"), graded, "zh")
    assert result.source == "template" and "token limit" in result.notice


def test_reasoning_models_are_asked_again_without_max_tokens_and_temperature(
        rubric, graded) -> None:
    with ChatServer() as server:
        server.reasoning = True
        server.script = [Reply(good_json(rubric))]
        result = prober(server.base_url).followup(rubric.question("q07"), graded, "zh")
        last = server.requests[-1]["body"]
    assert result.source == "llm", result.notice
    assert "max_tokens" not in last and "temperature" not in last
    assert last["max_completion_tokens"] > 0


def test_a_base_url_without_v1_gets_a_hint(rubric, graded) -> None:
    with ChatServer() as server:
        url = server.base_url.removesuffix("/v1")
        result = prober(url).followup(rubric.question("q07"), graded, "zh")
    assert result.source == "template"
    assert "404" in result.notice and "/v1" in result.notice


def test_a_server_without_a_model_names_the_missing_setting(rubric, graded) -> None:
    result = prober("http://127.0.0.1:9/v1", model=None).followup(
        rubric.question("q07"), graded, "zh")
    assert result.source == "template" and "llm.model" in result.notice
    result = LLMProber(LLMSettings(enabled=True, model="m"), env={}).followup(
        rubric.question("q07"), graded, "zh")
    assert "llm.base_url" in result.notice


def test_an_invalid_reply_whose_retry_ran_out_of_time_says_it_was_invalid(
        rubric, graded) -> None:
    with ChatServer() as server:
        server.script = [Reply("这不是JSON"), Reply(good_json(rubric), pings_for=60)]
        result = run_bounded(lambda: prober(server.base_url, timeout=1.5).followup(
            rubric.question("q07"), graded, "zh"), limit=20)
    assert result is not None and result.source == "template"
    assert "unusable" in result.notice and "no time was left" in result.notice


def _followup_process(tmp_path, server: ChatServer, timeout: float):
    import os
    import subprocess
    import sys

    from conftest import ROOT

    answer = tmp_path / "a.txt"
    answer.write_text("梯度累积就是把梯度加起来。", encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text(f"[llm]\ntimeout = {timeout}\n", encoding="utf-8")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "INTERVIEWER_HOME": str(home),
           "OPENAI_BASE_URL": server.base_url, "INTERVIEWER_LLM_MODEL": "m",
           "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    return subprocess.Popen([sys.executable, "-m", "interviewer", "followup", "--bank",
                             "ai-infra-zh", "--question", "q07", "--answer-file", str(answer)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


@pytest.mark.integration
def test_the_followup_command_keeps_its_deadline_against_a_trickle(tmp_path) -> None:
    """A plain body sent one byte every 0.2 s: about two minutes for the whole."""
    with ChatServer() as server:
        server.script = [Reply("x" * 500, stream=False, trickle=0.2)] * 2
        proc = _followup_process(tmp_path, server, timeout=2)
        try:
            # model load included
            poll(lambda: proc.poll() is not None, 90, "the end of a command with a 2 s deadline")
        finally:
            proc.kill()
        out, err = proc.communicate()
    assert proc.returncode == 0 and "did not finish within 2 s" in err and "「" in out


@pytest.mark.integration
def test_ctrl_c_during_a_pending_followup_ends_the_command(tmp_path) -> None:
    import signal

    with ChatServer() as server:
        server.script = [Reply("{}", pings_for=120)]
        proc = _followup_process(tmp_path, server, timeout=120)
        try:
            poll(lambda: len(server.requests) == 1, 90, "the request")
            proc.send_signal(signal.SIGINT)
            poll(lambda: proc.poll() is not None, 30, "the end of the process after Ctrl+C")
        finally:
            proc.kill()
        out, err = proc.communicate()
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err
