"""Health always answers (issue 27): each probe has its own short time limit.

A database that accepts connections and never answers (a hung PostgreSQL, a
half-open proxy) used to keep the first health call waiting for 45 s and more; now
health answers ``degraded`` within its probe timeout, and again at once after.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest
from tests.silent_server import silent_port

pytest.importorskip("libtext.asgi")
pytest.importorskip("psycopg")

from libtext.asgi import Settings, create_app
from libtext.asgi._backend import PROBE_TIMEOUT


@pytest.fixture
def hung_database() -> Iterator[int]:
    """A port on 127.0.0.1 that accepts connections and never sends a byte."""
    with silent_port() as port:
        yield port


async def test_health_answers_degraded_with_a_hung_database(hung_database: int) -> None:
    url = f"postgresql+psycopg://user:secret@127.0.0.1:{hung_database}/texts"
    app = create_app(settings=Settings(store_url=url, request_timeout=30))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        for _ in range(2):  # the first call (store being made) and the next (still hung)
            t0 = time.monotonic()
            r = await client.get("/api/health")
            assert time.monotonic() - t0 < PROBE_TIMEOUT + 1.5
            assert r.status_code == 503
            body = r.json()
            assert body["status"] == "degraded" and body["store"] == "unavailable"
            assert "secret" not in r.text
