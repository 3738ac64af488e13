"""The review methods of :class:`~libtext.TextStore`: history, section edits, reverts.

A mixin only to keep the store's ``__init__`` readable: the write path itself is in
``libtext.store._revisions``, and these methods are ``TextStore``'s public API.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from functools import partial
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import anyio
import pydantic
import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlmodel import Session, col

import libtext.store._revisions as revs
from libtext._html import RevisionNote, current_note, note_revision
from libtext.errors import InvalidInputError
from libtext.models import (
    ProcessedDocument,
    Section,
    SectionEdit,
    SectionEditResult,
    TextDiff,
    TextListItem,
    TextRevision,
    TextRevisionsResponse,
)
from libtext.store._diff import text_diff
from libtext.store._packing import unpack_body
from libtext.store._queries import GET_TAGGED_BODY, check_document, columns, list_item, utc
from libtext.store._slugs import check_slug
from libtext.store._tables import RevisionRow, TextRow

__all__ = ["ReviewMethods"]


def _now() -> datetime:
    return datetime.now(UTC)


class ReviewMethods:
    """Revisions, edits and reverts of stored texts (mixed into ``TextStore``)."""

    if TYPE_CHECKING:  # provided by TextStore

        def _errors(self, operation: str) -> AbstractContextManager[None]: ...
        def _session(self) -> AbstractContextManager[Session]: ...
        def _connection(
            self, *, write: bool = False, snapshot: bool = False
        ) -> AbstractContextManager[Connection]: ...
        def _document(
            self, slug: str, found: Any, *, include_source_ids: bool = False
        ) -> ProcessedDocument: ...

    def _revise(
        self,
        slug: str,
        operation: str,
        make: Callable[[], revs.Change],
        *,
        author: str | None,
        expected_revision: int | None,
        expected_etag: str | None = None,
    ) -> tuple[TextRow, TextRevision, ProcessedDocument]:
        slug = check_slug(slug)
        author = revs.check_author(author)
        if expected_revision is not None and (
            isinstance(expected_revision, bool)
            or not isinstance(expected_revision, int)
            or expected_revision < 1
        ):
            raise InvalidInputError(
                f"expected_revision must be a revision number (1 or more) or None, got "
                f"{expected_revision!r}.",
                details={"field": "expected_revision"},
            )
        if expected_etag is not None and not isinstance(expected_etag, str):
            raise InvalidInputError(
                f"expected_etag must be the ETag string of GET /api/texts/{{slug}}, got "
                f"{type(expected_etag).__name__}.",
                details={"field": "expected_etag"},
            )
        change = make()
        with self._errors(operation), self._session() as session:
            row, revision, document = revs.revise(
                session,
                slug,
                change,
                now=_now(),
                author=author,
                expected_revision=expected_revision,
                expected_etag=expected_etag,
                columns=columns,
            )
            session.expunge(row)
            return row, revision, document

    def update(
        self,
        slug: str,
        document: ProcessedDocument,
        *,
        author: str | None = None,
        expected_revision: int | None = None,
    ) -> TextListItem:
        """Replace the stored text ``slug`` with ``document`` as its next revision, atomically.

        The slug and ``created_at`` stay; ``updated_at`` moves forward; the replaced
        document stays readable as the previous revision. New titles are stored but
        do not change the slug.

        Args:
            author: Who made the change, kept in the history.
            expected_revision: The revision the change was based on; if the text is
                at another one now, nothing is written and :class:`ConflictError` says
                who changed it and when. ``None`` replaces whatever is current.

        Raises:
            InvalidSlugError: ``slug`` is malformed.
            InvalidInputError: ``document`` would not read back; nothing is written.
            NotFoundError: No text has this slug.
            ConflictError: The text is no longer at ``expected_revision``.
        """
        doc = check_document(document)
        row, _, _ = self._revise(
            slug,
            "update the text",
            lambda: revs.replace_with(doc),
            author=author,
            expected_revision=expected_revision,
        )
        return list_item(row)

    async def aupdate(
        self,
        slug: str,
        document: ProcessedDocument,
        *,
        author: str | None = None,
        expected_revision: int | None = None,
    ) -> TextListItem:
        """Async twin of :meth:`update`."""
        return await anyio.to_thread.run_sync(
            partial(self.update, slug, document, author=author, expected_revision=expected_revision)
        )

    def edit_section(
        self,
        slug: str,
        sequence_id: int,
        edit: SectionEdit | None = None,
        *,
        chapter_title: str | None = None,
        segment_title: str | None = None,
        translation_data: builtins.list[Any] | None = None,
        footnotes: builtins.list[Any] | None = None,
        expected_revision: int | None = None,
        expected_etag: str | None = None,
        author: str | None = None,
    ) -> SectionEditResult:
        """Change one section of a stored text, as its next revision.

        Give the new values as keywords (``None`` leaves a field as it is) or as a
        :class:`~libtext.models.SectionEdit` merge patch. A phrase's ``sefaria_link``
        may only be removed (``""``), kept, or set to what the citation linker gives
        for the phrase's Hebrew or for Hebrew citation text (stored as its link).

        Args:
            expected_revision: The revision the edit was based on (see :meth:`update`).
            expected_etag: The ``ETag`` the HTTP adapter sent with the text (its
                ``If-Match``): like ``expected_revision``, and also refuses another
                text stored later under the same slug.
            author: Who made the change, kept in the history.

        Returns:
            The new revision and the section as stored.

        Raises:
            InvalidInputError: A field has the wrong type or a link the linker does
                not give (``details["field"]`` names it); nothing is written.
            NotFoundError: No text has this slug, or no section this ``sequence_id``.
            ConflictError: The text is no longer at the expected revision.
        """
        given = {
            name: value
            for name, value in (
                ("chapter_title", chapter_title),
                ("segment_title", segment_title),
                ("translation_data", translation_data),
                ("footnotes", footnotes),
            )
            if value is not None
        }
        if isinstance(sequence_id, bool) or not isinstance(sequence_id, int):
            raise InvalidInputError(
                f"sequence_id must be a section's integer sequence_id, got {sequence_id!r}.",
                details={"field": "sequence_id"},
            )
        if edit is not None and not isinstance(edit, SectionEdit):
            raise InvalidInputError(
                f"edit must be a SectionEdit or None, not {type(edit).__name__}.",
                details={"field": "edit"},
            )
        try:
            # Validated again: a SectionEdit changed by assignment is not checked.
            base = edit.model_dump(exclude_unset=True) if edit is not None else {}
            patch = SectionEdit.model_validate({**base, **given})
        except pydantic.ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(p) for p in first["loc"])
            raise InvalidInputError(
                f"The section edit is invalid: {field}: {first['msg']}.",
                details={"field": field},
            ) from None
        out: builtins.list[Section] = []
        row, revision, _ = self._revise(
            slug,
            "edit the text",
            lambda: revs.edit_with(sequence_id, patch, out),
            author=author,
            expected_revision=expected_revision,
            expected_etag=expected_etag,
        )
        return SectionEditResult(
            slug=row.slug,
            revision=revision,
            section=out[-1],
            etag=revs.etag(row.revision, row.created_at),
        )

    async def aedit_section(
        self,
        slug: str,
        sequence_id: int,
        edit: SectionEdit | None = None,
        *,
        chapter_title: str | None = None,
        segment_title: str | None = None,
        translation_data: builtins.list[Any] | None = None,
        footnotes: builtins.list[Any] | None = None,
        expected_revision: int | None = None,
        expected_etag: str | None = None,
        author: str | None = None,
    ) -> SectionEditResult:
        """Async twin of :meth:`edit_section`."""
        call = partial(
            self.edit_section,
            slug,
            sequence_id,
            edit,
            chapter_title=chapter_title,
            segment_title=segment_title,
            translation_data=translation_data,
            footnotes=footnotes,
            expected_revision=expected_revision,
            expected_etag=expected_etag,
            author=author,
        )
        return await anyio.to_thread.run_sync(call)

    def revert(
        self,
        slug: str,
        revision: int,
        *,
        author: str | None = None,
        expected_revision: int | None = None,
        expected_etag: str | None = None,
    ) -> TextRevision:
        """Make revision ``revision`` of the text current again, as a new revision.

        Nothing is lost: the revisions after it stay in the history.

        Args:
            expected_revision: The revision the revert was decided on (see :meth:`update`).
            expected_etag: The ``ETag`` the HTTP adapter sent (its ``If-Match``).

        Raises:
            NotFoundError: No text has this slug, or it has no such revision.
            ConflictError: The text is no longer at ``expected_revision``.
        """
        return self._revert_tagged(
            slug,
            revision,
            author=author,
            expected_revision=expected_revision,
            expected_etag=expected_etag,
        )[0]

    def _revert_tagged(
        self,
        slug: str,
        revision: int,
        *,
        author: str | None = None,
        expected_revision: int | None = None,
        expected_etag: str | None = None,
    ) -> tuple[TextRevision, str]:
        """:meth:`revert`, and the text's new tag (the HTTP adapter's next ``ETag``)."""
        number = self._check_revision(revision)
        row, made, _ = self._revise(
            slug,
            "revert the text",
            lambda: revs.revert_to(check_slug(slug), number),
            author=author,
            expected_revision=expected_revision,
            expected_etag=expected_etag,
        )
        return made, revs.etag(row.revision, row.created_at)

    async def arevert(
        self,
        slug: str,
        revision: int,
        *,
        author: str | None = None,
        expected_revision: int | None = None,
        expected_etag: str | None = None,
    ) -> TextRevision:
        """Async twin of :meth:`revert`."""
        return await anyio.to_thread.run_sync(
            partial(
                self.revert,
                slug,
                revision,
                author=author,
                expected_revision=expected_revision,
                expected_etag=expected_etag,
            )
        )

    def diff(self, slug: str, *, from_revision: int, to_revision: int | None = None) -> TextDiff:
        """What differs between two revisions of the text, section by section and phrase
        by phrase (:class:`~libtext.models.TextDiff`).

        Args:
            from_revision: The older revision (see :meth:`revisions`).
            to_revision: The newer one; ``None`` is the current revision.

        Raises:
            InvalidSlugError: ``slug`` is malformed.
            NotFoundError: No text has this slug, or it has no such revision.
        """
        slug = check_slug(slug)
        old_number = self._check_revision(from_revision)
        new_number = None if to_revision is None else self._check_revision(to_revision)
        with self._errors("compare the revisions"), self._connection(snapshot=True) as conn:
            old_row, current, _ = self._read_revision(conn, slug, old_number)
            if new_number is None or new_number == current.revision:
                new_number, new_row = current.revision, current
            else:
                new_row = self._read_revision(conn, slug, new_number)[0]
        old = self._document(slug, old_row, include_source_ids=False)
        new = self._document(slug, new_row, include_source_ids=False)
        return text_diff(slug, old, new, old_number, new_number)

    async def adiff(
        self, slug: str, *, from_revision: int, to_revision: int | None = None
    ) -> TextDiff:
        """Async twin of :meth:`diff`."""
        return await anyio.to_thread.run_sync(
            partial(self.diff, slug, from_revision=from_revision, to_revision=to_revision)
        )

    def revisions(self, slug: str) -> TextRevisionsResponse:
        """The text's history, oldest first: number, time, author, what changed.

        Raises:
            InvalidSlugError: ``slug`` is malformed.
            NotFoundError: No text has this slug.
        """
        slug = check_slug(slug)
        with self._errors("read the history"), self._connection(snapshot=True) as conn:
            found = conn.execute(
                sa.select(col(TextRow.id), col(TextRow.revision)).where(col(TextRow.slug) == slug)
            ).first()
            if found is None:
                raise revs.not_found(slug)
            history = revs.history(conn, found.id)
        return TextRevisionsResponse(slug=slug, revision=found.revision, revisions=history)

    async def arevisions(self, slug: str) -> TextRevisionsResponse:
        """Async twin of :meth:`revisions`."""
        return await anyio.to_thread.run_sync(partial(self.revisions, slug))

    @staticmethod
    def _check_revision(revision: object) -> int:
        if isinstance(revision, bool) or not isinstance(revision, int) or revision < 1:
            raise InvalidInputError(
                f"revision must be a revision number, 1 or more, got {revision!r}.",
                details={"field": "revision"},
            )
        return revision

    def _read_revision(self, conn: Connection, slug: str, number: int) -> tuple[Any, Any, Any]:
        """(the revision's body row, the current body row, the revision's history row)."""
        current = conn.execute(GET_TAGGED_BODY, {"slug": slug}).first()
        if current is None:
            raise revs.not_found(slug)
        if number == current.revision:
            return current, current, None
        text_id = conn.execute(
            sa.select(col(TextRow.id)).where(col(TextRow.slug) == slug)
        ).scalar_one()
        meta: Any = conn.execute(
            sa.select(
                col(RevisionRow.body),
                col(RevisionRow.number).label("revision"),
                col(RevisionRow.created_at),
                col(RevisionRow.author),
            ).where(col(RevisionRow.text_id) == text_id, col(RevisionRow.number) == number)
        ).first()
        if meta is None or meta.body is None or number > current.revision:
            raise revs.revision_not_found(slug, number, current.revision)
        meta = SimpleNamespace(**meta._asdict())
        meta.body = unpack_body(meta.body)  # kept compressed (libtext.store._packing)
        return meta, current, meta

    def _get_revision(self, slug: str, number: int, include_source_ids: bool) -> ProcessedDocument:
        with self._errors("read the text"), self._connection(snapshot=True) as conn:
            found, current, meta = self._read_revision(conn, slug, number)
        document = self._document(slug, found, include_source_ids=include_source_ids)
        if meta is None:
            note_revision(document, current_note(number))
            return document
        now = self._document(slug, current, include_source_ids=include_source_ids)
        note = RevisionNote(
            number,
            current.revision,
            created_at=utc(meta.created_at),
            author=meta.author,
            differences=tuple(revs.differences(document, now)),
        )
        note_revision(document, note)
        return document
