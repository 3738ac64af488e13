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
Revisions, and nothing stored that cannot be read
    Every change (update, section edit, revert) is a new revision; the replaced
    document moves to the history table, which ``list`` and ``get`` never read. An
    edit may name the revision it was based on and then fails with ``ConflictError``
    if another landed first (``libtext.store._revisions``). Every write validates the
    JSON it stores first (``libtext.store._check``): a document changed by attribute
    assignment or built with ``model_construct`` could otherwise be stored and never
    read back.
Slugs
    Made from the titles (see ``libtext.store._slugs``), unique by a database
    constraint: a save picks the next free number and inserts; if another writer took
    it first, the insert fails and the save retries with a fresh read. A slug never
    changes once stored.
Listing without scans that grow with the table
    The total comes from a counter that the database keeps by triggers in every
    writer's transaction (a ``COUNT(*)`` would grow with the table), so it stays
    right whoever inserts or deletes rows (``libtext.store._triggers``). A page is found in the
    ``(created_at, id)`` index alone, skipping from the newest end for the first half
    of the pages and from the oldest end (then reversed) for the second half, and only
    its own rows are read from the table. The first and last pages cost the same at
    any size (``benchmarks/store.py``: under 1 ms at 1,000 and at 100,000 texts); a
    page in the middle of 100,000 texts still skips 50,000 index entries (~10 ms).
Schema version
    ``libtext_meta.schema_version`` is written when the tables are made (on first use).
    A later libtext that changes the tables bumps ``SCHEMA_VERSION`` and adds a step to
    ``_engine.MIGRATIONS``; a database from a newer libtext is refused rather than misread.
Sync core, async twins
    SQLModel sessions are sync; each ``a``-method runs its twin in a worker thread.
A data version for caches
    :meth:`TextStore.data_version` changes whenever a write commits, from this
    process or another (``libtext.store._data_version``); on SQLite it costs a few
    microseconds without a query. The HTTP adapter keeps its serialized answers
    under it (``libtext.asgi._cache``); the store itself serves no HTTP.
