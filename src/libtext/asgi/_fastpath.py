"""Cache hits of the cached read routes, answered before FastAPI's router.

On a hit the answer is ready bytes (``libtext.asgi._cache``, microseconds on
SQLite), and FastAPI's parameter solving alone would then cost more than the rest
of the request (benchmarks/http.py). So this middleware answers such a hit itself,
with the same status, headers and body as the route. It reads the routes' paths
and parameters from their one table (``libtext.asgi._routes``) and takes only the
plainest requests: a ``GET`` whose every query pair is a known parameter, once, as
a plain number within bounds. Anything else passes through untouched (a miss, an
unusual query, another method, a store not made yet): routes, validation, errors,
timeouts and the OpenAPI document are those of the FastAPI app.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.types import ASGIApp, Receive, Scope, Send

if TYPE_CHECKING:  # pragma: no cover
    from libtext.asgi._cache import CachedBody, CachedReads
    from libtext.asgi._routes import CachedRoute

__all__ = ["CachedReadsMiddleware"]


def _route_path(scope: Scope) -> str:
    """The path inside this app, as Starlette's router sees it when mounted."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    if root and path.startswith(root) and path[len(root) : len(root) + 1] == "/":
        return path[len(root) :]
    return path


def _json_accepted(scope: Scope) -> bool:
    from libtext.asgi._negotiate import wants_json

    values = [v for k, v in scope.get("headers", ()) if k == b"accept"]
    if not values:
        return True
    return wants_json(b",".join(values).decode("latin-1"))


class CachedReadsMiddleware:
    """Answer cache hits of the routes in ``routes`` without the router.

    Args:
        app: The rest of the app.
        routes: The cached read routes (``libtext.asgi._routes.cached_routes``).
        reads: Their cache, shared with the routes.
    """

    def __init__(
        self, app: ASGIApp, *, routes: tuple[CachedRoute, ...], reads: CachedReads
    ) -> None:
        self.app = app
        self.routes = routes
        self.reads = reads

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET":
            found = self._hit(scope)
            if found is not None:
                hit, vary = found
                headers = [
                    (b"content-length", str(len(hit.body)).encode()),
                    (b"content-type", b"application/json"),
                ]
                if hit.etag:
                    headers.append((b"etag", hit.etag.encode()))
                if vary:
                    headers.append((b"vary", b"Accept"))
                await send({"type": "http.response.start", "status": 200, "headers": headers})
                await send({"type": "http.response.body", "body": hit.body})
                return
        await self.app(scope, receive, send)

    def _hit(self, scope: Scope) -> tuple[CachedBody, bool] | None:
        """The cached answer and whether it varies by ``Accept``."""
        path = _route_path(scope)
        for route in self.routes:
            args = route.match(path)
            if args is None:
                continue
            if route.negotiate and not _json_accepted(scope):
                return None  # a published file, or a 406: the route's to answer
            query = route.parse_query(scope.get("query_string", b""))
            hit = None if query is None else self.reads.hit(route, {**args, **query})
            return None if hit is None else (hit, route.negotiate)
        return None
