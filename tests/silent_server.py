"""A TCP port on 127.0.0.1 that accepts connections and never sends a byte.

Stands in for a hung database (a PostgreSQL that accepts and never answers, a
half-open proxy) in the health and store tests.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator

__all__ = ["silent_port"]


@contextlib.contextmanager
def silent_port() -> Iterator[int]:
    """The port, accepting (and holding) connections until the block ends."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        stop.set()
        thread.join()
        for conn in held:
            conn.close()
        server.close()
