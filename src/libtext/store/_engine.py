"""The database plumbing of :class:`~libtext.TextStore`: engines, errors, schema.

SQLite needs care to be safe under threads: libtext emits ``BEGIN`` itself, taking
the write lock at the start of a write transaction (``BEGIN IMMEDIATE``), because a
transaction that reads and then writes can otherwise fail at once with "database is
locked" instead of waiting its turn; WAL lets readers run during a write.
PostgreSQL needs nothing special beyond a liveness check and timeouts, so that a
database that is down, or that accepts TCP and never answers, fails a call within
seconds (a 503) instead of stalling it: ``connect_timeout`` (5 s) and a server-side
``statement_timeout`` (30 s), each overridable in the URL's query; SQLite waits at
most ``SQLITE_BUSY_TIMEOUT`` for another writer's lock.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import URL, Connection, Engine
from sqlalchemy.pool import StaticPool

from libtext.errors import StoreError
from libtext.store._tables import (
    META_REVISION,
    META_SCHEMA_VERSION,
    META_TEXT_COUNT,
    SCHEMA_VERSION,
    MetaRow,
    TextRow,
    metadata,
)
from libtext.store._triggers import install_triggers, recount

__all__ = ["MIGRATIONS", "WRITE", "create_schema", "make_engine", "masked", "store_errors"]

WRITE: Final = "libtext_write"
"""Execution option of a connection that will write (SQLite: ``BEGIN IMMEDIATE``)."""

_ADVISORY_LOCK: Final = 0x6C6962746578  # serializes schema creation on PostgreSQL
PG_CONNECT_TIMEOUT: Final = 5
PG_STATEMENT_TIMEOUT_MS: Final = 30_000
SQLITE_BUSY_TIMEOUT: Final = 10.0
POOL_TIMEOUT: Final = 10.0


def _add_revision(conn: Connection) -> None:
    meta = metadata.tables[MetaRow.__tablename__]
    conn.execute(meta.insert(), [{"key": META_REVISION, "value": 0}])


def _add_history(conn: Connection) -> None:
    from libtext.store._revisions import migrate_to_revisions

    migrate_to_revisions(conn)


def _add_triggers(conn: Connection) -> None:
    recount(conn)  # a hand-kept count may have drifted: start the triggers from the truth
    install_triggers(conn)


MIGRATIONS: dict[int, Callable[[Connection], None]] = {
    1: _add_revision,
    2: _add_history,
    3: _add_triggers,
}
"""Schema version -> the step that brings a database from it to the next version."""


def masked(url: URL) -> str:
    """The URL as text with its password replaced by ``***``."""
    return url.render_as_string(hide_password=True)


def make_engine(url: URL, *, echo: bool = False) -> tuple[Engine, AbstractContextManager[Any]]:
    """An engine for ``url`` and the lock every transaction must hold (often a no-op)."""
    if url.get_backend_name() != "sqlite":
        connect_args: dict[str, Any] = {}
        if url.get_backend_name() == "postgresql":
            if "connect_timeout" not in url.query:
                connect_args["connect_timeout"] = PG_CONNECT_TIMEOUT
            if "options" not in url.query:
                connect_args["options"] = f"-c statement_timeout={PG_STATEMENT_TIMEOUT_MS}"
        engine = sa.create_engine(
            url,
            echo=echo,
            pool_pre_ping=True,
            pool_timeout=POOL_TIMEOUT,
            connect_args=connect_args,
        )
        return engine, nullcontext()
    memory = url.database in (None, "", ":memory:") or url.query.get("mode") == "memory"
    lock: AbstractContextManager[Any] = nullcontext()
    if memory:
        # One shared connection, or each thread would see its own empty database;
        # the lock keeps two threads' transactions off it at the same time.
        lock = threading.RLock()
        engine = sa.create_engine(
            url, echo=echo, poolclass=StaticPool, connect_args={"check_same_thread": False}
        )
    else:
        engine = sa.create_engine(
            url,
            echo=echo,
            connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT},
        )

    @sa.event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # libtext emits BEGIN (below)
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        if not memory:
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.close()

    @sa.event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        write = conn.get_execution_options().get(WRITE)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine, lock


@contextmanager
def store_errors(url: URL, operation: str, env_var: str) -> Iterator[None]:
    """Turn database failures into :class:`StoreError` that say what to check.

    The message names the URL with its password masked, and the driver's first
    line of explanation with any copy of the password blanked out.
    """
    try:
        yield
    except sa.exc.SQLAlchemyError as exc:
        orig = getattr(exc, "orig", None) or exc
        reason = (str(orig).strip().splitlines() or [type(orig).__name__])[0]
        if url.password:
            reason = reason.replace(str(url.password), "***")
        raise StoreError(
            f"The text store could not {operation} ({masked(url)}): {reason}. Check that "
            "the database is running and reachable, that the URL is right "
            f"(TextStore(url=...) or {env_var}) and that the user may write to it.",
            details={"url": masked(url), "operation": operation},
        ) from None


def create_schema(conn: Connection, url: URL) -> None:
    """Make the tables if missing, record or check the schema version, migrate.

    Runs in the caller's write transaction; on PostgreSQL an advisory lock keeps two
    processes from creating the tables at once.
    """
    if conn.dialect.name == "postgresql":
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": _ADVISORY_LOCK})
    metadata.create_all(conn)
    meta = metadata.tables[MetaRow.__tablename__]
    version = conn.execute(
        sa.select(meta.c.value).where(meta.c.key == META_SCHEMA_VERSION)
    ).scalar()
    if version is None:
        texts = metadata.tables[TextRow.__tablename__]
        count = conn.execute(sa.select(sa.func.count()).select_from(texts)).scalar_one()
        conn.execute(
            meta.insert(),
            [
                {"key": META_SCHEMA_VERSION, "value": SCHEMA_VERSION},
                {"key": META_TEXT_COUNT, "value": count},
                {"key": META_REVISION, "value": 0},
            ],
        )
        install_triggers(conn)
        return
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"The text store at {masked(url)} has schema version {version}, written by a "
            f"newer libtext (this one knows up to {SCHEMA_VERSION}); upgrade libtext.",
            details={"url": masked(url), "schema_version": version},
        )
    while version < SCHEMA_VERSION:
        MIGRATIONS[version](conn)
        version += 1
        conn.execute(meta.update().where(meta.c.key == META_SCHEMA_VERSION).values(value=version))
