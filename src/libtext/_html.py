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
from typing import Any, TypeAlias

# The views read the models by attribute only. The models' and citations'
# ``_repr_html_`` call these functions, so this module is below libtext.models and
# libtext.sefaria and imports neither (not even for typing): the names below say
# which model each function renders; test_html*.py render every one.
DocumentOutline: TypeAlias = Any
ExtractedDocument: TypeAlias = Any
Footnote: TypeAlias = Any
OutlineComparison: TypeAlias = Any
PaginatedTextsResponse: TypeAlias = Any
ProcessedDocument: TypeAlias = Any
Section: TypeAlias = Any
TranslatedSegment: TypeAlias = Any
TranslationData: TypeAlias = Any
Citation: TypeAlias = Any

__all__ = [
    "RevisionNote",
    "citations_html",
    "comparison_html",
    "current_note",
    "document_html",
    "extracted_html",
    "note_revision",
    "outline_html",
    "revision_note",
    "texts_html",
    "translated_html",
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
    ".lt-doc table.lt-t{border-collapse:collapse;width:100%;margin:.4em 0}"
    ".lt-doc table.lt-t td,.lt-doc table.lt-t th"
    "{border-top:1px solid #ddd;padding:.25em .5em;vertical-align:top}"
    ".lt-doc .lt-he{font-size:1.1em}"
    ".lt-doc table.lt-pair td{width:50%}"  # Hebrew and English halves; not in the outline
    ".lt-doc .lt-block{white-space:pre-wrap}"
    ".lt-doc .lt-err{color:#a00}.lt-doc .lt-muted{color:#777}"
    "</style>"
)
"""Looks only. Direction and alignment are inline attributes on each element instead:
JupyterLab's ``.jp-RenderedHTMLCommon td {text-align:right}`` outranks any class rule,
and an untrusted notebook drops ``<style>`` altogether, but neither touches ``dir`` or
an element's own ``style``."""

_RTL = ' dir="rtl" lang="he" style="direction:rtl;text-align:right"'
_LTR = ' dir="ltr" style="direction:ltr;text-align:left"'
_AUTO = ' dir="auto" style="text-align:start"'  # Hebrew or English: its first letter decides


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _link(url: str, label: str = "Sefaria") -> str:
    if not url.startswith(("https://", "http://")):
        return _e(url)
    return f'<a href="{_e(url)}" target="_blank" rel="noopener noreferrer">{_e(label)}</a>'


def _coarse(exact: bool) -> str:
    """A coarse link says so: its ref contains the place cited but is not exactly it."""
    if exact:
        return ""
    return (
        ' <span class="lt-muted" title="the smallest Sefaria ref that contains the place '
        'cited, not exactly it">(coarse)</span>'
    )


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def _head(text: str, tag: str = "h2") -> str:
    """A title in its own direction: a Hebrew title starts at the right."""
    return f"<{tag}{_AUTO}>{_e(text)}</{tag}>"


def _row(*cells: str) -> str:
    return "<tr>" + "".join(cells) + "</tr>"


def _th(*names: str, attrs: str = _AUTO) -> str:
    return "<tr>" + "".join(f"<th{attrs}>{_e(n)}</th>" for n in names) + "</tr>"


def _td(content: str, attrs: str = _LTR, extra: str = "") -> str:
    """A cell whose ``content`` is HTML already."""
    return f"<td{attrs}{extra}>{content}</td>"


def _table(rows: str, *, pair: bool = False) -> str:
    return f'<table class="lt-t{" lt-pair" if pair else ""}">{rows}</table>'


def _view(body: str) -> str:
    return f'{_STYLE}<div class="lt-doc">{body}</div>'


def _meta(title: str, work: str, author: str) -> str:
    parts = [p for p in (work, title) if p]
    head = " — ".join(parts) or "Untitled"
    by = f'<div class="lt-muted"{_AUTO}>{_e(author)}</div>' if author else ""
    return f"{_head(head)}{by}"


