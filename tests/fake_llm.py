"""A fake OpenAI-compatible chat-completions server on 127.0.0.1, for tests and benchmarks.

Point litellm at it with ``model="openai/<name>", api_base=server.url, api_key="sk-test"``.
Each test scripts it: queue replies (status, JSON body, headers such as
``Retry-After``, a delay), or give a ``responder`` that builds the reply for each
request; every request is recorded (time, model, body) for assertions.

    with FakeLLMServer() as server:
        server.queue(FakeReply(status=429, headers={"Retry-After": "0.05"}), ok('{"a": 1}'))
        ...
        assert server.count == 2
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx

__all__ = ["FakeLLMServer", "FakeReply", "RecordedRequest", "chat_completion", "error_body", "ok"]


def chat_completion(
    content: str,
    *,
    model: str = "fake-model",
    tokens_in: int = 11,
    tokens_out: int = 7,
    finish_reason: str = "stop",
) -> dict[str, Any]:
    """An OpenAI chat-completion body whose answer is ``content``."""
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": finish_reason,
            }
        ],
        "usage": {
            "prompt_tokens": tokens_in,
            "completion_tokens": tokens_out,
            "total_tokens": tokens_in + tokens_out,
        },
    }


def error_body(message: str, kind: str = "error", code: str | None = None) -> dict[str, Any]:
    """An OpenAI-style error body."""
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


@dataclass
class FakeReply:
    """One scripted answer.

    Attributes:
        status: HTTP status.
        body: JSON body; ``None`` means a chat completion answering ``content``
            (status 200) or a generic error body (other statuses).
        content: The assistant's text when ``body`` is ``None``.
        headers: Extra response headers (e.g. ``{"Retry-After": "0.1"}``).
        delay: Seconds to wait before answering.
        finish_reason: The chat completion's ``finish_reason`` (``"length"``: cut off).
    """

    status: int = 200
    body: dict[str, Any] | None = None
    content: str = "{}"
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    finish_reason: str = "stop"


def ok(content: str, *, delay: float = 0.0) -> FakeReply:
    """A 200 answer whose assistant message is ``content``."""
    return FakeReply(content=content, delay=delay)


@dataclass
class RecordedRequest:
    """One request the server received."""

    time: float  # time.perf_counter() when it arrived
    path: str
    model: str | None
    body: dict[str, Any]
    headers: httpx.Headers  # case-insensitive, as HTTP header names are


class FakeLLMServer:
    """The server; start it with ``with`` (or :meth:`start` / :meth:`stop`).

    Args:
        responder: Builds the reply for a request body when no reply is queued;
            default a 200 answering ``"{}"``.
        delay: Seconds every responder reply waits (queued replies carry their own).
        info: JSON bodies answered to GET requests by path (``{"/props": {...}}``), as a
            local server reports itself; other GETs get a 404.
    """

    def __init__(
        self,
        responder: Callable[[dict[str, Any]], FakeReply] | None = None,
        *,
        delay: float = 0.0,
        info: dict[str, Any] | None = None,
    ) -> None:
        self.responder = responder or (lambda body: FakeReply())
        self.delay = delay
        self.info = dict(info or {})
        self.requests: list[RecordedRequest] = []
        self._queue: deque[FakeReply] = deque()
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- scripting -------------------------------------------------------------------

    def queue(self, *replies: FakeReply) -> None:
        """Answer the next requests with these replies, in order."""
        with self._lock:
            self._queue.extend(replies)

    @property
    def count(self) -> int:
        """Requests received so far."""
        with self._lock:
            return len(self.requests)

    @property
    def url(self) -> str:
        """The ``api_base`` to give litellm (``http://127.0.0.1:PORT/v1``)."""
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("FakeLLMServer is not started")
        return int(self._server.server_address[1])

    def _next(self, body: dict[str, Any]) -> FakeReply:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        reply = self.responder(body)
        if self.delay and not reply.delay:
            reply.delay = self.delay
        return reply

    # --- lifecycle -------------------------------------------------------------------

    def start(self) -> FakeLLMServer:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, like a real API
            # One buffered write per answer and no Nagle: otherwise headers and body go
            # out as two segments and delayed ACKs add ~40 ms to every call.
            wbufsize = 64 * 1024
            disable_nagle_algorithm = True

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0]
                found = path in fake.info
                data = json.dumps(fake.info[path] if found else error_body("not found")).encode()
                self.send_response(200 if found else 404)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                arrived = time.perf_counter()
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {"_raw": raw.decode("utf-8", "replace")}
                with fake._lock:
                    fake.requests.append(
                        RecordedRequest(
                            time=arrived,
                            path=self.path,
                            model=body.get("model") if isinstance(body, dict) else None,
                            body=body if isinstance(body, dict) else {"_json": body},
                            headers=httpx.Headers(list(self.headers.items())),
                        )
                    )
                reply = fake._next(body if isinstance(body, dict) else {})
                if reply.delay:
                    time.sleep(reply.delay)
                payload = reply.body
                if payload is None:
                    if reply.status == 200:
                        payload = chat_completion(
                            reply.content,
                            model=str(body.get("model")),
                            finish_reason=reply.finish_reason,
                        )
                    else:
                        payload = error_body(f"fake error {reply.status}")
                data = json.dumps(payload).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for key, value in reply.headers.items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up
                    pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        server.block_on_close = False
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, name="fake-llm", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> FakeLLMServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
