"""A mounted app runs its jobs when the host runs its lifespan, or says why not (503).

Before, ``app.mount("/texts", create_app(...))`` answered ``Prefer: respond-async``
with 202 and a ``Location``, and the job stayed ``queued`` forever: Starlette never
runs a mounted app's lifespan, where the job workers start. Served by uvicorn on
127.0.0.1, as a host app would be.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi")
uvicorn = pytest.importorskip("uvicorn")

from fastapi import FastAPI  # noqa: E402
from starlette.applications import Starlette  # noqa: E402
from starlette.routing import Mount  # noqa: E402
from tests.served import free_port  # noqa: E402

from libtext.asgi import Settings, create_app, lifespan  # noqa: E402


@contextmanager
def served(app: Any) -> Iterator[str]:
    """``app`` under uvicorn on 127.0.0.1 (lifespan on), stopped on exit."""
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)


def fastapi_host(texts: Any, *, run_lifespan: bool) -> Any:
    host = FastAPI(lifespan=(lambda _: lifespan(texts)) if run_lifespan else None)
    host.mount("/texts", texts)
    return host


def starlette_host(texts: Any, *, run_lifespan: bool) -> Any:
    return Starlette(
        routes=[Mount("/texts", app=texts)],
        lifespan=(lambda _: lifespan(texts)) if run_lifespan else None,
    )


HOSTS = [pytest.param(fastapi_host, id="fastapi"), pytest.param(starlette_host, id="starlette")]


@pytest.fixture
def texts(tmp_path: Path) -> Iterator[Any]:
    from libtext.store import TextStore

    store = TextStore(f"sqlite:///{tmp_path / 'texts.db'}")
    yield create_app(store=store, settings=Settings(jobs_workers=1))
    store.close()


@pytest.fixture
def pdf(fixtures_dir: Path) -> bytes:
    return (fixtures_dir / "small.pdf").read_bytes()


def submit(base: str, pdf: bytes) -> httpx.Response:
    return httpx.post(
        f"{base}/texts/api/process",
        files={"file": ("small.pdf", pdf, "application/pdf")},
        headers={"Prefer": "respond-async"},
        timeout=30,
    )


@pytest.mark.parametrize("make_host", HOSTS)
def test_mounted_without_the_lifespan_answers_503_no_workers(
    texts: Any, pdf: bytes, make_host: Callable[..., Any]
) -> None:
    with served(make_host(texts, run_lifespan=False)) as base:
        r = submit(base, pdf)
        listed = httpx.get(f"{base}/texts/api/jobs", timeout=30).json()
    assert r.status_code == 503, r.text
    error = r.json()["error"]
    assert error["code"] == "no_workers"
    assert "libtext.asgi.lifespan" in error["message"]
    assert "LIBTEXT_JOBS_WORKERS=0" in error["message"]
    assert listed["pagination"]["total"] == 0  # nothing was queued to rot


@pytest.mark.parametrize("make_host", HOSTS)
def test_mounted_with_the_lifespan_runs_the_job(
    texts: Any, pdf: bytes, make_host: Callable[..., Any]
) -> None:
    with served(make_host(texts, run_lifespan=True)) as base:
        r = submit(base, pdf)
        assert r.status_code == 202, r.text
        location = r.headers["location"]
        assert location.startswith("/texts/api/jobs/")
        deadline = time.monotonic() + 120
        while True:
            job = httpx.get(f"{base}{location}", timeout=30).json()
            if job["state"] not in ("queued", "running") or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert job["state"] == "succeeded", job
        text = httpx.get(f"{base}/texts/api/texts/{job['slug']}", timeout=30)
    assert text.status_code == 200


def test_lifespan_takes_only_a_libtext_app() -> None:
    with pytest.raises(TypeError, match="create_app"):
        lifespan(FastAPI())
