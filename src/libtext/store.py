"""TextStore: processed documents kept in SQLite or PostgreSQL, addressed by slug.

Design choices, and why:

Body as JSON, not normalized tables
    Each document is stored whole, as the JSON of :class:`~libtext.models.ProcessedDocument`,
    in a table of its own (``libtext_text_bodies``); the list columns live in
    ``libtext_texts``. Measured on SQLite with a 1.1 MB document (300 sections, 2,400
    translations, 900 footnotes), median of 15: JSON save 19 ms / get 20 ms against
    172 ms / 88 ms for normalized sections, translations and footnotes tables. Nothing
    queries inside a body, JSON round-trips every field (extensions included) exactly,
    and listing never reads the bodies table.
Saving the same source again makes a new text
    :meth:`TextStore.save` never overwrites: the same titles give ``slug``, ``slug-2``,
    ``slug-3``... so nothing stored is lost by re-processing. :meth:`TextStore.update`
    replaces a text in place under its slug; ``created_at`` never changes and
    ``updated_at`` moves forward by at least a millisecond.
Slugs
    Made from the titles (see ``libtext._store_slugs``), unique by a database
    constraint: a save picks the next free number and inserts; if another writer took
    it first, the insert fails and the save retries with a fresh read. A slug never
    changes once stored.
Listing without scans that grow with the table
    The total comes from a counter updated in the same transaction as every save and
    delete (a ``COUNT(*)`` would grow with the table). A page is found in the
    ``(created_at, id)`` index alone, skipping from the newest end for the first half
    of the pages and from the oldest end (then reversed) for the second half, and only
    its own rows are read from the table. The first and last pages cost the same at
    any size (``benchmarks/store.py``: under 1 ms at 1,000 and at 100,000 texts); a
    page in the middle of 100,000 texts still skips 50,000 index entries (~10 ms).
    The total counts on every change being made through TextStore.
Schema version
    ``libtext_meta.schema_version`` is written when the tables are made (on first use).
    A later libtext that changes the tables bumps ``SCHEMA_VERSION`` and adds a step to
    ``_store_engine.MIGRATIONS``; a database from a newer libtext is refused rather than misread.
Sync core, async twins
    SQLModel sessions are sync; each ``a``-method runs its twin in a worker thread.
A read cache of serialized answers
    :meth:`TextStore.list_json` and :meth:`TextStore.get_json` give the exact JSON of
    ``list``/``get`` from a small LRU (``cache_bytes``), checked against the store's
    revision on every read (see ``libtext._store_cache``), so no reader sees a text
    older than the last committed write, from this process or another. A hit costs a
    few microseconds on SQLite, where the check runs on the event loop: the HTTP
    adapter's hot routes then skip the worker thread, the query and the validation.
"""

from __future__ import annotations

import builtins
import os
import sqlite3
import threading
from collections.abc import Callable, Hashable, Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Self

import anyio
import pydantic

try:
    import sqlalchemy as sa
    from sqlalchemy.engine import URL, Connection, Engine, make_url
    from sqlmodel import Session, and_, col, or_, select
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        f"TextStore needs the store extra: pip install 'libtext[store]' ({exc})"
    ) from exc

from libtext._keywords import strict_keywords
from libtext._store_cache import DEFAULT_CACHE_BYTES, LocalRevision, ReadCache
from libtext._store_engine import WRITE, create_schema, make_engine, masked, store_errors
from libtext._store_slugs import base_slug, check_slug, next_slug
from libtext._store_tables import (
    META_REVISION,
    META_TEXT_COUNT,
    BodyRow,
    MetaRow,
    TextRow,
)
from libtext.errors import (
    ConfigurationError,
    InvalidInputError,
    InvalidTypeError,
    NotFoundError,
    StoreError,
)
from libtext.models import (
    PaginatedTextsResponse,
    PaginationInfo,
    ProcessedDocument,
    TextListItem,
)

__all__ = [
    "DEFAULT_CACHE_BYTES",
    "DEFAULT_PAGE_SIZE",
    "ENV_VAR",
    "MAX_PAGE_SIZE",
    "TextStore",
    "default_url",
]