def outline_html(outline: DocumentOutline) -> str:
    """An outline as a table: page, title (Hebrew), summary, start and end phrases."""
    meta = outline.source_metadata
    rows = "".join(
        _row(
            _td(_e(s.sequence_id)),
            _td(_e(s.page_ref)),
            _td(_e(s.segment_title or s.chapter_title), _RTL, ' class="lt-he"'),
            _td(_e(s.summary), _AUTO),
            _td(f"{_e(s.start_phrase_hebrew)} … {_e(s.end_phrase_hebrew)}", _RTL, ' class="lt-he"'),
        )
        for s in outline.outline_segments
    )
    table = _table(_th("#", "page", "title", "summary", "span") + rows)
    count = f'<div class="lt-muted">{_plural(len(outline.outline_segments), "segment")}</div>'
    return _view(
        f"{_meta(meta.publication_title, meta.work_title, meta.author_name)}{count}{table}"
    )


def _footnotes(notes: list[Footnote]) -> str:
    if not notes:
        return ""
    items = "".join(
        _row(_td(f"{_e(n.marker)} {_e(n.content)}", _RTL, ' class="lt-he"'), _td(_e(n.translation)))
        for n in notes
    )
    return f'<div class="lt-muted">Footnotes</div>{_table(items, pair=True)}'


def _phrases(data: list[TranslationData]) -> str:
    """Hebrew phrase beside its English, with its Sefaria link when it cites a source."""
    rows = "".join(
        _row(
            _td(
                _e(d.hebrew_phrase or d.hebrew_phrase_expanded),
                _RTL,
                f' class="lt-he" title="{_e(d.hebrew_phrase_expanded)}"',
            ),
            _td(
                _e(d.english_translation)
                + (f" {_link(d.sefaria_link)}{_coarse(d.exact)}" if d.sefaria_link else "")
            ),
        )
        for d in data
    )
    return _table(rows, pair=True)


def _hebrew_block(text: str) -> str:
    return f'<div class="lt-block lt-he"{_RTL}>{_e(text)}</div>'


def _section(section: Section) -> str:
    title = section.segment_title or section.chapter_title or f"Section {section.sequence_id}"
    page = f' <span class="lt-muted">p. {_e(section.page_ref)}</span>' if section.page_ref else ""
    error = f'<div class="lt-err">{_e(section.error)}</div>' if section.error else ""
    if section.translation_data:
        body = _phrases(section.translation_data)
    else:
        body = _hebrew_block(section.original_hebrew_block)
    return (
        f"<section><h3{_AUTO}>{_e(title)}{page}</h3>{error}{body}"
        f"{_footnotes(section.footnotes)}</section>"
    )


