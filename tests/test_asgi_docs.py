"""/docs (Swagger UI) and /redoc work offline: their assets come from the app itself."""

from __future__ import annotations

import re
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

pytest.importorskip("fastapi")
from fastapi import FastAPI

from libtext.asgi import Settings, create_app
from libtext.asgi._docs import assets_folder

pytestmark = pytest.mark.skipif(
    assets_folder() is None, reason="fastapi-offline (server extra) is not installed"
)

CHROMIUM = Path("/usr/bin/chromium")


def refs(html: str) -> list[str]:
    """Every script src and stylesheet/icon href of a page."""
    return re.findall(r'(?:src|href)="([^"]+)"', html)


async def check_page(client: httpx.AsyncClient, path: str, prefix: str = "") -> list[str]:
    page = await client.get(f"{prefix}{path}")
    assert page.status_code == 200
    assert "text/html" in page.headers["content-type"]
    urls = refs(page.text)
    assert urls, page.text
    for url in urls:
        assert not url.startswith(("http://", "https://", "//")), f"{path} loads {url} from afar"
        assert url.startswith(f"{prefix}/docs/assets/"), url
        asset = await client.get(url)
        assert asset.status_code == 200 and len(asset.content) > 1000, url
    assert f"'{prefix}/openapi.json'" in page.text or f'"{prefix}/openapi.json"' in page.text
    return urls


async def test_docs_and_redoc_serve_their_own_assets(tmp_path: Path) -> None:
    app = create_app(settings=Settings(store_url=f"sqlite:///{tmp_path / 't.db'}"))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        swagger = await check_page(client, "/docs")
        assert any(u.endswith("swagger-ui-bundle.js") for u in swagger)
        redoc = await check_page(client, "/redoc")
        assert any(u.endswith("redoc.standalone.js") for u in redoc)
        assert "fonts.googleapis" not in (await client.get("/redoc")).text
        assert (await client.get("/docs/assets/../pyproject.toml")).status_code == 404
        assert (await client.get("/docs/assets/nothing.js")).status_code == 404
        schema = (await client.get("/openapi.json")).json()
        assert not any(p.startswith(("/docs", "/redoc")) for p in schema["paths"])


async def test_mounted_app_links_keep_the_prefix(tmp_path: Path) -> None:
    outer = FastAPI()
    outer.mount("/texts", create_app(settings=Settings(store_url=f"sqlite:///{tmp_path / 't.db'}")))
    transport = httpx.ASGITransport(app=outer)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        await check_page(client, "/docs", prefix="/texts")


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[str]:
    import uvicorn

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    app = create_app(settings=Settings(store_url=f"sqlite:///{tmp_path / 't.db'}"))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.mark.skipif(not CHROMIUM.exists(), reason="headless Chromium not installed")
def test_swagger_ui_renders_with_no_network_but_the_server(
    live_server: str, tmp_path: Path
) -> None:
    # Every host but the server's is unreachable for the browser.
    done = subprocess.run(
        [
            str(CHROMIUM),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
            "--virtual-time-budget=10000",
            "--dump-dom",
            f"{live_server}/docs",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    # Swagger UI drew the operations of the schema (each is an "opblock").
    assert "opblock" in done.stdout and "/api/texts" in done.stdout, done.stderr[-2000:]
