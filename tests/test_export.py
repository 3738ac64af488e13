"""libtext.export on real documents, checked by the programs people open the files with.

Two documents processed offline: the first pages of a real siddur PDF (pointed text with
cantillation, Sefaria links) and a recorded chabadlibrary.org work (136 footnotes). Each
format is read back by an independent reader (python-docx, LibreOffice + extract_pdf,
epubcheck, jing with the TEI P5 schema, markdown-it-py, Chromium, lxml) and compared
with the document, never with libtext's own rendering of it.
"""

from __future__ import annotations

import io
import re
import zipfile
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from tests import export_docs, export_tools

from libtext.errors import InvalidInputError, InvalidTypeError
from libtext.export import FORMATS, export, iter_export
from libtext.export._view import clean, link_label
from libtext.models import Footnote, ProcessedDocument, Section, TranslationData

WHEN = datetime(2026, 11, 27, 8, 0, tzinfo=UTC)
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
TEI = "{http://www.tei-c.org/ns/1.0}"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"


@pytest.fixture(scope="module", params=["pdf", "library"])
def doc(request: pytest.FixtureRequest) -> ProcessedDocument:
    if request.param == "pdf":
        if not export_docs.pdf_available():
            pytest.skip("real PDFs not found in ../shared/realdata/pdfs (set LIBTEXT_SHARED)")
        return export_docs.pdf_document()
    if not export_docs.library_available():
        pytest.skip("recorded library pages not found in ../shared/realdata (set LIBTEXT_SHARED)")
    return export_docs.library_document()


def _phrases(section: Section) -> list[TranslationData]:
    return list(section.translation_data)


def _links(doc: ProcessedDocument) -> list[str]:
    return [t.sefaria_link for s in doc.sections for t in s.translation_data if t.sefaria_link]


def _notes(doc: ProcessedDocument) -> list[Footnote]:
    return [n for s in doc.sections for n in s.footnotes]


def test_the_documents_have_what_is_checked(doc: ProcessedDocument) -> None:
    # What the checks below compare is really there (else they would pass on nothing).
    assert len(doc.sections) >= 8
    assert all(t.english_translation for s in doc.sections for t in s.translation_data)
    assert _links(doc) or _notes(doc)


# --- Markdown, parsed back by markdown-it-py ------------------------------------------


def _markdown_tokens(text: str) -> list[Any]:
    from markdown_it import MarkdownIt
    from mdit_py_plugins.footnote import footnote_plugin

    return MarkdownIt("commonmark").use(footnote_plugin).parse(text)