def document_html(document: ProcessedDocument) -> str:
    """A processed document: each section's phrases, Hebrew beside English, notes below."""
    meta = document.source_metadata
    failed = sum(1 for s in document.sections if s.error)
    summary = (
        f"{_plural(len(document.sections), 'section')}, {_plural(document.page_count, 'page')}"
    )
    if failed:
        summary += f", {failed} not translated"
    sections = "".join(_section(s) for s in document.sections)
    return _view(
        f"{_meta(meta.publication_title, meta.work_title, meta.author_name)}"
        f'<div class="lt-muted">{_e(summary)}</div>{_revision(document)}{sections}'
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


def translated_html(segment: TranslatedSegment) -> str:
    """One translated passage: its phrases, Hebrew beside English, and why any is missing."""
    title = segment.segment_title or segment.chapter_title
    english = sum(1 for d in segment.translation_data if d.english_translation)
    state = "" if segment.complete else " (incomplete)"
    by = segment.provider or "unknown"
    facts = f"{english}/{len(segment.translation_data)} phrases in English, by {by}{state}"
    notes = "".join(f'<div class="lt-muted"{_AUTO}>note: {_e(n)}</div>' for n in segment.notes)
    body = (
        _phrases(segment.translation_data)
        if segment.translation_data
        else _hebrew_block(segment.original_hebrew_block)
    )
    head = _head(title, "h3") if title else ""
    return _view(
        f'{head}<div class="lt-muted">{_e(facts)}</div>{body}{_footnotes(segment.footnotes)}{notes}'
    )


def texts_html(page: PaginatedTextsResponse) -> str:
    """One page of stored texts: slug, titles, author, pages, when stored."""
    rows = "".join(
        _row(
            _td(f"<code>{_e(t.slug)}</code>"),
            _td(_e(" / ".join(x for x in (t.publication_title, t.work_title) if x)), _AUTO),
            _td(_e(t.author_name), _AUTO),
            _td(_e(t.page_count)),
            _td(_e(t.created_at.strftime("%Y-%m-%d %H:%M UTC"))),
        )
        for t in page.texts
    )
    info = page.pagination
    caption = f"page {info.page} of {max(info.total_pages, 1)}, {_plural(info.total, 'text')}"
    table = _table(_th("slug", "title", "author", "pages", "stored") + rows) if rows else ""
    return _view(f'<div class="lt-muted">{_e(caption)}</div>{table}')


_PAGES_SHOWN = 20  # a whole book's lines would stall the notebook


def extracted_html(document: ExtractedDocument) -> str:
    """Extracted pages: each line in reading order with its role (heading, body, footnote...)."""
    title = " — ".join(x for x in (document.title, document.author) if x)
    head = _head(title) if title else ""
    facts = f"{_plural(document.page_count, 'page')}"
    if document.source_name:
        facts = f"{document.source_name}: {facts}"
    pages = []
    for page in document.pages[:_PAGES_SHOWN]:
        rows = "".join(
            _row(
                _td(_e(line.kind), extra=' class="lt-muted"'),
                _td(
                    f"<b>{_e(line.text)}</b>"
                    if line.kind == "heading" or line.bold
                    else _e(line.text),
                    _RTL,
                    ' class="lt-he"',
                ),
            )
            for line in page.lines
        )
        pages.append(f"<h4{_AUTO}>page {page.number}</h4>{_table(rows)}")
    more = len(document.pages) - _PAGES_SHOWN
    tail = f'<div class="lt-muted">… {_plural(more, "more page")}</div>' if more > 0 else ""
    return _view(f'{head}<div class="lt-muted">{_e(facts)}</div>{"".join(pages)}{tail}')


def comparison_html(comparison: OutlineComparison) -> str:
    """Several providers' outlines: one row per provider, then how far they agree."""
    meta = comparison.source_metadata
    rows = "".join(
        _row(
            _td(_e(r.provider)),
            _td(
                "ok"
                if r.ok
                else f'<span class="lt-err">{_e(r.error.message if r.error else "failed")}</span>'
            ),
            _td(_e(len(r.outline.outline_segments) if r.outline else 0)),
            _td(_e(f"{r.latency_s:.2f} s")),
            _td(_e("" if r.cost_usd is None else f"${r.cost_usd:.4f}")),
        )
        for r in comparison.results
    )
    agree = "".join(
        _row(_td(_e(f"{a.a} ~ {a.b}")), _td(_e(f"{a.score:.0%} ({a.matched} matched)")))
        for a in comparison.agreement
    )
    outlines = "".join(
        f"<details><summary>{_e(r.provider)}</summary>{outline_html(r.outline)}</details>"
        for r in comparison.results
        if r.outline is not None
    )
    return _view(
        f"{_meta(meta.publication_title, meta.work_title, meta.author_name)}"
        f"{_table(_th('provider', 'result', 'segments', 'time', 'cost') + rows)}"
        f"{_table(_th('providers', 'agreement') + agree) if agree else ''}{outlines}"
    )


def citations_html(citations: list[Citation]) -> str:
    """Citations found in a text: as printed, Sefaria's reference, and a link."""
    rows = "".join(
        _row(
            _td(_e(c.text), _RTL, ' class="lt-he"'),
            _td(_e(c.english or c.ref) + _coarse(c.exact)),
            _td(_link(c.url)),
        )
        for c in citations
    )
    caption = f'<div class="lt-muted">{_plural(len(citations), "citation")}</div>'
    return _view(caption + (_table(_th("cited", "reference", "link") + rows) if rows else ""))
