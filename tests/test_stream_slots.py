"""Event streams come from a bounded pool with a cap per client (issue 27).

511 streams opened by one client used to hold every slot of the server. Now one
client holds at most ``MAX_STREAMS_PER_CLIENT``; the next gets 429 with
``Retry-After``, and a closed stream gives its slot back.
"""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from tests.served import serving

from libtext.asgi._streams import StreamSlots, TooManyStreamsError

SAMPLE = Path(__file__).resolve().parents[1] / "examples" / "sample.pdf"


def test_slots_cap_each_client_and_the_pool() -> None:
    slots = StreamSlots(total=3, per_client=2)
    a1, a2 = slots.take("a"), slots.take("a")
    with pytest.raises(TooManyStreamsError) as caught:
        slots.take("a")
    assert caught.value.details["limit"] == "max_streams_per_client"
    b1 = slots.take("b")
    with pytest.raises(TooManyStreamsError) as caught:
        slots.take("c")
    assert caught.value.details["limit"] == "max_streams"
    a1()
    a1()  # twice is once
    assert slots.open == 2
    slots.take("c")
    a2()
    b1()
    assert slots.open == 1


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("libtext.asgi")
    db = tmp_path_factory.mktemp("streams") / "served.db"
    env = {"LIBTEXT_JOBS_WORKERS": "0"}  # nobody runs the job: its stream stays open
    args = ["--store", f"sqlite:///{db}", "--log-level", "warning", "--no-access-log"]
    with serving(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as (_, base):
        yield base


def test_one_client_cannot_hold_every_stream(server: str) -> None:
    from libtext.asgi._streams import MAX_STREAMS_PER_CLIENT

    files = {"file": ("s.pdf", SAMPLE.read_bytes(), "application/pdf")}
    job = httpx.post(f"{server}/api/process?wait=false", files=files, timeout=30).json()
    path = f"/api/jobs/{job['id']}/events"
    url = urlsplit(server)
    assert url.hostname is not None and url.port is not None
    held: list[socket.socket] = []
    try:
        for _ in range(MAX_STREAMS_PER_CLIENT):
            sock = socket.create_connection((url.hostname, url.port), timeout=10)
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: t\r\n\r\n".encode())
            assert sock.recv(4096).startswith(b"HTTP/1.1 200")
            held.append(sock)
        t0 = time.monotonic()
        refused = httpx.get(f"{server}{path}", timeout=10)
        assert refused.status_code == 429, refused.text[:300]
        assert refused.json()["error"]["code"] == "too_many_streams"
        assert int(refused.headers["retry-after"]) >= 1
        assert httpx.get(f"{server}/api/health", timeout=5).status_code == 200
        assert time.monotonic() - t0 < 5
        held.pop().close()
        deadline = time.monotonic() + 10
        while True:  # the server sees the hang-up and gives the slot back
            with httpx.stream("GET", f"{server}{path}", timeout=10) as again:
                if again.status_code == 200:
                    break
            assert time.monotonic() < deadline, "the closed stream's slot never came back"
            time.sleep(0.1)
    finally:
        for sock in held:
            sock.close()
