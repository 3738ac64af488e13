"""DOCX for Word and LibreOffice: right-to-left Hebrew, real footnotes, real hyperlinks.

Hebrew paragraphs carry ``w:bidi`` and their runs ``w:rtl`` with a complex-script font
that has points and cantillation (``hebrew_font``); headings use Word's own "Heading
1/2" styles, so the navigation pane lists the sections; a footnote is a Word footnote
(a ``footnotes.xml`` part, which python-docx does not make) and a Sefaria link a
hyperlink relationship. Side by side is a two-column table per section whose
Hebrew column stands at the right (``w:bidiVisual``).

python-docx holds the whole document tree until it is saved: unlike the text formats
this one is not streamed (see ``benchmarks/export.py`` for its memory).
"""

from __future__ import annotations

from typing import IO, TYPE_CHECKING, Any

try:
    import docx
    from docx.opc.constants import RELATIONSHIP_TYPE as RT
    from docx.opc.packuri import PackURI
    from docx.opc.part import Part
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls, qn
    from docx.oxml.parser import OxmlElement
    from docx.shared import Pt, RGBColor
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        f"DOCX export needs the export extra: pip install 'libtext[export]' ({exc})"
    ) from exc

from libtext.export._view import Meta, Note, Phrase, SectionView, link_label, meta, sections

if TYPE_CHECKING:  # pragma: no cover
    from datetime import datetime

    from docx.document import Document
    from docx.text.paragraph import Paragraph

    from libtext.models import ProcessedDocument

__all__ = ["DEFAULT_HEBREW_FONT", "write_docx"]

DEFAULT_HEBREW_FONT = "Ezra SIL"
"""A free font made for pointed Hebrew with cantillation (Debian ``fonts-sil-ezra``)."""

_HEBREW_SIZE = Pt(13)
_FOOTNOTES_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"
_LINK_BLUE = RGBColor(0x1A, 0x0D, 0xAB)


class _Footnotes:
    """The ``footnotes.xml`` part, made on the first note."""

    def __init__(self, document: Document, font: str) -> None:
        self.document = document
        self.font = font
        self.root: Any = None
        self.next_id = 1

    def _part(self) -> Any:
        if self.root is None:
            self.root = parse_xml(
                f"<w:footnotes {nsdecls('w', 'r')}>"
                '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p>'
                "</w:footnote>"
                '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r>'
                "<w:continuationSeparator/></w:r></w:p></w:footnote></w:footnotes>"
            )
        return self.root

    def add(self, paragraph: Paragraph, note: Note) -> None:
        """A footnote reference at the end of ``paragraph``, with the note's text."""
        root = self._part()
        number = self.next_id
        self.next_id += 1
        footnote = OxmlElement("w:footnote", {qn("w:id"): str(number)})
        he = _paragraph_xml(note.hebrew, rtl=True, font=self.font, mark=True)
        footnote.append(he)
        if note.english:
            footnote.append(_paragraph_xml(note.english, rtl=False, font=self.font))
        root.append(footnote)
        run = OxmlElement("w:r")
        rpr = OxmlElement("w:rPr")
        rpr.append(OxmlElement("w:vertAlign", {qn("w:val"): "superscript"}))
        run.append(rpr)
        run.append(OxmlElement("w:footnoteReference", {qn("w:id"): str(number)}))
        paragraph._p.append(run)

    def finish(self) -> None:
        """Add the part to the package, related from the main document."""
        if self.root is None:
            return
        from lxml import etree

        blob = etree.tostring(self.root, xml_declaration=True, encoding="UTF-8", standalone=True)
        main = self.document.part
        part = Part(PackURI("/word/footnotes.xml"), _FOOTNOTES_CT, blob, main.package)
        main.relate_to(part, RT.FOOTNOTES)


def _run_props(rtl: bool, font: str) -> Any:
    rpr = OxmlElement("w:rPr")
    if rtl:
        rpr.append(
            OxmlElement(
                "w:rFonts",
                {qn("w:ascii"): font, qn("w:hAnsi"): font, qn("w:cs"): font},
            )
        )
        rpr.append(OxmlElement("w:rtl"))
        size = str(int(_HEBREW_SIZE.pt * 2))
        rpr.append(OxmlElement("w:sz", {qn("w:val"): size}))
        rpr.append(OxmlElement("w:szCs", {qn("w:val"): size}))
        rpr.append(OxmlElement("w:lang", {qn("w:bidi"): "he-IL"}))
    else:
        rpr.append(OxmlElement("w:lang", {qn("w:val"): "en-US"}))
    return rpr


def _text_run(text: str, rtl: bool, font: str) -> Any:
    run = OxmlElement("w:r")
    run.append(_run_props(rtl, font))
    t = OxmlElement("w:t", {"{http://www.w3.org/XML/1998/namespace}space": "preserve"})
    t.text = text
    run.append(t)
    return run


def _paragraph_xml(text: str, *, rtl: bool, font: str, mark: bool = False) -> Any:
    """A bare ``w:p`` (for the footnotes part, outside python-docx's document)."""
    p = OxmlElement("w:p")
    ppr = OxmlElement("w:pPr")
    if rtl:
        ppr.append(OxmlElement("w:bidi"))
    p.append(ppr)
    if mark:
        run = OxmlElement("w:r")
        rpr = OxmlElement("w:rPr")
        rpr.append(OxmlElement("w:vertAlign", {qn("w:val"): "superscript"}))
        run.append(rpr)
        run.append(OxmlElement("w:footnoteRef"))
        p.append(run)
        p.append(_text_run(" ", rtl, font))
    p.append(_text_run(text, rtl, font))
    return p


