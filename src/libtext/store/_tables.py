"""The tables behind :class:`~libtext.TextStore` (SQLModel) and their schema version.

Four tables, all prefixed ``libtext_`` so they can share a database with others:

``libtext_texts``
    One row per stored text: the slug, the list columns and the source ids. The
    list query reads only this table, through the ``(created_at, id)`` index.
``libtext_text_bodies``
    The whole :class:`~libtext.models.ProcessedDocument` as JSON, one row per
    text, read only by ``get``. Kept apart so listing never loads a body.
``libtext_text_revisions``
    One row per revision of a text: its number, time, author and what changed,
    and the document as it was once a later revision replaced it (the current
    revision's document is the one in ``libtext_text_bodies``, never copied). Read
    only by the history, old-revision and revert paths: ``list`` and ``get`` never
    touch it, so old revisions cost them nothing.
``libtext_meta``
    Integer settings by key: ``schema_version``, ``text_count`` (so ``list``
    reads the total without a ``COUNT(*)`` that grows with the table) and
    ``revision`` (bumped by every write, so a read cache in any process can tell
    that its answers are still current). The database keeps the last two itself,
    by triggers, in the writer's transaction (``libtext.store._triggers``): they
    stay right whoever writes the tables.

The tables live in their own SQLAlchemy registry, not ``SQLModel.metadata``, so an
application's own SQLModel tables and ``create_all`` never pick them up.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Index, String, Text
from sqlalchemy.orm import registry
from sqlmodel import Field, SQLModel

__all__ = [
    "META_REVISION",
    "META_SCHEMA_VERSION",
    "META_TEXT_COUNT",
    "SCHEMA_VERSION",
    "BodyRow",
    "MetaRow",
    "RevisionRow",
    "TextRow",
    "metadata",
]

SCHEMA_VERSION = 4
"""Bump when the tables change, and add the step to ``_engine.MIGRATIONS``.

2: the ``revision`` row. A libtext that knows only version 1 would write without
bumping it, leaving other processes' caches stale, so it must refuse the database.
3: ``libtext_texts.revision`` and ``libtext_text_revisions``. A libtext that knows
only version 2 would replace a text without keeping its history or checking its
revision, so it must refuse the database.
4: triggers keep ``text_count`` and ``revision``. A libtext that knows only version 3
would move them by hand as well, counting its own writes twice.
"""

META_SCHEMA_VERSION = "schema_version"
META_TEXT_COUNT = "text_count"
META_REVISION = "revision"

_registry = registry()
metadata = _registry.metadata


# Byte order on PostgreSQL too, so a slug family is one range of the unique index
# (SQLite compares bytes already; a locale collation would skip the hyphens).
_SLUG_TYPE = String(80).with_variant(String(80, collation="C"), "postgresql")


class _Base(SQLModel, registry=_registry):
    pass


class TextRow(_Base, table=True):
    """A stored text's list entry and source identifiers."""

    __tablename__ = "libtext_texts"
    __table_args__ = (Index("ix_libtext_texts_created_id", "created_at", "id"),)

    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(sa_type=_SLUG_TYPE, unique=True)
    publication_title: str = Field(default="", sa_type=Text)
    work_title: str = Field(default="", sa_type=Text)
    author_name: str = Field(default="", sa_type=Text)
    page_count: int = 0
    work_id: str | None = Field(default=None, sa_type=Text)
    first_page_id: str | None = Field(default=None, sa_type=Text)
    last_page_id: str | None = Field(default=None, sa_type=Text)
    created_at: datetime = Field(sa_type=DateTime(timezone=True))
    updated_at: datetime = Field(sa_type=DateTime(timezone=True))
    revision: int = Field(default=1, sa_column_kwargs={"server_default": "1"})


class BodyRow(_Base, table=True):
    """A stored text's whole document as JSON."""

    __tablename__ = "libtext_text_bodies"

    text_id: int = Field(primary_key=True, foreign_key="libtext_texts.id", ondelete="CASCADE")
    body: str = Field(sa_type=Text)


class RevisionRow(_Base, table=True):
    """One revision of a stored text; ``body`` is kept once a later revision replaced it."""

    __tablename__ = "libtext_text_revisions"

    text_id: int = Field(primary_key=True, foreign_key="libtext_texts.id", ondelete="CASCADE")
    number: int = Field(primary_key=True)
    created_at: datetime = Field(sa_type=DateTime(timezone=True))
    author: str | None = Field(default=None, sa_type=Text)
    change: str = Field(max_length=20)
    sections: str = Field(default="[]", sa_type=Text)  # JSON list of sequence ids
    reverted_to: int | None = None
    body: str | None = Field(default=None, sa_type=Text)


class MetaRow(_Base, table=True):
    """An integer setting of the store (schema version, text count, revision)."""

    __tablename__ = "libtext_meta"

    key: str = Field(primary_key=True, max_length=40)
    value: int
