"""Large JSON bodies parsed in a worker thread, not on the event loop.

FastAPI parses a JSON body with ``json.loads`` on the event loop: a body of tens of
megabytes stalls every other request (health included) for seconds. Routes made with
:class:`OffLoopJSONRoute` parse a JSON body above :data:`INLINE_JSON_BYTES` in a
thread first and hand FastAPI the result (Starlette's ``Request.json()`` returns what
it already has); a small body is parsed inline, cheaper than the hop to a thread.
JSON bodies are also limited in size (``libtext.asgi._uploads.MAX_JSON_BYTES``).
"""

from __future__ import annotations

import email.message
import json
from collections.abc import Callable, Coroutine
from typing import Any

import anyio.to_thread
from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response

__all__ = ["INLINE_JSON_BYTES", "OffLoopJSONRoute"]

INLINE_JSON_BYTES = 256 * 1024
"""JSON bodies up to this size are parsed on the loop (well under a millisecond)."""


def _is_json(request: Request) -> bool:
    raw = request.headers.get("content-type")
    if not raw:
        return False
    message = email.message.Message()
    message["content-type"] = raw
    subtype = message.get_content_subtype()
    return message.get_content_maintype() == "application" and (
        subtype == "json" or subtype.endswith("+json")
    )


class OffLoopJSONRoute(APIRoute):
    """An ``APIRoute`` whose large JSON bodies are parsed in a worker thread."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def route(request: Request) -> Response:
            if request.method in ("POST", "PUT", "PATCH") and _is_json(request):
                body = await request.body()
                if len(body) > INLINE_JSON_BYTES:
                    try:
                        parsed = await anyio.to_thread.run_sync(json.loads, body)
                    except ValueError:
                        pass  # FastAPI parses it again and answers its 400
                    else:
                        request._json = parsed
            return await handler(request)

        return route
