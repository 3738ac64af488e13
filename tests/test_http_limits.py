"""Limits a client meets on a real server (issue 27): a 413 ends the connection.

A client that streams a chunked body past the upload limit gets its 413 with
``Connection: close``, and the server closes the socket instead of reading the rest
(before, it read a 2 GB body to its end on a connection kept open).
"""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from tests.served import serving

LIMIT = 2**20


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    pytest.importorskip("libtext.asgi")
    pytest.importorskip("libtext.store")
    db = tmp_path_factory.mktemp("limits") / "served.db"
    env = {"LIBTEXT_MAX_UPLOAD_BYTES": str(LIMIT)}
    args = ["--store", f"sqlite:///{db}", "--log-level", "warning", "--no-access-log"]
    with serving(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as (_, base):
        url = urlsplit(base)
        assert url.hostname is not None and url.port is not None
        yield url.hostname, url.port


def test_chunked_body_past_the_limit_gets_413_and_the_connection_closes(
    server: tuple[str, int],
) -> None:
    boundary = "b0undary"
    head = (
        "POST /api/extract HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n"
        f"Content-Type: multipart/form-data; boundary={boundary}\r\n\r\n"
    ).encode()
    part = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n'
        "Content-Type: application/pdf\r\n\r\n%PDF-1.7\n"
    ).encode()
    chunk = b"x" * 65536
    with socket.create_connection(server, timeout=10) as sock:
        sock.sendall(head + b"%x\r\n%s\r\n" % (len(part), part))
        sent, answer = 0, b""
        deadline = time.monotonic() + 20
        sock.setblocking(False)
        while time.monotonic() < deadline and sent < 64 * LIMIT:
            try:
                got = sock.recv(65536)
                if not got:
                    break  # closed by the server
                answer += got
            except BlockingIOError:
                pass
            except ConnectionResetError:
                break
            if b"\r\n\r\n" in answer:
                break  # the answer came: stop sending, read the rest
            try:
                sock.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += len(chunk)
            except BlockingIOError:
                time.sleep(0.01)
            except (BrokenPipeError, ConnectionResetError):
                break
        closed_after = sent
        sock.setblocking(True)
        sock.settimeout(5)
        try:
            while got := sock.recv(65536):
                answer += got
        except (ConnectionResetError, TimeoutError):
            pass
    status, _, rest = answer.partition(b"\r\n")
    assert status.startswith(b"HTTP/1.1 413"), answer[:300]
    headers = rest.split(b"\r\n\r\n", 1)[0].lower()
    assert b"connection: close" in headers
    # The server stopped reading soon after the limit, not at the end of what we had.
    assert closed_after < 32 * LIMIT