DEFAULT_PAGE_SIZE: Final = 20
MAX_PAGE_SIZE: Final = 100
ENV_VAR: Final = "LIBTEXT_DATABASE_URL"

_SLUG_ATTEMPTS = 100

# Read statements are built once: SQLAlchemy then reuses their compiled form.
_LIST_COLUMNS = (
    col(TextRow.slug),
    col(TextRow.publication_title),
    col(TextRow.work_title),
    col(TextRow.author_name),
    col(TextRow.page_count),
    col(TextRow.created_at),
    col(TextRow.updated_at),
)


def _page_query(*, newest_first: bool) -> sa.Select[str, str, str, str, int, datetime, datetime]:
    # The offset is skipped inside the (created_at, id) index alone (a covering scan);
    # only the page's own rows are then read from the table. Skipping with the full
    # select instead reads a table row per skipped entry: 6x slower mid-table.
    created, ident = col(TextRow.created_at), col(TextRow.id)
    order = (created.desc(), ident.desc()) if newest_first else (created.asc(), ident.asc())
    page_ids = (
        sa.select(ident)
        .order_by(*order)
        .offset(sa.bindparam("offset", type_=sa.Integer))
        .limit(sa.bindparam("limit", type_=sa.Integer))
    )
    return sa.select(*_LIST_COLUMNS).where(ident.in_(page_ids)).order_by(*order)


_NEWEST_FIRST = _page_query(newest_first=True)
_OLDEST_FIRST = _page_query(newest_first=False)
_COUNT = sa.select(col(MetaRow.value)).where(col(MetaRow.key) == META_TEXT_COUNT)
_REVISION = sa.select(col(MetaRow.value)).where(col(MetaRow.key) == META_REVISION)
_BUMP_REVISION = (
    sa.update(MetaRow).where(col(MetaRow.key) == META_REVISION).values(value=col(MetaRow.value) + 1)
)
_GET_BODY = (
    sa.select(col(BodyRow.body))
    .join(TextRow, col(TextRow.id) == col(BodyRow.text_id))
    .where(col(TextRow.slug) == sa.bindparam("slug"))
)


def _family(base: str) -> sa.ColumnElement[bool]:
    """``base`` and the slugs that start with ``base-``, as one range of the slug index."""
    slug = col(TextRow.slug)
    return or_(slug == base, and_(slug > base + "-", slug < base + "."))  # "." follows "-"


def default_url() -> str:
    """``LIBTEXT_DATABASE_URL``, else a SQLite file in the user's data directory."""
    if url := os.environ.get(ENV_VAR):
        return url
    import platformdirs

    folder = Path(platformdirs.user_data_dir("libtext", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'texts.db'}"


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(value: datetime) -> datetime:
    # SQLite hands back naive datetimes; they were written as UTC.
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _item(row: Any) -> TextListItem:
    # Our own table's columns have the model's types already: no validation (a third
    # of a 20-row list). _utc does what the UtcDatetime validator would.
    return TextListItem.model_construct(
        slug=row.slug,
        publication_title=row.publication_title,
        work_title=row.work_title,
        author_name=row.author_name,
        page_count=row.page_count,
        created_at=_utc(row.created_at),
        updated_at=_utc(row.updated_at),
    )


def _columns(document: ProcessedDocument) -> dict[str, Any]:
    meta = document.source_metadata
    return {
        "publication_title": meta.publication_title,
        "work_title": meta.work_title,
        "author_name": meta.author_name,
        "page_count": document.page_count,
        "work_id": document.work_id,
        "first_page_id": document.first_page_id,
        "last_page_id": document.last_page_id,
    }


def _response(page: int, page_size: int, total: int, rows: Any) -> PaginatedTextsResponse:
    return PaginatedTextsResponse(
        texts=[_item(row) for row in rows],
        pagination=PaginationInfo.of(page=page, page_size=page_size, total=total),
    )


def _check_document(document: object) -> ProcessedDocument:
    if not isinstance(document, ProcessedDocument):
        raise InvalidInputError(
            f"TextStore stores ProcessedDocument objects, not {type(document).__name__}; "
            "build one with ProcessedDocument.model_validate(...) or process_document(...).",
        )
    return document


def _local_revision(url: URL) -> LocalRevision | None:
    """The event-loop-safe revision probe of a plain SQLite URL, else ``None``."""
    if url.get_backend_name() != "sqlite" or url.get_driver_name() != "pysqlite":
        return None
    if "uri" in url.query or "mode" in url.query:
        return None  # URI filenames, shared-cache memory: read the revision row instead
    if url.database in (None, "", ":memory:"):
        return LocalRevision(None)
    return LocalRevision(os.path.abspath(url.database))


def _check_page(page: object, page_size: object) -> tuple[int, int]:
    for name, value, low, high in (
        ("page", page, 1, None),
        ("page_size", page_size, 1, MAX_PAGE_SIZE),
    ):
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or value < low
            or (high is not None and value > high)
        ):
            bounds = f"from {low} to {high}" if high else f"{low} or more"
            raise InvalidInputError(
                f"{name} must be an integer {bounds}, got {value!r} "
                f"(defaults: page=1, page_size={DEFAULT_PAGE_SIZE}).",
                details={"parameter": name, "minimum": low, "maximum": high},
            )
    assert isinstance(page, int) and isinstance(page_size, int)
    return page, page_size


