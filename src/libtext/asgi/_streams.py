"""A bounded pool of event streams, with a cap per client.

An event stream holds its connection for as long as the job runs: 511 streams opened
by one client used to hold every slot of the server. Streams now take a slot of
:class:`StreamSlots` (``MAX_STREAMS`` in all, ``MAX_STREAMS_PER_CLIENT`` per client
address); past either, the route answers 429 ``too_many_streams`` with
``Retry-After``, and the slot is given back when the stream ends, however it ends.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from libtext.errors import LibtextError

__all__ = [
    "MAX_STREAMS",
    "MAX_STREAMS_PER_CLIENT",
    "STREAM_RETRY_AFTER",
    "StreamSlots",
    "TooManyStreamsError",
]

MAX_STREAMS = 256
"""Event streams open at once in one server process."""
MAX_STREAMS_PER_CLIENT = 8
"""Event streams one client address may hold at once (a browser needs one per job)."""
STREAM_RETRY_AFTER = 5
"""Seconds a refused client is told to wait before it opens a stream again."""


class TooManyStreamsError(LibtextError):
    """No event stream slot for this client now (429 with ``Retry-After``)."""

    code = "too_many_streams"

    def __init__(self, message: str, *, details: dict[str, object] | None = None) -> None:
        super().__init__(message, details=dict(details or {}))
        self.retry_after = float(STREAM_RETRY_AFTER)
        self.details.setdefault("retry_after", STREAM_RETRY_AFTER)


class StreamSlots:
    """Counts of open streams, in all and per client (one event loop: no lock needed)."""

    def __init__(self, total: int = MAX_STREAMS, per_client: int = MAX_STREAMS_PER_CLIENT) -> None:
        self.total = total
        self.per_client = per_client
        self.open = 0
        self._by_client: Counter[str] = Counter()

    def take(self, client: str) -> Callable[[], None]:
        """A slot for ``client``, as the function that gives it back (call it once).

        Raises:
            TooManyStreamsError: The pool, or this client's share of it, is full.
        """
        if self._by_client[client] >= self.per_client:
            raise TooManyStreamsError(
                f"This client already has {self._by_client[client]} event streams open, the "
                f"most one client may; close one, or poll GET /api/jobs/{{id}} instead.",
                details={"limit": "max_streams_per_client", "max": self.per_client},
            )
        if self.open >= self.total:
            raise TooManyStreamsError(
                f"The server has {self.open} event streams open, its limit; retry shortly, "
                "or poll GET /api/jobs/{id} instead.",
                details={"limit": "max_streams", "max": self.total},
            )
        self.open += 1
        self._by_client[client] += 1
        released = False

        def release() -> None:
            nonlocal released
            if released:
                return
            released = True
            self.open -= 1
            self._by_client[client] -= 1
            if not self._by_client[client]:
                del self._by_client[client]

        return release
