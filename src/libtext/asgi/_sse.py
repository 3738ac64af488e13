"""The pieces of the jobs routes that are plain HTTP: ``Prefer``, ``Last-Event-ID``, SSE.

Pure functions, no FastAPI: ``libtext.asgi._jobs`` uses them, the tests call them.

* ``Prefer: respond-async`` (RFC 7240 section 4.1) asks for ``202 Accepted`` instead of
  waiting; a header may hold several preferences (``respond-async, wait=5``), each
  with parameters after ``;``, and may be sent more than once.
* Server-Sent Events (the HTML standard's ``text/event-stream``): each event is
  ``id:``, ``event:`` and one ``data:`` line of JSON, ended by a blank line. A client
  that reconnects sends the last ``id`` it saw as ``Last-Event-ID``.
"""

from __future__ import annotations

from collections.abc import Iterable

from libtext.errors import InvalidInputError

__all__ = [
    "HEARTBEAT",
    "RETRY_MS",
    "comment",
    "event_frame",
    "last_event_id",
    "prefers_async",
    "retry_frame",
]

RETRY_MS = 2000
"""Milliseconds a browser's ``EventSource`` waits before it reconnects (sent once)."""

HEARTBEAT = 15.0
"""Seconds between comment lines on a quiet stream, so proxies keep it open."""

_MAX_EVENT_ID = 2**53


def prefers_async(values: Iterable[str]) -> bool:
    """Whether ``Prefer`` header values include the ``respond-async`` preference.

    Tokens compare case-insensitively; a preference's parameters (``;...``) and
    value (``=...``) are ignored, and unknown preferences are ignored (RFC 7240).
    """
    for value in values:
        for preference in value.split(","):
            token = preference.split(";", 1)[0].split("=", 1)[0].strip().lower()
            if token == "respond-async":
                return True
    return False


def last_event_id(header: str | None) -> int:
    """The event id a reconnecting client saw last; ``0`` when it sent none.

    Raises:
        InvalidInputError: Not a non-negative integer (this server's ids are).
    """
    if header is None or not header.strip():
        return 0
    text = header.strip()
    if not text.isascii() or not text.isdigit() or len(text) > 16 or int(text) > _MAX_EVENT_ID:
        raise InvalidInputError(
            "Last-Event-ID must be the id of an event of this job (a whole number); "
            "reconnect with the last 'id:' the stream sent, or without the header to "
            "read the events from the start.",
            details={"header": "Last-Event-ID"},
        )
    return int(text)


def event_frame(event_id: int, event_type: str, data: str) -> bytes:
    """One SSE event. ``data`` is one line of JSON (JSON never holds a raw newline)."""
    if "\n" in data or "\r" in data:  # pragma: no cover - guarded by the JSON encoder
        raise ValueError("SSE data must be one line")
    return f"id: {event_id}\nevent: {event_type}\ndata: {data}\n\n".encode()


def retry_frame(milliseconds: int = RETRY_MS) -> bytes:
    """The reconnection delay for ``EventSource`` clients."""
    return f"retry: {milliseconds}\n\n".encode()


def comment(text: str = "") -> bytes:
    """A comment line: ignored by clients, keeps idle connections alive."""
    return f": {text}\n\n".encode()
