"""A real HTTP server on 127.0.0.1 that speaks the Chat Completions protocol, for tests.

It answers from a script: each request takes the next :class:`Reply` (status, content,
streamed or not, delay). The real ``openai`` client talks to it over TCP; nothing is mocked.

It can also behave like llama-cpp-python's server: headers first and then a ``: ping``
comment every few seconds while the model thinks, a plain body trickled a byte at a time, a
stream cut short (no ``finish_reason``, connection closed), ``response_format`` of type
``json_schema`` answered with HTTP 500 while ``json_object`` is accepted; like OpenAI's
reasoning models (HTTP 400 for ``max_tokens`` or ``temperature``); and 404 for any path
outside ``/v1``.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Reply:
    content: str = ""
    status: int = 200
    stream: bool | None = None  # None: as the request asks
    delay: float = 0.0  # before the first byte
    chunk_delay: float = 0.0  # between streamed chunks
    chunk_size: int = 8
    headers: dict[str, str] = field(default_factory=dict)
    pings_for: float = 0.0  # streamed: headers at once, then ": ping" comments this long
    ping_every: float = 0.2
    trickle: float = 0.0  # plain body: one byte every this many seconds
    cut: bool = False  # streamed: stop after the content, no finish_reason, no [DONE]
    finish_reason: str = "stop"
    hold: threading.Event | None = None  # streamed: after ``hold_after`` chunks, wait for it
    hold_after: int = 0


class ChatServer:
    def __init__(self) -> None:
        self.script: list[Reply] = []
        self.requests: list[dict] = []
        self.embedding_delay = 0.0
        self.embedding_status = 200
        self.embedding_floor = 0.0  # like e5: every pair of texts at least this similar
        self.json_schema_500 = True  # llama-cpp-python: json_schema fails, json_object works
        self.reject_response_format = False  # a server that knows no response_format at all
        self.reasoning = False  # OpenAI reasoning models: max_tokens, temperature -> 400
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:  # quiet
                pass

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                server.requests.append({"path": self.path,
                                        "headers": {k.lower(): v for k, v in self.headers.items()},
                                        "body": body})
                if not self.path.startswith("/v1/"):
                    self._send_json(json.dumps({"detail": "Not Found"}).encode(), 404)
                    return
                if self.path.endswith("/embeddings"):
                    self._embeddings(body)
                    return
                refusal = server._refusal(body)
                if refusal is not None:
                    status, message = refusal
                    payload = json.dumps({"error": {"message": message, "type": "test"}}).encode()
                    self._send_json(payload, status)
                    return
                reply = server.script.pop(0) if server.script else Reply(status=500)
                time.sleep(reply.delay)
                if reply.status != 200:
                    payload = json.dumps({"error": {"message": f"scripted {reply.status}",
                                                    "type": "test"}}).encode()
                    self._send_json(payload, reply.status, reply.headers)
                    return
                streaming = body.get("stream", False) if reply.stream is None else reply.stream
                if streaming:
                    self._stream(reply, body)
                else:
                    self._json(reply, body)

            def _embeddings(self, body: dict) -> None:
                """Deterministic vectors (hashed character bigrams): similar texts, similar vectors."""
                time.sleep(server.embedding_delay)
                if server.embedding_status != 200:
                    payload = json.dumps({"error": {"message": "scripted"}}).encode()
                    self._send_json(payload, server.embedding_status)
                    return
                import numpy as np

                from fakes import BigramEmbedder

                texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
                vectors = BigramEmbedder().embed(texts)
                if server.embedding_floor:  # one shared direction: cos = (1-f)·cos + f
                    f = server.embedding_floor
                    vectors = np.hstack([vectors * np.sqrt(1 - f),
                                         np.full((len(vectors), 1), np.sqrt(f), np.float32)])
                payload = json.dumps({"object": "list", "model": body.get("model"),
                                      "data": [{"object": "embedding", "index": i,
                                                "embedding": v.tolist()}
                                               for i, v in reversed(list(enumerate(vectors)))],
                                      "usage": {"prompt_tokens": 0, "total_tokens": 0}}).encode()
                self._send_json(payload)

            def _json(self, reply: Reply, body: dict) -> None:
                payload = json.dumps({
                    "id": "cmpl-test", "object": "chat.completion", "created": int(time.time()),
                    "model": body.get("model", "test"),
                    "choices": [{"index": 0, "finish_reason": reply.finish_reason,
                                 "message": {"role": "assistant", "content": reply.content}}],
                }).encode()
                if not reply.trickle:
                    self._send_json(payload)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                try:
                    for i in range(len(payload)):
                        self.wfile.write(payload[i:i + 1])
                        self.wfile.flush()
                        time.sleep(reply.trickle)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def _send_json(self, payload: bytes, status: int = 200,
                           headers: dict[str, str] | None = None) -> None:
                self.send_response(status)
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def _stream(self, reply: Reply, body: dict) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                text = reply.content
                pieces = [text[i:i + reply.chunk_size] for i in range(0, len(text), reply.chunk_size)]

                def chunk(delta: dict, finish: str | None) -> bytes:
                    data = {"id": "cmpl-test", "object": "chat.completion.chunk",
                            "created": int(time.time()), "model": body.get("model", "test"),
                            "choices": [{"index": 0, "finish_reason": finish, "delta": delta}]}
                    return f"data: {json.dumps(data)}\n\n".encode()

                try:
                    self.wfile.flush()
                    end = time.monotonic() + reply.pings_for
                    while time.monotonic() < end:  # llama-cpp-python's keep-alive
                        self.wfile.write(b": ping - 2026-11-30 05:00:00.000000\r\n\r\n")
                        self.wfile.flush()
                        time.sleep(reply.ping_every)
                    for n, piece in enumerate(pieces):
                        if reply.hold is not None and n == reply.hold_after:
                            reply.hold.wait(timeout=60)  # the test has seen the part so far
                        self.wfile.write(chunk(({"role": "assistant"} if n == 0 else {})
                                               | {"content": piece}, None))
                        self.wfile.flush()
                        time.sleep(reply.chunk_delay)
                    if not reply.cut:
                        self.wfile.write(chunk({}, reply.finish_reason))
                        self.wfile.write(b"data: [DONE]\n\n")
                    self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    pass
                self.close_connection = True

        class Server(ThreadingHTTPServer):
            def handle_error(self, request, client_address) -> None:
                import sys

                if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
                    super().handle_error(request, client_address)  # a client that gave up is fine

        self.httpd = Server(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def _refusal(self, body: dict) -> tuple[int, str] | None:
        """What a real server says to parameters it does not take."""
        fmt = body.get("response_format")
        if fmt is not None and self.reject_response_format:
            return 400, "Unrecognized request argument supplied: response_format"
        if isinstance(fmt, dict) and fmt.get("type") == "json_schema" and self.json_schema_500:
            return 500, "'json_schema' is not supported"  # llama-cpp-python's reply
        if self.reasoning:
            if "max_tokens" in body:
                return 400, ("Unsupported parameter: 'max_tokens' is not supported with this "
                             "model. Use 'max_completion_tokens' instead.")
            if "temperature" in body:
                return 400, ("Unsupported value: 'temperature' does not support 0.3 with this "
                             "model. Only the default (1) value is supported.")
        return None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> ChatServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
