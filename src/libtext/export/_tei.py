"""TEI P5: a ``teiHeader`` from the metadata, a ``div`` per section, phrases as aligned ``seg``s.

Each section's Hebrew is a ``<p xml:lang="he">`` of ``<seg>`` elements, one per
phrase, each pointing (``corresp``) at its English ``<seg>`` in the following
``<p xml:lang="en">`` and back; a Sefaria link is a ``<ref target>`` in the English
(``type="coarse"`` when it points to a passage that contains the citation); a footnote
is a ``<note place="foot">`` where its marker stands, with its Hebrew and English.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

from libtext._version import __version__
from libtext.export._view import Note, Phrase, SectionView, link_label, meta, sections

if TYPE_CHECKING:  # pragma: no cover
    from datetime import datetime

    from libtext.models import ProcessedDocument

__all__ = ["tei_chunks"]

TEI_NS = "http://www.tei-c.org/ns/1.0"


def _e(text: str) -> str:
    return escape(text)


def _note(n: Note, place: str) -> str:
    english = f'<p xml:lang="en">{_e(n.english)}</p>' if n.english else ""
    return (
        f'<note xml:id="n{n.number}" n={quoteattr(n.marker)} place="{place}">'
        f'<p xml:lang="he">{_e(n.hebrew)}</p>{english}</note>'
    )


def _hebrew_seg(view: SectionView, i: int, p: Phrase) -> str:
    notes = "".join(_note(n, "foot") for n in p.notes)
    return (
        f'<seg xml:id="{view.anchor}-he{i}" corresp="#{view.anchor}-en{i}">'
        f"{_e(p.hebrew)}{notes}</seg>"
    )


def _english_seg(view: SectionView, i: int, p: Phrase) -> str:
    ref = ""
    if p.link:
        kind = ' type="coarse"' if p.coarse else ""
        ref = f" <ref target={quoteattr(p.link)}{kind}>{_e(link_label(p.link))}</ref>"
    return (
        f'<seg xml:id="{view.anchor}-en{i}" corresp="#{view.anchor}-he{i}">'
        f"{_e(p.english)}{ref}</seg>"
    )


def _div(view: SectionView) -> str:
    attrs = f'xml:id="{view.anchor}" type="section" n="{view.number}"'
    head_n = f" n={quoteattr(view.chapter_number)}" if view.chapter_number else ""
    parts = [f"<div {attrs}>", f'<head xml:lang="he"{head_n}>{_e(view.heading)}</head>']
    if view.page_ref:
        parts.append(f"<pb n={quoteattr(view.page_ref)}/>")
    if view.error:
        parts.append(f'<note type="error" xml:lang="en">{_e(view.error)}</note>')
    if view.phrases:
        he = " ".join(_hebrew_seg(view, i, p) for i, p in enumerate(view.phrases, 1))
        en = " ".join(_english_seg(view, i, p) for i, p in enumerate(view.phrases, 1))
        parts += [f'<p xml:lang="he">{he}</p>', f'<p xml:lang="en">{en}</p>']
    else:
        parts.append(f'<p xml:lang="he">{_e(" ".join(view.hebrew.split()))}</p>')
    parts += [_note(n, "end") for n in view.notes]
    parts.append("</div>\n")
    return "".join(parts)


def tei_chunks(
    document: ProcessedDocument, *, revision: int | None, exported_at: datetime | None
) -> Iterator[str]:
    """The TEI XML text, a section at a time."""
    m = meta(document, revision=revision, exported_at=exported_at)
    author = f'<author xml:lang="he">{_e(m.author)}</author>' if m.author else ""
    title = f'<title type="main" xml:lang="he">{_e(m.heading)}</title>'
    bibl = "".join(
        [
            f'<title type="main" xml:lang="he">{_e(m.title)}</title>' if m.title else "",
            f'<title type="sub" xml:lang="he">{_e(m.work)}</title>' if m.work else "",
            author,
            f'<biblScope unit="page">{_e(m.pages)}</biblScope>' if m.pages else "",
        ]
    )
    edition = (
        f'<editionStmt><edition n="{m.revision}">Revision {m.revision}</edition></editionStmt>'
        if m.revision is not None
        else ""
    )
    yield (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<TEI xmlns="{TEI_NS}" xml:lang="en">\n<teiHeader><fileDesc>'
        f"<titleStmt>{title}{author}</titleStmt>{edition}"
        f"<extent>{m.sections} sections</extent>"
        f"<publicationStmt><p>Exported by libtext {_e(__version__)}. {_e(m.revision_text)}: "
        f'<date when="{m.date}">{m.date}</date></p></publicationStmt>'
        f"<sourceDesc><bibl>{bibl or '<title>Untitled</title>'}</bibl></sourceDesc>"
        "</fileDesc><profileDesc><langUsage>"
        '<language ident="he">Hebrew</language><language ident="en">English</language>'
        "</langUsage></profileDesc></teiHeader>\n<text><body>\n"
    )
    empty = True
    for view in sections(document):
        empty = False
        yield _div(view)
    if empty:
        yield "<p/>"  # a body must hold something
    yield "</body></text>\n</TEI>\n"
