"""Revisions of stored texts: history rows, optimistic concurrency, section edits.

How a change is written (``revise``), in one write transaction:

1. The text's row is locked (``SELECT ... FOR UPDATE`` on PostgreSQL; SQLite's
   ``BEGIN IMMEDIATE`` already serializes writers), so two edits of one text run
   one after the other and the second reads what the first wrote: no edit is lost.
2. If the caller named the revision it read (``expected_revision``, or an ETag), a
   text now at another revision refuses the change with :class:`ConflictError`,
   naming who made the current revision and when.
3. The new body is checked by a round trip (``_check``), the old body moves
   into the current revision's history row, the new one replaces it in
   ``libtext_text_bodies``, and a history row for the new revision is added.

The current document is never copied into the history, so a save costs one small
row more, and ``list``/``get`` never read the history table. A replaced body is kept
compressed (``libtext.store._packing``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlmodel import Session, col, select

from libtext.errors import ConflictError, InvalidInputError, NotFoundError, StoreError
from libtext.hebrew import name_problem
from libtext.models import (
    Footnote,
    ProcessedDocument,
    Section,
    SectionEdit,
    TextRevision,
    TranslationData,
    format_utc,
)
from libtext.store._check import stored_body
from libtext.store._packing import pack_body, unpack_body
from libtext.store._tables import BodyRow, RevisionRow, TextRow, metadata

__all__ = [
    "EDIT",
    "REVERT",
    "SAVE",
    "UPDATE",
    "Change",
    "apply_section_edit",
    "changed_sections",
    "check_author",
    "differences",
    "edit_with",
    "etag",
    "first_revision",
    "history",
    "linker_links",
    "migrate_to_revisions",
    "not_found",
    "parse_etag",
    "replace_with",
    "revert_to",
    "revise",
    "revision_model",
    "revision_not_found",
    "utc",
]

SAVE: Final = "save"
UPDATE: Final = "update"
EDIT: Final = "edit"
REVERT: Final = "revert"

MAX_AUTHOR: Final = 200


def utc(value: datetime) -> datetime:
    """SQLite hands back naive datetimes; they were written as UTC."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def not_found(slug: str) -> NotFoundError:
    return NotFoundError(
        f"No stored text has the slug {slug!r}; list the stored texts "
        "(TextStore.list()) to find one.",
        details={"slug": slug},
    )


# --- ETags --------------------------------------------------------------------------


def etag(revision: int, created_at: datetime) -> str:
    """The strong ETag of a text at ``revision``: ``"<revision>-<creation in us, hex>"``.

    The creation time tells apart two texts that held the same slug in turn (a
    deleted text's slug can be given again), so an ETag never matches another text.
    """
    stamp = int(utc(created_at).timestamp() * 1_000_000)
    return f'"{revision}-{stamp:x}"'


def parse_etag(value: str) -> tuple[int, str] | None:
    """``(revision, the whole ETag)`` of one of our ETags, else ``None``."""
    value = value.strip()
    if len(value) < 5 or value[0] != '"' or value[-1] != '"':
        return None
    number, dash, stamp = value[1:-1].partition("-")
    if not dash or not number.isdigit() or not stamp.isalnum() or len(number) > 12:
        return None
    return int(number), value


# --- history rows -------------------------------------------------------------------


def first_revision(text_id: int, now: datetime, author: str | None) -> RevisionRow:
    """The history row of a new text (revision 1)."""
    return RevisionRow(text_id=text_id, number=1, created_at=now, author=author, change=SAVE)


def revision_model(row: Any) -> TextRevision:
    return TextRevision(
        number=row.number,
        created_at=utc(row.created_at),
        change=row.change,
        author=row.author,
        sections=json.loads(row.sections or "[]"),
        reverted_to=row.reverted_to,
    )


_HISTORY_COLUMNS = (
    col(RevisionRow.number),
    col(RevisionRow.created_at),
    col(RevisionRow.change),
    col(RevisionRow.author),
    col(RevisionRow.sections),
    col(RevisionRow.reverted_to),
)


