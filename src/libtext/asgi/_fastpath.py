"""The hot read routes answered from the store's read cache, before FastAPI's router.

``GET /api/texts`` and ``GET /api/texts/{slug}`` are most of a reading client's
traffic, and on a cache hit the answer is ready bytes (``TextStore.cached_list_json``
/ ``cached_get_json``, microseconds on SQLite). FastAPI's parameter solving alone
then costs more than the rest of the request (benchmarks/http.py), so this
middleware answers such a hit itself, with the same status, headers and body as the
routes in ``libtext.asgi``. Anything else passes through untouched: a miss, a
parameter in any but the plainest form (``page=2&pageSize=20``; FastAPI decides the
rest), a bad slug, another method, a store not made yet. Routes, validation, errors,
timeouts and the OpenAPI document are those of the FastAPI app.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from starlette.types import ASGIApp, Receive, Scope, Send

from libtext.errors import LibtextError

if TYPE_CHECKING:  # pragma: no cover
    from libtext.asgi._backend import Backend

__all__ = ["CachedReadsMiddleware"]

_PREFIX = "/api/texts"
_NUMBER = re.compile(rb"[1-9][0-9]{0,8}")


def _route_path(scope: Scope) -> str:
    """The path inside this app, as Starlette's router sees it when mounted."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    if root and path.startswith(root) and path[len(root) : len(root) + 1] == "/":
        return path[len(root) :]
    return path


class CachedReadsMiddleware:
    """Answer cache hits of the two text read routes without the router.

    Args:
        app: The rest of the app.
        backend: Whose store (once made) holds the cache.
        max_page: Largest ``page`` the list route accepts.
    """

    def __init__(self, app: ASGIApp, *, backend: Backend, max_page: int) -> None:
        self.app = app
        self.backend = backend
        self.max_page = max_page

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET":
            hit = self._hit(scope)
            if hit is not None:
                body, etag = hit
                headers = [
                    (b"content-length", str(len(body)).encode()),
                    (b"content-type", b"application/json"),
                ]
                if etag:
                    headers.append((b"etag", etag.encode()))
                await send({"type": "http.response.start", "status": 200, "headers": headers})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)

    def _hit(self, scope: Scope) -> tuple[bytes, str] | None:
        store = self.backend.store_if_made()
        if store is None:
            return None
        path = _route_path(scope)
        if not path.startswith(_PREFIX):
            return None
        try:
            if path == _PREFIX:
                params = self._page_params(scope.get("query_string", b""))
                listed = None if params is None else store.cached_list_json(*params)
                return None if listed is None else (listed, "")
            slug = path[len(_PREFIX) + 1 :]
            if path[len(_PREFIX)] != "/" or not slug or "/" in slug:
                return None
            if scope.get("query_string"):
                return None  # ?revision=n and the like: the route decides
            return store.cached_get_tagged_json(slug)
        except LibtextError:
            return None  # the route answers it, with its error

    def _page_params(self, query: bytes) -> tuple[int, int] | None:
        settings = self.backend.settings
        values = {b"page": 1, b"pageSize": settings.default_page_size}
        seen: set[bytes] = set()
        for pair in query.split(b"&") if query else ():
            key, eq, raw = pair.partition(b"=")
            if not eq or key not in values or key in seen or not _NUMBER.fullmatch(raw):
                return None
            seen.add(key)
            values[key] = int(raw)
        page, page_size = values[b"page"], values[b"pageSize"]
        if page > self.max_page or page_size > settings.max_page_size:
            return None
        return page, page_size
