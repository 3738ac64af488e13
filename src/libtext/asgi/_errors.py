"""The one place where errors become HTTP responses.

Every error body is an :class:`~libtext.models.ErrorResponse`. The status comes
from the first class in :data:`STATUS_MAP` the exception is an instance of, so a
new subclass in ``libtext.errors`` inherits its parent's status. Anything that is
not a :class:`~libtext.errors.LibtextError` is a bug: 500 with a fixed message,
the traceback goes to the ``libtext.asgi`` logger only.
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect
from starlette.responses import Response

from libtext._wording import for_http
from libtext.asgi._streams import TooManyStreamsError
from libtext.errors import (
    ConfigurationError,
    ConflictError,
    ExtractionTimeoutError,
    InputTooLargeError,
    InvalidInputError,
    LibraryTimeoutError,
    LibtextError,
    NotFoundError,
    PartialTranslationError,
    ProviderTimeoutError,
    QueueFullError,
    RateLimitError,
    StoreError,
    TooManyPagesError,
    UnsupportedMediaError,
    UpstreamError,
)
from libtext.hebrew import NOT_TEXT
from libtext.models import ErrorDetail, ErrorResponse

__all__ = [
    "STATUS_MAP",
    "BodyTimeout",
    "BodyTooLarge",
    "NoWorkersError",
    "NotAcceptableError",
    "PreconditionRequiredError",
    "RequestTimeoutError",
    "UnauthorizedError",
    "error_json",
    "install_error_handlers",
    "status_for",
]

logger = logging.getLogger("libtext.asgi")


class UnauthorizedError(LibtextError):
    """The request lacks the API key the server is configured with."""

    code = "unauthorized"


class PreconditionRequiredError(InvalidInputError):
    """A write that must name the revision it is based on (``If-Match``) did not."""

    code = "precondition_required"


class NotAcceptableError(InvalidInputError):
    """No media type the request accepts can be served (``GET /api/texts/{slug}``)."""

    code = "not_acceptable"


class NoWorkersError(ConfigurationError):
    """A job would be queued, but no worker runs this app's jobs (503): its lifespan never
    ran (mounted without ``libtext.asgi.lifespan``) or already stopped."""

    code = "no_workers"


class RequestTimeoutError(LibtextError):
    """The library call behind a route passed the configured timeout."""

    code = "timeout"


class BodyTooLarge(StarletteHTTPException):
    """Raised from ``receive`` while the body streams past the limit.

    An ``HTTPException`` on purpose: FastAPI turns other errors raised while it
    reads a body into a generic 400, but lets this one through.
    """

    def __init__(self, limit: int) -> None:
        super().__init__(status_code=413, detail="too large")
        self.error = InputTooLargeError(
            f"The request body is larger than the limit of {limit} bytes; send a smaller file.",
            details={"max_bytes": limit},
        )


class BodyTimeout(StarletteHTTPException):
    """Raised from ``receive`` when the next part of the body takes too long (408)."""

    def __init__(self, seconds: float, *, min_rate: float | None = None) -> None:
        super().__init__(status_code=408, detail="body timeout")
        self.seconds = seconds
        self.min_rate = min_rate
        """Set when the body fell under the minimum pace (bytes/s) rather than stalled."""


# Most specific first: the first match wins.
STATUS_MAP: tuple[tuple[type[LibtextError], int], ...] = (
    (UnauthorizedError, 401),
    (PreconditionRequiredError, 428),
    (UnsupportedMediaError, 415),
    (NotAcceptableError, 406),
    (InputTooLargeError, 413),
    (TooManyPagesError, 413),
    (InvalidInputError, 400),
    (NotFoundError, 404),
    (ConflictError, 412),  # only If-Match names a revision over HTTP: a failed precondition
    # Some sections untranslated: the same request with save_partial stores it.
    (PartialTranslationError, 409),
    (RateLimitError, 429),
    (TooManyStreamsError, 429),
    (ProviderTimeoutError, 504),
    (LibraryTimeoutError, 504),
    (RequestTimeoutError, 504),
    (ExtractionTimeoutError, 504),
    (UpstreamError, 502),
    (StoreError, 503),
    (QueueFullError, 503),
    (ConfigurationError, 503),
    (LibtextError, 500),
)
"""``LibtextError`` subclass -> HTTP status."""


def status_for(exc: LibtextError) -> int:
    """The HTTP status of a libtext error."""
    for cls, status in STATUS_MAP:
        if isinstance(exc, cls):
            return status
    return 500  # pragma: no cover - LibtextError is the last entry


def _json_safe(value: Any) -> Any:
    """Details as plain JSON; anything exotic becomes its ``str``, and a client's own
    invalid Unicode (a non-character in an unknown parameter's name) is echoed escaped."""
    if isinstance(value, str):
        return NOT_TEXT.sub(lambda m: f"\\u{ord(m.group()):04x}", value)
    if value is None or isinstance(value, int | float | bool):
        return value
    if isinstance(value, dict):
        return {_json_safe(str(k)): _json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_json_safe(v) for v in value]
    return str(value)


def error_json(
    status: int,
    code: str,
    message: str,
    details: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    """An ``ErrorResponse`` JSON response."""
    safe = _json_safe(details or {})
    body = ErrorResponse(error=ErrorDetail(code=code, message=message, details=safe))
    return JSONResponse(body.model_dump(mode="json"), status_code=status, headers=headers)


def _libtext_response(exc: LibtextError) -> JSONResponse:
    status = status_for(exc)
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    if isinstance(exc, QueueFullError | TooManyStreamsError):
        headers = {"Retry-After": str(max(1, round(exc.retry_after)))}
    if status == 500:
        logger.error("libtext error without an HTTP mapping: %r", exc)
    return error_json(status, exc.code, for_http(exc.message), exc.details, headers)


async def _on_libtext_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, LibtextError)
    return _libtext_response(exc)


async def _on_validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = [
        {
            "loc": [str(part) for part in err.get("loc", ())],
            "msg": str(err.get("msg", "")),
            "type": str(err.get("type", "")),
        }
        for err in exc.errors()
    ]
    first = errors[0] if errors else {"loc": [], "msg": "invalid request"}
    where = ".".join(first["loc"]) if first["loc"] else "request"
    message = f"Invalid request: {where}: {first['msg']}. See /docs for the expected shape."
    return error_json(400, "invalid_request", message, {"errors": errors})


async def _on_http_exception(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    if isinstance(exc, BodyTooLarge):
        # The rest of the body is not read: the connection ends with the answer (a
        # client streaming 2 GB must not keep the server reading it).
        response = _libtext_response(exc.error)
        response.headers["Connection"] = "close"
        return response
    if isinstance(exc, BodyTimeout):
        if exc.min_rate is not None:
            message = (
                f"The request body arrived slower than {exc.min_rate:g} bytes/s; send it at once."
            )
        else:
            message = f"The request body stalled for more than {exc.seconds:g} s; send it at once."
        return error_json(
            408,
            "body_timeout",
            message,
            {"timeout_s": exc.seconds}
            | ({} if exc.min_rate is None else {"min_rate": exc.min_rate}),
            headers={"Connection": "close"},
        )
    headers = dict(exc.headers or {})
    status = exc.status_code
    if status == 404:
        return error_json(
            404,
            "not_found",
            f"No route {request.method} {request.url.path}; see /docs for the routes.",
            headers=headers,
        )
    if status == 405:
        return error_json(
            405,
            "method_not_allowed",
            f"{request.method} is not allowed on {request.url.path}.",
            headers=headers,
        )
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = "HTTP error"
    code = "invalid_request" if status == 400 else phrase.lower().replace(" ", "_")
    message = exc.detail if isinstance(exc.detail, str) else phrase
    return error_json(status, code, message, headers=headers)


async def _on_unexpected(request: Request, exc: Exception) -> JSONResponse:
    logger.exception("unhandled error in %s %s", request.method, request.url.path)
    return error_json(
        500,
        "internal_error",
        "An unexpected error occurred in the server; it has been logged. Retry later or "
        "report it to the operator.",
    )


async def _on_client_disconnect(request: Request, exc: Exception) -> Response:
    """A client gone while its body streamed: one INFO line, no traceback, no answer."""
    logger.info(
        "client disconnected while sending the body of %s %s; request dropped",
        request.method,
        request.url.path,
    )
    return Response(status_code=400)  # nobody reads it: the connection is gone


def install_error_handlers(app: FastAPI) -> None:
    """Route every error of ``app`` to an ``ErrorResponse``."""
    app.add_exception_handler(ClientDisconnect, _on_client_disconnect)
    app.add_exception_handler(LibtextError, _on_libtext_error)
    app.add_exception_handler(RequestValidationError, _on_validation_error)
    app.add_exception_handler(StarletteHTTPException, _on_http_exception)
    app.add_exception_handler(Exception, _on_unexpected)