def _inline_text(token: Any) -> str:
    parts = []
    for child in token.children or []:
        if child.type in ("text", "text_special"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "link_open":  # "English ([Psalms 84](url))": the English only
            return clean("".join(parts)).removesuffix("(").strip()
    return clean("".join(parts))


def test_markdown_parses_back_to_the_same_sections_phrases_links_and_notes(
    doc: ProcessedDocument,
) -> None:
    text = export(doc, "md", exported_at=WHEN)
    assert text is not None
    tokens = _markdown_tokens(text.decode("utf-8"))
    sections: list[dict[str, Any]] = []
    notes: list[str] = []
    rtl = False
    in_note = False
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and tok.tag == "h2":
            sections.append(
                {"heading": _inline_text(tokens[i + 1]), "he": [], "en": [], "links": [], "refs": 0}
            )
        elif tok.type == "html_block":
            rtl = tok.content.startswith('<div dir="rtl" lang="he">')
        elif tok.type == "footnote_open":
            in_note = True
        elif tok.type == "footnote_close":
            in_note = False
        elif tok.type == "inline" and in_note:
            notes.append(_inline_text(tok))
        elif tok.type == "inline" and sections and tokens[i - 1].type == "paragraph_open":
            current = sections[-1]
            current["refs"] += sum(1 for c in tok.children if c.type == "footnote_ref")
            if rtl:
                if _inline_text(tok):  # (a paragraph of footnote marks alone is no phrase)
                    current["he"].append(_inline_text(tok))
            else:
                current["en"].append(_inline_text(tok))
                hrefs = [c.attrs["href"] for c in tok.children if c.type == "link_open"]
                current["links"] += hrefs
    assert len(sections) == len(doc.sections)
    for got, section in zip(sections, doc.sections, strict=True):
        assert got["he"] == [clean(t.hebrew_phrase) for t in _phrases(section)]
        assert got["en"] == [clean(t.english_translation) for t in _phrases(section)]
        assert got["links"] == [t.sefaria_link for t in _phrases(section) if t.sefaria_link]
        assert got["refs"] == len(section.footnotes)
        assert (section.chapter_title or section.segment_title) in got["heading"]
    want_notes = [clean(n.content) + " — " + clean(n.translation) for n in _notes(doc)]
    assert sorted(notes) == sorted(want_notes)


# --- TEI P5: jing with the TEI schema, then lxml ------------------------------------


def test_tei_is_valid_tei_p5_and_aligns_each_phrase(doc: ProcessedDocument, tmp_path: Path) -> None:
    from lxml import etree

    path = tmp_path / "text.xml"
    export(doc, "tei", path, exported_at=WHEN)
    code, messages = export_tools.jing(path, tmp_path)
    assert code == 0 and not messages.strip(), messages[:3000]

    root = etree.parse(str(path)).getroot()
    divs = root.findall(f".//{TEI}body/{TEI}div")
    assert len(divs) == len(doc.sections)
    ids = {el.get(XML_ID): el for el in root.iter() if el.get(XML_ID)}
    for div, section in zip(divs, doc.sections, strict=True):
        if not section.translation_data:  # nothing to translate: the Hebrew alone
            (he_p,) = div.findall(f"{TEI}p")
            assert clean(he_p.text or "") == clean(section.original_hebrew_block)
            continue
        he_p, en_p = div.findall(f"{TEI}p")
        assert he_p.get("{http://www.w3.org/XML/1998/namespace}lang") == "he"
        he = he_p.findall(f"{TEI}seg")
        en = en_p.findall(f"{TEI}seg")
        phrases = _phrases(section)
        assert [clean(s.text or "") for s in he] == [clean(t.hebrew_phrase) for t in phrases]
        assert [clean(s.text or "") for s in en] == [clean(t.english_translation) for t in phrases]
        for h, e in zip(he, en, strict=True):
            assert ids[h.get("corresp").lstrip("#")] is e
            assert ids[e.get("corresp").lstrip("#")] is h
        refs = [r.get("target") for r in en_p.iter(f"{TEI}ref")]
        assert refs == [t.sefaria_link for t in phrases if t.sefaria_link]
        notes = div.findall(f".//{TEI}note[@place]")
        assert len(notes) == len(section.footnotes)
        for note, want in zip(
            sorted(notes, key=lambda n: int(n.get(XML_ID)[1:])), section.footnotes, strict=True
        ):
            texts = [clean(p.text or "") for p in note.findall(f"{TEI}p")]
            assert texts == [clean(want.content), clean(want.translation)]


# --- EPUB 3: epubcheck ---------------------------------------------------------------


def test_epub_passes_epubcheck_with_no_error_and_no_warning(
    doc: ProcessedDocument, tmp_path: Path
) -> None:
    path = tmp_path / "book.epub"
    export(doc, "epub", path, exported_at=WHEN)
    with zipfile.ZipFile(path) as z:
        opf = z.read("OEBPS/content.opf").decode()
        chapters = [n for n in z.namelist() if re.fullmatch(r"OEBPS/s\d+\.xhtml", n)]
        notes = sum(z.read(n).decode().count('epub:type="endnote"') for n in chapters)
        backlinks = sum(z.read(n).decode().count('role="doc-backlink"') for n in chapters)
        nav = z.read("OEBPS/nav.xhtml").decode()
    assert 'page-progression-direction="rtl"' in opf
    assert len(chapters) == len(doc.sections)
    assert nav.count("<li>") == len(doc.sections) + 1  # + the title page
    assert notes == backlinks == len(_notes(doc))
    fatals, errors, warnings, out = export_tools.epubcheck(path)
    assert (fatals, errors, warnings) == (0, 0, 0), out[-3000:]


# --- DOCX: python-docx, then LibreOffice and libtext's own extract_pdf -------------------


def _docx_parts(data: bytes) -> tuple[Any, Any]:
    import docx
    from lxml import etree

    document = docx.Document(io.BytesIO(data))
    footnotes = next(
        (p for p in document.part.package.parts if p.partname == "/word/footnotes.xml"), None
    )
    return document, None if footnotes is None else etree.fromstring(footnotes.blob)


@pytest.mark.parametrize("layout", ["side-by-side", "interleaved"])
def test_docx_has_word_footnotes_hyperlinks_headings_and_rtl_hebrew(
    doc: ProcessedDocument, layout: str
) -> None:
    pytest.importorskip("docx")
    data = export(doc, "docx", layout=layout, exported_at=WHEN)
    assert data is not None
    document, footnotes = _docx_parts(data)
    headings = [p for p in document.paragraphs if p.style.name == "Heading 1"]
    assert len(headings) == len(doc.sections)
    body = document.element.body
    urls = [
        document.part.rels[
            h.get("{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id")
        ].target_ref
        for h in body.iter(f"{W}hyperlink")
    ]
    assert urls == _links(doc)
    refs = list(body.iter(f"{W}footnoteReference"))
    assert len(refs) == len(_notes(doc))
    if _notes(doc):
        assert footnotes is not None
        bodies = [f for f in footnotes.findall(f"{W}footnote") if int(f.get(f"{W}id")) > 0]
        assert len(bodies) == len(refs)
        texts = ["".join(t.text or "" for t in f.iter(f"{W}t")) for f in bodies]
        for note in _notes(doc):
            assert any(clean(note.content) in t and clean(note.translation) in t for t in texts)
    # Every Hebrew phrase is a right-to-left paragraph of right-to-left runs in a font with
    # points and cantillation.
    hebrew = {clean(t.hebrew_phrase) for s in doc.sections for t in s.translation_data}
    seen = 0
    for p in body.iter(f"{W}p"):
        text = "".join(t.text or "" for t in p.iter(f"{W}t"))
        if text in hebrew:
            seen += 1
            assert p.find(f"{W}pPr/{W}bidi") is not None
            for run in p.findall(f"{W}r"):
                if run.find(f"{W}t") is not None:
                    assert run.find(f"{W}rPr/{W}rtl") is not None
                    assert run.find(f"{W}rPr/{W}rFonts").get(f"{W}cs") == "Ezra SIL"
    assert seen >= len(hebrew) * 0.9  # a phrase may also hold its note's reference run


_ENGLISH = re.compile(r"(?:gloss|note) [a-z]+")


def _found_in_order(wanted: list[str], stream: str, *, window: int) -> list[str]:
    """The items of ``wanted`` not found in ``stream`` in order (each within ``window``)."""
    pos, missing = 0, []
    for item in wanted:
        at = stream.find(item, pos)
        if at < 0 or at - pos > window:
            missing.append(item)
        else:
            pos = at + len(item)
    return missing


def test_docx_opened_by_libreoffice_reads_back_every_section_in_order(
    doc: ProcessedDocument, tmp_path: Path
) -> None:
    from libtext import extract_pdf

    pytest.importorskip("docx")
    path = tmp_path / "text.docx"
    export(doc, "docx", path, layout="interleaved", exported_at=WHEN)
    pdf = export_tools.to_pdf(path, tmp_path)
    read = extract_pdf(pdf, max_pages=None)
    # Every line, whatever role the extractor gave it (a gloss at the top of a page may
    # look like a running header).
    text = "\n".join(line.text for page in read.pages for line in page.lines)
    letters = "".join(export_docs.hebrew_letters(text))
    english = " ".join(_ENGLISH.findall(text))
    for section in doc.sections:
        heading = "".join(export_docs.hebrew_letters(section.chapter_title))
        assert heading in letters
    hebrew = [
        "".join(export_docs.hebrew_letters(t.hebrew_phrase))
        for s in doc.sections
        for t in s.translation_data
    ]
    assert _found_in_order([h for h in hebrew if h], letters, window=400) == []
    glosses = [t.english_translation for s in doc.sections for t in s.translation_data]
    assert _found_in_order(glosses, english, window=400) == []


# --- HTML reader page: Chromium at phone and desktop widths --------------------------


class _Paragraphs(HTMLParser):
    """Each ``<p>``'s attributes and text (note numbers in ``<sup>`` left out), and any
    element that would load something."""

    def __init__(self) -> None:
        super().__init__()
        self.paragraphs: list[tuple[dict[str, str | None], str]] = []
        self.loads: list[str] = []
        self._open: dict[str, str | None] | None = None
        self._text = ""
        self._sup = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("img", "script", "link", "iframe", "source", "video", "audio", "object"):
            self.loads.append(tag)
        if tag == "p":
            self._open, self._text = dict(attrs), ""
        elif tag == "sup":
            self._sup += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "sup":
            self._sup -= 1
        elif tag == "p" and self._open is not None:
            self.paragraphs.append((self._open, clean(self._text)))
            self._open = None

    def handle_data(self, data: str) -> None:
        if self._open is not None and not self._sup:
            self._text += data


@pytest.mark.parametrize("layout", ["side-by-side", "interleaved"])
def test_reader_page_renders_in_chromium_offline_with_rtl_hebrew(
    doc: ProcessedDocument, tmp_path: Path, layout: str
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    export(doc, "html", site / "reader.html", layout=layout, exported_at=WHEN)
    trap = export_tools.RequestTrap()
    server = export_tools.PageServer(site)
    url = server.base + "reader.html"
    try:
        for name, (width, height) in {"phone": (390, 844), "desktop": (1280, 900)}.items():
            shot = tmp_path / f"{name}.png"
            dom = export_tools.chromium(url, width=width, height=height, out=shot, trap=trap)
            assert export_tools.png_size(shot)[0] == width
            parsed = _Paragraphs()
            parsed.feed(dom)
            assert parsed.loads == []
            by_text: dict[str, list[dict[str, str | None]]] = {}
            for attrs, text in parsed.paragraphs:
                by_text.setdefault(text, []).append(attrs)
            for section in doc.sections:
                for phrase in section.translation_data:
                    found = by_text[clean(phrase.hebrew_phrase)]
                    assert all(a.get("dir") == "rtl" and a.get("lang") == "he" for a in found)
                    gloss = clean(phrase.english_translation)  # then its link, if any
                    english = [a for a, t in parsed.paragraphs if t.startswith(gloss)]
                    assert english and all(a.get("dir") == "ltr" for a in english)
            for section in doc.sections:
                assert f'id="s{section.sequence_id}"' in dom
                assert f'href="#s{section.sequence_id}"' in dom
    finally:
        trap.close()
        server.close()
    assert trap.from_page(server.base) == []  # nothing sent anywhere (the browser's own aside)
    assert {p for p in server.paths if p != "/favicon.ico"} == {"/reader.html"}


def test_the_request_trap_sees_a_page_that_loads_from_the_network(tmp_path: Path) -> None:
    # The check above can fail: a page that loads a picture from elsewhere is caught.
    site = tmp_path / "site"
    site.mkdir()
    (site / "leaky.html").write_text('<p>x</p><img src="http://example.invalid/a.png">')
    trap = export_tools.RequestTrap()
    server = export_tools.PageServer(site)
    url = server.base + "leaky.html"
    try:
        export_tools.chromium(url, width=390, height=300, out=tmp_path / "l.png", trap=trap)
    finally:
        trap.close()
        server.close()
    assert any(b"example.invalid" in r for r in trap.from_page(server.base))


# --- what every format carries ------------------------------------------------------


@pytest.mark.parametrize("fmt", ["md", "tei", "html"])
def test_metadata_page_range_revision_date_and_no_internal_ids(fmt: str) -> None:
    doc = ProcessedDocument(
        source_metadata={"publication_title": "ספר", "work_title": "תניא", "author_name": "אדה״ז"},
        sections=[
            Section(
                sequence_id=1,
                chapter_number="1",
                chapter_title="פרק א",
                page_ref="5",
                original_hebrew_block="שלום",
            ),
            Section(
                sequence_id=2,
                chapter_number="2",
                chapter_title="פרק ב",
                page_ref="7-9",
                original_hebrew_block="עולם",
            ),
        ],
        work_id="3400000000",
        first_page_id="3401310006",
        last_page_id="3401310011",
        page_count=5,
    )
    out = export(doc, fmt, exported_at=WHEN)
    assert out is not None
    text = out.decode()
    for want in ("ספר", "תניא", "אדה״ז", "5–9", "2026-11-27", "פרק א", "פרק ב"):
        assert want in text, want
    for internal in ("3400000000", "3401310006", "3401310011"):
        assert internal not in text


def test_a_coarse_link_is_marked_in_every_format(monkeypatch: pytest.MonkeyPatch) -> None:
    import libtext.sefaria as sefaria

    real = sefaria.find_citations

    def coarse(text: str) -> list[sefaria.Citation]:
        return [
            sefaria.Citation(
                c.start, c.end, c.text, c.ref, c.english, c.url, c.confidence, c.kind, exact=False
            )
            for c in real(text)
        ]

    url = "https://www.sefaria.org/Genesis.21.33"
    doc = ProcessedDocument(
        sections=[
            Section(
                sequence_id=1,
                chapter_title="פרק א",
                original_hebrew_block='כמ"ש (בראשית כא, לג) ויטע',
                translation_data=[
                    TranslationData(
                        hebrew_phrase='כמ"ש (בראשית כא, לג) ויטע',
                        english_translation="as written",
                        sefaria_link=url,
                    )
                ],
            )
        ]
    )
    exact = {f: export(doc, f, exported_at=WHEN) for f in ("md", "tei", "html")}
    monkeypatch.setattr(sefaria, "find_citations", coarse)
    marked = {f: export(doc, f, exported_at=WHEN) for f in ("md", "tei", "html")}
    signs = {"md": b"(coarse link)", "tei": b'type="coarse"', "html": b'class="src coarse"'}
    for fmt, sign in signs.items():
        assert sign not in (exact[fmt] or b"")
        assert sign in (marked[fmt] or b"")
    assert link_label(url) == "Genesis 21.33"


def test_same_input_same_bytes_and_streaming_gives_the_same_file(doc: ProcessedDocument) -> None:
    for fmt in ("md", "tei", "html", "epub"):
        whole = export(doc, fmt, exported_at=WHEN)
        assert whole == export(doc, fmt, exported_at=WHEN)
        assert b"".join(iter_export(doc, fmt, exported_at=WHEN)) == whole


def test_an_epub_has_the_same_bytes_whatever_the_clock_says(
    doc: ProcessedDocument, monkeypatch: pytest.MonkeyPatch
) -> None:
    # zipfile stamps an entry given by name with the current time: an export that
    # straddles a second would differ from the same export a moment later.
    import time

    first = export(doc, "epub", exported_at=WHEN)
    monkeypatch.setattr(time, "time", lambda: 2_000_000_000.0)
    assert export(doc, "epub", exported_at=WHEN) == first


def test_bad_arguments_fail_before_any_work(tmp_path: Path) -> None:
    doc = ProcessedDocument()
    with pytest.raises(InvalidInputError, match="docx, epub, md, tei, html"):
        export(doc, "pdf")
    with pytest.raises(InvalidInputError, match="layout"):
        export(doc, "md", layout="columns")
    with pytest.raises(InvalidTypeError):
        export({"sections": []}, "md")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="layout"):
        export(doc, "md", layuot="interleaved")  # type: ignore[call-arg]
    target = tmp_path / "out.md"
    with pytest.raises(InvalidInputError):
        export(doc, "nope", target)
    assert not target.exists() and list(tmp_path.iterdir()) == []
    assert set(FORMATS) == {"docx", "epub", "md", "tei", "html"}


def test_text_that_xml_cannot_hold_is_dropped_not_fatal() -> None:
    doc = ProcessedDocument(
        sections=[
            Section(
                sequence_id=1,
                chapter_title="a\x01b",
                original_hebrew_block="שלום\x0bעולם\x1f",
                translation_data=[
                    TranslationData(hebrew_phrase="שלום\x0b", english_translation="x\x07y")
                ],
                footnotes=[Footnote(marker="1", content="הערה\x02", translation="note\x03")],
            )
        ]
    )
    for fmt in FORMATS:
        if fmt == "docx":
            pytest.importorskip("docx")
        data = export(doc, fmt, exported_at=WHEN)
        assert data
        if fmt in ("md", "tei", "html"):
            assert not re.search(rb"[\x00-\x08\x0b\x0c\x0e-\x1f]", data)


def test_docx_without_python_docx_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from libtext.errors import ConfigurationError

    monkeypatch.setitem(sys.modules, "docx", None)  # as if python-docx were not installed
    monkeypatch.delitem(sys.modules, "libtext.export._docx", raising=False)
    with pytest.raises(ConfigurationError, match=r"pip install 'libtext\[export\]'"):
        export(ProcessedDocument(), "docx")
