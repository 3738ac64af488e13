"""The library's known works, and a work read from it -> a ProcessedDocument (pure).

:func:`work_to_document` is the one converter: ``LibraryClient.to_document``,
``libtext library fetch`` and ``process_document`` (which then translates the
sections) all use it, so a work gives the same sections on every path. The library
already structures a work, so its pages are not outlined again.
"""

from __future__ import annotations

from typing import NamedTuple

from libtext.errors import EmptyDocumentError
from libtext.headings import parse_heading
from libtext.hebrew import edge_words, parse_numeral
from libtext.models import (
    LibraryPage,
    ProcessedDocument,
    Section,
    SourceMetadata,
    WorkByIdResponse,
)

__all__ = ["KNOWN_WORKS", "LIBRARY_NAME", "KnownWork", "work_to_document"]

LIBRARY_NAME = "ספריית ליובאוויטש"
"""The library's own name: the publication of a work libtext does not know."""

_PHRASE_WORDS = 8


class KnownWork(NamedTuple):
    """A top-level work of the library: its title, author and names to find it by."""

    title: str
    author: str
    aliases: tuple[str, ...] = ()


_ADMOR_HAZAKEN = "רבי שניאור זלמן מליאדי"
_REBBE = "רבי מנחם מענדל שניאורסאהן"
_TZEMACH_TZEDEK = "רבי מנחם מענדל שניאורסאהן (הצמח צדק)"

KNOWN_WORKS: dict[str, KnownWork] = {
    "3400000000": KnownWork("תניא", _ADMOR_HAZAKEN, ("tanya", "לקוטי אמרים", "likkutei amarim")),
    "1300000000": KnownWork(
        "לקוטי שיחות", _REBBE, ("ליקוטי שיחות", "likkutei sichos", "likutei sichot")
    ),
    "1400000000": KnownWork("תורת מנחם", _REBBE, ("torat menachem", "toras menachem")),
    "1200000000": KnownWork("אגרות קודש", _REBBE, ("igrot kodesh", "igros kodesh", "letters")),
    "3100000000": KnownWork(
        'שולחן ערוך אדמו"ר הזקן',
        _ADMOR_HAZAKEN,
        ("שלחן ערוך", "shulchan aruch", "shulchan arukh", "shulchan aruch harav"),
    ),
    "1500000000": KnownWork("מאמרים מלוקטים", _REBBE, ("maamarim melukatim", "מלוקט")),
    "3700000000": KnownWork("היום יום", _REBBE, ("hayom yom", "ha-yom yom")),
    "4000000000": KnownWork(
        "לקוטי תורה", _ADMOR_HAZAKEN, ("ליקוטי תורה", "likkutei torah", "likutei torah")
    ),
    "2900000000": KnownWork(
        "דרך מצותיך",
        _TZEMACH_TZEDEK,
        ("דרך מצוותיך", "derech mitzvosecha", "derech mitzvotecha"),
    ),
}
"""Top-level ids seen in public client code, with their titles; the roots ``nav_search``
walks. Public code also names 1100000000, 500000000, 6500000000 and 2800000000,
whose titles it does not give."""


def _chapter_number(heading: str, nested: bool) -> str:
    """``פרק לב`` -> ``32``; a bare numeral (``ט``) too when it names an entry of a list."""
    parsed = parse_heading(heading, loose=True) if heading else None
    if parsed and parsed[1] is not None:
        return str(parsed[1])
    if nested:
        value = parse_numeral(heading.strip(), spelled=False)
        if value is not None:
            return str(value)
    return ""


def work_to_document(work: WorkByIdResponse) -> ProcessedDocument:
    """See :meth:`libtext.library.LibraryClient.to_document`."""
    known = KNOWN_WORKS.get(work.work_id)
    title = work.title or (known.title if known else "")
    groups: list[tuple[int, list[LibraryPage]]] = []
    for position, page in enumerate(work.pages, 1):
        if not page.text.strip() and not page.footnotes:
            continue
        if groups and groups[-1][1][-1].heading_path == page.heading_path and page.heading_path:
            groups[-1][1].append(page)  # a chapter the library splits over pages
        else:
            groups.append((position, [page]))
    sections: list[Section] = []
    for position, pages in groups:
        path = pages[0].heading_path
        chapter = path[-1] if path else title
        text = "\n\n".join(p.text for p in pages if p.text.strip())
        lines = [ln for ln in text.split("\n") if ln.strip()]
        body = [ln for ln in lines if ln not in path] or lines
        sections.append(
            Section(
                sequence_id=len(sections) + 1,
                chapter_number=_chapter_number(chapter, len(path) > 1),
                chapter_title=chapter,
                segment_title=" — ".join(path) or chapter,
                page_ref=str(position),
                start_phrase_hebrew=edge_words(body[0], _PHRASE_WORDS) if body else "",
                end_phrase_hebrew=edge_words(body[-1], _PHRASE_WORDS, last=True) if body else "",
                original_hebrew_block=text,
                footnotes=[f.model_copy() for p in pages for f in p.footnotes],
            )
        )
    if not sections:
        raise EmptyDocumentError(
            f"Library work {work.work_id!r} has no page with text"
            f"{' (max_pages reached before any)' if work.truncated else ''}: "
            "check the id, or read more pages."
        )
    return ProcessedDocument(
        source_metadata=SourceMetadata(
            publication_title=known.title if known else LIBRARY_NAME,
            work_title=title or work.work_id,
            author_name=known.author if known else "",
        ),
        sections=sections,
        work_id=work.work_id,
        page_count=work.page_count or len(work.pages),
        first_page_id=work.pages[0].id,
        last_page_id=work.pages[-1].id,
    )