def history(conn: Connection, text_id: int) -> list[TextRevision]:
    """Every revision of a text, oldest first (without bodies)."""
    rows = conn.execute(
        sa.select(*_HISTORY_COLUMNS)
        .where(col(RevisionRow.text_id) == text_id)
        .order_by(col(RevisionRow.number))
    )
    return [revision_model(row) for row in rows]


def check_author(author: object) -> str | None:
    if author is None:
        return None
    if not isinstance(author, str) or len(author) > MAX_AUTHOR or not author.strip():
        raise InvalidInputError(
            f"author must be a non-empty name of at most {MAX_AUTHOR} characters, or None.",
            details={"field": "author"},
        )
    problem = name_problem(author)
    if problem is not None:
        raise InvalidInputError(
            f"author contains {problem}; send the name as plain text.",
            details={"field": "author"},
        )
    return author.strip()


# --- what changed -------------------------------------------------------------------


def _sections_by_id(body: str) -> dict[Any, Any]:
    out: dict[Any, Any] = {}
    for section in json.loads(body).get("sections", []):
        out.setdefault(section.get("sequence_id"), section)
    return out


def changed_sections(old_body: str, new_body: str) -> list[int]:
    """Sequence ids of the sections that differ between two stored bodies (added,
    removed or changed), in the new document's order, then the removed ones."""
    old, new = _sections_by_id(old_body), _sections_by_id(new_body)
    ids = [*new, *(k for k in old if k not in new)]
    return [k for k in ids if isinstance(k, int) and old.get(k) != new.get(k)]


# --- section edits ------------------------------------------------------------------


def linker_links(edit: SectionEdit) -> list[str | None]:
    """For each phrase of ``edit``, the link the linker gives for its ``sefaria_link``.

    That is the link itself when it is the link of a citation the linker finds in
    the phrase's Hebrew, the link of Hebrew citation text the linker resolves, or
    ``None``. Run before the write transaction: the linker's first use loads its
    tables, which must not happen while the text is locked.
    """
    from libtext.sefaria import find_citations, ref_url, resolve

    out: list[str | None] = []
    for phrase in edit.translation_data or ():
        link = phrase.sefaria_link.strip()
        found: str | None = None
        if link:
            cited = {
                c.url for text in (phrase.hebrew_phrase, phrase.hebrew_phrase_expanded)
                for c in find_citations(text)
            }  # fmt: skip
            if link in cited:
                found = link
            elif not link.lower().startswith(("http://", "https://")) and (ref := resolve(link)):
                found = ref_url(ref)
        out.append(found)
    return out


def _check_link(
    phrase: TranslationData, known: set[str], linked: str | None, index: int
) -> TranslationData:
    """The phrase with its Sefaria link as the linker gives it (or refused)."""
    link = phrase.sefaria_link.strip()
    if not link or link in known:
        return phrase.model_copy(update={"sefaria_link": link})
    if linked is not None:
        return phrase.model_copy(update={"sefaria_link": linked})
    field = f"translation_data.{index}.sefaria_link"
    raise InvalidInputError(
        f"{field}: {link[:80]!r} is not a link the Sefaria linker gives for this phrase. "
        "Use '' to remove the link, the link of a citation in the phrase's Hebrew, or "
        "Hebrew citation text the linker resolves (e.g. 'בראשית א, א').",
        details={"field": field},
    )


