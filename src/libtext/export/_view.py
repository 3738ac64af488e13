"""What every export format shows, read once from a ProcessedDocument.

Each format module renders these plain records, so the formats cannot disagree on
what a section's heading is, which phrase a footnote hangs on, which link is coarse
or what the page range says. Sections are made one at a time (:func:`sections`):
a long book is never held twice.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

if TYPE_CHECKING:  # pragma: no cover
    from libtext.models import Footnote, ProcessedDocument, Section, TranslationData

__all__ = [
    "Meta",
    "Note",
    "Phrase",
    "SectionView",
    "all_notes",
    "clean",
    "heading",
    "link_label",
    "meta",
    "safe",
    "sections",
]

_SPACES = re.compile(r"\s+")
# C0 controls other than white space, and U+FFFE/U+FFFF: XML 1.0 (DOCX, EPUB, TEI) has no way
# to write them, and a word processor shows them as boxes.
_BREAKS = re.compile("[\x0b\x0c\x1c-\x1f\u2028\u2029]")
_NOT_XML = re.compile("[\x00-\x08\x0e-\x1b\x7f\ufffe\uffff]")
_SEFARIA = "https://www.sefaria.org/"


@dataclass(frozen=True, slots=True)
class Note:
    """A footnote, numbered through the whole document (1, 2, ...)."""

    number: int
    marker: str
    hebrew: str
    english: str


@dataclass(frozen=True, slots=True)
class Phrase:
    """A Hebrew phrase with its English, its Sefaria link and the notes that hang on it.

    ``link`` is empty or an ``http(s)`` URL; ``coarse`` marks a link to a passage that
    contains the citation rather than the exact place it cites.
    """

    hebrew: str
    english: str
    link: str = ""
    coarse: bool = False
    notes: tuple[Note, ...] = ()


@dataclass(frozen=True, slots=True)
class SectionView:
    """One section as every format shows it."""

    number: int
    chapter_number: str
    chapter_title: str
    segment_title: str
    page_ref: str
    hebrew: str
    phrases: tuple[Phrase, ...]
    notes: tuple[Note, ...]
    error: str | None

    @property
    def anchor(self) -> str:
        """A stable id for links to the section (``s1``, ``s2``...)."""
        return f"s{self.number}"

    @property
    def heading(self) -> str:
        """The section's title line (see :func:`heading`)."""
        return heading(self.number, self.chapter_number, self.chapter_title, self.segment_title)


@dataclass(frozen=True, slots=True)
class Meta:
    """The document's metadata as exported: never the source library's internal ids."""

    title: str
    work: str
    author: str
    pages: str
    sections: int
    revision: int | None
    exported_at: datetime

    @property
    def heading(self) -> str:
        """The book's title line: the work, then the publication when it differs."""
        parts = [p for p in (self.work, self.title) if p]
        if len(parts) == 2 and parts[0] == parts[1]:
            parts = parts[:1]
        return " — ".join(parts) or "Untitled"

    @property
    def revision_text(self) -> str:
        """``Revision 3, exported 2026-11-27 08:00 UTC`` (``Exported ...`` without one)."""
        when = self.exported_at.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
        if self.revision is None:
            return f"Exported {when}"
        return f"Revision {self.revision}, exported {when}"

    @property
    def date(self) -> str:
        """The export date as ISO 8601 (``2026-11-27``)."""
        return self.exported_at.astimezone(UTC).date().isoformat()


def heading(number: int, chapter_number: str, chapter_title: str, segment_title: str) -> str:
    """``פרק א — ליקוטי אמרים``: the chapter (its title, else its number), then what the
    segment's title adds to it; ``Section 3`` when there is neither."""
    chapter_title, segment_title = clean(chapter_title), clean(segment_title)
    chapter = chapter_title or (f"Chapter {chapter_number}" if chapter_number else "")
    extra = segment_title
    if chapter and chapter in segment_title:
        # "ליקוטי אמרים — פרק א" repeats the chapter: keep only what it adds.
        extra = segment_title.replace(chapter, "").strip(" —-")
    return " — ".join(p for p in (chapter, extra) if p) or f"Section {number}"


def clean(text: str) -> str:
    """One line: runs of white space (line breaks of the printed page) as one space."""
    return _SPACES.sub(" ", _NOT_XML.sub("", text)).strip()


