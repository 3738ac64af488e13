"""How :meth:`~libtext.TextStore.data_version` tells that the stored texts changed.

The value changes whenever a write to the texts' tables commits, by this process or
any other, by libtext or by hand: a cache that keeps an answer with the value read
*before* the answer can serve it while the value is unchanged, and never serves a
text older than the last committed write. How it is read, by database:

SQLite file
    ``PRAGMA data_version`` on a connection of its own, which changes when any
    other connection commits (other processes and the store's pooled connections
    alike), plus this process's write counter. About 5 us and never blocks on a
    writer (WAL), so it may run on an event loop.
SQLite in memory (``sqlite://``)
    Only this store can reach it: the write counter alone.
Others (PostgreSQL)
    The ``revision`` row of ``libtext_meta``, bumped by database triggers in every
    write's transaction (``libtext.store._triggers``): one primary-key read, which
    is network I/O and so runs in a worker thread.
"""

from __future__ import annotations

import sqlite3
import threading
from typing import Any

__all__ = ["LocalRevision"]


class LocalRevision:
    """The data version of a SQLite database, read without a query through the engine.

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
        """``(data_version, writes of this process)``; the first is 0 in memory.

        Raises:
            sqlite3.Error: The file cannot be read now (busy, closed): the caller
                must then not trust a cached answer.
        """
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