def apply_section_edit(
    document: ProcessedDocument,
    sequence_id: int,
    edit: SectionEdit,
    linked: list[str | None] | None = None,
) -> tuple[ProcessedDocument, Section]:
    """``document`` with section ``sequence_id`` changed by ``edit`` (a merge patch).

    ``linked`` is :func:`linker_links` of ``edit``, computed here when not given.

    Raises:
        NotFoundError: No section has this ``sequence_id``.
        InvalidInputError: A Sefaria link the linker does not give.
    """
    for position, section in enumerate(document.sections):  # noqa: B007 - used below
        if section.sequence_id == sequence_id:
            break
    else:
        raise NotFoundError(
            f"The text has no section with sequence_id {sequence_id}; its sections are "
            f"numbered {', '.join(str(s.sequence_id) for s in document.sections[:20]) or 'none'}.",
            details={"sequence_id": sequence_id},
        )
    update: dict[str, Any] = {}
    for name in edit.model_fields_set:
        value = getattr(edit, name)
        if value is None:
            value = [] if name in ("translation_data", "footnotes") else ""
        update[name] = value
    if "translation_data" in update:
        known = {p.sefaria_link for p in section.translation_data if p.sefaria_link}
        links = linked if linked is not None else linker_links(edit)
        phrases = [
            _check_link(TranslationData.model_validate(p), known, links[i], i)
            for i, p in enumerate(update["translation_data"])
        ]
        update["translation_data"] = _covering(section, phrases)
    if "footnotes" in update:
        update["footnotes"] = [Footnote.model_validate(n) for n in update["footnotes"]]
    new_section = Section.model_validate({**section.model_dump(), **update})
    complete, notes = section_notes(new_section)
    new_section = new_section.model_copy(update={"complete": complete, "notes": notes})
    sections = list(document.sections)
    sections[position] = new_section
    return document.model_copy(update={"sections": sections}), new_section


def _covering(section: Section, phrases: list[TranslationData]) -> list[TranslationData]:
    """``phrases`` when, in order, they cover the section's Hebrew, and nothing else.

    A phrase without ``hebrew_phrase`` keeps the Hebrew of the phrase at its place in
    the section (an edit of the English only). An empty list removes the translation.

    Raises:
        InvalidInputError: The phrases leave out Hebrew, reorder it or add to it: an edit
            of the English must not lose the phrase split silently.
    """
    from libtext.translate._phrases import letters  # the linker's data: only for an edit

    if not phrases:
        return phrases
    old = section.translation_data
    filled = [
        p.model_copy(update={"hebrew_phrase": old[i].hebrew_phrase})
        if not p.hebrew_phrase and i < len(old)
        else p
        for i, p in enumerate(phrases)
    ]
    block = letters(section.original_hebrew_block)
    done = ""
    for i, phrase in enumerate(filled):
        done += letters(phrase.hebrew_phrase)
        if not block.startswith(done):
            raise InvalidInputError(
                f"translation_data[{i}].hebrew_phrase ({_clip(phrase.hebrew_phrase)!r}) is not "
                f"the Hebrew that follows phrase {i - 1} in the section: the phrases must cover "
                "original_hebrew_block in order, each as printed.",
                details={"field": f"translation_data.{i}.hebrew_phrase", "phrases": len(filled)},
            )
    if done != block:
        raise InvalidInputError(
            f"translation_data covers only the start of the section's Hebrew: its "
            f"{len(filled)} phrase(s) end {len(block) - len(done)} letters before the block "
            f"does (the section had {len(old)} phrases). Send a phrase for every part of "
            "original_hebrew_block, in order, or null to remove the translation.",
            details={"field": "translation_data", "phrases": len(filled), "had": len(old)},
        )
    return filled


def _clip(text: str, size: int = 40) -> str:
    return text if len(text) <= size else text[: size - 1] + "…"


def section_notes(section: Section) -> tuple[bool, list[str]]:
    """``complete`` and ``notes`` of a section as it stands (after an edit).

    Recomputed from the section itself, so an edit never leaves a note about phrases
    that are no longer there; the notes of the provider's run (phrases it repaired or
    left out) describe a translation the edit replaced, and are not kept.
    """
    from libtext.translate._phrases import has_letters

    notes: list[str] = []
    phrases = section.translation_data
    untranslated = sum(
        1 for p in phrases if not p.english_translation and has_letters(p.hebrew_phrase)
    )
    if not phrases and has_letters(section.original_hebrew_block):
        notes.append("The section has no phrases: its Hebrew has no English.")
    if untranslated:
        notes.append(f"{untranslated} of {len(phrases)} phrases have no English.")
    missing = sum(1 for n in section.footnotes if not n.translation and has_letters(n.content))
    if missing:
        notes.append(f"{missing} footnote(s) have no translation.")
    # A note that still holds keeps its fuller wording (the Translator's "why"), so an
    # edit that changes nothing it counts leaves the notes as they were.
    kept = [
        next((old for old in section.notes if old.startswith(note[:-1])), note) for note in notes
    ]
    return not kept, kept


