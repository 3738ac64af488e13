"""API keys at the edge: the key check, keys sent in the query string, the docs, the log.

* A key belongs in the ``Authorization`` header. One sent as ``?api_key=`` (or any
  query parameter named like a credential) would end up in proxies' and servers'
  access logs, so such a request is refused with 401 saying to use the header, and the
  parameter's value is redacted from the access log whatever the answer.
* With ``protect_get``, the documentation (``/docs``, ``/redoc``, ``/openapi.json``)
  needs the key like every other GET route but ``/api/health``.

Both are a pure ASGI middleware, so they hold for routes FastAPI adds itself.
"""

from __future__ import annotations

import hmac
import logging
import re
from collections.abc import Callable, Coroutine
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from libtext.asgi._errors import UnauthorizedError, error_json

__all__ = [
    "CREDENTIAL_PARAMS",
    "AuthGateMiddleware",
    "RedactCredentials",
    "install_log_redaction",
    "key_dependency",
    "redact_query",
]

CREDENTIAL_PARAMS = frozenset(
    {
        "api_key",
        "apikey",
        "api-key",
        "key",
        "access_token",
        "token",
        "auth",
        "authorization",
        "bearer",
        "password",
        "secret",
        "x-api-key",
    }
)
"""Query parameter names (lower case) treated as credentials."""

DOC_PATHS = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json"})

# A name stops at "?" too: a name could otherwise run over every "?" of a long query
# from each of them (quadratic), and "x?api_key=..." is redacted as the key it ends in.
_PARAM = re.compile(r"(?P<sep>^|[?&;])(?P<name>[^=&;#?]+)=(?P<value>[^&;#]*)")


def _is_credential(name: str) -> bool:
    return name.strip().lower().replace("%5f", "_") in CREDENTIAL_PARAMS


def redact_query(target: str) -> str:
    """``path?api_key=abc&page=2`` -> ``path?api_key=[redacted]&page=2``."""
    path, sep, query = target.partition("?")
    if not sep:
        return target

    def repl(m: re.Match[str]) -> str:
        if _is_credential(m.group("name")):
            return f"{m.group('sep')}{m.group('name')}=[redacted]"
        return m.group(0)

    return path + sep + _PARAM.sub(repl, query)


class RedactCredentials(logging.Filter):
    """Blank credential query parameters in uvicorn's access log lines."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str):
            record.args = (*args[:2], redact_query(args[2]), *args[3:])
        return True


def install_log_redaction() -> None:
    """Add :class:`RedactCredentials` to ``uvicorn.access`` once per process."""
    access = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, RedactCredentials) for f in access.filters):
        access.addFilter(RedactCredentials())


def _key_ok(header: str, expected: bytes) -> bool:
    scheme, _, given = header.partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), expected)


_USE_HEADER = "This server requires an API key: send 'Authorization: Bearer <key>'."


def key_dependency(api_key: str | None) -> Callable[[Request], Coroutine[Any, Any, None]]:
    """The FastAPI dependency that checks ``Authorization: Bearer <key>`` (constant time)."""
    expected = api_key.encode() if api_key else None

    async def require_key(request: Request) -> None:
        if expected is None:
            return
        if not _key_ok(request.headers.get("authorization", ""), expected):
            raise UnauthorizedError(_USE_HEADER)

    return require_key


def _route_path(scope: Scope) -> str:
    """The path inside this app (a mounted app's ``path`` may still hold its prefix)."""
    path: str = scope.get("path", "")
    root: str = scope.get("root_path", "")
    return path[len(root) :] if root and path.startswith(root) else path


class AuthGateMiddleware:
    """Refuse keys in the query string; guard the docs when ``protect_get`` is on."""

    def __init__(self, app: ASGIApp, *, api_key: str, protect_docs: bool) -> None:
        self.app = app
        self.expected = api_key.encode()
        self.protect_docs = protect_docs

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        query = scope.get("query_string", b"").decode("latin-1")
        names = [n for n, _ in parse_qsl(query, keep_blank_values=True)] if query else []
        sent = sorted({n for n in names if _is_credential(n)})
        if sent:
            response = error_json(
                401,
                "unauthorized",
                "API keys are not accepted in the query string (they end up in logs): "
                "send 'Authorization: Bearer <key>' instead, and consider this key exposed.",
                {"parameters": [n[:40] for n in sent[:5]]},
                headers={"WWW-Authenticate": "Bearer"},
            )
            await response(scope, receive, send)
            return
        if self.protect_docs and _route_path(scope) in DOC_PATHS:
            header = dict(scope.get("headers", [])).get(b"authorization", b"")
            if not _key_ok(header.decode("latin-1"), self.expected):
                response = error_json(
                    401, "unauthorized", _USE_HEADER, headers={"WWW-Authenticate": "Bearer"}
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
