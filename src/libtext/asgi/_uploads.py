"""Request bodies of the HTTP adapter: the size limit and the PDF upload.

The limit is a pure ASGI middleware, so it works the same when the app is
mounted inside another one: a ``Content-Length`` over the limit is answered with
413 before a byte is read, and a body that streams past it (chunked, or a lying
header) stops the request at the chunk that crosses it. Multipart files are
spooled to disk by Starlette, so a 50 MB upload never sits in memory twice.
"""

from __future__ import annotations

import email.message
from typing import Any

import anyio
from pydantic import ValidationError
from starlette.datastructures import Headers, UploadFile
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from libtext.asgi._errors import BodyTimeout, BodyTooLarge, error_json
from libtext.asgi._strict import reject_unknown_fields
from libtext.errors import EmptyFileError, InvalidInputError, UnsupportedMediaError
from libtext.models import ProcessRequest

__all__ = [
    "MAX_JSON_BYTES",
    "MIN_BODY_RATE",
    "PDF_UPLOAD_BODY",
    "PROCESS_BODY",
    "RATE_GRACE",
    "BodyLimitMiddleware",
    "read_pdf_upload",
    "read_process_source",
    "require_json",
    "upload_filename",
]

# Part content types accepted for the PDF; browsers and curl send one of these.
_PDF_TYPES = {"application/pdf", "application/x-pdf", "application/octet-stream", ""}
_JSON_LIMIT = 1 * 2**20

_FILE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["file"],
    "properties": {
        "file": {"type": "string", "format": "binary", "description": "A PDF document."}
    },
}

_MULTIPART: dict[str, Any] = {
    "schema": _FILE_SCHEMA,
    "encoding": {"file": {"contentType": "application/pdf"}},
}

PDF_UPLOAD_BODY: dict[str, Any] = {
    "requestBody": {"required": True, "content": {"multipart/form-data": _MULTIPART}}
}
"""OpenAPI ``requestBody`` of the upload routes (parsed by hand, see below)."""

PROCESS_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "multipart/form-data": _MULTIPART,
            "application/json": {"schema": {"$ref": "#/components/schemas/ProcessRequest"}},
        },
    }
}
"""OpenAPI ``requestBody`` of ``POST /api/process``: a PDF or a library work id."""


MIN_BODY_RATE = 1024.0
"""Bytes per second a request body must average after :data:`RATE_GRACE` seconds."""
RATE_GRACE = 10.0
"""Seconds a body may take before its pace is checked (a slow link's first seconds)."""

MAX_JSON_BYTES = 16 * 2**20
"""Bytes of a JSON request body (a section edit, a segment to translate, a process
request): far above what any of them needs, far below the PDF upload limit, since a
JSON body is parsed and validated whole in memory."""