"""

from __future__ import annotations

import builtins
import os
import sqlite3
import threading
from collections.abc import Callable, Hashable, Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Final, Self

import anyio
import pydantic

from libtext._keywords import warn_deprecated

try:
    import sqlalchemy as sa
    from sqlalchemy.engine import URL, Connection, Engine, make_url
    from sqlmodel import Session, col, select
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    from libtext._wording import install_hint

    raise ImportError(
        f"TextStore needs the store extra: {install_hint('store')} ({exc})", name=exc.name
    ) from None

import libtext.store._revisions as revs
from libtext._html import current_note, note_revision
from libtext._keywords import strict_keywords
from libtext.errors import (
    ConfigurationError,
    InvalidTypeError,
    StoreError,
)
from libtext.models import (
    PaginatedTextsResponse,
    ProcessedDocument,
    TextListItem,
)
from libtext.store._check import stored_body
from libtext.store._data_version import LocalRevision
from libtext.store._engine import WRITE, create_schema, make_engine, masked, store_errors
from libtext.store._queries import (
    COUNT,
    DEFAULT_PAGE_SIZE,
    GET_BODY,
    GET_TAGGED_BODY,
    MAX_PAGE_SIZE,
    NEWEST_FIRST,
    OLDEST_FIRST,
    REVISION,
    check_document,
    check_page,
    columns,
    family,
    list_item,
    local_revision,
    response,
)
from libtext.store._review import ReviewMethods
from libtext.store._slugs import base_slug, check_slug, next_slug
from libtext.store._tables import BodyRow, RevisionRow, TextRow

__all__ = [
    "DEFAULT_PAGE_SIZE",
    "ENV_VAR",
    "MAX_PAGE_SIZE",
    "TextStore",
    "default_url",
]

ENV_VAR: Final = "LIBTEXT_DATABASE_URL"

_SLUG_ATTEMPTS = 100


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


class TextStore(ReviewMethods):
    """Processed documents in a SQL database, each addressed by a slug.

    Args:
        url: A SQLAlchemy database URL: ``"sqlite:///texts.db"``,
            ``"postgresql+psycopg://user:pw@host/db"`` or ``"sqlite://"`` (in memory).
            ``None`` reads ``LIBTEXT_DATABASE_URL``, else uses ``texts.db`` in the
            user's data directory (``platformdirs``).
        echo: Log every SQL statement (SQLAlchemy's ``echo``).
        cache_bytes: Deprecated, without effect: the read cache of serialized
            answers moved to the HTTP adapter (``Settings.cache_bytes``).

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
        cache_bytes: int | None = None,
    ) -> None:
        if cache_bytes is not None:
            # Still checked while it lasts: a wrong value is a caller's mistake to hear of.
            if isinstance(cache_bytes, bool) or not isinstance(cache_bytes, int) or cache_bytes < 0:
                raise ConfigurationError(
                    "TextStore(cache_bytes=...) must be an integer of 0 or more (it is "
                    "deprecated and without effect: use Settings(cache_bytes=...))."
                )
            warn_deprecated(
                "TextStore", "cache_bytes", "Settings(cache_bytes=...) of the HTTP adapter"
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
        self._local: LocalRevision | None = local_revision(parsed)
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
        """The SQLAlchemy engine, for inspection; the tables are in ``_tables``."""
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

        Every write bumps the revision row (database triggers, in its own
        transaction), and this process's write counter once it ended: together they
        change :meth:`data_version`.
        """
        try:
            with (
                self._connection(write=True) as conn,
                Session(bind=conn, autoflush=False) as session,
            ):
                yield session
                session.flush()
        finally:
            if self._local is not None:
                self._local.bump()

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

    def save(self, document: ProcessedDocument, *, author: str | None = None) -> TextListItem:
        """Store a whole document atomically as a new text and return its list entry.

        The slug comes from the publication and work titles; when a text with the
        same titles exists, the new one gets the next number (``-2``, ``-3``...).
        Saving never replaces a stored text: use :meth:`update` for that. The text
        starts at revision 1, credited to ``author`` if given.

        Raises:
            InvalidInputError: ``document`` is not a ``ProcessedDocument``, or would
                not read back (``details["field"]`` names the field); nothing is stored.
            StoreError: The database failed; nothing was stored.
        """
        return self._save(document, author=author)

    def _save(
        self,
        document: ProcessedDocument,
        *,
        author: str | None = None,
        within: Callable[[Connection, TextListItem], None] | None = None,
    ) -> TextListItem:
        """:meth:`save`, with ``within(connection, item)`` run in the same transaction.

        A job queue records the job's end there, so the text is stored once per job:
        if ``within`` raises, nothing is stored.
        """
        doc = check_document(document)
        author = revs.check_author(author)
        body = stored_body(doc)  # first: nothing below may trust a document not checked
        meta = doc.source_metadata
        base = base_slug(meta.publication_title, meta.work_title)
        with self._errors("save the text"):
            for _ in range(_SLUG_ATTEMPTS):
                inserted = False
                try:
                    with self._session() as session:
                        taken = session.exec(select(TextRow.slug).where(family(base))).all()
                        now = _now()
                        row = TextRow(
                            slug=next_slug(base, taken),
                            created_at=now,
                            updated_at=now,
                            **columns(doc),
                        )
                        session.add(row)
                        session.flush()  # the slug's unique constraint is checked here
                        inserted = True
                        assert row.id is not None
                        session.add(BodyRow(text_id=row.id, body=body))
                        session.add(revs.first_revision(row.id, now, author))
                        item = list_item(row)
                        if within is not None:
                            within(session.connection(), item)
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

    async def asave(
        self, document: ProcessedDocument, *, author: str | None = None
    ) -> TextListItem:
        """Async twin of :meth:`save`."""
        return await anyio.to_thread.run_sync(partial(self.save, document, author=author))

    def get(
        self, slug: str, *, include_source_ids: bool = False, revision: int | None = None
    ) -> ProcessedDocument:
        """The complete stored document, current or as it was at ``revision``.

        The document's notebook view (``_repr_html_``) shows its revision and, for
        an older one, what differs from the current one.

        Args:
            slug: The text's slug, as :meth:`save` or :meth:`list` gave it.
            include_source_ids: Keep the online library's ``work_id``,
                ``first_page_id`` and ``last_page_id``. By default they are ``None``,
                as the HTTP API serves the document.
            revision: A revision number from :meth:`revisions`; ``None`` is the current.

        Raises:
            InvalidSlugError: ``slug`` is malformed (checked before any query).
            NotFoundError: No text has this slug, or it has no such revision.
        """
        slug = check_slug(slug)
        if revision is not None:
            return self._get_revision(slug, self._check_revision(revision), include_source_ids)
        with self._errors("read the text"), self._connection() as conn:
            found = conn.execute(GET_BODY, {"slug": slug}).first()
        document = self._document(slug, found, include_source_ids=include_source_ids)
        assert found is not None
        note_revision(document, current_note(found.revision))
        return document

    async def aget(
        self, slug: str, *, include_source_ids: bool = False, revision: int | None = None
    ) -> ProcessedDocument:
        """Async twin of :meth:`get`."""
        return await anyio.to_thread.run_sync(
            partial(self.get, slug, include_source_ids=include_source_ids, revision=revision)
        )

    def export(
        self,
        slug: str,
        format: str,
        path_or_file: str | os.PathLike[str] | IO[bytes] | None = None,
        *,
        revision: int | None = None,
        layout: str = "side-by-side",
    ) -> bytes | None:
        """The stored text as a publishable file (see :func:`libtext.export.export`).

        The file names the revision it was made from: the current one, or ``revision``.

        Args:
            slug: The text's slug.
            format: ``"docx"``, ``"epub"``, ``"md"``, ``"tei"`` or ``"html"``.
            path_or_file: Where to write (a path or a binary file); ``None`` returns bytes.
            revision: A revision number from :meth:`revisions`; ``None`` is the current.
            layout: ``"side-by-side"`` or ``"interleaved"``.

        Raises:
            InvalidInputError: Unknown format or layout, malformed slug.
            NotFoundError: No text has this slug, or it has no such revision.
        """
        from libtext.export import export, format_for

        fmt = format_for(format)  # before any query: a typo costs nothing
        document = self.get(slug, revision=revision)
        return export(document, fmt, path_or_file, layout=layout)

    async def aexport(
        self,
        slug: str,
        format: str,
        path_or_file: str | os.PathLike[str] | IO[bytes] | None = None,
        *,
        revision: int | None = None,
        layout: str = "side-by-side",
    ) -> bytes | None:
        """Async twin of :meth:`export`."""
        return await anyio.to_thread.run_sync(
            partial(self.export, slug, format, path_or_file, revision=revision, layout=layout)
        )

    def _tagged(self, slug: str, revision: int | None = None) -> tuple[ProcessedDocument, str]:
        """The public document, as :meth:`get`, and the tag ``edit_section`` checks.

        Read in one transaction, for the HTTP adapter (its ``ETag``): the tag changes
        with every revision, and between two texts that held the same slug in turn.
        """
        slug = check_slug(slug)
        number = None if revision is None else self._check_revision(revision)
        with self._errors("read the text"), self._connection(snapshot=number is not None) as conn:
            if number is None:
                found = conn.execute(GET_TAGGED_BODY, {"slug": slug}).first()
                created = found.created_at if found is not None else None
            else:
                found, current, _ = self._read_revision(conn, slug, number)
                created = current.created_at
        document = self._document(slug, found)
        assert found is not None and created is not None
        return document, revs.etag(found.revision, created)

    def _document(
        self, slug: str, found: Any, *, include_source_ids: bool = False
    ) -> ProcessedDocument:
        if found is None:
            raise revs.not_found(slug)
        try:
            document = ProcessedDocument.model_validate_json(found.body)
        except pydantic.ValidationError as exc:
            raise StoreError(
                f"The stored text {slug!r} could not be read back ({exc.error_count()} "
                "validation errors); it was written by an incompatible libtext.",
                details={"slug": slug},
            ) from None
        if not include_source_ids:
            # What public() gives, without its copy (a tenth of a small get): the
            # document was just made from the stored JSON and nothing else holds it.
            document.work_id = document.first_page_id = document.last_page_id = None
        return document

    def delete(self, slug: str) -> None:
        """Remove the text ``slug``, its document and its history.

        Raises:
            InvalidSlugError: ``slug`` is malformed.
            NotFoundError: No text has this slug.
        """
        slug = check_slug(slug)
        with self._errors("delete the text"), self._session() as session:
            # Locked first, as an edit locks it: a delete and an edit of one text then
            # take their locks in the same order (PostgreSQL), and cannot deadlock.
            mine = select(TextRow.id).where(TextRow.slug == slug).with_for_update()
            text_id = session.exec(mine).first()
            if text_id is None:
                raise revs.not_found(slug)
            session.execute(sa.delete(RevisionRow).where(col(RevisionRow.text_id) == text_id))
            session.execute(sa.delete(BodyRow).where(col(BodyRow.text_id) == text_id))
            session.execute(sa.delete(TextRow).where(col(TextRow.id) == text_id))

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
        page, page_size = check_page(page, page_size)
        with self._errors("list the texts"), self._connection(snapshot=True) as conn:
            total, rows = self._page(conn, page, page_size)
        return response(page, page_size, total, rows)

    async def alist(
        self, page: int = 1, page_size: int = DEFAULT_PAGE_SIZE
    ) -> PaginatedTextsResponse:
        """Async twin of :meth:`list`."""
        return await anyio.to_thread.run_sync(partial(self.list, page, page_size))

    def data_version(self, *, wait: bool = True) -> Hashable | None:
        """A value that changes whenever a write to the stored texts commits.

        Whoever writes: this store, another ``TextStore`` or process, or SQL by hand
        (database triggers keep it). Compare two values with ``==`` only. To cache
        something made from the texts, read the value *before* reading them and keep
        both: the answer is current while ``data_version()`` stays equal to it.

        Args:
            wait: ``False`` answers only when no query is needed (SQLite: about 5 us,
                never waiting for a writer, so safe on an event loop) and is ``None``
                otherwise (PostgreSQL, a store not used yet, a file busy right now).

        Raises:
            StoreError: The database failed (only when ``wait``).
        """
        local = self._local
        if not wait:  # the fast path of every cached HTTP read: nothing but the probe
            if local is None or not self._ready or self._closed:
                return None
            try:
                return local.current()
            except sqlite3.Error:
                return None
        with self._errors("read the data version"):
            self._ensure_schema()
            if local is not None:
                try:
                    return local.current()
                except sqlite3.Error:
                    pass  # busy: ask the revision row, which the triggers keep too
            with self._connection() as conn:
                revision: int = conn.execute(REVISION).scalar_one()
        return revision

    async def adata_version(self) -> Hashable | None:
        """Async twin of :meth:`data_version`: on the event loop where no query is needed."""
        if (version := self.data_version(wait=False)) is not None:
            return version
        return await anyio.to_thread.run_sync(self.data_version)

    def _page(self, conn: Connection, page: int, page_size: int) -> tuple[int, builtins.list[Any]]:
        """The total and the rows of one page, newest first."""
        offset = (page - 1) * page_size
        total: int = conn.execute(COUNT).scalar_one()
        if offset >= total:
            return total, []
        limit = min(page_size, total - offset)
        from_oldest = total - offset - limit
        if from_oldest < offset:
            params = {"offset": from_oldest, "limit": limit}
            return total, builtins.list(conn.execute(OLDEST_FIRST, params))[::-1]
        return total, builtins.list(conn.execute(NEWEST_FIRST, {"offset": offset, "limit": limit}))
