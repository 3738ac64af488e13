"""A request body must keep a minimum pace (issue 27).

511 bodies dripping a byte every 5 s (under the 30 s per-part timeout) held every
slot of the server. Now, past a short grace, a body that averages less than
``MIN_BODY_RATE`` bytes per second gets 408 ``body_timeout`` and its slot back.
"""

from __future__ import annotations

import time
from typing import Any

import anyio
import pytest

pytest.importorskip("fastapi")

import libtext.asgi._uploads as uploads
from libtext.asgi import create_app


async def _drip(app: Any, *, every: float, parts: int) -> tuple[int, bytes, float]:
    boundary = "b"
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n'
        "Content-Type: application/pdf\r\n\r\n%PDF-1.7\n"
    ).encode()
    sent = 0

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent == 0:
            sent += 1
            return {"type": "http.request", "body": head, "more_body": True}
        if sent > parts:
            await anyio.sleep_forever()
        sent += 1
        await anyio.sleep(every)
        return {"type": "http.request", "body": b"x", "more_body": True}

    out: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        out.append(message)

    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
        "scheme": "http", "path": "/api/extract", "raw_path": b"/api/extract",
        "root_path": "", "query_string": b"", "client": ("127.0.0.1", 5), "server": ("t", 80),
        "headers": [(b"host", b"t"), (b"content-type", b"multipart/form-data; boundary=b")],
    }  # fmt: skip
    t0 = time.monotonic()
    with anyio.fail_after(20):
        await app(scope, receive, send)
    status = next(m["status"] for m in out if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in out if m["type"] == "http.response.body")
    return status, body, time.monotonic() - t0


async def test_a_dripping_body_gets_408_after_the_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(uploads, "RATE_GRACE", 0.5)
    monkeypatch.setattr(uploads, "MIN_BODY_RATE", 200.0)
    app = create_app()
    status, body, seconds = await _drip(app, every=0.1, parts=1000)  # 10 bytes/s
    assert status == 408, body[:300]
    assert b"body_timeout" in body and b"bytes/s" in body
    assert seconds < 5  # the grace and a little, not the per-part timeout or the drip's end