# --- the write path -----------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """What a revision makes of the current document."""

    kind: str
    body: Callable[[Session, TextRow, str], tuple[str, ProcessedDocument]]
    """(session, locked text row, old body) -> (new body, new document)."""
    reverted_to: int | None = None


def _conflict(
    session: Session, row: TextRow, slug: str, expected: int, expected_etag: str | None
) -> ConflictError:
    latest = session.exec(
        select(RevisionRow).where(RevisionRow.text_id == row.id, RevisionRow.number == row.revision)
    ).first()
    who = f" by {latest.author}" if latest is not None and latest.author else ""
    when = f" at {format_utc(utc(latest.created_at))}" if latest is not None else ""
    if expected_etag is not None and parse_etag(expected_etag) is None:
        what = f"{expected_etag[:40]!r} is not an ETag of the text {slug!r} (see its GET)"
    elif expected == row.revision:  # same number, another text under a reused slug
        what = f"The text {slug!r} was deleted and saved again{who}{when}"
    else:
        what = f"The text {slug!r} changed since revision {expected}: revision {row.revision}"
        what += f" was made{who}{when}"
    return ConflictError(
        f"{what}. Nothing was written; read the text again and reapply the change to "
        f"revision {row.revision}.",
        details={
            "slug": slug,
            "expected_revision": expected,
            "current_revision": row.revision,
            "changed_by": latest.author if latest is not None else None,
            "changed_at": format_utc(utc(latest.created_at)) if latest is not None else None,
            "etag": etag(row.revision, row.created_at),
        },
    )


def revise(
    session: Session,
    slug: str,
    change: Change,
    *,
    now: datetime,
    author: str | None,
    expected_revision: int | None,
    expected_etag: str | None,
    columns: Callable[[ProcessedDocument], dict[str, Any]],
) -> tuple[TextRow, TextRevision, ProcessedDocument]:
    """Make ``change`` the text's next revision; see the module docstring."""
    row = session.exec(select(TextRow).where(TextRow.slug == slug).with_for_update()).first()
    if row is None:
        raise not_found(slug)
    assert row.id is not None
    if expected_etag is not None:
        parsed = parse_etag(expected_etag)
        current = etag(row.revision, row.created_at)
        if expected_etag.strip() != current:
            expected = parsed[0] if parsed else 0
            raise _conflict(session, row, slug, expected, expected_etag)
    if expected_revision is not None and expected_revision != row.revision:
        raise _conflict(session, row, slug, expected_revision, None)
    old_body = session.exec(select(BodyRow.body).where(BodyRow.text_id == row.id)).one()
    new_body, document = change.body(session, row, old_body)
    kept_body = pack_body(old_body)  # compressed: history is read rarely (see _packing)
    kept = session.execute(
        sa.update(RevisionRow)
        .where(col(RevisionRow.text_id) == row.id, col(RevisionRow.number) == row.revision)
        .values(body=kept_body)
    )
    if (
        getattr(kept, "rowcount", 1) == 0
    ):  # a text written without history rows (bulk loads): start it
        session.add(
            RevisionRow(
                text_id=row.id,
                number=row.revision,
                created_at=row.updated_at,
                change=SAVE if row.revision == 1 else UPDATE,
                body=kept_body,
            )
        )
    new = RevisionRow(
        text_id=row.id,
        number=row.revision + 1,
        created_at=now,
        author=author,
        change=change.kind,
        sections=json.dumps(changed_sections(old_body, new_body)),
        reverted_to=change.reverted_to,
    )
    session.add(new)
    session.execute(sa.update(BodyRow).where(col(BodyRow.text_id) == row.id).values(body=new_body))
    for name, value in columns(document).items():
        setattr(row, name, value)
    row.revision += 1
    row.updated_at = max(now, utc(row.updated_at) + timedelta(milliseconds=1))
    new.created_at = row.updated_at
    session.add(row)
    session.flush()
    return row, revision_model(new), document


