"""Pages read with pdfium's own calls (``libtext.pdf._pages``) give what pypdfium2's
wrappers give: the same text, the same answer about images; and the page's letter
count (``_letters.script_letters``) counts what ``str.count`` counts."""

from __future__ import annotations

from pathlib import Path

import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest

from libtext.pdf._letters import letters_in_bytes, script_letters
from libtext.pdf._pages import Page, has_images, page_text, text_page

ROOT = Path(__file__).resolve().parents[1]
PDFS = sorted(
    [
        *(ROOT / "tests" / "layouts").glob("*.pdf"),
        *(ROOT / "tests" / "pages").glob("*.pdf"),
        *(p for p in (ROOT.parent / "shared" / "fixtures").glob("*.pdf") if p.stem == "book"),
        *(ROOT.parent / "shared" / "fixtures").glob("empty_text.pdf"),
    ]
)


@pytest.mark.parametrize("path", PDFS, ids=[p.stem for p in PDFS])
def test_page_text_and_images_as_pypdfium2(path: Path) -> None:
    doc = pypdfium2.PdfDocument(path)
    try:
        for i in range(len(doc)):
            wrapped = doc[i]
            textpage = wrapped.get_textpage()
            page = Page(pdfium_c, doc.raw, i)
            tp = text_page(pdfium_c, page.raw)
            try:
                n = int(pdfium_c.FPDFText_CountChars(tp))
                assert page_text(pdfium_c, tp, n) == textpage.get_text_range()
                images = any(
                    True for _ in wrapped.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE])
                )
                assert has_images(pdfium_c, page.raw) == images
            finally:
                pdfium_c.FPDFText_ClosePage(tp)
                page.close()
                textpage.close()
                wrapped.close()
    finally:
        doc.close()


def test_page_closes_once() -> None:
    doc = pypdfium2.PdfDocument(PDFS[0])
    try:
        page = Page(pdfium_c, doc.raw, 0)
        page.close()
        page.close()  # a second close is no second FPDF_ClosePage
        assert page.raw is None
        with pytest.raises(pypdfium2.PdfiumError):
            Page(pdfium_c, doc.raw, len(doc) + 5)
    finally:
        doc.close()


def test_script_letters_count_as_str_count() -> None:
    hebrew = [chr(c) for c in range(0x05D0, 0x05EB)]
    latin = [chr(c) for c in [*range(0x41, 0x5B), *range(0x61, 0x7B)]]
    # Every code point of the first planes (surrogate halves too), each once, and the
    # letters again among others.
    everything = "".join(chr(c) for c in range(0x20000))
    for text in (everything, "שלום world, (12) אבג xyz\u05b0\u05c3 ﬠ Ａ", ""):
        expected = sum(text.count(ch) for ch in hebrew), sum(text.count(ch) for ch in latin)
        assert letters_in_bytes(text) == expected
        assert script_letters(text) == expected  # the C twin where built
