"""EPUB 3, written as its zip directly: a file per section, a navigation document, endnotes.

Made by hand rather than by a library so that a chapter is written to the archive and
dropped before the next is made (a 1,000-section book never sits in memory twice),
and so that every file is exactly what epubcheck checks. The spine runs right to left
(``page-progression-direction="rtl"``), Hebrew is marked ``dir="rtl" lang="he"``, and
each section's notes are endnotes at its end, linked there and back.
"""

from __future__ import annotations

import uuid
import zipfile
from html import escape
from typing import IO, TYPE_CHECKING

from libtext._version import __version__
from libtext.export._markup import STYLE, meta_html, section_html
from libtext.export._view import heading, meta, sections

if TYPE_CHECKING:  # pragma: no cover
    from datetime import datetime

    from libtext.models import ProcessedDocument

__all__ = ["write_epub"]

_CONTAINER = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
    '<rootfiles><rootfile full-path="OEBPS/content.opf" '
    'media-type="application/oebps-package+xml"/></rootfiles></container>\n'
)


def _page(title: str, body: str, *, body_class: str = "", nav: bool = False) -> str:
    cls = f' class="{body_class}"' if body_class else ""
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n'
        '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" '
        'lang="en" xml:lang="en">\n<head>\n<meta charset="utf-8"/>\n'
        f"<title>{escape(title)}</title>\n"
        '<link rel="stylesheet" type="text/css" href="style.css"/>\n</head>\n'
        f"<body{cls}>\n{body}\n</body>\n</html>\n"
    )


def _opf(
    document: ProcessedDocument, ident: str, title: str, author: str, modified: str, date: str
) -> str:
    items = [
        '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>',
        '<item id="css" href="style.css" media-type="text/css"/>',
        '<item id="title" href="title.xhtml" media-type="application/xhtml+xml"/>',
    ]
    spine = ['<itemref idref="title"/>']
    for s in document.sections:
        items.append(f'<item id="s{s.sequence_id}" href="s{s.sequence_id}.xhtml" '
                     'media-type="application/xhtml+xml"/>')  # fmt: skip
        spine.append(f'<itemref idref="s{s.sequence_id}"/>')
    creator = f"<dc:creator>{escape(author)}</dc:creator>" if author else ""
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<package xmlns="http://www.idpf.org/2007/opf" version="3.0" '
        'unique-identifier="uid" xml:lang="he">\n'
        '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
        f'<dc:identifier id="uid">urn:uuid:{ident}</dc:identifier>'
        f"<dc:title>{escape(title)}</dc:title>{creator}"
        "<dc:language>he</dc:language><dc:language>en</dc:language>"
        f"<dc:date>{date}</dc:date>"
        f"<dc:contributor>libtext {escape(__version__)}</dc:contributor>"
        f'<meta property="dcterms:modified">{modified}</meta></metadata>\n'
        f"<manifest>{''.join(items)}</manifest>\n"
        f'<spine page-progression-direction="rtl">{"".join(spine)}</spine>\n</package>\n'
    )


def _nav(document: ProcessedDocument) -> str:
    rows = "".join(
        f'<li><a href="s{s.sequence_id}.xhtml#s{s.sequence_id}" dir="auto">'
        + escape(heading(s.sequence_id, s.chapter_number, s.chapter_title, s.segment_title))
        + "</a></li>"
        for s in document.sections
    )
    toc = f'<li><a href="title.xhtml">Title page</a></li>{rows}'
    body = f'<nav epub:type="toc" id="toc" role="doc-toc"><h1>Contents</h1><ol>{toc}</ol></nav>'
    return _page("Contents", body)


def write_epub(
    document: ProcessedDocument,
    out: IO[bytes],
    *,
    revision: int | None,
    exported_at: datetime | None,
    layout: str,
) -> None:
    """Write the EPUB to the binary file ``out`` (seekable)."""
    m = meta(document, revision=revision, exported_at=exported_at)
    modified = m.exported_at.strftime("%Y-%m-%dT%H:%M:%SZ")
    # The same text, revision and time give the same identifier.
    ident = uuid.uuid5(uuid.NAMESPACE_URL, f"libtext:{m.heading}:{m.revision}:{modified}")
    body_class = "interleaved" if layout == "interleaved" else "side-by-side"
    # Every entry carries the export's time, not the clock's: the same input gives the
    # same bytes, also when writing it straddles a second (zipfile stamps a bare name
    # with the current time).
    stamp = (max(m.exported_at.year, 1980), *m.exported_at.timetuple()[1:6])

    def put(name: str, data: str, kind: int = zipfile.ZIP_DEFLATED) -> None:
        z.writestr(zipfile.ZipInfo(name, date_time=stamp), data, kind)

    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as z:
        # The mimetype first and stored: readers find the kind of file at a fixed offset.
        put("mimetype", "application/epub+zip", zipfile.ZIP_STORED)
        put("META-INF/container.xml", _CONTAINER)
        put("OEBPS/content.opf", _opf(document, str(ident), m.heading, m.author, modified, m.date))
        put("OEBPS/style.css", STYLE)
        put("OEBPS/nav.xhtml", _nav(document))
        put("OEBPS/title.xhtml", _page(m.heading, meta_html(m)))
        for view in sections(document):
            page = _page(view.heading, section_html(view, epub=True), body_class=body_class)
            put(f"OEBPS/{view.anchor}.xhtml", page)
