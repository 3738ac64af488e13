"""HTML views of outlines and processed documents, for Jupyter's ``_repr_html_``.

Hebrew is laid out right-to-left beside its English, footnotes below each section,
Sefaria links clickable. Every piece of text is escaped (titles and translations come
from PDFs and models, and may hold markup), and only ``http(s)`` links become anchors.
"""

from __future__ import annotations

import functools
import weakref
from dataclasses import dataclass
from datetime import datetime
from html import escape
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from libtext.models import DocumentOutline, Footnote, ProcessedDocument, Section

__all__ = [
    "RevisionNote",
    "current_note",
    "document_html",
    "note_revision",
    "outline_html",
    "revision_note",
]


@dataclass(frozen=True, slots=True)
class RevisionNote:
    """Which revision of a stored text a document read from the store is.

    ``differences`` says, for an older revision, what differs from the current one.
    """

    number: int
    current: int
    created_at: datetime | None = None
    author: str | None = None
    differences: tuple[str, ...] = ()


# Kept beside the document, not in it: a private attribute would take part in the
# model's ``==`` and make a document read from the store unequal to the one saved.
# A weak reference with a callback drops the note with its document (weakref.finalize
# would too, at ten times the cost of a whole small ``get``'s bookkeeping).
_NOTES: dict[int, tuple[weakref.ref[Any], RevisionNote]] = {}


@functools.lru_cache(maxsize=256)
def current_note(number: int) -> RevisionNote:
    """The (shared, frozen) note of a document read at its current revision ``number``."""
    return RevisionNote(number, number)


def note_revision(document: object, note: RevisionNote) -> None:
    """Remember ``note`` for ``document`` while it lives (``TextStore.get``)."""
    key = id(document)

    def drop(ref: weakref.ref[Any]) -> None:
        entry = _NOTES.get(key)
        if entry is not None and entry[0] is ref:
            del _NOTES[key]

    _NOTES[key] = (weakref.ref(document, drop), note)


def revision_note(document: object) -> RevisionNote | None:
    """The note ``TextStore.get`` left for ``document``, if any."""
    entry = _NOTES.get(id(document))
    return entry[1] if entry is not None and entry[0]() is document else None


_STYLE = (
    "<style>"
    ".lt-doc{font-family:system-ui,sans-serif;max-width:60em}"
    ".lt-doc table{border-collapse:collapse;width:100%;margin:.4em 0}"
    ".lt-doc td,.lt-doc th{border-top:1px solid #ddd;padding:.25em .5em;vertical-align:top}"
    ".lt-he{direction:rtl;text-align:right;font-size:1.1em}"
    ".lt-pair td{width:50%}"  # Hebrew and English halves; not in the outline table
    ".lt-auto{text-align:start}"  # a summary is Hebrew or English: follow its own direction
    ".lt-en{direction:ltr;text-align:left}"
    ".lt-block{direction:rtl;text-align:right;white-space:pre-wrap}"
    ".lt-err{color:#a00}.lt-muted{color:#777}"
    "</style>"
)


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _he(text: str, tag: str = "span") -> str:
    return f'<{tag} dir="rtl" lang="he">{_e(text)}</{tag}>'


def _link(url: str, label: str = "Sefaria") -> str:
    if not url.startswith(("https://", "http://")):
        return _e(url)
    return f'<a href="{_e(url)}" target="_blank" rel="noopener noreferrer">{_e(label)}</a>'


def _meta(title: str, work: str, author: str) -> str:
    parts = [p for p in (work, title) if p]
    head = " — ".join(parts) or "Untitled"
    by = f'<div class="lt-muted">{_he(author)}</div>' if author else ""
    return f"<h2>{_he(head)}</h2>{by}"


def outline_html(outline: DocumentOutline) -> str:
    """An outline as a table: page, title (Hebrew), summary, start and end phrases."""
    meta = outline.source_metadata
    rows = "".join(
        "<tr>"
        f"<td>{_e(s.sequence_id)}</td><td>{_e(s.page_ref)}</td>"
        f'<td class="lt-he">{_he(s.segment_title or s.chapter_title)}</td>'
        f'<td class="lt-auto" dir="auto">{_e(s.summary)}</td>'
        f'<td class="lt-he">{_he(s.start_phrase_hebrew)} … {_he(s.end_phrase_hebrew)}</td>'
        "</tr>"
        for s in outline.outline_segments
    )
    table = (
        "<table><tr><th>#</th><th>page</th><th>title</th><th>summary</th><th>span</th></tr>"
        f"{rows}</table>"
    )
    count = f'<div class="lt-muted">{len(outline.outline_segments)} segments</div>'
    return (
        f'{_STYLE}<div class="lt-doc">'
        f"{_meta(meta.publication_title, meta.work_title, meta.author_name)}{count}{table}</div>"
    )


def _footnotes(notes: list[Footnote]) -> str:
    if not notes:
        return ""
    items = "".join(
        f'<tr><td class="lt-he">{_he(n.marker)} {_he(n.content)}</td>'
        f'<td class="lt-en">{_e(n.translation)}</td></tr>'
        for n in notes
    )
    return f'<div class="lt-muted">Footnotes</div><table class="lt-pair">{items}</table>'


def _section(section: Section) -> str:
    title = section.segment_title or section.chapter_title or f"Section {section.sequence_id}"
    page = f' <span class="lt-muted">p. {_e(section.page_ref)}</span>' if section.page_ref else ""
    error = f'<div class="lt-err">{_e(section.error)}</div>' if section.error else ""
    if section.translation_data:
        rows = "".join(
            "<tr>"
            f'<td class="lt-he" title="{_e(d.hebrew_phrase_expanded)}">'
            f"{_he(d.hebrew_phrase or d.hebrew_phrase_expanded)}</td>"
            f'<td class="lt-en">{_e(d.english_translation)}'
            f"{' ' + _link(d.sefaria_link) if d.sefaria_link else ''}</td>"
            "</tr>"
            for d in section.translation_data
        )
        body = f'<table class="lt-pair">{rows}</table>'
    else:
        body = f'<div class="lt-block" lang="he">{_e(section.original_hebrew_block)}</div>'
    return (
        f"<section><h3>{_he(title)}{page}</h3>{error}{body}{_footnotes(section.footnotes)}"
        "</section>"
    )


def document_html(document: ProcessedDocument) -> str:
    """A processed document: each section's phrases, Hebrew beside English, notes below."""
    meta = document.source_metadata
    failed = sum(1 for s in document.sections if s.error)
    summary = f"{len(document.sections)} sections, {document.page_count} pages"
    if failed:
        summary += f", {failed} not translated"
    sections = "".join(_section(s) for s in document.sections)
    return (
        f'{_STYLE}<div class="lt-doc">'
        f"{_meta(meta.publication_title, meta.work_title, meta.author_name)}"
        f'<div class="lt-muted">{_e(summary)}</div>{_revision(document)}{sections}</div>'
    )


def _revision(document: ProcessedDocument) -> str:
    note = revision_note(document)
    if note is None:
        return ""
    if note.number == note.current:
        return f'<div class="lt-muted">revision {note.number} (current)</div>'
    by = f" by {note.author}" if note.author else ""
    at = f" at {note.created_at:%Y-%m-%d %H:%M} UTC" if note.created_at else ""
    changes = "".join(f"<li>{_e(d)}</li>" for d in note.differences) or "<li>nothing</li>"
    return (
        f'<div class="lt-err">revision {note.number} of {note.current}{_e(by + at)}, not the '
        f"current one; differs from it in:</div><ul>{changes}</ul>"
    )
