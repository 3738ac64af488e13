"""A stand-in of the online library's JSON API on a real socket (127.0.0.1).

For the tests and benchmarks whose workers run in other processes or threads, where
an ``httpx.MockTransport`` cannot reach: every GET is answered with the JSON that
``answer(node)`` gives, ``node`` being the ``path`` query parameter (or ``id``)
without its leading slash, as ``LibraryClient`` sends it.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

__all__ = ["serve_library"]


@contextlib.contextmanager
def serve_library(answer: Callable[[str], Any]) -> Iterator[str]:
    """Serve ``answer`` until the block ends; yields the base URL (``.../books``)."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            query = parse_qs(urlsplit(self.path).query)
            node = (query.get("path") or query.get("id") or [""])[0].lstrip("/")
            data = json.dumps(answer(node), ensure_ascii=False).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/books"
    finally:
        server.shutdown()
        server.server_close()
