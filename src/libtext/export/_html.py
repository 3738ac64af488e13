"""The reader page: one self-contained HTML file, readable on a phone.

No request leaves the page: the stylesheet is inline, the fonts are the reader's own
(a list of Hebrew fonts with points and cantillation, then serif), there is no script.
A table of contents links to every section; each footnote links to its note and back.
"""

from __future__ import annotations

from collections.abc import Iterator
from html import escape
from typing import TYPE_CHECKING

from libtext.export._markup import STYLE, meta_html, section_html
from libtext.export._view import heading, meta, sections

if TYPE_CHECKING:  # pragma: no cover
    from datetime import datetime

    from libtext.models import ProcessedDocument

__all__ = ["html_chunks"]

# The page may load nothing from anywhere, not even from its own origin.
_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:"


def html_chunks(
    document: ProcessedDocument,
    *,
    revision: int | None,
    exported_at: datetime | None,
    layout: str,
) -> Iterator[str]:
    """The page, a section at a time."""
    m = meta(document, revision=revision, exported_at=exported_at)
    body_class = "interleaved" if layout == "interleaved" else "side-by-side"
    yield (
        '<!DOCTYPE html>\n<html lang="en" dir="ltr">\n<head>\n<meta charset="utf-8"/>\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1"/>\n'
        f'<meta http-equiv="Content-Security-Policy" content="{_POLICY}"/>\n'
        f"<title>{escape(m.heading)}</title>\n<style>{STYLE}</style>\n</head>\n"
        f'<body class="{body_class}">\n<header>{meta_html(m)}</header>\n'
        '<nav class="toc" aria-label="Contents"><h2>Contents</h2><ol>'
    )
    for s in document.sections:
        title = heading(s.sequence_id, s.chapter_number, s.chapter_title, s.segment_title)
        yield f'<li><a href="#s{s.sequence_id}" dir="auto">{escape(title)}</a></li>'
    yield "</ol></nav>\n<main>\n"
    for view in sections(document):
        yield section_html(view) + "\n"
    yield "</main>\n</body>\n</html>\n"