def replace_with(document: ProcessedDocument) -> Change:
    body = stored_body(document)
    return Change(UPDATE, lambda _session, _row, _old: (body, document))


def edit_with(sequence_id: int, edit: SectionEdit, out: list[Section]) -> Change:
    linked = linker_links(edit)  # now, before the text is locked

    def make(_session: Session, _row: TextRow, old_body: str) -> tuple[str, ProcessedDocument]:
        current = ProcessedDocument.model_validate_json(old_body)
        document, section = apply_section_edit(current, sequence_id, edit, linked)
        out.append(section)
        return stored_body(document), document

    return Change(EDIT, make)


def revert_to(slug: str, number: int) -> Change:
    def make(session: Session, row: TextRow, old_body: str) -> tuple[str, ProcessedDocument]:
        if number == row.revision:
            body = old_body
        else:
            found = session.exec(
                select(RevisionRow.body).where(
                    RevisionRow.text_id == row.id, RevisionRow.number == number
                )
            ).first()
            if not 1 <= number <= row.revision or found is None:
                raise revision_not_found(slug, number, row.revision)
            body = unpack_body(found)
        try:
            document = ProcessedDocument.model_validate_json(body)
        except ValueError:
            raise StoreError(
                f"Revision {number} of {slug!r} could not be read back; it was written by "
                "an incompatible libtext.",
                details={"slug": slug, "revision": number},
            ) from None
        return stored_body(document), document

    return Change(REVERT, make, reverted_to=number)


def revision_not_found(slug: str, number: int, current: int) -> NotFoundError:
    return NotFoundError(
        f"The text {slug!r} has no revision {number}: its revisions are 1 to {current} "
        "(see TextStore.revisions, 'libtext texts history' or GET /api/texts/{slug}/revisions).",
        details={"slug": slug, "revision": number, "current_revision": current},
    )


# --- migration ----------------------------------------------------------------------


def migrate_to_revisions(conn: Connection) -> None:
    """Schema 2 -> 3: the texts' revision column and a first history row for each."""
    texts = metadata.tables[TextRow.__tablename__]
    history_table = metadata.tables[RevisionRow.__tablename__]
    columns = {c["name"] for c in sa.inspect(conn).get_columns(TextRow.__tablename__)}
    if "revision" not in columns:
        conn.exec_driver_sql(
            f"ALTER TABLE {TextRow.__tablename__} ADD COLUMN revision INTEGER NOT NULL DEFAULT 1"
        )
    conn.execute(
        history_table.insert().from_select(
            ["text_id", "number", "created_at", "change", "sections"],
            sa.select(
                texts.c.id,
                sa.literal(1),
                texts.c.updated_at,
                sa.literal(SAVE),
                sa.literal("[]"),
            ).where(~texts.c.id.in_(sa.select(history_table.c.text_id))),
        )
    )


def differences(old: ProcessedDocument, current: ProcessedDocument) -> list[str]:
    """What differs between an old revision and the current one, in words."""
    out: list[str] = []
    if old.source_metadata != current.source_metadata:
        out.append("titles or author")
    old_ids = {s.sequence_id: s for s in old.sections}
    new_ids = {s.sequence_id: s for s in current.sections}
    for key in sorted(old_ids.keys() | new_ids.keys()):
        a, b = old_ids.get(key), new_ids.get(key)
        if a is None:
            out.append(f"section {key} added since")
        elif b is None:
            out.append(f"section {key} removed since")
        elif a != b:
            fields = [n for n in Section.model_fields if getattr(a, n) != getattr(b, n)]
            out.append(f"section {key}: {', '.join(fields)}")
    return out
