"""A client that leaves in the middle of an upload costs one INFO log line (issue 27).

Before, the server logged two tracebacks for it (the route's, and the ASGI server's),
as if it were a bug.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest

pytest.importorskip("fastapi")

from libtext.asgi import create_app


async def test_disconnect_mid_upload_is_one_info_line(caplog: pytest.LogCaptureFixture) -> None:
    app = create_app()
    boundary = "xyz"
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n'
        "Content-Type: application/pdf\r\n\r\n%PDF-1.7\n"
    ).encode()
    messages = [
        {"type": "http.request", "body": head, "more_body": True},
        {"type": "http.request", "body": b"x" * 1000, "more_body": True},
        {"type": "http.disconnect"},
    ]

    async def receive() -> dict[str, Any]:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/extract",
        "raw_path": b"/api/extract",
        "root_path": "",
        "query_string": b"",
        "headers": [
            (b"host", b"t"),
            (b"content-type", f"multipart/form-data; boundary={boundary}".encode()),
            (b"content-length", b"100000"),
        ],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }
    with caplog.at_level(logging.DEBUG):
        await app(scope, receive, send)
    mine = [r for r in caplog.records if r.name.startswith(("libtext", "uvicorn", "fastapi"))]
    assert [r.levelno for r in mine] == [logging.INFO], [r.getMessage() for r in mine]
    assert "disconnected" in mine[0].getMessage()
    assert not any(r.exc_info for r in caplog.records)
