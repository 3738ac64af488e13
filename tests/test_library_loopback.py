"""LibraryClient against a real HTTP server on 127.0.0.1.

``httpx.MockTransport`` hides what a real connection pool does: it is bound to the
event loop it was made on. A sync call runs on libtext's loop thread and an ``await``
on the caller's loop, so mixing them on one client (as a Jupyter user will) must
work. Compressed answers go through httpx's real decoders here too.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import anyio
import httpx
import pytest

from libtext import RetryPolicy
from libtext.errors import LibraryError
from libtext.library import LibraryClient
from libtext.library import _http as _library_http
from libtext.models import LibraryPage

TREE: dict[str, Any] = {
    "/100": {"content": {"type": "children", "data": [{"id": 101, "heading": "פרק א"}]}},
    "/101": {
        "content": {
            "type": "page",
            "data": {
                "text": "<h2>פרק א</h2>\r\n[cup]שלום[/cup] עולם[ftnref_1_1] ומלואו",
                "haoros": "[ftn_1_1] [dibur_maschil]עולם[/dibur_maschil]: תהלים כד, א.",
            },
        }
    },
}


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: pooled connections are reused
    server: _Server

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        params = {k: v[0] for k, v in parse_qs(url.query).items()}
        self.server.seen.append(params)
        if url.path.endswith("/api/search"):
            phrase = params.get("phrase", "")
            body: Any = {
                "count": 1,
                "results": [
                    {
                        "mafteach_id": 101,
                        "tree": '<a href="/books/100">ספר</a> &gt; <a href="/books/101">פרק א</a>',
                        "text": f"<h2>פרק א</h2>\r\n{phrase} ומלואו",
                    }
                ],
            }
        elif url.path.endswith("/api/main") and params.get("path") in TREE:
            body = TREE[params["path"]]
        else:
            body = {"content": None}
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        headers = {"Content-Type": "application/json"}
        if self.server.brotli:
            import brotli

            data = brotli.compress(data)
            if self.server.brotli == "header":
                headers["Content-Encoding"] = "br"
        self.send_response(200)
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    seen: list[dict[str, str]]
    brotli: str | None


@pytest.fixture
def server() -> Iterator[_Server]:
    srv = _Server(("127.0.0.1", 0), _Handler)
    srv.seen, srv.brotli = [], None
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield srv
    finally:
        srv.shutdown()
        srv.server_close()
        thread.join(5)


def make_client(server: _Server) -> LibraryClient:
    host, port = server.server_address[:2]
    return LibraryClient(
        base_url=f"http://{host!s}:{port}/books", rate_limit=None, retry=RetryPolicy(max_attempts=1)
    )


def test_sync_and_async_calls_mix_on_one_client(server: _Server) -> None:
    client = make_client(server)
    try:
        first = client.search("שלום")
        second = asyncio.run(client.asearch("שלום"))  # a new event loop
        third = anyio.run(client.asearch, "שלום")  # and another
        fourth = client.search("שלום")  # back on libtext's loop
        work = asyncio.run(client.aget_work("100"))
        again = client.get_work("100")
    finally:
        client.close()
    assert first == second == third == fourth
    assert first.results[0].id == "101" and first.results[0].heading == "ספר / פרק א"
    assert work == again and work.pages[0].footnotes[0].marker == "1"
    assert len(server.seen) == 4 + 2 * 2


async def test_sync_twins_inside_a_running_loop_like_jupyter(server: _Server) -> None:
    client = make_client(server)
    try:
        a = await client.asearch("שלום")
        b = client.search("שלום")  # blocks this loop; libtext's loop thread does the I/O
        c = await client.asearch("שלום")
        node = client.get_node("101")
        anode = await client.aget_node("101")
    finally:
        await client.aclose()
        client.close()
    assert a == b == c and node == anode and isinstance(node, LibraryPage)
    assert node.text.split("\n") == ["פרק א", "שלום עולם[1] ומלואו"]


@pytest.mark.parametrize("mode", ["header", "bare"])
def test_brotli_answers_are_decoded_over_real_http(server: _Server, mode: str) -> None:
    pytest.importorskip("brotli")
    server.brotli = mode
    with make_client(server) as client:
        node = client.get_node("101")
    assert isinstance(node, LibraryPage) and "שלום עולם[1] ומלואו" in node.text


@pytest.mark.parametrize("mode", ["header", "bare"])
def test_missing_brotli_is_named(
    server: _Server, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("brotli")  # to compress the answers
    server.brotli = mode
    monkeypatch.setattr(_library_http, "brotli_decompress", lambda: None)
    monkeypatch.delitem(httpx._decoders.SUPPORTED_DECODERS, "br")  # as without the package
    with make_client(server) as client, pytest.raises(LibraryError) as info:
        client.get_node("101")
    message = info.value.message
    assert "brotli" in message and "[library]'" in message
    assert "malformed JSON" not in message
