"""The read cache of :class:`~libtext.TextStore`: serialized answers, checked per read.

An entry is the JSON of a ``list``/``get`` answer kept with the store *revision* it
was read at; a read returns it only while the revision is unchanged, so a reader
never sees a text older than the last write committed before the read began, by
this process or any other. The revision is read before the database is: an answer
is always at least as new as the revision it is kept under.

How the revision is read, by database:

SQLite file
    ``PRAGMA data_version`` on a connection of the cache's own, which changes when
    any other connection commits (other processes and this store's pooled
    connections alike), plus this process's write counter. About 5 us and never
    blocks on a writer (WAL), so it runs on the event loop.
SQLite in memory (``sqlite://``)
    Only this store can reach it: the write counter alone.
Others (PostgreSQL)
    The ``revision`` row of ``libtext_meta``, bumped in the same transaction as every
    save, update and delete: one primary-key read, which is network I/O and so runs
    in the worker thread with the rest of the read.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any, Final, NamedTuple

__all__ = ["DEFAULT_CACHE_BYTES", "LocalRevision", "ReadCache", "TaggedJSON"]

DEFAULT_CACHE_BYTES: Final = 16 * 2**20
"""Bytes of serialized answers a store keeps by default (``TextStore(cache_bytes=...)``)."""


class TaggedJSON(NamedTuple):
    """A serialized answer and its HTTP ``ETag`` (empty where there is none)."""

    body: bytes
    etag: str = ""


class ReadCache:
    """A thread-safe LRU of ``key -> (revision, TaggedJSON)``, bounded by total bytes.

    An answer larger than an eighth of the budget is not kept: one huge document
    would otherwise evict every list page.
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[Hashable, tuple[Hashable, TaggedJSON]] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def size(self) -> int:
        """Bytes held now."""
        return self._size

    def get(self, key: Hashable, revision: Hashable) -> TaggedJSON | None:
        """The answer kept for ``key`` at ``revision``, or ``None``."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry[0] != revision:
                return None
            self._entries.move_to_end(key)
            return entry[1]

    def put(self, key: Hashable, revision: Hashable, value: TaggedJSON) -> None:
        """Keep ``value`` for ``key`` at ``revision``, evicting the least recently used."""
        if len(value.body) * 8 > self.max_bytes:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._size -= len(old[1].body)
            self._entries[key] = (revision, value)
            self._size += len(value.body)
            while self._size > self.max_bytes:
                _, (_, dropped) = self._entries.popitem(last=False)
                self._size -= len(dropped.body)

    def clear(self) -> None:
        """Drop every entry."""
        with self._lock:
            self._entries.clear()
            self._size = 0


class LocalRevision:
    """The revision of a SQLite database, read without a query through the engine.

    Args:
        path: The database file, or ``None`` for a private in-memory database.

    ``bump`` must be called after each of this process's write transactions; it is
    the only signal for an in-memory database, and costs nothing for a file.
    """

    def __init__(self, path: str | None) -> None:
        self._path = path
        self._generation = 0
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._closed = False

    def bump(self) -> None:
        """Count a write of this process (called after its transaction ended)."""
        with self._lock:
            self._generation += 1

    def current(self) -> tuple[int, int]:
        """``(data_version, writes of this process)``; the first is 0 in memory."""
        with self._lock:
            if self._path is None:
                return 0, self._generation
            if self._conn is None:
                if self._closed:
                    raise sqlite3.ProgrammingError("closed")
                # Opened lazily, after the store made the file: connecting creates it.
                # timeout=0: if the file is ever busy, say so at once (the caller
                # then reads through the engine) rather than block the event loop.
                self._conn = sqlite3.connect(
                    self._path, timeout=0, isolation_level=None, check_same_thread=False
                )
            row: Any = self._conn.execute("PRAGMA data_version").fetchone()
            return int(row[0]), self._generation

    def close(self) -> None:
        """Close the probing connection."""
        with self._lock:
            self._closed = True
            if self._conn is not None:
                self._conn.close()
                self._conn = None
