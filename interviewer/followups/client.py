"""One Chat Completions call under one wall-clock deadline, on any OpenAI-compatible server.

The request runs in a daemon thread; the caller waits on a queue until the deadline, and
then closes the response. So a server that sends its headers at once and a ``: ping``
comment every few seconds (llama-cpp-python), or trickles a body a byte at a time, cannot
stretch the call: the deadline is kept whether or not bytes arrive, and a cancel event
ends the wait at once. A thread left blocked in a read is a daemon: it never keeps the
process alive.

The call also adapts to what servers accept: JSON is asked for with ``response_format``
``json_object`` (llama-cpp-python fails ``json_schema`` with a 500), dropped when the
server refuses it; OpenAI's reasoning models refuse ``max_tokens`` and ``temperature``, so
the call is repeated once with ``max_completion_tokens``. A stream that ends without a
``finish_reason`` was cut short, which is not the same as a bad reply.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

PLACEHOLDER_KEY = "not-needed"  # servers such as Ollama or llama.cpp ask for no key
POLL = 0.05  # seconds between looks at the cancel event


class CallCancelled(Exception):
    """The caller gave up waiting (the user skipped or quit)."""


class DeadlineExceeded(TimeoutError):
    """The whole call, bytes arriving or not, took longer than its deadline."""

    def __init__(self, timeout: float) -> None:
        super().__init__(f"the LLM did not finish within {timeout:g} s")
        self.timeout = timeout


class StreamCut(Exception):
    """The reply ended without a finish reason: the server cut the stream short."""


class TokenLimit(Exception):
    """The reply stopped at the token limit (finish_reason "length")."""


@dataclass
class ServerQuirks:
    """What this server was seen to refuse; remembered so it is asked right the next time."""

    json_mode: bool = True
    reasoning: bool = False


def _status(exc: BaseException) -> int | None:
    return getattr(exc, "status_code", None)


def _message(exc: BaseException) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        text = inner.get("message") if isinstance(inner, dict) else inner
        return str(text or exc).lower()
    return str(exc).lower()


def refuses_json_mode(exc: BaseException) -> bool:
    status = _status(exc)
    return status in (400, 422, 500) and ("response_format" in _message(exc)
                                          or "json" in _message(exc))


def refuses_sampling(exc: BaseException) -> bool:
    msg = _message(exc)
    return _status(exc) == 400 and ("max_tokens" in msg or "temperature" in msg
                                    or "max_completion_tokens" in msg)


class ChatCall:
    """Chat Completions on one server, each call bounded by the deadline it is given."""

    def __init__(self, base_url: str, model: str, api_key: str | None,
                 quirks: ServerQuirks | None = None) -> None:
        self.base_url = base_url
        self.model = model
        self._api_key = api_key or PLACEHOLDER_KEY
        self.quirks = quirks or ServerQuirks()
        self._client = None

    def client(self):
        if self._client is None:
            from openai import OpenAI

            from interviewer.urls import split_credentials

            # credentials written into the URL go as a header, never into the URL kept;
            # retries are ours: the client's own would not respect the deadline
            url, headers = split_credentials(self.base_url)
            self._client = OpenAI(base_url=url, api_key=self._api_key, max_retries=0,
                                  default_headers=headers or None)
        return self._client

    def params(self, messages: list[dict], *, json_mode: bool, max_tokens: int,
               temperature: float) -> dict:
        params: dict = {"model": self.model, "messages": messages}
        if self.quirks.reasoning:
            params["max_completion_tokens"] = max_tokens
        else:
            params["max_tokens"] = max_tokens
            params["temperature"] = temperature
        if json_mode and self.quirks.json_mode:
            params["response_format"] = {"type": "json_object"}
        return params

    def complete(self, messages: list[dict], *, deadline: float, timeout: float,
                 on_text: Callable[[str], None] | None = None,
                 cancel: threading.Event | None = None, json_mode: bool = True,
                 max_tokens: int = 400, temperature: float = 0.3, stream: bool = True) -> str:
        """The reply's text (``stream=False``: asked for in one body); raises DeadlineExceeded, CallCancelled, StreamCut, TokenLimit or
        the openai client's errors. A refused parameter is dropped and the call made again.
        The client is imported in the call's thread: its import time counts against the
        deadline, not on top of it."""
        for _ in range(3):  # at most: as asked, without response_format, as a reasoning model
            params = self.params(messages, json_mode=json_mode, max_tokens=max_tokens,
                                 temperature=temperature)
            try:
                return self._stream(params, deadline, timeout, on_text, cancel, stream)
            except Exception as exc:
                if _status(exc) is None:
                    raise
                if "response_format" in params and refuses_json_mode(exc):
                    self.quirks.json_mode = False
                elif not self.quirks.reasoning and refuses_sampling(exc):
                    self.quirks.reasoning = True
                else:
                    raise
        raise StreamCut("the server refused every form of the request")

    def _stream(self, params: dict, deadline: float, timeout: float,
                on_text: Callable[[str], None] | None,
                cancel: threading.Event | None, stream: bool = True) -> str:
        """Stream the reply; a server that answers with one plain body is asked again plainly."""
        if stream:
            parts, finish = self._bounded(
                lambda emit, hold: self._read_stream(params, emit, hold), deadline, timeout,
                on_text, cancel)
            if parts:
                _check_finish(finish)
                return "".join(parts)
        parts, finish = self._bounded(lambda emit, hold: self._read_plain(params, emit, hold),
                                      deadline, timeout, on_text, cancel)
        _check_finish(finish)
        return "".join(parts)

    def _request_timeout(self, deadline: float, timeout: float) -> float:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise DeadlineExceeded(timeout)
        return remaining

    def _read_stream(self, params: dict, emit, hold) -> None:
        stream = self.client().with_options(timeout=hold()).chat.completions.create(
            stream=True, **params)
        hold(stream)
        for chunk in stream:
            for choice in chunk.choices or ():
                content = getattr(choice.delta, "content", None)
                if content:
                    emit("text", content)
                if choice.finish_reason:
                    emit("finish", choice.finish_reason)

    def _read_plain(self, params: dict, emit, hold) -> None:
        response = self.client().with_options(timeout=hold()).chat.completions.create(
            stream=False, **params)
        if response.choices:
            choice = response.choices[0]
            if choice.message.content:
                emit("text", choice.message.content)
            emit("finish", choice.finish_reason or "stop")

    def _bounded(self, read, deadline: float, timeout: float,
                 on_text: Callable[[str], None] | None,
                 cancel: threading.Event | None) -> tuple[list[str], str | None]:
        """Run ``read(emit, hold)`` in a daemon thread; collect what it emits until it ends,
        the deadline passes or ``cancel`` is set, whichever comes first."""
        events: queue.Queue = queue.Queue()
        held: list = []

        def hold(resource=None):
            if resource is None:  # the per-request timeout: what is left of the deadline
                return self._request_timeout(deadline, timeout)
            held.append(resource)
            return resource

        def run() -> None:
            try:
                read(lambda kind, value: events.put((kind, value)), hold)
                events.put(("end", None))
            except BaseException as exc:  # handed to the caller's thread
                events.put(("error", exc))

        threading.Thread(target=run, name="llm-call", daemon=True).start()
        parts: list[str] = []
        finish: str | None = None
        try:
            while True:
                if cancel is not None and cancel.is_set():
                    raise CallCancelled("the follow-up was cancelled")
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise DeadlineExceeded(timeout)
                try:
                    kind, value = events.get(timeout=min(POLL, remaining))
                except queue.Empty:
                    continue
                if kind == "text":
                    parts.append(value)
                    if on_text:
                        on_text("".join(parts))
                elif kind == "finish":
                    finish = value
                elif kind == "error":
                    raise value
                else:
                    return parts, finish
        finally:
            for resource in held:  # ends the read in the thread, or leaves it to die alone
                try:
                    resource.close()
                except Exception:
                    pass


def _check_finish(finish: str | None) -> None:
    if finish is None:
        raise StreamCut("the LLM's reply was cut off before it finished")
    if finish == "length":
        raise TokenLimit("the LLM's reply stopped at its token limit")