class BodyLimitMiddleware:
    """Reject request bodies over ``max_bytes`` while they stream (413), or stalling (408).

    ``body_timeout`` bounds the wait for each part of the body, and ``min_rate`` the
    pace of the whole: after ``rate_grace`` seconds a body must have sent ``min_rate``
    bytes for each second past the grace, or it gets 408 and its slot back. So a client
    that sends a byte every few seconds (under any per-part timeout) cannot hold a
    connection, and a concurrency slot, for as long as it likes.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_bytes: int,
        body_timeout: float = 30.0,
        min_rate: float | None = None,
        rate_grace: float | None = None,
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.body_timeout = body_timeout
        self.min_rate = MIN_BODY_RATE if min_rate is None else min_rate
        self.rate_grace = RATE_GRACE if rate_grace is None else rate_grace

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        limit = self.max_bytes
        if headers.get("content-type", "").lower().startswith("application/json"):
            limit = min(limit, MAX_JSON_BYTES)  # JSON is parsed whole: a lower bound
        declared = headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            # Answer before reading: the client may stop sending at once.
            response = error_json(
                413,
                "too_large",
                f"The request body ({declared} bytes) is larger than the limit of "
                f"{limit} bytes; send a smaller file.",
                {"max_bytes": limit},
                headers={"Connection": "close"},
            )
            await response(scope, receive, send)
            return
        seen = 0
        done = False
        started: float | None = None

        async def counting_receive() -> Message:
            nonlocal seen, done, started
            if done:  # after the body, receive() waits for a disconnect: no limit
                return await receive()
            now = anyio.current_time()
            if started is None:
                started = now
            # The wait ends at the part timeout, or when the bytes so far fall under
            # the minimum pace, whichever comes first.
            pace_deadline = started + self.rate_grace + seen / self.min_rate
            wait = max(0.0, min(self.body_timeout, pace_deadline - now))
            with anyio.move_on_after(wait) as timer:
                message = await receive()
            if timer.cancelled_caught:
                if wait < self.body_timeout:
                    raise BodyTimeout(self.body_timeout, min_rate=self.min_rate)
                raise BodyTimeout(self.body_timeout)
            if message["type"] == "http.request":
                done = not message.get("more_body", False)
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge(limit)
            return message

        await self.app(scope, counting_receive, send)


def _media_type(request: Request) -> str:
    raw = request.headers.get("content-type", "")
    message = email.message.Message()
    message["content-type"] = raw
    return message.get_content_type() if raw else ""


async def read_pdf_upload(request: Request) -> bytes:
    """The bytes of the multipart part ``file``, checked to be a PDF.

    Raises:
        UnsupportedMediaError: The body is not multipart, the part is declared as
            another type, or the bytes do not start like a PDF (415).
        InvalidInputError: No ``file`` part (400); EmptyFileError for zero bytes.
    """
    media = _media_type(request)
    if media != "multipart/form-data":
        raise UnsupportedMediaError(
            f"Send the PDF as multipart/form-data with a part named 'file' "
            f"(got {media or 'no content type'}).",
            details={"content_type": media},
        )
    async with request.form(max_files=1, max_fields=16) as form:
        # A misspelt or misplaced field (-F providers=...) is a 400, not ignored.
        reject_unknown_fields(request, form.keys(), ("file",))
        upload = form.get("file")
        if not isinstance(upload, UploadFile):
            raise InvalidInputError(
                "The form has no file part named 'file'; attach the PDF as file=@doc.pdf."
            )
        part_type = (upload.content_type or "").split(";")[0].strip().lower()
        if part_type not in _PDF_TYPES:
            raise UnsupportedMediaError(
                f"The uploaded file is declared as {part_type!r}; only PDF documents are read.",
                details={"content_type": part_type},
            )
        data = await upload.read()
        request.state.upload_filename = upload.filename
    if not data:
        raise EmptyFileError("The uploaded file is empty (0 bytes); attach a PDF document.")
    # PDF readers accept the header anywhere in the first KiB.
    if b"%PDF-" not in data[:1024]:
        raise UnsupportedMediaError(
            "The uploaded file is not a PDF document (no %PDF- header); only PDFs are read.",
            details={"filename": upload.filename or ""},
        )
    return data


async def require_json(request: Request) -> None:
    """415 unless the body is declared as JSON (FastAPI would answer 400)."""
    media = _media_type(request)
    if media != "application/json" and not media.endswith("+json"):
        raise UnsupportedMediaError(
            f"Send the body as application/json (got {media or 'no content type'}).",
            details={"content_type": media},
        )


async def read_process_source(request: Request) -> bytes | ProcessRequest:
    """A PDF upload, or a JSON :class:`~libtext.models.ProcessRequest`.

    Raises:
        UnsupportedMediaError: Neither multipart nor JSON (415).
        InvalidInputError: JSON that is not a valid ``ProcessRequest`` (400).
    """
    media = _media_type(request)
    if media == "multipart/form-data":
        return await read_pdf_upload(request)
    if media == "application/json" or media.endswith("+json"):
        body = await request.body()
        if len(body) > _JSON_LIMIT:
            raise InvalidInputError("The JSON body is too large for a process request.")
        try:
            return ProcessRequest.model_validate_json(body)
        except ValidationError as exc:
            errors = [
                {"loc": [str(p) for p in e["loc"]], "msg": e["msg"], "type": e["type"]}
                for e in exc.errors(include_url=False, include_input=False)
            ]
            raise InvalidInputError(
                'Invalid process request: send {"work_id": "..."} as JSON, or a PDF as '
                "multipart/form-data.",
                details={"errors": errors},
            ) from None
    raise UnsupportedMediaError(
        "Send a PDF as multipart/form-data (part 'file') or JSON naming a library work "
        f"(got {media or 'no content type'}).",
        details={"content_type": media},
    )


def upload_filename(request: Request) -> str | None:
    """The name the client gave the uploaded PDF (its last path part), if any.

    Kept by :func:`read_pdf_upload` for a queued job, which lists it and reads the PDF
    under it.
    """
    raw = getattr(request.state, "upload_filename", None)
    if not isinstance(raw, str):
        return None
    name = raw.replace("\\", "/").rsplit("/", 1)[-1]
    name = "".join(ch for ch in name if ch.isprintable() and not 0xD800 <= ord(ch) <= 0xDFFF)
    return name.strip()[:255] or None