class TextStore:
    """Processed documents in a SQL database, each addressed by a slug.

    Args:
        url: A SQLAlchemy database URL: ``"sqlite:///texts.db"``,
            ``"postgresql+psycopg://user:pw@host/db"`` or ``"sqlite://"`` (in memory).
            ``None`` reads ``LIBTEXT_DATABASE_URL``, else uses ``texts.db`` in the
            user's data directory (``platformdirs``).
        echo: Log every SQL statement (SQLAlchemy's ``echo``).
        cache_bytes: Bytes of serialized answers kept for :meth:`list_json` and
            :meth:`get_json` (default 16 MiB; 0 turns the cache off).

    The tables are made on first use. Every method has an async twin (``asave``,
    ``alist``...) that runs it in a worker thread. Use it as a context manager, or
    call :meth:`close`, to release the connections.

    Example:
        ```python
        with TextStore("sqlite:///texts.db") as store:
            item = store.save(document)
            same = store.get(item.slug)
        ```
    """

    @strict_keywords()
    def __init__(
        self,
        url: str | None = None,
        *,
        echo: bool = False,
        cache_bytes: int = DEFAULT_CACHE_BYTES,
    ) -> None:
        if isinstance(cache_bytes, bool) or not isinstance(cache_bytes, int) or cache_bytes < 0:
            raise ConfigurationError(
                f"cache_bytes must be a whole number of bytes, 0 or more, got {cache_bytes!r} "
                "(0 turns the read cache off)."
            )
        if url is not None and not isinstance(url, str):
            raise InvalidTypeError(
                f"TextStore(url=...) takes a database URL string, not {type(url).__name__}."
            )
        raw = url if url is not None else default_url()
        try:
            parsed = make_url(raw)
        except sa.exc.ArgumentError:
            # A bare file path is the usual slip: say which URL names that file.
            shown = raw if len(raw) <= 80 else raw[:77] + "..."  # never echo a huge input
            bare = raw.strip() and "://" not in raw
            hint = f"for that file: 'sqlite:///{shown}'; " if bare else ""
            raise ConfigurationError(
                f"The text store URL is not a database URL; {hint}expected e.g. "
                "'sqlite:///texts.db' or 'postgresql+psycopg://user@host/db' "
                f"(TextStore(url=...) or {ENV_VAR}).",
            ) from None
        self._url: URL = parsed
        self._cache = ReadCache(cache_bytes) if cache_bytes else None
        self._local = _local_revision(parsed)
        self._ready = False
        self._ready_lock = threading.Lock()
        self._closed = False
        try:
            self._engine, self._lock = make_engine(parsed, echo=echo)
        except (sa.exc.ArgumentError, ImportError) as exc:
            raise ConfigurationError(
                f"Cannot use the text store URL {self.url}: {exc}. Check the dialect and "
                "driver (e.g. 'postgresql+psycopg://', installed by pip install "
                "'libtext[store]').",
                details={"url": self.url},
            ) from None

    @property
    def url(self) -> str:
        """The database URL with its password masked."""
        return masked(self._url)

    @property
    def engine(self) -> Engine:
        """The SQLAlchemy engine, for inspection; the tables are in ``_store_tables``."""
        return self._engine

    def __repr__(self) -> str:
        return f"TextStore({self.url!r})"

    def close(self) -> None:
        """Close the store's connections. The store cannot be used afterwards."""
        self._closed = True
        if self._local is not None:
            self._local.close()
        self._engine.dispose()

    async def aclose(self) -> None:
        """Async twin of :meth:`close`."""
        await anyio.to_thread.run_sync(self.close)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    # --- plumbing ---------------------------------------------------------------------

    def _errors(self, operation: str) -> AbstractContextManager[None]:
        return store_errors(self._url, operation, ENV_VAR)

    def _ensure_schema(self) -> None:
        if self._closed:
            raise StoreError("This TextStore is closed; make a new one.", details={"url": self.url})
        if self._ready:
            return
        with self._ready_lock:
            if self._ready:
                return
            with self._lock, self._engine.connect() as conn:
                conn.execution_options(**{WRITE: True})
                with conn.begin():
                    create_schema(conn, self._url)
            self._ready = True

    @contextmanager
    def _connection(self, *, write: bool = False, snapshot: bool = False) -> Iterator[Connection]:
        """A connection in one transaction, committed on success, rolled back on error.

        ``write`` takes SQLite's write lock at BEGIN; ``snapshot`` makes the reads of a
        PostgreSQL transaction agree with each other (SQLite reads always do).
        """
        self._ensure_schema()
        with self._lock, self._engine.connect() as conn:
            if write:
                conn.execution_options(**{WRITE: True})
            if snapshot and conn.dialect.name == "postgresql":
                conn.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                yield conn

    @contextmanager
    def _session(self) -> Iterator[Session]:
        """A SQLModel session in one write transaction (see :meth:`_connection`).

        Every write bumps the revision in its own transaction, and this process's
        write counter once it ended: together they invalidate every read cache.
        """
        try:
            with (
                self._connection(write=True) as conn,
                Session(bind=conn, autoflush=False) as session,
            ):
                yield session
                session.flush()
                session.execute(_BUMP_REVISION)
        finally:
            if self._local is not None:
                self._local.bump()

    def _cached(
        self,
        key: Hashable,
        operation: str,
        produce: Callable[[Connection], bytes],
        *,
        snapshot: bool = False,
    ) -> bytes:
        """``produce``'s bytes, from the read cache while the store's revision holds.

        The revision is read before ``produce`` runs (on PostgreSQL in the same
        transaction), so what is kept is never older than the revision it is kept under.
        """
        cache, local = self._cache, self._local
        with self._errors(operation):
            self._ensure_schema()
            revision: Hashable = None
            if cache is not None and local is not None:
                try:
                    revision = local.current()
                except sqlite3.Error:
                    cache = None  # cannot tell what is current: read, keep nothing
                else:
                    if (hit := cache.get(key, revision)) is not None:
                        return hit
            with self._connection(snapshot=snapshot) as conn:
                if cache is not None and local is None:
                    revision = conn.execute(_REVISION).scalar_one()
                    if (hit := cache.get(key, revision)) is not None:
                        return hit
                value = produce(conn)
        if cache is not None:
            cache.put(key, revision, value)
        return value

    def _hit_now(self, key: Hashable) -> bytes | None:
        """The cached answer if the revision can be read without blocking (SQLite)."""
        if self._cache is None or self._local is None or not self._ready or self._closed:
            return None
        try:
            revision = self._local.current()
        except sqlite3.Error:
            return None
        return self._cache.get(key, revision)

    def _count_by(self, session: Session, delta: int) -> None:
        session.execute(
            sa.update(MetaRow)
            .where(col(MetaRow.key) == META_TEXT_COUNT)
            .values(value=col(MetaRow.value) + delta)
        )

    # --- the API ----------------------------------------------------------------------

    def prepare(self) -> None:
        """Connect and make the tables now, not on first use: a wrong URL fails early.

        Raises:
            StoreError: The database cannot be opened or its tables made.
        """
        with self._errors("open the database"):
            self._ensure_schema()

    async def aprepare(self) -> None:
        """Async twin of :meth:`prepare`."""
        await anyio.to_thread.run_sync(self.prepare)

    def ping(self) -> bool:
        """Whether the database answers (making the tables on first use). Never raises."""
        try:
            with self._errors("answer"), self._connection() as conn:
                conn.execute(sa.text("SELECT 1"))
        except Exception:
            return False
        return True

    async def aping(self) -> bool:
        """Async twin of :meth:`ping`."""
        return await anyio.to_thread.run_sync(self.ping)

    def save(self, document: ProcessedDocument) -> TextListItem:
        """Store a whole document atomically as a new text and return its list entry.

        The slug comes from the publication and work titles; when a text with the
        same titles exists, the new one gets the next number (``-2``, ``-3``...).
        Saving never replaces a stored text: use :meth:`update` for that.

        Raises:
            InvalidInputError: ``document`` is not a ``ProcessedDocument``.
            StoreError: The database failed; nothing was stored.
        """
        doc = _check_document(document)
        meta = doc.source_metadata
        base = base_slug(meta.publication_title, meta.work_title)
        body = doc.model_dump_json()
        with self._errors("save the text"):
            for _ in range(_SLUG_ATTEMPTS):
                inserted = False
                try:
                    with self._session() as session:
                        family = session.exec(select(TextRow.slug).where(_family(base))).all()
                        now = _now()
                        row = TextRow(
                            slug=next_slug(base, family),
                            created_at=now,
                            updated_at=now,
                            **_columns(doc),
                        )
                        session.add(row)
                        session.flush()  # the slug's unique constraint is checked here
                        inserted = True
                        assert row.id is not None
                        session.add(BodyRow(text_id=row.id, body=body))
                        self._count_by(session, +1)
                        item = _item(row)
                except sa.exc.IntegrityError:
                    if inserted:
                        raise
                    continue  # another writer took the slug first: read again
                return item
        raise StoreError(
            f"Could not find a free slug for {base!r} after {_SLUG_ATTEMPTS} attempts; "
            "too many concurrent saves of the same titles, retry.",
            details={"slug": base},
        )

    async def asave(self, document: ProcessedDocument) -> TextListItem:
        """Async twin of :meth:`save`."""
        return await anyio.to_thread.run_sync(partial(self.save, document))

    def update(self, slug: str, document: ProcessedDocument) -> TextListItem:
        """Replace the stored text ``slug`` with ``document``, atomically.

        The slug and ``created_at`` stay; ``updated_at`` moves forward. New titles
        are stored but do not change the slug.

        Raises:
            InvalidSlugError: ``slug`` is malformed.
            NotFoundError: No text has this slug.
        """
        slug = check_slug(slug)
        doc = _check_document(document)
        body = doc.model_dump_json()
        with self._errors("update the text"), self._session() as session:
            row = session.exec(
                select(TextRow).where(TextRow.slug == slug).with_for_update()
            ).first()
            if row is None:
                raise self._not_found(slug)
            for name, value in _columns(doc).items():
                setattr(row, name, value)
            row.updated_at = max(_now(), _utc(row.updated_at) + timedelta(milliseconds=1))
            session.add(row)
            session.execute(
                sa.update(BodyRow).where(col(BodyRow.text_id) == row.id).values(body=body)
            )
            session.flush()
            return _item(row)

    async def aupdate(self, slug: str, document: ProcessedDocument) -> TextListItem:
        """Async twin of :meth:`update`."""
        return await anyio.to_thread.run_sync(partial(self.update, slug, document))

    def get(self, slug: str, *, include_source_ids: bool = False) -> ProcessedDocument:
        """The complete stored document.

        Args:
            slug: The text's slug, as :meth:`save` or :meth:`list` gave it.
            include_source_ids: Keep the online library's ``work_id``,
                ``first_page_id`` and ``last_page_id``. By default they are ``None``,
                as the HTTP API serves the document.

        Raises:
            InvalidSlugError: ``slug`` is malformed (checked before any query).
            NotFoundError: No text has this slug.
        """
        slug = check_slug(slug)
        with self._errors("read the text"), self._connection() as conn:
            body = conn.execute(_GET_BODY, {"slug": slug}).scalar()
        return self._document(slug, body, include_source_ids=include_source_ids)

    async def aget(self, slug: str, *, include_source_ids: bool = False) -> ProcessedDocument:
        """Async twin of :meth:`get`."""
        return await anyio.to_thread.run_sync(
            partial(self.get, slug, include_source_ids=include_source_ids)
        )

    def get_json(self, slug: str) -> bytes:
        """``get(slug).model_dump_json()`` as bytes, from the read cache when current.

        The HTTP adapter serves these bytes as ``GET /api/texts/{slug}``. A write
        committed before the call, by any process, is always seen.

        Raises:
            InvalidSlugError: ``slug`` is malformed (checked before anything else).
            NotFoundError: No text has this slug (never cached).
        """
        slug = check_slug(slug)

        def produce(conn: Connection) -> bytes:
            body = conn.execute(_GET_BODY, {"slug": slug}).scalar()
            return self._document(slug, body).model_dump_json().encode()

        return self._cached(("get", slug), "read the text", produce)

    async def aget_json(self, slug: str, *, limiter: anyio.CapacityLimiter | None = None) -> bytes:
        """Async twin of :meth:`get_json`: a cache hit on SQLite answers on the event loop.

        Checking the SQLite revision is one ``PRAGMA data_version`` on a connection of
        the cache's own (microseconds, never waits for a writer), cheaper than the hop
        to a worker thread; a miss, and every read on PostgreSQL (whose revision check
        is a network round trip), runs :meth:`get_json` in a worker thread, limited by
        ``limiter`` (anyio's default when ``None``). A cancelled read leaves its thread
        to finish in the background: it has no effects to wait for.
        """
        if (hit := self.cached_get_json(slug)) is not None:
            return hit
        return await anyio.to_thread.run_sync(
            partial(self.get_json, slug), abandon_on_cancel=True, limiter=limiter
        )

    def cached_get_json(self, slug: str) -> bytes | None:
        """What :meth:`get_json` would return, if known without I/O; else ``None``.

        Known when the read cache holds a current answer and the store can tell
        that in microseconds without the network (SQLite). Safe to call on an event
        loop; ``None`` means "call :meth:`get_json` or :meth:`aget_json`".

        Raises:
            InvalidSlugError: ``slug`` is malformed.
        """
        return self._hit_now(("get", check_slug(slug)))

    def _document(
        self, slug: str, body: str | None, *, include_source_ids: bool = False
    ) -> ProcessedDocument:
        if body is None:
            raise self._not_found(slug)
        try:
            document = ProcessedDocument.model_validate_json(body)
        except pydantic.ValidationError as exc:
            raise StoreError(
                f"The stored text {slug!r} could not be read back ({exc.error_count()} "
                "validation errors); it was written by an incompatible libtext.",
                details={"slug": slug},
            ) from None
        return document if include_source_ids else document.public()

    def delete(self, slug: str) -> None:
        """Remove the text ``slug`` and its document.

        Raises:
            InvalidSlugError: ``slug`` is malformed.
            NotFoundError: No text has this slug.
        """
        slug = check_slug(slug)
        with self._errors("delete the text"), self._session() as session:
            text_id = session.exec(select(TextRow.id).where(TextRow.slug == slug)).first()
            if text_id is None:
                raise self._not_found(slug)
            session.execute(sa.delete(BodyRow).where(col(BodyRow.text_id) == text_id))
            session.execute(sa.delete(TextRow).where(col(TextRow.id) == text_id))
            self._count_by(session, -1)

    async def adelete(self, slug: str) -> None:
        """Async twin of :meth:`delete`."""
        await anyio.to_thread.run_sync(partial(self.delete, slug))

    def list(self, page: int = 1, page_size: int = DEFAULT_PAGE_SIZE) -> PaginatedTextsResponse:
        """One page of the stored texts, newest first (equal times: last saved first).

        Args:
            page: 1-based page number, 1 or more (default 1). A page past the end is
                empty, with the right totals.
            page_size: Texts per page, 1 to 100 (default 20).

        Raises:
            InvalidInputError: ``page`` or ``page_size`` is out of bounds (never clamped).
        """
        page, page_size = _check_page(page, page_size)
        with self._errors("list the texts"), self._connection(snapshot=True) as conn:
            total, rows = self._page(conn, page, page_size)
        return _response(page, page_size, total, rows)

    async def alist(
        self, page: int = 1, page_size: int = DEFAULT_PAGE_SIZE
    ) -> PaginatedTextsResponse:
        """Async twin of :meth:`list`."""
        return await anyio.to_thread.run_sync(partial(self.list, page, page_size))

    def list_json(self, page: int = 1, page_size: int = DEFAULT_PAGE_SIZE) -> bytes:
        """``list(page, page_size).model_dump_json()`` as bytes, from the read cache when current.

        The HTTP adapter serves these bytes as ``GET /api/texts``. A write committed
        before the call, by any process, is always seen.

        Raises:
            InvalidInputError: ``page`` or ``page_size`` is out of bounds (checked first).
        """
        page, page_size = _check_page(page, page_size)

        def produce(conn: Connection) -> bytes:
            total, rows = self._page(conn, page, page_size)
            return _response(page, page_size, total, rows).model_dump_json().encode()

        return self._cached(("list", page, page_size), "list the texts", produce, snapshot=True)

    async def alist_json(
        self,
        page: int = 1,
        page_size: int = DEFAULT_PAGE_SIZE,
        *,
        limiter: anyio.CapacityLimiter | None = None,
    ) -> bytes:
        """Async twin of :meth:`list_json`; hits and misses run as in :meth:`aget_json`."""
        if (hit := self.cached_list_json(page, page_size)) is not None:
            return hit
        return await anyio.to_thread.run_sync(
            partial(self.list_json, page, page_size), abandon_on_cancel=True, limiter=limiter
        )

    def cached_list_json(self, page: int = 1, page_size: int = DEFAULT_PAGE_SIZE) -> bytes | None:
        """What :meth:`list_json` would return, if known without I/O; else ``None``.

        As :meth:`cached_get_json`, which the HTTP adapter calls before it starts a
        timeout or a worker thread.

        Raises:
            InvalidInputError: ``page`` or ``page_size`` is out of bounds.
        """
        page, page_size = _check_page(page, page_size)
        return self._hit_now(("list", page, page_size))

    def _page(self, conn: Connection, page: int, page_size: int) -> tuple[int, builtins.list[Any]]:
        """The total and the rows of one page, newest first."""
        offset = (page - 1) * page_size
        total: int = conn.execute(_COUNT).scalar_one()
        if offset >= total:
            return total, []
        limit = min(page_size, total - offset)
        from_oldest = total - offset - limit
        if from_oldest < offset:
            params = {"offset": from_oldest, "limit": limit}
            return total, builtins.list(conn.execute(_OLDEST_FIRST, params))[::-1]
        return total, builtins.list(conn.execute(_NEWEST_FIRST, {"offset": offset, "limit": limit}))

    def _not_found(self, slug: str) -> NotFoundError:
        return NotFoundError(
            f"No stored text has the slug {slug!r}; list the stored texts "
            "(TextStore.list()) to find one.",
            details={"slug": slug},
        )
