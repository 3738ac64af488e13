"""Connection slots a few clients cannot hold (issue 27), on a real server.

With ``--limit-concurrency 8`` and seven uploads held open mid-body, an ordinary
request gets uvicorn's plain 503, but ``GET /api/health`` is served on a slot of its
own, within a second. Idle connections are closed first when the slots run out, and
uploads whose body drips under the minimum pace next.
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


_UPLOAD_HEAD = (
    b"POST /api/extract HTTP/1.1\r\nHost: t\r\nContent-Length: 100000\r\n"
    b"Content-Type: multipart/form-data; boundary=b\r\n\r\n--b\r\n"
)


def _hold_uploads(server: str, n: int) -> list[socket.socket]:
    """``n`` uploads held open mid-body (headers and the first bytes sent, no more)."""
    held: list[socket.socket] = []
    for _ in range(n):
        sock = socket.create_connection(_address(server), timeout=10)
        sock.sendall(_UPLOAD_HEAD)
        held.append(sock)
    return held


def test_health_answers_when_every_slot_is_held(server: str) -> None:
    _wait_for_free_slots(server)
    held = _hold_uploads(server, LIMIT - 1)  # with the next request's: every slot
    try:
        time.sleep(0.2)
        # Within SLOW_BODY_AFTER of their start the uploads are not cut for it.
        assert httpx.get(f"{server}/api/texts", timeout=5).status_code == 503
        for _ in range(5):
            t0 = time.monotonic()
            r = httpx.get(f"{server}/api/health", timeout=5)
            assert r.status_code == 200, r.text[:200]
            assert r.json()["status"] == "ok"
            assert time.monotonic() - t0 < 1.0
    finally:
        for sock in held:
            sock.close()


def _address(server: str) -> tuple[str, int]:
    url = urlsplit(server)
    assert url.hostname is not None and url.port is not None
    return url.hostname, url.port


def _get(sock: socket.socket, path: str = "/api/texts") -> bytes:
    """One keep-alive GET on ``sock``: the status line of its answer (body read whole)."""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: t\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        assert chunk, "the server closed the connection"
        head += chunk
    head, body = head.split(b"\r\n\r\n", 1)
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        body += sock.recv(65536)
    return head.split(b"\r\n", 1)[0]


def test_dripping_bodies_are_cut_when_slots_run_out(server: str) -> None:
    """Every slot held by uploads that send nothing after their first bytes: once
    their bodies have had SLOW_BODY_AFTER seconds under the minimum pace, a new request
    takes the slot of one of them instead of uvicorn's 503 (before: 503 for the pace
    check's whole grace period, and again when the flood reconnects)."""
    from libtext.asgi._http import SLOW_BODY_AFTER

    _wait_for_free_slots(server)
    held = _hold_uploads(server, LIMIT - 1)
    try:
        time.sleep(SLOW_BODY_AFTER + 0.5)
        r = httpx.get(f"{server}/api/texts", timeout=5)
        assert r.status_code == 200, r.text[:200]
        assert any(_closed(sock) for sock in held)
    finally:
        for sock in held:
            sock.close()


def _closed(sock: socket.socket) -> bool:
    sock.settimeout(0.5)
    try:
        return sock.recv(1) == b""
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def _wait_for_free_slots(server: str) -> None:
    deadline = time.monotonic() + 10
    while httpx.get(f"{server}/api/texts", timeout=5).status_code != 200:
        assert time.monotonic() < deadline, "the slots of the last test were not given back"
        time.sleep(0.1)


def test_idle_connections_are_closed_first_when_slots_run_out(server: str) -> None:
    """Every slot held by idle connections: a new request is served, not refused with
    503, and the connections closed for it are those that never sent a request; the
    idle keep-alive ones (and, with uvicorn alone, the new request's 503) come after."""
    _wait_for_free_slots(server)
    used: list[socket.socket] = []
    never: list[socket.socket] = []
    try:
        for _ in range(LIMIT // 2):  # keep-alive connections, idle after one answer
            sock = socket.create_connection(_address(server), timeout=5)
            assert _get(sock) == b"HTTP/1.1 200 OK"
            used.append(sock)
        for _ in range(LIMIT - LIMIT // 2):  # connected, nothing sent: every slot held
            never.append(socket.create_connection(_address(server), timeout=5))
        time.sleep(0.3)
        for _ in range(3):
            r = httpx.get(f"{server}/api/texts", timeout=5)
            assert r.status_code == 200, r.text[:200]
        # Each new request took the place of an idle connection that never sent one.
        assert sum(_closed(sock) for sock in never) >= 2
        for sock in used:  # the keep-alive ones still serve
            assert _get(sock) == b"HTTP/1.1 200 OK"
        # Once only keep-alive connections are idle, they make room too.
        more: list[socket.socket] = []
        try:
            for _ in range(LIMIT):
                more.append(socket.create_connection(_address(server), timeout=5))
                assert _get(more[-1]) == b"HTTP/1.1 200 OK"
        finally:
            for sock in more:
                sock.close()
    finally:
        for sock in used + never:
            sock.close()
