"""uvicorn's h11 protocol with a deadline for a request's headers.

uvicorn closes an idle keep-alive connection only after a first response: a client
that connects and sends nothing, or one header byte now and then, holds its socket
(and a ``limit_concurrency`` slot) for ever; thousands of them shut everyone else
out. Here each connection must deliver a request's complete headers within
``LIBTEXT_HEADER_TIMEOUT`` seconds (default 10) of connecting or of its previous
response, or it is closed. Slow bodies are bounded by the app
(``Settings.body_timeout`` and a minimum pace, 408). ``GET /api/health`` has
:data:`HEALTH_SLOTS` connections of its own past ``limit_concurrency``, so it answers
while slow clients hold every other slot.

uvicorn counts open connections against ``limit_concurrency``, idle ones too: a few
hundred keep-alive sockets that sent nothing since their last response (or nothing
at all) would turn every new request away with 503. So when a request begins and
the connections are at the limit, idle ones are closed to make room: first those
that never sent a request (an idle-socket flood), then keep-alive connections, the
longest idle first. Then, if still at the limit, requests whose body has been
arriving for over :data:`SLOW_BODY_AFTER` seconds at under the minimum pace
(``libtext.asgi._uploads.MIN_BODY_RATE``), the slowest first: a flood of dripping
bodies would otherwise hold every slot for the pace check's grace period, again and
again. Other requests in progress are never cut.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from libtext.asgi._uploads import MIN_BODY_RATE

__all__ = [
    "DEFAULT_HEADER_TIMEOUT",
    "HEALTH_SLOTS",
    "SLOW_BODY_AFTER",
    "HeaderTimeoutH11Protocol",
    "is_health_request",
]

DEFAULT_HEADER_TIMEOUT = 10.0
HEALTH_SLOTS = 16
"""Connections past ``limit_concurrency`` kept for ``GET /api/health`` (a reserved slot)."""
SLOW_BODY_AFTER = 2.0
"""Seconds a request body is given before its pace counts when slots run out."""


def is_health_request(data: bytes) -> bool:
    """Whether ``data`` starts a ``GET``/``HEAD`` of ``.../api/health`` (a mount's too)."""
    line = data.split(b"\r\n", 1)[0]
    parts = line.split(b" ")
    if len(parts) != 3 or parts[0] not in (b"GET", b"HEAD"):
        return False
    return parts[1].split(b"?", 1)[0].endswith(b"/api/health")


class HeaderTimeoutH11Protocol(H11Protocol):
    """``H11Protocol`` that closes connections whose request headers do not arrive in time."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        raw = os.environ.get("LIBTEXT_HEADER_TIMEOUT", "")
        self.header_timeout = float(raw) if raw else DEFAULT_HEADER_TIMEOUT
        self._header_timer: asyncio.TimerHandle | None = None
        self._idle_since: float | None = None  # waiting for a request, since when
        self._served = False  # a response was sent on this connection
        self._body_since: float | None = None  # a request body is arriving, since when
        self._body_bytes = 0

    def _arm(self) -> None:
        self._disarm()
        self._idle_since = self.loop.time()
        self._header_timer = self.loop.call_later(self.header_timeout, self._headers_late)

    def _idle(self) -> bool:
        """No request in progress and not a byte of the next one received."""
        return (
            self._idle_since is not None
            and self._waiting_for_headers()
            and self.conn.their_state is h11.IDLE
            and not self.conn.trailing_data[0]
            and not self.transport.is_closing()
        )

    def _body_rate(self, now: float) -> float | None:
        """Bytes per second of the body arriving on this connection, once it has had
        :data:`SLOW_BODY_AFTER` seconds; ``None`` when no body is arriving."""
        if (
            self._body_since is None
            or self._waiting_for_headers()
            or self.conn.their_state is not h11.SEND_BODY
            or self.transport.is_closing()
        ):
            return None
        elapsed = now - self._body_since
        return self._body_bytes / elapsed if elapsed >= SLOW_BODY_AFTER else None

    def _make_room(self) -> int:
        """Close connections until this one's request fits under ``limit_concurrency``
        (uvicorn counts every open connection): idle ones first (never used, then the
        longest idle keep-alive), then requests whose body drips under the minimum
        pace, the slowest first. Returns how many requests in progress were cut."""
        assert self.limit_concurrency is not None
        excess = len(self.connections) - self.limit_concurrency + 1
        if excess <= 0:
            return 0
        others = [
            c for c in self.connections if c is not self and isinstance(c, HeaderTimeoutH11Protocol)
        ]
        idle = sorted(
            (c for c in others if c._idle()), key=lambda c: (c._served, c._idle_since or 0.0)
        )
        for conn in idle[:excess]:
            conn._give_up_slot()
        excess -= len(idle[:excess])
        if excess <= 0:
            return 0
        now = self.loop.time()
        rates = ((c._body_rate(now), c) for c in others)
        slow = sorted(
            ((rate, c) for rate, c in rates if rate is not None and rate < MIN_BODY_RATE),
            key=lambda item: item[0],
        )
        for _, conn in slow[:excess]:
            conn._give_up_slot()
        return len(slow[:excess])

    def _give_up_slot(self) -> None:
        self._disarm()
        self.transport.close()
        # Counted out now: the slot is free for the request that asked for it.
        self.connections.discard(self)

    def _disarm(self) -> None:
        self._idle_since = None
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _waiting_for_headers(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _headers_late(self) -> None:
        self._header_timer = None
        if self._waiting_for_headers() and not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self.limit_concurrency is None or not self._waiting_for_headers():
            super().data_received(data)
        else:
            # The requests cut for this one end at once (their body's receive() says
            # disconnected), but their tasks still count for uvicorn until then.
            extra = self._make_room()
            if is_health_request(data):
                # Health has slots of its own: with every request slot held (slow
                # clients, a flood), a load balancer still hears "degraded" instead
                # of a plain 503.
                extra += HEALTH_SLOTS
            limit = self.limit_concurrency
            self.limit_concurrency = limit + extra
            try:
                super().data_received(data)
            finally:
                self.limit_concurrency = limit
        if not self._waiting_for_headers():
            self._disarm()  # a request is in progress: the app's limits take over
            if self._body_since is None:
                self._body_since, self._body_bytes = self.loop.time(), 0
            else:
                self._body_bytes += len(data)

    def on_response_complete(self) -> None:
        self._served = True
        self._body_since = None
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)
