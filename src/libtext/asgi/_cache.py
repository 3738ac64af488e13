"""The HTTP adapter's read cache: response bytes of the cached read routes.

``GET /api/texts`` and ``GET /api/texts/{slug}`` are most of a reading client's
traffic. Their answers are kept here as the bytes sent (and the ``ETag``), each
with the store's :meth:`~libtext.TextStore.data_version` read *before* the answer
was, and served only while that version is unchanged: no reader sees a text older
than the last write committed before its request, through this app, another
process or SQL by hand. On SQLite the version costs a few microseconds without a
query, so a hit is answered on the event loop, without a worker thread, a timeout
scope or, from the fast path (``libtext.asgi._fastpath``), the router; on
PostgreSQL it is one primary-key read in a worker thread, which still saves the
query, the validation and the serialization of the answer.

:class:`CachedReads` is the one place that looks the cache up: the fast path and
the routes (``libtext.asgi._routes``) both call it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar

import anyio

if TYPE_CHECKING:  # pragma: no cover
    from libtext.store import TextStore

__all__ = ["STORE_THREADS", "CachedBody", "CachedReads", "ResponseCache"]

STORE_THREADS = 2
"""Store reads in worker threads at once. Reads of a small page are mostly Python
work under the GIL: under load (benchmarks/http.py) two threads serve SQLite more
requests per second than four, and more than that only queue on the GIL and on
SQLAlchemy's pool of five connections, whose overflow is reopened per request."""


T = TypeVar("T")


class _Route(Protocol):
    """A cached read route as this cache uses it (``libtext.asgi._routes.CachedRoute``;
    a protocol, so that this module, below the routes and the backend, imports neither)."""

    def key(self, args: dict[str, Any]) -> Hashable: ...

    @property
    def read(self) -> Callable[[TextStore, dict[str, Any]], CachedBody]: ...


class _Settings(Protocol):
    @property
    def request_timeout(self) -> float: ...


class _Owner(Protocol):
    """The backend whose store is read (``libtext.asgi._backend.Backend``)."""

    @property
    def settings(self) -> _Settings: ...

    def store_if_made(self) -> TextStore | None: ...

    async def store(self) -> TextStore: ...

    async def within(self, timeout: float, fn: Callable[[], Awaitable[T]]) -> T: ...


class CachedBody(NamedTuple):
    """A response body and its ``ETag`` (empty where there is none)."""

    body: bytes
    etag: str = ""


class ResponseCache:
    """A thread-safe LRU of ``key -> (version, CachedBody)``, bounded by total bytes.

    An answer larger than an eighth of the budget is not kept: one huge document
    would otherwise evict every list page.
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[Hashable, tuple[Hashable, CachedBody]] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def size(self) -> int:
        """Bytes held now."""
        return self._size

    def get(self, key: Hashable, version: Hashable) -> CachedBody | None:
        """The answer kept for ``key`` at ``version``, or ``None``."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry[0] != version:
                return None
            self._entries.move_to_end(key)
            return entry[1]

    def put(self, key: Hashable, version: Hashable, value: CachedBody) -> None:
        """Keep ``value`` for ``key`` at ``version``, evicting the least recently used."""
        if len(value.body) * 8 > self.max_bytes:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._size -= len(old[1].body)
            self._entries[key] = (version, value)
            self._size += len(value.body)
            while self._size > self.max_bytes:
                _, (_, dropped) = self._entries.popitem(last=False)
                self._size -= len(dropped.body)


class CachedReads:
    """The cached read routes' answers: from the cache, else read in a worker thread.

    Args:
        backend: Whose store (made on first use) is read, within its timeouts.
        max_bytes: The cache's budget (``Settings.cache_bytes``); 0 keeps nothing.
    """

    def __init__(self, backend: _Owner, max_bytes: int) -> None:
        self.backend = backend
        self.cache = ResponseCache(max_bytes) if max_bytes else None
        self._threads = anyio.CapacityLimiter(STORE_THREADS)

    def hit(self, route: _Route, args: dict[str, Any]) -> CachedBody | None:
        """The kept answer, if it is known to be current without I/O; else ``None``.

        Safe on the event loop: only a store already made, and only where its data
        version needs no query (SQLite), is asked.
        """
        store = self.backend.store_if_made()
        if self.cache is None or store is None:
            return None
        version = store.data_version(wait=False)
        return None if version is None else self.cache.get(route.key(args), version)

    async def serve(self, route: _Route, args: dict[str, Any]) -> CachedBody:
        """The answer: a hit at once, else a read within ``Settings.request_timeout``.

        A read runs in one of ``STORE_THREADS`` worker threads; a timeout leaves it
        to finish in the background (it has no effects to wait for).
        """
        if (found := self.hit(route, args)) is not None:
            return found

        async def read() -> CachedBody:
            store = await self.backend.store()
            call = partial(self._read, store, route, args)
            return await anyio.to_thread.run_sync(
                call, abandon_on_cancel=True, limiter=self._threads
            )

        return await self.backend.within(self.backend.settings.request_timeout, read)

    def _read(self, store: TextStore, route: _Route, args: dict[str, Any]) -> CachedBody:
        """In a worker thread: the version first, so what is kept is never older than it."""
        if self.cache is None:
            return route.read(store, args)
        version = store.data_version()
        key = route.key(args)
        if version is not None and (found := self.cache.get(key, version)) is not None:
            return found
        value = route.read(store, args)
        if version is not None:
            self.cache.put(key, version, value)
        return value