def _set_rtl(paragraph: Paragraph) -> None:
    ppr = paragraph._p.get_or_add_pPr()
    ppr.append(OxmlElement("w:bidi"))


def _add_text(paragraph: Paragraph, text: str, *, rtl: bool, font: str) -> None:
    if rtl:
        _set_rtl(paragraph)
    paragraph._p.append(_text_run(text, rtl, font))


def _add_link(paragraph: Paragraph, url: str, label: str) -> None:
    r_id = paragraph.part.relate_to(url, RT.HYPERLINK, is_external=True)
    link = OxmlElement("w:hyperlink", {qn("r:id"): r_id})
    run = OxmlElement("w:r")
    rpr = OxmlElement("w:rPr")
    rpr.append(OxmlElement("w:color", {qn("w:val"): str(_LINK_BLUE)}))
    rpr.append(OxmlElement("w:u", {qn("w:val"): "single"}))
    run.append(rpr)
    t = OxmlElement("w:t", {"{http://www.w3.org/XML/1998/namespace}space": "preserve"})
    t.text = label
    run.append(t)
    link.append(run)
    paragraph._p.append(link)


def _english(paragraph: Paragraph, p: Phrase, font: str) -> None:
    _add_text(paragraph, p.english or "(not translated)", rtl=False, font=font)
    if p.link:
        paragraph._p.append(_text_run(" ", False, font))
        _add_link(paragraph, p.link, link_label(p.link) + (" (coarse)" if p.coarse else ""))


def _bidi_table(table: Any) -> None:
    """The first column (Hebrew) at the right, as a Hebrew book lays out its table."""
    tblpr = table._tbl.tblPr
    tblpr.append(OxmlElement("w:bidiVisual"))


def _heading(document: Document, text: str, level: int, font: str) -> None:
    paragraph = document.add_heading(level=level)
    # A Hebrew title starts at the right; an English one at the left.
    rtl = any("\u0590" <= c <= "\u05ff" for c in text)
    _add_text(paragraph, text, rtl=rtl, font=font)


def _section(
    document: Document, view: SectionView, notes: _Footnotes, font: str, layout: str
) -> None:
    page = f" (p. {view.page_ref})" if view.page_ref else ""
    _heading(document, view.heading + page, 1, font)
    if view.error:
        document.add_paragraph(f"Translation failed: {view.error}")
    if not view.phrases:
        paragraph = document.add_paragraph()
        _add_text(paragraph, view.hebrew, rtl=True, font=font)
        for n in view.notes:
            notes.add(paragraph, n)
        return
    if layout == "interleaved":
        for p in view.phrases:
            he = document.add_paragraph()
            _add_text(he, p.hebrew, rtl=True, font=font)
            for n in p.notes:
                notes.add(he, n)
            _english(document.add_paragraph(), p, font)
    else:
        table = document.add_table(rows=0, cols=2)
        table.style = "Table Grid"
        _bidi_table(table)
        for p in view.phrases:
            he_cell, en_cell = table.add_row().cells
            he = he_cell.paragraphs[0]
            _add_text(he, p.hebrew, rtl=True, font=font)
            for n in p.notes:
                notes.add(he, n)
            _english(en_cell.paragraphs[0], p, font)
    if view.notes:
        paragraph = document.add_paragraph()
        _set_rtl(paragraph)
        for n in view.notes:
            notes.add(paragraph, n)


def _front(document: Document, m: Meta, font: str) -> None:
    props = document.core_properties
    props.title = m.heading
    props.author = m.author
    props.subject = m.work
    props.comments = f"Pages {m.pages}; {m.revision_text}" if m.pages else m.revision_text
    props.created = props.modified = m.exported_at.replace(tzinfo=None)
    if m.revision is not None:
        props.revision = m.revision
    title = document.add_heading(level=0)
    _add_text(title, m.heading, rtl=True, font=font)
    for name, value, rtl in (
        ("Author", m.author, True),
        ("Publication", m.title, True),
        ("Work", m.work, True),
        ("Pages", m.pages, False),
        ("Sections", str(m.sections), False),
        ("Revision", m.revision_text, False),
    ):
        if value:
            paragraph = document.add_paragraph()
            paragraph.add_run(f"{name}: ").bold = True
            paragraph._p.append(_text_run(value, rtl, font))


def write_docx(
    document: ProcessedDocument,
    out: IO[bytes],
    *,
    revision: int | None,
    exported_at: datetime | None,
    layout: str,
    hebrew_font: str = DEFAULT_HEBREW_FONT,
) -> None:
    """Write the DOCX to the binary file ``out``."""
    doc = docx.Document()
    _front(doc, meta(document, revision=revision, exported_at=exported_at), hebrew_font)
    notes = _Footnotes(doc, hebrew_font)
    for view in sections(document):
        _section(doc, view, notes, hebrew_font, layout)
    notes.finish()
    doc.save(out)
