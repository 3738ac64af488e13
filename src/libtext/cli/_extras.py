"""What a command says when the extra it needs is not installed: which, once.

Command modules import only click and the core at the top, so ``--help`` works on the
core install; a command that needs an extra imports it in its body through these
helpers, which turn the ``ImportError`` into one line naming the ``pip install``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from libtext.store import TextStore

__all__ = [
    "STORE_ENV",
    "extra_for",
    "has_store_extra",
    "missing_extra",
    "open_store",
    "store_configured",
]

STORE_ENV = "LIBTEXT_DATABASE_URL"
"""The store URL variable, the same one ``TextStore()`` reads (kept here: no SQLModel)."""


def _command_path() -> str:
    ctx = click.get_current_context(silent=True)
    return ctx.command_path if ctx is not None else "libtext"


_EXTRA_OF = {
    "sqlalchemy": "store",
    "sqlmodel": "store",
    "psycopg": "store",
    "fastapi": "server",
    "starlette": "server",
    "uvicorn": "server",
    "multipart": "server",
    "python_multipart": "server",
    "litellm": "llm",
    "procrastinate": "jobs",
    "psycopg_pool": "jobs",
    "brotli": "library",
}
"""Third-party module -> the extra that installs it."""


def _missing_module(exc: ImportError) -> str:
    cause = exc.__cause__ if isinstance(exc.__cause__, ImportError) else exc
    return (cause.name or exc.name or "").split(".")[0]


def extra_for(exc: ImportError) -> str | None:
    """The extra whose absence caused ``exc``; ``None`` when no extra brings it."""
    return _EXTRA_OF.get(_missing_module(exc))


def missing_extra(extra: str, exc: ImportError, command: str | None = None) -> click.ClickException:
    """``'libtext texts list' needs the store extra: pip install 'libtext[store]' (...)``,
    with the command that works on this install (``pip install -e '.[store]'`` from a
    checkout)."""
    from libtext._wording import install_hint

    module = _missing_module(exc)
    why = f" (module {module!r} is missing)" if module and module != "libtext" else ""
    return click.ClickException(
        f"'{command or _command_path()}' needs the {extra} extra: {install_hint(extra)}{why}"
    )


def has_store_extra() -> bool:
    """Whether SQLModel is importable, without importing it."""
    import importlib.util

    try:
        return importlib.util.find_spec("sqlmodel") is not None
    except (ImportError, ValueError):  # ValueError: sys.modules["sqlmodel"] is None
        return False


def store_configured(url: str | None) -> bool:
    """Whether a store is named by ``--store`` or ``LIBTEXT_DATABASE_URL``."""
    return bool(url or os.environ.get(STORE_ENV))


def open_store(url: str | None) -> TextStore:
    """The store at ``url`` (else ``LIBTEXT_DATABASE_URL``, else the user's default),
    opened now (tables made) so a bad URL fails before any work."""
    try:
        from libtext.store import TextStore
    except ImportError as exc:
        raise missing_extra("store", exc) from None
    store = TextStore(url)
    try:
        store.prepare()
    except BaseException:
        store.close()
        raise
    return store
