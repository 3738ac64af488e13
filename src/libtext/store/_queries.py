"""Queries and row helpers of :class:`~libtext.TextStore`, built once at import.

SQLAlchemy reuses the compiled form of a statement object, so the hot reads
(a list page, a body) are module constants here rather than built per call.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import URL
from sqlmodel import and_, col, or_

from libtext.errors import InvalidInputError
from libtext.models import (
    PaginatedTextsResponse,
    PaginationInfo,
    ProcessedDocument,
    TextListItem,
)
from libtext.store._data_version import LocalRevision
from libtext.store._tables import META_REVISION, META_TEXT_COUNT, BodyRow, MetaRow, TextRow

__all__ = [
    "COUNT",
    "DEFAULT_PAGE_SIZE",
    "GET_BODY",
    "GET_TAGGED_BODY",
    "MAX_PAGE_SIZE",
    "NEWEST_FIRST",
    "OLDEST_FIRST",
    "REVISION",
    "check_document",
    "check_page",
    "columns",
    "family",
    "list_item",
    "local_revision",
    "response",
    "utc",
]

DEFAULT_PAGE_SIZE = 20
MAX_PAGE_SIZE = 100

# Read statements are built once: SQLAlchemy then reuses their compiled form.
LIST_COLUMNS = (
    col(TextRow.slug),
    col(TextRow.publication_title),
    col(TextRow.work_title),
    col(TextRow.author_name),
    col(TextRow.page_count),
    col(TextRow.created_at),
    col(TextRow.updated_at),
)


def page_query(*, newest_first: bool) -> sa.Select[str, str, str, str, int, datetime, datetime]:
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
    return sa.select(*LIST_COLUMNS).where(ident.in_(page_ids)).order_by(*order)


NEWEST_FIRST = page_query(newest_first=True)
OLDEST_FIRST = page_query(newest_first=False)
COUNT = sa.select(col(MetaRow.value)).where(col(MetaRow.key) == META_TEXT_COUNT)
REVISION = sa.select(col(MetaRow.value)).where(col(MetaRow.key) == META_REVISION)
GET_BODY = (
    sa.select(col(BodyRow.body), col(TextRow.revision))
    .join(TextRow, col(TextRow.id) == col(BodyRow.text_id))
    .where(col(TextRow.slug) == sa.bindparam("slug"))
)
# With the creation time, for the ETag (parsing a datetime is a few us: not in ``get``).
GET_TAGGED_BODY = (
    sa.select(col(BodyRow.body), col(TextRow.revision), col(TextRow.created_at))
    .join(TextRow, col(TextRow.id) == col(BodyRow.text_id))
    .where(col(TextRow.slug) == sa.bindparam("slug"))
)


def family(base: str) -> sa.ColumnElement[bool]:
    """``base`` and the slugs that start with ``base-``, as one range of the slug index."""
    slug = col(TextRow.slug)
    return or_(slug == base, and_(slug > base + "-", slug < base + "."))  # "." follows "-"


def utc(value: datetime) -> datetime:
    # SQLite hands back naive datetimes; they were written as UTC.
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def list_item(row: Any) -> TextListItem:
    # Our own table's columns have the model's types already: no validation (a third
    # of a 20-row list). utc does what the UtcDatetime validator would.
    return TextListItem.model_construct(
        slug=row.slug,
        publication_title=row.publication_title,
        work_title=row.work_title,
        author_name=row.author_name,
        page_count=row.page_count,
        created_at=utc(row.created_at),
        updated_at=utc(row.updated_at),
    )


def columns(document: ProcessedDocument) -> dict[str, Any]:
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


def response(page: int, page_size: int, total: int, rows: Any) -> PaginatedTextsResponse:
    return PaginatedTextsResponse(
        texts=[list_item(row) for row in rows],
        pagination=PaginationInfo.of(page=page, page_size=page_size, total=total),
    )


def check_document(document: object) -> ProcessedDocument:
    if not isinstance(document, ProcessedDocument):
        raise InvalidInputError(
            f"TextStore stores ProcessedDocument objects, not {type(document).__name__}; "
            "build one with ProcessedDocument.model_validate(...) or process_document(...).",
        )
    return document


def local_revision(url: URL) -> LocalRevision | None:
    """The event-loop-safe revision probe of a plain SQLite URL, else ``None``."""
    if url.get_backend_name() != "sqlite" or url.get_driver_name() != "pysqlite":
        return None
    if "uri" in url.query or "mode" in url.query:
        return None  # URI filenames, shared-cache memory: read the revision row instead
    if url.database in (None, "", ":memory:"):
        return LocalRevision(None)
    return LocalRevision(os.path.abspath(url.database))


def check_page(page: object, page_size: object) -> tuple[int, int]:
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
