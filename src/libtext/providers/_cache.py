"""A local cache of provider answers, so processing a document twice costs nothing twice.

Answers are keyed by a SHA-256 of everything that decides them: the task, the provider
(the model name, e.g. ``openai/gpt-4o-mini``), the prompt version, the response schema,
the messages (which hold the input text), the payload and the options. A new model or
a new prompt version therefore never reads an old answer. Values are the validated
answers as JSON, so a hit is checked by the same pydantic model as a fresh answer.

The cache is one SQLite file: next to the store's database when the store is SQLite,
else ``$LIBTEXT_CACHE_DIR`` or the user cache directory (``platformdirs``). A broken or
locked cache file never fails a job: the error is logged and the call goes to the
provider.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import anyio.to_thread
from pydantic import BaseModel

from libtext._keywords import strict_keywords

__all__ = ["ProviderCache", "cache_key", "default_cache_path"]

logger = logging.getLogger("libtext.cache")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS provider_cache (
    key TEXT PRIMARY KEY,
    task TEXT NOT NULL,
    provider TEXT NOT NULL,
    prompt_version TEXT NOT NULL,
    value TEXT NOT NULL,
    created_at REAL NOT NULL
)
"""


def _jsonable(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, type) and issubclass(value, BaseModel):
        return value.__name__
    return value


def cache_key(
    *,
    task: str,
    provider: str,
    prompt_version: str,
    response_model: type[BaseModel] | str,
    messages: list[dict[str, str]],
    payload: Any = None,
    options: dict[str, Any] | None = None,
) -> str:
    """The content hash that addresses one provider answer."""
    material = {
        "task": task,
        "provider": provider,
        "prompt_version": prompt_version,
        "response_model": _jsonable(response_model),
        "messages": messages,
        "payload": _jsonable(payload),
        "options": options or {},
    }
    raw = json.dumps(material, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def default_cache_path(store_url: str | None = None) -> Path:
    """Where the cache lives by default.

    Next to a SQLite store's file (``texts.db`` -> ``texts.provider-cache.sqlite``);
    otherwise ``$LIBTEXT_CACHE_DIR/provider-cache.sqlite`` or the user cache directory.
    The environment variable is read when this is called, not at import.
    """
    if store_url and store_url.startswith("sqlite:///"):
        raw = store_url.removeprefix("sqlite:///").split("?", 1)[0]
        if raw and raw != ":memory:":
            db = Path(raw)
            return db.with_name(db.stem + ".provider-cache.sqlite")
    base = os.environ.get("LIBTEXT_CACHE_DIR")
    if not base:
        import platformdirs

        base = platformdirs.user_cache_dir("libtext", appauthor=False)
    return Path(base) / "provider-cache.sqlite"


class ProviderCache:
    """Provider answers in a SQLite file, addressed by :func:`cache_key`.

    Args:
        path: The SQLite file (created with its folder); default
            :func:`default_cache_path`.

    Attributes:
        hits: Lookups answered from the cache since this object was made.
        misses: Lookups that were not.
    """

    @strict_keywords()
    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_cache_path()
        self.hits = 0
        self.misses = 0
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._broken = False

    def __repr__(self) -> str:
        return f"ProviderCache({str(self.path)!r})"

    def _connect(self) -> sqlite3.Connection | None:
        if self._broken:
            return None
        if self._conn is None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                conn = sqlite3.connect(self.path, check_same_thread=False, timeout=5.0)
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute(_SCHEMA)
                conn.commit()
            except (OSError, sqlite3.Error) as exc:
                logger.warning("provider cache %s unusable (%s); not caching", self.path, exc)
                self._broken = True
                return None
            self._conn = conn
        return self._conn

    def get(self, key: str) -> str | None:
        """The cached answer (JSON text) for ``key``, or ``None``."""
        with self._lock:
            conn = self._connect()
            row = None
            if conn is not None:
                try:
                    row = conn.execute(
                        "SELECT value FROM provider_cache WHERE key = ?", (key,)
                    ).fetchone()
                except sqlite3.Error as exc:
                    logger.warning("provider cache read failed (%s); asking the provider", exc)
            if row is None:
                self.misses += 1
                return None
            self.hits += 1
            return str(row[0])

    def put(self, key: str, value: str, *, task: str, provider: str, prompt_version: str) -> None:
        """Store an answer (JSON text); the last write for a key wins."""
        with self._lock:
            conn = self._connect()
            if conn is None:
                return
            try:
                conn.execute(
                    "INSERT OR REPLACE INTO provider_cache VALUES (?, ?, ?, ?, ?, ?)",
                    (key, task, provider, prompt_version, value, time.time()),
                )
                conn.commit()
            except sqlite3.Error as exc:
                logger.warning("provider cache write failed (%s); continuing", exc)

    async def aget(self, key: str) -> str | None:
        """:meth:`get` in a worker thread."""
        return await anyio.to_thread.run_sync(self.get, key)

    async def aput(
        self, key: str, value: str, *, task: str, provider: str, prompt_version: str
    ) -> None:
        """:meth:`put` in a worker thread."""

        def put() -> None:
            self.put(key, value, task=task, provider=provider, prompt_version=prompt_version)

        await anyio.to_thread.run_sync(put)

    def __len__(self) -> int:
        with self._lock:
            conn = self._connect()
            if conn is None:
                return 0
            return int(conn.execute("SELECT COUNT(*) FROM provider_cache").fetchone()[0])

    def clear(self) -> None:
        """Forget every cached answer."""
        with self._lock:
            conn = self._connect()
            if conn is not None:
                conn.execute("DELETE FROM provider_cache")
                conn.commit()

    def close(self) -> None:
        """Close the SQLite connection (reopened on next use)."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