def safe(text: str) -> str:
    """``text`` without the characters XML cannot hold, line breaks kept."""
    return _BREAKS.sub("\n", _NOT_XML.sub("", text))


def link_label(url: str) -> str:
    """``https://www.sefaria.org/Shabbat.12a-12b`` -> ``Shabbat 12a-12b``."""
    if url.startswith(_SEFARIA):
        path = unquote(urlsplit(url).path.lstrip("/"))
        return path.replace("_", " ").replace(".", " ", 1) or url
    return url


def _page_range(document: ProcessedDocument) -> str:
    refs = [s.page_ref for s in document.sections if s.page_ref]
    if refs:
        first = refs[0].split("-")[0].strip()
        last = refs[-1].split("-")[-1].strip()
        return first if first == last else f"{first}–{last}"
    return f"1–{document.page_count}" if document.page_count > 1 else str(document.page_count or "")


def meta(
    document: ProcessedDocument, *, revision: int | None, exported_at: datetime | None
) -> Meta:
    """The metadata block of every format."""
    source = document.source_metadata
    return Meta(
        title=clean(source.publication_title),
        work=clean(source.work_title),
        author=clean(source.author_name),
        pages=_page_range(document),
        sections=len(document.sections),
        revision=revision,
        exported_at=exported_at or datetime.now(UTC),
    )


def _coarse_urls(hebrew: str) -> set[str]:
    """The links the linker marks coarse in ``hebrew`` (``Citation.exact`` false)."""
    from libtext.sefaria import find_citations

    return {c.url for c in find_citations(hebrew) if not getattr(c, "exact", True)}


def _is_link(url: str) -> bool:
    return url.startswith(("https://", "http://"))


def _anchor_notes(
    texts: list[str], notes: list[Note], block: str
) -> tuple[list[tuple[Note, ...]], tuple[Note, ...]]:
    """Which phrase each note's marker stands in; notes whose marker is in no phrase
    are left for the end of the section (their place cannot be told)."""
    hung: list[list[Note]] = [[] for _ in texts]
    left: list[Note] = []
    for note in notes:
        marker = note.marker.strip()
        where = None
        if marker:
            for form in (f"[{marker}]", f"({marker})", f"{marker})"):
                where = next((i for i, t in enumerate(texts) if form in t), None)
                if where is not None:
                    break
        if where is None:
            left.append(note)
        else:
            hung[where].append(note)
    return [tuple(h) for h in hung], tuple(left)


def _phrases(
    data: list[TranslationData], notes: list[Note], block: str
) -> tuple[tuple[Phrase, ...], tuple[Note, ...]]:
    texts = [clean(d.hebrew_phrase or d.hebrew_phrase_expanded) for d in data]
    hung, left = _anchor_notes(texts, notes, block)
    phrases = []
    for d, hebrew, on in zip(data, texts, hung, strict=True):
        link = d.sefaria_link.strip() if _is_link(d.sefaria_link.strip()) else ""
        coarse = bool(link) and link in _coarse_urls(d.hebrew_phrase or d.hebrew_phrase_expanded)
        phrases.append(Phrase(hebrew, clean(d.english_translation), link, coarse, on))
    return tuple(phrases), left


def _section(section: Section, first_note: int) -> SectionView:
    notes = [_note(n, first_note + i) for i, n in enumerate(section.footnotes)]
    if section.translation_data:
        phrases, left = _phrases(section.translation_data, notes, section.original_hebrew_block)
    else:
        phrases, left = (), tuple(notes)
    return SectionView(
        number=section.sequence_id,
        chapter_number=section.chapter_number,
        chapter_title=clean(section.chapter_title),
        segment_title=clean(section.segment_title),
        page_ref=section.page_ref,
        hebrew=safe(section.original_hebrew_block).strip(),
        phrases=phrases,
        notes=left,
        error=clean(section.error) if section.error else None,
    )


def _note(note: Footnote, number: int) -> Note:
    return Note(number, note.marker, clean(note.content), clean(note.translation))


def sections(document: ProcessedDocument) -> Iterator[SectionView]:
    """The document's sections in order, made one at a time; notes numbered throughout."""
    number = 1
    for section in document.sections:
        view = _section(section, number)
        number += len(section.footnotes)
        yield view


def all_notes(view: SectionView) -> list[Note]:
    """Every note of a section, in the order they are called (phrases, then the rest)."""
    return [n for p in view.phrases for n in p.notes] + list(view.notes)
