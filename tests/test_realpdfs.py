"""Every real PDF at hand goes through extraction and JSON without a crash or bad text.

The real Hebrew PDFs of ``../shared/realdata/pdfs`` (made by InDesign, Word, Quartz,
Print to PDF, LaTeX, Typst, OCR layers; see its MANIFEST.md) and the shared fixtures
are read from ``../shared`` and never copied here; the tests skip when they are absent.
Bad input (a damaged, encrypted or empty fixture) must raise a ``LibtextError``; any
other PDF must give text that is valid Unicode (no lone surrogate) and serialises.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.conftest import FIXTURES, SHARED

from libtext.errors import LibtextError
from libtext.pdf import extract_pdf

REALDATA = SHARED / "realdata" / "pdfs"


def _pdfs() -> list[Path]:
    found = []
    for folder in (REALDATA, FIXTURES):
        if folder.is_dir():
            found.extend(sorted(folder.glob("*.pdf")))
    return found


PDFS = _pdfs()


@pytest.mark.skipif(not PDFS, reason=f"no real PDFs at {REALDATA} or {FIXTURES}")
@pytest.mark.parametrize("pdf", PDFS, ids=[p.name for p in PDFS])
def test_extracts_to_valid_json(pdf: Path) -> None:
    try:
        doc = extract_pdf(pdf, max_pages=None, max_bytes=None)
    except LibtextError:
        return  # bad input told apart from a bug: a typed error is the right answer
    dumped = doc.model_dump_json()
    assert json.loads(dumped)["pages"]
    for page in doc.pages:
        for line in page.lines:
            line.text.encode("utf-8")  # raises on a lone surrogate
            assert line.text == line.text.strip() and line.text


def _gold(name: str) -> dict[str, object]:
    path = REALDATA / f"{name}.gold.json"
    if not path.is_file():
        pytest.skip(f"{path} not found (set LIBTEXT_SHARED)")
    gold: dict[str, object] = json.loads(path.read_text("utf-8"))
    return gold


@pytest.mark.parametrize(
    "name",
    [
        "mda_first_aid_mental_indesign",
        "mda_lesson01_printtopdf",
        "hebacademic_book_example_lualatex",
    ],
)
def test_real_producers_give_most_gold_lines(name: str) -> None:
    """InDesign (1 Tf), Print to PDF (327.68 Tf) and LuaTeX (visual order) files."""
    gold = _gold(name)
    doc = extract_pdf(REALDATA / f"{name}.pdf", max_pages=None, max_bytes=None)
    pages = {p.number: {" ".join(ln.text.split()) for ln in p.lines} for p in doc.pages}
    lines = gold["lines"]
    assert isinstance(lines, list)
    found = sum(" ".join(g["text"].split()) in pages.get(g["page"], set()) for g in lines)
    assert found >= 0.75 * len(lines), (found, len(lines))


def _page_golds() -> list[Path]:
    return sorted(REALDATA.glob("*.pages.json")) if REALDATA.is_dir() else []


def _times(phrase: str, text: str) -> int:
    """How often ``phrase`` stands in ``text`` as whole words."""
    words, tokens = phrase.split(), text.split()
    n = len(words)
    return sum(tokens[k : k + n] == words for k in range(len(tokens) - n + 1)) if n else 0


PAGE_GOLDS = _page_golds()


@pytest.mark.skipif(not PAGE_GOLDS, reason=f"no page gold at {REALDATA}")
@pytest.mark.parametrize("gold_path", PAGE_GOLDS, ids=[p.name for p in PAGE_GOLDS])
def test_page_fields_stay_out_of_the_main_text(gold_path: Path) -> None:
    """A running header's fields, a page number and a margin note or number (set
    beside a line, on its baseline) never land in a page's main text."""
    gold = json.loads(gold_path.read_text("utf-8"))
    doc = extract_pdf(REALDATA / gold["file"], max_pages=None, max_bytes=None)
    pages = {p.number: p for p in doc.pages}
    for page_gold in gold["pages"]:
        number = page_gold["page"]
        page = pages[number]
        main = " ".join(ln.text for ln in page.lines if ln.kind in ("body", "heading"))
        expected = " ".join(ln for block in page_gold["body"] for ln in block)
        fields = [*page_gold.get("header", []), *page_gold.get("margin", [])]
        fields += [page_gold["page_number"]] if page_gold.get("page_number") else []
        for field in fields:
            assert _times(field, main) <= _times(field, expected), (number, field)


OCR_LAYERS = sorted(REALDATA.glob("*ocrlayer*.pdf")) if REALDATA.is_dir() else []


def _layer_word_pairs(pdf: Path, number: int) -> set[tuple[str, str]]:
    """The pairs of words the OCR layer of page ``number`` writes apart: a space
    character of its own stream (not one pdfium inferred) between a word and a letter."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument(pdf)
    try:
        page = doc[number - 1]
        textpage = page.get_textpage()
        text = textpage.get_text_range(0, textpage.count_chars())
        pairs = set()
        for i, ch in enumerate(text[:-1]):
            if ch != " " or not i or raw.FPDFText_IsGenerated(textpage, i):
                continue
            before, after = text[:i].split()[-1:], text[i + 1 :].split()[:1]
            if before and after and text[i - 1] in before[0] and text[i + 1].isalpha():
                pairs.add((before[0], after[0]))
        return pairs
    finally:
        doc.close()


@pytest.mark.skipif(not OCR_LAYERS, reason=f"no OCR-layer PDFs at {REALDATA}")
@pytest.mark.parametrize("pdf", OCR_LAYERS, ids=[p.name for p in OCR_LAYERS])
def test_an_ocr_layers_own_word_spaces_are_kept(pdf: Path) -> None:
    # The layer's positions come from the scan: a space it writes parts two words even
    # where their boxes abut (a one-letter word boxed tight against the next, Yiddish
    # "אַ"). The truth is the layer's own stream, not libtext's output.
    gold = REALDATA / pdf.name.replace(".pdf", ".pages.json")
    numbers = sorted(p["page"] for p in json.loads(gold.read_text("utf-8"))["pages"])
    for page in (extract_pdf(pdf, pages=range(n - 1, n), max_bytes=None).pages[0] for n in numbers):
        text = "\n".join(line.text for line in page.lines)
        layer = _layer_word_pairs(pdf, page.number)
        joined = {(a, b) for a, b in layer if a + b in text and f"{a} {b}" not in text}
        assert not joined, (page.number, sorted(joined)[:5])
