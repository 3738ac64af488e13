"""Health answers while slow clients hold every request slot (issue 27).

With ``--limit-concurrency 8`` and eight uploads held open mid-body, an ordinary
request gets uvicorn's plain 503, but ``GET /api/health`` is served on a slot of its
own, within a second.
"""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import httpx
import pytest
from tests.served import serving

LIMIT = 8


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("libtext.asgi")
    db = tmp_path_factory.mktemp("slots") / "served.db"
    args = [
        "--store", f"sqlite:///{db}", "--log-level", "critical", "--no-access-log",
        "--limit-concurrency", str(LIMIT),
    ]  # fmt: skip
    with serving(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as (_, base):
        yield base


def test_health_answers_when_every_slot_is_held(server: str) -> None:
    url = urlsplit(server)
    assert url.hostname is not None and url.port is not None
    held: list[socket.socket] = []
    try:
        saturated = False
        for _ in range(3 * LIMIT):  # uploads held open mid-body until the slots are full
            sock = socket.create_connection((url.hostname, url.port), timeout=10)
            sock.sendall(
                b"POST /api/extract HTTP/1.1\r\nHost: t\r\nContent-Length: 100000\r\n"
                b"Content-Type: multipart/form-data; boundary=b\r\n\r\n--b\r\n"
            )
            held.append(sock)
            if httpx.get(f"{server}/api/texts", timeout=5).status_code == 503:
                saturated = True
                break
        assert saturated, "the request slots never filled"
        for _ in range(5):
            t0 = time.monotonic()
            r = httpx.get(f"{server}/api/health", timeout=5)
            assert r.status_code == 200, r.text[:200]
            assert r.json()["status"] == "ok"
            assert time.monotonic() - t0 < 1.0
    finally:
        for sock in held:
            sock.close()
