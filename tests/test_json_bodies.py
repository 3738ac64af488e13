"""JSON request bodies: a lower size limit than uploads, and large ones parsed off the
event loop (issue 27: a 28 MB JSON body stalled the loop for about 11 s)."""

from __future__ import annotations

import json
import threading
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi")

from libtext.asgi import create_app
from libtext.asgi._offloop import INLINE_JSON_BYTES
from libtext.asgi._uploads import MAX_JSON_BYTES


def _client() -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app()), base_url="http://t")


async def test_json_body_over_its_limit_is_413_before_parsing() -> None:
    body = json.dumps({"work_id": "1", "pad": "x" * (MAX_JSON_BYTES + 10)}).encode()
    async with _client() as c:
        r = await c.post("/api/process", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 413, r.text[:300]
    assert r.json()["error"]["details"]["max_bytes"] == MAX_JSON_BYTES
    assert r.headers["connection"] == "close"


async def test_large_json_is_parsed_in_a_worker_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    import libtext.asgi._offloop as offloop

    threads: list[str] = []
    real = json.loads

    def spy(body: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real(body)

    monkeypatch.setattr(offloop.json, "loads", spy)
    segment = {"sequence_id": 1, "original_hebrew_block": "שלום " * (INLINE_JSON_BYTES // 5)}
    async with _client() as c:
        r = await c.post("/api/translate", json=segment)
    assert r.status_code != 500, r.text[:300]
    assert threads and threads[0] != threading.main_thread().name
