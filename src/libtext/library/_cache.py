"""An optional on-disk cache of the online library's page answers, keyed by URL.

Only pages are cached: their text does not change between reads of a long crawl,
while a section's table of contents may grow. Entries are whole JSON answers in one
file each, written atomically, so a crash mid-write never leaves a torn entry and a
damaged file is simply read again from the library.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import anyio

__all__ = ["PageCache"]


class PageCache:
    """JSON answers stored under ``directory``, one file per URL."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory).expanduser()

    def _path(self, url: str) -> Path:
        digest = hashlib.sha256(url.encode("utf-8")).hexdigest()
        return self.directory / digest[:2] / f"{digest}.json"

    def _read(self, url: str) -> Any | None:
        try:
            entry = json.loads(self._path(url).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(entry, dict) or entry.get("url") != url:
            return None  # a hash collision or a foreign file: not ours
        return entry.get("body")

    def _write(self, url: str, body: Any) -> None:
        path = self._path(url)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump({"url": url, "body": body}, fh, ensure_ascii=False)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    async def get(self, url: str) -> Any | None:
        """The cached answer for ``url``, or ``None``."""
        return await anyio.to_thread.run_sync(self._read, url)

    async def put(self, url: str, body: Any) -> None:
        """Store the answer for ``url`` (errors writing the cache are not fatal)."""
        with contextlib.suppress(OSError):
            await anyio.to_thread.run_sync(self._write, url, body)
